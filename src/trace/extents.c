/* Footprint extents (see extents.h): append, sort and sweep into the sorted set, spill the set
 * to sorted runs in temporary files past its bound, and count bytes over the set and the runs
 * with one k-way merge. */
#include "extents.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	EXT_MIN_PENDING = 64,
	EXT_MAX_PENDING_FLOOR = 4096,
	EXT_READ_BATCH = 4096, /* extents read from a run at a time */
};

void trace_extents_init(struct trace_extents *e, size_t max_extents)
{
	memset(e, 0, sizeof(*e));
	e->grain_bytes = 1;
	e->max_extents = max_extents < 16 ? 16 : max_extents;
}

static int cmp_extent(const void *a, const void *b)
{
	const struct trace_extent *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* Appends x to out[0, *nr), joining it with the last extent when they overlap or touch. */
static void sweep_put(struct trace_extent *out, size_t *nr, struct trace_extent x)
{
	if (*nr && x.start <= out[*nr - 1].end) {
		if (x.end > out[*nr - 1].end)
			out[*nr - 1].end = x.end;
		return;
	}
	out[(*nr)++] = x;
}

static struct trace_extent round_out(struct trace_extent x, uint64_t grain)
{
	x.start &= ~(grain - 1);
	x.end = x.end > UINT64_MAX - (grain - 1) ? UINT64_MAX : (x.end + grain - 1) & ~(grain - 1);
	return x;
}

/* The fallback without a temporary file: doubles the grain until the set holds at most half
 * of max_extents. */
static void extents_coarsen(struct trace_extents *e)
{
	while (e->nr_set > e->max_extents / 2 && e->grain_bytes < (1ull << 62)) {
		size_t nr = 0;

		e->grain_bytes *= 2;
		for (size_t i = 0; i < e->nr_set; i++)
			sweep_put(e->set, &nr, round_out(e->set[i], e->grain_bytes));
		e->nr_set = nr;
	}
}

/* ---- reading runs back ------------------------------------------------------------------ */

/* A sorted source: a run read in batches, or the in-memory set. */
struct ext_src {
	FILE *f;
	const struct trace_extent *mem;
	size_t nr_mem;
	struct trace_extent *buf;
	size_t nr, pos;
	bool is_done;
};

static int src_fill(struct ext_src *s)
{
	if (!s->f) {
		s->is_done = s->pos >= s->nr_mem;
		return 0;
	}
	if (s->pos < s->nr)
		return 0;
	s->nr = fread(s->buf, sizeof(*s->buf), EXT_READ_BATCH, s->f);
	s->pos = 0;
	if (!s->nr && ferror(s->f))
		return -EIO;
	s->is_done = !s->nr;
	return 0;
}

static struct trace_extent src_peek(const struct ext_src *s)
{
	return s->f ? s->buf[s->pos] : s->mem[s->pos];
}

/* The k-way merge of the set and every run, each extent handed to put() in start order. */
struct ext_merge {
	struct ext_src src[TRACE_EXTENT_MAX_RUNS + 1];
	size_t nr_src;
};

static int merge_open(struct ext_merge *m, const struct trace_extents *e)
{
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < e->nr_runs; i++) {
		struct ext_src *s = &m->src[m->nr_src++];

		s->f = e->runs[i];
		s->buf = malloc(EXT_READ_BATCH * sizeof(*s->buf));
		if (!s->buf)
			return -ENOMEM;
		if (fseek(s->f, 0, SEEK_SET))
			return -EIO;
	}
	m->src[m->nr_src].mem = e->set;
	m->src[m->nr_src++].nr_mem = e->nr_set;
	for (size_t i = 0; i < m->nr_src; i++) {
		int ret = src_fill(&m->src[i]);

		if (ret)
			return ret;
	}
	return 0;
}

static void merge_close(struct ext_merge *m)
{
	for (size_t i = 0; i < m->nr_src; i++)
		free(m->src[i].buf);
}

/* The next extent in start order: 1, 0 at the end, or -EIO. */
static int merge_next(struct ext_merge *m, struct trace_extent *x)
{
	size_t best = SIZE_MAX;

	for (size_t i = 0; i < m->nr_src; i++)
		if (!m->src[i].is_done &&
		    (best == SIZE_MAX ||
		     src_peek(&m->src[i]).start < src_peek(&m->src[best]).start))
			best = i;
	if (best == SIZE_MAX)
		return 0;
	*x = src_peek(&m->src[best]);
	m->src[best].pos++;
	return src_fill(&m->src[best]) ? -EIO : 1;
}

/* ---- spilling ----------------------------------------------------------------------------- */

static int write_run(FILE *f, const struct trace_extent *v, size_t nr)
{
	return fwrite(v, sizeof(*v), nr, f) == nr ? 0 : -EIO;
}

/* Merges every run (not the set) into one new run. */
static int runs_compact(struct trace_extents *e)
{
	struct trace_extents only = *e;
	struct trace_extent cur = { 0 }, x;
	struct ext_merge m;
	bool has_cur = false;
	uint64_t nr_out = 0;
	FILE *out = tmpfile();
	int ret;

	if (!out)
		return -EIO;
	only.nr_set = 0;
	ret = merge_open(&m, &only);
	while (ret == 0 && (ret = merge_next(&m, &x)) > 0) {
		ret = 0;
		if (has_cur && x.start <= cur.end) {
			if (x.end > cur.end)
				cur.end = x.end;
			continue;
		}
		if (has_cur && write_run(out, &cur, 1)) {
			ret = -EIO;
			break;
		}
		nr_out += has_cur;
		cur = x;
		has_cur = true;
	}
	if (!ret && has_cur) {
		ret = write_run(out, &cur, 1);
		nr_out++;
	}
	merge_close(&m);
	if (ret || fflush(out)) {
		fclose(out);
		return ret ? ret : -EIO;
	}
	for (size_t i = 0; i < e->nr_runs; i++)
		fclose(e->runs[i]);
	e->runs[0] = out;
	e->nr_runs = 1;
	e->nr_spilled = nr_out;
	return 0;
}

/* The set goes to a new run and memory is free again; without a temporary file, the grain. */
static int extents_spill(struct trace_extents *e)
{
	FILE *f;

	if (e->nr_runs == TRACE_EXTENT_MAX_RUNS && runs_compact(e))
		goto coarsen;
	f = tmpfile();
	if (!f)
		goto coarsen;
	if (write_run(f, e->set, e->nr_set) || fflush(f)) {
		fclose(f);
		goto coarsen;
	}
	e->runs[e->nr_runs++] = f;
	e->nr_spilled += e->nr_set;
	e->nr_set = 0;
	return 0;
coarsen:
	extents_coarsen(e);
	return 0;
}

int trace_extents_merge(struct trace_extents *e)
{
	struct trace_extent *out;
	size_t i = 0, j = 0, nr = 0;

	if (!e->nr_pending)
		return 0;
	qsort(e->pending, e->nr_pending, sizeof(*e->pending), cmp_extent);
	out = malloc((e->nr_set + e->nr_pending) * sizeof(*out));
	if (!out)
		return -ENOMEM;
	while (i < e->nr_set || j < e->nr_pending) {
		bool take_set = j == e->nr_pending ||
				(i < e->nr_set && e->set[i].start <= e->pending[j].start);

		sweep_put(out, &nr, take_set ? e->set[i++] : e->pending[j++]);
	}
	free(e->set);
	e->set = out;
	e->nr_set = nr;
	e->nr_pending = 0;
	if (nr > e->max_extents)
		return extents_spill(e);
	return 0;
}

/* Room for one more pending extent: merges when the buffer is at its size for this set
 * (a quarter of the set, at least 4096, so merging costs O(1) amortized per add). */
static int extents_reserve(struct trace_extents *e)
{
	size_t limit =
		e->nr_set / 4 > EXT_MAX_PENDING_FLOOR ? e->nr_set / 4 : EXT_MAX_PENDING_FLOOR;
	struct trace_extent *p;
	size_t cap;

	if (e->nr_pending < e->cap_pending)
		return 0;
	if (e->cap_pending >= limit)
		return trace_extents_merge(e);
	cap = e->cap_pending ? 2 * e->cap_pending : EXT_MIN_PENDING;
	p = realloc(e->pending, cap * sizeof(*p));
	if (!p)
		return -ENOMEM;
	e->pending = p;
	e->cap_pending = cap;
	return 0;
}

int trace_extents_add(struct trace_extents *e, uint64_t start, uint64_t end)
{
	struct trace_extent x;
	int ret;

	if (end <= start)
		return 0;
	x = round_out((struct trace_extent){ start, end }, e->grain_bytes);
	if (e->nr_pending) { /* a sequential stream keeps growing one extent */
		struct trace_extent *last = &e->pending[e->nr_pending - 1];

		if (x.start == last->end || (x.start >= last->start && x.start <= last->end)) {
			if (x.end > last->end)
				last->end = x.end;
			return 0;
		}
	}
	ret = extents_reserve(e);
	if (ret < 0)
		return ret;
	e->pending[e->nr_pending++] = x;
	return 0;
}

int trace_extents_bytes(const struct trace_extents *e, uint64_t grain_bytes, uint64_t *out)
{
	uint64_t total = 0, cur_start = 0, cur_end = 0;
	bool has_cur = false;
	struct trace_extent x;
	struct ext_merge m;
	int ret = merge_open(&m, e);

	while (ret == 0 && (ret = merge_next(&m, &x)) > 0) {
		ret = 0;
		x = round_out(x, grain_bytes);
		if (has_cur && x.start <= cur_end) {
			if (x.end > cur_end)
				cur_end = x.end;
			continue;
		}
		if (has_cur)
			total += cur_end - cur_start;
		cur_start = x.start;
		cur_end = x.end;
		has_cur = true;
	}
	merge_close(&m);
	*out = has_cur ? total + cur_end - cur_start : total;
	return ret;
}

void trace_extents_fini(struct trace_extents *e)
{
	free(e->set);
	free(e->pending);
	for (size_t i = 0; i < e->nr_runs; i++)
		fclose(e->runs[i]);
	memset(e, 0, sizeof(*e));
}
