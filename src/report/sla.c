/* IOPS at latency: the highest load a curve carries with its mean or p99 latency under a
 * threshold, read off the curve as reviews draw it (points joined by straight lines), and the
 * --sla list of thresholds. Pure functions; the outputs print and store the answers. */
#include "ioramp/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const double rep_sla_default_ns[REP_SLA_DEFAULT_NR] = { 100e3, 200e3, 500e3, 1e6 };

static double point_lat_ns(const struct rep_sla_point *p, enum rep_sla_stat stat)
{
	return stat == REP_SLA_P99 ? p->p99_ns : p->mean_ns;
}

/* A NaN latency never counts as under a threshold. */
static bool is_under(double lat_ns, double threshold_ns)
{
	return lat_ns <= threshold_ns;
}

/* Whether point a comes before point b in target order (NaN or equal: the given order). */
static bool is_before(const struct rep_sla_point *pts, size_t a, size_t b)
{
	double ta = pts[a].target_iops, tb = pts[b].target_iops;

	if (isnan(ta) || isnan(tb) || ta == tb)
		return a < b;
	return ta < tb;
}

/* ord[0..nr) = the points' indexes in target order (insertion sort: curves are short). */
static void target_order(const struct rep_sla_point *pts, size_t nr, size_t *ord)
{
	for (size_t i = 0; i < nr; i++) {
		size_t j = i;

		while (j > 0 && is_before(pts, i, ord[j - 1])) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = i;
	}
}

static struct rep_sla_at walk(const struct rep_sla_point *pts, const size_t *ord, size_t nr,
			      enum rep_sla_stat stat, double threshold_ns)
{
	struct rep_sla_at at = { .state = REP_SLA_NOT_REACHED, .iops = 0 };
	const struct rep_sla_point *under = NULL;
	double highest = 0;

	for (size_t k = 0; k < nr; k++) {
		const struct rep_sla_point *p = &pts[ord ? ord[k] : k];
		double y = point_lat_ns(p, stat);

		if (p->iops > highest)
			highest = p->iops;
		if (is_under(y, threshold_ns)) {
			under = p;
			continue;
		}
		if (!under)
			return at; /* over from the first point on: a later dip does not count */
		at.state = REP_SLA_REACHED;
		at.iops = under->iops;
		if (!p->is_missed && !isnan(y)) {
			double y0 = point_lat_ns(under, stat);
			double xc = under->iops +
				    (threshold_ns - y0) * (p->iops - under->iops) / (y - y0);

			if (xc > at.iops)
				at.iops = xc;
		}
		return at; /* the first crossing ends the walk */
	}
	if (under) {
		at.state = REP_SLA_ALL_BELOW;
		at.iops = highest;
	}
	return at;
}

struct rep_sla_at rep_sla_iops_at(const struct rep_sla_point *pts, size_t nr,
				  enum rep_sla_stat stat, double threshold_ns)
{
	size_t *ord = nr ? malloc(nr * sizeof(*ord)) : NULL;
	struct rep_sla_at at;

	if (ord)
		target_order(pts, nr, ord);
	at = walk(pts, ord, nr, stat, threshold_ns); /* no memory: the given order */
	free(ord);
	return at;
}

/* Scale of a unit suffix, 0 if unknown. No suffix means microseconds. */
static double unit_ns(const char *unit, size_t len)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = { { "", 1e3 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(units); i++)
		if (strlen(units[i].name) == len && !strncasecmp(unit, units[i].name, len))
			return units[i].ns;
	return 0;
}

/* One "100us" item of len bytes; returns the value in ns, or 0 when it is not a latency. */
static double parse_item(const char *item, size_t len)
{
	char buf[64];
	char *end;
	double v, scale;
	size_t b = 0, e = len;

	while (b < e && (item[b] == ' ' || item[b] == '\t'))
		b++;
	while (e > b && (item[e - 1] == ' ' || item[e - 1] == '\t'))
		e--;
	if (e == b || e - b >= sizeof(buf))
		return 0;
	memcpy(buf, item + b, e - b);
	buf[e - b] = '\0';
	v = strtod(buf, &end);
	if (end == buf || !isfinite(v) || v <= 0)
		return 0;
	scale = unit_ns(end, strlen(end));
	return scale ? v * scale : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int rep_sla_parse(const char *text, double *ns, size_t max)
{
	size_t nr = 0, out = 0;
	const char *p = text;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		double v = parse_item(p, len);

		if (v <= 0 || nr >= max)
			return -EINVAL;
		ns[nr++] = v;
		if (!comma)
			break;
		p = comma + 1;
	}
	qsort(ns, nr, sizeof(*ns), cmp_double);
	for (size_t i = 0; i < nr; i++)
		if (!out || ns[i] != ns[out - 1])
			ns[out++] = ns[i];
	return (int)out;
}

void rep_sla_label(double ns, char *buf, size_t len)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.4gs", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.4gms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.4gus", ns / 1e3);
	else
		snprintf(buf, len, "%.4gns", ns);
}
