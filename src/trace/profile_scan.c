/* The profile deriver's three passes over every trace file (profile.h): pass 0 finds the long
 * interleaved streams of every device (stream_table.h), sweeps that the classes' runs from
 * random starts would cover a third short, and gives the longest their own classes; pass 1
 * counts the other I/Os of every 1 MiB region of every device, the device spans and the I/Os
 * of every second; pass 2 puts every I/O into its stream's class or the class of its region,
 * with its op, size, sequentiality (after one of the last 16 I/Os of its device) and footprint.
 * Files are taken as one workload: each from its own first record, devices of different files
 * kept apart. */
#include "profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S 1000000000ull

enum {
	PROF_MAX_SECONDS = 1 << 23, /* about 97 days; later records join the last second */
	PROF_STREAM_MIN_IOS = 64,   /* a stream this long or longer may get a class of its own */
};

#define PROF_STREAM_MIN_SHARE 0.002 /* ... and as long as this share of its device's I/Os */

/* What the interleaved streams may change in the device's sequential % in the synthesized
 * stream, either way (a stream of share p is seen continuing 1 - (1 - p)^16 of the time), in
 * points: two thirds of the figure's tolerance of 3 (the bytes they keep would otherwise be a
 * third off), the rest left for the model's own error. */
#define PROF_STREAM_SEQ_BUDGET 2.0

unsigned int prof_class_of(uint64_t count)
{
	unsigned int c = (unsigned int)floor(2 * log2((double)(count ? count : 1)));

	return c < PROF_MAX_CLASSES ? c : PROF_MAX_CLASSES - 1;
}

static int prof_oom(struct prof *p)
{
	snprintf(p->err->msg, sizeof(p->err->msg), "out of memory");
	return -ENOMEM;
}

static void dev_free(struct prof_dev *d)
{
	if (!d)
		return;
	trace_cmap_fini(&d->regions);
	trace_cmap_fini(&d->stream_idx);
	trace_cmap_fini(&d->stream_class);
	free(d->stream_recs);
	free(d->streams);
	for (int c = 0; c < PROF_NR_CLASSES; c++) {
		trace_cmap_fini(&d->classes[c].ops[0].sizes);
		trace_cmap_fini(&d->classes[c].ops[1].sizes);
		trace_extents_fini(&d->classes[c].extents);
	}
	free(d);
}

void prof_fini(struct prof *p)
{
	for (size_t i = 0; i < p->nr_devs; i++)
		dev_free(p->devs[i]);
	free(p->devs);
	trace_cmap_fini(&p->dev_slot);
	free(p->files);
	free(p->sec_count);
	free(p->sec_first_ms);
	free(p->sec_last_ms);
	free(p->wds);
}

static struct prof_dev *dev_new(struct prof *p, size_t file_idx, uint32_t dev)
{
	struct prof_dev *d, **devs;

	if (p->nr_devs == p->cap_devs) {
		size_t cap = p->cap_devs ? 2 * p->cap_devs : 8;

		devs = realloc(p->devs, cap * sizeof(*devs));
		if (!devs)
			return NULL;
		p->devs = devs;
		p->cap_devs = cap;
	}
	d = calloc(1, sizeof(*d));
	if (d)
		d->streams = calloc(1, sizeof(*d->streams));
	if (!d || !d->streams ||
	    trace_cmap_add(&p->dev_slot, (uint64_t)file_idx << 32 | dev, p->nr_devs) < 0) {
		if (d)
			free(d->streams);
		free(d);
		return NULL;
	}
	d->file_idx = file_idx;
	d->dev = dev;
	for (int c = 0; c < PROF_NR_CLASSES; c++)
		trace_extents_init(&d->classes[c].extents, 1 << 20);
	p->devs[p->nr_devs++] = d;
	return d;
}

static struct prof_dev *dev_get(const struct prof *p, size_t file_idx, uint32_t dev)
{
	uint64_t *slot = trace_cmap_get(&p->dev_slot, (uint64_t)file_idx << 32 | dev);

	return slot ? p->devs[*slot] : NULL;
}

static int sec_grow(struct prof *p, size_t s)
{
	size_t cap = p->cap_secs ? p->cap_secs : 1024;
	uint32_t *a, *b, *c;

	while (cap <= s)
		cap *= 2;
	a = realloc(p->sec_count, cap * sizeof(*a));
	if (a)
		p->sec_count = a;
	b = realloc(p->sec_first_ms, cap * sizeof(*b));
	if (b)
		p->sec_first_ms = b;
	c = realloc(p->sec_last_ms, cap * sizeof(*c));
	if (c)
		p->sec_last_ms = c;
	if (!a || !b || !c)
		return -ENOMEM;
	memset(a + p->cap_secs, 0, (cap - p->cap_secs) * sizeof(*a));
	memset(c + p->cap_secs, 0, (cap - p->cap_secs) * sizeof(*c));
	for (size_t i = p->cap_secs; i < cap; i++)
		b[i] = UINT32_MAX;
	p->cap_secs = cap;
	return 0;
}

/* The I/O's second from its file's first record, and where in the second it came. */
static int sec_add(struct prof *p, struct prof_file *f, uint64_t t_ns)
{
	uint64_t rel = t_ns > f->first_ns ? t_ns - f->first_ns : 0;
	size_t s = (size_t)(rel / NS_PER_S);
	uint32_t ms = (uint32_t)(rel % NS_PER_S / 1000000);

	if (s >= PROF_MAX_SECONDS) { /* a clock that jumped: not years of per-second counts */
		if (!p->capped_path)
			p->capped_path = f->path;
		s = PROF_MAX_SECONDS - 1;
		rel = (uint64_t)PROF_MAX_SECONDS * NS_PER_S - 1;
		ms = (uint32_t)(rel % NS_PER_S / 1000000);
	}
	if (s >= p->cap_secs && sec_grow(p, s) < 0)
		return -ENOMEM;
	p->sec_count[s]++;
	if (ms < p->sec_first_ms[s])
		p->sec_first_ms[s] = ms;
	if (ms > p->sec_last_ms[s])
		p->sec_last_ms[s] = ms;
	if (s + 1 > p->nr_secs)
		p->nr_secs = s + 1;
	if ((double)rel / 1e9 > p->duration_s)
		p->duration_s = (double)rel / 1e9;
	return 0;
}

static bool is_kept(const struct prof *p, const struct trace_rec *rec)
{
	if (rec->op != TRACE_OP_READ && rec->op != TRACE_OP_WRITE)
		return false;
	return !p->cfg->has_dev || rec->dev == p->cfg->dev;
}

/* The class of the stream the I/O belongs to, or NULL. */
static struct prof_class *stream_of(struct prof_dev *d, const struct trace_rec *rec)
{
	struct trace_stream s = trace_stream_table_add(d->streams, rec->op, rec->offset_bytes,
						       rec->offset_bytes + rec->size_bytes);
	const uint64_t *k = d->nr_streams ? trace_cmap_get(&d->stream_class, s.id) : NULL;

	return k ? &d->classes[*k] : NULL;
}

/* Every stream that continues at least once: its I/Os, bytes, extent and the continuations
 * the sequential window does not see. */
static int pass0_rec(struct prof *p, size_t fi, const struct trace_rec *rec)
{
	struct prof_dev *d = dev_get(p, fi, rec->dev);
	uint64_t end = rec->offset_bytes + rec->size_bytes, *slot;
	struct prof_stream *st;
	struct trace_stream s;
	bool is_seq;

	if (!d && !(d = dev_new(p, fi, rec->dev)))
		return -ENOMEM;
	is_seq = trace_seq_window_add(&d->seq, rec->offset_bytes, end);
	s = trace_stream_table_add(d->streams, rec->op, rec->offset_bytes, end);
	if (!s.is_cont)
		return 0;
	slot = trace_cmap_get(&d->stream_idx, s.id);
	if (!slot) {
		if (d->nr_stream_recs == d->cap_stream_recs) {
			size_t cap = d->cap_stream_recs ? 2 * d->cap_stream_recs : 64;
			struct prof_stream *recs =
				realloc(d->stream_recs, cap * sizeof(*d->stream_recs));

			if (!recs)
				return -ENOMEM;
			d->stream_recs = recs;
			d->cap_stream_recs = cap;
		}
		if (trace_cmap_add(&d->stream_idx, s.id, d->nr_stream_recs) < 0)
			return -ENOMEM;
		d->stream_recs[d->nr_stream_recs++] = (struct prof_stream){
			.id = s.id,
			.nr = 1,
			.bytes = rec->offset_bytes - s.first,
			.lo_bytes = s.first,
			.hi_bytes = rec->offset_bytes,
		};
		slot = trace_cmap_get(&d->stream_idx, s.id);
	}
	st = &d->stream_recs[*slot];
	st->nr++;
	st->nr_far += !is_seq;
	st->bytes += rec->size_bytes;
	st->hi_bytes = end > st->hi_bytes ? end : st->hi_bytes;
	return 0;
}

/* The sequential I/Os a stream of its own adds to the synthesized stream (fewer than none when
 * it came in bursts): its WD, a share p of the device, is seen continuing 1 - (1 - p)^16 of
 * the time, against what the trace saw. */
static double stream_seq_adds(const struct prof_stream *s, double n_dev)
{
	double nr = (double)s->nr, seen = nr - 1 - (double)s->nr_far;

	return nr * -expm1(PROF_SEQ_WINDOW * log1p(-nr / n_dev)) - seen;
}

/* Whether a stream is one the classes would get wrong: long and a sweep (it covers about as
 * many bytes as it moves, not a few blocks over and over). The classes' runs start at random
 * and cover about 63 % of the bytes they move, whether the sequential window sees the stream
 * continue (thirty boot images read at once, each continued about every thirtieth I/O) or not
 * (a log paced among busy random I/O). A stream that came in bursts stays in the classes'
 * runs: as a WD of its own it would be seen continuing far less often than it was traced (by
 * more than a fifth of its I/Os). */
static bool is_stream_kept(const struct prof_stream *s, double n_dev)
{
	return s->nr >= PROF_STREAM_MIN_IOS && (double)s->nr >= PROF_STREAM_MIN_SHARE * n_dev &&
	       4 * (s->hi_bytes - s->lo_bytes) >= 3 * s->bytes &&
	       stream_seq_adds(s, n_dev) >= -(double)s->nr / 5;
}

static int cmp_stream_worth(const void *a, const void *b, void *ctx)
{
	const struct prof_stream *x = a, *y = b;
	double n_dev = *(const double *)ctx;
	double wx = (double)x->bytes / fmax(fabs(stream_seq_adds(x, n_dev)), 1);
	double wy = (double)y->bytes / fmax(fabs(stream_seq_adds(y, n_dev)), 1);

	return wx != wy ? (wx < wy) - (wx > wy) : (x->id > y->id) - (x->id < y->id);
}

/* The streams kept get classes of their own, those that bring the most bytes for the
 * sequential I/Os they add or take away first, as long as the sum of what they change in the
 * sequential % stays within its budget either way and their WDs number at most max_wds. A
 * stream left out is random I/O in its regions' classes, which covers about 63 % of its
 * bytes. */
static int streams_pick(struct prof_dev *d, unsigned int max_wds)
{
	double n_dev = (double)d->streams->nr, budget = PROF_STREAM_SEQ_BUDGET / 100 * n_dev;
	double sum = 0; /* what the streams kept so far add to the sequential I/Os */
	size_t n = 0;
	int ret = 0;

	for (size_t i = 0; i < d->nr_stream_recs; i++)
		if (is_stream_kept(&d->stream_recs[i], n_dev))
			d->stream_recs[n++] = d->stream_recs[i];
	if (n)
		qsort_r(d->stream_recs, n, sizeof(*d->stream_recs), cmp_stream_worth, &n_dev);
	for (size_t i = 0; i < n && d->nr_streams < PROF_MAX_STREAMS && !ret; i++) {
		double adds = stream_seq_adds(&d->stream_recs[i], n_dev);
		unsigned int k = PROF_MAX_CLASSES + d->nr_streams;

		if (fabs(sum + adds) > budget || !max_wds)
			continue;
		sum += adds;
		max_wds--; /* a stream is of one op (stream_table.h): one WD */
		ret = trace_cmap_add(&d->stream_class, d->stream_recs[i].id, k);
		d->classes[k].is_stream = true;
		d->classes[k].lo_bytes = UINT64_MAX;
		d->nr_streams++;
	}
	free(d->stream_recs);
	d->stream_recs = NULL;
	d->nr_stream_recs = d->cap_stream_recs = 0;
	trace_cmap_fini(&d->stream_idx);
	return ret;
}

static int pass1_rec(struct prof *p, size_t fi, const struct trace_rec *rec)
{
	struct prof_file *f = &p->files[fi];
	struct prof_dev *d = dev_get(p, fi, rec->dev);
	uint64_t end = rec->offset_bytes + rec->size_bytes;

	if (!d)
		return -EIO; /* the file changed between the passes */
	if (!f->has_time) {
		f->first_ns = rec->time_ns;
		f->has_time = true;
	}
	d->nr++;
	if (end > d->max_end_bytes)
		d->max_end_bytes = end;
	p->nr_ios++;
	p->latency_sum_ns += rec->latency_ns;
	p->nr_latencies += rec->latency_ns != 0;
	if (!stream_of(d, rec) &&
	    trace_cmap_add(&d->regions, rec->offset_bytes >> PROF_REGION_SHIFT, 1) < 0)
		return -ENOMEM;
	{ /* the fidelity figures: this device as its SD number, on the file's own clock */
		struct trace_rec r = *rec;
		int ret;

		r.dev = (uint32_t)*trace_cmap_get(&p->dev_slot, (uint64_t)fi << 32 | rec->dev);
		r.time_ns = rec->time_ns > f->first_ns ? rec->time_ns - f->first_ns : 0;
		ret = trace_fid_add(p->fid, &r);
		if (ret < 0)
			return ret;
	}
	return sec_add(p, f, rec->time_ns);
}

static int pass2_rec(struct prof *p, size_t fi, const struct trace_rec *rec)
{
	struct prof_dev *d = dev_get(p, fi, rec->dev);
	uint64_t end = rec->offset_bytes + rec->size_bytes, size;
	const uint64_t *count;
	struct prof_class *c;
	struct prof_part *part;

	if (!d)
		return -EIO; /* the file changed between the passes */
	c = stream_of(d, rec);
	if (c) {
		c->lo_bytes = rec->offset_bytes < c->lo_bytes ? rec->offset_bytes : c->lo_bytes;
		c->hi_bytes = end > c->hi_bytes ? end : c->hi_bytes;
	} else {
		count = trace_cmap_get(&d->regions, rec->offset_bytes >> PROF_REGION_SHIFT);
		if (!count)
			return -EIO;
		c = &d->classes[prof_class_of(*count)];
	}
	part = &c->ops[rec->op];
	part->nr++;
	part->bytes += rec->size_bytes;
	part->nr_seq += trace_seq_window_add(&d->seq, rec->offset_bytes, end);
	size = (rec->size_bytes + PROF_BLOCK_BYTES / 2) / PROF_BLOCK_BYTES;
	if (trace_cmap_add(&part->sizes, (size ? size : 1) * PROF_BLOCK_BYTES, 1) < 0)
		return -ENOMEM;
	return trace_extents_add(&c->extents, rec->offset_bytes, end);
}

/* The reader's notes (lines skipped, empty I/Os, an early end) join the profile's warnings. */
static void notes_add(struct prof *p, const struct trace_reader *r)
{
	size_t len = strlen(p->warnings);
	FILE *f = len + 1 < sizeof(p->warnings)
			  ? fmemopen(p->warnings + len, sizeof(p->warnings) - len, "w")
			  : NULL;

	if (!f)
		return;
	trace_reader_print_notes(r, f);
	fclose(f);
}

typedef int pass_fn(struct prof *p, size_t fi, const struct trace_rec *rec);

static int pass(struct prof *p, size_t fi, pass_fn *fn)
{
	struct prof_file *f = &p->files[fi];
	struct trace_reader *r;
	struct trace_rec rec;
	int ret = trace_reader_open(&r, f->path, p->cfg->opts, p->err);

	if (ret < 0)
		return ret;
	f->format = trace_reader_format(r);
	while ((ret = trace_reader_next(r, &rec)) > 0) {
		if (!is_kept(p, &rec))
			continue;
		ret = fn(p, fi, &rec);
		if (ret < 0)
			break;
	}
	if (ret >= 0 && fn == pass0_rec)
		notes_add(p, r);
	if (ret == -ENOMEM)
		prof_oom(p);
	else if (ret == -EIO && !trace_reader_err(r)->msg[0])
		snprintf(p->err->msg, sizeof(p->err->msg), "the trace changed while it was read");
	else if (ret < 0)
		*p->err = *trace_reader_err(r);
	trace_reader_close(r);
	return ret;
}

static int cmp_u64_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

/* The share of a device's I/Os in its busiest 10 % of regions, from its own counts. */
static double regions_hot10(const struct prof_dev *d)
{
	uint64_t *counts = malloc((d->regions.nr ? d->regions.nr : 1) * sizeof(*counts)), sum = 0;
	size_t n = 0, top;

	if (!counts)
		return -1;
	for (size_t i = 0; i < d->regions.cap; i++)
		if (d->regions.keys[i])
			counts[n++] = d->regions.vals[i];
	qsort(counts, n, sizeof(*counts), cmp_u64_desc);
	top = (n + 9) / 10;
	for (size_t i = 0; i < top; i++)
		sum += counts[i];
	free(counts);
	return 100.0 * (double)sum / (double)d->nr;
}

/* A stream's class: the regions of its traced extent, placed at its middle. */
static void stream_finish(struct prof_class *c)
{
	double mib = 1 << PROF_REGION_SHIFT;

	c->nr_regions = (c->footprint_bytes + (1 << PROF_REGION_SHIFT) - 1) >> PROF_REGION_SHIFT;
	c->nr_regions = c->nr_regions ? c->nr_regions : 1;
	c->region_pos_sum =
		(double)c->nr_regions * ((double)c->lo_bytes + (double)c->hi_bytes) / 2 / mib;
}

/* Regions per class and their mean place; every class's footprint; the device's footprint
 * and hot 10 % share (the traced ones: streams' I/Os and others' may share bytes). */
static int classes_finish(struct prof *p)
{
	for (size_t i = 0; i < p->nr_devs; i++) {
		struct prof_dev *d = p->devs[i];

		for (size_t j = 0; j < d->regions.cap; j++) {
			struct prof_class *c;

			if (!d->regions.keys[j])
				continue;
			c = &d->classes[prof_class_of(d->regions.vals[j])];
			c->nr_regions++;
			c->region_pos_sum += (double)(d->regions.keys[j] - 1);
		}
		for (int k = 0; k < PROF_NR_CLASSES; k++) {
			struct prof_class *c = &d->classes[k];
			int ret = trace_extents_merge(&c->extents);

			if (!ret)
				ret = trace_extents_bytes(&c->extents, 1, &c->footprint_bytes);
			if (ret)
				return ret == -ENOMEM ? prof_oom(p) : ret;
			d->footprint_bytes += c->footprint_bytes;
			trace_extents_fini(&c->extents); /* the bytes are all the model needs */
			if (c->is_stream)
				stream_finish(c);
		}
		d->trace_hot10_pct = regions_hot10(d);
		if (d->nr_streams) {
			uint64_t nr;
			int ret = trace_fid_dev_space(p->fid, (uint32_t)i, &nr, &d->footprint_bytes,
						      &d->trace_hot10_pct);

			if (ret)
				return ret == -ENOMEM ? prof_oom(p) : ret;
		}
	}
	return 0;
}

/* The WDs a device's streams may have: --max-wds leaves two for the classes of regions. */
static unsigned int stream_max_wds(const struct prof *p)
{
	unsigned int max = p->cfg->max_wds ? p->cfg->max_wds : PROF_DEFAULT_MAX_WDS;

	return max > 2 ? max - 2 : 0;
}

/* The warning that a trace spans more seconds than are counted one by one. */
static void span_note(struct prof *p)
{
	size_t len = strlen(p->warnings);

	if (p->capped_path && len + 1 < sizeof(p->warnings))
		snprintf(p->warnings + len, sizeof(p->warnings) - len,
			 "%s: warning: the trace spans more than %d days; its records after that "
			 "count in its last second (a clock that jumped?)\n",
			 p->capped_path, PROF_MAX_SECONDS / 86400);
}

/* Every device's sequential window and stream table empty again, for the next pass. */
static void passes_reset(struct prof *p)
{
	for (size_t i = 0; i < p->nr_devs; i++) {
		memset(&p->devs[i]->seq, 0, sizeof(p->devs[i]->seq));
		memset(p->devs[i]->streams, 0, sizeof(*p->devs[i]->streams));
	}
}

int prof_scan(struct prof *p)
{
	pass_fn *passes[] = { pass0_rec, pass1_rec, pass2_rec };
	int ret = 0;

	for (size_t k = 0; k < sizeof(passes) / sizeof(passes[0]) && ret >= 0; k++) {
		for (size_t i = 0; i < p->nr_devs && k == 1 && ret >= 0; i++)
			if (streams_pick(p->devs[i], stream_max_wds(p)))
				ret = prof_oom(p);
		passes_reset(p);
		for (size_t i = 0; i < p->cfg->nr_paths && ret >= 0; i++)
			ret = pass(p, i, passes[k]);
	}
	if (ret >= 0)
		ret = classes_finish(p);
	span_note(p);
	return ret < 0 ? ret : 0;
}
