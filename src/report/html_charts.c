/* The charts of one workload's section of report.html: IOPS against mean and p99 service
 * time (one line per curve, joined in load order as reviews draw them, published curves
 * dashed beside them), IOPS per interval over time, and the service-time distribution. */
#include "html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "svg.h"

/* ---- IOPS against latency ------------------------------------------------------------------ */

static void latency_line(struct rep_html_line *l, const struct rep_html_group *g, size_t c,
			 bool is_p99)
{
	const char *path = is_p99 ? "service/percentiles_us/99" : "service/mean_us";
	const json_t *points = json_object_get(g->curves[c], "points"), *p;
	const json_t *peak = json_object_get(g->curves[c], "peak");
	char label[200], n1[32], n2[32];
	size_t i;

	json_array_foreach (points, i, p) {
		l->x[l->nr] = rep_doc_num(p, "iops");
		l->y[l->nr] = rep_doc_num(p, path);
		l->is_missed[l->nr] = json_is_false(json_object_get(p, "is_target_met"));
		if (asprintf(&l->tips[l->nr], "%s: %s IOPS, %s \xc2\xb5s %s%s",
			     rep_doc_str(p, "name", "?"), rep_fmt_group(l->x[l->nr], 0, n1, 32),
			     rep_fmt_lat_us(l->y[l->nr], n2, 32), is_p99 ? "p99" : "mean",
			     l->is_missed[l->nr] ? " (missed its target)" : "") < 0)
			l->tips[l->nr] = NULL;
		l->nr++;
	}
	rep_html_curve_label(g, c, label, sizeof(label));
	if (json_is_object(peak) && !is_p99)
		snprintf(l->name, sizeof(l->name), "%s \xe2\x80\x94 peak %s IOPS at %s \xc2\xb5s",
			 label, rep_fmt_group(rep_doc_num(peak, "iops"), 0, n1, 32),
			 rep_fmt_lat_us(rep_doc_num(peak, "mean_us"), n2, 32));
	else
		snprintf(l->name, sizeof(l->name), "%s", label);
	snprintf(l->color, sizeof(l->color), "%s", rep_svg_color(c));
}

static void overlay_line(struct rep_html_line *l, const struct rep_overlay_data *ov, size_t i)
{
	for (size_t p = 0; p < ov->nr; p++) {
		l->x[p] = ov->iops[p];
		l->y[p] = ov->lat_us[p];
	}
	l->nr = ov->nr;
	if (ov->label)
		snprintf(l->name, sizeof(l->name), "%s", ov->label);
	else
		snprintf(l->name, sizeof(l->name), "%s (published)", ov->name);
	snprintf(l->color, sizeof(l->color), "%s", rep_svg_color(i));
}

void rep_html_latency_chart(FILE *f, const struct rep_html_group *g, bool is_p99,
			    const struct rep_overlay_data *ov, size_t nr_ov)
{
	size_t nr = g->nr + (is_p99 ? 0 : nr_ov);
	struct rep_html_line *l = calloc(nr + 1, sizeof(*l));
	enum rep_svg_style *styles = calloc(nr + 1, sizeof(*styles));
	char ytitle[64];
	struct rep_svg_chart c = { .x = { .title = "IOPS", .fmt = rep_html_fmt_si } };

	for (size_t i = 0; l && styles && i < nr; i++) {
		bool is_ov = i >= g->nr;
		size_t n = is_ov ? ov[i - g->nr].nr
				 : json_array_size(json_object_get(g->curves[i], "points"));

		if (rep_html_line_init(&l[i], n))
			goto out;
		if (is_ov)
			overlay_line(&l[i], &ov[i - g->nr], i);
		else
			latency_line(&l[i], g, i, is_p99);
		styles[i] = is_ov ? REP_SVG_OVERLAY : REP_SVG_POINTS;
	}
	if (!l || !styles)
		goto out;
	snprintf(ytitle, sizeof(ytitle), "%s service time (%s)",
		 is_p99 ? "99th percentile" : "Average", rep_html_latency_unit(l, nr));
	c.title = is_p99 ? "IOPS vs 99th percentile latency" : "IOPS vs average latency";
	c.y = (struct rep_svg_axis){ .title = ytitle, .fmt = rep_html_fmt_plain };
	c.note = g->note;
	rep_html_chart_write(f, &c, l, nr, styles);
out:
	rep_html_lines_free(l, nr);
	free(styles);
}

/* ---- IOPS over time ------------------------------------------------------------------------ */

size_t rep_html_curve_runs(const json_t *curve, size_t *idx)
{
	const json_t *points = json_object_get(curve, "points"), *p;
	const json_t *max = json_object_get(curve, "max_run");
	size_t nr = 0, i;

	if (json_is_integer(max))
		idx[nr++] = (size_t)json_integer_value(max);
	json_array_foreach (points, i, p)
		idx[nr++] = (size_t)json_integer_value(json_object_get(p, "run"));
	return nr;
}

/* A run's short name on the time axis: "max", "40%", its target rate ("2.5k") or its name. */
static void run_mark(const json_t *run, char *buf, size_t len)
{
	const char *kind = rep_doc_str(run, "rate/kind", "");
	double pct = rep_doc_num(run, "rate/pct"), target = rep_doc_num(run, "rate/target_iops");

	if (!strcmp(kind, "curve_max") || !strcmp(kind, "max"))
		snprintf(buf, len, "max");
	else if (!isnan(pct))
		snprintf(buf, len, "%g%%", pct);
	else if (!isnan(target))
		rep_fmt_si(target, buf, len);
	else
		snprintf(buf, len, "%s", rep_doc_str(run, "name", "?"));
}

/* A run's short name within its curve: a sweep point's value of the swept parameter
 * ("threads=4", "xfersize=64k"), else run_mark()'s. */
static void curve_run_mark(const json_t *curve, size_t run_idx, const json_t *run, char *buf,
			   size_t len)
{
	const char *x = rep_doc_str(curve, "x", "");
	const json_t *p;
	size_t i;

	json_array_foreach (json_object_get(curve, "points"), i, p) {
		char v[32];

		if (!*x || !strcmp(x, "iorate") ||
		    (size_t)json_integer_value(json_object_get(p, "run")) != run_idx ||
		    isnan(rep_doc_num(p, "x")))
			continue;
		(strcmp(x, "xfersize") && strcmp(x, "hitarea")
			 ? rep_html_fmt_plain
			 : rep_html_fmt_bytes)(rep_doc_num(p, "x"), v, sizeof(v));
		snprintf(buf, len, "%s=%s", x, v);
		return;
	}
	run_mark(run, buf, len);
}

static size_t curve_intervals(const json_t *doc, const struct rep_doc *live, const json_t *curve)
{
	size_t *idx = calloc(json_array_size(json_object_get(curve, "points")) + 1, sizeof(*idx));
	size_t nr = idx ? rep_html_curve_runs(curve, idx) : 0, total = 0;

	for (size_t r = 0; r < nr; r++)
		total += rep_doc_run_intervals(live,
					       json_array_get(json_object_get(doc, "runs"), idx[r]),
					       idx[r], NULL, NULL);
	free(idx);
	return total;
}

/* Room for run marks: a mark per run of the document at most. */
struct marks {
	struct rep_svg_mark *at;
	char (*labels)[32];
	size_t nr;
	size_t cap;
};

/* A step per interval: its rate held from its start to its end. */
struct steps {
	struct rep_html_line *l;
	double t;
};

static void add_step(const json_t *iv, void *arg)
{
	struct steps *st = arg;
	double iops = rep_doc_num(iv, "total/iops");

	if (st->l->nr + 2 > st->l->cap)
		return; /* more than were counted: cannot be, as both read the same runs */
	st->l->x[st->l->nr] = st->t;
	st->l->y[st->l->nr++] = iops;
	st->t += rep_doc_num(iv, "elapsed_s");
	st->l->x[st->l->nr] = st->t;
	st->l->y[st->l->nr++] = iops;
}

/* One curve's intervals end to end; the first curve also gives the run marks. */
static void time_line(struct rep_html_line *l, const json_t *doc, const struct rep_doc *live,
		      const json_t *curve, struct marks *m)
{
	size_t *idx = calloc(json_array_size(json_object_get(curve, "points")) + 1, sizeof(*idx));
	size_t nr = idx ? rep_html_curve_runs(curve, idx) : 0;
	struct steps st = { l, 0 };

	for (size_t r = 0; r < nr; r++) {
		const json_t *run = json_array_get(json_object_get(doc, "runs"), idx[r]);

		if (m && m->nr < m->cap) {
			curve_run_mark(curve, idx[r], run, m->labels[m->nr],
				       sizeof(m->labels[m->nr]));
			m->at[m->nr] = (struct rep_svg_mark){ st.t, m->labels[m->nr] };
			m->nr++;
		}
		rep_doc_run_intervals(live, run, idx[r], add_step, &st);
	}
	free(idx);
}

void rep_html_time_chart(FILE *f, const json_t *doc, const struct rep_doc *live,
			 const struct rep_html_group *g)
{
	struct rep_html_line *l = calloc(g->nr + 1, sizeof(*l));
	enum rep_svg_style *styles = calloc(g->nr + 1, sizeof(*styles));
	size_t cap = json_array_size(json_object_get(doc, "runs")) + 1;
	struct marks m = { .at = calloc(cap, sizeof(*m.at)),
			   .labels = calloc(cap, sizeof(*m.labels)),
			   .cap = cap };
	struct rep_svg_chart c = {
		.title = "IOPS per interval",
		.x = { .title = "Time (s)", .is_tight = true, .fmt = rep_html_fmt_plain },
		.y = { .title = "IOPS", .fmt = rep_html_fmt_si }
	};

	for (size_t i = 0; l && styles && m.at && m.labels && i < g->nr; i++) {
		if (rep_html_line_init(&l[i], 2 * curve_intervals(doc, live, g->curves[i])))
			goto out;
		time_line(&l[i], doc, live, g->curves[i], i ? NULL : &m);
		if (g->nr > 1)
			rep_html_curve_label(g, i, l[i].name, sizeof(l[i].name));
		snprintf(l[i].color, sizeof(l[i].color), "%s", rep_svg_color(i));
		styles[i] = REP_SVG_LINE;
	}
	if (!l || !styles || !m.at || !m.labels)
		goto out;
	c.marks = m.at;
	c.nr_marks = m.nr;
	c.note = g->note;
	rep_html_chart_write(f, &c, l, g->nr, styles);
out:
	rep_html_lines_free(l, g->nr);
	free(styles);
	free(m.at);
	free(m.labels);
}

/* ---- latency distribution ------------------------------------------------------------------ */

enum {
	BINS_PER_DECADE = 10,
	NR_BINS = 13 * BINS_PER_DECADE, /* 1 ns to 10^13 ns (2.8 hours) */
};

static double bin_edge_ns(int k)
{
	return pow(10, (double)k / BINS_PER_DECADE);
}

/* Spreads one histogram bucket [lo, lo + width) over the display bins it overlaps. */
static void spread(double *bins, double lo, double width, double count)
{
	int k = (int)floor(log10(lo > 1 ? lo : 1) * BINS_PER_DECADE);

	for (; k < NR_BINS && count > 0; k++) {
		double a = fmax(lo, bin_edge_ns(k)), b = fmin(lo + width, bin_edge_ns(k + 1));

		if (b > a)
			bins[k] += count * (b - a) / width;
		if (bin_edge_ns(k + 1) >= lo + width)
			break;
	}
}

/* The run's service-time distribution as percent of I/Os per display bin, from its
 * average's histogram; a zero bin on each side so the line meets the axis. */
static int hist_line(struct rep_html_line *l, const struct rep_doc *live, const json_t *run,
		     size_t run_idx)
{
	json_t *hists = rep_doc_run_histograms(live, run, run_idx);
	const json_t *pairs = json_object_get(hists, "service"), *pr;
	double bins[NR_BINS] = { 0 }, total = 0;
	int lo = NR_BINS, hi = -1;
	size_t i;

	json_array_foreach (pairs, i, pr) {
		double b_lo = rep_doc_num(pr, "0"), cnt = rep_doc_num(pr, "1");
		uint64_t w;

		if (!(b_lo >= 0 && b_lo < 1e19 && cnt > 0 && cnt < 1e300))
			continue; /* not a bucket: skip it rather than convert it */
		w = stats_hist_bucket_width_ns(stats_hist_bucket_idx((uint64_t)b_lo));
		spread(bins, b_lo, (double)w, cnt);
		total += cnt;
	}
	json_decref(hists);
	for (int k = 0; k < NR_BINS; k++)
		if (bins[k] > 0) {
			lo = k < lo ? k : lo;
			hi = k;
		}
	if (rep_html_line_init(l, hi >= lo ? (size_t)(hi - lo + 3) : 0))
		return -ENOMEM;
	for (int k = lo - 1; hi >= lo && k <= hi + 1; k++) {
		bool is_in = k >= 0 && k < NR_BINS;

		l->x[l->nr] = sqrt(bin_edge_ns(k) * bin_edge_ns(k + 1)) / 1e3;
		l->y[l->nr++] = is_in && total > 0 ? 100 * bins[k] / total : 0;
	}
	return 0;
}

/* Which runs the distribution chart shows: every run of a lone curve, else each curve's
 * heaviest run (its max run or its last point). Fills idx and curve_of; returns the count. */
static size_t hist_runs(const struct rep_html_group *g, size_t *idx, size_t *curve_of)
{
	size_t nr = 0;

	if (g->nr == 1) {
		nr = rep_html_curve_runs(g->curves[0], idx);
		/* Points in load order, then the max run: light to dark as the load grows. */
		if (nr && json_is_integer(json_object_get(g->curves[0], "max_run"))) {
			size_t max = idx[0];

			memmove(idx, idx + 1, (nr - 1) * sizeof(*idx));
			idx[nr - 1] = max;
		}
		for (size_t i = 0; i < nr; i++)
			curve_of[i] = 0;
		return nr;
	}
	for (size_t c = 0; c < g->nr; c++) {
		size_t *all = calloc(json_array_size(json_object_get(g->curves[c], "points")) + 1,
				     sizeof(*all));
		size_t n = all ? rep_html_curve_runs(g->curves[c], all) : 0;

		if (n && json_is_integer(json_object_get(g->curves[c], "max_run")))
			idx[nr] = all[0];
		else if (n)
			idx[nr] = all[n - 1];
		if (n)
			curve_of[nr++] = c;
		free(all);
	}
	return nr;
}

static size_t group_nr_runs(const struct rep_html_group *g)
{
	size_t nr = 0;

	for (size_t c = 0; c < g->nr; c++)
		nr += json_array_size(json_object_get(g->curves[c], "points")) + 1;
	return nr;
}

void rep_html_hist_chart(FILE *f, const json_t *doc, const struct rep_doc *live,
			 const struct rep_html_group *g)
{
	size_t cap = group_nr_runs(g) + 1, nr;
	size_t *idx = calloc(cap, sizeof(*idx)), *curve_of = calloc(cap, sizeof(*curve_of));
	struct rep_html_line *l = calloc(cap, sizeof(*l));
	enum rep_svg_style *styles = calloc(cap, sizeof(*styles));
	struct rep_svg_chart c = { .title = "Service time distribution",
				   .x = { .title = "Service time (log scale)",
					  .is_log = true,
					  .fmt = rep_html_fmt_us_log },
				   .y = { .title = "% of I/Os", .fmt = rep_html_fmt_plain } };

	if (!idx || !curve_of || !l || !styles)
		goto out;
	nr = hist_runs(g, idx, curve_of);
	for (size_t i = 0; i < nr; i++) {
		const json_t *run = json_array_get(json_object_get(doc, "runs"), idx[i]);

		if (hist_line(&l[i], live, run, idx[i]))
			goto out;
		if (g->nr == 1)
			curve_run_mark(g->curves[0], idx[i], run, l[i].name, sizeof(l[i].name));
		else
			rep_html_curve_label(g, curve_of[i], l[i].name, sizeof(l[i].name));
		if (g->nr == 1 && nr > 1)
			rep_svg_ramp((double)i / (double)(nr - 1), l[i].color);
		else
			snprintf(l[i].color, sizeof(l[i].color), "%s", rep_svg_color(curve_of[i]));
		styles[i] = nr == 1 ? REP_SVG_AREA : REP_SVG_LINE;
	}
	c.note = g->note;
	rep_html_chart_write(f, &c, l, nr, styles);
out:
	rep_html_lines_free(l, cap);
	free(styles);
	free(idx);
	free(curve_of);
}
