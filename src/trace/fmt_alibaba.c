/* Alibaba Cloud block traces (alibaba/block-traces, io_traces.csv):
 * device_id,opcode,offset,length,timestamp with offset and length in bytes, opcode R or W and
 * timestamp in microseconds since the Unix epoch. */
#include "reader.h"

#include <errno.h>

#include "scan.h"

static bool alibaba_opcode(const char *w, size_t len, uint8_t *op)
{
	if (len != 1)
		return false;
	if (*w == 'R' || *w == 'r')
		*op = TRACE_OP_READ;
	else if (*w == 'W' || *w == 'w')
		*op = TRACE_OP_WRITE;
	else
		return false;
	return true;
}

static bool alibaba_probe(const char *line)
{
	const char *p = line, *w;
	uint64_t v;
	size_t len;
	uint8_t op;

	if (trace_scan_u64(&p, &v) || trace_scan_sep(&p, ','))
		return false;
	w = trace_scan_word(&p, ',', &len);
	if (!alibaba_opcode(w, len, &op))
		return false;
	for (int i = 0; i < 3; i++)
		if (trace_scan_sep(&p, ',') || trace_scan_u64(&p, &v))
			return false;
	return trace_scan_is_end(p);
}

static int alibaba_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *p = line, *at, *w;
	size_t len;

	if (!trace_line_is_data(p))
		return 0;
	if (trace_field_u32(r, &p, ',', "device_id", &rec->dev) < 0)
		return -EINVAL;
	at = p;
	if (trace_field_word(r, &p, ',', "opcode", &w, &len) < 0)
		return -EINVAL;
	if (!alibaba_opcode(w, len, &rec->op))
		return trace_field_bad(r, at, ',', "opcode", "R or W");
	if (trace_field_u64(r, &p, ',', "offset", &rec->offset_bytes) < 0 ||
	    trace_field_u32(r, &p, ',', "length", &rec->size_bytes) < 0 ||
	    trace_field_dec_ns(r, &p, 0, 1000, "timestamp", &rec->time_ns) < 0 ||
	    trace_field_end(r, p, "timestamp") < 0)
		return -EINVAL;
	return 1;
}

const struct trace_fmt trace_fmt_alibaba = {
	.id = TRACE_FMT_ALIBABA,
	.name = "alibaba",
	.layout = "device_id,opcode,offset,length,timestamp",
	.probe_line = alibaba_probe,
	.parse_line = alibaba_parse,
};
