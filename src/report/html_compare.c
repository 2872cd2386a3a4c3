/* The page of `ioramp compare A B --html OUT`: for every curve both executions have, one chart
 * of IOPS against mean service time with A's and B's lines on it (and one of p99 when both
 * have percentiles: VDbench's flatfile has none), then the runs side by side with the
 * difference in percent, as the console table has them. */
#include "html.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "svg.h"

/* The line of one side's curve: its points (iops, latency at path), named "A: rd1". */
static int side_line(struct rep_html_line *l, const json_t *curve, const char *side,
		     const char *key, const char *path, size_t color)
{
	const json_t *points = json_object_get(curve, "points"), *p;
	char n1[32], n2[32];
	size_t i;

	if (rep_html_line_init(l, json_array_size(points)))
		return -ENOMEM;
	json_array_foreach (points, i, p) {
		double y = rep_doc_num(p, path);

		if (y != y)
			continue; /* not in this document */
		l->x[l->nr] = rep_doc_num(p, "iops");
		l->y[l->nr] = y;
		l->is_missed[l->nr] = json_is_false(json_object_get(p, "is_target_met"));
		if (asprintf(&l->tips[l->nr], "%s %s: %s IOPS, %s \xc2\xb5s%s", side,
			     rep_doc_str(p, "name", "?"), rep_fmt_group(l->x[l->nr], 0, n1, 32),
			     rep_fmt_lat_us(y, n2, 32),
			     l->is_missed[l->nr] ? " (missed its target)" : "") < 0)
			l->tips[l->nr] = NULL;
		l->nr++;
	}
	snprintf(l->name, sizeof(l->name), "%s: %s", side, key);
	snprintf(l->color, sizeof(l->color), "%s", rep_svg_color(color));
	return 0;
}

/* A's and B's lines of one curve on one chart; nothing when either has no point there. */
static int pair_chart(FILE *f, const struct rep_compare_curve *c, bool is_p99, const char *note)
{
	const char *path = is_p99 ? "service/percentiles_us/99" : "service/mean_us";
	struct rep_html_line *l = calloc(2, sizeof(*l));
	static const enum rep_svg_style styles[2] = { REP_SVG_POINTS, REP_SVG_POINTS };
	char title[320], ytitle[64];
	struct rep_svg_chart chart = { .x = { .title = "IOPS", .fmt = rep_html_fmt_si } };
	int ret = -ENOMEM;

	if (!l || side_line(&l[0], c->a, "A", c->key, path, 0) ||
	    side_line(&l[1], c->b, "B", c->key, path, 1))
		goto out;
	ret = 0;
	if (!l[0].nr || !l[1].nr)
		goto out;
	snprintf(title, sizeof(title), "%s: IOPS vs %s latency, A and B", c->key,
		 is_p99 ? "99th percentile" : "average");
	snprintf(ytitle, sizeof(ytitle), "%s service time (%s)",
		 is_p99 ? "99th percentile" : "Average", rep_html_latency_unit(l, 2));
	chart.title = title;
	chart.y = (struct rep_svg_axis){ .title = ytitle, .fmt = rep_html_fmt_plain };
	chart.note = note;
	rep_html_chart_write(f, &chart, l, 2, styles);
out:
	rep_html_lines_free(l, 2);
	return ret;
}

static void num_cell(FILE *f, double v, bool is_latency)
{
	char buf[32];

	fprintf(f, "<td>%s</td>",
		rep_fmt_group(v, is_latency && fabs(v) < 1000 ? 1 : 0, buf, sizeof(buf)));
}

/* (b - a) / a in percent, "new" against 0, "-" when either is unknown. */
static void diff_cell(FILE *f, double a, double b)
{
	if (isnan(a) || isnan(b))
		fputs("<td class=\"d\">-</td>", f);
	else if (a == b)
		fputs("<td class=\"d\">+0.0%</td>", f);
	else if (a == 0)
		fputs("<td class=\"d\">new</td>", f);
	else
		fprintf(f, "<td class=\"d\">%+.1f%%</td>", (b - a) / a * 100);
}

static void runs_table(FILE *f, const struct rep_compare_request *q)
{
	static const char *const names[REP_COMPARE_NR] = { "IOPS", "mean service time (\xc2\xb5s)",
							   "p99 service time (\xc2\xb5s)" };

	fputs("<section id=\"runs\">\n<h2>Runs</h2>\n<div class=\"meta\">Averages of each run's "
	      "intervals after warmup; runs match by name and for-loop values, in order; the "
	      "difference is (B - A) / A.</div>\n<div class=\"scroll\"><table class=\"runs "
	      "compare\"><thead><tr><th></th>",
	      f);
	for (size_t c = 0; c < REP_COMPARE_NR; c++)
		fprintf(f, "<th colspan=\"3\" class=\"grp\">%s</th>", names[c]);
	fputs("</tr>\n<tr><th class=\"t\">Run</th>", f);
	for (size_t c = 0; c < REP_COMPARE_NR; c++)
		fputs("<th>A</th><th>B</th><th>diff</th>", f);
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < q->nr_rows; i++) {
		const struct rep_compare_row *r = &q->rows[i];

		fputs("<tr class=\"row\"><td class=\"t\">", f);
		rep_html_escape(f, r->key);
		fputs("</td>", f);
		for (size_t c = 0; c < REP_COMPARE_NR; c++) {
			num_cell(f, r->a[c], c > 0);
			num_cell(f, r->b[c], c > 0);
			diff_cell(f, r->a[c], r->b[c]);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	for (size_t i = 0; i < q->nr_only; i++) {
		fputs("<div class=\"meta\">", f);
		rep_html_escape(f, q->only[i]);
		fputs("</div>\n", f);
	}
	fputs("</section>\n", f);
}

static void side_header(FILE *f, const char *side, const char *path, const json_t *doc)
{
	fprintf(f, "<div class=\"meta\"><b>%s</b>: ", side);
	rep_html_escape(f, path);
	fputs(" \xc2\xb7 started <b>", f);
	rep_html_escape(f, rep_doc_str(doc, "execution/start_time", "?"));
	fputs("</b> \xc2\xb7 engine <b>", f);
	rep_html_escape(f, rep_doc_engine(doc, "?"));
	fputs("</b></div>\n", f);
	rep_html_model_banner(f, doc);
}

static int write_compare(FILE *f, const void *arg)
{
	const struct rep_compare_request *q = arg;
	const char *note = rep_html_model_note(q->doc_a) ? rep_html_model_note(q->doc_a)
							 : rep_html_model_note(q->doc_b);
	int ret = 0;

	fprintf(f,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>ioramp compare</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n"
		"<header>\n<h1><span>ioramp</span> compare</h1>\n",
		rep_html_style);
	side_header(f, "A", q->path_a, q->doc_a);
	side_header(f, "B", q->path_b, q->doc_b);
	fputs("</header>\n", f);
	if (q->nr_curves) {
		fputs("<section id=\"curves\">\n<h2>Curves</h2>\n", f);
		for (size_t i = 0; !ret && i < q->nr_curves; i++) {
			ret = pair_chart(f, &q->curves[i], false, note);
			if (!ret)
				ret = pair_chart(f, &q->curves[i], true, note);
		}
		fputs("</section>\n", f);
	}
	runs_table(f, q);
	fputs("<footer>Service time is submit to completion (VDbench's response time). Rendered "
	      "by ioramp " IORAMP_VERSION ".</footer>\n</main>\n</body>\n</html>\n",
	      f);
	return ret ? ret : ferror(f) ? -EIO : 0;
}

int rep_compare_html_save(const struct rep_compare_request *q)
{
	return rep_replace_file(q->html_path, write_compare, q);
}
