/* The content of every sector written under data validation: VDbench's 32-byte header (reference
 * §12.1) and a 480-byte body from a splitmix64 stream seeded by offset, key and SD name, so that
 * a sector copied to another offset, an older version and a sector of another SD all differ from
 * what is expected, in their header and in their body. */
#include "ioramp/dv.h"

#include <endian.h>
#include <errno.h>
#include <string.h>

#include "sector.h"

int dv_id_init(struct dv_id *id, const char *sd_name, uint32_t owner)
{
	size_t len = strlen(sd_name);

	if (len > DV_NAME_BYTES)
		return -ENAMETOOLONG;
	memset(id->name, ' ', sizeof(id->name));
	memcpy(id->name, sd_name, len);
	id->owner = owner;
	return 0;
}

bool dv_header_byte_is_known(unsigned int i)
{
	/* 0x08-0x0f: the time; 0x12: the checksum of the time (byte 2 of the word at 0x10) */
	return !(i >= 0x08 && i < 0x10) && i != 0x12;
}

void dv_sector_header(uint8_t *h, uint64_t offset_bytes, uint8_t key, const struct dv_id *id,
		      uint64_t tod_ms)
{
	dv_put32(h + 0x00, (uint32_t)(offset_bytes >> 32));
	dv_put32(h + 0x04, (uint32_t)offset_bytes);
	dv_put32(h + 0x08, (uint32_t)(tod_ms >> 32));
	dv_put32(h + 0x0c, (uint32_t)tod_ms);
	dv_put32(h + 0x10, (uint32_t)key << 24 | (uint32_t)dv_tod_checksum(tod_ms) << 16);
	memcpy(h + 0x14, id->name, DV_NAME_BYTES);
	dv_put32(h + 0x1c, id->owner);
}

void dv_fill(void *buf, uint64_t offset_bytes, uint32_t size_bytes, uint8_t key,
	     const struct dv_id *id, uint64_t tod_ms)
{
	uint8_t *p = buf;

	for (uint32_t s = 0; s < size_bytes / DV_SECTOR_BYTES; s++, p += DV_SECTOR_BYTES) {
		uint64_t off = offset_bytes + (uint64_t)s * DV_SECTOR_BYTES;
		uint64_t state = dv_body_seed(off, key, id);

		dv_sector_header(p, off, key, id, tod_ms);
		for (uint32_t i = DV_HEADER_BYTES; i < DV_SECTOR_BYTES; i += 8) {
			uint64_t v = htole64(dv_body_next(&state));

			memcpy(p + i, &v, sizeof(v));
		}
	}
}
