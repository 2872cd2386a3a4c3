/* The tables of report.html: a workload's curve points under its charts, the IOPS reached
 * under each latency threshold, and every run's average at the end of the page. */
#include "html.h"

#include <string.h>

#include "doc.h"
#include "svg.h"

static void cell_text(FILE *f, const char *text)
{
	fputs("<td class=\"t\">", f);
	rep_html_escape(f, text);
	fputs("</td>", f);
}

static void cell_num(FILE *f, double v, int decimals)
{
	char buf[48];

	fprintf(f, "<td>%s</td>", rep_fmt_group(v, decimals, buf, sizeof(buf)));
}

static void cell_lat(FILE *f, const json_t *o, const char *path)
{
	char buf[48];

	fprintf(f, "<td>%s</td>", rep_fmt_lat_us(rep_doc_num(o, path), buf, sizeof(buf)));
}

static void point_row(FILE *f, const struct rep_html_group *g, size_t c, const json_t *p,
		      bool is_max)
{
	char label[200];

	fputs("<tr>", f);
	if (g->nr > 1)
		cell_text(f, rep_html_curve_label(g, c, label, sizeof(label)));
	cell_text(f, rep_doc_str(p, "name", "?"));
	if (is_max)
		fputs("<td>max</td>", f);
	else
		cell_num(f, rep_doc_num(p, "target_iops"), 0);
	cell_num(f, rep_doc_num(p, "iops"), 0);
	cell_num(f, rep_doc_num(p, "mb_per_sec"), 2);
	cell_num(f, rep_doc_num(p, "read_pct"), 1);
	cell_num(f, rep_doc_num(p, "qdepth"), 1);
	cell_lat(f, p, "service/mean_us");
	cell_lat(f, p, "service/percentiles_us/50");
	cell_lat(f, p, "service/percentiles_us/99");
	cell_lat(f, p, "service/percentiles_us/99.9");
	cell_lat(f, p, "service/percentiles_us/99.99");
	cell_lat(f, p, "response/mean_us");
	cell_lat(f, p, "response/percentiles_us/99");
	fputs("</tr>\n", f);
}

void rep_html_points_table(FILE *f, const struct rep_html_group *g)
{
	const json_t *p;
	size_t i;

	fprintf(f,
		"<div class=\"scroll\"><table class=\"points\"><thead><tr><th colspan=\"%d\"></th>"
		"<th colspan=\"5\" class=\"grp\">Service time (\xc2\xb5s)</th>"
		"<th colspan=\"2\" class=\"grp\">Response time (\xc2\xb5s)</th></tr>\n<tr>",
		g->nr > 1 ? 7 : 6);
	if (g->nr > 1)
		fputs("<th class=\"t\">Curve</th>", f);
	fputs("<th class=\"t\">Run</th><th>Target IOPS</th><th>IOPS</th><th>MB/s</th><th>Read %</th><th>QD</th>"
	      "<th>mean</th><th>p50</th><th>p99</th><th>p99.9</th><th>p99.99</th>"
	      "<th>mean</th><th>p99</th></tr></thead>\n<tbody>\n",
	      f);
	for (size_t c = 0; c < g->nr; c++) {
		const json_t *max = json_object_get(g->curves[c], "max");

		if (json_is_object(max))
			point_row(f, g, c, max, true);
		json_array_foreach (json_object_get(g->curves[c], "points"), i, p)
			point_row(f, g, c, p, false);
	}
	fputs("</tbody></table></div>\n", f);
}

static void sla_cell(FILE *f, const json_t *at)
{
	const char *status = rep_doc_str(at, "status", "not_reached");
	char n[48];

	rep_fmt_group(rep_doc_num(at, "iops"), 0, n, sizeof(n));
	if (!strcmp(status, "reached"))
		fprintf(f, "<td>%s</td>", n);
	else if (!strcmp(status, "all_below"))
		fprintf(f,
			"<td title=\"every point is under the threshold: the highest load "
			"measured\">\xe2\x89\xa5 %s</td>",
			n);
	else
		fputs("<td class=\"muted\" title=\"even the lightest point is above the threshold\">"
		      "not reached</td>",
		      f);
}

/* A threshold label as a cell, "100us" shown as "100 µs". */
static void unit_spaced(FILE *f, const char *label)
{
	size_t digits = strspn(label, "0123456789.");
	const char *unit = label + digits;

	fprintf(f, "<td class=\"t\">%.*s %s</td>", (int)digits, label,
		!strcmp(unit, "us") ? "\xc2\xb5s" : unit);
}

static void sla_rows(FILE *f, const struct rep_html_group *g, size_t c)
{
	json_t *sla = rep_doc_curve_sla_list(g->live, g->curves[c]);
	const json_t *e;
	char label[200], thr[32];
	size_t i;

	json_array_foreach (sla, i, e) {
		fputs("<tr>", f);
		if (!i) {
			fprintf(f, "<td class=\"t\" rowspan=\"%zu\">", json_array_size(sla));
			rep_html_escape(f, rep_html_curve_label(g, c, label, sizeof(label)));
			fputs("</td>", f);
		}
		rep_sla_label(rep_doc_num(e, "threshold_us") * 1e3, thr, sizeof(thr));
		unit_spaced(f, thr);
		sla_cell(f, rep_doc_get(e, "service/mean"));
		sla_cell(f, rep_doc_get(e, "service/p99"));
		sla_cell(f, rep_doc_get(e, "response/mean"));
		sla_cell(f, rep_doc_get(e, "response/p99"));
		fputs("</tr>\n", f);
	}
	json_decref(sla);
}

void rep_html_sla_table(FILE *f, const struct rep_html_group *g)
{
	fputs("<div class=\"scroll\"><table class=\"sla\"><thead><tr><th colspan=\"2\"></th>"
	      "<th colspan=\"2\" class=\"grp\">Service time</th>"
	      "<th colspan=\"2\" class=\"grp\">Response time</th></tr>\n"
	      "<tr><th class=\"t\">Curve</th><th class=\"t\">Latency under</th><th>mean</th><th>p99</th><th>mean</th>"
	      "<th>p99</th></tr></thead>\n<tbody>\n",
	      f);
	for (size_t c = 0; c < g->nr; c++)
		sla_rows(f, g, c);
	fputs("</tbody></table></div>\n", f);
}

static void run_row(FILE *f, const json_t *run, const json_t *avg)
{

	fputs("<tr>", f);
	cell_text(f, rep_doc_str(run, "name", "?"));
	cell_text(f, rep_doc_str(run, "rate/text", ""));
	cell_text(f, rep_doc_str(run, "for_loops", ""));
	cell_text(f, rep_doc_str(avg, "label", "-"));
	cell_num(f, rep_doc_num(avg, "total/iops"), 0);
	cell_num(f, rep_doc_num(avg, "total/mb_per_sec"), 2);
	cell_num(f, rep_doc_num(avg, "total/read_pct"), 1);
	cell_num(f, rep_doc_num(avg, "total/bytes_per_io"), 0);
	cell_num(f, rep_doc_num(avg, "total/qdepth"), 1);
	cell_lat(f, avg, "total/service/mean_us");
	cell_lat(f, avg, "total/service/percentiles_us/99");
	cell_lat(f, avg, "total/response/mean_us");
	cell_lat(f, avg, "total/response/percentiles_us/99");
	cell_num(f, rep_doc_num(avg, "cpu/used_pct"), 1);
	fputs("</tr>\n", f);
}

void rep_html_runs_table(FILE *f, const json_t *doc, const struct rep_doc *live)
{
	const json_t *run;
	size_t i;

	fputs("<div class=\"scroll\"><table class=\"runs\"><thead><tr><th colspan=\"9\"></th>"
	      "<th colspan=\"2\" class=\"grp\">Service time (\xc2\xb5s)</th>"
	      "<th colspan=\"2\" class=\"grp\">Response time (\xc2\xb5s)</th><th></th></tr>\n"
	      "<tr><th class=\"t\">Run</th><th class=\"t\">Rate</th><th class=\"t\">For loops</th>"
	      "<th class=\"t\">Average of</th><th>IOPS</th>"
	      "<th>MB/s</th><th>Read %</th><th>Bytes/IO</th><th>QD</th><th>mean</th><th>p99</th>"
	      "<th>mean</th><th>p99</th><th>CPU %</th></tr></thead>\n<tbody>\n",
	      f);
	json_array_foreach (json_object_get(doc, "runs"), i, run)
		run_row(f, run, rep_doc_run_average(live, run, i));
	fputs("</tbody></table></div>\n", f);
}
