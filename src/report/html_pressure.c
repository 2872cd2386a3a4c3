/* The charts of a pressure test (write-pressure, noisy-neighbor: an iorate list over two or
 * more WDs, a fixed read load beside a stepped write load): each WD's service-time mean and
 * tail percentiles against the write MB/s per SD the writers ran on, as reviews chart write
 * pressure; every read-only WD's mean, p99.99 and p99.9999 on one chart and in a table, as
 * reviews give the noisy neighbour. A line ends at the first point that missed its rate,
 * drawn hollow: the drive could not take that step. */
#include "html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "svg.h"

static const struct {
	const char *key; /* under service/ */
	const char *name;
} stats[] = {
	{ "mean_us", "mean" },
	{ "percentiles_us/99", "p99" },
	{ "percentiles_us/99.9", "p99.9" },
	{ "percentiles_us/99.99", "p99.99" },
	{ "percentiles_us/99.9999", "p99.9999" },
};

enum {
	NR_STATS = sizeof(stats) / sizeof(stats[0]),
	STAT_P9999 = 3,
	STAT_P999999 = 4
};

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

bool rep_html_is_pressure(const json_t *doc, const struct rep_html_group *g)
{
	const json_t *p = json_array_get(json_object_get(g->curves[0], "points"), 0), *w;
	bool has_fixed = false;
	size_t i;

	if (strcmp(rep_doc_str(g->curves[0], "kind", ""), "sweep") ||
	    strcmp(rep_doc_str(g->curves[0], "x", ""), "iorate") ||
	    json_array_size(json_object_get(g->curves[0], "wds")) < 2 || !p)
		return false;
	json_array_foreach (json_object_get(point_run(doc, p), "wds"), i, w)
		has_fixed = has_fixed || json_is_number(json_object_get(w, "iorate"));
	return has_fixed;
}

/* WD name's part of a run's average avg; NULL when absent. */
static const json_t *wd_avg(const json_t *avg, const char *name)
{
	const json_t *w;
	size_t i;

	json_array_foreach (json_object_get(avg, "wds"), i, w)
		if (!strcmp(rep_doc_str(w, "name", ""), name))
			return w;
	return NULL;
}

/* The write MB/s of the run per SD that a writing WD runs on (every SD of the run when the
 * document does not say which). */
static double write_mb_per_sd(const json_t *run, const json_t *run_avg)
{
	const json_t *w, *sd;
	double mb = 0;
	size_t nr_sds = 0, i, k;
	json_t *seen = json_object();

	json_array_foreach (json_object_get(run_avg, "wds"), i, w)
		mb += rep_doc_num(w, "mb_per_sec") * (100 - rep_doc_num(w, "read_pct")) / 100;
	json_array_foreach (json_object_get(run, "wds"), i, w) {
		const json_t *avg = wd_avg(run_avg, rep_doc_str(w, "name", ""));

		if (!avg || !(rep_doc_num(avg, "read_pct") < 100))
			continue;
		json_array_foreach (json_object_get(w, "sds"), k, sd)
			if (json_is_string(sd) && seen &&
			    !json_object_get(seen, json_string_value(sd)))
				json_object_set_new(seen, json_string_value(sd), json_true());
	}
	nr_sds = seen ? json_object_size(seen) : 0;
	json_decref(seen);
	if (!nr_sds)
		nr_sds = json_array_size(json_object_get(run, "sds"));
	return nr_sds ? mb / (double)nr_sds : NAN;
}

/* The WDs of the group, by name, as the first curve lists them. */
static size_t nr_wds(const struct rep_html_group *g)
{
	return json_array_size(json_object_get(g->curves[0], "wds"));
}

static const char *wd_name(const struct rep_html_group *g, size_t w)
{
	return json_string_value(json_array_get(json_object_get(g->curves[0], "wds"), w));
}

/* Whether WD w only reads (in the curve's first point). */
static bool is_reader(const json_t *doc, const struct rep_html_group *g, size_t w)
{
	const json_t *p = json_array_get(json_object_get(g->curves[0], "points"), 0);
	const json_t *avg = p ? wd_avg(point_avg(doc, g, p), wd_name(g, w)) : NULL;

	return avg && rep_doc_num(avg, "read_pct") >= 100;
}

/* One line: WD w of curve c, statistic s; up to the first missed point. */
static int pressure_line(struct rep_html_line *l, const json_t *doc, const struct rep_html_group *g,
			 size_t c, size_t w, size_t s)
{
	const json_t *points = json_object_get(g->curves[c], "points"), *p;
	char path[64], n1[32], n2[32], label[200];
	size_t i;

	if (rep_html_line_init(l, json_array_size(points)))
		return -1;
	snprintf(path, sizeof(path), "service/%s", stats[s].key);
	json_array_foreach (points, i, p) {
		const json_t *run = point_run(doc, p), *run_avg = point_avg(doc, g, p);
		const json_t *avg = wd_avg(run_avg, wd_name(g, w));

		if (!avg)
			continue;
		l->x[l->nr] = write_mb_per_sd(run, run_avg);
		l->y[l->nr] = rep_doc_num(avg, path);
		l->is_missed[l->nr] = json_is_false(json_object_get(p, "is_target_met"));
		if (asprintf(&l->tips[l->nr], "%s, %s MB/s written per SD: %s %s \xc2\xb5s%s",
			     wd_name(g, w), rep_fmt_group(l->x[l->nr], 1, n1, 32), stats[s].name,
			     rep_fmt_lat_us(l->y[l->nr], n2, 32),
			     l->is_missed[l->nr] ? " (missed its rate: the line ends here)" : "") <
		    0)
			l->tips[l->nr] = NULL;
		if (l->is_missed[l->nr++])
			break;
	}
	if (g->nr > 1)
		snprintf(l->name, sizeof(l->name), "%s \xc2\xb7 ",
			 rep_html_curve_label(g, c, label, sizeof(label)));
	return 0;
}

static void write_chart(FILE *f, const struct rep_html_group *g, const char *title,
			struct rep_html_line *l, size_t nr)
{
	enum rep_svg_style *styles = calloc(nr + 1, sizeof(*styles));
	char ytitle[64];
	struct rep_svg_chart c = {
		.title = title,
		.x = { .title = "Write MB/s per SD", .fmt = rep_html_fmt_plain },
		.note = g->note,
	};

	if (!styles)
		return;
	for (size_t i = 0; i < nr; i++)
		styles[i] = REP_SVG_POINTS;
	snprintf(ytitle, sizeof(ytitle), "Service time (%s)", rep_html_latency_unit(l, nr));
	c.y = (struct rep_svg_axis){ .title = ytitle, .fmt = rep_html_fmt_plain };
	rep_html_chart_write(f, &c, l, nr, styles);
	free(styles);
}

/* A chart per statistic, a line per WD (per curve and WD with nested loops). */
static void stat_chart(FILE *f, const json_t *doc, const struct rep_html_group *g, size_t s)
{
	size_t nr = g->nr * nr_wds(g), n = 0;
	struct rep_html_line *l = calloc(nr + 1, sizeof(*l));
	char title[96];

	for (size_t c = 0; l && c < g->nr; c++)
		for (size_t w = 0; w < nr_wds(g); w++, n++) {
			if (pressure_line(&l[n], doc, g, c, w, s))
				goto out;
			snprintf(l[n].name + strlen(l[n].name),
				 sizeof(l[n].name) - strlen(l[n].name), "%s", wd_name(g, w));
			snprintf(l[n].color, sizeof(l[n].color), "%s", rep_svg_color(n));
		}
	if (!l)
		return;
	snprintf(title, sizeof(title), "%s%s service time per WD vs write MB/s", s ? "" : "Mean",
		 s ? stats[s].name : "");
	write_chart(f, g, title, l, nr);
out:
	rep_html_lines_free(l, nr);
}

/* The readers' chart: mean, p99.99 and p99.9999 of each read-only WD. */
static void readers_chart(FILE *f, const json_t *doc, const struct rep_html_group *g)
{
	static const size_t pick[] = { 0, STAT_P9999, STAT_P999999 };
	size_t nr = g->nr * nr_wds(g) * 3, n = 0;
	struct rep_html_line *l = calloc(nr + 1, sizeof(*l));

	for (size_t c = 0; l && c < g->nr; c++)
		for (size_t w = 0; w < nr_wds(g); w++) {
			if (!is_reader(doc, g, w))
				continue;
			for (size_t k = 0; k < 3; k++, n++) {
				if (pressure_line(&l[n], doc, g, c, w, pick[k]))
					goto out;
				snprintf(l[n].name + strlen(l[n].name),
					 sizeof(l[n].name) - strlen(l[n].name), "%s %s",
					 wd_name(g, w), stats[pick[k]].name);
				rep_svg_ramp(0.3 + 0.35 * (double)k, l[n].color);
			}
		}
	if (l && n)
		write_chart(f, g, "Read latency under the write load", l, n);
out:
	rep_html_lines_free(l, nr);
}

void rep_html_pressure_charts(FILE *f, const json_t *doc, const struct rep_html_group *g,
			      bool is_brief)
{
	readers_chart(f, doc, g);
	for (size_t s = 0; s < NR_STATS; s++)
		if (!is_brief || s == 0 || s == STAT_P9999)
			stat_chart(f, doc, g, s);
}

void rep_html_pressure_table(FILE *f, const json_t *doc, const struct rep_html_group *g)
{
	char n1[48], label[200];

	fputs("<div class=\"scroll\"><table class=\"pressure\"><thead><tr>", f);
	if (g->nr > 1)
		fputs("<th class=\"t\">curve</th>", f);
	fputs("<th class=\"t\">run</th><th>write MB/s per SD</th><th class=\"t\">WD</th>"
	      "<th>IOPS</th><th>MB/s</th><th>read %</th>",
	      f);
	for (size_t s = 0; s < NR_STATS; s++)
		fprintf(f, "<th>%s \xc2\xb5s</th>", stats[s].name);
	fputs("<th class=\"t\">rate</th></tr></thead>\n<tbody>\n", f);
	for (size_t c = 0; c < g->nr; c++) {
		const json_t *p;
		size_t i;

		json_array_foreach (json_object_get(g->curves[c], "points"), i, p) {
			const json_t *run = point_run(doc, p), *run_avg = point_avg(doc, g, p);
			bool is_missed = json_is_false(json_object_get(p, "is_target_met"));

			for (size_t w = 0; w < nr_wds(g); w++) {
				const json_t *avg = wd_avg(run_avg, wd_name(g, w));

				if (!avg)
					continue;
				fputs(is_missed ? "<tr class=\"missed\">" : "<tr>", f);
				if (g->nr > 1) {
					fputs("<td class=\"t\">", f);
					rep_html_escape(f, rep_html_curve_label(g, c, label,
										sizeof(label)));
					fputs("</td>", f);
				}
				fputs("<td class=\"t\">", f);
				rep_html_escape(f, rep_doc_str(p, "name", "?"));
				fprintf(f, "</td><td>%s</td><td class=\"t\">",
					rep_fmt_group(write_mb_per_sd(run, run_avg), 1, n1, sizeof(n1)));
				rep_html_escape(f, wd_name(g, w));
				fprintf(f, "</td><td>%s</td>",
					rep_fmt_group(rep_doc_num(avg, "iops"), 0, n1, sizeof(n1)));
				fprintf(f, "<td>%s</td>",
					rep_fmt_group(rep_doc_num(avg, "mb_per_sec"), 1, n1,
						      sizeof(n1)));
				fprintf(f, "<td>%s</td>",
					rep_fmt_group(rep_doc_num(avg, "read_pct"), 1, n1,
						      sizeof(n1)));
				for (size_t s = 0; s < NR_STATS; s++) {
					char path[64];

					snprintf(path, sizeof(path), "service/%s", stats[s].key);
					fprintf(f, "<td>%s</td>",
						rep_fmt_lat_us(rep_doc_num(avg, path), n1,
							       sizeof(n1)));
				}
				fprintf(f, "<td class=\"t\">%s</td></tr>\n",
					is_missed ? "missed" : "met");
			}
		}
	}
	fputs("</tbody></table></div>\n", f);
}
