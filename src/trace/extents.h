/* The set of byte ranges a device's I/Os touched, for the footprint: a sorted array of
 * disjoint extents plus a buffer of new ones merged in by sort-and-sweep, so memory is the
 * number of disjoint extents, not of I/Os. Past max_extents the sorted array goes to a
 * temporary file as one sorted run (several runs are merged into one when they pile up), so
 * memory stays bounded and the footprint stays exact whatever the number of extents; only
 * when no temporary file can be made are the extents rounded outward to a doubling grain
 * (the footprint then overstates, by less than one grain per extent). */
#ifndef IORAMP_TRACE_EXTENTS_H
#define IORAMP_TRACE_EXTENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct trace_extent {
	uint64_t start, end; /* [start, end) in bytes */
};

enum {
	TRACE_EXTENT_MAX_RUNS = 8, /* spilled runs before they are merged into one */
};

struct trace_extents {
	struct trace_extent *set; /* sorted, disjoint, not touching */
	size_t nr_set;
	struct trace_extent *pending; /* not yet merged, any order */
	size_t nr_pending, cap_pending;
	FILE *runs[TRACE_EXTENT_MAX_RUNS]; /* sorted, disjoint within each run */
	size_t nr_runs;
	uint64_t nr_spilled;  /* extents in the runs */
	uint64_t grain_bytes; /* 1 while exact */
	size_t max_extents;
};

/* An empty set that keeps at most max_extents disjoint extents in memory. */
void trace_extents_init(struct trace_extents *e, size_t max_extents);

/* Adds [start, end). Returns 0, -ENOMEM, or -EIO when a spilled run cannot be written. */
int trace_extents_add(struct trace_extents *e, uint64_t start, uint64_t end);

/* Merges the pending extents into the set. Returns 0, -ENOMEM or -EIO. */
int trace_extents_merge(struct trace_extents *e);

/* Bytes covered by the set and its runs (after a merge) with every extent rounded outward to
 * grain_bytes (a power of two; 1 for exact bytes), blocks shared by neighbours counted once.
 * Returns 0 with *out set, or -ENOMEM / -EIO reading the runs back. */
int trace_extents_bytes(const struct trace_extents *e, uint64_t grain_bytes, uint64_t *out);

void trace_extents_fini(struct trace_extents *e);

#endif /* IORAMP_TRACE_EXTENTS_H */
