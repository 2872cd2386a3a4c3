/* The parts of report.html that state the whole test: a banner when a point missed its
 * target or ioramp itself was the limit, links to the other files of the output directory,
 * and the set-up table (every SD, the runs' times, the engine, ioramp, kernel and CPU). */
#include "html.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "doc.h"
#include "svg.h"

void rep_html_validity_banner(FILE *f, const json_t *doc)
{
	const json_t *run;
	size_t i, nr_missed = 0, nr_gen = 0, nr = 0;

	json_array_foreach (json_object_get(doc, "runs"), i, run) {
		if (!json_is_object(json_object_get(run, "average")))
			continue;
		nr++;
		nr_missed += json_is_false(json_object_get(run, "is_target_met"));
		nr_gen += !strcmp(rep_doc_str(run, "limited_by", ""), "generator");
	}
	if (!nr_missed && !nr_gen)
		return;
	fputs("<div class=\"invalid\" role=\"alert\"><b>", f);
	if (nr_missed)
		fprintf(f,
			"%zu of %zu runs missed their target rate.</b> Their points are drawn "
			"hollow; the console and the Points table say by how much",
			nr_missed, nr);
	if (nr_gen)
		fprintf(f,
			"%s%zu run%s limited by ioramp's own CPU (the generator), not the "
			"drives%s: those figures measure this host",
			nr_missed ? ". " : "", nr_gen, nr_gen == 1 ? " was" : "s were",
			nr_missed ? "" : "</b>");
	fputs(".</div>\n", f);
}

void rep_html_output_links(FILE *f, const char *files_href)
{
	static const char *const files[][2] = {
		{ "summary.html", "VDbench summary" },
		{ "parmfile.html", "parameters" },
		{ "results.json", "results.json" },
		{ "curves.csv", "curves.csv" },
	};

	fputs("<nav class=\"files\">Files of this run:", f);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
	{
		fputs(" <a href=\"", f);
		rep_html_escape(f, files_href ? files_href : "");
		fprintf(f, "%s\">%s</a>", files[i][0], files[i][1]);
	}
	fputs("</nav>\n", f);
}

static void cell(FILE *f, const char *text)
{
	fputs("<td class=\"t\">", f);
	rep_html_escape(f, text);
	fputs("</td>", f);
}

static void size_cell(FILE *f, double bytes)
{
	char buf[48];

	if (!(bytes > 0))
		fputs("<td class=\"muted\">its own</td>", f);
	else if (bytes >= 1073741824)
		fprintf(f, "<td>%s GiB</td>",
			rep_fmt_group(bytes / 1073741824, 1, buf, sizeof(buf)));
	else
		fprintf(f, "<td>%s MiB</td>", rep_fmt_group(bytes / 1048576, 1, buf, sizeof(buf)));
}

/* "(0,25)" for a range in %, bytes above 200 as VDbench reads them. */
static void range_cell(FILE *f, const json_t *sd)
{
	const json_t *r = json_object_get(sd, "range");
	double lo = rep_doc_num(r, "0"), hi = rep_doc_num(r, "1");

	if (isnan(lo) || isnan(hi))
		fputs("<td class=\"muted\">-</td>", f);
	else if (hi > 200)
		fprintf(f, "<td>(%.0f,%.0f) bytes</td>", lo, hi);
	else
		fprintf(f, "<td>(%g,%g)%%</td>", lo, hi);
}

/* The SDs of the first run that has them (every run of an execution shares its SDs). */
static void sd_table(FILE *f, const json_t *doc)
{
	const json_t *run, *sd, *sds = NULL;
	const char *engine = rep_doc_engine(doc, "?");
	size_t i;

	json_array_foreach (json_object_get(doc, "runs"), i, run)
		if (!sds && json_array_size(json_object_get(run, "sds")))
			sds = json_object_get(run, "sds");
	if (!sds)
		return;
	fputs("<div class=\"scroll\"><table class=\"setup\"><thead><tr><th class=\"t\">SD</th>"
	      "<th class=\"t\">lun</th><th>size</th><th>threads</th><th>range</th>"
	      "<th class=\"t\">openflags</th><th class=\"t\">engine</th></tr></thead>\n<tbody>\n",
	      f);
	json_array_foreach (sds, i, sd) {
		fputs("<tr>", f);
		cell(f, rep_doc_str(sd, "name", "?"));
		cell(f, rep_doc_str(sd, "lun", "?"));
		size_cell(f, rep_doc_num(sd, "size_bytes"));
		fprintf(f, "<td>%.0f</td>", rep_doc_num(sd, "threads"));
		range_cell(f, sd);
		cell(f, rep_doc_str(sd, "openflags", "-"));
		cell(f, engine);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* "300 s measured after 60 s warmup, 5 s intervals", or the range when the runs differ. */
static void times_line(FILE *f, const json_t *doc)
{
	static const char *const keys[] = { "elapsed_s", "warmup_s", "interval_s" };
	double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { 0, 0, 0 };
	const json_t *run;
	size_t i;

	json_array_foreach (json_object_get(doc, "runs"), i, run) {
		if (json_is_null(json_object_get(run, "plan_idx")))
			continue; /* the format run */
		for (int k = 0; k < 3; k++) {
			double v = rep_doc_num(run, keys[k]);

			lo[k] = v < lo[k] ? v : lo[k];
			hi[k] = v > hi[k] ? v : hi[k];
		}
	}
	if (isinf(lo[0]))
		return;
	fputs("<li>Each run: ", f);
	for (int k = 0; k < 3; k++) {
		static const char *const words[] = { "elapsed", "warmup", "interval" };

		fprintf(f, "%s%s ", k ? ", " : "", words[k]);
		if (lo[k] == hi[k])
			fprintf(f, "<b>%g s</b>", lo[k]);
		else
			fprintf(f, "<b>%g-%g s</b>", lo[k], hi[k]);
	}
	fputs(" (the average leaves out the warmup intervals)</li>\n", f);
}

void rep_html_setup(FILE *f, const json_t *doc)
{
	const json_t *host = rep_doc_get(doc, "execution/host");

	fputs("<section id=\"setup\">\n<h2>Set-up</h2>\n<ul class=\"setup\">\n", f);
	times_line(f, doc);
	fputs("<li>Engine <b>", f);
	rep_html_escape(f, rep_doc_str(doc, "execution/engine/spec", rep_doc_engine(doc, "?")));
	fputs("</b> \xc2\xb7 ioramp <b>", f);
	rep_html_escape(f, rep_doc_str(doc, "execution/version", "?"));
	fputs("</b>", f);
	if (host) {
		fputs(" \xc2\xb7 kernel <b>", f);
		rep_html_escape(f, rep_doc_str(host, "kernel", "?"));
		fputs("</b> \xc2\xb7 CPU <b>", f);
		rep_html_escape(f, rep_doc_str(host, "cpu", "?"));
		if (rep_doc_num(host, "nr_cpus") > 0)
			fprintf(f, "</b> (%.0f online)", rep_doc_num(host, "nr_cpus"));
		else
			fputs("</b>", f);
	}
	fputs("</li>\n</ul>\n", f);
	sd_table(f, doc);
	fputs("</section>\n", f);
}
