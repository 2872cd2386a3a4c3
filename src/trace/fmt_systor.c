/* Systor '17 VDI traces (Fujitsu, SNIA IOTTA 4964), one CSV line per I/O after a header row:
 * Timestamp,Response,IOType,LUN,Offset,Size with Timestamp in Unix seconds (nine fractional
 * digits, accurate to the microsecond), Response the seconds the I/O took, IOType R, W or
 * blank (no response was seen: not an I/O of the figures, passed over), LUN the device,
 * Offset and Size in bytes. */
#include "reader.h"

#include <errno.h>

#include "scan.h"

/* The IOType field at p: 'R', 'W', 0 for blank, -1 for anything else. */
static int systor_type(const char *p)
{
	size_t len;
	const char *w = trace_scan_word(&p, ',', &len);

	if (!len)
		return 0;
	if (len == 1 && (*w == 'R' || *w == 'W'))
		return *w;
	return -1;
}

static bool systor_probe(const char *line)
{
	const char *p = line;
	uint64_t v;

	for (int i = 0; i < 2; i++)
		if (trace_scan_dec_ns(&p, 1000000000, &v) || trace_scan_sep(&p, ','))
			return false;
	if (systor_type(p) < 0)
		return false;
	while (*p && *p != ',')
		p++;
	for (int i = 0; i < 3; i++)
		if (trace_scan_sep(&p, ',') || trace_scan_u64(&p, &v))
			return false;
	return trace_scan_is_end(p);
}

static int systor_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *p = line, *at;
	int type;

	if (!trace_line_is_data(p))
		return 0; /* the header row */
	if (trace_field_dec_ns(r, &p, ',', 1000000000, "Timestamp", &rec->time_ns) < 0 ||
	    trace_field_dec_ns(r, &p, ',', 1000000000, "Response", &rec->latency_ns) < 0)
		return -EINVAL;
	at = p;
	type = systor_type(p);
	if (type < 0)
		return trace_field_bad(r, at, ',', "IOType", "R, W or blank");
	while (*p && *p != ',')
		p++;
	if (trace_scan_sep(&p, ','))
		return trace_field_bad(r, p, ',', "LUN", "an unsigned integer");
	if (trace_field_u32(r, &p, ',', "LUN", &rec->dev) < 0 ||
	    trace_field_u64(r, &p, ',', "Offset", &rec->offset_bytes) < 0 ||
	    trace_field_u32(r, &p, 0, "Size", &rec->size_bytes) < 0 ||
	    trace_field_end(r, p, "Size") < 0)
		return -EINVAL;
	if (!type)
		return 0; /* no response seen: the trace does not say what it was */
	rec->op = type == 'R' ? TRACE_OP_READ : TRACE_OP_WRITE;
	return 1;
}

const struct trace_fmt trace_fmt_systor = {
	.id = TRACE_FMT_SYSTOR,
	.name = "systor",
	.layout = "Timestamp,Response,IOType,LUN,Offset,Size",
	.probe_line = systor_probe,
	.parse_line = systor_parse,
};
