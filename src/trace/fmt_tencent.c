/* Tencent Cloud Block Storage traces (SNIA IOTTA): Timestamp,Offset,Size,IOType,VolumeID with
 * Timestamp in Unix seconds, Offset and Size in 512-byte sectors and IOType 0 read, 1 write. */
#include "reader.h"

#include <errno.h>

#include "scan.h"

enum {
	TENCENT_SECTOR_BYTES = 512,
};

static bool tencent_probe(const char *line)
{
	const char *p = line;
	uint64_t v;

	for (int i = 0; i < 5; i++) {
		if (i && trace_scan_sep(&p, ','))
			return false;
		if (trace_scan_u64(&p, &v) || (i == 3 && v > 1))
			return false;
	}
	return trace_scan_is_end(p);
}

static int tencent_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *p = line, *at;
	uint64_t sector, nr_sectors, type;

	if (!trace_line_is_data(p))
		return 0;
	if (trace_field_dec_ns(r, &p, ',', 1000000000, "Timestamp", &rec->time_ns) < 0 ||
	    trace_field_u64(r, &p, ',', "Offset", &sector) < 0 ||
	    trace_field_u64(r, &p, ',', "Size", &nr_sectors) < 0)
		return -EINVAL;
	at = p;
	if (trace_field_u64(r, &p, ',', "IOType", &type) < 0)
		return -EINVAL;
	if (type > 1)
		return trace_field_bad(r, at, ',', "IOType", "0 (read) or 1 (write)");
	if (trace_field_u32(r, &p, 0, "VolumeID", &rec->dev) < 0 ||
	    trace_field_end(r, p, "VolumeID") < 0)
		return -EINVAL;
	if (sector > UINT64_MAX / TENCENT_SECTOR_BYTES ||
	    nr_sectors > UINT32_MAX / TENCENT_SECTOR_BYTES)
		return trace_reader_bad(r, "Offset or Size too large");
	rec->op = type ? TRACE_OP_WRITE : TRACE_OP_READ;
	rec->offset_bytes = sector * TENCENT_SECTOR_BYTES;
	rec->size_bytes = (uint32_t)(nr_sectors * TENCENT_SECTOR_BYTES);
	return 1;
}

const struct trace_fmt trace_fmt_tencent = {
	.id = TRACE_FMT_TENCENT,
	.name = "tencent",
	.layout = "Timestamp,Offset,Size,IOType,VolumeID",
	.probe_line = tencent_probe,
	.parse_line = tencent_parse,
};
