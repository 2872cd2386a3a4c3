/* Published curves for `ioramp report --overlay NAME=FILE.csv`: a small CSV of IOPS and
 * average latency in us per line (IOPS may carry k, M or G), an optional header, # comments
 * and blank lines. */
#include "html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int rep_overlay_load(const struct rep_overlay *ov, struct rep_overlay_data *out, char *err,
		     size_t errlen)
{
	FILE *f = fopen(ov->path, "r");
	char line[1024];
	unsigned int nr_line = 0, nr_data = 0;
	size_t cap = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->name = ov->name;
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
		if (parse_line(line, &iops, &lat))
			ret = add_point(out, &cap, iops, lat);
		else if (nr_data) /* only the first data-like line may be a header */
			ret = -EINVAL;
		nr_data++;
	}
	fclose(f);
	if (!ret && !out->nr)
		ret = -EINVAL;
	if (ret == -EINVAL)
		snprintf(err, errlen,
			 out->nr || nr_data > 1 ? "%s:%u: expected IOPS,latency_us"
						: "%s: no IOPS,latency_us points",
			 ov->path, nr_line);
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
