/* Checking a key block and, when it is not what was written, saying what it holds instead
 * (reference §12.1 error classes): an intact sector of this SD and offset with another key (a
 * lost or stale write), an intact sector of another offset (a misplaced write) or of another SD,
 * one flipped bit, or damage. "Intact" means that header and body agree with each other. */
#include "ioramp/dv.h"

#include <string.h>

#include "sector.h"

/* clang-format off */
static const char *const class_names[DV_CLASS_NR] = {
	[DV_CLASS_OK] = "no error",
	[DV_CLASS_KEY] = "bad key",
	[DV_CLASS_OFFSET] = "bad lba",
	[DV_CLASS_SD] = "wrong sd name",
	[DV_CLASS_CORRUPT] = "data corruption",
	[DV_CLASS_BIT] = "single bit error",
};

static const char *const class_meanings[DV_CLASS_NR] = {
	[DV_CLASS_OK] = "",
	[DV_CLASS_KEY] = "lost or stale write",
	[DV_CLASS_OFFSET] = "misplaced write: the data of another offset",
	[DV_CLASS_SD] = "the data of another SD",
	[DV_CLASS_CORRUPT] = "corrupted header or body",
	[DV_CLASS_BIT] = "one bit flipped",
};

static const char *const class_ids[DV_CLASS_NR] = {
	[DV_CLASS_OK] = "ok",
	[DV_CLASS_KEY] = "key",
	[DV_CLASS_OFFSET] = "offset",
	[DV_CLASS_SD] = "sd",
	[DV_CLASS_CORRUPT] = "corrupt",
	[DV_CLASS_BIT] = "bit",
};
/* clang-format on */

const char *dv_class_name(enum dv_class c)
{
	return c < DV_CLASS_NR ? class_names[c] : "?";
}

const char *dv_class_meaning(enum dv_class c)
{
	return c < DV_CLASS_NR ? class_meanings[c] : "?";
}

const char *dv_class_id(enum dv_class c)
{
	return c < DV_CLASS_NR ? class_ids[c] : "?";
}

static uint64_t sector_tod(const uint8_t *s)
{
	return (uint64_t)dv_get32(s + 0x08) << 32 | dv_get32(s + 0x0c);
}

/* Whether sector s is exactly what a write of key at off leaves (whatever its time, as long as
 * the time's checksum holds). Stops at the first difference. */
static bool sector_is_ok(const uint8_t *s, uint64_t off, uint8_t key, const struct dv_id *id)
{
	uint64_t state = dv_body_seed(off, key, id);
	uint8_t h[DV_HEADER_BYTES];

	dv_sector_header(h, off, key, id, sector_tod(s));
	if (memcmp(h, s, sizeof(h)))
		return false;
	for (uint32_t i = DV_HEADER_BYTES; i < DV_SECTOR_BYTES; i += 8) {
		uint64_t v = htole64(dv_body_next(&state));

		if (memcmp(s + i, &v, sizeof(v)))
			return false;
	}
	return true;
}

static bool sector_is_zero(const uint8_t *s)
{
	for (uint32_t i = 0; i < DV_SECTOR_BYTES; i++)
		if (s[i])
			return false;
	return true;
}

/* Whether s is a sector as some write left it: a valid header whose body matches it. */
static bool sector_is_intact(const uint8_t *s)
{
	uint32_t w = dv_get32(s + 0x10);
	uint8_t key = (uint8_t)(w >> 24);
	struct dv_id id;

	if (!dv_key_is_known(key) || (w & 0xffff) ||
	    (uint8_t)(w >> 16) != dv_tod_checksum(sector_tod(s)))
		return false;
	memcpy(id.name, s + 0x14, DV_NAME_BYTES);
	id.owner = dv_get32(s + 0x1c);
	return sector_is_ok(s, (uint64_t)dv_get32(s) << 32 | dv_get32(s + 4), key, &id);
}

static enum dv_class classify(const uint8_t *s, const struct dv_mismatch *m, const struct dv_id *id,
			      uint64_t off)
{
	if (m->nr_bits == 1)
		return DV_CLASS_BIT;
	if (sector_is_zero(s))
		return DV_CLASS_KEY; /* never written, or the write was lost */
	if (!sector_is_intact(s))
		return DV_CLASS_CORRUPT;
	if (memcmp(m->found_name, id->name, DV_NAME_BYTES))
		return DV_CLASS_SD;
	if (m->found_offset_bytes != off)
		return DV_CLASS_OFFSET;
	return DV_CLASS_KEY; /* another key, or the same key of another execution (owner) */
}

/* The details of the first bad sector s (at off, sector idx of the block). */
static void describe(const uint8_t *s, uint64_t off, uint8_t key, const struct dv_id *id,
		     struct dv_mismatch *m)
{
	uint8_t want[DV_SECTOR_BYTES];
	uint64_t state = dv_body_seed(off, key, id);
	uint64_t tod = sector_tod(s);

	dv_sector_header(want, off, key, id, tod);
	for (uint32_t i = DV_HEADER_BYTES; i < DV_SECTOR_BYTES; i += 8) {
		uint64_t v = htole64(dv_body_next(&state));

		memcpy(want + i, &v, sizeof(v));
	}
	m->nr_bits = 0;
	m->line_offset = 0;
	for (uint32_t i = 0; i < DV_SECTOR_BYTES; i++) {
		if (i >= 0x08 && i < 0x10)
			continue; /* the time is whatever was found */
		m->nr_bits += (uint32_t)__builtin_popcount((unsigned int)(want[i] ^ s[i]));
		if (want[i] != s[i] && i >= DV_HEADER_BYTES && !m->line_offset) {
			m->line_offset = i / DV_LINE_BYTES * DV_LINE_BYTES;
			memcpy(m->expected_line, want + m->line_offset, DV_LINE_BYTES);
			memcpy(m->found_line, s + m->line_offset, DV_LINE_BYTES);
		}
	}
	dv_sector_header(m->expected, off, key, id, 0);
	memcpy(m->found, s, DV_HEADER_BYTES);
	m->expected_key = key;
	m->found_key = (uint8_t)(dv_get32(s + 0x10) >> 24);
	m->found_offset_bytes = (uint64_t)dv_get32(s) << 32 | dv_get32(s + 4);
	memcpy(m->found_name, s + 0x14, DV_NAME_BYTES);
	m->found_owner = dv_get32(s + 0x1c);
	m->found_tod_ms = tod;
	m->cls = classify(s, m, id, off);
}

int dv_check(const void *buf, uint64_t offset_bytes, uint32_t size_bytes, uint8_t key,
	     const struct dv_id *id, struct dv_mismatch *m)
{
	const uint8_t *p = buf;
	uint32_t nr = size_bytes / DV_SECTOR_BYTES;
	uint32_t s = 0;

	while (s < nr && sector_is_ok(p + (size_t)s * DV_SECTOR_BYTES,
				      offset_bytes + (uint64_t)s * DV_SECTOR_BYTES, key, id))
		s++;
	if (s == nr)
		return 0;
	memset(m, 0, sizeof(*m));
	m->block_offset_bytes = offset_bytes;
	m->block_bytes = size_bytes;
	m->nr_sectors = nr;
	m->sector_idx = s;
	describe(p + (size_t)s * DV_SECTOR_BYTES, offset_bytes + (uint64_t)s * DV_SECTOR_BYTES, key,
		 id, m);
	for (; s < nr; s++)
		if (!sector_is_ok(p + (size_t)s * DV_SECTOR_BYTES,
				  offset_bytes + (uint64_t)s * DV_SECTOR_BYTES, key, id))
			m->nr_bad_sectors++;
	return 1;
}

enum dv_either dv_check_either(const void *buf, uint64_t offset_bytes, uint32_t size_bytes,
			       uint8_t old_key, uint8_t new_key, const struct dv_id *id,
			       struct dv_mismatch *m)
{
	const uint8_t *p = buf;
	uint32_t nr_old = 0, nr_new = 0;

	for (uint32_t s = 0; s < size_bytes / DV_SECTOR_BYTES; s++) {
		const uint8_t *sec = p + (size_t)s * DV_SECTOR_BYTES;
		uint64_t off = offset_bytes + (uint64_t)s * DV_SECTOR_BYTES;

		if (sector_is_ok(sec, off, new_key, id))
			nr_new++;
		else if (!dv_key_is_known(old_key) || sector_is_ok(sec, off, old_key, id))
			nr_old++;
		else
			return dv_check(buf, offset_bytes, size_bytes, new_key, id, m)
				       ? DV_EITHER_BAD
				       : DV_EITHER_NEW;
	}
	if (nr_old && nr_new)
		return DV_EITHER_MIXED;
	return nr_new ? DV_EITHER_NEW : DV_EITHER_OLD;
}
