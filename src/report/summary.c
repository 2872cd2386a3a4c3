/* summary.html (reference §10.2): links to every other file (the host reports, hosts.c, and
 * config.html, config.c, as VDbench 5.04.07 links them), then each run's anchor, interval
 * lines, average line and short warnings, as on the console. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vdbtext.h"

static void links(FILE *f, const struct rep_exec *x)
{
	const char **names;
	size_t nr;

	fprintf(f, "Link to logfile:                 <A HREF=\"logfile.html\">logfile</A>\n"
		   "Run totals:                      <A HREF=\"totals.html\">totals</A>\n"
		   "Vdbench status:                  <A HREF=\"status.html\">status</A>\n"
		   "Copy of input parameter files:   <A HREF=\"parmfile.html\">parmfile</A>\n"
		   "Copy of parameter scan detail:   <A HREF=\"parmscan.html\">parmscan</A>\n"
		   "Link to errorlog:                <A HREF=\"errorlog.html\">errorlog</A>\n"
		   "Link to flatfile:                <A HREF=\"flatfile.html\">flatfile</A>\n\n");
	if (x->nr_hosts) {
		rep_html_name_links(f, "Link to HOST reports:", x->host_names, x->nr_hosts);
	} else {
		const char *host = rep_host_name(x);

		rep_html_name_links(f, "Link to HOST reports:", &host, 1);
	}
	fprintf(f, "Link to response time histogram: <A HREF=\"histogram.html\">histogram</A>\n"
		   "Link to workload skew report:    <A HREF=\"skew.html\">skew</A>\n");
	names = rep_sd_report_names(x, &nr);
	if (nr)
		rep_html_name_links(f, "Link to SD reports:", names, nr);
	free(names);
	fputc('\n', f);
	names = rep_wd_report_names(x, &nr);
	for (size_t i = 0; i < nr; i++)
		fprintf(f, "Link to workload report:         <A HREF=\"%s.html\">%s</A>\n",
			names[i], names[i]);
	if (nr)
		fputc('\n', f);
	free(names);
}

static int summary_open(const struct rep_exec *x, void **state)
{
	char local[REP_STAMP_LEN], utc[REP_STAMP_LEN];
	struct rep_conlog *c;

	*state = NULL;
	if (!x->outdir)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->x = x;
	c->kind = REP_CONLOG_SUMMARY;
	c->f = rep_html_open(x, "summary.html");
	if (!c->f) {
		int ret = -errno;

		free(c);
		return ret;
	}
	rep_fmt_created(local, x->start_tod_ns);
	rep_fmt_created_utc(utc, x->start_tod_ns);
	fprintf(c->f, "ioramp %s (VDbench 5.04.07-compatible output)\n", IORAMP_VERSION);
	fprintf(c->f, "Vdbench summary report, created %s (%s)\n\n", local, utc);
	links(c->f, x);
	rep_html_run_links(c->f, x);
	fprintf(c->f, "\nLink to config output:           <A HREF=\"config.html\">config</A>\n");
	fflush(c->f);
	*state = c;
	return 0;
}

/* Of the console's messages VDbench 5.04.07's summary.html shows maxdata='s (observed; not
 * the end-of-file lines, not the notes). */
static void summary_message(void *state, const char *line)
{
	if (state && !strncmp(line, "Reached maxdata=", 16))
		rep_conlog_timed(state, line);
}

static void summary_note(void *state, const char *line)
{
	if (state)
		rep_conlog_timed(state, line);
}

static int summary_close(void *state, int status)
{
	struct rep_conlog *c = state;
	int ret;

	if (!c)
		return 0;
	rep_conlog_close(c, status);
	ret = rep_html_close(c->f);
	free(c);
	return ret;
}

const struct rep_ops rep_summary = {
	.name = "summary",
	.file = "summary.html",
	.is_closed_last = true,
	.open = summary_open,
	.run_start = rep_conlog_on_run_start,
	.interval = rep_conlog_on_interval,
	.run_end = rep_conlog_on_run_end,
	.message = summary_message,
	.sum_note = summary_note,
	.close = summary_close,
	.check = rep_conlog_check,
};
