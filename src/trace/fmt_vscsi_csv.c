/* CloudPhysics vSCSI traces as CSV (libCacheSim's data/cloudPhysicsIO.csv), one line per
 * command after a header row: version,time,op,size,lbn with version the vscsi record version
 * (1 or 2), time in seconds (whole seconds in the published file: the binary's microseconds
 * are cut), op the SCSI opcode in hexadecimal ("28" READ(10), "2a" WRITE(10)), size bytes
 * and lbn 512-byte sectors. Commands that move no block data are passed over, as in the
 * binary form (fmt_vscsi.c). */
#include "reader.h"

#include <errno.h>

#include "scan.h"

enum {
	VSCSI_CSV_SECTOR_BYTES = 512,
	VSCSI_CSV_OP_DIGITS = 4, /* SCSI opcodes are one byte; "0x" and leading zeros aside */
};

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The opcode at *pp ("2a", "0x2A"), up to a comma or blank: 0 with *cmd set and *pp past
 * it, -EINVAL when it is not a hexadecimal byte. */
static int scan_opcode(const char **pp, unsigned int *cmd)
{
	const char *p = trace_scan_blanks(*pp);
	unsigned int v = 0;
	int n = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; hex_digit(*p) >= 0; p++, n++) {
		if (n == VSCSI_CSV_OP_DIGITS)
			return -EINVAL;
		v = v * 16 + (unsigned int)hex_digit(*p);
	}
	if (!n || v > 0xff)
		return -EINVAL;
	*cmd = v;
	*pp = p;
	return 0;
}

/* A data line: a version of 1 or 2, a time, an opcode, whole sectors of data, then an lbn.
 * Five small integers (Tencent's layout, or a made-up line) pass for this only with a size
 * that is a sector multiple. */
static bool vscsi_csv_probe(const char *line)
{
	const char *p = line;
	unsigned int cmd;
	uint64_t v;

	if (trace_scan_u64(&p, &v) || (v != 1 && v != 2) || trace_scan_sep(&p, ',') ||
	    trace_scan_dec_ns(&p, 1000000000, &v) || trace_scan_sep(&p, ',') ||
	    scan_opcode(&p, &cmd) || trace_scan_sep(&p, ',') || trace_scan_u64(&p, &v) ||
	    !v || v % VSCSI_CSV_SECTOR_BYTES || trace_scan_sep(&p, ',') || trace_scan_u64(&p, &v))
		return false;
	return trace_scan_is_end(p);
}

static int vscsi_csv_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *p = line, *at;
	uint64_t version, lbn;
	unsigned int cmd;

	if (!trace_line_is_data(p))
		return 0; /* the header row */
	at = p;
	if (trace_field_u64(r, &p, ',', "version", &version) < 0)
		return -EINVAL;
	if (version != 1 && version != 2)
		return trace_field_bad(r, at, ',', "version", "1 or 2");
	if (trace_field_dec_ns(r, &p, ',', 1000000000, "time", &rec->time_ns) < 0)
		return -EINVAL;
	at = p;
	if (scan_opcode(&p, &cmd) || trace_scan_sep(&p, ','))
		return trace_field_bad(r, at, ',', "op", "a SCSI opcode in hexadecimal (28, 2a)");
	if (trace_field_u32(r, &p, ',', "size", &rec->size_bytes) < 0 ||
	    trace_field_u64(r, &p, 0, "lbn", &lbn) < 0 || trace_field_end(r, p, "lbn") < 0)
		return -EINVAL;
	if (lbn > UINT64_MAX / VSCSI_CSV_SECTOR_BYTES)
		return trace_reader_bad(r, "lbn too large; expected a sector inside a device");
	rec->offset_bytes = lbn * VSCSI_CSV_SECTOR_BYTES;
	return trace_scsi_op(cmd, &rec->op);
}

const struct trace_fmt trace_fmt_vscsi_csv = {
	.id = TRACE_FMT_VSCSI_CSV,
	.name = "vscsicsv",
	.layout = "version,time,op,size,lbn",
	.probe_line = vscsi_csv_probe,
	.parse_line = vscsi_csv_parse,
};
