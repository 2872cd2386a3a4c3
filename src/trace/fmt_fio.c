/* fio iolog versions 2 and 3 (fio's HOWTO, "Trace file format"): a first line "fio version N
 * iolog", then "[TIME] FILE add|open|close" and "[TIME] FILE read|write|trim|sync|datasync
 * OFFSET LENGTH" in bytes; v3 starts every line with microseconds since the run start, v2
 * advances time with "FILE wait USECS" (below 100 ignored, as fio does). dev is the file's
 * index in order of appearance. ioramp's recordings are v3. */
#include "reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "scan.h"

enum {
	FIO_MAX_FILES = 65536,
	FIO_MIN_WAIT_US = 100,
};

struct fio_state {
	struct trace_names files;
	uint64_t time_ns; /* v2: the clock advanced by wait lines */
};

static int fio_init(struct trace_reader *r, const char *path)
{
	(void)path;
	r->priv = calloc(1, sizeof(struct fio_state));
	return r->priv ? 0 : -ENOMEM;
}

static void fio_fini(struct trace_reader *r)
{
	struct fio_state *st = r->priv;

	if (!st)
		return;
	trace_names_fini(&st->files);
	free(st);
	r->priv = NULL;
}

static bool fio_name_is(const char *name, const char *w, size_t len)
{
	return strlen(name) == len && !memcmp(name, w, len); /* never past name's end */
}

/* The index of file w[0, len), registered on first sight. Returns it or -errno. */
static int fio_file(struct trace_reader *r, const char *w, size_t len)
{
	struct fio_state *st = r->priv;
	int ret = trace_names_index(&st->files, w, len, FIO_MAX_FILES);

	if (ret == -E2BIG)
		return trace_reader_bad(r, "more than %d files", FIO_MAX_FILES);
	return ret;
}

static int fio_io_op(const char *w, size_t len, uint8_t *op)
{
	static const struct {
		const char *word;
		uint8_t op;
	} ops[] = {
		{ "read", TRACE_OP_READ },	{ "write", TRACE_OP_WRITE },
		{ "trim", TRACE_OP_DISCARD },	{ "sync", TRACE_OP_FLUSH },
		{ "datasync", TRACE_OP_FLUSH },
	};

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(ops); i++) {
		if (fio_name_is(ops[i].word, w, len)) {
			*op = ops[i].op;
			return 1;
		}
	}
	if (fio_name_is("add", w, len) || fio_name_is("open", w, len) ||
	    fio_name_is("close", w, len))
		return 0;
	return -EINVAL;
}

/* "OFFSET LENGTH" after an I/O action; optional for sync and datasync. */
static int fio_extent(struct trace_reader *r, const char *p, struct trace_rec *rec)
{
	if (rec->op == TRACE_OP_FLUSH && trace_scan_is_end(p))
		return 1;
	if (trace_field_u64(r, &p, 0, "offset", &rec->offset_bytes) < 0 ||
	    trace_field_u32(r, &p, 0, "length", &rec->size_bytes) < 0 ||
	    trace_field_end(r, p, "length") < 0)
		return -EINVAL;
	return 1;
}

/* "FILE ACTION [...]" once the v3 time (if any) is read. */
static int fio_rest(struct trace_reader *r, const char *p, struct trace_rec *rec, bool is_v3)
{
	struct fio_state *st = r->priv;
	const char *w, *at;
	size_t len;
	uint64_t wait_us;
	int idx, ret;

	w = trace_scan_word(&p, 0, &len);
	if (!len)
		return trace_field_bad(r, w, 0, "file name", "a file name then an action");
	idx = fio_file(r, w, len);
	if (idx < 0)
		return idx;
	at = p;
	w = trace_scan_word(&p, 0, &len);
	if (!is_v3 && fio_name_is("wait", w, len)) {
		if (trace_field_u64(r, &p, 0, "wait", &wait_us) < 0)
			return -EINVAL;
		if (wait_us >= FIO_MIN_WAIT_US)
			st->time_ns += wait_us * 1000;
		return 0;
	}
	ret = fio_io_op(w, len, &rec->op);
	if (ret < 0)
		return trace_field_bad(r, at, 0, "action",
				       "add, open, close, read, write, trim, sync or datasync");
	if (ret == 0)
		return trace_field_end(r, p, "the file action");
	rec->dev = (uint32_t)idx;
	if (!is_v3)
		rec->time_ns = st->time_ns;
	return fio_extent(r, p, rec);
}

static int fio_parse(struct trace_reader *r, char *line, struct trace_rec *rec, bool is_v3)
{
	const char *p = line;

	if (r->line_nr == 1 && !strncmp(line, "fio version ", 12))
		return 0;
	if (trace_scan_is_end(p))
		return 0;
	if (is_v3 && trace_field_dec_ns(r, &p, 0, 1000, "timestamp", &rec->time_ns) < 0)
		return -EINVAL;
	return fio_rest(r, p, rec, is_v3);
}

static int fio2_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	return fio_parse(r, line, rec, false);
}

static int fio3_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	return fio_parse(r, line, rec, true);
}

static bool fio2_probe(const char *line)
{
	return !strncmp(line, "fio version 2 iolog", 19);
}

static bool fio3_probe(const char *line)
{
	return !strncmp(line, "fio version 3 iolog", 19);
}

const struct trace_fmt trace_fmt_fio2 = {
	.id = TRACE_FMT_FIO2,
	.name = "fio2",
	.layout = "FILE ACTION [OFFSET LENGTH]",
	.probe_line = fio2_probe,
	.parse_line = fio2_parse,
	.init = fio_init,
	.fini = fio_fini,
};

const struct trace_fmt trace_fmt_fio3 = {
	.id = TRACE_FMT_FIO3,
	.name = "fio3",
	.layout = "TIME_US FILE ACTION [OFFSET LENGTH]",
	.probe_line = fio3_probe,
	.parse_line = fio3_parse,
	.init = fio_init,
	.fini = fio_fini,
};
