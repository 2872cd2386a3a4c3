/* The generic trace reader: opens the input, picks the format (given or detected), and runs
 * the line loop that numbers lines, skips or reports malformed ones and hands out records. */
#include "reader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "names.h"
#include "scan.h"

const struct trace_fmt *const trace_fmts[] = {
	&trace_fmt_blktrace, &trace_fmt_vscsi,	   &trace_fmt_fio3,	 &trace_fmt_fio2,
	&trace_fmt_blkparse, &trace_fmt_msr,	   &trace_fmt_blkreplay, &trace_fmt_alibaba,
	&trace_fmt_tencent,  &trace_fmt_spc,	   &trace_fmt_mqsim,	 &trace_fmt_disksim,
	&trace_fmt_ftrace,   &trace_fmt_systor,	   &trace_fmt_fiu,	 &trace_fmt_etw,
	&trace_fmt_biosnoop, &trace_fmt_vscsi_csv,
};
const size_t trace_nr_fmts = IORAMP_ARRAY_SIZE(trace_fmts);

static const struct trace_fmt *fmt_by_id(enum trace_format id)
{
	for (size_t i = 0; i < trace_nr_fmts; i++)
		if (trace_fmts[i]->id == id)
			return trace_fmts[i];
	return NULL;
}

const char *trace_format_name(enum trace_format fmt)
{
	const struct trace_fmt *f = fmt_by_id(fmt);

	if (fmt == TRACE_FMT_AUTO)
		return "auto";
	return f ? f->name : "?";
}

int trace_format_parse(const char *name, enum trace_format *out)
{
	if (!strcmp(name, "auto")) {
		*out = TRACE_FMT_AUTO;
		return 0;
	}
	if (!strcmp(name, "ioramp")) {
		*out = TRACE_FMT_FIO3;
		return 0;
	}
	for (size_t i = 0; i < trace_nr_fmts; i++) {
		if (!strcmp(name, trace_fmts[i]->name)) {
			*out = trace_fmts[i]->id;
			return 0;
		}
	}
	return -EINVAL;
}

const char *trace_format_names(void)
{
	return "auto blkparse blktrace msr spc fio2 fio3 ioramp disksim mqsim blkreplay alibaba "
	       "tencent vscsi vscsicsv ftrace systor fiu etw biosnoop";
}

bool trace_format_has_majmin(enum trace_format fmt)
{
	return fmt == TRACE_FMT_BLKPARSE || fmt == TRACE_FMT_BLKTRACE || fmt == TRACE_FMT_FTRACE ||
	       fmt == TRACE_FMT_FIU;
}

static const char *const action_names[TRACE_ACT_NR] = { "auto", "Q", "D", "C" };
static const char *const action_words[TRACE_ACT_NR] = { "auto", "queue", "issue", "complete" };

const char *trace_action_name(enum trace_action act)
{
	return act < TRACE_ACT_NR ? action_names[act] : "?";
}

int trace_action_parse(const char *name, enum trace_action *out)
{
	for (int i = 0; i < TRACE_ACT_NR; i++) {
		if (!strcasecmp(name, action_names[i]) || !strcmp(name, action_words[i])) {
			*out = (enum trace_action)i;
			return 0;
		}
	}
	return -EINVAL;
}

void trace_err_print(const struct trace_err *err, FILE *f)
{
	if (err->is_binary)
		fprintf(f, "%s+%llu: error: %s\n", err->file, (unsigned long long)err->offset_bytes,
			err->msg);
	else if (err->line)
		fprintf(f, "%s:%llu: error: %s\n", err->file, (unsigned long long)err->line,
			err->msg);
	else
		fprintf(f, "%s: error: %s\n", err->file, err->msg);
}

static void err_set(struct trace_err *err, const char *file, const char *fmt, va_list ap)
{
	if (file)
		snprintf(err->file, sizeof(err->file), "%s", file);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

int trace_reader_bad(struct trace_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_set(&r->err, NULL, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int trace_reader_bad_at(struct trace_reader *r, const char *file, uint64_t offset_bytes,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_set(&r->err, file, fmt, ap);
	va_end(ap);
	r->err.is_binary = true;
	r->err.offset_bytes = offset_bytes;
	return -EINVAL;
}

int trace_reader_cut(struct trace_reader *r, const char *file, uint64_t offset_bytes,
		     const char *what)
{
	snprintf(r->warning, sizeof(r->warning),
		 "%s+%" PRIu64 ": warning: %s; the records before it are kept",
		 file ? file : r->err.file, offset_bytes, what);
	return 0;
}

static void errf(struct trace_err *err, const char *fmt, ...) IORAMP_PRINTF(2, 3);

static void errf(struct trace_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_set(err, NULL, fmt, ap);
	va_end(ap);
}

static int reader_new(struct trace_reader **out, const char *name, const struct trace_opts *opts)
{
	struct trace_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	if (opts)
		r->opts = *opts;
	snprintf(r->err.file, sizeof(r->err.file), "%s", name);
	*out = r;
	return 0;
}

/* Selects the format (given or detected) and lets it set up. */
static int reader_setup(struct trace_reader *r, const char *path)
{
	int ret;

	if (r->opts.format == TRACE_FMT_AUTO) {
		r->fmt = trace_detect(&r->in, &r->err);
		if (!r->fmt)
			return -EINVAL;
	} else {
		r->fmt = fmt_by_id(r->opts.format);
		if (!r->fmt) {
			errf(&r->err, "unknown trace format %d", (int)r->opts.format);
			return -EINVAL;
		}
	}
	r->action = r->opts.action;
	if (r->fmt->init) {
		ret = r->fmt->init(r, path);
		if (ret < 0)
			return ret;
	}
	if (r->fmt->pick_action && r->action == TRACE_ACT_AUTO)
		return r->fmt->pick_action(r);
	return 0;
}

/* A blktrace base name ("x" or "x.blktrace") stands for its per-CPU files "x.blktrace.N":
 * returns the path to open in buf, or path itself. */
static const char *resolve_path(const char *path, char *buf, size_t len)
{
	static const char *const tails[] = { ".blktrace.0", ".0" };
	size_t n = strlen(path);
	struct stat st;

	if (stat(path, &st) == 0 || errno != ENOENT)
		return path;
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(tails); i++) {
		if (i == 1 && (n < 9 || strcmp(path + n - 9, ".blktrace")))
			continue;
		if ((size_t)snprintf(buf, len, "%s%s", path, tails[i]) < len && !stat(buf, &st))
			return buf;
	}
	return path;
}

static int reader_fail_open(struct trace_reader *r, int ret, struct trace_err *err)
{
	if (!r->err.msg[0])
		errf(&r->err, "%s", strerror(-ret));
	*err = r->err;
	trace_reader_close(r);
	return ret;
}

int trace_reader_open(struct trace_reader **out, const char *path, const struct trace_opts *opts,
		      struct trace_err *err)
{
	struct trace_reader *r;
	char buf[4096];
	const char *real_path = resolve_path(path, buf, sizeof(buf));
	int ret;

	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", path);
	ret = reader_new(&r, path, opts);
	if (ret < 0) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return ret;
	}
	ret = trace_input_open_file(&r->in, real_path, TRACE_INPUT_BUF_BYTES);
	if (ret < 0) {
		errf(&r->err, "cannot open: %s", strerror(-ret));
		return reader_fail_open(r, ret, err);
	}
	ret = reader_setup(r, real_path);
	if (ret < 0)
		return reader_fail_open(r, ret, err);
	*out = r;
	return 0;
}

int trace_reader_open_mem(struct trace_reader **out, const char *name, const void *data, size_t len,
			  const struct trace_opts *opts, struct trace_err *err)
{
	struct trace_reader *r;
	int ret;

	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", name);
	ret = reader_new(&r, name, opts);
	if (ret < 0) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return ret;
	}
	ret = trace_input_open_mem(&r->in, data, len);
	if (ret < 0)
		return reader_fail_open(r, ret, err);
	ret = reader_setup(r, NULL);
	if (ret < 0)
		return reader_fail_open(r, ret, err);
	*out = r;
	return 0;
}

static int reader_fail(struct trace_reader *r, int ret)
{
	r->fail_ret = ret;
	if (!r->err.msg[0])
		errf(&r->err, "%s", strerror(-ret));
	return ret;
}

static int reader_fail_input(struct trace_reader *r, int ret)
{
	r->err.line = r->line_nr;
	if (ret == -E2BIG)
		return reader_fail(
			r, trace_reader_bad(r, "line longer than %d bytes", TRACE_INPUT_BUF_BYTES));
	errf(&r->err, "read error (corrupt gzip data?)");
	return reader_fail(r, ret);
}

/* The end of the input: a real one, or a gzip file cut inside its stream: an error, or under
 * skip_bad the end with a warning. Returns 0 or -EINVAL (a malformed file). */
static int reader_end(struct trace_reader *r)
{
	if (!r->in.is_truncated || r->warning[0])
		return 0;
	if (r->opts.skip_bad) {
		if (r->fmt->is_binary)
			snprintf(r->warning, sizeof(r->warning),
				 "%s+%" PRIu64 ": warning: the file ends inside its gzip data "
				 "(truncated); the records before the cut are kept",
				 r->err.file, r->in.pos_bytes);
		else
			snprintf(r->warning, sizeof(r->warning),
				 "%s:%" PRIu64 ": warning: the file ends inside its gzip data "
				 "(truncated); the %" PRIu64 " lines before the cut are kept",
				 r->err.file, r->line_nr, r->line_nr);
		return 0;
	}
	r->err.line = r->line_nr;
	r->err.is_binary = r->fmt->is_binary;
	r->err.offset_bytes = r->in.pos_bytes;
	errf(&r->err, "the file ends inside its gzip data (truncated); expected a whole gzip "
		      "file, or --skip-bad to keep what comes before the cut");
	return reader_fail(r, -EINVAL);
}

/* Steps back in time this long are a clock that jumped, not I/Os logged out of order. */
enum {
	READER_BACK_NS = 1000000000
};

/* A read or write the figures cannot use: 0 bytes (passed over, counted: returns 0), or an
 * extent past 2^64 bytes (-EINVAL, a malformed line or record). 1 for a good record. */
static int reader_check_rec(struct trace_reader *r, const struct trace_rec *rec)
{
	if (rec->op != TRACE_OP_READ && rec->op != TRACE_OP_WRITE)
		return 1;
	if (!rec->size_bytes) {
		if (!r->nr_empty++)
			r->empty_line = r->line_nr;
		return 0;
	}
	if (rec->offset_bytes > UINT64_MAX - rec->size_bytes)
		return trace_reader_bad(r,
					"offset %" PRIu64 " + size %" PRIu32
					" runs past 2^64 bytes; expected an I/O inside a device",
					rec->offset_bytes, rec->size_bytes);
	if (rec->time_ns + READER_BACK_NS <= r->prev_ns) { /* a clock that jumped: say where */
		r->nr_back_1s++;
		if (r->prev_ns - rec->time_ns > r->back_ns) {
			r->back_ns = r->prev_ns - rec->time_ns;
			r->back_line = r->line_nr;
		}
	}
	r->prev_ns = rec->time_ns;
	return 1;
}

static int reader_next_line(struct trace_reader *r, struct trace_rec *rec)
{
	for (;;) {
		char *line;
		size_t len;
		int ret = trace_input_line(&r->in, &line, &len);

		if (ret == 0)
			return reader_end(r);
		r->line_nr++;
		if (ret < 0)
			return reader_fail_input(r, ret);
		ret = r->fmt->parse_line(r, line, rec);
		if (ret == 1)
			ret = reader_check_rec(r, rec);
		if (ret == 1)
			return 1;
		if (ret == 0) {
			memset(rec, 0, sizeof(*rec));
			continue;
		}
		if (!r->opts.skip_bad || ret != -EINVAL) {
			r->err.line = r->line_nr;
			return reader_fail(r, ret);
		}
		r->nr_skipped++;
		r->err.msg[0] = '\0';
	}
}

int trace_reader_next(struct trace_reader *r, struct trace_rec *rec)
{
	int ret;

	if (r->fail_ret)
		return r->fail_ret;
	memset(rec, 0, sizeof(*rec));
	if (!r->fmt->is_binary)
		return reader_next_line(r, rec);
	for (;;) {
		uint64_t at = r->in.pos_bytes; /* where the record starts, before a sort window */

		ret = r->fmt->next_bin(r, rec);
		if (ret != 1)
			break;
		ret = reader_check_rec(r, rec);
		if (ret < 0) {
			r->err.is_binary = true;
			r->err.offset_bytes = at;
		}
		if (ret != 0)
			break;
		memset(rec, 0, sizeof(*rec));
	}
	if (ret == 0)
		return reader_end(r);
	return ret < 0 ? reader_fail(r, ret) : ret;
}

const struct trace_err *trace_reader_err(const struct trace_reader *r)
{
	return &r->err;
}

enum trace_format trace_reader_format(const struct trace_reader *r)
{
	return r->fmt->id;
}

enum trace_action trace_reader_action(const struct trace_reader *r)
{
	return r->action;
}

const char *trace_reader_warning(const struct trace_reader *r)
{
	return r->warning[0] ? r->warning : NULL;
}

uint64_t trace_reader_nr_skipped(const struct trace_reader *r)
{
	return r->nr_skipped;
}

uint64_t trace_reader_nr_empty(const struct trace_reader *r, uint64_t *empty_line)
{
	if (empty_line)
		*empty_line = r->empty_line;
	return r->nr_empty;
}

void trace_reader_print_notes(const struct trace_reader *r, FILE *f)
{
	if (r->nr_skipped)
		fprintf(f, "%s: warning: %" PRIu64 " malformed lines skipped\n", r->err.file,
			r->nr_skipped);
	if (r->nr_empty && r->empty_line)
		fprintf(f,
			"%s:%" PRIu64 ": warning: %" PRIu64
			" reads or writes of 0 bytes passed over "
			"(no data moved: in no figure, never replayed); the first is here\n",
			r->err.file, r->empty_line, r->nr_empty);
	else if (r->nr_empty)
		fprintf(f,
			"%s: warning: %" PRIu64 " reads or writes of 0 bytes passed over (no data "
			"moved: in no figure, never replayed)\n",
			r->err.file, r->nr_empty);
	if (r->nr_back_1s) {
		fprintf(f, "%s", r->err.file);
		if (r->back_line)
			fprintf(f, ":%" PRIu64, r->back_line);
		fprintf(f,
			": warning: the clock goes back %.3f s here (%" PRIu64 " steps back of "
			"1 s or more): it jumped; the duration, rates and gaps take the records in "
			"the trace's order\n",
			(double)r->back_ns / 1e9, r->nr_back_1s);
	}
	if (r->warning[0])
		fprintf(f, "%s\n", r->warning);
}

void trace_reader_close(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->fmt && r->fmt->fini)
		r->fmt->fini(r);
	trace_issues_fini(&r->issues);
	trace_input_close(&r->in);
	free(r);
}

int trace_field_bad(struct trace_reader *r, const char *at, char sep, const char *what,
		    const char *expected)
{
	const char *q = at;
	size_t len;
	const char *w = trace_scan_word(&q, sep, &len);

	if (!len)
		return trace_reader_bad(r, "missing %s; expected %s (layout: %s)", what, expected,
					r->fmt->layout);
	return trace_reader_bad(r, "bad %s '%.*s'; expected %s", what, len > 40 ? 40 : (int)len, w,
				expected);
}

/* After a value: the separator, or a message saying what is missing. */
static int field_sep(struct trace_reader *r, const char **pp, const char *at, char sep,
		     const char *what, const char *expected)
{
	if (!sep) { /* a blank-separated field ends at a blank */
		if (**pp && **pp != ' ' && **pp != '\t')
			return trace_field_bad(r, at, 0, what, expected);
		return 0;
	}
	if (trace_scan_sep(pp, sep) == 0)
		return 0;
	if (trace_scan_is_end(*pp))
		return trace_reader_bad(r, "line ends after %s; expected %s", what, r->fmt->layout);
	return trace_field_bad(r, at, sep, what, expected);
}

int trace_field_u64(struct trace_reader *r, const char **pp, char sep, const char *what,
		    uint64_t *out)
{
	const char *p = *pp;

	if (trace_scan_u64(&p, out) < 0)
		return trace_field_bad(r, *pp, sep, what, "an unsigned integer");
	if (field_sep(r, &p, *pp, sep, what, "an unsigned integer") < 0)
		return -EINVAL;
	*pp = p;
	return 0;
}

int trace_field_u32(struct trace_reader *r, const char **pp, char sep, const char *what,
		    uint32_t *out)
{
	const char *p = *pp;

	if (trace_scan_u32(&p, out) < 0)
		return trace_field_bad(r, *pp, sep, what, "an unsigned 32-bit integer");
	if (field_sep(r, &p, *pp, sep, what, "an unsigned 32-bit integer") < 0)
		return -EINVAL;
	*pp = p;
	return 0;
}

int trace_field_dec_ns(struct trace_reader *r, const char **pp, char sep, uint64_t unit_ns,
		       const char *what, uint64_t *out_ns)
{
	const char *p = *pp;

	if (trace_scan_dec_ns(&p, unit_ns, out_ns) < 0)
		return trace_field_bad(r, *pp, sep, what, "a non-negative number");
	if (field_sep(r, &p, *pp, sep, what, "a non-negative number") < 0)
		return -EINVAL;
	*pp = p;
	return 0;
}

int trace_field_word(struct trace_reader *r, const char **pp, char sep, const char *what,
		     const char **word, size_t *len)
{
	const char *p = *pp;

	*word = trace_scan_word(&p, sep, len);
	if (!*len)
		return trace_field_bad(r, *pp, sep, what, "a word");
	if (field_sep(r, &p, *pp, sep, what, "a word") < 0)
		return -EINVAL;
	*pp = p;
	return 0;
}

int trace_field_end(struct trace_reader *r, const char *p, const char *after)
{
	p = trace_scan_blanks(p);
	if (!*p)
		return 0;
	return trace_reader_bad(r, "unexpected '%.20s' after %s; expected the end of the line", p,
				after);
}

int trace_names_priv_init(struct trace_reader *r, const char *path)
{
	(void)path;
	r->priv = calloc(1, sizeof(struct trace_names));
	return r->priv ? 0 : -ENOMEM;
}

void trace_names_priv_fini(struct trace_reader *r)
{
	if (!r->priv)
		return;
	trace_names_fini(r->priv);
	free(r->priv);
	r->priv = NULL;
}
