/* UMass / SPC trace format (Financial, WebSearch): ASU,LBA,Size,Opcode,Timestamp[,more...]
 * with LBA in 512-byte blocks, Size in bytes, Opcode r or w in either case and Timestamp in
 * seconds (a real number). Trailing fields are ignored, as the SPC specification allows. */
#include "reader.h"

#include <errno.h>

#include "scan.h"

enum {
	SPC_BLOCK_BYTES = 512,
};

static bool spc_opcode(const char *w, size_t len, uint8_t *op)
{
	if (len != 1)
		return false;
	if (*w == 'r' || *w == 'R')
		*op = TRACE_OP_READ;
	else if (*w == 'w' || *w == 'W')
		*op = TRACE_OP_WRITE;
	else
		return false;
	return true;
}

static bool spc_probe(const char *line)
{
	const char *p = line, *w;
	uint64_t v;
	size_t len;
	uint8_t op;

	for (int i = 0; i < 3; i++)
		if (trace_scan_u64(&p, &v) || trace_scan_sep(&p, ','))
			return false;
	w = trace_scan_word(&p, ',', &len);
	if (!spc_opcode(w, len, &op) || trace_scan_sep(&p, ','))
		return false;
	if (trace_scan_dec_ns(&p, 1000000000, &v))
		return false;
	p = trace_scan_blanks(p);
	return *p == '\0' || *p == ',';
}

static int spc_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *p = line, *at, *w;
	uint64_t lba;
	size_t len;

	if (!trace_line_is_data(p))
		return 0;
	if (trace_field_u32(r, &p, ',', "ASU", &rec->dev) < 0 ||
	    trace_field_u64(r, &p, ',', "LBA", &lba) < 0 ||
	    trace_field_u32(r, &p, ',', "Size", &rec->size_bytes) < 0)
		return -EINVAL;
	at = p;
	if (trace_field_word(r, &p, ',', "Opcode", &w, &len) < 0)
		return -EINVAL;
	if (!spc_opcode(w, len, &rec->op))
		return trace_field_bad(r, at, ',', "Opcode", "r or w");
	at = p;
	if (trace_scan_dec_ns(&p, 1000000000, &rec->time_ns) < 0)
		return trace_field_bad(r, at, ',', "Timestamp", "a number of seconds");
	p = trace_scan_blanks(p);
	if (*p && *p != ',')
		return trace_field_end(r, p, "Timestamp");
	if (lba > UINT64_MAX / SPC_BLOCK_BYTES)
		return trace_reader_bad(r, "LBA %llu too large", (unsigned long long)lba);
	rec->offset_bytes = lba * SPC_BLOCK_BYTES;
	return 1;
}

const struct trace_fmt trace_fmt_spc = {
	.id = TRACE_FMT_SPC,
	.name = "spc",
	.layout = "ASU,LBA,Size,Opcode,Timestamp",
	.probe_line = spc_probe,
	.parse_line = spc_parse,
};
