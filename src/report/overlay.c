/* Published curves for `ioramp report --overlay NAME=FILE.csv`: a small CSV of IOPS and
 * average latency per line (IOPS may carry k, M or G), # comments and blank lines, and the
 * latency's unit stated by a header (iops,latency_us or iops,latency_ms) or by
 * --overlay-unit; the points are drawn in IOPS order. */
#include "html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parses a number with an optional k/M/G suffix; returns false when the text is not one. */
static bool parse_num(const char *text, bool has_suffix, double *out)
{
	char *end;
	double v = strtod(text, &end);

	if (end == text)
		return false;
	if (has_suffix && (*end == 'k' || *end == 'K'))
		v *= 1e3, end++;
	else if (has_suffix && *end == 'M')
		v *= 1e6, end++;
	else if (has_suffix && *end == 'G')
		v *= 1e9, end++;
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	*out = v;
	return !*end && isfinite(v) && v >= 0;
}

/* One data line into (iops, lat); 1 for a point, 0 for a line that is not one. */
static int parse_line(char *line, double *iops, double *lat)
{
	char *comma = strchr(line, ',');

	if (!comma)
		return 0;
	*comma = '\0';
	return parse_num(line, true, iops) && parse_num(comma + 1, false, lat);
}

static bool is_blank(const char *line)
{
	line += strspn(line, " \t\r\n");
	return !*line || *line == '#';
}

static int add_point(struct rep_overlay_data *d, size_t *cap, double iops, double lat)
{
	if (d->nr == *cap) {
		size_t n = *cap ? *cap * 2 : 16;
		double *a = realloc(d->iops, n * sizeof(*a)), *b;

		if (!a)
			return -ENOMEM;
		d->iops = a;
		b = realloc(d->lat_us, n * sizeof(*b));
		if (!b)
			return -ENOMEM;
		d->lat_us = b;
		*cap = n;
	}
	d->iops[d->nr] = iops;
	d->lat_us[d->nr++] = lat;
	return 0;
}

/* The unit a header line names, in us: 1 for "iops,latency_us", 1000 for "iops,latency_ms"
 * (case and blanks aside); 0 for any other text. */
static double header_unit(const char *line)
{
	static const struct {
		const char *text;
		double unit_us;
	} headers[] = { { "iops,latency_us", 1 }, { "iops,latency_ms", 1000 } };
	char flat[64];
	size_t n = 0;

	for (; *line && n + 1 < sizeof(flat); line++)
		if (!strchr(" \t\r\n", *line))
			flat[n++] = *line;
	flat[n] = '\0';
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++)
		if (!strcasecmp(flat, headers[i].text))
			return headers[i].unit_us;
	return 0;
}

static const char *unit_name(double unit_us)
{
	return unit_us == 1000 ? "ms" : "us";
}

static int by_iops(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Sorts the points by IOPS (a published table may list them in any order). */
static int sort_points(struct rep_overlay_data *d)
{
	double *pairs = malloc(d->nr * 2 * sizeof(*pairs) + 1);

	if (!pairs)
		return -ENOMEM;
	for (size_t i = 0; i < d->nr; i++) {
		pairs[2 * i] = d->iops[i];
		pairs[2 * i + 1] = d->lat_us[i];
	}
	qsort(pairs, d->nr, 2 * sizeof(*pairs), by_iops);
	for (size_t i = 0; i < d->nr; i++) {
		d->iops[i] = pairs[2 * i];
		d->lat_us[i] = pairs[2 * i + 1];
	}
	free(pairs);
	return 0;
}

int rep_overlay_load(const struct rep_overlay *ov, struct rep_overlay_data *out, char *err,
		     size_t errlen)
{
	FILE *f = fopen(ov->path, "r");
	char line[1024];
	unsigned int nr_line = 0, nr_data = 0;
	double unit_us = 0;
	size_t cap = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->name = ov->name;
	out->label = ov->label;
	err[0] = '\0';
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", ov->path, strerror(-ret));
		return ret;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		double iops, lat;

		nr_line++;
		if (is_blank(line))
			continue;
		if (!nr_data && (unit_us = header_unit(line))) {
			if (ov->unit_us && ov->unit_us != unit_us) {
				snprintf(err, errlen,
					 "%s:%u: the header says latency_%s, --overlay-unit %s",
					 ov->path, nr_line, unit_name(unit_us),
					 unit_name(ov->unit_us));
				ret = -EINVAL;
			}
		} else if (parse_line(line, &iops, &lat)) {
			ret = add_point(out, &cap, iops, lat);
		} else {
			const char *unit = unit_name(unit_us ? unit_us : ov->unit_us);

			snprintf(err, errlen,
				 nr_data ? "%s:%u: expected IOPS,latency_%s"
					 : "%s:%u: expected a header iops,latency_us or "
					   "iops,latency_ms, or IOPS,latency_%s",
				 ov->path, nr_line, unit);
			ret = -EINVAL;
		}
		nr_data++;
	}
	fclose(f);
	if (!ret && !unit_us && !ov->unit_us) {
		snprintf(err, errlen,
			 "%s:1: no header iops,latency_us or iops,latency_ms; say the latency "
			 "unit with --overlay-unit us or ms",
			 ov->path);
		ret = -EINVAL;
	}
	if (!ret && !out->nr) {
		snprintf(err, errlen, "%s: no IOPS,latency points", ov->path);
		ret = -EINVAL;
	}
	if (!unit_us)
		unit_us = ov->unit_us;
	for (size_t i = 0; !ret && i < out->nr; i++)
		out->lat_us[i] *= unit_us;
	if (!ret)
		ret = sort_points(out);
	if (ret == -ENOMEM && !err[0])
		snprintf(err, errlen, "%s: out of memory", ov->path);
	if (ret)
		rep_overlay_fini(out);
	return ret;
}

void rep_overlay_fini(struct rep_overlay_data *d)
{
	if (!d)
		return;
	free(d->iops);
	free(d->lat_us);
	d->iops = NULL;
	d->lat_us = NULL;
	d->nr = 0;
}
