/* DiskSim / MQSim ASCII traces: "arrival devno blkno nblocks flags", blank separated, blocks
 * of 512 bytes, flags bit 0 set for a read. The two differ only in the time unit: DiskSim
 * counts milliseconds (usually with a fraction), MQSim nanoseconds (as its workload files
 * set Time_Unit for the traces it ships). Detection takes a time with a '.' for DiskSim. */
#include "reader.h"

#include <errno.h>
#include <string.h>

#include "scan.h"

enum {
	DISKSIM_BLOCK_BYTES = 512,
	DISKSIM_MS_NS = 1000000,
};

/* Five blank-separated numbers, the first with (DiskSim) or without (MQSim) a '.'. */
static bool disksim_fields(const char *line, bool has_dot)
{
	const char *p = trace_scan_blanks(line), *w;
	uint64_t v;
	size_t len;

	w = trace_scan_word(&p, 0, &len);
	if (!len || (memchr(w, '.', len) != NULL) != has_dot)
		return false;
	p = w;
	if (trace_scan_dec_ns(&p, 1, &v) || (*p != ' ' && *p != '\t'))
		return false;
	for (int i = 0; i < 4; i++)
		if (trace_scan_u64(&p, &v) || (*p && *p != ' ' && *p != '\t'))
			return false;
	return trace_scan_is_end(p);
}

static bool disksim_probe(const char *line)
{
	return disksim_fields(line, true);
}

static bool mqsim_probe(const char *line)
{
	return disksim_fields(line, false);
}

static int disksim_parse_unit(struct trace_reader *r, char *line, struct trace_rec *rec,
			      uint64_t unit_ns)
{
	const char *p = line;
	uint64_t blkno, nblocks, flags;

	if (!trace_line_is_data(p))
		return 0;
	if (trace_field_dec_ns(r, &p, 0, unit_ns, "arrival", &rec->time_ns) < 0 ||
	    trace_field_u32(r, &p, 0, "devno", &rec->dev) < 0 ||
	    trace_field_u64(r, &p, 0, "blkno", &blkno) < 0 ||
	    trace_field_u64(r, &p, 0, "nblocks", &nblocks) < 0 ||
	    trace_field_u64(r, &p, 0, "flags", &flags) < 0 || trace_field_end(r, p, "flags") < 0)
		return -EINVAL;
	if (blkno > UINT64_MAX / DISKSIM_BLOCK_BYTES || nblocks > UINT32_MAX / DISKSIM_BLOCK_BYTES)
		return trace_reader_bad(r, "blkno or nblocks too large");
	rec->offset_bytes = blkno * DISKSIM_BLOCK_BYTES;
	rec->size_bytes = (uint32_t)(nblocks * DISKSIM_BLOCK_BYTES);
	rec->op = (flags & 1) ? TRACE_OP_READ : TRACE_OP_WRITE;
	return 1;
}

static int disksim_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	return disksim_parse_unit(r, line, rec, DISKSIM_MS_NS);
}

static int mqsim_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	return disksim_parse_unit(r, line, rec, 1);
}

const struct trace_fmt trace_fmt_disksim = {
	.id = TRACE_FMT_DISKSIM,
	.name = "disksim",
	.layout = "arrival_ms devno blkno nblocks flags",
	.probe_line = disksim_probe,
	.parse_line = disksim_parse,
};

const struct trace_fmt trace_fmt_mqsim = {
	.id = TRACE_FMT_MQSIM,
	.name = "mqsim",
	.layout = "arrival_ns devno blkno nblocks flags",
	.probe_line = mqsim_probe,
	.parse_line = mqsim_parse,
};
