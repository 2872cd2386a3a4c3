/* Private to src/report: the line charts of report.html, drawn as inline SVG by hand (no
 * script, no external resource): linear or log axes with nice ticks, lines with point
 * markers and tooltips, dashed overlays, vertical marks and a legend. */
#ifndef IORAMP_REPORT_SVG_H
#define IORAMP_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum rep_svg_style {
	REP_SVG_POINTS,	 /* line through markers (class "pt"): measured points */
	REP_SVG_LINE,	 /* line only: a time series */
	REP_SVG_OVERLAY, /* dashed line through hollow markers (class "ov"): published data */
	REP_SVG_AREA,	 /* line with a light fill beneath: a distribution */
};

struct rep_svg_series {
	const char *name; /* legend text; NULL: not in the legend */
	const double *x;
	const double *y;
	char *const *tips;     /* tooltip per point; NULL: none */
	const bool *is_hollow; /* REP_SVG_POINTS: per point, drawn hollow (a missed target); NULL */
	size_t nr;
	const char *color; /* "#rrggbb" */
	enum rep_svg_style style;
};

/* Formats a tick value for display. */
typedef void rep_svg_fmt_fn(double v, char *buf, size_t len);

struct rep_svg_axis {
	const char *title;
	bool is_log;
	bool is_log2;	     /* log scale with a tick at each power of two (threads, sizes) */
	bool is_tight;	     /* linear: end at the first tick at or above the data, no headroom */
	rep_svg_fmt_fn *fmt; /* NULL: %g */
};

/* A vertical line across the plot at x with a label at its top (run boundaries). */
struct rep_svg_mark {
	double x;
	const char *label;
};

struct rep_svg_chart {
	const char *title;
	const char *desc; /* aria label / <desc>; NULL: the title */
	struct rep_svg_axis x;
	struct rep_svg_axis y;
	const struct rep_svg_series *series;
	size_t nr_series;
	const struct rep_svg_mark *marks;
	size_t nr_marks;
	const char *note; /* at the top right, in every copy of the chart ("modelled drives,
			     not measurements"); NULL: none */
};

/* Writes one <svg> element. */
void rep_svg_chart_write(const struct rep_svg_chart *c, FILE *f);

/* Writes s with &, <, >, " and ' escaped for HTML and SVG text and attributes. */
void rep_html_escape(FILE *f, const char *s);

/* The categorical colour of series i, and a light-to-dark ramp for ordered series (t in
 * [0, 1]). */
const char *rep_svg_color(size_t i);
void rep_svg_ramp(double t, char buf[8]);

/* The nice tick step (1, 2 or 5 times a power of ten) that cuts [0, max] into at most about
 * nr parts. */
double rep_svg_nice_step(double max, int nr);

#endif /* IORAMP_REPORT_SVG_H */
