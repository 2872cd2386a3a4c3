/* The review suite's page (DIR/report.html of `ioramp suite`) and console summary, from the
 * results.json of each profile's execution: a summary of every profile's peak and IOPS at
 * latency, every profile's curve on one chart, the set-up, then per profile its charts against
 * mean and p99 latency as reviews draw their curves, with a line per drive on a third (a QD
 * sweep's against the depth, a pressure test's against the write MB/s). One self-contained
 * file, like report.html. */
#include "ioramp/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "html.h"
#include "svg.h"

/* One profile's results as loaded. */
struct suite_prof {
	const struct rep_suite_profile *p;
	json_t *doc;		 /* NULL: not run or unreadable (err says which) */
	char err[256];		 /* "not run", or why results.json could not be read */
	struct rep_html_group g; /* its curves */
	const json_t *best;	 /* the curve with the most IOPS at its peak; NULL: none */
	struct rep_overlay_data *ov; /* its published curves, loaded by rep_suite_write */
	size_t nr_ov;
};

static const char suite_style[] =
	"p.peak{font-size:15px;margin:10px 0 0}\n"
	"td.missed{color:#b44d12}\n"
	"table.summary td.t a,.meta a{color:var(--accent);text-decoration:none}\n";

static const char *prof_title(const struct suite_prof *sp)
{
	return sp->p->title ? sp->p->title : sp->p->name;
}

static int prof_load(struct suite_prof *sp, const struct rep_suite_profile *p)
{
	const json_t *curves, *c;
	size_t i;

	sp->p = p;
	if (!p->results_path) {
		snprintf(sp->err, sizeof(sp->err), "not run");
		return 0;
	}
	if (rep_doc_load(p->results_path, &sp->doc, sp->err, sizeof(sp->err)))
		return 0; /* shown on the page; the other profiles still are */
	curves = json_object_get(sp->doc, "curves");
	sp->g.note = rep_html_model_note(sp->doc);
	sp->g.curves = calloc(json_array_size(curves) + 1, sizeof(*sp->g.curves));
	if (!sp->g.curves)
		return -ENOMEM;
	json_array_foreach (curves, i, c) {
		const json_t *peak = json_object_get(c, "peak");

		sp->g.curves[sp->g.nr++] = c;
		if (json_is_object(peak) &&
		    (!sp->best || rep_doc_num(peak, "iops") > rep_doc_num(sp->best, "peak/iops")))
			sp->best = c;
	}
	return 0;
}

static void profs_free(struct suite_prof *sp, size_t nr)
{
	for (size_t i = 0; sp && i < nr; i++) {
		for (size_t k = 0; k < sp[i].nr_ov; k++)
			rep_overlay_fini(&sp[i].ov[k]);
		free(sp[i].ov);
		free(sp[i].g.curves);
		json_decref(sp[i].doc);
	}
	free(sp);
}

/* Loads every profile; NULL only when out of memory. */
static struct suite_prof *profs_load(const struct rep_suite_request *req)
{
	struct suite_prof *sp = calloc(req->nr_profiles + 1, sizeof(*sp));

	for (size_t i = 0; sp && i < req->nr_profiles; i++) {
		if (prof_load(&sp[i], &req->profiles[i])) {
			profs_free(sp, req->nr_profiles);
			return NULL;
		}
	}
	return sp;
}

/* The document whose execution the page header describes: the first that loaded. */
static const json_t *first_doc(const struct suite_prof *sp, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (sp[i].doc)
			return sp[i].doc;
	return NULL;
}

static const char *status_text(int status)
{
	if (status == 0)
		return "completed";
	if (status == 130 || status == 143)
		return "interrupted";
	return "failed";
}

static const char *prof_status(const struct suite_prof *sp)
{
	const json_t *st = rep_doc_get(sp->doc, "execution/status");

	if (!sp->doc)
		return sp->err;
	return json_is_integer(st) ? status_text((int)json_integer_value(st)) : "running";
}

/* ---- page ---------------------------------------------------------------------------------- */

static void head(FILE *f)
{
	fprintf(f,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<title>ioramp review suite</title>\n<style>\n%s%s</style>\n</head>\n<body>\n"
		"<main>\n",
		rep_html_style, suite_style);
}

/* The page's header and its links: every profile together and the set-up (when the page has
 * them, has_all and doc), then each profile. */
static void header(FILE *f, const struct rep_suite_request *req, const json_t *doc, bool has_all)
{
	const char *engine;

	fprintf(f,
		"<header>\n<h1><span>ioramp</span> review suite</h1>\n<div class=\"meta\">"
		"%zu profile%s on %zu drive%s \xc2\xb7 started <b>",
		req->nr_profiles, req->nr_profiles == 1 ? "" : "s", req->nr_drives,
		req->nr_drives == 1 ? "" : "s");
	rep_html_escape(f, rep_doc_str(doc, "execution/start_time", "-"));
	fputs("</b> \xc2\xb7 engine <b>", f);
	engine = rep_doc_engine(doc, "");
	rep_html_escape(f, *engine ? engine : "default");
	fprintf(f, "</b> \xc2\xb7 <b>%s</b> \xc2\xb7 ioramp " IORAMP_VERSION "</div>\n",
		status_text(req->status));
	fputs("<div class=\"meta\">Drives: ", f);
	for (size_t i = 0; i < req->nr_drives; i++) {
		fputs(i ? ", " : "", f);
		rep_html_escape(f, req->drives[i]);
	}
	if (req->drives_label) {
		fputs(" (", f);
		rep_html_escape(f, req->drives_label);
		fputs(")", f);
	}
	fputs("</div>\n<pre class=\"cmd\">", f);
	for (int i = 0; i < req->argc; i++) {
		fputs(i ? " " : "", f);
		rep_html_escape(f, req->argv[i]);
	}
	fputs("</pre>\n", f);
	rep_html_model_banner(f, doc);
	fputs("</header>\n<nav>", f);
	if (has_all)
		fputs("<a href=\"#all\">All profiles</a>", f);
	if (doc)
		fputs("<a href=\"#setup\">Set-up</a>", f);
	for (size_t i = 0; i < req->nr_profiles; i++) {
		fputs("<a href=\"#p-", f);
		rep_html_escape(f, req->profiles[i].name);
		fputs("\">", f);
		rep_html_escape(f, req->profiles[i].title ? req->profiles[i].title
							  : req->profiles[i].name);
		fputs("</a>", f);
	}
	fputs("</nav>\n", f);
}

/* The thresholds of the IOPS-at-latency columns: those of the first curve with any. */
static const json_t *sla_list(const struct suite_prof *sp, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (sp[i].best && json_array_size(json_object_get(sp[i].best, "sla")))
			return json_object_get(sp[i].best, "sla");
	return NULL;
}

/* "24,310", "≥ 52,340" (every point under), "-" (not reached), from an sla entry. */
static const char *at_text(const json_t *at, bool is_html, char *buf, size_t len)
{
	const char *status = rep_doc_str(at, "status", "not_reached");
	char n[32];

	rep_fmt_group(rep_doc_num(at, "iops"), 0, n, sizeof(n));
	if (!strcmp(status, "reached"))
		snprintf(buf, len, "%s", n);
	else if (!strcmp(status, "all_below"))
		snprintf(buf, len, "%s%s", is_html ? "\xe2\x89\xa5 " : ">=", n);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* The mean-latency answer of curve at the threshold of list entry k; NULL when it has none. */
static const json_t *curve_at(const json_t *curve, const json_t *list, size_t k)
{
	const json_t *e = json_array_get(json_object_get(curve, "sla"), k);
	double want = rep_doc_num(json_array_get(list, k), "threshold_us");

	if (!e || rep_doc_num(e, "threshold_us") != want)
		return NULL;
	return rep_doc_get(e, "service/mean");
}

/* "100us" as "100 µs". */
static void threshold_label(FILE *f, const json_t *e)
{
	char label[32];
	size_t digits;

	rep_sla_label(rep_doc_num(e, "threshold_us") * 1e3, label, sizeof(label));
	digits = strspn(label, "0123456789.");
	fprintf(f, "%.*s %s", (int)digits, label,
		!strcmp(label + digits, "us") ? "\xc2\xb5s" : label + digits);
}

/* The number of points of curve, and how many missed their target ("7, 4 missed"). */
static void points_cell(FILE *f, const json_t *curve)
{
	const json_t *points = json_object_get(curve, "points"), *p;
	size_t i, nr_missed = 0;

	json_array_foreach (points, i, p)
		nr_missed += json_is_false(json_object_get(p, "is_target_met"));
	if (nr_missed)
		fprintf(f, "<td class=\"missed\">%zu, %zu missed</td>", json_array_size(points),
			nr_missed);
	else
		fprintf(f, "<td>%zu</td>", json_array_size(points));
}

static void summary_row(FILE *f, const struct suite_prof *sp, const json_t *list)
{
	const json_t *peak = json_object_get(sp->best, "peak");
	char n[48];

	fputs("<tr><td class=\"t\"><a href=\"#p-", f);
	rep_html_escape(f, sp->p->name);
	fputs("\">", f);
	rep_html_escape(f, prof_title(sp));
	fputs("</a></td><td class=\"t\">", f);
	rep_html_escape(f, prof_status(sp));
	fputs("</td>", f);
	points_cell(f, sp->best);
	fprintf(f, "<td>%s</td>", rep_fmt_group(rep_doc_num(peak, "iops"), 0, n, sizeof(n)));
	fprintf(f, "<td>%s</td>", rep_fmt_lat_us(rep_doc_num(peak, "mean_us"), n, sizeof(n)));
	fprintf(f, "<td>%s</td>", rep_fmt_lat_us(rep_doc_num(peak, "p99_us"), n, sizeof(n)));
	for (size_t k = 0; k < json_array_size(list); k++)
		fprintf(f, "<td>%s</td>", at_text(curve_at(sp->best, list, k), true, n, sizeof(n)));
	fputs("</tr>\n", f);
}

static void summary(FILE *f, const struct suite_prof *sp, size_t nr)
{
	const json_t *list = sla_list(sp, nr);
	size_t nr_sla = json_array_size(list);

	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"meta\">The peak is the "
	      "curve point with the most IOPS, with its mean and 99th percentile service time; "
	      "IOPS at latency is the most load the curve carries with its mean service time at "
	      "or under each threshold.</div>\n",
	      f);
	fprintf(f,
		"<div class=\"scroll\"><table class=\"summary\"><thead><tr><th colspan=\"3\"></th>"
		"<th colspan=\"3\" class=\"grp\">Peak</th>");
	if (nr_sla)
		fprintf(f, "<th colspan=\"%zu\" class=\"grp\">IOPS at mean latency under</th>",
			nr_sla);
	fputs("</tr>\n<tr><th class=\"t\">Profile</th><th class=\"t\">Status</th><th>Points</th>"
	      "<th>IOPS</th><th>mean \xc2\xb5s</th><th>p99 \xc2\xb5s</th>",
	      f);
	for (size_t k = 0; k < nr_sla; k++) {
		fputs("<th>", f);
		threshold_label(f, json_array_get(list, k));
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t i = 0; i < nr; i++)
		summary_row(f, &sp[i], list);
	fputs("</tbody></table></div>\n</section>\n", f);
}

/* ---- a profile's chart --------------------------------------------------------------------- */

/* What a chart's y axis shows: a point's service time, mean or 99th percentile. */
enum suite_stat {
	SUITE_MEAN,
	SUITE_P99,
	SUITE_NR_STATS
};

static const struct {
	const char *key;   /* of a curve point */
	const char *word;  /* in tooltips */
	const char *title; /* of the y axis, before its unit */
	const char *chart; /* of the all-profiles chart */
} suite_stats[SUITE_NR_STATS] = {
	[SUITE_MEAN] = { "service/mean_us", "mean", "Average latency",
			 "All profiles: IOPS vs average latency" },
	[SUITE_P99] = { "service/percentiles_us/99", "p99", "99th percentile latency",
			"All profiles: IOPS vs 99th percentile latency" },
};

/* A curve's points as a chart line, owned here. */
struct suite_line {
	double *x;
	double *y;
	char **tips;
	bool *is_missed; /* drawn hollow */
	size_t nr;
	char name[320];
};

static void lines_free(struct suite_line *l, size_t nr)
{
	for (size_t i = 0; l && i < nr; i++) {
		for (size_t p = 0; l[i].tips && p < l[i].nr; p++)
			free(l[i].tips[p]);
		free(l[i].tips);
		free(l[i].x);
		free(l[i].y);
		free(l[i].is_missed);
	}
	free(l);
}

/* The points of curve c of sp into l (no name yet): IOPS against stat, divided by scale. */
static int line_points(struct suite_line *l, const struct suite_prof *sp, size_t c,
		       enum suite_stat stat, double scale)
{
	const json_t *points = json_object_get(sp->g.curves[c], "points"), *p;
	char n1[48], n2[48];
	size_t i;

	l->x = calloc(json_array_size(points) + 1, sizeof(*l->x));
	l->y = calloc(json_array_size(points) + 1, sizeof(*l->y));
	l->tips = calloc(json_array_size(points) + 1, sizeof(*l->tips));
	l->is_missed = calloc(json_array_size(points) + 1, sizeof(*l->is_missed));
	if (!l->x || !l->y || !l->tips || !l->is_missed)
		return -ENOMEM;
	json_array_foreach (points, i, p) {
		double us = rep_doc_num(p, suite_stats[stat].key);

		if (!(rep_doc_num(p, "iops") > 0) || !(us > 0))
			continue; /* no I/O: nothing to draw, on a log axis least of all */
		l->x[l->nr] = rep_doc_num(p, "iops");
		l->y[l->nr] = us / scale;
		l->is_missed[l->nr] = json_is_false(json_object_get(p, "is_target_met"));
		if (asprintf(&l->tips[l->nr], "%s: %s IOPS, %s \xc2\xb5s %s",
			     rep_doc_str(p, "name", "?"), rep_fmt_group(l->x[l->nr], 0, n1, 48),
			     rep_fmt_lat_us(us, n2, 48), suite_stats[stat].word) < 0)
			l->tips[l->nr] = NULL;
		l->nr++;
	}
	return 0;
}

static int line_fill(struct suite_line *l, const struct rep_suite_request *req,
		     const struct suite_prof *sp, size_t c, enum suite_stat stat, double scale)
{
	const json_t *peak = json_object_get(sp->g.curves[c], "peak");
	char label[200], n1[48], n2[48];
	size_t o;

	if (line_points(l, sp, c, stat, scale))
		return -ENOMEM;
	o = (size_t)snprintf(l->name, sizeof(l->name), "%s",
			     req->drives_label ? req->drives_label : "drives");
	if (sp->g.nr > 1 && o < sizeof(l->name))
		o += (size_t)snprintf(l->name + o, sizeof(l->name) - o, " \xc2\xb7 %s",
				      rep_html_curve_label(&sp->g, c, label, sizeof(label)));
	if (json_is_object(peak) && o < sizeof(l->name))
		snprintf(l->name + o, sizeof(l->name) - o,
			 " \xe2\x80\x94 peak %s IOPS at %s \xc2\xb5s",
			 rep_fmt_group(rep_doc_num(peak, "iops"), 0, n1, 48),
			 rep_fmt_lat_us(rep_doc_num(peak, stat == SUITE_P99 ? "p99_us" : "mean_us"),
					n2, 48));
	return 0;
}

/* 1000 when stat runs past 20 ms on a curve of sp (the axis is then in ms), else 1. */
static double latency_scale(const struct suite_prof *sp, enum suite_stat stat)
{
	const json_t *p;
	size_t i;

	for (size_t c = 0; c < sp->g.nr; c++)
		json_array_foreach (json_object_get(sp->g.curves[c], "points"), i, p)
			if (rep_doc_num(p, suite_stats[stat].key) > 20000)
				return 1000;
	return 1;
}

static void fmt_si(double v, char *buf, size_t len)
{
	rep_fmt_si(v, buf, len);
}

static void fmt_plain(double v, char *buf, size_t len)
{
	rep_fmt_group(v, v == floor(v) ? 0 : 1, buf, len);
}

/* A published curve as series s (its points in l, owned there), latencies divided by scale,
 * in the color after the measured curves'. Returns 0 or -ENOMEM. */
static int overlay_series(struct rep_svg_series *s, struct suite_line *l,
			  const struct rep_overlay_data *ov, size_t color, double scale)
{
	l->x = calloc(ov->nr + 1, sizeof(*l->x));
	l->y = calloc(ov->nr + 1, sizeof(*l->y));
	if (!l->x || !l->y)
		return -ENOMEM;
	for (size_t p = 0; p < ov->nr; p++) {
		l->x[p] = ov->iops[p];
		l->y[p] = ov->lat_us[p] / scale;
	}
	l->nr = ov->nr;
	if (ov->label)
		snprintf(l->name, sizeof(l->name), "%s", ov->label);
	else
		snprintf(l->name, sizeof(l->name), "%s (published)", ov->name);
	*s = (struct rep_svg_series){ .name = l->name,
				      .x = l->x,
				      .y = l->y,
				      .nr = l->nr,
				      .color = rep_svg_color(color),
				      .style = REP_SVG_OVERLAY };
	return 0;
}

/* The chart series of line l, the i-th of its chart (its colour), drawn as points. */
static struct rep_svg_series line_series(const struct suite_line *l, size_t i)
{
	return (struct rep_svg_series){ .name = l->name,
					.x = l->x,
					.y = l->y,
					.tips = l->tips,
					.is_hollow = l->is_missed,
					.nr = l->nr,
					.color = rep_svg_color(i),
					.style = REP_SVG_POINTS };
}

/* The chart of sp's curves, IOPS against stat; on the mean chart, its published curves. */
static void prof_chart(FILE *f, const struct rep_suite_request *req, const struct suite_prof *sp,
		       enum suite_stat stat)
{
	size_t nr_ov = stat == SUITE_MEAN ? sp->nr_ov : 0, nr = sp->g.nr + nr_ov;
	struct suite_line *l = calloc(nr + 1, sizeof(*l));
	struct rep_svg_series *s = calloc(nr + 1, sizeof(*s));
	double scale = latency_scale(sp, stat);
	char title[320], y[64];
	struct rep_svg_chart c = {
		.title = title,
		.x = { .title = "IOPS", .fmt = fmt_si },
		.y = { .title = y, .fmt = fmt_plain },
		.series = s,
		.nr_series = nr,
		.note = sp->g.note,
	};

	snprintf(title, sizeof(title), "%s%s", prof_title(sp), stat == SUITE_P99 ? ": p99" : "");
	snprintf(y, sizeof(y), "%s (%s)", suite_stats[stat].title, scale > 1 ? "ms" : "\xc2\xb5s");
	for (size_t i = 0; l && s && i < sp->g.nr; i++) {
		if (line_fill(&l[i], req, sp, i, stat, scale))
			goto out;
		s[i] = line_series(&l[i], i);
	}
	for (size_t k = 0; l && s && k < nr_ov; k++)
		if (overlay_series(&s[sp->g.nr + k], &l[sp->g.nr + k], &sp->ov[k], sp->g.nr + k,
				   scale))
			goto out;
	if (l && s)
		rep_html_figure(f, &c);
out:
	lines_free(l, nr);
	free(s);
}

/* ---- every profile on one chart ------------------------------------------------------------ */

/* One line per profile that has a curve (its best, as in the summary), IOPS against stat, both
 * axes logarithmic: the profiles span a decade or more of each. */
static void all_chart(FILE *f, const struct suite_prof *sp, size_t nr, enum suite_stat stat)
{
	struct suite_line *l = calloc(nr + 1, sizeof(*l));
	struct rep_svg_series *s = calloc(nr + 1, sizeof(*s));
	struct rep_svg_chart c = {
		.title = suite_stats[stat].chart,
		.x = { .title = "IOPS", .is_log = true, .fmt = fmt_si },
		.y = { .title = stat == SUITE_P99 ? "99th percentile latency" : "Average latency",
		       .is_log = true,
		       .fmt = rep_html_fmt_us_log },
		.series = s,
		.note = first_doc(sp, nr) ? rep_html_model_note(first_doc(sp, nr)) : NULL,
	};

	for (size_t i = 0; l && s && i < nr; i++) {
		size_t best = 0;

		if (!sp[i].best)
			continue;
		while (best < sp[i].g.nr && sp[i].g.curves[best] != sp[i].best)
			best++;
		if (line_points(&l[i], &sp[i], best, stat, 1))
			goto out;
		if (!l[i].nr)
			continue;
		snprintf(l[i].name, sizeof(l[i].name), "%s", prof_title(&sp[i]));
		s[c.nr_series++] = line_series(&l[i], i);
	}
	if (l && s && c.nr_series)
		rep_html_figure(f, &c);
out:
	lines_free(l, nr);
	free(s);
}

/* Whether two profiles or more have a curve: the page then draws them together. */
static bool has_all(const struct suite_prof *sp, size_t nr)
{
	size_t nr_curves = 0;

	for (size_t i = 0; i < nr; i++)
		nr_curves += sp[i].best != NULL;
	return nr_curves >= 2;
}

/* The section of every profile together: nothing unless has_all(). */
static void all_section(FILE *f, const struct suite_prof *sp, size_t nr)
{
	if (!has_all(sp, nr))
		return;
	fputs("<section id=\"all\">\n<h2>All profiles</h2>\n<div class=\"meta\">Each profile's "
	      "curve with the highest peak, IOPS against mean and 99th percentile service time, "
	      "on logarithmic axes; a hollow point missed its target.</div>\n<div "
	      "class=\"charts\">",
	      f);
	all_chart(f, sp, nr, SUITE_MEAN);
	all_chart(f, sp, nr, SUITE_P99);
	fputs("</div>\n</section>\n", f);
}

/* ---- a profile's section ------------------------------------------------------------------- */

static void prof_meta(FILE *f, const struct suite_prof *sp)
{
	size_t nr_points = 0;

	for (size_t c = 0; c < sp->g.nr; c++)
		nr_points += json_array_size(json_object_get(sp->g.curves[c], "points"));
	fputs("<div class=\"meta\">", f);
	rep_html_escape(f, sp->p->name);
	if (sp->p->figures) {
		fputs(" \xc2\xb7 ", f);
		rep_html_escape(f, sp->p->figures);
	}
	fprintf(f, " \xc2\xb7 %zu point%s \xc2\xb7 ", nr_points, nr_points == 1 ? "" : "s");
	rep_html_escape(f, prof_status(sp));
	if (sp->doc && sp->p->href) {
		fputs(" \xc2\xb7 <a href=\"", f);
		rep_html_escape(f, sp->p->href);
		fputs("\">full report</a>", f);
	}
	fputs("</div>\n", f);
}

static void prof_section(FILE *f, const struct rep_suite_request *req, const struct suite_prof *sp)
{
	const json_t *peak = json_object_get(sp->best, "peak");
	char n[48], m[48], p[48];

	fputs("<section id=\"p-", f);
	rep_html_escape(f, sp->p->name);
	fputs("\">\n<h2>", f);
	rep_html_escape(f, prof_title(sp));
	fputs("</h2>\n", f);
	prof_meta(f, sp);
	rep_html_validity_banner(f, sp->doc);
	if (!json_is_object(peak)) {
		fputs("<p class=\"peak\">No completed point.</p>\n</section>\n", f);
		return;
	}
	fprintf(f,
		"<p class=\"peak\">Peak <b>%s IOPS</b> at <b>%s \xc2\xb5s</b> mean latency "
		"(%s \xc2\xb5s p99).</p>\n",
		rep_fmt_group(rep_doc_num(peak, "iops"), 0, n, sizeof(n)),
		rep_fmt_lat_us(rep_doc_num(peak, "mean_us"), m, sizeof(m)),
		rep_fmt_lat_us(rep_doc_num(peak, "p99_us"), p, sizeof(p)));
	if (rep_html_is_pressure(sp->doc, &sp->g)) {
		fputs("<div class=\"charts\">", f);
		rep_html_pressure_charts(f, sp->doc, &sp->g, false);
		fputs("</div>\n<h3>Each WD at each step</h3>\n", f);
		rep_html_pressure_table(f, sp->doc, &sp->g);
	} else if (rep_html_is_sweep(&sp->g)) {
		fputs("<div class=\"charts\">", f);
		rep_html_sweep_chart(f, &sp->g, REP_HTML_SWEEP_THROUGHPUT);
		rep_html_sweep_chart(f, &sp->g, REP_HTML_SWEEP_MEAN);
		rep_html_sweep_chart(f, &sp->g, REP_HTML_SWEEP_P99);
		fputs("</div>\n", f);
	} else {
		fputs("<div class=\"charts\">", f);
		prof_chart(f, req, sp, SUITE_MEAN);
		prof_chart(f, req, sp, SUITE_P99);
		if (rep_html_has_sds(sp->doc, &sp->g)) /* a line per drive, as reviews compare */
			rep_html_sd_chart(f, sp->doc, &sp->g);
		fputs("</div>\n", f);
	}
	fputs("<h3>IOPS at latency</h3>\n", f);
	rep_html_sla_table(f, &sp->g);
	fputs("</section>\n", f);
}

static int page(FILE *f, const struct rep_suite_request *req, const struct suite_prof *sp)
{
	head(f);
	header(f, req, first_doc(sp, req->nr_profiles), has_all(sp, req->nr_profiles));
	summary(f, sp, req->nr_profiles);
	all_section(f, sp, req->nr_profiles);
	rep_html_setup_drives(f, first_doc(sp, req->nr_profiles));
	for (size_t i = 0; i < req->nr_profiles; i++)
		prof_section(f, req, &sp[i]);
	fputs("<footer>Curves as reviews draw them: each profile's points in load order, IOPS "
	      "against mean and 99th percentile service time (submit to completion, VDbench's "
	      "response time), joined by straight lines; IOPS at latency interpolates between "
	      "the last point under a threshold and the first point over it (nothing after that "
	      "first crossing counts; a point that missed its target is never the upper end). "
	      "Each profile's own report has every point, every SD and every run. Rendered by "
	      "ioramp " IORAMP_VERSION ".</footer>\n</main>\n</body>\n</html>\n",
	      f);
	return ferror(f) ? -EIO : 0;
}

struct page_args {
	const struct rep_suite_request *req;
	const struct suite_prof *sp;
};

static int write_page(FILE *f, const void *arg)
{
	const struct page_args *a = arg;

	return page(f, a->req, a->sp);
}

/* Loads the published curves of sp's profile. Returns 0, or -errno with the reason in err. */
static int prof_overlays(struct suite_prof *sp, char *err, size_t len)
{
	const struct rep_suite_profile *p = sp->p;

	if (!p->nr_ov)
		return 0;
	if (!sp->doc || !sp->g.nr || rep_html_is_pressure(sp->doc, &sp->g) ||
	    rep_html_is_sweep(&sp->g)) {
		snprintf(err, len,
			 "--overlay %s=%s: profile %s has no IOPS/average latency chart to draw it "
			 "on (%s)",
			 p->ov[0].name, p->ov[0].path, p->name,
			 !sp->doc     ? sp->err
			 : !sp->g.nr ? "no curve"
				     : "its chart's x axis is the swept parameter");
		return -EINVAL;
	}
	sp->ov = calloc(p->nr_ov + 1, sizeof(*sp->ov));
	if (!sp->ov) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (; sp->nr_ov < p->nr_ov; sp->nr_ov++) {
		int ret = rep_overlay_load(&p->ov[sp->nr_ov], &sp->ov[sp->nr_ov], err, len);

		if (ret)
			return ret;
	}
	return 0;
}

int rep_suite_write(struct rep_suite_request *req)
{
	struct suite_prof *sp = profs_load(req);
	struct page_args a = { req, sp };
	int ret = sp ? 0 : -ENOMEM;

	req->err[0] = '\0';
	req->is_write_error = false;
	for (size_t i = 0; !ret && i < req->nr_profiles; i++)
		ret = prof_overlays(&sp[i], req->err, sizeof(req->err));
	if (!ret) {
		ret = rep_replace_file(req->html_path, write_page, &a);
		req->is_write_error = ret != 0;
	}
	if (ret && !req->err[0])
		snprintf(req->err, sizeof(req->err), "%s: cannot write: %s", req->html_path,
			 strerror(-ret));
	profs_free(sp, req->nr_profiles);
	return ret;
}

void rep_suite_print(const struct rep_suite_request *req, FILE *f)
{
	struct suite_prof *sp = profs_load(req);
	const json_t *list = sp ? sla_list(sp, req->nr_profiles) : NULL;
	char n[48], m[48], label[32], head[40];

	if (!sp)
		return;
	fprintf(f, "\n%-24s %-11s %11s %10s", "profile", "status", "peak IOPS", "mean us");
	for (size_t k = 0; k < json_array_size(list); k++) {
		rep_sla_label(rep_doc_num(json_array_get(list, k), "threshold_us") * 1e3, label,
			      sizeof(label));
		snprintf(head, sizeof(head), "<=%s", label);
		fprintf(f, " %12s", head);
	}
	fputc('\n', f);
	for (size_t i = 0; i < req->nr_profiles; i++) {
		const json_t *peak = json_object_get(sp[i].best, "peak");

		fprintf(f, "%-24s %-11.11s %11s %10s", prof_title(&sp[i]), prof_status(&sp[i]),
			rep_fmt_group(rep_doc_num(peak, "iops"), 0, n, sizeof(n)),
			rep_fmt_lat_us(rep_doc_num(peak, "mean_us"), m, sizeof(m)));
		for (size_t k = 0; k < json_array_size(list); k++)
			fprintf(f, " %12s",
				at_text(curve_at(sp[i].best, list, k), false, n, sizeof(n)));
		fputc('\n', f);
	}
	fflush(f);
	profs_free(sp, req->nr_profiles);
}
