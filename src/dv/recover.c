/* The recovery pass of -jr and -jro (reference §12.2): every write that was in flight at the
 * crash is resolved to the content its blocks hold (old or new key; a torn write leaves the
 * block unknown), then every key block the map knows is read and checked (unless
 * journal=skip_read_all). Plain pread on the
 * SD's descriptor, in aligned chunks: this runs before any workload, on the main thread. */
#include "ioramp/dv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	RECOVER_CHUNK_BYTES = 1 << 20,
	RECOVER_ALIGN = 4096, /* O_DIRECT buffers */
};

/* Reads len bytes at off; what lies beyond the end of the file reads as zeros (a block the
 * file lost is then reported, not skipped). */
static int read_block(int fd, uint8_t *buf, size_t len, uint64_t off)
{
	size_t done;
	int ret = dv_read_full(fd, buf, len, off, &done);

	if (ret)
		return ret;
	memset(buf + done, 0, len - done);
	return 0;
}

struct pass {
	int fd;
	struct dv_map *map;
	const struct dv_id *id;
	dv_error_fn *on_error;
	void *ctx;
	struct dv_validate_result *res;
	uint8_t *buf;
	bool is_stopped;
};

/* The key a block was last written with, whether or not it was found in error since. */
static uint8_t key_of(const struct dv_map *m, uint64_t block)
{
	return m->keys[block] & (uint8_t)~DV_KEY_ERROR;
}

static void found_bad(struct pass *p, uint64_t block, uint8_t key, const struct dv_mismatch *m)
{
	p->map->keys[block] = key | DV_KEY_ERROR;
	p->res->nr_errors++;
	if (!p->on_error(p->ctx, m))
		p->is_stopped = true;
}

/* A write in flight at the crash: whichever content the block holds becomes its key. */
static int resolve_one(struct pass *p, const struct dv_pending *w)
{
	uint32_t bb = p->map->block_bytes;
	uint8_t old_key = key_of(p->map, w->block);
	struct dv_mismatch m;
	int ret;

	if (!dv_key_is_known(w->new_key)) { /* a write of unknown content: nothing to expect */
		p->map->keys[w->block] = 0;
		return 0;
	}
	ret = read_block(p->fd, p->buf, bb, w->block * bb);
	if (ret)
		return ret;
	p->res->nr_validated++;
	switch (dv_check_either(p->buf, w->block * bb, bb, old_key, w->new_key, p->id, &m)) {
	case DV_EITHER_NEW:
		p->map->keys[w->block] = w->new_key;
		break;
	case DV_EITHER_OLD:
		p->map->keys[w->block] = old_key; /* as its last write left it: not in error */
		break;
	case DV_EITHER_MIXED:
		p->map->keys[w->block] = 0; /* torn: rewritten before it is validated again */
		p->res->nr_torn++;
		break;
	case DV_EITHER_BAD: /* m compares it with the new key: that is the one it keeps */
		found_bad(p, w->block, w->new_key, &m);
		break;
	}
	return 0;
}

static int resolve_pending(struct pass *p, const struct dv_pending *pending, size_t nr,
			   bool is_ignore)
{
	for (size_t i = 0; i < nr && !p->is_stopped; i++) {
		int ret;

		if (pending[i].block >= p->map->nr_blocks)
			continue;
		dv_map_set_busy(p->map, pending[i].block, 1, true); /* done: the pass skips it */
		if (is_ignore) {
			p->map->keys[pending[i].block] = 0;
			continue;
		}
		ret = resolve_one(p, &pending[i]);
		if (ret) {
			p->res->io_error = ret;
			p->res->io_error_offset_bytes = pending[i].block * p->map->block_bytes;
			return ret;
		}
	}
	return 0;
}

static bool chunk_has_work(const struct dv_map *m, uint64_t first, uint64_t nr)
{
	for (uint64_t b = first; b < first + nr; b++)
		if (dv_key_is_known(key_of(m, b)) && !dv_map_is_busy(m, b, 1))
			return true;
	return false;
}

static int check_all(struct pass *p)
{
	struct dv_map *map = p->map;
	uint32_t bb = map->block_bytes;
	uint64_t per_chunk = RECOVER_CHUNK_BYTES / bb ? RECOVER_CHUNK_BYTES / bb : 1;

	for (uint64_t c = 0; c < map->nr_blocks && !p->is_stopped; c += per_chunk) {
		uint64_t nr = map->nr_blocks - c < per_chunk ? map->nr_blocks - c : per_chunk;
		int ret;

		if (!chunk_has_work(map, c, nr))
			continue;
		ret = read_block(p->fd, p->buf, nr * bb, c * bb);
		if (ret) {
			p->res->io_error = ret;
			p->res->io_error_offset_bytes = c * bb;
			return ret;
		}
		for (uint64_t b = c; b < c + nr && !p->is_stopped; b++) {
			struct dv_mismatch m;

			uint8_t key = key_of(map, b);

			if (!dv_key_is_known(key) || dv_map_is_busy(map, b, 1))
				continue;
			p->res->nr_validated++;
			if (dv_check(p->buf + (b - c) * bb, b * bb, bb, key, p->id, &m))
				found_bad(p, b, key, &m);
			else /* holds its last write (again): not, or no longer, in error */
				map->keys[b] = key;
		}
	}
	return 0;
}

int dv_validate_all(int fd, struct dv_map *map, const struct dv_id *id,
		    const struct dv_pending *pending, size_t nr_pending, unsigned int flags,
		    dv_error_fn *on_error, void *ctx, struct dv_validate_result *res)
{
	size_t len =
		RECOVER_CHUNK_BYTES > map->block_bytes ? RECOVER_CHUNK_BYTES : map->block_bytes;
	struct pass p = {
		.fd = fd,
		.map = map,
		.id = id,
		.on_error = on_error,
		.ctx = ctx,
		.res = res,
	};

	memset(res, 0, sizeof(*res));
	p.buf = aligned_alloc(RECOVER_ALIGN,
			      (len + RECOVER_ALIGN - 1) / RECOVER_ALIGN * RECOVER_ALIGN);
	if (!p.buf)
		return -ENOMEM;
	if (!resolve_pending(&p, pending, nr_pending, flags & DV_VALIDATE_IGNORE_PENDING) &&
	    !(flags & DV_VALIDATE_PENDING_ONLY))
		check_all(&p);
	dv_map_set_busy(map, 0, map->nr_blocks, false);
	free(p.buf);
	return 0;
}
