/* Footprint extents (see extents.h): append, then sort and sweep into the sorted set. */
#include "extents.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	EXT_MIN_PENDING = 64,
	EXT_MAX_PENDING_FLOOR = 4096,
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

/* Doubles the grain until the set holds at most half of max_extents. */
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
		extents_coarsen(e);
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

uint64_t trace_extents_bytes(const struct trace_extents *e, uint64_t grain_bytes)
{
	uint64_t total = 0, cur_start = 0, cur_end = 0;
	bool has_cur = false;

	for (size_t i = 0; i < e->nr_set; i++) {
		struct trace_extent x = round_out(e->set[i], grain_bytes);

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
	return has_cur ? total + cur_end - cur_start : total;
}

void trace_extents_fini(struct trace_extents *e)
{
	free(e->set);
	free(e->pending);
	memset(e, 0, sizeof(*e));
}
