/* swat_mon.txt and swat_mon_total.txt: the files VDbench 5.04.07 writes in every raw-I/O run's
 * output directory for Sun's SWAT tool to import (observed; not with -s; a file-system run has
 * a binary swat_mon.bin instead, not written by ioramp). Both start, at the first interval,
 * with ":date" (that interval's start) and ":fixed_data", then one line "N N 0 0 sd_NAME" per
 * SD of the configuration. swat_mon.txt then has one block per interval, swat_mon_total.txt one
 * per run (the run's non-warmup intervals): ":", ":vdbench503_vdbench_data_for_swat303",
 * ":date BEGIN END", and one line of 14 fields per SD: SD index, 0, reads, writes, total
 * service time in microseconds, 0, 512-byte sectors read and written, the maximum service time
 * of both directions, of reads and of writes in microseconds, and 0 0 0. Stamps are
 * MMddyyyy-HH:mm:ss.000 (whole seconds). An interval's block lists every SD of the
 * configuration, a run total only the run's, each in the order of VDbench's Java HashMap of SD
 * names; so does this file. On modelled drives a ":ioramp modelled drives..." line says so. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vdbtext.h"

struct swat {
	const struct rep_exec *x;
	FILE *f[2]; /* swat_mon.txt, swat_mon_total.txt; NULL until the first interval */
	int err;
	const char **cfg_names; /* the configuration's SDs */
	size_t nr_cfg;
	size_t *cfg_order; /* cfg_names in VDbench's order: the SDs of an interval's block */
	size_t *run_order; /* the current run's SDs in VDbench's order: a run total's SDs */
};

static const char *const file_names[2] = { "swat_mon.txt", "swat_mon_total.txt" };

static void fmt_stamp(char *buf, size_t len, uint64_t tod_ns)
{
	time_t sec = (time_t)(tod_ns / 1000000000u);
	struct tm tm;

	localtime_r(&sec, &tm);
	if (!strftime(buf, len, "%m%d%Y-%H:%M:%S.000", &tm))
		buf[0] = '\0';
}

/* Java's String.hashCode() of an ASCII name. */
static uint32_t java_hash(const char *s)
{
	uint32_t h = 0;

	for (; *s; s++)
		h = 31 * h + (unsigned char)*s;
	return h;
}

/* The bucket of a name in a java.util.HashMap of cap buckets (a power of two). */
static uint32_t java_bucket(const char *s, uint32_t cap)
{
	uint32_t h = java_hash(s);

	return (h ^ (h >> 16)) & (cap - 1);
}

size_t *rep_java_hash_order(const char *const *names, size_t nr, uint32_t nr_buckets)
{
	size_t *order = calloc(nr ? nr : 1, sizeof(*order));
	uint32_t cap = nr_buckets;
	size_t n = 0;

	if (!order)
		return NULL;
	while (nr > cap / 4 * 3)
		cap *= 2;
	for (uint32_t b = 0; b < cap; b++)
		for (size_t i = 0; i < nr; i++)
			if (java_bucket(names[i], cap) == b)
				order[n++] = i;
	return order;
}

static int swat_open(const struct rep_exec *x, void **state)
{
	struct swat *w;

	*state = NULL;
	if (!x->outdir || (x->cfg && x->cfg->fs))
		return 0;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->x = x;
	*state = w;
	w->cfg_names = rep_def_names(x, false, &w->nr_cfg);
	w->cfg_order = rep_java_hash_order(w->cfg_names, w->nr_cfg, 16);
	return w->cfg_order ? 0 : -ENOMEM;
}

/* At the first interval: both files with their configuration block. */
static int open_files(struct swat *w, uint64_t begin_ns)
{
	char path[4096], stamp[32], note[800];

	fmt_stamp(stamp, sizeof(stamp), begin_ns);
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%s", w->x->outdir, file_names[k]);
		w->f[k] = fopen(path, "w");
		if (!w->f[k])
			return -errno;
		fprintf(w->f[k], ":date %s\n:fixed_data\n", stamp);
		for (size_t i = 0; i < w->nr_cfg; i++)
			fprintf(w->f[k], "%zu %zu 0 0 sd_%s\n", i, i, w->cfg_names[i]);
	}
	if (w->x->model) { /* a model's figures are never taken for measurements */
		rep_model_text(w->x->model, note, sizeof(note));
		for (int k = 0; k < 2; k++)
			fprintf(w->f[k], ":ioramp %s\n", note);
	}
	return 0;
}

static long config_index(const struct swat *w, const char *name)
{
	return rep_name_find(w->cfg_names, w->nr_cfg, name);
}

static long run_index(const struct rep_run *r, const char *name)
{
	for (size_t i = 0; i < r->nr_sds; i++)
		if (!strcmp(r->sd_names[i], name))
			return (long)i;
	return -1;
}

static void write_sd(FILE *f, long idx, const struct stats_bank *b)
{
	const struct stats_counters *rd = &b->op[STATS_OP_READ];
	const struct stats_counters *wr = &b->op[STATS_OP_WRITE];
	uint64_t rmax = rd->svc.max_ns / 1000, wmax = wr->svc.max_ns / 1000;

	fprintf(f, "%ld 0 %llu %llu %llu 0 %llu %llu %llu %llu %llu 0 0 0\n", idx,
		(unsigned long long)rd->nr_ios, (unsigned long long)wr->nr_ios,
		(unsigned long long)((rd->svc.sum_ns + wr->svc.sum_ns) / 1000),
		(unsigned long long)(rd->total_bytes / 512),
		(unsigned long long)(wr->total_bytes / 512),
		(unsigned long long)(rmax > wmax ? rmax : wmax), (unsigned long long)rmax,
		(unsigned long long)wmax);
}

/* An interval's block lists every SD of the configuration (zeros for those the run does not
 * use), a run total's only the run's SDs [observed]. */
static int write_block(struct swat *w, int k, const struct rep_run *r, const struct rep_sample *s,
		       uint64_t begin_ns, uint64_t end_ns)
{
	static const struct stats_bank zero;
	FILE *f = w->f[k];
	char b[32], e[32];

	fmt_stamp(b, sizeof(b), begin_ns);
	fmt_stamp(e, sizeof(e), end_ns);
	fprintf(f, ":\n:vdbench503_vdbench_data_for_swat303\n:date %s %s\n", b, e);
	if (k == 0) {
		for (size_t j = 0; j < w->nr_cfg; j++) {
			size_t c = w->cfg_order[j];
			long i = run_index(r, w->cfg_names[c]);

			write_sd(f, (long)c, i < 0 || !s->sd ? &zero : &s->sd[i]);
		}
	} else {
		for (size_t j = 0; j < r->nr_sds; j++) {
			size_t i = w->run_order[j];

			write_sd(f, config_index(w, r->sd_names[i]), s->sd ? &s->sd[i] : &zero);
		}
	}
	return fflush(f) ? -errno : 0;
}

static int swat_run_start(void *state, const struct rep_run *r)
{
	struct swat *w = state;

	if (!w)
		return 0;
	free(w->run_order);
	w->run_order = rep_java_hash_order(r->sd_names, r->nr_sds, 16);
	return w->run_order ? 0 : -ENOMEM;
}

static uint64_t interval_begin_ns(const struct rep_run *r, uint32_t nr)
{
	return r->start_tod_ns / 1000000000u * 1000000000u +
	       (uint64_t)(nr ? nr - 1 : 0) * r->interval_s * 1000000000u;
}

static int swat_interval(void *state, const struct rep_run *r, const struct rep_sample *s)
{
	struct swat *w = state;
	uint64_t begin;

	if (!w || w->err)
		return 0;
	begin = interval_begin_ns(r, s->nr);
	if (!w->f[0])
		w->err = open_files(w, begin);
	if (!w->err)
		w->err = write_block(w, 0, r, s, begin, begin + r->interval_s * 1000000000u);
	return w->err;
}

/* The run's total: its non-warmup intervals, from the first one's start to the last one's end. */
static int swat_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct swat *w = state;
	uint32_t first = r->nr_warmup_intervals + 1;
	uint64_t begin;

	if (!w || w->err || !w->f[1] || !e->avg)
		return 0;
	begin = interval_begin_ns(r, first);
	w->err = write_block(w, 1, r, e->avg, begin,
			     begin + (uint64_t)e->avg->nr_intervals * r->interval_s * 1000000000u);
	return w->err;
}

static int swat_close(void *state, int status)
{
	struct swat *w = state;
	int ret;

	(void)status;
	if (!w)
		return 0;
	ret = w->err;
	for (int k = 0; k < 2; k++)
		if (w->f[k] && fclose(w->f[k]) && !ret)
			ret = -errno;
	free(w->cfg_names);
	free(w->cfg_order);
	free(w->run_order);
	free(w);
	return ret;
}

const struct rep_ops rep_swatmon = {
	.name = "swatmon",
	.file = "swat_mon.txt",
	.open = swat_open,
	.run_start = swat_run_start,
	.interval = swat_interval,
	.run_end = swat_run_end,
	.close = swat_close,
};
