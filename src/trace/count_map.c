/* Counting hash map (see count_map.h): Fibonacci hashing, linear probing, load kept <= 1/2. */
#include "count_map.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t cmap_slot(const struct trace_cmap *m, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (m->cap - 1);
}

static void cmap_put(struct trace_cmap *m, uint64_t key, uint64_t n)
{
	size_t i = cmap_slot(m, key);

	while (m->keys[i] && m->keys[i] != key + 1)
		i = (i + 1) & (m->cap - 1);
	if (!m->keys[i]) {
		m->keys[i] = key + 1;
		m->nr++;
	}
	m->vals[i] += n;
}

/* Moves every entry of m into a fresh table of cap slots, keys shifted right by shift. */
static int cmap_rebuild(struct trace_cmap *m, size_t cap, unsigned int shift)
{
	struct trace_cmap fresh = { .cap = cap };

	fresh.keys = calloc(cap, sizeof(*fresh.keys));
	fresh.vals = calloc(cap, sizeof(*fresh.vals));
	if (!fresh.keys || !fresh.vals) {
		free(fresh.keys);
		free(fresh.vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i])
			cmap_put(&fresh, (m->keys[i] - 1) >> shift, m->vals[i]);
	free(m->keys);
	free(m->vals);
	*m = fresh;
	return 0;
}

int trace_cmap_add(struct trace_cmap *m, uint64_t key, uint64_t n)
{
	int ret;

	if (2 * (m->nr + 1) > m->cap) {
		ret = cmap_rebuild(m, m->cap ? 2 * m->cap : 16, 0);
		if (ret < 0)
			return ret;
	}
	cmap_put(m, key, n);
	return 0;
}

uint64_t *trace_cmap_get(const struct trace_cmap *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = cmap_slot(m, key); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key + 1)
			return &m->vals[i];
	return NULL;
}

int trace_cmap_fold(struct trace_cmap *m, unsigned int shift)
{
	if (!m->cap)
		return 0;
	return cmap_rebuild(m, m->cap, shift);
}

void trace_cmap_fini(struct trace_cmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
