/* CloudPhysics VMware vSCSI traces (binary, little-endian): v1 records of 32 bytes
 * {u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver, u64 lbn, u64 ts} and v2 records of 40 bytes
 * {u16 cmd, u16 ver, u32 sn, u32 len, u32 nSG, u64 lbn, u64 ts, u64 rt}; ver >> 8 is the
 * version, cmd a SCSI opcode, len bytes, lbn 512-byte sectors, ts and rt microseconds. */
#include "reader.h"

#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum {
	VSCSI_V1_BYTES = 32,
	VSCSI_V2_BYTES = 40,
	VSCSI_SECTOR_BYTES = 512,
	VSCSI_PROBE_RECS = 4,
};

static uint16_t get16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/* The version the first records agree on (1 or 2), or 0. */
static int vscsi_version(const unsigned char *p, size_t len)
{
	for (int v = 1; v <= 2; v++) {
		size_t rec_bytes = v == 1 ? VSCSI_V1_BYTES : VSCSI_V2_BYTES;
		size_t ver_at = v == 1 ? 14 : 2;
		size_t i, nr = len / rec_bytes;

		if (nr > VSCSI_PROBE_RECS)
			nr = VSCSI_PROBE_RECS;
		for (i = 0; i < nr; i++)
			if (get16(p + i * rec_bytes + ver_at) >> 8 != v)
				break;
		if (nr && i == nr)
			return v;
	}
	return 0;
}

static bool vscsi_probe(const unsigned char *p, size_t len)
{
	return vscsi_version(p, len) != 0;
}

static int vscsi_init(struct trace_reader *r, const char *path)
{
	const unsigned char *p;
	int64_t n = trace_input_peek(&r->in, &p, VSCSI_V2_BYTES * VSCSI_PROBE_RECS);
	int version = n > 0 ? vscsi_version(p, (size_t)n) : 0;

	(void)path;
	if (n < 0)
		return trace_reader_bad_at(r, NULL, 0, "read error");
	if (!version)
		return trace_reader_bad_at(r, NULL, 0, "not a vscsi trace (no v1 or v2 record)");
	r->priv = (void *)(intptr_t)version;
	return 0;
}

int trace_scsi_op(unsigned int cmd, uint8_t *op)
{
	switch (cmd) {
	case 0x08:
	case 0x28:
	case 0xa8:
	case 0x88: /* READ(6/10/12/16) */
		*op = TRACE_OP_READ;
		return 1;
	case 0x0a:
	case 0x2a:
	case 0xaa:
	case 0x8a: /* WRITE(6/10/12/16) */
		*op = TRACE_OP_WRITE;
		return 1;
	case 0x35:
	case 0x91: /* SYNCHRONIZE CACHE(10/16) */
		*op = TRACE_OP_FLUSH;
		return 1;
	case 0x42: /* UNMAP */
		*op = TRACE_OP_DISCARD;
		return 1;
	default:
		return 0;
	}
}

static void vscsi_decode(const unsigned char *p, int version, unsigned int *cmd,
			 struct trace_rec *rec)
{
	if (version == 1) {
		rec->size_bytes = get32(p + 4);
		*cmd = get16(p + 12);
		rec->offset_bytes = get64(p + 16) * VSCSI_SECTOR_BYTES;
		rec->time_ns = get64(p + 24) * 1000;
		return;
	}
	*cmd = get16(p);
	rec->size_bytes = get32(p + 8);
	rec->offset_bytes = get64(p + 16) * VSCSI_SECTOR_BYTES;
	rec->time_ns = get64(p + 24) * 1000;
	rec->latency_ns = get64(p + 32) * 1000;
}

static int vscsi_next(struct trace_reader *r, struct trace_rec *rec)
{
	int version = (int)(intptr_t)r->priv;
	size_t rec_bytes = version == 1 ? VSCSI_V1_BYTES : VSCSI_V2_BYTES;

	for (;;) {
		const unsigned char *p;
		uint64_t at = r->in.pos_bytes;
		int64_t n = trace_input_peek(&r->in, &p, rec_bytes);
		unsigned int cmd;

		if (n < 0) {
			trace_reader_bad_at(r, NULL, at, "read error");
			return -EIO;
		}
		if (n == 0)
			return 0;
		if ((size_t)n < rec_bytes)
			return trace_reader_bad_at(r, NULL, at, "truncated record: %d of %zu bytes",
						   (int)n, rec_bytes);
		if (get16(p + (version == 1 ? 14 : 2)) >> 8 != version)
			return trace_reader_bad_at(r, NULL, at, "bad version field; expected v%d",
						   version);
		if (get64(p + 16) > UINT64_MAX / VSCSI_SECTOR_BYTES)
			return trace_reader_bad_at(r, NULL, at,
						   "lbn %" PRIu64 " too large; expected a sector "
						   "inside a device",
						   get64(p + 16));
		vscsi_decode(p, version, &cmd, rec);
		trace_input_skip(&r->in, rec_bytes);
		if (trace_scsi_op(cmd, &rec->op))
			return 1;
		memset(rec, 0, sizeof(*rec));
	}
}

const struct trace_fmt trace_fmt_vscsi = {
	.id = TRACE_FMT_VSCSI,
	.name = "vscsi",
	.layout = "vscsi v1 (32-byte) or v2 (40-byte) records",
	.is_binary = true,
	.probe_bin = vscsi_probe,
	.next_bin = vscsi_next,
	.init = vscsi_init,
};
