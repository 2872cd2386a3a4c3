/* The key map of an SD: one byte per key block and one busy bit (reference §12.1, "Allocating
 * Data Validation map: n one-byte entries for each b-byte block"). */
#include "ioramp/dv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int dv_map_init(struct dv_map *m, uint64_t size_bytes, uint32_t block_bytes, uint64_t salt)
{
	memset(m, 0, sizeof(*m));
	if (!block_bytes || block_bytes % DV_SECTOR_BYTES)
		return -EINVAL;
	m->block_bytes = block_bytes;
	m->nr_blocks = size_bytes / block_bytes;
	m->salt = salt;
	m->keys = calloc(m->nr_blocks ? m->nr_blocks : 1, 1);
	m->busy = calloc(m->nr_blocks / 64 + 1, sizeof(*m->busy));
	if (!m->keys || !m->busy) {
		dv_map_fini(m);
		return -ENOMEM;
	}
	return 0;
}

void dv_map_fini(struct dv_map *m)
{
	free(m->keys);
	free(m->busy);
	memset(m, 0, sizeof(*m));
}

uint64_t dv_map_nr_known(const struct dv_map *m)
{
	uint64_t n = 0;

	for (uint64_t b = 0; b < m->nr_blocks; b++)
		n += dv_key_is_known(m->keys[b]);
	return n;
}
