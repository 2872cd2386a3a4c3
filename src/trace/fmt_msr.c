/* MSR Cambridge block traces (SNIA IOTTA 388), one CSV line per I/O:
 * Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime with Timestamp and ResponseTime
 * in Windows FILETIME ticks of 100 ns, Offset and Size in bytes, Type Read or Write. A volume is
 * a host and a disk: the first host's disks are devices 0, 1, ...; the next host's (files
 * concatenated, hm_0 then prn_0) count from 65536, host index << 16 | disk, in order of
 * appearance. */
#include "reader.h"

#include <errno.h>
#include <string.h>

#include "names.h"
#include "scan.h"

enum {
	MSR_TICK_NS = 100,
	MSR_MAX_HOSTS = 1 << 15, /* a device number is host index << 16 | disk */
	MSR_MAX_DISK = 0xffff,
};

/* The index of host w (added on first sight). Returns it or -errno (-EINVAL with a message). */
static int msr_host(struct trace_reader *r, const char *w, size_t len)
{
	int ret = trace_names_index(r->priv, w, len, MSR_MAX_HOSTS);

	if (ret == -E2BIG)
		return trace_reader_bad(r,
					"more than %d host names; expected a trace of a few "
					"servers",
					MSR_MAX_HOSTS);
	return ret;
}

static bool msr_probe(const char *line)
{
	const char *p = line, *w;
	uint64_t v;
	size_t len;

	if (trace_scan_u64(&p, &v) || trace_scan_sep(&p, ','))
		return false;
	trace_scan_word(&p, ',', &len); /* host name */
	if (!len || trace_scan_sep(&p, ',') || trace_scan_u64(&p, &v) || trace_scan_sep(&p, ','))
		return false;
	w = trace_scan_word(&p, ',', &len);
	if (!trace_scan_word_is(w, len, "read") && !trace_scan_word_is(w, len, "write"))
		return false;
	for (int i = 0; i < 3; i++)
		if (trace_scan_sep(&p, ',') || trace_scan_u64(&p, &v))
			return false;
	return trace_scan_is_end(p);
}

static int msr_op(struct trace_reader *r, const char **pp, struct trace_rec *rec)
{
	const char *at = *pp, *w;
	size_t len;

	if (trace_field_word(r, pp, ',', "Type", &w, &len) < 0)
		return -EINVAL;
	if (trace_scan_word_is(w, len, "read"))
		rec->op = TRACE_OP_READ;
	else if (trace_scan_word_is(w, len, "write"))
		rec->op = TRACE_OP_WRITE;
	else
		return trace_field_bad(r, at, ',', "Type", "Read or Write");
	return 0;
}

static int msr_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *p = line, *w, *at;
	uint64_t ticks, rt;
	size_t len;
	int host;

	if (!trace_line_is_data(p))
		return 0; /* a header row some re-packagers add */
	if (trace_field_u64(r, &p, ',', "Timestamp", &ticks) < 0 ||
	    trace_field_word(r, &p, ',', "Hostname", &w, &len) < 0)
		return -EINVAL;
	host = msr_host(r, w, len);
	if (host < 0)
		return host;
	at = p;
	if (trace_field_u32(r, &p, ',', "DiskNumber", &rec->dev) < 0)
		return -EINVAL;
	if (rec->dev > MSR_MAX_DISK)
		return trace_field_bad(r, at, ',', "DiskNumber", "a disk number up to 65535");
	rec->dev |= (uint32_t)host << 16;
	if (msr_op(r, &p, rec) < 0 ||
	    trace_field_u64(r, &p, ',', "Offset", &rec->offset_bytes) < 0 ||
	    trace_field_u32(r, &p, ',', "Size", &rec->size_bytes) < 0 ||
	    trace_field_u64(r, &p, 0, "ResponseTime", &rt) < 0 ||
	    trace_field_end(r, p, "ResponseTime") < 0)
		return -EINVAL;
	if (ticks > UINT64_MAX / MSR_TICK_NS || rt > UINT64_MAX / MSR_TICK_NS)
		return trace_reader_bad(r, "Timestamp or ResponseTime too large for nanoseconds");
	rec->time_ns = ticks * MSR_TICK_NS;
	rec->latency_ns = rt * MSR_TICK_NS;
	return 1;
}

const struct trace_fmt trace_fmt_msr = {
	.id = TRACE_FMT_MSR,
	.name = "msr",
	.layout = "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime",
	.probe_line = msr_probe,
	.parse_line = msr_parse,
	.init = trace_names_priv_init,
	.fini = trace_names_priv_fini,
};
