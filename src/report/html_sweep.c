/* The charts of a sweep (a for-loop over threads, xfersize, rdpct, seekpct ...): latency and
 * throughput against the loop's parameter, as fio sweeps are published (throughput and
 * latency as the queue depth rises), one line per sweep of the group (per outer loop value).
 * A sweep of iorate keeps the IOPS-against-latency charts: its x is IOPS. */
#include "html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "svg.h"

bool rep_html_is_sweep(const struct rep_html_group *g)
{
	const char *x = rep_doc_str(g->curves[0], "x", "");

	return !strcmp(rep_doc_str(g->curves[0], "kind", ""), "sweep") && *x && strcmp(x, "iorate");
}

/* Byte counts as VDbench writes sizes: 512, 4k, 1m. */
static void fmt_bytes(double v, char *buf, size_t len)
{
	if (v >= 1048576 && fmod(v, 1048576) == 0)
		snprintf(buf, len, "%gm", v / 1048576);
	else if (v >= 1024 && fmod(v, 1024) == 0)
		snprintf(buf, len, "%gk", v / 1024);
	else
		snprintf(buf, len, "%g", v);
}

static bool is_size(const char *x)
{
	return !strcmp(x, "xfersize") || !strcmp(x, "hitarea");
}

/* The x axis: its title, its format, and a power-of-two scale for a ladder of depths or
 * sizes spanning three octaves or more (1, 2, 4 ... 256). */
static void x_axis(const struct rep_html_group *g, struct rep_svg_axis *a)
{
	const char *x = rep_doc_str(g->curves[0], "x", "");
	double lo = INFINITY, hi = 0;

	for (size_t c = 0; c < g->nr; c++) {
		const json_t *p;
		size_t i;

		json_array_foreach (json_object_get(g->curves[c], "points"), i, p) {
			double v = rep_doc_num(p, "x");

			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	}
	a->fmt = is_size(x) ? fmt_bytes : rep_html_fmt_plain;
	a->is_log2 = (is_size(x) || !strcmp(x, "threads")) && lo > 0 && hi >= 8 * lo;
	a->title = !strcmp(x, "threads")    ? "Threads per SD (I/Os in flight)"
		   : !strcmp(x, "xfersize") ? "Transfer size (bytes)"
		   : !strcmp(x, "rdpct")    ? "Read %"
		   : !strcmp(x, "seekpct")  ? "Random % (seekpct)"
					    : x;
}

/* Whether the group moves large blocks: its throughput is then shown in MB/s, as reviews
 * chart sequential sweeps, else in IOPS. */
static bool is_bandwidth(const struct rep_html_group *g)
{
	return rep_doc_num(json_array_get(json_object_get(g->curves[0], "points"), 0),
			   "bytes_per_io") >= 65536;
}

static void sweep_line(struct rep_html_line *l, const struct rep_html_group *g, size_t c,
		       enum rep_html_sweep_y y)
{
	static const char *const path[] = {
		[REP_HTML_SWEEP_MEAN] = "service/mean_us",
		[REP_HTML_SWEEP_P99] = "service/percentiles_us/99",
	};
	const char *x = rep_doc_str(g->curves[0], "x", "");
	const json_t *p;
	char xs[32], n1[32], n2[32], n3[32], n4[32];
	size_t i;

	json_array_foreach (json_object_get(g->curves[c], "points"), i, p) {
		double iops = rep_doc_num(p, "iops"), mb = rep_doc_num(p, "mb_per_sec");

		l->x[l->nr] = rep_doc_num(p, "x");
		l->y[l->nr] = y != REP_HTML_SWEEP_THROUGHPUT ? rep_doc_num(p, path[y])
			      : is_bandwidth(g)		     ? mb
							     : iops;
		l->is_missed[l->nr] = json_is_false(json_object_get(p, "is_target_met"));
		(is_size(x) ? fmt_bytes : rep_html_fmt_plain)(l->x[l->nr], xs, sizeof(xs));
		if (asprintf(&l->tips[l->nr],
			     "%s=%s: %s IOPS, %s MB/s, %s \xc2\xb5s mean, %s \xc2\xb5s p99", x, xs,
			     rep_fmt_group(iops, 0, n1, 32), rep_fmt_group(mb, 1, n2, 32),
			     rep_fmt_lat_us(rep_doc_num(p, path[0]), n3, 32),
			     rep_fmt_lat_us(rep_doc_num(p, path[1]), n4, 32)) < 0)
			l->tips[l->nr] = NULL;
		l->nr++;
	}
	rep_html_curve_label(g, c, l->name, sizeof(l->name));
	snprintf(l->color, sizeof(l->color), "%s", rep_svg_color(c));
}

void rep_html_sweep_chart(FILE *f, const struct rep_html_group *g, enum rep_html_sweep_y y)
{
	struct rep_html_line *l = calloc(g->nr + 1, sizeof(*l));
	enum rep_svg_style *styles = calloc(g->nr + 1, sizeof(*styles));
	const char *x = rep_doc_str(g->curves[0], "x", "?");
	char title[96], ytitle[64];
	struct rep_svg_chart c = { .title = title };

	for (size_t i = 0; l && styles && i < g->nr; i++) {
		if (rep_html_line_init(&l[i],
				       json_array_size(json_object_get(g->curves[i], "points"))))
			goto out;
		sweep_line(&l[i], g, i, y);
		styles[i] = REP_SVG_POINTS;
	}
	if (!l || !styles)
		goto out;
	x_axis(g, &c.x);
	if (y == REP_HTML_SWEEP_THROUGHPUT) {
		snprintf(title, sizeof(title), "%s vs %s", is_bandwidth(g) ? "MB/s" : "IOPS", x);
		c.y = (struct rep_svg_axis){ .title = is_bandwidth(g) ? "MB/s" : "IOPS",
					     .fmt = rep_html_fmt_si };
	} else {
		snprintf(title, sizeof(title), "%s latency vs %s",
			 y == REP_HTML_SWEEP_P99 ? "99th percentile" : "Average", x);
		snprintf(ytitle, sizeof(ytitle), "%s service time (%s)",
			 y == REP_HTML_SWEEP_P99 ? "99th percentile" : "Average",
			 rep_html_latency_unit(l, g->nr));
		c.y = (struct rep_svg_axis){ .title = ytitle, .fmt = rep_html_fmt_plain };
	}
	c.note = g->note;
	rep_html_chart_write(f, &c, l, g->nr, styles);
out:
	rep_html_lines_free(l, g->nr);
	free(styles);
}
