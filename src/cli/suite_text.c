/* A library profile's parameter text for a given list of drives: the one line that defines
 * the drives through lun=$lun (sd=sd,count=(0,8),lun=$lun) becomes one SD per drive, so any
 * number of drives with any names works; and the --curve and page-cache adjustments made to
 * the parsed config. */
#include "suite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Start and length of the line holding "lun=$lun"; -ENOENT or -EEXIST. */
static int find_drives_line(const char *text, size_t *start, size_t *len)
{
	const char *p = text, *hit = NULL;

	while ((p = strstr(p, "lun=$lun"))) {
		const char *b = p;

		while (b > text && b[-1] != '\n')
			b--;
		b += strspn(b, " \t");
		if (*b != '*' && *b != '#' && *b != '/') {
			if (hit)
				return -EEXIST;
			hit = b;
		}
		p += 8;
	}
	if (!hit)
		return -ENOENT;
	*start = (size_t)(hit - text);
	*len = strcspn(hit, "\n");
	return 0;
}

/* The SD name the drives line gives (sd=NAME,...): NAME0, NAME1, ... */
static void sd_prefix(const char *line, size_t len, char *buf, size_t buflen)
{
	size_t n = 0;

	if (len > 3 && !strncasecmp(line, "sd=", 3))
		n = strcspn(line + 3, ",\n \t");
	snprintf(buf, buflen, "%.*s", (int)(n ? n : 2), n ? line + 3 : "sd");
}

int cli_suite_text(const char *text, const struct cli_drive *drives, size_t nr, const char *size,
		   char **out)
{
	char prefix[64];
	size_t start, len;
	char *buf = NULL;
	size_t buflen = 0;
	FILE *f;
	int ret = find_drives_line(text, &start, &len);

	*out = NULL;
	if (ret)
		return ret;
	sd_prefix(text + start, len, prefix, sizeof(prefix));
	f = open_memstream(&buf, &buflen);
	if (!f)
		return -ENOMEM;
	fprintf(f, "%.*s* ioramp suite: one SD per drive instead of %.*s\n", (int)start, text,
		(int)len, text + start);
	for (size_t i = 0; i < nr; i++) {
		fprintf(f, "sd=%s%zu,lun=%s", prefix, i, drives[i].path);
		if (size && !drives[i].info.is_block)
			fprintf(f, ",size=%s", size);
		fputc('\n', f);
	}
	fputs(text + start + len + (text[start + len] == '\n'), f);
	if (fclose(f) || !buf) {
		free(buf);
		return -ENOMEM;
	}
	*out = buf;
	return 0;
}

int cli_suite_parse_curve(const char *list, double **pcts)
{
	size_t nr = 0, cap = 1;
	const char *p = list;
	double *v;

	for (const char *c = list; *c; c++)
		cap += *c == ',';
	v = calloc(cap, sizeof(*v));
	*pcts = NULL;
	if (!v)
		return -ENOMEM;
	for (;;) {
		char *end;
		double x = strtod(p, &end);

		if (end == p || !(x > 0 && x <= 1000) || (*end && *end != ',')) {
			free(v);
			return -EINVAL;
		}
		v[nr++] = x;
		if (!*end)
			break;
		p = end + 1;
	}
	*pcts = v;
	return (int)nr;
}

static bool has_curve_rate(const struct parm_rd *rd)
{
	for (size_t i = 0; i < rd->nr_rates; i++)
		if (rd->rates[i].kind == PARM_RATE_CURVE)
			return true;
	return false;
}

int cli_suite_set_curve(struct parm_config *cfg, const double *pcts, size_t nr)
{
	for (size_t i = 0; i < cfg->nr_rds; i++) {
		struct parm_rd *rd = &cfg->rds[i];
		double *v;

		if (!has_curve_rate(rd))
			continue;
		v = malloc(nr * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memcpy(v, pcts, nr * sizeof(*v));
		free(rd->curve_pcts);
		rd->curve_pcts = v;
		rd->nr_curve_pcts = nr;
	}
	return 0;
}

void cli_suite_drop_direct(struct parm_config *cfg)
{
	for (size_t i = 0; i < cfg->nr_sds; i++)
		cfg->sds[i].openflags.flags &= ~(uint32_t)O_DIRECT;
	for (size_t i = 0; i < cfg->nr_wds; i++)
		cfg->wds[i].openflags.flags &= ~(uint32_t)O_DIRECT;
	for (size_t i = 0; i < cfg->nr_rds; i++)
		cfg->rds[i].openflags.flags &= ~(uint32_t)O_DIRECT;
}
