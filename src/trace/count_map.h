/* Counting hash map from 64-bit keys (below UINT64_MAX) to 64-bit counts, open addressing
 * with linear probing. The statistics use it for exact transfer sizes, 1 MiB regions and
 * device numbers; fold() coarsens keys (key >> 1) to keep a map within a bound. */
#ifndef IORAMP_TRACE_COUNT_MAP_H
#define IORAMP_TRACE_COUNT_MAP_H

#include <stddef.h>
#include <stdint.h>

struct trace_cmap {
	uint64_t *keys; /* key + 1; 0 marks an empty slot */
	uint64_t *vals;
	size_t cap; /* a power of two, or 0 before the first add */
	size_t nr;
};

/* Adds n to key's count (creating it at 0 first). Returns 0 or -ENOMEM. */
int trace_cmap_add(struct trace_cmap *m, uint64_t key, uint64_t n);

/* The slot of key, or NULL. */
uint64_t *trace_cmap_get(const struct trace_cmap *m, uint64_t key);

/* Rebuilds the map with every key shifted right by shift, adding the counts of keys that
 * meet. Returns 0 or -ENOMEM (the map is unchanged then). */
int trace_cmap_fold(struct trace_cmap *m, unsigned int shift);

/* Frees; the map may be reused as empty afterwards. Accepts a zeroed map. */
void trace_cmap_fini(struct trace_cmap *m);

#endif /* IORAMP_TRACE_COUNT_MAP_H */
