/* Private to src/dv: the pieces of a sector that fill (sector.c) and check (classify.c) share,
 * inline because both run once per 8 bytes written or read. */
#ifndef IORAMP_DV_SECTOR_H
#define IORAMP_DV_SECTOR_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

#include "ioramp/dv.h"

static inline void dv_put32(uint8_t *p, uint32_t v)
{
	v = htole32(v); /* native words on x86, as VDbench writes them; explicit elsewhere */
	memcpy(p, &v, sizeof(v));
}

static inline uint32_t dv_get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

/* The checksum byte of a write time: the sum of its eight bytes. */
static inline uint8_t dv_tod_checksum(uint64_t tod_ms)
{
	uint8_t sum = 0;

	for (int i = 0; i < 8; i++)
		sum = (uint8_t)(sum + (uint8_t)(tod_ms >> (8 * i)));
	return sum;
}

static inline uint64_t dv_name_word(const struct dv_id *id)
{
	uint64_t v;

	memcpy(&v, id->name, sizeof(v));
	return v;
}

/* The body stream of one sector: splitmix64 (Steele, Lea, Flood), seeded by what the header
 * says, so the body alone tells whether a header is the one it was written with. */
static inline uint64_t dv_body_seed(uint64_t offset_bytes, uint8_t key, const struct dv_id *id)
{
	return offset_bytes * 0xd1342543de82ef95ull ^ (uint64_t)key << 56 ^
	       dv_name_word(id) * 0x9e3779b97f4a7c15ull;
}

static inline uint64_t dv_body_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Writes the 32-byte header of one sector. */
void dv_sector_header(uint8_t *h, uint64_t offset_bytes, uint8_t key, const struct dv_id *id,
		      uint64_t tod_ms);

#endif /* IORAMP_DV_SECTOR_H */
