/* blkparse's default text output, "%D %2c %8s %5T.%9t %5p %2a %3d" then an action-specific
 * tail: "259,0  1  2  0.000000184 21279  Q  RA 2348060440 + 8 [comm]". Every action code
 * is read; one of Q, D or C becomes records (trace_opts.action). Lines not starting with
 * "maj,min" (the per-CPU and total summaries at the end) are skipped. */
#include "reader.h"

#include <errno.h>
#include <string.h>

#include "scan.h"

enum {
	BLKPARSE_SECTOR_BYTES = 512,
	BLKPARSE_MINOR_BITS = 20, /* blktrace's device = major << 20 | minor */
};

int trace_rwbs_op(const char *rwbs, size_t len, uint8_t *op)
{
	size_t i = 0;
	bool has_preflush = false;

	if (!len)
		return -EINVAL;
	for (size_t j = 0; j < len; j++)
		if (rwbs[j] < 'A' || rwbs[j] > 'Z')
			return -EINVAL;
	if (rwbs[0] == 'F' && len > 1) { /* a leading F is a pre-flush */
		has_preflush = true;
		i = 1;
	}
	switch (rwbs[i]) {
	case 'R':
		*op = TRACE_OP_READ;
		return 1;
	case 'W':
		*op = TRACE_OP_WRITE;
		return 1;
	case 'D':
		*op = TRACE_OP_DISCARD;
		return 1;
	case 'F':
	case 'B': /* barrier, in old traces */
		*op = TRACE_OP_FLUSH;
		return 1;
	case 'N':
		*op = TRACE_OP_FLUSH;
		return has_preflush ? 1 : 0;
	default:
		return -EINVAL;
	}
}

int trace_majmin_dev(struct trace_reader *r, uint32_t maj, uint32_t min, uint32_t *dev)
{
	if (maj >= 1u << (32 - BLKPARSE_MINOR_BITS) || min >= 1u << BLKPARSE_MINOR_BITS)
		return trace_reader_bad(r, "device %u,%u out of range", maj, min);
	*dev = maj << BLKPARSE_MINOR_BITS | min;
	return 0;
}

/* "maj,min cpu seq sec.nsec pid": the head common to every event line. */
static int blkparse_head(struct trace_reader *r, const char **pp, struct trace_rec *rec)
{
	uint32_t maj, min, u32;
	uint64_t seq;

	if (trace_field_u32(r, pp, ',', "major", &maj) < 0 ||
	    trace_field_u32(r, pp, 0, "minor", &min) < 0 ||
	    trace_field_u32(r, pp, 0, "cpu", &u32) < 0 ||
	    trace_field_u64(r, pp, 0, "sequence", &seq) < 0 ||
	    trace_field_dec_ns(r, pp, 0, 1000000000, "time", &rec->time_ns) < 0 ||
	    trace_field_u32(r, pp, 0, "pid", &u32) < 0)
		return -EINVAL;
	return trace_majmin_dev(r, maj, min, &rec->dev);
}

enum trace_action trace_blk_action(const char *w, size_t len)
{
	if (len != 1)
		return TRACE_ACT_AUTO;
	switch (*w) {
	case 'Q':
		return TRACE_ACT_QUEUE;
	case 'D':
		return TRACE_ACT_ISSUE;
	case 'C':
		return TRACE_ACT_COMPLETE;
	default:
		return TRACE_ACT_AUTO;
	}
}

/* Whether the tail holds "sector + count". */
static bool has_count(const char *p)
{
	uint64_t sector;

	return !trace_scan_u64(&p, &sector) && !trace_scan_sep(&p, '+');
}

/* A block_rq_* tracepoint's "bytes (command)" or "(command)" between the RWBS and the sector
 * (ftrace, trace-cmd, perf script): p after them. blkparse has a sector there, never a
 * number followed by '(' nor a '('. */
static const char *skip_request_fields(const char *p)
{
	const char *q = p, *close;
	uint64_t bytes;

	if (!trace_scan_u64(&q, &bytes) && *(q = trace_scan_blanks(q)) == '(')
		p = q;
	p = trace_scan_blanks(p);
	if (*p == '(' && (close = strchr(p, ')')))
		p = close + 1;
	return p;
}

/* The tail "sector + count [...]"; flushes may have none (size 0 then). */
static int blkparse_tail(struct trace_reader *r, const char *p, struct trace_rec *rec)
{
	uint64_t sector, nr_sectors;
	const char *q = p;

	if (trace_scan_u64(&q, &sector) || trace_scan_sep(&q, '+')) {
		rec->offset_bytes = 0; /* not an earlier line's, in the same record */
		rec->size_bytes = 0;
		if (rec->op == TRACE_OP_FLUSH)
			return 1;
		return trace_field_bad(r, p, 0, "sector", "'sector + count' after the RWBS field");
	}
	if (trace_field_u64(r, &q, 0, "count", &nr_sectors) < 0)
		return -EINVAL;
	if (sector > UINT64_MAX / BLKPARSE_SECTOR_BYTES ||
	    nr_sectors > UINT32_MAX / BLKPARSE_SECTOR_BYTES)
		return trace_reader_bad(r, "sector or count too large");
	rec->offset_bytes = sector * BLKPARSE_SECTOR_BYTES;
	rec->size_bytes = (uint32_t)(nr_sectors * BLKPARSE_SECTOR_BYTES);
	return 1;
}

int trace_blk_event(struct trace_reader *r, enum trace_action act, const char *p,
		    struct trace_rec *rec)
{
	const char *w;
	size_t len;
	int ret;

	if (r->is_scanning) {
		r->nr_by_action[act]++;
		return 0;
	}
	if (act != r->action && !(act == TRACE_ACT_ISSUE && r->action == TRACE_ACT_COMPLETE))
		return 0;
	w = trace_scan_word(&p, 0, &len);
	ret = trace_rwbs_op(w, len, &rec->op);
	if (ret < 0)
		return trace_field_bad(r, w, 0, "RWBS", "letters such as R, W, RA, WS, FN, DS");
	if (ret == 0)
		return 0;
	p = skip_request_fields(p);
	/* a write with a flush (FWFS, WFS) and no "+ count" carries no data: the kernel's
	 * empty pre-flush, "Q FWFS [comm]", completed as "C WFS 575480360 [0]" */
	if (rec->op == TRACE_OP_WRITE && memchr(w, 'F', len) && !has_count(p))
		rec->op = TRACE_OP_FLUSH;
	ret = blkparse_tail(r, p, rec);
	if (ret <= 0 || r->action != TRACE_ACT_COMPLETE)
		return ret;
	/* completions: their latency from the issue of the same sector (D to C) */
	if (act == TRACE_ACT_ISSUE && !rec->size_bytes)
		return 0;
	if (act == TRACE_ACT_ISSUE)
		return trace_issues_put(&r->issues, rec->dev, rec->offset_bytes, rec->time_ns) < 0
			       ? trace_reader_bad(r, "out of memory")
			       : 0;
	if (rec->size_bytes)
		rec->latency_ns =
			trace_issues_take(&r->issues, rec->dev, rec->offset_bytes, rec->time_ns);
	return 1;
}

static int blkparse_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *p = line, *w;
	size_t len;

	if (!trace_line_is_data(p))
		return 0;
	if (blkparse_head(r, &p, rec) < 0)
		return -EINVAL;
	w = trace_scan_word(&p, 0, &len);
	if (!len)
		return trace_field_bad(r, p, 0, "action", "an action code (Q, D, C...)");
	return trace_blk_event(r, trace_blk_action(w, len), p, rec);
}

/* Q when the trace has any, else D, else C: counts the first events, then rewinds. */
int trace_blk_pick_action(struct trace_reader *r)
{
	struct trace_rec rec;
	uint64_t nr = 0;
	int ret;

	r->is_scanning = true;
	while (nr < TRACE_SCAN_EVENTS) {
		char *line;
		size_t len;

		ret = trace_input_line(&r->in, &line, &len);
		if (ret <= 0)
			break;
		if (r->fmt->parse_line(r, line, &rec) == 0 && r->fmt->probe_line(line))
			nr++;
	}
	r->is_scanning = false;
	r->err.msg[0] = '\0';
	r->action = r->nr_by_action[TRACE_ACT_QUEUE]   ? TRACE_ACT_QUEUE
		    : r->nr_by_action[TRACE_ACT_ISSUE] ? TRACE_ACT_ISSUE
						       : TRACE_ACT_COMPLETE;
	return trace_input_rewind(&r->in);
}

static bool blkparse_probe(const char *line)
{
	const char *p = line, *w;
	uint64_t v;
	size_t len;

	if (trace_scan_u64(&p, &v) || *p != ',')
		return false;
	p++;
	for (int i = 0; i < 3; i++)
		if (trace_scan_u64(&p, &v) || (*p != ' ' && *p != '\t'))
			return false;
	if (trace_scan_dec_ns(&p, 1000000000, &v) || trace_scan_u64(&p, &v))
		return false;
	w = trace_scan_word(&p, 0, &len);
	return len >= 1 && len <= 2 && w[0] >= 'A' && w[0] <= 'z';
}

const struct trace_fmt trace_fmt_blkparse = {
	.id = TRACE_FMT_BLKPARSE,
	.name = "blkparse",
	.layout = "maj,min cpu sequence sec.nsec pid action RWBS sector + count [command]",
	.probe_line = blkparse_probe,
	.parse_line = blkparse_parse,
	.pick_action = trace_blk_pick_action,
};
