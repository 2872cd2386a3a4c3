/* Each drive on its own, as reviews draw eight drives: a chart with one line per SD (its
 * IOPS against its mean service time over the curve's points, or against the swept
 * parameter), and a table of every SD at the curve's peak, tail percentiles included. */
#include "html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "svg.h"

static const json_t *point_run(const json_t *doc, const json_t *p)
{
	return json_array_get(json_object_get(doc, "runs"),
			      (size_t)json_integer_value(json_object_get(p, "run")));
}

/* The average of point p's run (borrowed until the next run's is read); NULL when none. */
static const json_t *point_avg(const json_t *doc, const struct rep_html_group *g,
			       const json_t *p)
{
	return rep_doc_run_average(g->live, point_run(doc, p),
				   (size_t)json_integer_value(json_object_get(p, "run")));
}

/* SD name's part of a run's average avg; NULL when absent. */
static const json_t *sd_avg(const json_t *avg, const char *name)
{
	const json_t *s;
	size_t i;

	json_array_foreach (json_object_get(avg, "sds"), i, s)
		if (!strcmp(rep_doc_str(s, "name", ""), name))
			return s;
	return NULL;
}

bool rep_html_has_sds(const json_t *doc, const struct rep_html_group *g)
{
	const json_t *p = json_array_get(json_object_get(g->curves[0], "points"), 0);

	return json_array_size(json_object_get(g->curves[0], "sds")) >= 2 && p &&
	       json_array_size(json_object_get(point_avg(doc, g, p), "sds")) >= 2;
}

void rep_html_sd_chart(FILE *f, const json_t *doc, const struct rep_html_group *g)
{
	const json_t *curve = g->curves[0], *points = json_object_get(curve, "points");
	const json_t *sds = json_object_get(curve, "sds");
	size_t nr = json_array_size(sds);
	struct rep_html_line *l = calloc(nr + 1, sizeof(*l));
	enum rep_svg_style *styles = calloc(nr + 1, sizeof(*styles));
	bool is_x = rep_html_is_sweep(g);
	char title[128], ytitle[64], n1[32], n2[32];
	struct rep_svg_chart c = { .title = title };

	for (size_t s = 0; l && styles && s < nr; s++) {
		const char *name = json_string_value(json_array_get(sds, s));
		const json_t *p;
		size_t i;

		if (rep_html_line_init(&l[s], json_array_size(points)))
			goto out;
		json_array_foreach (points, i, p) {
			const json_t *avg = sd_avg(point_avg(doc, g, p), name ? name : "");

			if (!avg)
				continue;
			l[s].x[l[s].nr] = is_x ? rep_doc_num(p, "x") : rep_doc_num(avg, "iops");
			l[s].y[l[s].nr] = rep_doc_num(avg, "service/mean_us");
			l[s].is_missed[l[s].nr] =
				json_is_false(json_object_get(p, "is_target_met"));
			if (asprintf(&l[s].tips[l[s].nr], "%s, %s: %s IOPS, %s \xc2\xb5s mean",
				     name, rep_doc_str(p, "name", "?"),
				     rep_fmt_group(rep_doc_num(avg, "iops"), 0, n1, 32),
				     rep_fmt_lat_us(l[s].y[l[s].nr], n2, 32)) < 0)
				l[s].tips[l[s].nr] = NULL;
			l[s].nr++;
		}
		snprintf(l[s].name, sizeof(l[s].name), "%s", name ? name : "?");
		snprintf(l[s].color, sizeof(l[s].color), "%s", rep_svg_color(s));
		styles[s] = REP_SVG_POINTS;
	}
	if (!l || !styles)
		goto out;
	if (is_x)
		snprintf(title, sizeof(title), "Per SD: average latency vs %s",
			 rep_doc_str(curve, "x", "?"));
	else
		snprintf(title, sizeof(title), "Per SD: IOPS vs average latency");
	if (g->nr > 1) { /* the first curve only */
		char label[96];

		snprintf(title + strlen(title), sizeof(title) - strlen(title), " (%s)",
			 rep_html_curve_label(g, 0, label, sizeof(label)));
	}
	c.x = (struct rep_svg_axis){ .title = is_x ? rep_doc_str(curve, "x", "?") : "IOPS per SD",
				     .fmt = rep_html_fmt_si };
	snprintf(ytitle, sizeof(ytitle), "Average service time (%s)", rep_html_latency_unit(l, nr));
	c.y = (struct rep_svg_axis){ .title = ytitle, .fmt = rep_html_fmt_plain };
	c.note = g->note;
	rep_html_chart_write(f, &c, l, nr, styles);
out:
	rep_html_lines_free(l, nr);
	free(styles);
}

void rep_html_sd_table(FILE *f, const json_t *doc, const struct rep_html_group *g)
{
	static const char *const lat[] = { "service/mean_us", "service/percentiles_us/99",
					   "service/percentiles_us/99.99",
					   "service/percentiles_us/99.9999" };
	const json_t *curve = g->curves[0], *best = NULL, *p, *s;
	char n1[48];
	size_t i;

	json_array_foreach (json_object_get(curve, "points"), i, p)
		if (!best || rep_doc_num(p, "iops") > rep_doc_num(best, "iops"))
			best = p;
	if (!best)
		return;
	fputs("<div class=\"meta\">At the peak point, ", f);
	rep_html_escape(f, rep_doc_str(best, "name", "?"));
	fputs(":</div>\n<div class=\"scroll\"><table class=\"sds\"><thead><tr><th class=\"t\">SD"
	      "</th><th>IOPS</th><th>MB/s</th><th>read %</th><th>QD</th><th>mean \xc2\xb5s</th>"
	      "<th>p99 \xc2\xb5s</th><th>p99.99 \xc2\xb5s</th><th>p99.9999 \xc2\xb5s</th>"
	      "</tr></thead>\n<tbody>\n",
	      f);
	json_array_foreach (json_object_get(point_avg(doc, g, best), "sds"), i, s) {
		fputs("<tr><td class=\"t\">", f);
		rep_html_escape(f, rep_doc_str(s, "name", "?"));
		fprintf(f, "</td><td>%s</td>", rep_fmt_group(rep_doc_num(s, "iops"), 0, n1, 48));
		fprintf(f, "<td>%s</td>", rep_fmt_group(rep_doc_num(s, "mb_per_sec"), 1, n1, 48));
		fprintf(f, "<td>%s</td>", rep_fmt_group(rep_doc_num(s, "read_pct"), 1, n1, 48));
		fprintf(f, "<td>%s</td>", rep_fmt_group(rep_doc_num(s, "qdepth"), 1, n1, 48));
		for (size_t k = 0; k < sizeof(lat) / sizeof(lat[0]); k++)
			fprintf(f, "<td>%s</td>", rep_fmt_lat_us(rep_doc_num(s, lat[k]), n1, 48));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}
