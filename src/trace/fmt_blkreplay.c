/* blkreplay ".load" files (1&1): a free-text header, then
 * "start ; sector ; length ; op ; replay_delay ; replay_duration" with start in seconds (with
 * nanoseconds), sector and length in 512-byte units and op the RWBS letters (R, W, RA...).
 * Any line whose first field is not a number is skipped: some files repeat their header. */
#include "reader.h"

#include <errno.h>

#include "scan.h"

enum {
	BLKREPLAY_SECTOR_BYTES = 512,
};

static bool blkreplay_probe(const char *line)
{
	const char *p = line, *w;
	uint64_t v;
	size_t len;
	uint8_t op;

	if (trace_scan_dec_ns(&p, 1000000000, &v) || trace_scan_sep(&p, ';') ||
	    trace_scan_u64(&p, &v) || trace_scan_sep(&p, ';') || trace_scan_u64(&p, &v) ||
	    trace_scan_sep(&p, ';'))
		return false;
	w = trace_scan_word(&p, ';', &len);
	return trace_rwbs_op(w, len, &op) >= 0;
}

static int blkreplay_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *p = line, *at, *w;
	uint64_t sector, nr_sectors;
	size_t len;
	int ret;

	if (!trace_line_is_data(p))
		return 0;
	if (trace_field_dec_ns(r, &p, ';', 1000000000, "start", &rec->time_ns) < 0 ||
	    trace_field_u64(r, &p, ';', "sector", &sector) < 0 ||
	    trace_field_u64(r, &p, ';', "length", &nr_sectors) < 0)
		return -EINVAL;
	at = p;
	w = trace_scan_word(&p, ';', &len);
	ret = trace_rwbs_op(w, len, &rec->op);
	if (ret < 0)
		return trace_field_bad(r, at, ';', "op", "R, W or other RWBS letters");
	if (ret == 0)
		return 0; /* no data, no flush */
	if (sector > UINT64_MAX / BLKREPLAY_SECTOR_BYTES ||
	    nr_sectors > UINT32_MAX / BLKREPLAY_SECTOR_BYTES)
		return trace_reader_bad(r, "sector or length too large");
	rec->offset_bytes = sector * BLKREPLAY_SECTOR_BYTES;
	rec->size_bytes = (uint32_t)(nr_sectors * BLKREPLAY_SECTOR_BYTES);
	return 1;
}

const struct trace_fmt trace_fmt_blkreplay = {
	.id = TRACE_FMT_BLKREPLAY,
	.name = "blkreplay",
	.layout = "start ; sector ; length ; op ; replay_delay ; replay_duration",
	.probe_line = blkreplay_probe,
	.parse_line = blkreplay_parse,
};
