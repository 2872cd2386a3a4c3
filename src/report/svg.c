/* Line charts as inline SVG, laid out like a review's figure: title, light grid, nice tick
 * values, axis titles, lines joining the points, legend below. Coordinates are computed
 * here; the page's CSS only sets the font. */
#include "svg.h"

#include <math.h>
#include <string.h>

#include "ioramp/compiler.h"

enum {
	W = 640,      /* viewBox width; the page scales it */
	PLOT_H = 300, /* plot area height */
	LEFT = 70,    /* room for y tick labels and title */
	RIGHT = 22,   /* room for the last x tick label */
	TOP = 46,     /* title */
	BOTTOM = 50,  /* x tick labels and title */
	LEGEND_ROW = 20,
};

/* The mapped range of an axis. */
struct scale {
	double lo, hi; /* data range; for a log axis, decades (log10) or octaves (log2) */
	double step;   /* linear tick step; log2: octaves between labelled ticks */
	bool is_log;
	bool is_log2;
	double px0, px1; /* pixel range */
};

void rep_html_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

const char *rep_svg_color(size_t i)
{
	static const char *const palette[] = { "#2f6fb3", "#e8743b", "#19a979", "#d64e5c",
					       "#8c6bb1", "#b8860b", "#13a4b4", "#6f7d8c",
					       "#c45ec1", "#5a8f29" };

	return palette[i % IORAMP_ARRAY_SIZE(palette)];
}

void rep_svg_ramp(double t, char buf[8])
{
	static const int from[3] = { 0x9e, 0xc5, 0xe8 }, to[3] = { 0x0b, 0x2e, 0x6b };
	int c[3];

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	for (int i = 0; i < 3; i++)
		c[i] = (int)lround(from[i] + (to[i] - from[i]) * t);
	snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

double rep_svg_nice_step(double max, int nr)
{
	double raw, mag, norm;

	if (!(max > 0))
		return 1;
	raw = max / nr;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	if (norm <= 1)
		return mag;
	if (norm <= 2)
		return 2 * mag;
	if (norm <= 5)
		return 5 * mag;
	return 10 * mag;
}

/* The data range of the x (is_y false) or y values of every series. */
static void data_range(const struct rep_svg_chart *c, bool is_y, bool is_log, double *lo,
		       double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t s = 0; s < c->nr_series; s++) {
		const double *v = is_y ? c->series[s].y : c->series[s].x;

		for (size_t i = 0; i < c->series[s].nr; i++) {
			if (!isfinite(v[i]) || (is_log && v[i] <= 0))
				continue;
			*lo = v[i] < *lo ? v[i] : *lo;
			*hi = v[i] > *hi ? v[i] : *hi;
		}
	}
	for (size_t m = 0; !is_y && m < c->nr_marks; m++)
		*hi = c->marks[m].x > *hi ? c->marks[m].x : *hi;
}

static void scale_init(struct scale *s, const struct rep_svg_chart *c, bool is_y, double px0,
		       double px1)
{
	const struct rep_svg_axis *a = is_y ? &c->y : &c->x;
	double lo, hi;

	data_range(c, is_y, a->is_log || a->is_log2, &lo, &hi);
	s->is_log = a->is_log || a->is_log2;
	s->is_log2 = a->is_log2;
	s->px0 = px0;
	s->px1 = px1;
	if (a->is_log2) {
		s->lo = isfinite(lo) ? floor(log2(lo)) : 0;
		s->hi = isfinite(hi) ? ceil(log2(hi)) : 1;
		if (s->hi <= s->lo)
			s->hi = s->lo + 1;
		s->step = ceil((s->hi - s->lo) / 10); /* ten labels at most */
		return;
	}
	if (a->is_log) {
		s->lo = isfinite(lo) ? floor(log10(lo)) : 0;
		s->hi = isfinite(hi) ? ceil(log10(hi)) : 1;
		if (s->hi - s->lo > 12)
			s->lo = s->hi - 12; /* a dozen decades at most */
		if (s->hi <= s->lo)
			s->hi = s->lo + 1;
		return;
	}
	hi = isfinite(hi) && hi > 0 ? fmin(hi, 1e300) : 1;
	if (!a->is_tight)
		hi *= 1.02; /* keep the highest point off the frame */
	s->lo = 0;
	s->step = rep_svg_nice_step(hi, is_y ? 6 : 7);
	s->hi = ceil(hi / s->step - 1e-9) * s->step;
}

static double scale_px(const struct scale *s, double v)
{
	double l = s->is_log2 ? log2(v) : log10(v);
	double t = s->is_log ? (l - s->lo) / (s->hi - s->lo) : (v - s->lo) / (s->hi - s->lo);

	return s->px0 + t * (s->px1 - s->px0);
}

static void tick_text(const struct rep_svg_axis *a, double v, char *buf, size_t len)
{
	if (a->fmt)
		a->fmt(v, buf, len);
	else
		snprintf(buf, len, "%g", v);
}

/* The grid line and label of one tick; minor ticks of a log axis get a fainter line only. */
static void tick(FILE *f, const struct rep_svg_axis *a, const struct scale *s, double v, bool is_y,
		 bool is_minor, const double box[4])
{
	double p = scale_px(s, v);
	char label[32];

	if (is_y)
		fprintf(f,
			"<line class=\"grid%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			is_minor ? " minor" : "", box[0], p, box[2], p);
	else
		fprintf(f,
			"<line class=\"grid%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			is_minor ? " minor" : "", p, box[1], p, box[3]);
	if (is_minor)
		return;
	tick_text(a, v, label, sizeof(label));
	if (is_y)
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			box[0] - 8, p + 4);
	else
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", p,
			box[3] + 18);
	rep_html_escape(f, label);
	fputs("</text>\n", f);
}

static void axis_ticks(FILE *f, const struct rep_svg_axis *a, const struct scale *s, bool is_y,
		       const double box[4])
{
	if (s->is_log2) {
		for (double d = s->lo; d <= s->hi; d++)
			tick(f, a, s, exp2(d), is_y, fmod(d - s->lo, s->step) != 0, box);
		return;
	}
	if (!s->is_log) {
		for (int i = 0; s->lo + i * s->step <= s->hi + s->step * 1e-9; i++)
			tick(f, a, s, s->lo + i * s->step, is_y, false, box);
		return;
	}
	for (double d = s->lo; d <= s->hi; d++) {
		tick(f, a, s, pow(10, d), is_y, false, box);
		for (int m = 2; m <= 9 && d < s->hi; m++)
			tick(f, a, s, m * pow(10, d), is_y, true, box);
	}
}

static void axes(FILE *f, const struct rep_svg_chart *c, const struct scale *xs,
		 const struct scale *ys, const double box[4])
{
	double cy = (box[1] + box[3]) / 2;

	axis_ticks(f, &c->y, ys, true, box);
	axis_ticks(f, &c->x, xs, false, box);
	fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", box[0],
		box[3], box[2], box[3]);
	fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		box[0], box[1], box[0], box[3]);
	fprintf(f, "<text class=\"atitle\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		(box[0] + box[2]) / 2, box[3] + 40);
	rep_html_escape(f, c->x.title);
	fprintf(f,
		"</text>\n<text class=\"atitle\" x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 16 %.1f)\">",
		cy, cy);
	rep_html_escape(f, c->y.title);
	fputs("</text>\n", f);
}

/* Vertical marks with their labels, skipping a label that would overlap the previous one. */
static void marks(FILE *f, const struct rep_svg_chart *c, const struct scale *xs,
		  const double box[4])
{
	double last_end = -1e9;

	for (size_t m = 0; m < c->nr_marks; m++) {
		double p = scale_px(xs, c->marks[m].x);
		double w = 6.2 * (double)strlen(c->marks[m].label ? c->marks[m].label : "");

		fprintf(f, "<line class=\"mark\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			p, box[1], p, box[3]);
		if (!c->marks[m].label || p + 3 < last_end + 4 || p + 3 + w > box[2])
			continue;
		fprintf(f, "<text class=\"mlabel\" x=\"%.1f\" y=\"%.1f\">", p + 3, box[1] + 11);
		rep_html_escape(f, c->marks[m].label);
		fputs("</text>", f);
		last_end = p + 3 + w;
	}
	fputc('\n', f);
}

static bool is_drawable(const struct scale *xs, const struct scale *ys, double x, double y)
{
	return isfinite(x) && isfinite(y) && (!xs->is_log || x > 0) && (!ys->is_log || y > 0);
}

static void series_line(FILE *f, const struct rep_svg_series *s, const struct scale *xs,
			const struct scale *ys, const double box[4])
{
	bool is_first = true;
	double first_x = 0, last_x = 0;

	if (s->style == REP_SVG_AREA) {
		fprintf(f, "<path class=\"area\" fill=\"%s\" d=\"", s->color);
		for (size_t i = 0; i < s->nr; i++) {
			if (!is_drawable(xs, ys, s->x[i], s->y[i]))
				continue;
			last_x = scale_px(xs, s->x[i]);
			if (is_first)
				first_x = last_x;
			fprintf(f, "%s%.1f,%.1f", is_first ? "M" : " L", last_x,
				scale_px(ys, s->y[i]));
			is_first = false;
		}
		fprintf(f, " L%.1f,%.1f L%.1f,%.1f Z\"/>", last_x, box[3], first_x, box[3]);
		is_first = true;
	}
	fprintf(f, "<polyline class=\"line%s\" stroke=\"%s\" points=\"",
		s->style == REP_SVG_OVERLAY ? " dashed" : "", s->color);
	for (size_t i = 0; i < s->nr; i++) {
		if (!is_drawable(xs, ys, s->x[i], s->y[i]))
			continue;
		fprintf(f, "%s%.1f,%.1f", is_first ? "" : " ", scale_px(xs, s->x[i]),
			scale_px(ys, s->y[i]));
		is_first = false;
	}
	fputs("\"/>\n", f);
}

static void series_markers(FILE *f, const struct rep_svg_series *s, const struct scale *xs,
			   const struct scale *ys)
{
	bool is_overlay = s->style == REP_SVG_OVERLAY;

	if (s->style != REP_SVG_POINTS && !is_overlay)
		return;
	for (size_t i = 0; i < s->nr; i++) {
		bool is_hollow = !is_overlay && s->is_hollow && s->is_hollow[i];

		if (!is_drawable(xs, ys, s->x[i], s->y[i]))
			continue;
		/* a hollow point's stroke in style=, above the style sheet's white .pt stroke */
		fprintf(f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" %s=\"%s%s\">",
			is_overlay  ? "ov"
			: is_hollow ? "pt missed"
				    : "pt",
			scale_px(xs, s->x[i]), scale_px(ys, s->y[i]), is_hollow ? "4.5" : "4",
			is_overlay  ? "stroke"
			: is_hollow ? "style"
				    : "fill",
			is_hollow ? "stroke:" : "", s->color);
		if (s->tips && s->tips[i]) {
			fputs("<title>", f);
			rep_html_escape(f, s->tips[i]);
			fputs("</title>", f);
		}
		fputs("</circle>\n", f);
	}
}

/* Whether a point of the chart is drawn hollow. */
static bool has_hollow(const struct rep_svg_chart *c)
{
	for (size_t s = 0; s < c->nr_series; s++)
		for (size_t i = 0; c->series[s].is_hollow && c->series[s].style == REP_SVG_POINTS &&
				   i < c->series[s].nr;
		     i++)
			if (c->series[s].is_hollow[i])
				return true;
	return false;
}

/* Legend entries flow left to right in rows, then the hollow point's meaning when a point is
 * drawn hollow; returns the number of rows. */
static int legend(FILE *f, const struct rep_svg_chart *c, double y0, bool is_drawn)
{
	double x = LEFT, y = y0;
	int rows = 0;

	for (size_t i = 0; i < c->nr_series; i++) {
		const struct rep_svg_series *s = &c->series[i];
		double w = 34 + 6.4 * (double)strlen(s->name ? s->name : "");

		if (!s->name)
			continue;
		if (!rows || (x + w > W - RIGHT && x > LEFT)) {
			x = LEFT;
			y = y0 + LEGEND_ROW * rows++;
		}
		if (is_drawn) {
			fprintf(f,
				"<g class=\"legend\"><line class=\"line%s\" stroke=\"%s\" x1=\"%.1f\" "
				"y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
				s->style == REP_SVG_OVERLAY ? " dashed" : "", s->color, x, y - 4,
				x + 22, y - 4);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + 28, y);
			rep_html_escape(f, s->name);
			fputs("</text></g>\n", f);
		}
		x += w + 14;
	}
	if (has_hollow(c)) {
		static const char text[] = "hollow: missed its target";
		double w = 34 + 6.4 * (double)strlen(text);

		if (!rows || (x + w > W - RIGHT && x > LEFT)) {
			x = LEFT;
			y = y0 + LEGEND_ROW * rows++;
		}
		if (is_drawn)
			fprintf(f,
				"<g class=\"legend\"><circle class=\"missed-key\" cx=\"%.1f\" "
				"cy=\"%.1f\" r=\"4\" stroke=\"#616e7c\"/><text x=\"%.1f\" "
				"y=\"%.1f\">%s</text></g>\n",
				x + 11, y - 4, x + 28, y, text);
	}
	return rows;
}

static bool has_data(const struct rep_svg_chart *c)
{
	for (size_t s = 0; s < c->nr_series; s++)
		if (c->series[s].nr)
			return true;
	return false;
}

void rep_svg_chart_write(const struct rep_svg_chart *c, FILE *f)
{
	int rows = legend(f, c, 0, false);
	double box[4] = { LEFT, TOP, W - RIGHT, TOP + PLOT_H };
	double h = TOP + PLOT_H + BOTTOM + rows * LEGEND_ROW + (rows ? 8 : 0);
	struct scale xs, ys;

	scale_init(&xs, c, false, box[0], box[2]);
	scale_init(&ys, c, true, box[3], box[1]);
	fprintf(f,
		"<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %.0f\" "
		"role=\"img\" aria-label=\"",
		W, h);
	rep_html_escape(f, c->desc ? c->desc : c->title);
	fputs("\">\n<text class=\"ctitle\" x=\"12\" y=\"24\">", f);
	rep_html_escape(f, c->title);
	fputs("</text>\n", f);
	if (c->note) {
		fprintf(f, "<text class=\"cnote\" x=\"%d\" y=\"24\" text-anchor=\"end\">",
			W - RIGHT);
		rep_html_escape(f, c->note);
		fputs("</text>\n", f);
	}
	axes(f, c, &xs, &ys, box);
	marks(f, c, &xs, box);
	if (!has_data(c))
		fprintf(f,
			"<text class=\"nodata\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no "
			"data</text>\n",
			(box[0] + box[2]) / 2, (box[1] + box[3]) / 2);
	for (size_t s = 0; s < c->nr_series; s++)
		series_line(f, &c->series[s], &xs, &ys, box);
	for (size_t s = 0; s < c->nr_series; s++)
		series_markers(f, &c->series[s], &xs, &ys);
	legend(f, c, TOP + PLOT_H + BOTTOM + 14, true);
	fputs("</svg>\n", f);
}
