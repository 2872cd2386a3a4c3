/* The journal of an SD (reference §12.2): <sd>.jnl holds a header, the key map as of the last
 * checkpoint, then 512-byte records of entries written before and after every write; <sd>.map is
 * a backup copy of header and map. A checkpoint writes a whole new file and renames it into
 * place, so a crash at any moment leaves a journal that describes the data. Not VDbench's byte
 * layout: an ioramp journal is read by ioramp. */
#include "ioramp/dv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "ioramp/compiler.h"
#include "sector.h"

#define JNL_MAGIC "IORAMPJ1"

enum {
	JNL_VERSION = 1,
	JNL_BLOCK = 512,
	JNL_REC_MAGIC = 0x524a5249, /* "IRJR" */
	JNL_REC_HEAD = 32,
	JNL_PER_REC = (JNL_BLOCK - JNL_REC_HEAD) / 8,
	JNL_QUEUE_RECS = 64, /* entries queued before a flush is forced: 64 records' worth */
	JNL_READ_RECS = 128, /* records read at a time when replaying */
};

/* Header (block 0), little-endian: magic[8], version u32, crc u32 (of the block with crc 0),
 * generation u64, nr_blocks u64, block_bytes u32, owner u32, sd name[16], map crc u32, pad u32,
 * records offset u64. The map follows at 512; records start at the next 512-byte boundary.
 * Record: magic u32, crc u32, generation u64, seq u64, nr u32, pad u32, then nr entries u64:
 * block (bits 0-47), key (48-55), type (56-63). */
struct jnl_head {
	uint64_t generation;
	uint64_t nr_blocks;
	uint32_t block_bytes;
	uint32_t owner;
	char sd_name[16];
	uint32_t map_crc;
	uint64_t records_offset;
};

struct dv_journal {
	char path[4096];
	char map_path[4096];
	char sd_name[16];
	uint32_t owner;
	int fd;
	bool is_flush;
	bool is_maponly;
	uint64_t generation;
	uint64_t records_offset;
	uint64_t nr_records;
	uint64_t queue[JNL_QUEUE_RECS * JNL_PER_REC];
	uint32_t nr_queued;
	uint8_t recs[JNL_QUEUE_RECS * JNL_BLOCK];
	/* journal=max=N only: the map to write when clearing, each block's BEFORE waiting for its
	 * AFTER (0x80 | key) and the image buffer, allocated up front (the worker clears) */
	uint64_t max_bytes;
	const struct dv_map *map;
	uint8_t *pend;
	uint8_t *img;
	uint64_t nr_clears;
};

static int jnl_errf(char *err, size_t errlen, int ret, const char *fmt, ...) IORAMP_PRINTF(4, 5);

static int jnl_errf(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

static void put64(uint8_t *p, uint64_t v)
{
	dv_put32(p, (uint32_t)v);
	dv_put32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t get64(const uint8_t *p)
{
	return dv_get32(p) | (uint64_t)dv_get32(p + 4) << 32;
}

static uint32_t crc_of(const uint8_t *p, size_t len)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	while (len) { /* zlib takes uInt lengths */
		uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;

		crc = crc32(crc, p, n);
		p += n;
		len -= n;
	}
	return (uint32_t)crc;
}

static int paths(const struct dv_journal_cfg *cfg, const char *ext, char *out, size_t len)
{
	const char *dir = cfg->dir && cfg->dir[0] ? cfg->dir : ".";

	if (snprintf(out, len, "%s/%s.%s", dir, cfg->sd_name, ext) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

static uint64_t records_offset(uint64_t nr_blocks)
{
	return JNL_BLOCK + (nr_blocks + JNL_BLOCK - 1) / JNL_BLOCK * JNL_BLOCK;
}

/* Header and map as one image into img (records_offset(map->nr_blocks) bytes). */
static void image_fill(uint8_t *img, const struct dv_map *map, const char *sd_name, uint32_t owner,
		       uint64_t generation)
{
	uint64_t off = records_offset(map->nr_blocks);

	memset(img, 0, off);
	memcpy(img, JNL_MAGIC, 8);
	dv_put32(img + 8, JNL_VERSION);
	put64(img + 16, generation);
	put64(img + 24, map->nr_blocks);
	dv_put32(img + 32, map->block_bytes);
	dv_put32(img + 36, owner);
	snprintf((char *)img + 40, 16, "%s", sd_name);
	memcpy(img + JNL_BLOCK, map->keys, map->nr_blocks);
	dv_put32(img + 56, crc_of(map->keys, map->nr_blocks));
	put64(img + 64, off);
	dv_put32(img + 12, crc_of(img, JNL_BLOCK));
}

int dv_write_full(int fd, const void *buf, size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* The directory of path, made durable after a rename into it. */
static int sync_dir(const char *path)
{
	char dir[4096];
	char *slash;
	int fd, ret = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* img to path through path.tmp: written, made durable, renamed. */
static int replace_file(const char *path, const uint8_t *img, size_t len)
{
	char tmp[4200];
	int fd, ret;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = dv_write_full(fd, img, len, 0);
	if (!ret && fdatasync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret ? ret : sync_dir(path);
}

static uint64_t new_generation(const struct dv_journal *old)
{
	struct timespec ts;
	uint64_t g;

	clock_gettime(CLOCK_REALTIME, &ts);
	g = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return old && g <= old->generation ? old->generation + 1 : g;
}

/* The journal's file as image img holds it: .jnl and .map replaced, .jnl open for records. */
static int journal_replace(struct dv_journal *j, const uint8_t *img, size_t len, char *err,
			   size_t errlen)
{
	int ret;

	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	ret = replace_file(j->path, img, len);
	if (ret)
		return jnl_errf(err, errlen, ret, "%s: cannot write: %s", j->path, strerror(-ret));
	ret = replace_file(j->map_path, img, len);
	if (ret)
		return jnl_errf(err, errlen, ret, "%s: cannot write: %s", j->map_path,
				strerror(-ret));
	j->fd = open(j->path, O_WRONLY | O_CLOEXEC | (j->is_flush ? O_DSYNC : 0));
	if (j->fd < 0) {
		ret = -errno;
		return jnl_errf(err, errlen, ret, "%s: cannot open: %s", j->path, strerror(-ret));
	}
	return 0;
}

/* A new journal object for cfg (paths, names, and with max_bytes its buffers). */
static int journal_new(struct dv_journal **jp, const struct dv_journal_cfg *cfg,
		       const struct dv_map *map, char *err, size_t errlen)
{
	struct dv_journal *j = calloc(1, sizeof(*j));

	if (!j)
		return jnl_errf(err, errlen, -ENOMEM, "out of memory");
	j->fd = -1;
	if (paths(cfg, "jnl", j->path, sizeof(j->path)) ||
	    paths(cfg, "map", j->map_path, sizeof(j->map_path))) {
		free(j);
		return jnl_errf(err, errlen, -ENAMETOOLONG, "journal=%s: path too long",
				cfg->dir ? cfg->dir : ".");
	}
	snprintf(j->sd_name, sizeof(j->sd_name), "%s", cfg->sd_name);
	j->owner = cfg->owner;
	j->is_maponly = cfg->is_maponly;
	j->max_bytes = cfg->max_bytes;
	if (j->max_bytes) {
		j->map = map;
		j->pend = calloc(map->nr_blocks ? map->nr_blocks : 1, 1);
		j->img = malloc(records_offset(map->nr_blocks));
		if (!j->pend || !j->img) {
			dv_journal_close(j);
			return jnl_errf(err, errlen, -ENOMEM, "out of memory");
		}
	}
	*jp = j;
	return 0;
}

int dv_journal_write(struct dv_journal **jp, const struct dv_journal_cfg *cfg,
		     const struct dv_map *map, char *err, size_t errlen)
{
	struct dv_journal *j = *jp;
	uint8_t *img;
	size_t len = records_offset(map->nr_blocks);
	int ret;

	if (!j) {
		ret = journal_new(jp, cfg, map, err, errlen);
		if (ret)
			return ret;
		j = *jp;
	}
	j->is_flush = cfg->is_flush;
	j->is_maponly = cfg->is_maponly;
	j->owner = cfg->owner;
	j->generation = new_generation(j);
	j->records_offset = len;
	j->nr_records = 0;
	j->nr_queued = 0;
	img = j->img ? j->img : malloc(len);
	if (!img)
		return jnl_errf(err, errlen, -ENOMEM, "%s: out of memory", j->path);
	image_fill(img, map, j->sd_name, j->owner, j->generation);
	ret = journal_replace(j, img, len, err, errlen);
	if (img != j->img)
		free(img);
	return ret;
}

bool dv_journal_has_queued(const struct dv_journal *j)
{
	return j->nr_queued != 0;
}

uint64_t dv_journal_nr_records(const struct dv_journal *j)
{
	return j ? j->nr_records : 0;
}

uint64_t dv_journal_nr_clears(const struct dv_journal *j)
{
	return j ? j->nr_clears : 0;
}

/* nr entries (at most the queue's size) as records at the end of the journal, in one write
 * (made durable unless noflush). */
static int write_entries(struct dv_journal *j, const uint64_t *entries, uint32_t nr_entries)
{
	uint32_t nr_recs = (nr_entries + JNL_PER_REC - 1) / JNL_PER_REC;
	int ret;

	memset(j->recs, 0, (size_t)nr_recs * JNL_BLOCK);
	for (uint32_t r = 0; r < nr_recs; r++) {
		uint8_t *rec = j->recs + (size_t)r * JNL_BLOCK;
		uint32_t first = r * JNL_PER_REC;
		uint32_t nr = nr_entries - first < JNL_PER_REC ? nr_entries - first : JNL_PER_REC;

		dv_put32(rec, JNL_REC_MAGIC);
		put64(rec + 8, j->generation);
		put64(rec + 16, j->nr_records + r);
		dv_put32(rec + 24, nr);
		for (uint32_t i = 0; i < nr; i++)
			put64(rec + JNL_REC_HEAD + 8 * i, entries[first + i]);
		dv_put32(rec + 4, crc_of(rec, JNL_BLOCK));
	}
	/* one write for the batch; O_DSYNC makes it durable before it returns */
	ret = dv_write_full(j->fd, j->recs, (size_t)nr_recs * JNL_BLOCK,
			    j->records_offset + j->nr_records * JNL_BLOCK);
	if (ret)
		return ret;
	j->nr_records += nr_recs;
	return 0;
}

static uint64_t entry(enum dv_jtype type, uint64_t block, uint8_t key)
{
	return (block & 0xffffffffffffull) | (uint64_t)key << 48 | (uint64_t)type << 56;
}

/* journal=max=N reached: a checkpoint of the map as it is now (every AFTER queued is in it),
 * then a BEFORE again for each write still in flight; the queue is then not needed. */
static int journal_clear(struct dv_journal *j)
{
	char err[64];
	uint32_t n = 0;
	int ret;

	j->generation = new_generation(j);
	j->nr_records = 0;
	j->nr_queued = 0;
	image_fill(j->img, j->map, j->sd_name, j->owner, j->generation);
	ret = journal_replace(j, j->img, j->records_offset, err, sizeof(err));
	if (ret)
		return ret;
	j->nr_clears++;
	for (uint64_t b = 0; b < j->map->nr_blocks; b++) {
		if (!j->pend[b])
			continue;
		j->queue[n++] = entry(DV_J_BEFORE, b, j->pend[b] & 0x7f);
		if (n == IORAMP_ARRAY_SIZE(j->queue)) {
			ret = write_entries(j, j->queue, n);
			if (ret)
				return ret;
			n = 0;
		}
	}
	return n ? write_entries(j, j->queue, n) : 0;
}

int dv_journal_flush(struct dv_journal *j)
{
	uint64_t nr_recs = (j->nr_queued + JNL_PER_REC - 1) / JNL_PER_REC;
	int ret;

	if (!j->nr_queued)
		return 0;
	if (j->max_bytes && j->nr_records &&
	    j->records_offset + (j->nr_records + nr_recs) * JNL_BLOCK > j->max_bytes)
		return journal_clear(j);
	ret = write_entries(j, j->queue, j->nr_queued);
	if (ret)
		return ret;
	j->nr_queued = 0;
	return 0;
}

int dv_journal_add(struct dv_journal *j, enum dv_jtype type, uint64_t block, uint8_t key)
{
	if (j->is_maponly)
		return 0; /* journal=maponly: the map is written at checkpoints only */
	if (j->nr_queued == IORAMP_ARRAY_SIZE(j->queue)) {
		int ret = dv_journal_flush(j);

		if (ret)
			return ret;
	}
	if (j->pend && block < j->map->nr_blocks)
		j->pend[block] = type == DV_J_BEFORE ? (uint8_t)(0x80 | key) : 0;
	j->queue[j->nr_queued++] = entry(type, block, key);
	return 0;
}

void dv_journal_close(struct dv_journal *j)
{
	if (!j)
		return;
	if (j->fd >= 0)
		close(j->fd);
	free(j->pend);
	free(j->img);
	free(j);
}

/* ---- loading --------------------------------------------------------------------------- */

int dv_read_full(int fd, uint8_t *p, size_t len, uint64_t off, size_t *got)
{
	*got = 0;
	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
		*got += (size_t)n;
	}
	return 0;
}

/* Reads and checks header and map of an open journal or backup. 0, -EINVAL (damaged, with
 * err), -EMEDIUMTYPE (another geometry, with err) or -errno. */
static int load_image(int fd, const char *path, struct dv_map *map, struct jnl_head *h, char *err,
		      size_t errlen)
{
	uint8_t blk[JNL_BLOCK];
	size_t got;
	int ret = dv_read_full(fd, blk, sizeof(blk), 0, &got);

	if (ret)
		return jnl_errf(err, errlen, ret, "%s: cannot read: %s", path, strerror(-ret));
	if (got < sizeof(blk) || memcmp(blk, JNL_MAGIC, 8) || dv_get32(blk + 8) != JNL_VERSION)
		return jnl_errf(err, errlen, -EINVAL, "%s: not an ioramp journal", path);
	h->generation = get64(blk + 16);
	h->nr_blocks = get64(blk + 24);
	h->block_bytes = dv_get32(blk + 32);
	h->owner = dv_get32(blk + 36);
	memcpy(h->sd_name, blk + 40, 16);
	h->sd_name[15] = '\0';
	h->map_crc = dv_get32(blk + 56);
	h->records_offset = get64(blk + 64);
	{
		uint32_t crc = dv_get32(blk + 12);

		dv_put32(blk + 12, 0);
		if (crc != crc_of(blk, sizeof(blk)))
			return jnl_errf(err, errlen, -EINVAL, "%s: damaged header", path);
	}
	if (h->nr_blocks != map->nr_blocks || h->block_bytes != map->block_bytes)
		return jnl_errf(err, errlen, -EMEDIUMTYPE,
				"%s: written for %llu key blocks of %u bytes; this execution has "
				"%llu of %u bytes (same SD size and smallest xfersize expected)",
				path, (unsigned long long)h->nr_blocks, h->block_bytes,
				(unsigned long long)map->nr_blocks, map->block_bytes);
	ret = dv_read_full(fd, map->keys, map->nr_blocks, JNL_BLOCK, &got);
	if (ret)
		return jnl_errf(err, errlen, ret, "%s: cannot read: %s", path, strerror(-ret));
	if (got < map->nr_blocks || crc_of(map->keys, map->nr_blocks) != h->map_crc)
		return jnl_errf(err, errlen, -EINVAL, "%s: damaged map", path);
	return 0;
}

/* Pending writes while replaying: bit 8 set = a BEFORE without AFTER, low byte its key. */
static void apply(struct dv_map *map, uint16_t *pend, uint64_t e, struct dv_recovered *r)
{
	uint64_t block = e & 0xffffffffffffull;
	uint8_t key = (uint8_t)(e >> 48);
	uint8_t type = (uint8_t)(e >> 56);

	if (block >= map->nr_blocks)
		return;
	if (type == DV_J_BEFORE) {
		/* never two BEFOREs without an AFTER in one journal; if so, trust nothing */
		if (pend[block])
			map->keys[block] = 0;
		pend[block] = (uint16_t)(0x100 | key);
		r->nr_before++;
	} else if (type == DV_J_AFTER) {
		map->keys[block] = key;
		pend[block] = 0;
		r->nr_after++;
	}
}

/* Applies the records after the map, up to the first that is missing, damaged or of another
 * generation (a record torn by the crash ends the journal). */
static int replay(int fd, const struct jnl_head *h, struct dv_map *map, uint16_t *pend,
		  struct dv_recovered *r)
{
	uint8_t *buf = malloc((size_t)JNL_READ_RECS * JNL_BLOCK);
	uint64_t seq = 0;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		size_t got;
		uint32_t i, nr;

		ret = dv_read_full(fd, buf, (size_t)JNL_READ_RECS * JNL_BLOCK,
				   h->records_offset + seq * JNL_BLOCK, &got);
		if (ret || got < JNL_BLOCK)
			break;
		nr = (uint32_t)(got / JNL_BLOCK);
		for (i = 0; i < nr; i++) {
			uint8_t *rec = buf + (size_t)i * JNL_BLOCK;
			uint32_t crc = dv_get32(rec + 4), n = dv_get32(rec + 24);

			dv_put32(rec + 4, 0);
			if (dv_get32(rec) != JNL_REC_MAGIC || crc != crc_of(rec, JNL_BLOCK) ||
			    get64(rec + 8) != h->generation || get64(rec + 16) != seq ||
			    n > JNL_PER_REC)
				break;
			for (uint32_t k = 0; k < n; k++)
				apply(map, pend, get64(rec + JNL_REC_HEAD + 8 * k), r);
			seq++;
			r->nr_records++;
		}
		if (i < nr || got < (size_t)JNL_READ_RECS * JNL_BLOCK)
			break;
	}
	free(buf);
	return ret;
}

static int collect_pending(const struct dv_map *map, const uint16_t *pend, struct dv_recovered *r)
{
	size_t n = 0;

	for (uint64_t b = 0; b < map->nr_blocks; b++)
		n += pend[b] != 0;
	r->pending = calloc(n ? n : 1, sizeof(*r->pending));
	if (!r->pending)
		return -ENOMEM;
	for (uint64_t b = 0; b < map->nr_blocks; b++)
		if (pend[b])
			r->pending[r->nr_pending++] = (struct dv_pending){
				.block = b,
				.old_key = map->keys[b],
				.new_key = (uint8_t)pend[b],
			};
	return 0;
}

/* Opens and loads path; -ENOENT when it does not exist. */
static int load_one(const char *path, struct dv_map *map, struct jnl_head *h, int *fdp, char *err,
		    size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0) {
		ret = -errno;
		return jnl_errf(err, errlen, ret, "%s: cannot open: %s", path, strerror(-ret));
	}
	ret = load_image(fd, path, map, h, err, errlen);
	if (ret) {
		close(fd);
		return ret;
	}
	*fdp = fd;
	return 0;
}

int dv_journal_load(const struct dv_journal_cfg *cfg, struct dv_map *map, struct dv_recovered *r,
		    char *err, size_t errlen)
{
	char path[4096], map_path[4096], first[512], second[512];
	struct jnl_head h;
	uint16_t *pend;
	int fd = -1, ret;

	memset(r, 0, sizeof(*r));
	if (paths(cfg, "jnl", path, sizeof(path)) || paths(cfg, "map", map_path, sizeof(map_path)))
		return jnl_errf(err, errlen, -ENAMETOOLONG, "journal=%s: path too long",
				cfg->dir ? cfg->dir : ".");
	ret = load_one(path, map, &h, &fd, first, sizeof(first));
	if (ret == -EMEDIUMTYPE)
		return jnl_errf(err, errlen, -EINVAL, "%s", first);
	if (ret) {
		/* the backup holds the map of the last checkpoint, without the records after it */
		int bret = load_one(map_path, map, &h, &fd, second, sizeof(second));

		if (bret == -ENOENT && ret == -ENOENT)
			return jnl_errf(err, errlen, -ENOENT,
					"%s: no journal; expected one from an earlier run with -j",
					path);
		if (bret)
			return jnl_errf(err, errlen, bret == -EMEDIUMTYPE ? -EINVAL : bret,
					"%s; backup %s", first,
					second); /* not err: it is the output */
		r->is_from_backup = true;
	}
	if (strcmp(h.sd_name, cfg->sd_name)) {
		close(fd);
		return jnl_errf(err, errlen, -EINVAL, "%s: the journal of sd=%s, not of sd=%s",
				r->is_from_backup ? map_path : path, h.sd_name, cfg->sd_name);
	}
	r->owner = h.owner;
	pend = calloc(map->nr_blocks ? map->nr_blocks : 1, sizeof(*pend));
	if (!pend) {
		close(fd);
		return jnl_errf(err, errlen, -ENOMEM, "%s: out of memory", path);
	}
	ret = r->is_from_backup ? 0 : replay(fd, &h, map, pend, r);
	if (!ret)
		ret = collect_pending(map, pend, r);
	free(pend);
	close(fd);
	if (ret)
		return jnl_errf(err, errlen, ret, "%s: cannot read: %s", path, strerror(-ret));
	return 0;
}
