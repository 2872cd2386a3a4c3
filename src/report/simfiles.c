/* The output directory of -s (reference §10.2), as VDbench 5.04.07 writes it for a simulation
 * [observed]: logfile.html (arguments and the Simulating lines), summary.html (the first five
 * links, the Simulating lines, "Vdbench simulation completed successfully"), parmfile.html,
 * parmscan.html, status.html's header, an empty flatfile.html and "Run totals" in totals.html.
 * sim is the listing -s printed, one timestamped line per line. */
#include "ioramp/report.h"

#include <errno.h>
#include <string.h>

#include "vdbtext.h"

static void put_lines(FILE *f, const char *sim, bool skip_total)
{
	const char *l = sim;

	while (l && *l) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);

		/* summary.html has the Simulating lines only: no notices before them, no "Total
		 * amount of Run Definitions" line */
		if (!skip_total || (n > 13 && !strncmp(l + 13, "Simulating", 10)))
			fprintf(f, "%.*s\n", (int)n, l);
		l = nl ? nl + 1 : NULL;
	}
}

static int put_file(const struct rep_exec *x, const char *name, const char *text)
{
	FILE *f = rep_html_open(x, name);

	if (!f)
		return -errno;
	fputs(text, f);
	return rep_html_close(f);
}

int rep_sim_files_write(const struct rep_exec *x, const char *sim)
{
	char tod[REP_TOD_LEN], local[REP_STAMP_LEN], utc[REP_STAMP_LEN];
	const struct rep_ops *own[] = { &rep_parmfile, &rep_parmscan };
	FILE *f;
	int ret = 0;

	for (size_t i = 0; !ret && i < IORAMP_ARRAY_SIZE(own); i++) {
		void *st;

		ret = own[i]->open(x, &st);
	}
	if (!ret)
		ret = put_file(x, "flatfile.html", "");
	if (!ret)
		ret = put_file(x, "totals.html", "Run totals\n\n");
	if (!ret)
		ret = put_file(x, "status.html",
			       "* Vdbench status\n\n"
			       "* The objective of this file is to contain easily parseable "
			       "information about the current state of Vdbench.\n"
			       "* This then can serve as an 'official' interface for any software "
			       "monitoring Vdbench.\n"
			       "* Each line of output will be immediately flushed to the file "
			       "system, making its content accessible by any monitoring program.\n"
			       "* The values below are all tab-delimited.\n\n");
	if (ret)
		return ret;
	rep_fmt_tod(tod, x->start_tod_ns);
	f = rep_html_open(x, "logfile.html");
	if (!f)
		return -errno;
	fprintf(f, "ioramp %s (VDbench 5.04.07-compatible output)\n\n", IORAMP_VERSION);
	for (int i = 1; i < x->argc; i++) {
		const char *a = x->argv[i];
		bool joins = a[0] == '-' && strlen(a) == 2 && i + 1 < x->argc &&
			     x->argv[i + 1][0] != '-' && strcmp(a, "-s");

		fprintf(f, "%s input argument scanned: '%s%s'\n", tod, a, joins ? x->argv[i + 1] : "");
		i += joins;
	}
	put_lines(f, sim, false);
	ret = rep_html_close(f);
	if (ret)
		return ret;
	f = rep_html_open(x, "summary.html");
	if (!f)
		return -errno;
	rep_fmt_created(local, x->start_tod_ns);
	rep_fmt_created_utc(utc, x->start_tod_ns);
	fprintf(f, "ioramp %s (VDbench 5.04.07-compatible output)\n", IORAMP_VERSION);
	fprintf(f, "Vdbench summary report, created %s (%s)\n\n", local, utc);
	fputs("Link to logfile:                 <A HREF=\"logfile.html\">logfile</A>\n"
	      "Run totals:                      <A HREF=\"totals.html\">totals</A>\n"
	      "Vdbench status:                  <A HREF=\"status.html\">status</A>\n"
	      "Copy of input parameter files:   <A HREF=\"parmfile.html\">parmfile</A>\n"
	      "Copy of parameter scan detail:   <A HREF=\"parmscan.html\">parmscan</A>\n",
	      f);
	put_lines(f, sim, true);
	fprintf(f, "%s Vdbench simulation completed successfully\n", tod);
	return rep_html_close(f);
}
