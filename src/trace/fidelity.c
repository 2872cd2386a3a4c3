/* The fidelity figures (trace.h, "fidelity"): what a synthesized stream must reproduce of its
 * trace, accumulated one record at a time in bounded memory per device (the last 16 ends, the
 * footprint extents, 1 MiB region counts), plus exact size counts and per-second counts, and
 * the comparison of two such figure sets against the tolerances. Definitions: man/ioramp.1,
 * FIDELITY FIGURES. */
#include "ioramp/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "count_map.h"
#include "extents.h"
#include "seq_window.h"

#define NS_PER_S 1000000000ull

enum {
	FID_SEQ_WINDOW = 16,	   /* an I/O is sequential after one of the last 16 */
	FID_REGION_SHIFT = 20,	   /* 1 MiB regions */
	FID_MAX_REGIONS = 8 << 20, /* per device, before regions double */
	FID_MAX_SIZES = 65536,	   /* exact sizes kept; more count as "other" */
	FID_MAX_SECONDS = 1 << 23, /* about 97 days of seconds; later ones join the last */
	FID_HOT_PCT = 10,
};

struct fid_dev {
	uint32_t dev;
	struct trace_seq_window seq;
	struct trace_extents extents;
	struct trace_cmap regions;
	unsigned int region_shift;
};

struct trace_fid {
	struct fid_dev **devs;
	size_t nr_devs, cap_devs;
	struct trace_cmap dev_idx;
	size_t last_idx;
	uint64_t nr_by_op[2], bytes_by_op[2], nr_seq;
	double sq_bytes_by_op[2]; /* sums of the squared sizes */
	struct trace_cmap sizes;
	uint64_t nr_other_sizes;
	bool has_time;
	uint64_t first_ns, min_ns, max_ns;
	uint32_t *secs; /* I/Os per second from first_ns */
	size_t nr_secs, cap_secs;
};

int trace_fid_new(struct trace_fid **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void trace_fid_free(struct trace_fid *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nr_devs; i++) {
		trace_extents_fini(&f->devs[i]->extents);
		trace_cmap_fini(&f->devs[i]->regions);
		free(f->devs[i]);
	}
	free(f->devs);
	trace_cmap_fini(&f->dev_idx);
	trace_cmap_fini(&f->sizes);
	free(f->secs);
	free(f);
}

static struct fid_dev *fid_dev(struct trace_fid *f, uint32_t dev)
{
	struct fid_dev *d, **devs;
	uint64_t *idx;

	if (f->nr_devs && f->devs[f->last_idx]->dev == dev)
		return f->devs[f->last_idx];
	idx = trace_cmap_get(&f->dev_idx, dev);
	if (idx) {
		f->last_idx = (size_t)*idx;
		return f->devs[f->last_idx];
	}
	if (f->nr_devs == f->cap_devs) {
		size_t cap = f->cap_devs ? 2 * f->cap_devs : 4;

		devs = realloc(f->devs, cap * sizeof(*devs));
		if (!devs)
			return NULL;
		f->devs = devs;
		f->cap_devs = cap;
	}
	d = calloc(1, sizeof(*d));
	if (!d || trace_cmap_add(&f->dev_idx, dev, f->nr_devs) < 0) {
		free(d);
		return NULL;
	}
	d->dev = dev;
	d->region_shift = FID_REGION_SHIFT;
	trace_extents_init(&d->extents, 1 << 20);
	f->last_idx = f->nr_devs;
	f->devs[f->nr_devs++] = d;
	return d;
}

static int dev_region(struct fid_dev *d, uint64_t offset)
{
	int ret = trace_cmap_add(&d->regions, offset >> d->region_shift, 1);

	while (ret == 0 && d->regions.nr > FID_MAX_REGIONS) {
		ret = trace_cmap_fold(&d->regions, 1);
		d->region_shift += ret == 0;
	}
	return ret;
}

static int fid_second(struct trace_fid *f, uint64_t t_ns)
{
	uint64_t s = t_ns > f->first_ns ? (t_ns - f->first_ns) / NS_PER_S : 0;

	if (s >= FID_MAX_SECONDS)
		s = FID_MAX_SECONDS - 1;
	if (s >= f->cap_secs) {
		size_t cap = f->cap_secs ? f->cap_secs : 1024;
		uint32_t *p;

		while (cap <= s)
			cap *= 2;
		p = realloc(f->secs, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + f->cap_secs, 0, (cap - f->cap_secs) * sizeof(*p));
		f->secs = p;
		f->cap_secs = cap;
	}
	f->secs[s]++;
	if (s + 1 > f->nr_secs)
		f->nr_secs = s + 1;
	return 0;
}

static int fid_size(struct trace_fid *f, uint32_t size)
{
	if (f->sizes.nr >= FID_MAX_SIZES && !trace_cmap_get(&f->sizes, size)) {
		f->nr_other_sizes++;
		return 0;
	}
	return trace_cmap_add(&f->sizes, size, 1);
}

int trace_fid_add(struct trace_fid *f, const struct trace_rec *rec)
{
	uint64_t end = rec->offset_bytes + rec->size_bytes;
	struct fid_dev *d;
	int ret;

	if (rec->op != TRACE_OP_READ && rec->op != TRACE_OP_WRITE)
		return 0;
	if (end < rec->offset_bytes)
		end = UINT64_MAX;
	d = fid_dev(f, rec->dev);
	if (!d)
		return -ENOMEM;
	if (!f->has_time) {
		f->first_ns = f->min_ns = f->max_ns = rec->time_ns;
		f->has_time = true;
	}
	if (rec->time_ns < f->min_ns)
		f->min_ns = rec->time_ns;
	if (rec->time_ns > f->max_ns)
		f->max_ns = rec->time_ns;
	f->nr_by_op[rec->op]++;
	f->bytes_by_op[rec->op] += rec->size_bytes;
	f->sq_bytes_by_op[rec->op] += (double)rec->size_bytes * (double)rec->size_bytes;
	f->nr_seq += trace_seq_window_add(&d->seq, rec->offset_bytes, end);
	ret = fid_size(f, rec->size_bytes);
	if (!ret)
		ret = trace_extents_add(&d->extents, rec->offset_bytes, end);
	if (!ret)
		ret = dev_region(d, rec->offset_bytes);
	if (!ret)
		ret = fid_second(f, rec->time_ns);
	return ret;
}

int64_t trace_fid_read(struct trace_fid *f, struct trace_reader *r, bool has_dev, uint32_t dev)
{
	struct trace_rec rec;
	int64_t nr = 0;
	int ret;

	while ((ret = trace_reader_next(r, &rec)) > 0) {
		if (has_dev && rec.dev != dev)
			continue;
		ret = trace_fid_add(f, &rec);
		if (ret < 0)
			return ret;
		nr++;
	}
	return ret < 0 ? ret : nr;
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

/* The share of I/Os in the hottest 10 % of the regions touched (at least one region). */
static int figs_hot(const struct trace_fid *f, struct trace_fid_figs *g)
{
	size_t n = 0, k = 0, top;
	uint64_t *counts, sum = 0;

	for (size_t i = 0; i < f->nr_devs; i++)
		n += f->devs[i]->regions.nr;
	g->nr_regions = n;
	if (!n)
		return 0;
	counts = malloc(n * sizeof(*counts));
	if (!counts)
		return -ENOMEM;
	for (size_t i = 0; i < f->nr_devs; i++) {
		const struct trace_cmap *m = &f->devs[i]->regions;

		for (size_t j = 0; j < m->cap; j++)
			if (m->keys[j])
				counts[k++] = m->vals[j];
		if (f->devs[i]->region_shift > FID_REGION_SHIFT)
			g->is_region_folded = true;
	}
	qsort(counts, n, sizeof(*counts), cmp_desc);
	top = (n * FID_HOT_PCT + 99) / 100;
	for (k = 0; k < top; k++)
		sum += counts[k];
	free(counts);
	g->hot10_pct = 100.0 * (double)sum / (double)g->nr_ios;
	return 0;
}

/* Coefficient of variation of the I/O counts of the whole seconds from the first record. */
static void figs_seconds(const struct trace_fid *f, struct trace_fid_figs *g)
{
	uint64_t whole = (f->max_ns - f->first_ns) / NS_PER_S;
	double sum = 0, sq = 0, mean;

	if (whole > f->nr_secs)
		whole = f->nr_secs;
	g->nr_seconds = whole;
	if (whole < 2)
		return;
	for (uint64_t s = 0; s < whole; s++)
		sum += f->secs[s];
	mean = sum / (double)whole;
	for (uint64_t s = 0; s < whole; s++)
		sq += (f->secs[s] - mean) * (f->secs[s] - mean);
	g->has_sec_cv = mean > 0;
	g->sec_cv = mean > 0 ? sqrt(sq / (double)whole) / mean : 0;
}

static void figs_top_sizes(const struct trace_fid *f, struct trace_fid_figs *g)
{
	const struct trace_cmap *m = &f->sizes;

	for (size_t i = 0; i < m->cap; i++) {
		struct trace_size_count c = { (uint32_t)(m->keys[i] - 1), m->vals[i] };
		unsigned int j;

		if (!m->keys[i])
			continue;
		for (j = g->nr_top_sizes;
		     j > 0 && (g->top_sizes[j - 1].nr < c.nr ||
			       (g->top_sizes[j - 1].nr == c.nr &&
				g->top_sizes[j - 1].size_bytes > c.size_bytes));
		     j--)
			;
		if (j == TRACE_FID_TOP_SIZES)
			continue;
		if (g->nr_top_sizes < TRACE_FID_TOP_SIZES)
			g->nr_top_sizes++;
		memmove(&g->top_sizes[j + 1], &g->top_sizes[j],
			(g->nr_top_sizes - 1 - j) * sizeof(g->top_sizes[0]));
		g->top_sizes[j] = c;
	}
}

static double size_sd(double sq, uint64_t n, double mean)
{
	double var = n ? sq / (double)n - mean * mean : 0;

	return var > 0 ? sqrt(var) : 0;
}

int trace_fid_figs(struct trace_fid *f, struct trace_fid_figs *g)
{
	uint64_t rd = f->nr_by_op[TRACE_OP_READ], wr = f->nr_by_op[TRACE_OP_WRITE];
	int ret = 0;

	memset(g, 0, sizeof(*g));
	g->nr_ios = rd + wr;
	g->nr_reads = rd;
	g->nr_writes = wr;
	g->nr_devs = f->nr_devs;
	if (!g->nr_ios)
		return 0;
	g->duration_s = (double)(f->max_ns - f->min_ns) / 1e9;
	g->rate_iops = g->duration_s > 0 ? (double)g->nr_ios / g->duration_s : 0;
	g->read_pct = 100.0 * (double)rd / (double)g->nr_ios;
	g->mean_read_bytes = rd ? (double)f->bytes_by_op[TRACE_OP_READ] / (double)rd : 0;
	g->mean_write_bytes = wr ? (double)f->bytes_by_op[TRACE_OP_WRITE] / (double)wr : 0;
	g->sd_read_bytes = size_sd(f->sq_bytes_by_op[TRACE_OP_READ], rd, g->mean_read_bytes);
	g->sd_write_bytes = size_sd(f->sq_bytes_by_op[TRACE_OP_WRITE], wr, g->mean_write_bytes);
	g->seq_pct = 100.0 * (double)f->nr_seq / (double)g->nr_ios;
	g->is_footprint_exact = true;
	for (size_t i = 0; i < f->nr_devs && !ret; i++) {
		uint64_t bytes;

		ret = trace_extents_merge(&f->devs[i]->extents);
		if (!ret)
			ret = trace_extents_bytes(&f->devs[i]->extents, 1, &bytes);
		g->footprint_bytes += ret ? 0 : bytes;
		g->is_footprint_exact &= f->devs[i]->extents.grain_bytes == 1;
	}
	if (!ret)
		ret = figs_hot(f, g);
	figs_seconds(f, g);
	figs_top_sizes(f, g);
	return ret;
}

/* ---- comparison ------------------------------------------------------------------------- */

/* Half the L1 distance of the two size distributions, in points: the share of I/Os that would
 * have to change size to turn one mix into the other. Sizes past the exact table count as one
 * "other" size. */
static double size_mix_distance(const struct trace_fid *a, const struct trace_fid *b)
{
	double na = (double)(a->nr_by_op[0] + a->nr_by_op[1]);
	double nb = (double)(b->nr_by_op[0] + b->nr_by_op[1]);
	double d = 0;

	if (na == 0 || nb == 0)
		return na == nb ? 0 : 100;
	for (size_t i = 0; i < a->sizes.cap; i++) {
		const uint64_t *vb;

		if (!a->sizes.keys[i])
			continue;
		vb = trace_cmap_get(&b->sizes, a->sizes.keys[i] - 1);
		d += fabs((double)a->sizes.vals[i] / na - (vb ? (double)*vb / nb : 0));
	}
	for (size_t i = 0; i < b->sizes.cap; i++)
		if (b->sizes.keys[i] && !trace_cmap_get(&a->sizes, b->sizes.keys[i] - 1))
			d += (double)b->sizes.vals[i] / nb;
	d += fabs((double)a->nr_other_sizes / na - (double)b->nr_other_sizes / nb);
	return 50.0 * d;
}

static void size_text(uint32_t bytes, char *buf, size_t len)
{
	if (bytes && bytes % (1 << 20) == 0)
		snprintf(buf, len, "%uM", bytes >> 20);
	else if (bytes && bytes % 1024 == 0)
		snprintf(buf, len, "%uK", bytes >> 10);
	else
		snprintf(buf, len, "%u", bytes);
}

static void mix_text(const struct trace_fid_figs *g, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < g->nr_top_sizes && i < 3 && off < len; i++) {
		char s[24];

		size_text(g->top_sizes[i].size_bytes, s, sizeof(s));
		off += (size_t)snprintf(buf + off, len - off, "%s%s %.0f%%", i ? ", " : "", s,
					100.0 * (double)g->top_sizes[i].nr / (double)g->nr_ios);
	}
}

static void bytes_text(double bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned int u = 0;

	while (bytes >= 1024 && u + 1 < IORAMP_ARRAY_SIZE(units)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.4g %s" : "%.0f %s", bytes, units[u]);
}

/* A relative row: (b - a) / a within tol (a fraction); two zeros agree. */
static void row_rel(struct trace_fid_row *r, double a, double b, double tol)
{
	r->is_relative = true;
	r->tolerance = tol;
	r->a = a;
	r->b = b;
	r->is_judged = true;
	if (a == 0) {
		r->difference = b == 0 ? 0 : INFINITY;
		r->is_ok = b == 0;
		return;
	}
	r->difference = (b - a) / a;
	r->is_ok = fabs(r->difference) <= tol;
}

/* A row in points: b - a within tol. */
static void row_pts(struct trace_fid_row *r, double a, double b, double tol)
{
	r->tolerance = tol;
	r->a = a;
	r->b = b;
	r->difference = b - a;
	r->is_judged = true;
	r->is_ok = fabs(r->difference) <= tol;
}

static void row_na(struct trace_fid_row *r)
{
	r->is_judged = false;
	r->is_ok = true;
	snprintf(r->a_text, sizeof(r->a_text), "n/a");
	snprintf(r->b_text, sizeof(r->b_text), "n/a");
}

/* Where a figure's sampling error is known, its tolerance is at least this many times that
 * error: a synthesized stream is random, and with ten figures a trace checked at two errors
 * was told NO about once in ten seeds when nothing was wrong (a MySQL trace's mean read size,
 * 2.15 errors off with --seed 1, within one with seeds 2 to 6). */
#define FID_ERRORS 3.0

/* Records and rate within 2 %, or within FID_ERRORS sampling errors of a count of random
 * arrivals when that is wider: n I/Os drawn at random move by sqrt(n) (a 963-I/O trace's by
 * 3.2 %). */
static double count_tolerance(uint64_t n)
{
	return fmax(0.02, n ? FID_ERRORS / sqrt((double)n) : 0);
}

/* A share of I/Os within floor_pts points, or within FID_ERRORS sampling errors when that is
 * wider: a share p of n I/Os drawn at random moves by sqrt(p (1 - p) / n) (75 % of 240 by 2.8
 * points). p is Agresti and Coull's (x + 2) / (n + 4), n + 4 draws: a share of 0 or 100 % in a
 * small trace is no proof that a random stream never strays (a random 4 KiB read among 20
 * blocks starts where one of the last 16 ended about once in 20 reads). */
static double share_tolerance(double pct, uint64_t n, double floor_pts)
{
	double draws = (double)n + 4, p = (pct / 100 * (double)n + 2) / draws;

	return fmax(floor_pts, FID_ERRORS * 100 * sqrt(p * (1 - p) / draws));
}

static void rows_counts(const struct trace_fid_figs *a, const struct trace_fid_figs *b,
			struct trace_fid_row *rows)
{
	struct trace_fid_row *r = &rows[TRACE_FID_RECORDS];

	row_rel(r, (double)a->nr_ios, (double)b->nr_ios, count_tolerance(a->nr_ios));
	snprintf(r->a_text, sizeof(r->a_text), "%" PRIu64, a->nr_ios);
	snprintf(r->b_text, sizeof(r->b_text), "%" PRIu64, b->nr_ios);
	r = &rows[TRACE_FID_RATE];
	row_rel(r, a->rate_iops, b->rate_iops, count_tolerance(a->nr_ios));
	snprintf(r->a_text, sizeof(r->a_text), "%.1f IOPS", a->rate_iops);
	snprintf(r->b_text, sizeof(r->b_text), "%.1f IOPS", b->rate_iops);
	r = &rows[TRACE_FID_READ_PCT];
	row_pts(r, a->read_pct, b->read_pct, share_tolerance(a->read_pct, a->nr_ios, 1));
	snprintf(r->a_text, sizeof(r->a_text), "%.2f %%", a->read_pct);
	snprintf(r->b_text, sizeof(r->b_text), "%.2f %%", b->read_pct);
}

/* A mean size, relative to A's, within 3 %: or within FID_ERRORS sampling errors, when that is
 * wider: a mean over n I/Os moves from sample to sample by sd / sqrt(n), and a few large
 * transfers among many small ones (37 reads of 512 KiB to 2.5 MiB among 5,768 of 4 KiB) move
 * it by more than 3 %. */
static void row_mean(struct trace_fid_row *r, uint64_t na, double a, double sd, uint64_t nb,
		     double b)
{
	uint64_t n = na < nb ? na : nb;

	if (!na && !nb) {
		row_na(r);
		return;
	}
	row_rel(r, a, b, fmax(0.03, n && a > 0 ? FID_ERRORS * sd / a / sqrt((double)n) : 0));
	bytes_text(a, r->a_text, sizeof(r->a_text));
	bytes_text(b, r->b_text, sizeof(r->b_text));
	if (!na)
		snprintf(r->a_text, sizeof(r->a_text), "none");
	if (!nb)
		snprintf(r->b_text, sizeof(r->b_text), "none");
}

/* Seconds a per-second CV needs to be judged: from 4 seconds at 2000 IOPS, Poisson arrivals
 * alone give CVs from 0.003 to 0.028 (0.022 expected), off by up to 86 %. */
enum {
	FID_CV_MIN_SECONDS = 10
};

/* The per-second CV, relative to A's, within 25 %, judged as far as a CV can be. Random
 * arrivals give every second a Poisson count: no synthesized stream is steadier than
 * 1/sqrt(I/Os per second), so A's CV counts as at least that (an evenly paced trace, CV 0, was
 * off by an infinite part). A CV from n seconds moves from sample to sample by about
 * 1/sqrt(2(n-1)) of itself: the tolerance is FID_ERRORS times that when it is wider than 25 %, and under
 * FID_CV_MIN_SECONDS the row is shown, not judged. */
static void row_cv(struct trace_fid_row *r, const struct trace_fid_figs *a,
		   const struct trace_fid_figs *b)
{
	uint64_t n = a->nr_seconds < b->nr_seconds ? a->nr_seconds : b->nr_seconds;
	double per_sec = a->rate_iops > 0 ? a->rate_iops : 1;
	double ref = fmax(a->sec_cv, 1 / sqrt(per_sec));

	row_rel(r, ref, b->sec_cv,
		fmax(0.25, FID_ERRORS / sqrt(2.0 * (double)(n > 1 ? n - 1 : 1))));
	r->a = a->sec_cv;
	if (n < FID_CV_MIN_SECONDS) {
		r->is_judged = false;
		r->is_ok = true;
	}
}

static void rows_space(const struct trace_fid_figs *a, const struct trace_fid_figs *b,
		       struct trace_fid_row *rows)
{
	struct trace_fid_row *r = &rows[TRACE_FID_SEQ_PCT];

	row_pts(r, a->seq_pct, b->seq_pct, share_tolerance(a->seq_pct, a->nr_ios, 3));
	snprintf(r->a_text, sizeof(r->a_text), "%.2f %%", a->seq_pct);
	snprintf(r->b_text, sizeof(r->b_text), "%.2f %%", b->seq_pct);
	r = &rows[TRACE_FID_FOOTPRINT];
	row_rel(r, (double)a->footprint_bytes, (double)b->footprint_bytes, 0.10);
	bytes_text((double)a->footprint_bytes, r->a_text, sizeof(r->a_text));
	bytes_text((double)b->footprint_bytes, r->b_text, sizeof(r->b_text));
	r = &rows[TRACE_FID_HOT10];
	row_pts(r, a->hot10_pct, b->hot10_pct, share_tolerance(a->hot10_pct, a->nr_ios, 5));
	snprintf(r->a_text, sizeof(r->a_text), "%.2f %%", a->hot10_pct);
	snprintf(r->b_text, sizeof(r->b_text), "%.2f %%", b->hot10_pct);
	r = &rows[TRACE_FID_SEC_CV];
	if (!a->has_sec_cv || !b->has_sec_cv) {
		row_na(r); /* under two whole seconds, or no I/O */
		return;
	}
	row_cv(r, a, b);
	snprintf(r->a_text, sizeof(r->a_text), "%.3f", a->sec_cv);
	snprintf(r->b_text, sizeof(r->b_text), "%.3f", b->sec_cv);
}

static const char *const row_names[TRACE_FID_NR] = {
	[TRACE_FID_RECORDS] = "records",
	[TRACE_FID_RATE] = "rate",
	[TRACE_FID_READ_PCT] = "read %",
	[TRACE_FID_READ_SIZE] = "mean read size",
	[TRACE_FID_WRITE_SIZE] = "mean write size",
	[TRACE_FID_SIZE_MIX] = "size mix",
	[TRACE_FID_SEQ_PCT] = "sequential %",
	[TRACE_FID_FOOTPRINT] = "footprint",
	[TRACE_FID_HOT10] = "hot 10% share",
	[TRACE_FID_SEC_CV] = "per-second CV",
};

static const char *const row_keys[TRACE_FID_NR] = {
	[TRACE_FID_RECORDS] = "records",
	[TRACE_FID_RATE] = "rate_iops",
	[TRACE_FID_READ_PCT] = "read_pct",
	[TRACE_FID_READ_SIZE] = "mean_read_bytes",
	[TRACE_FID_WRITE_SIZE] = "mean_write_bytes",
	[TRACE_FID_SIZE_MIX] = "size_mix",
	[TRACE_FID_SEQ_PCT] = "seq_pct",
	[TRACE_FID_FOOTPRINT] = "footprint_bytes",
	[TRACE_FID_HOT10] = "hot10_pct",
	[TRACE_FID_SEC_CV] = "second_cv",
};

int trace_fid_compare(struct trace_fid *a, struct trace_fid *b, struct trace_fid_row *rows)
{
	struct trace_fid_figs fa, fb;
	struct trace_fid_row *r;
	int ret = trace_fid_figs(a, &fa);

	if (!ret)
		ret = trace_fid_figs(b, &fb);
	if (ret)
		return ret;
	memset(rows, 0, TRACE_FID_NR * sizeof(*rows));
	rows_counts(&fa, &fb, rows);
	row_mean(&rows[TRACE_FID_READ_SIZE], fa.nr_reads, fa.mean_read_bytes, fa.sd_read_bytes,
		 fb.nr_reads, fb.mean_read_bytes);
	row_mean(&rows[TRACE_FID_WRITE_SIZE], fa.nr_writes, fa.mean_write_bytes, fa.sd_write_bytes,
		 fb.nr_writes, fb.mean_write_bytes);
	r = &rows[TRACE_FID_SIZE_MIX];
	row_pts(r, 0, size_mix_distance(a, b), 5);
	r->is_distance = true;
	mix_text(&fa, r->a_text, sizeof(r->a_text));
	mix_text(&fb, r->b_text, sizeof(r->b_text));
	rows_space(&fa, &fb, rows);
	for (int i = 0; i < TRACE_FID_NR; i++) {
		rows[i].name = row_names[i];
		rows[i].key = row_keys[i];
	}
	return 0;
}

bool trace_fid_rows_ok(const struct trace_fid_row *rows)
{
	for (int i = 0; i < TRACE_FID_NR; i++)
		if (!rows[i].is_ok)
			return false;
	return true;
}

static void diff_text(const struct trace_fid_row *r, char *d, size_t dlen, char *t, size_t tlen)
{
	if (!r->is_judged) {
		snprintf(d, dlen, "-");
		snprintf(t, tlen, "-");
	} else if (r->is_relative) {
		if (isinf(r->difference))
			snprintf(d, dlen, "new");
		else
			snprintf(d, dlen, "%+.1f %%", 100 * r->difference);
		snprintf(t, tlen, "%.3g %%", 100 * r->tolerance);
	} else {
		snprintf(d, dlen, r->is_distance ? "%.1f pt" : "%+.2f pt", r->difference);
		snprintf(t, tlen, "%.3g pt", r->tolerance);
	}
}

void trace_fid_print(const struct trace_fid_row *rows, const char *head_a, const char *head_b,
		     FILE *out)
{
	fprintf(out, "%-16s %-26s %-26s %-10s %-9s %s\n", "figure", head_a, head_b, "difference",
		"tolerance", "ok");
	for (int i = 0; i < TRACE_FID_NR; i++) {
		const struct trace_fid_row *r = &rows[i];
		char d[32], t[32];

		diff_text(r, d, sizeof(d), t, sizeof(t));
		fprintf(out, "%-16s %-26s %-26s %-10s %-9s %s\n", r->name, r->a_text, r->b_text, d,
			t,
			!r->is_judged ? "-"
			: r->is_ok    ? "ok"
				      : "NO");
	}
}

void *trace_fid_json(const struct trace_fid_row *rows, const char *key_a, const char *key_b)
{
	json_t *arr = json_array();

	for (int i = 0; arr && i < TRACE_FID_NR; i++) {
		const struct trace_fid_row *r = &rows[i];
		json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:b,s:b}", "figure", r->key, "name",
				      r->name, "unit", r->is_relative ? "relative" : "points",
				      "text_a", r->a_text, "text_b", r->b_text, "judged",
				      r->is_judged, "ok", r->is_ok);

		if (!o) {
			json_decref(arr);
			return NULL;
		}
		if (r->is_judged) {
			json_object_set_new(o, key_a, json_real(r->a));
			json_object_set_new(o, key_b, json_real(r->b));
			json_object_set_new(o, "difference",
					    isinf(r->difference) ? json_null()
								 : json_real(r->difference));
			json_object_set_new(o, "tolerance", json_real(r->tolerance));
		} else {
			json_object_set_new(o, key_a, json_null());
			json_object_set_new(o, key_b, json_null());
			json_object_set_new(o, "difference", json_null());
			json_object_set_new(o, "tolerance", json_null());
		}
		if (json_array_append_new(arr, o)) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

int trace_fid_dev_space(struct trace_fid *f, uint32_t dev, uint64_t *nr_ios,
			uint64_t *footprint_bytes, double *hot10_pct)
{
	uint64_t *idx = trace_cmap_get(&f->dev_idx, dev), *counts, sum = 0, total = 0;
	struct fid_dev *d;
	size_t n = 0, top;
	int ret;

	*nr_ios = *footprint_bytes = 0;
	*hot10_pct = 0;
	if (!idx)
		return 0;
	d = f->devs[*idx];
	ret = trace_extents_merge(&d->extents);
	if (!ret)
		ret = trace_extents_bytes(&d->extents, 1, footprint_bytes);
	if (ret)
		return ret;
	counts = malloc((d->regions.nr ? d->regions.nr : 1) * sizeof(*counts));
	if (!counts)
		return -ENOMEM;
	for (size_t i = 0; i < d->regions.cap; i++)
		if (d->regions.keys[i]) {
			counts[n++] = d->regions.vals[i];
			total += d->regions.vals[i];
		}
	qsort(counts, n, sizeof(*counts), cmp_desc);
	top = (n * FID_HOT_PCT + 99) / 100;
	for (size_t i = 0; i < top; i++)
		sum += counts[i];
	free(counts);
	*nr_ios = total;
	*hot10_pct = total ? 100.0 * (double)sum / (double)total : 0;
	return 0;
}
