/* The profile deriver: reads traces twice (figures and device spans, then a split of every
 * I/O into random/sequential reads/writes) and writes a VDbench raw-I/O parameter file with
 * one WD per stream. Only plain VDbench 5.04.07 syntax is written: comments start with '*'
 * and parameter lines hold no blank (VDbench ignores what follows one). */
#include "ioramp/trace.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "count_map.h"

enum {
	PROF_BLOCK_BYTES = 512, /* VDbench xfersizes are multiples of 512 */
	PROF_MAX_SIZES = 16,	/* sizes kept per WD; the others join the nearest kept one */
	PROF_BINS = 1000,	/* offset histogram: 0.1 % of the device span per bin */
	PROF_REGION_SHIFT = 20, /* 1 MiB regions for the hot-band test */
	PROF_MAX_REGIONS = 4 << 20,
	PROF_HOT_PCT = 10,	  /* hotband= when the hottest 10 % of regions take ... */
	PROF_HOT_SHARE_PCT = 50,  /* ... at least half of a stream's I/Os */
	PROF_TRIM_PERMILLE = 5,	  /* range= leaves out the 0.5 % lowest and highest offsets */
	PROF_DEFAULT_THREADS = 8, /* VDbench's default when the trace has no latencies */
	PROF_MAX_THREADS = 256,
};

enum prof_class_id {
	PROF_RR, /* random reads */
	PROF_RW, /* random writes */
	PROF_SR, /* sequential reads */
	PROF_SW, /* sequential writes */
	PROF_NR,
};

static const char *const class_wd[PROF_NR] = { "rr", "rw", "sr", "sw" };
static const char *const class_desc[PROF_NR] = { "random reads", "random writes",
						 "sequential reads", "sequential writes" };

struct prof_class {
	uint64_t nr, bytes;
	struct trace_cmap sizes; /* size rounded to 512 -> count */
	uint64_t bins[PROF_BINS];
	struct trace_cmap regions; /* device slot << 40 | offset >> (20 + fold) -> count */
	unsigned int region_fold;
};

/* One device of one file: its span (from pass 1) and the stream state of pass 2. */
struct prof_dev {
	uint64_t span_bytes;
	bool has_prev[2];
	uint64_t prev_end[2];
};

struct prof_file {
	const char *path;
	enum trace_format format;
	struct trace_figs figs;
	struct trace_cmap dev_slot; /* dev -> index into prof.devs */
};

struct prof {
	const struct trace_opts *opts;
	struct prof_file *files;
	size_t nr_files;
	struct prof_dev *devs;
	size_t nr_devs, cap_devs;
	struct prof_class classes[PROF_NR];
	uint64_t nr_ios, latency_sum_ns, nr_latencies;
	struct trace_err *err;
};

static void prof_fini(struct prof *p)
{
	for (size_t i = 0; i < p->nr_files; i++)
		trace_cmap_fini(&p->files[i].dev_slot);
	for (int c = 0; c < PROF_NR; c++) {
		trace_cmap_fini(&p->classes[c].sizes);
		trace_cmap_fini(&p->classes[c].regions);
	}
	free(p->files);
	free(p->devs);
}

static int prof_dev_add(struct prof *p, struct prof_file *f, uint32_t dev, uint64_t span_bytes)
{
	struct prof_dev *devs;

	if (p->nr_devs == p->cap_devs) {
		size_t cap = p->cap_devs ? 2 * p->cap_devs : 8;

		devs = realloc(p->devs, cap * sizeof(*devs));
		if (!devs)
			return -ENOMEM;
		p->devs = devs;
		p->cap_devs = cap;
	}
	memset(&p->devs[p->nr_devs], 0, sizeof(p->devs[0]));
	p->devs[p->nr_devs].span_bytes = span_bytes;
	if (trace_cmap_add(&f->dev_slot, dev, p->nr_devs) < 0)
		return -ENOMEM;
	p->nr_devs++;
	return 0;
}

static int prof_oom(struct prof *p)
{
	snprintf(p->err->msg, sizeof(p->err->msg), "out of memory");
	return -ENOMEM;
}

/* Pass 1 over one file: its total figures and the span of each device. */
static int prof_read_figs(struct prof *p, struct prof_file *f)
{
	struct trace_reader *r;
	struct trace_stat *s = NULL;
	struct trace_figs df;
	int64_t nr;
	int ret = trace_reader_open(&r, f->path, p->opts, p->err);

	if (ret < 0)
		return ret;
	f->format = trace_reader_format(r);
	ret = trace_stat_new(&s, NULL);
	nr = ret < 0 ? ret : trace_stat_read(s, r);
	if (nr < 0) {
		*p->err = *trace_reader_err(r);
		ret = (int)nr;
		if (!p->err->msg[0] || nr == -ENOMEM)
			ret = prof_oom(p);
		goto out;
	}
	ret = trace_stat_figs(s, SIZE_MAX, &f->figs);
	for (size_t i = 0; ret == 0 && i < trace_stat_nr_devs(s); i++) {
		ret = trace_stat_figs(s, i, &df);
		if (ret == 0)
			ret = prof_dev_add(p, f, df.dev, df.max_end_bytes);
	}
	if (ret < 0)
		ret = prof_oom(p);
out:
	trace_stat_free(s);
	trace_reader_close(r);
	return ret;
}

static int prof_class_regions(struct prof_class *c, size_t slot, uint64_t offset)
{
	uint64_t key = (uint64_t)slot << 40 |
		       ((offset >> (PROF_REGION_SHIFT + c->region_fold)) & ((1ull << 40) - 1));
	int ret = trace_cmap_add(&c->regions, key, 1);

	while (ret == 0 && c->regions.nr > PROF_MAX_REGIONS) {
		/* fold the offset part only: rebuild keeping slots apart is not worth it, a
		 * merged neighbour slot only blurs a statistic past four million regions */
		ret = trace_cmap_fold(&c->regions, 1);
		c->region_fold += ret == 0;
	}
	return ret;
}

static int prof_class_add(struct prof_class *c, size_t slot, const struct prof_dev *d,
			  const struct trace_rec *rec)
{
	uint64_t size = (rec->size_bytes + PROF_BLOCK_BYTES / 2) / PROF_BLOCK_BYTES;
	uint64_t bin = 0;
	int ret;

	size = (size ? size : 1) * PROF_BLOCK_BYTES;
	c->nr++;
	c->bytes += rec->size_bytes;
	if (d->span_bytes)
		bin = (uint64_t)((double)rec->offset_bytes / (double)d->span_bytes * PROF_BINS);
	c->bins[bin < PROF_BINS ? bin : PROF_BINS - 1]++;
	ret = trace_cmap_add(&c->sizes, size, 1);
	if (ret == 0)
		ret = prof_class_regions(c, slot, rec->offset_bytes);
	return ret;
}

/* Pass 2 over one file: every data I/O into its stream. */
static int prof_classify(struct prof *p, struct prof_file *f)
{
	struct trace_reader *r;
	struct trace_rec rec;
	int ret = trace_reader_open(&r, f->path, p->opts, p->err);

	if (ret < 0)
		return ret;
	while ((ret = trace_reader_next(r, &rec)) > 0) {
		uint64_t *slot = trace_cmap_get(&f->dev_slot, rec.dev);
		unsigned int op = rec.op;
		struct prof_dev *d;
		bool is_seq;

		if (op != TRACE_OP_READ && op != TRACE_OP_WRITE)
			continue;
		if (!slot) { /* the file changed between the passes */
			ret = -EIO;
			snprintf(p->err->msg, sizeof(p->err->msg), "device %u not seen by pass 1",
				 rec.dev);
			break;
		}
		d = &p->devs[*slot];
		is_seq = d->has_prev[op] && rec.offset_bytes == d->prev_end[op];
		d->has_prev[op] = true;
		d->prev_end[op] = rec.offset_bytes + rec.size_bytes;
		p->nr_ios++;
		p->latency_sum_ns += rec.latency_ns;
		p->nr_latencies += rec.latency_ns != 0;
		ret = prof_class_add(
			&p->classes[op == TRACE_OP_READ ? (is_seq ? PROF_SR : PROF_RR)
							: (is_seq ? PROF_SW : PROF_RW)],
			(size_t)*slot, d, &rec);
		if (ret < 0) {
			ret = prof_oom(p);
			break;
		}
	}
	if (ret < 0 && !p->err->msg[0]) /* the reader's own failure */
		*p->err = *trace_reader_err(r);
	trace_reader_close(r);
	return ret;
}

/* Splits 100.0 % into tenths proportional to counts (largest remainder, ties to the lower
 * index), so the printed percents sum to exactly 100.0. */
static void split_tenths(const uint64_t *counts, size_t n, unsigned int *tenths)
{
	uint64_t total = 0, rem[PROF_MAX_SIZES]; /* n <= PROF_MAX_SIZES, and PROF_NR < it */
	unsigned int given = 0;

	for (size_t i = 0; i < n; i++)
		total += counts[i];
	for (size_t i = 0; i < n; i++) {
		tenths[i] = total ? (unsigned int)(counts[i] * 1000 / total) : 0;
		rem[i] = total ? counts[i] * 1000 % total : 0;
		given += tenths[i];
	}
	while (total && given < 1000) {
		size_t best = 0;

		for (size_t i = 1; i < n; i++)
			if (rem[i] > rem[best])
				best = i;
		tenths[best]++;
		rem[best] = 0;
		given++;
	}
}

struct prof_size {
	uint32_t bytes;
	uint64_t nr;
};

static int cmp_size_bytes(const void *a, const void *b)
{
	const struct prof_size *x = a, *y = b;

	return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* The most frequent sizes of c, at most PROF_MAX_SIZES, each other size counted with the
 * nearest kept one; sorted by size. Returns how many. */
static size_t prof_top_sizes(const struct prof_class *c, struct prof_size *out)
{
	size_t nr = 0;

	for (size_t i = 0; i < c->sizes.cap; i++) {
		struct prof_size s = { (uint32_t)(c->sizes.keys[i] - 1), c->sizes.vals[i] };
		size_t j;

		if (!c->sizes.keys[i])
			continue;
		for (j = nr; j > 0 && (out[j - 1].nr < s.nr ||
				       (out[j - 1].nr == s.nr && out[j - 1].bytes > s.bytes));
		     j--)
			;
		if (j == PROF_MAX_SIZES)
			continue;
		nr += nr < PROF_MAX_SIZES;
		memmove(&out[j + 1], &out[j], (nr - 1 - j) * sizeof(*out));
		out[j] = s;
	}
	return nr;
}

/* The kept size nearest to bytes; SIZE_MAX when bytes is kept itself. */
static size_t prof_nearest(const struct prof_size *kept, size_t nr, uint32_t bytes)
{
	size_t best = 0;

	for (size_t j = 0; j < nr; j++) {
		if (kept[j].bytes == bytes)
			return SIZE_MAX;
		if (llabs((long long)kept[j].bytes - bytes) <
		    llabs((long long)kept[best].bytes - bytes))
			best = j;
	}
	return best;
}

static size_t prof_sizes(const struct prof_class *c, struct prof_size *out)
{
	size_t nr = prof_top_sizes(c, out);

	for (size_t i = 0; i < c->sizes.cap; i++) {
		size_t j;

		if (!c->sizes.keys[i])
			continue;
		j = prof_nearest(out, nr, (uint32_t)(c->sizes.keys[i] - 1));
		if (j != SIZE_MAX)
			out[j].nr += c->sizes.vals[i];
	}
	qsort(out, nr, sizeof(*out), cmp_size_bytes);
	return nr;
}

static void print_size(FILE *out, uint32_t bytes)
{
	if (bytes % 1024 == 0)
		fprintf(out, "%uk", bytes / 1024);
	else
		fprintf(out, "%u", bytes);
}

/* xfersize=4k or xfersize=(4k,60.0,64k,40.0) */
static void print_xfersize(FILE *out, const struct prof_class *c)
{
	struct prof_size sizes[PROF_MAX_SIZES];
	uint64_t counts[PROF_MAX_SIZES];
	unsigned int tenths[PROF_MAX_SIZES];
	size_t nr = prof_sizes(c, sizes);
	const char *sep = "(";

	for (size_t i = 0; i < nr; i++)
		counts[i] = sizes[i].nr;
	split_tenths(counts, nr, tenths);
	fprintf(out, "xfersize=");
	if (nr == 1) {
		print_size(out, sizes[0].bytes);
		return;
	}
	for (size_t i = 0; i < nr; i++) {
		if (!tenths[i])
			continue;
		fputs(sep, out);
		print_size(out, sizes[i].bytes);
		fprintf(out, ",%u.%u", tenths[i] / 10, tenths[i] % 10);
		sep = ",";
	}
	fputs(")", out);
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

/* Share (%) of c's I/Os in the hottest PROF_HOT_PCT % of its regions; -1 on -ENOMEM. */
static double prof_hot_share(const struct prof_class *c)
{
	size_t n = c->regions.nr, k = 0, top = (n * PROF_HOT_PCT + 99) / 100;
	uint64_t *counts = malloc((n ? n : 1) * sizeof(*counts)), sum = 0;

	if (!counts)
		return -1;
	for (size_t i = 0; i < c->regions.cap; i++)
		if (c->regions.keys[i])
			counts[k++] = c->regions.vals[i];
	qsort(counts, n, sizeof(*counts), cmp_desc);
	for (k = 0; k < top; k++)
		sum += counts[k];
	free(counts);
	return c->nr ? 100.0 * (double)sum / (double)c->nr : 0;
}

/* The span of c's offsets in % of the device span, without the 0.5 % extremes. */
static void prof_range(const struct prof_class *c, double *lo_pct, double *hi_pct)
{
	uint64_t trim = c->nr * PROF_TRIM_PERMILLE / 1000, cum = 0;
	unsigned int lo = 0, hi = PROF_BINS - 1;
	bool has_lo = false;

	for (unsigned int b = 0; b < PROF_BINS; b++) {
		cum += c->bins[b];
		if (!has_lo && cum > trim) {
			lo = b;
			has_lo = true;
		}
		if (cum >= c->nr - trim) {
			hi = b;
			break;
		}
	}
	*lo_pct = lo / 10.0;
	*hi_pct = (hi + 1) / 10.0;
}

static void print_wd(FILE *out, const struct prof *p, enum prof_class_id id, unsigned int skew)
{
	const struct prof_class *c = &p->classes[id];
	bool is_random = id == PROF_RR || id == PROF_RW;
	double lo, hi, hot = is_random ? prof_hot_share(c) : 0;

	prof_range(c, &lo, &hi);
	fprintf(out, "wd=%s,sd=sd1,", class_wd[id]);
	print_xfersize(out, c);
	fprintf(out, ",rdpct=%d,seekpct=%d,%s=(%.1f,%.1f),skew=%u.%u\n",
		id == PROF_RR || id == PROF_SR ? 100 : 0, is_random ? 100 : 0,
		hot >= PROF_HOT_SHARE_PCT ? "hotband" : "range", lo, hi, skew / 10, skew % 10);
}

static void print_file_figs(FILE *out, const struct prof_file *f)
{
	const struct trace_figs *g = &f->figs;

	fprintf(out, "*   %s: format %s, %" PRIu64 " I/Os over %.3f s: %.1f IOPS, %.3f MB/s\n",
		f->path, trace_format_name(f->format), g->nr_ios, (double)g->duration_ns / 1e9,
		g->iops, g->mb_per_s);
	fprintf(out,
		"*     read %.2f %% of I/Os, %.2f %% of bytes; mean size %.1f KiB (reads %.1f,"
		" writes %.1f)\n",
		g->read_pct, g->read_bytes_pct, g->mean_size_bytes / 1024,
		g->mean_read_bytes / 1024, g->mean_write_bytes / 1024);
	fprintf(out, "*     top sizes:");
	for (unsigned int i = 0; i < g->nr_top_sizes && i < 5; i++)
		fprintf(out, " %u %.1f %%%s", g->top_sizes[i].size_bytes,
			100.0 * (double)g->top_sizes[i].nr / (double)g->nr_ios,
			i + 1 < g->nr_top_sizes && i < 4 ? "," : "");
	fprintf(out, "\n*     sequential %.2f %% (near %.2f %%); reads %.2f %%, writes %.2f %%\n",
		g->seq_pct, g->near_pct, g->seq_read_pct, g->seq_write_pct);
	fprintf(out,
		"*     footprint %.1f MiB over a span of %.1f MiB; hottest 1/10/25 %% of 1 MiB"
		" regions: %.1f/%.1f/%.1f %% of I/Os\n",
		(double)g->footprint_bytes / 1048576, (double)g->max_end_bytes / 1048576,
		g->hot_pct[0], g->hot_pct[2], g->hot_pct[4]);
	fprintf(out, "*     inter-arrival mean %.1f us, median %.1f us, CV %.2f, burstiness %.2f\n",
		g->ia_mean_ns / 1e3, g->ia_median_ns / 1e3, g->ia_cv, g->burstiness);
}

static const char profile_notes[] =
	"* How it was derived (ioramp trace profile):\n"
	"*   an I/O is sequential when it starts where the previous I/O of the same op on the\n"
	"*   same device ended; each stream present becomes one WD with its own sizes (rounded\n"
	"*   to 512 bytes; up to 16, the others counted with the nearest), skew = its share of\n"
	"*   the I/Os, range= where 99 %% of its offsets fall in %% of the device span (highest\n"
	"*   offset + size seen), or hotband= over that range for random streams whose hottest\n"
	"*   10 %% of 1 MiB regions take half of their I/Os or more.\n"
	"*   iorate is the trace's average rate; elapsed its duration (10 to 3600 s); threads\n"
	"*   twice the mean outstanding I/Os (rate x mean latency) when the trace has latencies,\n"
	"*   else VDbench's default of 8; at least one per WD. VDbench spaces arrivals\n"
	"*   exponentially: a trace with an inter-arrival CV well above 1 is burstier than this\n"
	"*   profile will be.\n"
	"* Run: vdbench -f THIS_FILE lun=/dev/sdX   (or: ioramp -f THIS_FILE lun=/dev/sdX)\n";

/* Twice the mean outstanding I/Os (Little: rate x mean latency) when the trace has
 * latencies, else VDbench's default; at least one per WD, so every stream can have an I/O
 * in flight (VDbench warns about skew otherwise). */
static unsigned int prof_threads(const struct prof *p, double iops, unsigned int nr_wds)
{
	double outstanding = PROF_DEFAULT_THREADS;

	if (p->nr_latencies)
		outstanding =
			ceil(2 * iops * (double)p->latency_sum_ns / (double)p->nr_latencies / 1e9);
	if (outstanding < nr_wds)
		outstanding = nr_wds;
	return outstanding > PROF_MAX_THREADS ? PROF_MAX_THREADS : (unsigned int)outstanding;
}

static void print_rd(FILE *out, const struct prof *p, const unsigned int *skews)
{
	double iops = 0, secs = 0;
	const char *sep = "(";
	unsigned int nr_wds = 0;

	for (size_t i = 0; i < p->nr_files; i++) {
		iops += p->files[i].figs.iops;
		if ((double)p->files[i].figs.duration_ns / 1e9 > secs)
			secs = (double)p->files[i].figs.duration_ns / 1e9;
	}
	secs = ceil(secs) < 10 ? 10 : ceil(secs) > 3600 ? 3600 : ceil(secs);
	for (int c = 0; c < PROF_NR; c++)
		nr_wds += skews[c] != 0;
	fprintf(out, "rd=rd1,wd=");
	for (int c = 0; c < PROF_NR; c++) {
		if (!skews[c])
			continue;
		fprintf(out, "%s%s", nr_wds > 1 ? sep : "", class_wd[c]);
		sep = ",";
	}
	fprintf(out, "%s,iorate=", nr_wds > 1 ? ")" : "");
	if (iops > 0)
		fprintf(out, "%.1f", iops < 0.1 ? 0.1 : iops);
	else
		fprintf(out, "max");
	fprintf(out, ",elapsed=%.0f,interval=1\n", secs);
}

static void prof_emit(FILE *out, const struct prof *p)
{
	uint64_t counts[PROF_NR];
	unsigned int skews[PROF_NR], threads, nr_wds = 0;
	double iops = 0;

	fprintf(out, "* VDbench 5.04.07 raw-I/O profile derived from %zu block trace%s.\n",
		p->nr_files, p->nr_files == 1 ? "" : "s");
	fprintf(out, "* Trace figures:\n");
	for (size_t i = 0; i < p->nr_files; i++) {
		print_file_figs(out, &p->files[i]);
		iops += p->files[i].figs.iops;
	}
	fprintf(out, "* Streams (share of I/Os):");
	for (int c = 0; c < PROF_NR; c++) {
		counts[c] = p->classes[c].nr;
		fprintf(out, " %s %.2f %%%s", class_desc[c],
			100.0 * (double)counts[c] / (double)p->nr_ios,
			c + 1 < PROF_NR ? "," : "\n");
	}
	fprintf(out, profile_notes);
	split_tenths(counts, PROF_NR, skews);
	for (int c = 0; c < PROF_NR; c++)
		nr_wds += skews[c] != 0;
	threads = prof_threads(p, iops, nr_wds);
	fprintf(out, "sd=sd1,lun=$lun,threads=%u\n", threads);
	for (int c = 0; c < PROF_NR; c++)
		if (skews[c])
			print_wd(out, p, (enum prof_class_id)c, skews[c]);
	print_rd(out, p, skews);
}

int trace_profile_write(const char *const *paths, size_t nr_paths, const struct trace_opts *opts,
			FILE *out, struct trace_err *err)
{
	struct prof p = { .opts = opts, .err = err, .nr_files = nr_paths };
	int ret = 0;

	memset(err, 0, sizeof(*err));
	p.files = calloc(nr_paths ? nr_paths : 1, sizeof(*p.files));
	if (!p.files)
		return -ENOMEM;
	for (size_t i = 0; i < nr_paths; i++)
		p.files[i].path = paths[i];
	for (size_t i = 0; i < nr_paths && ret == 0; i++)
		ret = prof_read_figs(&p, &p.files[i]);
	for (size_t i = 0; i < nr_paths && ret == 0; i++)
		ret = prof_classify(&p, &p.files[i]);
	if (ret == 0 && !p.nr_ios) {
		snprintf(err->file, sizeof(err->file), "%s", nr_paths ? paths[0] : "");
		snprintf(err->msg, sizeof(err->msg), "no read or write I/O: nothing to profile");
		ret = -ENODATA;
	}
	if (ret == 0)
		prof_emit(out, &p);
	prof_fini(&p);
	return ret;
}
