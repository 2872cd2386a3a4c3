/* FIU block traces (SyLab, SNIA IOTTA 390/391: homes, mail, web-vm), one line per I/O,
 * blank-separated: ts pid process lba size W|R major minor md5, with ts in nanoseconds, lba
 * and size in 512-byte blocks and the device major,minor (as blkparse's). The process name
 * may hold blanks: the fields after it are read from the end of the line. */
#include "reader.h"

#include <errno.h>

#include "scan.h"

enum {
	FIU_SECTOR_BYTES = 512,
	FIU_TAIL_FIELDS = 6, /* lba size op major minor md5 */
};

/* The start of the line's last FIU_TAIL_FIELDS words, NULL when nothing is before them (the
 * caller reads ts and pid from the start; the process name may be empty). */
static const char *tail_of(const char *line)
{
	const char *w[FIU_TAIL_FIELDS];
	size_t len[FIU_TAIL_FIELDS];

	if (trace_scan_last_words(line, FIU_TAIL_FIELDS, w, len) < FIU_TAIL_FIELDS)
		return NULL;
	return w[0] > line ? w[0] : NULL;
}

static bool fiu_probe(const char *line)
{
	const char *p = line, *w;
	uint64_t v;
	size_t len;

	if (trace_scan_u64(&p, &v) || trace_scan_u64(&p, &v))
		return false;
	p = tail_of(line);
	if (!p || trace_scan_u64(&p, &v) || trace_scan_u64(&p, &v))
		return false;
	w = trace_scan_word(&p, 0, &len);
	if (len != 1 || (*w != 'R' && *w != 'W'))
		return false;
	if (trace_scan_u64(&p, &v) || trace_scan_u64(&p, &v))
		return false;
	trace_scan_word(&p, 0, &len); /* md5 */
	return len && trace_scan_is_end(p);
}

static int fiu_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *p = line, *w;
	uint64_t pid, lba, nr_blocks;
	uint32_t maj, min;
	size_t len;

	if (!trace_line_is_data(p))
		return 0;
	if (trace_field_u64(r, &p, 0, "ts", &rec->time_ns) < 0 ||
	    trace_field_u64(r, &p, 0, "pid", &pid) < 0)
		return -EINVAL;
	p = tail_of(line);
	if (!p)
		return trace_reader_bad(r, "too few fields; expected %s", r->fmt->layout);
	if (trace_field_u64(r, &p, 0, "lba", &lba) < 0 ||
	    trace_field_u64(r, &p, 0, "size", &nr_blocks) < 0)
		return -EINVAL;
	w = trace_scan_word(&p, 0, &len);
	if (len != 1 || (*w != 'R' && *w != 'W'))
		return trace_field_bad(r, w, 0, "op", "R or W");
	if (trace_field_u32(r, &p, 0, "major", &maj) < 0 ||
	    trace_field_u32(r, &p, 0, "minor", &min) < 0)
		return -EINVAL;
	if (trace_majmin_dev(r, maj, min, &rec->dev) < 0)
		return -EINVAL;
	if (lba > UINT64_MAX / FIU_SECTOR_BYTES || nr_blocks > UINT32_MAX / FIU_SECTOR_BYTES)
		return trace_reader_bad(r, "lba or size too large");
	rec->op = *w == 'R' ? TRACE_OP_READ : TRACE_OP_WRITE;
	rec->offset_bytes = lba * FIU_SECTOR_BYTES;
	rec->size_bytes = (uint32_t)(nr_blocks * FIU_SECTOR_BYTES);
	return 1;
}

const struct trace_fmt trace_fmt_fiu = {
	.id = TRACE_FMT_FIU,
	.name = "fiu",
	.layout = "ts pid process lba size W|R major minor md5",
	.probe_line = fiu_probe,
	.parse_line = fiu_parse,
};
