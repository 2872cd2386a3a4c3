/* Data validation (reference §12.1-12.2): the key map of an SD (one byte per key block), the
 * 32-byte header and derived body of every 512-byte sector written, the check that classifies a
 * mismatch, the journal that makes the map survive a crash, and the recovery pass that validates
 * every block ever written. Knows nothing about workers or backends: the engine calls it. */
#ifndef IORAMP_DV_H
#define IORAMP_DV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	DV_SECTOR_BYTES = 512, /* every sector carries its own header (VDbench's unit) */
	DV_HEADER_BYTES = 32,  /* offset, time, key, checksum, SD name, owner id */
	DV_NAME_BYTES = 8,     /* SD name, blank padded: sd= names may have 8 characters */
	DV_KEY_MAX = 126,      /* keys 1..126; 0 = never written (reference §12.1) */
	DV_KEY_ERROR = 0x80,   /* map flag: found in error; skipped by the reads of a run until
				* rewritten, checked and reported again by every recovery pass */
	DV_ERRNO = 60003,      /* VDbench's errno of a data validation error */
	DV_LINE_BYTES = 16,    /* a dump line of an error report */
};

/* ---- options (opts.c) -------------------------------------------------------------------- */

/* What -v, -vr, -vw, -vt, -j, -jr, -jro, -jn, -jm, -jri, validate= and journal= ask for. */
struct dv_opts {
	bool is_on;		/* -v, validate=yes, or any journal option */
	bool is_reread;		/* -vr, validate=read_after_write: re-read after each write */
	bool is_no_preread;	/* -vw, validate=no_preread: writes are not read first */
	bool is_time;		/* -vt, validate=time: each block's last good read or write time */
	bool is_journal;	/* -j, journal=yes */
	bool is_recover;	/* -jr, journal=recover: recover the map, validate, then run */
	bool is_recover_only;	/* -jro, journal=only: recover and validate, run nothing */
	bool is_noflush;	/* -jn, journal=noflush: journal writes are not synchronous */
	bool is_maponly;	/* -jm, journal=maponly: only the map, no before/after records */
	bool is_ignore_pending; /* -jri, journal=ignore_pending: writes in flight not validated */
	bool is_skip_read_all;	/* journal=skip_read_all: recovery reads only pending writes */
	uint64_t journal_max_bytes; /* journal=max=N: a checkpoint keeps the file below; 0 none */
};

/* Applies one command-line option ("-v", "-vr", "-jro", letters combine as VDbench's). Returns
 * 0, or -EINVAL with err naming the letter that is not understood or not supported. */
int dv_opts_cli(struct dv_opts *o, const char *arg, char *err, size_t errlen);

/* Applies one word of validate= (yes, no, read_after_write, no_preread, time, reportdedupsets)
 * or of journal= (yes, no, recover, only, noflush, maponly, skip_read_all, ignore_pending,
 * max=N), cut short as far as VDbench 5.04.07 accepts; a number is accepted and changes
 * nothing, as in VDbench. Returns 0, or -EINVAL with err saying what was expected. The
 * parameter scan (-s) and the run use these same functions. */
int dv_opts_validate_word(struct dv_opts *o, const char *word, char *err, size_t errlen);
int dv_opts_journal_word(struct dv_opts *o, const char *word, char *err, size_t errlen);

/* ---- sectors (sector.c) ------------------------------------------------------------------- */

/* What every sector of an SD carries besides its offset, write time and key. */
struct dv_id {
	char name[DV_NAME_BYTES]; /* the SD name, blank padded */
	uint32_t owner;		  /* the pid that created the map (journal), else this pid */
};

/* Returns 0, or -ENAMETOOLONG when sd_name has more than DV_NAME_BYTES characters. */
int dv_id_init(struct dv_id *id, const char *sd_name, uint32_t owner);

/*
 * Fills size_bytes of buf (a multiple of DV_SECTOR_BYTES) with the data of a write of key at
 * byte offset offset_bytes, taken at tod_ms (ms since 1970). Each sector gets VDbench's header
 * layout as native 32-bit words (reference §12.1): 0x00 offset (high, low word), 0x08 time
 * (high, low), 0x10 key << 24 | checksum of the time << 16, 0x14 name, 0x1c owner; then 480
 * bytes derived from offset, key and name. Pure; hot path.
 */
void dv_fill(void *buf, uint64_t offset_bytes, uint32_t size_bytes, uint8_t key,
	     const struct dv_id *id, uint64_t tod_ms);

/* Whether byte i of a header is known before reading (the time and its checksum are not). */
bool dv_header_byte_is_known(unsigned int i);

/* ---- checking (classify.c) ---------------------------------------------------------------- */

/* What a bad key block holds, judged by its first bad sector. */
enum dv_class {
	DV_CLASS_OK,
	DV_CLASS_KEY,	  /* an intact sector of this offset and SD, another key (or zeros) */
	DV_CLASS_OFFSET,  /* an intact sector written for another offset: a misplaced write */
	DV_CLASS_SD,	  /* an intact sector of another SD */
	DV_CLASS_CORRUPT, /* no intact sector: header or body damaged */
	DV_CLASS_BIT,	  /* exactly one bit differs */
	DV_CLASS_NR,
};

/* "bad key", "bad lba", "wrong sd", "data corruption", "single bit error": VDbench's words. */
const char *dv_class_name(enum dv_class c);
/* What it usually means: "lost or stale write", "misplaced write", ... */
const char *dv_class_meaning(enum dv_class c);
/* The JSON spelling: "key", "offset", "sd", "corrupt", "bit". */
const char *dv_class_id(enum dv_class c);

/* One key block that is not what was expected. */
struct dv_mismatch {
	enum dv_class cls;
	uint64_t block_offset_bytes; /* the key block */
	uint32_t block_bytes;
	uint32_t nr_sectors;	 /* sectors in the key block */
	uint32_t nr_bad_sectors; /* of them, not as expected */
	uint32_t sector_idx;	 /* the first bad one (its header is below) */
	uint8_t expected_key;
	uint8_t found_key; /* 0 for a sector of zeros */
	uint64_t found_offset_bytes;
	char found_name[DV_NAME_BYTES];
	uint32_t found_owner;
	uint64_t found_tod_ms;
	uint32_t nr_bits; /* bits that differ in the first bad sector, time excluded */
	uint8_t expected[DV_HEADER_BYTES]; /* time and checksum unknown: dv_header_byte_is_known */
	uint8_t found[DV_HEADER_BYTES];
	uint32_t line_offset; /* first differing line after the header in the sector; 0: none */
	uint8_t expected_line[DV_LINE_BYTES];
	uint8_t found_line[DV_LINE_BYTES];
};

/*
 * Compares the key block at offset_bytes (size_bytes, a multiple of DV_SECTOR_BYTES) in buf
 * with what a write of key would have left. Returns 0 when every sector matches, 1 with *m
 * filled otherwise. Pure; hot path when it matches.
 */
int dv_check(const void *buf, uint64_t offset_bytes, uint32_t size_bytes, uint8_t key,
	     const struct dv_id *id, struct dv_mismatch *m);

/* A block whose write was in flight at a crash: each sector may hold the old key or the new.
 * old_key 0 means the old content is unknown (anything that is not the new key is old). */
enum dv_either {
	DV_EITHER_OLD,	 /* every sector is old */
	DV_EITHER_NEW,	 /* every sector is new */
	DV_EITHER_MIXED, /* some of each: a torn write */
	DV_EITHER_BAD,	 /* some sector is neither: *m compares it with the new key */
};

enum dv_either dv_check_either(const void *buf, uint64_t offset_bytes, uint32_t size_bytes,
			       uint8_t old_key, uint8_t new_key, const struct dv_id *id,
			       struct dv_mismatch *m);

/* ---- key map (keymap.c) ------------------------------------------------------------------- */

/*
 * One byte per key block (0 never written, 1..126 the key of the last write, DV_KEY_ERROR set
 * when found in error) and one busy bit per block (an I/O in flight covers it). Written only
 * by the worker that owns the SD during a run, by the main thread between runs.
 */
struct dv_map {
	uint8_t *keys;
	uint64_t *busy;
	uint64_t nr_blocks;
	uint32_t block_bytes;
	uint64_t salt; /* picks the first key of each block: random per execution */
};

/* Allocates a map of size_bytes / block_bytes blocks, all never written. Returns 0 or
 * -ENOMEM. dv_map_fini() accepts a zeroed or released map. */
int dv_map_init(struct dv_map *m, uint64_t size_bytes, uint32_t block_bytes, uint64_t salt);
void dv_map_fini(struct dv_map *m);

/* Key blocks that hold a key (written, not in error). */
uint64_t dv_map_nr_known(const struct dv_map *m);

static inline bool dv_key_is_known(uint8_t key)
{
	return key >= 1 && key <= DV_KEY_MAX;
}

/* The key the next write of block gets: the last one plus one, wrapping 126 -> 1; a block
 * never written (or in error) starts at a key picked by the map's salt, so that data of an
 * earlier execution is not taken for this one's (reference §12.1). Pure. */
static inline uint8_t dv_map_next_key(const struct dv_map *m, uint64_t block)
{
	uint8_t key = m->keys[block] & (uint8_t)~DV_KEY_ERROR;
	uint64_t h;

	if (dv_key_is_known(key) && !(m->keys[block] & DV_KEY_ERROR))
		return (uint8_t)(key % DV_KEY_MAX + 1);
	h = (block + 1) * 0x9e3779b97f4a7c15ull ^ m->salt;
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 29;
	return (uint8_t)(1 + h % DV_KEY_MAX);
}

/* Whether any block of [first, first + nr) is busy. */
static inline bool dv_map_is_busy(const struct dv_map *m, uint64_t first, uint64_t nr)
{
	for (uint64_t b = first; b < first + nr; b++)
		if (m->busy[b >> 6] & (1ull << (b & 63)))
			return true;
	return false;
}

static inline void dv_map_set_busy(struct dv_map *m, uint64_t first, uint64_t nr, bool is_busy)
{
	for (uint64_t b = first; b < first + nr; b++) {
		if (is_busy)
			m->busy[b >> 6] |= 1ull << (b & 63);
		else
			m->busy[b >> 6] &= ~(1ull << (b & 63));
	}
}

/* ---- journal (journal.c) ------------------------------------------------------------------ */

/* Reads up to len bytes at off (retrying short reads and EINTR); *got is what the file had.
 * Returns 0 or -errno. */
int dv_read_full(int fd, uint8_t *p, size_t len, uint64_t off, size_t *got);
/* Writes len bytes at off (retrying short writes and EINTR). Returns 0 or -errno. */
int dv_write_full(int fd, const void *buf, size_t len, uint64_t off);

/* A journal entry: a write of key to block is about to start, or has ended (key 0: the block's
 * content is unknown, after a failed write). */
enum dv_jtype {
	DV_J_BEFORE = 1,
	DV_J_AFTER = 2,
};

struct dv_journal;

/* Where an SD's journal lives: <dir>/<sd>.jnl and the map backup <dir>/<sd>.map. */
struct dv_journal_cfg {
	const char *dir; /* SD journal=, else "." (VDbench: the current directory) */
	const char *sd_name;
	bool is_flush;	 /* records made durable before the call returns (O_DSYNC) */
	bool is_maponly; /* journal=maponly (-jm): the map only, dv_journal_add() keeps nothing */
	uint64_t max_bytes; /* journal=max=N: a flush that would grow the file past it clears it
			     * first (a checkpoint, as VDbench's "'journal_max' reached"); 0: none */
	uint32_t owner;
};

/*
 * Writes a new journal for map: header and map into <sd>.jnl.tmp, made durable and renamed over
 * <sd>.jnl (so a crash leaves the old journal or the new one, never half of one), then the same
 * into <sd>.map; opens it for appending records. Replaces an open *jp (a checkpoint: the map
 * now holds every record). With cfg->max_bytes the journal keeps map (which must outlive it)
 * and the writes in flight, to clear itself when full. Returns 0, or -errno with err filled
 * ("sd1.jnl: ...").
 */
int dv_journal_write(struct dv_journal **jp, const struct dv_journal_cfg *cfg,
		     const struct dv_map *map, char *err, size_t errlen);

/* Queues an entry; flushes when the queue is full. Returns 0 or -errno of that flush. Owning
 * worker only. */
int dv_journal_add(struct dv_journal *j, enum dv_jtype type, uint64_t block, uint8_t key);

/* Whether entries wait for dv_journal_flush(). */
bool dv_journal_has_queued(const struct dv_journal *j);

/* Writes the queued entries as 512-byte records in one write at the end of the journal (made
 * durable unless noflush). Returns 0 or -errno. Owning worker only. */
int dv_journal_flush(struct dv_journal *j);

/* Closes (without a checkpoint: the records stay). Accepts NULL. */
void dv_journal_close(struct dv_journal *j);

/* Records written since the last checkpoint (for tests and notes). */
uint64_t dv_journal_nr_records(const struct dv_journal *j);

/* Times the journal was cleared because it reached journal=max=N. */
uint64_t dv_journal_nr_clears(const struct dv_journal *j);

/* A write found in the journal with a BEFORE and no AFTER record. */
struct dv_pending {
	uint64_t block;
	uint8_t old_key;
	uint8_t new_key;
};

struct dv_recovered {
	uint32_t owner;
	uint64_t nr_records;
	uint64_t nr_before;
	uint64_t nr_after;
	struct dv_pending *pending; /* malloc'ed; the caller frees */
	size_t nr_pending;
	bool is_from_backup; /* <sd>.jnl was unusable: <sd>.map was loaded, no records */
};

/*
 * Loads <dir>/<sd>.jnl (or, when it is missing or damaged, the backup <sd>.map) into map, which
 * must be initialised with the geometry of this execution, and replays its records. Returns 0,
 * -ENOENT when there is no journal, -EINVAL for one of another geometry or SD, or -errno, with
 * err filled.
 */
int dv_journal_load(const struct dv_journal_cfg *cfg, struct dv_map *map, struct dv_recovered *r,
		    char *err, size_t errlen);

/* ---- recovery validation (recover.c) ------------------------------------------------------ */

/* Called for each key block found in error; returns false to stop (data_errors= reached). */
typedef bool dv_error_fn(void *ctx, const struct dv_mismatch *m);

struct dv_validate_result {
	uint64_t nr_validated; /* key blocks read and compared */
	uint64_t nr_errors;    /* of them, in error */
	uint64_t nr_torn;      /* pending writes found half written (key now unknown) */
	int io_error;	       /* -errno of a failed read, 0 */
	uint64_t io_error_offset_bytes;
};

/* How dv_validate_all() goes. */
enum dv_validate_flags {
	DV_VALIDATE_IGNORE_PENDING = 1 << 0, /* journal=ignore_pending: pending writes unknown */
	DV_VALIDATE_PENDING_ONLY = 1 << 1,   /* journal=skip_read_all: only pending writes read */
};

/*
 * Reads every block of map that holds a key (with pread on fd, in aligned chunks of up to 1 MiB)
 * and checks it; the pending writes are first resolved to whichever content their blocks hold
 * (or made unknown with DV_VALIDATE_IGNORE_PENDING), and the map updated; with
 * DV_VALIDATE_PENDING_ONLY nothing else is read. Errors mark their block with
 * DV_KEY_ERROR; a block already marked is checked against its key again and reported (and
 * counted) again while it is still bad, unmarked once it holds its last write again. Returns
 * 0 (errors included), or -ENOMEM; a read error stops the pass with res->io_error set. Main
 * thread.
 */
int dv_validate_all(int fd, struct dv_map *map, const struct dv_id *id,
		    const struct dv_pending *pending, size_t nr_pending, unsigned int flags,
		    dv_error_fn *on_error, void *ctx, struct dv_validate_result *res);

#endif /* IORAMP_DV_H */
