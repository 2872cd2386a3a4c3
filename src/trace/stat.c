/* Streaming trace statistics: per-device accumulators (counters, exact size counts, the
 * footprint extent set, region counts, inter-arrival moments and histogram) fed one record
 * at a time, and the figures computed from them on demand. Definitions: trace.h. */
#include "ioramp/trace.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "count_map.h"
#include "extents.h"

enum {
	GAP_SUB_BITS = 4, /* 16 histogram steps per power of two */
	GAP_NR_BUCKETS = (64 - 3) * 16,
	STAT_MAX_SIZES = 65536,
	STAT_BLOCK_4K = 4096,
};

#define NS_PER_S 1000000000ull

const unsigned int trace_hot_pcts[TRACE_NR_HOT] = { 1, 5, 10, 20, 25 };

/* Inter-arrival gaps and the busiest second. */
struct gap_acc {
	bool has_prev, has_subsecond; /* a time that is not a whole second */
	uint64_t prev_ns, nr, nr_backwards;
	double mean, m2; /* Welford */
	uint64_t *hist;	 /* GAP_NR_BUCKETS counts, allocated with the first gap */
	uint64_t win_idx, win_count, peak_count;
};

/* Latencies (completion minus issue) of the data I/Os that carry one. */
struct lat_acc {
	uint64_t nr, max;
	double sum;
	uint64_t *hist; /* GAP_NR_BUCKETS counts, allocated with the first latency */
};

struct dev_acc {
	uint32_t dev;
	uint64_t nr_by_op[TRACE_OP_NR], bytes_by_op[TRACE_OP_NR];
	bool has_time;
	uint64_t first_ns, last_ns;
	uint64_t size_hist[TRACE_NR_SIZE_BUCKETS];
	struct trace_cmap sizes;
	uint64_t nr_other_sizes;
	bool has_prev, has_prev_op[2];
	uint64_t prev_end, prev_end_op[2];
	uint64_t nr_seq, nr_near, nr_seq_by_op[2];
	uint64_t max_end;
	struct trace_extents extents;
	struct trace_cmap regions;
	unsigned int region_shift;
	struct gap_acc gaps;
	struct lat_acc lat;
};

struct trace_stat {
	struct trace_stat_opts opts;
	unsigned int region_shift; /* log2(opts.region_bytes) */
	struct dev_acc **devs;
	size_t nr_devs, cap_devs;
	struct trace_cmap dev_idx; /* dev -> index */
	size_t last_idx;
	struct gap_acc gaps; /* over all devices */
	struct lat_acc lat;
	bool has_time;
	uint64_t first_ns;
};

static unsigned int gap_bucket(uint64_t v)
{
	unsigned int e;

	if (v < (1u << GAP_SUB_BITS))
		return (unsigned int)v;
	e = 63u - (unsigned int)__builtin_clzll(v);
	return (e - GAP_SUB_BITS + 1) * (1u << GAP_SUB_BITS) +
	       (unsigned int)((v >> (e - GAP_SUB_BITS)) & ((1u << GAP_SUB_BITS) - 1));
}

/* The middle of a bucket's range, in ns. */
static double gap_bucket_mid(unsigned int idx)
{
	unsigned int sub = idx % (1u << GAP_SUB_BITS), e;

	if (idx < (1u << GAP_SUB_BITS))
		return idx;
	e = idx / (1u << GAP_SUB_BITS) + GAP_SUB_BITS - 1;
	return ldexp((double)((1u << GAP_SUB_BITS) + sub) + 0.5, (int)(e - GAP_SUB_BITS));
}

static int gap_add(struct gap_acc *g, uint64_t t_ns, uint64_t first_ns)
{
	uint64_t gap, win = (t_ns - first_ns) / NS_PER_S;
	double delta;

	if (t_ns < first_ns)
		win = 0;
	if (win > g->win_idx) {
		if (g->win_count > g->peak_count)
			g->peak_count = g->win_count;
		g->win_idx = win;
		g->win_count = 0;
	}
	g->win_count++;
	g->has_subsecond |= t_ns % NS_PER_S != 0;
	if (!g->has_prev) {
		g->has_prev = true;
		g->prev_ns = t_ns;
		return 0;
	}
	if (!g->hist) {
		g->hist = calloc(GAP_NR_BUCKETS, sizeof(*g->hist));
		if (!g->hist)
			return -ENOMEM;
	}
	gap = t_ns >= g->prev_ns ? t_ns - g->prev_ns : 0;
	g->nr_backwards += t_ns < g->prev_ns;
	g->prev_ns = t_ns;
	g->nr++;
	delta = (double)gap - g->mean;
	g->mean += delta / (double)g->nr;
	g->m2 += delta * ((double)gap - g->mean);
	g->hist[gap_bucket(gap)]++;
	return 0;
}

static int lat_add(struct lat_acc *l, uint64_t ns)
{
	if (!l->hist) {
		l->hist = calloc(GAP_NR_BUCKETS, sizeof(*l->hist));
		if (!l->hist)
			return -ENOMEM;
	}
	l->nr++;
	l->sum += (double)ns;
	if (ns > l->max)
		l->max = ns;
	l->hist[gap_bucket(ns)]++;
	return 0;
}

static int size_bucket(uint32_t size)
{
	return size ? 31 - __builtin_clz(size) : 0;
}

/* Sequential and near tests against the previous data I/O, on the device and per op. */
static void dev_seq(struct trace_stat *s, struct dev_acc *d, const struct trace_rec *rec,
		    uint64_t end)
{
	unsigned int op = rec->op;

	if (d->has_prev) {
		uint64_t off = rec->offset_bytes,
			 gap = off > d->prev_end ? off - d->prev_end : d->prev_end - off;

		d->nr_seq += off == d->prev_end;
		d->nr_near += gap <= s->opts.near_bytes;
	}
	if (d->has_prev_op[op])
		d->nr_seq_by_op[op] += rec->offset_bytes == d->prev_end_op[op];
	d->has_prev = d->has_prev_op[op] = true;
	d->prev_end = d->prev_end_op[op] = end;
}

static int dev_sizes(struct dev_acc *d, uint32_t size)
{
	d->size_hist[size_bucket(size)]++;
	if (d->sizes.nr >= STAT_MAX_SIZES && !trace_cmap_get(&d->sizes, size)) {
		d->nr_other_sizes++;
		return 0;
	}
	return trace_cmap_add(&d->sizes, size, 1);
}

static int dev_regions(struct trace_stat *s, struct dev_acc *d, uint64_t offset)
{
	int ret = trace_cmap_add(&d->regions, offset >> d->region_shift, 1);

	while (ret == 0 && d->regions.nr > s->opts.max_regions) {
		ret = trace_cmap_fold(&d->regions, 1);
		d->region_shift += ret == 0;
	}
	return ret;
}

static int dev_add_data(struct trace_stat *s, struct dev_acc *d, const struct trace_rec *rec)
{
	uint64_t end = rec->offset_bytes + rec->size_bytes;
	int ret;

	if (end < rec->offset_bytes)
		end = UINT64_MAX; /* an offset at the very top of the space */
	if (!d->has_time || rec->time_ns < d->first_ns)
		d->first_ns = rec->time_ns;
	if (!d->has_time || rec->time_ns > d->last_ns)
		d->last_ns = rec->time_ns;
	d->has_time = true;
	if (end > d->max_end)
		d->max_end = end;
	dev_seq(s, d, rec, end);
	ret = dev_sizes(d, rec->size_bytes);
	if (ret == 0)
		ret = trace_extents_add(&d->extents, rec->offset_bytes, end);
	if (ret == 0)
		ret = dev_regions(s, d, rec->offset_bytes);
	if (ret == 0)
		ret = gap_add(&d->gaps, rec->time_ns, d->first_ns);
	if (ret == 0 && rec->latency_ns)
		ret = lat_add(&d->lat, rec->latency_ns);
	return ret;
}

static void dev_free(struct dev_acc *d)
{
	if (!d)
		return;
	trace_cmap_fini(&d->sizes);
	trace_cmap_fini(&d->regions);
	trace_extents_fini(&d->extents);
	free(d->gaps.hist);
	free(d->lat.hist);
	free(d);
}

/* The accumulator of dev, created on first sight. Returns it or NULL for -ENOMEM. */
static struct dev_acc *stat_dev(struct trace_stat *s, uint32_t dev)
{
	struct dev_acc *d, **devs;
	uint64_t *idx;

	if (s->nr_devs && s->devs[s->last_idx]->dev == dev)
		return s->devs[s->last_idx];
	idx = trace_cmap_get(&s->dev_idx, dev);
	if (idx) {
		s->last_idx = (size_t)*idx;
		return s->devs[s->last_idx];
	}
	if (s->nr_devs == s->cap_devs) {
		size_t cap = s->cap_devs ? 2 * s->cap_devs : 4;

		devs = realloc(s->devs, cap * sizeof(*devs));
		if (!devs)
			return NULL;
		s->devs = devs;
		s->cap_devs = cap;
	}
	d = calloc(1, sizeof(*d));
	if (!d || trace_cmap_add(&s->dev_idx, dev, s->nr_devs) < 0) {
		free(d);
		return NULL;
	}
	d->dev = dev;
	d->region_shift = s->region_shift;
	trace_extents_init(&d->extents, s->opts.max_extents);
	s->last_idx = s->nr_devs;
	s->devs[s->nr_devs++] = d;
	return d;
}

int trace_stat_add(struct trace_stat *s, const struct trace_rec *rec)
{
	struct dev_acc *d;

	if (s->opts.has_dev_filter && rec->dev != s->opts.dev_filter)
		return 0;
	d = stat_dev(s, rec->dev);
	if (!d)
		return -ENOMEM;
	if (rec->op >= TRACE_OP_NR)
		return 0;
	d->nr_by_op[rec->op]++;
	d->bytes_by_op[rec->op] += rec->size_bytes;
	if (rec->op != TRACE_OP_READ && rec->op != TRACE_OP_WRITE)
		return 0;
	if (!s->has_time || rec->time_ns < s->first_ns)
		s->first_ns = rec->time_ns;
	s->has_time = true;
	if (gap_add(&s->gaps, rec->time_ns, s->first_ns) < 0 ||
	    (rec->latency_ns && lat_add(&s->lat, rec->latency_ns) < 0))
		return -ENOMEM;
	return dev_add_data(s, d, rec);
}

int trace_stat_new(struct trace_stat **out, const struct trace_stat_opts *opts)
{
	struct trace_stat *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	if (opts)
		s->opts = *opts;
	if (!s->opts.region_bytes)
		s->opts.region_bytes = 1 << 20;
	if (!s->opts.near_bytes)
		s->opts.near_bytes = 128 * 1024;
	if (!s->opts.max_extents)
		s->opts.max_extents = 1 << 20;
	if (!s->opts.max_regions)
		s->opts.max_regions = 4 << 20;
	while ((2ull << s->region_shift) <= s->opts.region_bytes)
		s->region_shift++;
	s->opts.region_bytes = 1ull << s->region_shift; /* a power of two */
	*out = s;
	return 0;
}

void trace_stat_free(struct trace_stat *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_devs; i++)
		dev_free(s->devs[i]);
	free(s->devs);
	trace_cmap_fini(&s->dev_idx);
	free(s->gaps.hist);
	free(s->lat.hist);
	free(s);
}

size_t trace_stat_nr_devs(const struct trace_stat *s)
{
	return s->nr_devs;
}

int64_t trace_stat_read(struct trace_stat *s, struct trace_reader *r)
{
	struct trace_rec rec;
	int64_t nr = 0;
	int ret;

	while ((ret = trace_reader_next(r, &rec)) > 0) {
		ret = trace_stat_add(s, &rec);
		if (ret < 0)
			return ret;
		nr++;
	}
	return ret < 0 ? ret : nr;
}

/* Keeps the TRACE_NR_TOP_SIZES most frequent sizes of m, most frequent first (ties: the
 * smaller size first). */
static void figs_top_sizes(struct trace_figs *f, const struct trace_cmap *m)
{
	for (size_t i = 0; i < m->cap; i++) {
		struct trace_size_count c;
		unsigned int j;

		if (!m->keys[i])
			continue;
		c.size_bytes = (uint32_t)(m->keys[i] - 1);
		c.nr = m->vals[i];
		j = f->nr_top_sizes;
		while (j > 0 && (f->top_sizes[j - 1].nr < c.nr ||
				 (f->top_sizes[j - 1].nr == c.nr &&
				  f->top_sizes[j - 1].size_bytes > c.size_bytes)))
			j--;
		if (j == TRACE_NR_TOP_SIZES)
			continue;
		if (f->nr_top_sizes < TRACE_NR_TOP_SIZES)
			f->nr_top_sizes++;
		memmove(&f->top_sizes[j + 1], &f->top_sizes[j],
			(f->nr_top_sizes - 1 - j) * sizeof(f->top_sizes[0]));
		f->top_sizes[j] = c;
	}
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

/* Hot bands over the regions of devs[0, nr). Returns 0 or -ENOMEM. */
static int figs_hot(struct trace_figs *f, struct dev_acc *const *devs, size_t nr)
{
	size_t n = 0, k = 0;
	uint64_t *counts, sum = 0;

	for (size_t i = 0; i < nr; i++)
		n += devs[i]->regions.nr;
	f->nr_regions = n;
	if (!n || !f->nr_ios)
		return 0;
	counts = malloc(n * sizeof(*counts));
	if (!counts)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < devs[i]->regions.cap; j++)
			if (devs[i]->regions.keys[j])
				counts[k++] = devs[i]->regions.vals[j];
	qsort(counts, n, sizeof(*counts), cmp_desc);
	k = 0;
	for (int h = 0; h < TRACE_NR_HOT; h++) {
		size_t top = (n * trace_hot_pcts[h] + 99) / 100; /* ceil, at least one region */

		for (; k < top; k++)
			sum += counts[k];
		f->hot_pct[h] = 100.0 * (double)sum / (double)f->nr_ios;
	}
	free(counts);
	return 0;
}

/* The value below which pct % of the nr counts of hist lie: its bucket's middle. */
static double hist_quantile(const uint64_t *hist, uint64_t nr, double pct)
{
	uint64_t want = (uint64_t)ceil((double)nr * pct / 100), seen = 0;

	for (unsigned int i = 0; hist && i < GAP_NR_BUCKETS; i++) {
		seen += hist[i];
		if (seen >= want && seen)
			return gap_bucket_mid(i);
	}
	return 0;
}

static double gap_median(const struct gap_acc *g)
{
	return hist_quantile(g->hist, g->nr, 50);
}

static void figs_lat(struct trace_figs *f, const struct lat_acc *l)
{
	f->nr_latencies = l->nr;
	if (!l->nr)
		return;
	f->lat_mean_ns = l->sum / (double)l->nr;
	f->lat_p50_ns = fmin(hist_quantile(l->hist, l->nr, 50), (double)l->max);
	f->lat_p99_ns = fmin(hist_quantile(l->hist, l->nr, 99), (double)l->max);
	f->lat_p999_ns = fmin(hist_quantile(l->hist, l->nr, 99.9), (double)l->max);
	f->lat_max_ns = l->max;
}

static void figs_gaps(struct trace_figs *f, const struct gap_acc *g)
{
	uint64_t peak = g->win_count > g->peak_count ? g->win_count : g->peak_count;

	f->ia_mean_ns = g->mean;
	f->ia_median_ns = gap_median(g);
	f->ia_cv = g->nr && g->mean > 0 ? sqrt(g->m2 / (double)g->nr) / g->mean : 0;
	f->burstiness = g->nr && g->mean > 0 ? (f->ia_cv - 1) / (f->ia_cv + 1) : 0;
	f->peak_iops_1s = f->duration_ns >= NS_PER_S ? (double)peak : 0;
	f->nr_time_backwards = g->nr_backwards;
	f->is_time_whole_s = g->nr && !g->has_subsecond;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* The figures computed from the counters. */
static void figs_derive(struct trace_figs *f)
{
	uint64_t rd = f->nr_by_op[TRACE_OP_READ], wr = f->nr_by_op[TRACE_OP_WRITE];
	uint64_t rd_bytes = f->bytes_by_op[TRACE_OP_READ],
		 wr_bytes = f->bytes_by_op[TRACE_OP_WRITE];
	double secs = (double)f->duration_ns / 1e9;

	f->nr_ios = rd + wr;
	f->iops = secs > 0 ? (double)f->nr_ios / secs : 0;
	f->mb_per_s = secs > 0 ? (double)(rd_bytes + wr_bytes) / 1e6 / secs : 0;
	f->read_pct = pct(rd, f->nr_ios);
	f->read_bytes_pct = pct(rd_bytes, rd_bytes + wr_bytes);
	f->mean_size_bytes = f->nr_ios ? (double)(rd_bytes + wr_bytes) / (double)f->nr_ios : 0;
	f->mean_read_bytes = rd ? (double)rd_bytes / (double)rd : 0;
	f->mean_write_bytes = wr ? (double)wr_bytes / (double)wr : 0;
	f->seq_pct = pct(f->nr_seq, f->nr_ios);
	f->near_pct = pct(f->nr_near, f->nr_ios);
	f->seq_read_pct = pct(f->nr_seq_by_op[TRACE_OP_READ], rd);
	f->seq_write_pct = pct(f->nr_seq_by_op[TRACE_OP_WRITE], wr);
}

/* Adds one device's counters into f (a device's own figures or the total). */
static int figs_sum_dev(struct trace_figs *f, struct dev_acc *d, bool *has_time)
{
	uint64_t grain, bytes, bytes_4k;
	int ret = trace_extents_merge(&d->extents);

	if (ret < 0)
		return ret;
	for (int op = 0; op < TRACE_OP_NR; op++) {
		f->nr_by_op[op] += d->nr_by_op[op];
		f->bytes_by_op[op] += d->bytes_by_op[op];
	}
	if (d->has_time && (!*has_time || d->first_ns < f->first_ns))
		f->first_ns = d->first_ns;
	if (d->has_time && (!*has_time || d->last_ns > f->last_ns))
		f->last_ns = d->last_ns;
	*has_time = *has_time || d->has_time;
	for (int i = 0; i < TRACE_NR_SIZE_BUCKETS; i++)
		f->size_hist[i] += d->size_hist[i];
	f->nr_other_sizes += d->nr_other_sizes;
	f->nr_seq += d->nr_seq;
	f->nr_near += d->nr_near;
	f->nr_seq_by_op[0] += d->nr_seq_by_op[0];
	f->nr_seq_by_op[1] += d->nr_seq_by_op[1];
	grain = d->extents.grain_bytes;
	ret = trace_extents_bytes(&d->extents, 1, &bytes);
	if (!ret)
		ret = trace_extents_bytes(&d->extents, grain > 4096 ? grain : 4096, &bytes_4k);
	if (ret < 0)
		return ret;
	f->footprint_bytes += bytes;
	f->footprint_4k_bytes += bytes_4k;
	if (grain > f->footprint_grain_bytes)
		f->footprint_grain_bytes = grain;
	if (d->max_end > f->max_end_bytes)
		f->max_end_bytes = d->max_end;
	if (1ull << d->region_shift > f->region_bytes)
		f->region_bytes = 1ull << d->region_shift;
	return 0;
}

/* The most frequent sizes over several devices: their maps merged into a scratch map. */
static int figs_sizes(struct trace_figs *f, struct dev_acc *const *devs, size_t nr)
{
	struct trace_cmap all = { 0 };
	int ret = 0;

	if (nr == 1) {
		figs_top_sizes(f, &devs[0]->sizes);
		return 0;
	}
	for (size_t i = 0; i < nr && ret == 0; i++)
		for (size_t j = 0; j < devs[i]->sizes.cap && ret == 0; j++)
			if (devs[i]->sizes.keys[j])
				ret = trace_cmap_add(&all, devs[i]->sizes.keys[j] - 1,
						     devs[i]->sizes.vals[j]);
	if (ret == 0)
		figs_top_sizes(f, &all);
	trace_cmap_fini(&all);
	return ret;
}

int trace_stat_figs(struct trace_stat *s, size_t dev_idx, struct trace_figs *f)
{
	struct dev_acc *const *devs = s->devs;
	const struct gap_acc *g = &s->gaps;
	const struct lat_acc *l = &s->lat;
	size_t nr = s->nr_devs;
	bool has_time = false;
	int ret = 0;

	memset(f, 0, sizeof(*f));
	if (dev_idx == SIZE_MAX) {
		f->is_total = true;
	} else if (dev_idx < s->nr_devs) {
		devs = &s->devs[dev_idx];
		nr = 1;
		f->dev = devs[0]->dev;
		g = &devs[0]->gaps;
		l = &devs[0]->lat;
	} else {
		return -ERANGE;
	}
	f->region_bytes = s->opts.region_bytes;
	f->footprint_grain_bytes = 1;
	for (size_t i = 0; i < nr && ret == 0; i++)
		ret = figs_sum_dev(f, devs[i], &has_time);
	if (ret == 0)
		ret = figs_sizes(f, devs, nr);
	if (ret < 0)
		return ret;
	f->duration_ns = f->last_ns - f->first_ns;
	f->is_footprint_exact = f->footprint_grain_bytes == 1;
	figs_derive(f);
	figs_gaps(f, g);
	figs_lat(f, l);
	return figs_hot(f, devs, nr);
}
