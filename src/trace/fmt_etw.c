/* Microsoft production and enterprise server traces (SNIA IOTTA 158: Exchange, TPC-C, TPC-E,
 * MSN file server, build server...): the text dump of Windows' event tracing (xperf,
 * tracerpt). A BeginHeader ... EndHeader block names every event type's columns; then one
 * line per event, its type first:
 *   DiskRead, TimeStamp, Process Name ( PID), ThreadID, [CPU,] IrpPtr, ByteOffset, IOSize,
 *   ElapsedTime, DiskNum, IrpFlags, DiskSvcTime, I/O Pri, VolSnap, FileObject, FileName
 * DiskRead and DiskWrite are I/Os and DiskFlush a flush; every other event is passed over.
 * The columns are found by their names in the header (newer xperf adds CPU); without one,
 * a CPU column is told from IrpPtr by the 0x the pointer starts with. TimeStamp,
 * ElapsedTime: microseconds; ByteOffset, IOSize: hexadecimal bytes. An event is logged when
 * its I/O completes: the I/O was issued at TimeStamp - ElapsedTime, its latency ElapsedTime. */
#include "reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scan.h"

enum {
	ETW_MAX_FIELDS = 24,
	ETW_US_NS = 1000,
};

enum etw_col {
	COL_TIME,
	COL_OFFSET,
	COL_SIZE,
	COL_ELAPSED,
	COL_DISK,
	NR_COLS
};

static const char *const col_names[NR_COLS] = { "TimeStamp", "ByteOffset", "IOSize", "ElapsedTime",
						"DiskNum" };

/* Where the columns are (indexes of comma-separated fields), per event type. */
struct etw_state {
	int io_cols[NR_COLS];	 /* DiskRead and DiskWrite */
	int flush_cols[NR_COLS]; /* DiskFlush: no ByteOffset nor IOSize */
	bool has_header, in_header;
};

/* The fields of a line split at its commas (at most ETW_MAX_FIELDS, the last holding the
 * rest: FileName may hold commas), blanks trimmed; returns how many. */
static int split(char *line, const char **f, size_t *len)
{
	int n = 0;
	char *p = line;

	for (;;) {
		char *comma = n + 1 < ETW_MAX_FIELDS ? strchr(p, ',') : NULL;
		char *end = comma ? comma : p + strlen(p);

		p = (char *)trace_scan_blanks(p);
		while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			end--;
		f[n] = p;
		len[n++] = (size_t)(end - p);
		if (!comma)
			return n;
		p = comma + 1;
	}
}

static bool is_word(const char *f, size_t len, const char *lit)
{
	return len == strlen(lit) && !memcmp(f, lit, len);
}

/* The columns of xperf's layout, without the CPU column or with it (after ThreadID). */
static void default_cols(int *cols, bool has_cpu, bool is_flush)
{
	static const int io[NR_COLS] = { 1, 5, 6, 7, 8 }, flush[NR_COLS] = { 1, -1, -1, 5, 6 };
	const int *plain = is_flush ? flush : io;

	for (int c = 0; c < NR_COLS; c++)
		cols[c] = plain[c] + (has_cpu && plain[c] >= 4);
}

static int etw_init(struct trace_reader *r, const char *path)
{
	struct etw_state *st = calloc(1, sizeof(*st));

	(void)path;
	if (!st)
		return -ENOMEM;
	default_cols(st->io_cols, false, false);
	default_cols(st->flush_cols, false, true);
	r->priv = st;
	return 0;
}

static void etw_fini(struct trace_reader *r)
{
	free(r->priv);
	r->priv = NULL;
}

/* A header line declaring an event type's columns: those of the disk events are kept. */
static void header_line(struct etw_state *st, const char **f, const size_t *len, int n)
{
	int *cols;

	if (is_word(f[0], len[0], "DiskRead") || is_word(f[0], len[0], "DiskWrite"))
		cols = st->io_cols;
	else if (is_word(f[0], len[0], "DiskFlush"))
		cols = st->flush_cols;
	else
		return;
	for (int c = 0; c < NR_COLS; c++) {
		cols[c] = -1;
		for (int i = 1; i < n; i++)
			if (is_word(f[i], len[i], col_names[c]))
				cols[c] = i;
	}
}

static int hex_field(struct trace_reader *r, const char *f, size_t len, const char *what,
		     uint64_t *out)
{
	char buf[24], *end;

	if (len < 3 || len >= sizeof(buf) || f[0] != '0' || (f[1] != 'x' && f[1] != 'X'))
		return trace_field_bad(r, f, ',', what, "a hexadecimal number (0x...)");
	memcpy(buf, f, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtoull(buf + 2, &end, 16);
	if (errno || *end || end == buf + 2)
		return trace_field_bad(r, f, ',', what, "a hexadecimal number (0x...)");
	return 0;
}

static int dec_field(struct trace_reader *r, const char *f, size_t len, const char *what,
		     uint64_t *out)
{
	const char *p = f;

	if (trace_scan_u64(&p, out) || p != f + len)
		return trace_field_bad(r, f, ',', what, "an unsigned integer");
	return 0;
}

/* The index of column c among this line's n fields, or an error naming the event's type. */
static int col(struct trace_reader *r, const int *cols, int c, int n, const char *type,
	       size_t type_len)
{
	if (cols[c] < 0 || cols[c] >= n)
		return trace_reader_bad(r, "no %s column in this %.*s event; expected %s",
					col_names[c], (int)type_len, type, r->fmt->layout);
	return cols[c];
}

static int etw_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	struct etw_state *st = r->priv;
	const char *f[ETW_MAX_FIELDS];
	size_t len[ETW_MAX_FIELDS];
	uint64_t v[NR_COLS] = { 0 };
	const int *cols;
	int n, i[NR_COLS];
	bool is_flush;

	n = split(line, f, len);
	if (is_word(f[0], len[0], "BeginHeader") || is_word(f[0], len[0], "EndHeader")) {
		st->in_header = is_word(f[0], len[0], "BeginHeader");
		st->has_header = true;
		return 0;
	}
	if (st->in_header) {
		header_line(st, f, len, n);
		return 0;
	}
	is_flush = is_word(f[0], len[0], "DiskFlush");
	if (!is_flush && !is_word(f[0], len[0], "DiskRead") && !is_word(f[0], len[0], "DiskWrite"))
		return 0;
	if (!st->has_header && n > 4) /* xperf's CPU column: a small number where IrpPtr was */
		default_cols(is_flush ? st->flush_cols : st->io_cols,
			     !(len[4] > 1 && f[4][0] == '0' && (f[4][1] == 'x' || f[4][1] == 'X')),
			     is_flush);
	cols = is_flush ? st->flush_cols : st->io_cols;
	for (int c = 0; c < NR_COLS; c++) {
		if (is_flush && (c == COL_OFFSET || c == COL_SIZE))
			continue;
		i[c] = col(r, cols, c, n, f[0], len[0]);
		if (i[c] < 0)
			return -EINVAL;
		if (c == COL_OFFSET || c == COL_SIZE
			    ? hex_field(r, f[i[c]], len[i[c]], col_names[c], &v[c]) < 0
			    : dec_field(r, f[i[c]], len[i[c]], col_names[c], &v[c]) < 0)
			return -EINVAL;
	}
	if (v[COL_DISK] > UINT32_MAX || v[COL_SIZE] > UINT32_MAX ||
	    v[COL_TIME] > UINT64_MAX / ETW_US_NS || v[COL_ELAPSED] > UINT64_MAX / ETW_US_NS)
		return trace_reader_bad(r, "DiskNum, IOSize, TimeStamp or ElapsedTime too large");
	rec->op = is_flush ? TRACE_OP_FLUSH : f[0][4] == 'R' ? TRACE_OP_READ : TRACE_OP_WRITE;
	rec->dev = (uint32_t)v[COL_DISK];
	rec->offset_bytes = v[COL_OFFSET];
	rec->size_bytes = (uint32_t)v[COL_SIZE];
	rec->latency_ns = v[COL_ELAPSED] * ETW_US_NS;
	rec->time_ns = v[COL_TIME] * ETW_US_NS;
	rec->time_ns = rec->time_ns > rec->latency_ns ? rec->time_ns - rec->latency_ns : 0;
	return 1;
}

static bool etw_probe(const char *line)
{
	const char *p = trace_scan_blanks(line), *w;
	uint64_t v;
	size_t len;

	w = trace_scan_word(&p, ',', &len);
	if (!trace_scan_word_is(w, len, "DiskRead") && !trace_scan_word_is(w, len, "DiskWrite"))
		return false;
	return !trace_scan_sep(&p, ',') && !trace_scan_u64(&p, &v) && !trace_scan_sep(&p, ',');
}

const struct trace_fmt trace_fmt_etw = {
	.id = TRACE_FMT_ETW,
	.name = "etw",
	.layout = "DiskRead|DiskWrite, TimeStamp, Process Name ( PID), ThreadID, [CPU,] IrpPtr, "
		  "ByteOffset, IOSize, ElapsedTime, DiskNum, ... (columns named by the "
		  "BeginHeader block)",
	.probe_line = etw_probe,
	.parse_line = etw_parse,
	.init = etw_init,
	.fini = etw_fini,
};
