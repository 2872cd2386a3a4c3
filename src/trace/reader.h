/* Shared internals of the trace readers: the reader object and the table every format file
 * exports (one const struct trace_fmt per format), so adding a format adds one file and one
 * entry in trace_fmts[] without touching the reading loop. */
#ifndef IORAMP_TRACE_READER_H
#define IORAMP_TRACE_READER_H

#include <stdarg.h>

#include "input.h"
#include "ioramp/trace.h"
#include "issues.h"

enum {
	TRACE_SCAN_EVENTS = 20000, /* events looked at to resolve TRACE_ACT_AUTO */
};

struct trace_reader;

struct trace_fmt {
	enum trace_format id;
	const char *name;
	const char *layout; /* the record layout, quoted by error messages */
	bool is_binary;
	/* Text: true when line (NUL-terminated, read-only) is a data line of this format. */
	bool (*probe_line)(const char *line);
	/* Binary: true when the stream starts with a record of this format. */
	bool (*probe_bin)(const unsigned char *p, size_t len);
	/* Text: turns a line into *rec. Returns 1 for a record, 0 for a line that holds none
	 * (header, comment, other event), or -EINVAL after trace_reader_bad(). */
	int (*parse_line)(struct trace_reader *r, char *line, struct trace_rec *rec);
	/* Binary: next record; same returns as trace_reader_next(). */
	int (*next_bin)(struct trace_reader *r, struct trace_rec *rec);
	/* Optional: sets up r->priv after the input is open (binary formats may open more). */
	int (*init)(struct trace_reader *r, const char *path);
	/* Optional: resolves TRACE_ACT_AUTO into r->action and rewinds. */
	int (*pick_action)(struct trace_reader *r);
	/* Optional: frees r->priv. */
	void (*fini)(struct trace_reader *r);
};

struct trace_reader {
	const struct trace_fmt *fmt;
	struct trace_opts opts;
	enum trace_action action;
	struct trace_input in;
	struct trace_err err;
	uint64_t line_nr;    /* text: 1-based number of the last line read */
	uint64_t nr_skipped; /* malformed lines skipped (skip_bad) */
	uint64_t nr_empty;   /* reads and writes of 0 bytes passed over */
	uint64_t empty_line; /* text: the line of the first of them */
	uint64_t prev_ns;    /* the last read's or write's time, to see the clock go back */
	uint64_t back_ns;    /* the largest step back, its line (0 for binary formats) */
	uint64_t back_line;
	uint64_t nr_back_1s; /* steps back of a second or more */
	char warning[320];   /* why the reader ended early, records before kept ("" if not) */
	int fail_ret;	     /* the -errno that stopped the reader, 0 while usable */
	bool is_scanning;    /* counting events for TRACE_ACT_AUTO, not producing records */
	uint64_t nr_by_action[TRACE_ACT_NR];
	struct trace_issues issues; /* blkparse, blktrace with action C: the issues pending */
	void *priv;		    /* the format's state */
};

/* Every format, indexed by nothing: looked up by id or probed in this order. */
extern const struct trace_fmt *const trace_fmts[];
extern const size_t trace_nr_fmts;

extern const struct trace_fmt trace_fmt_blkparse, trace_fmt_blktrace, trace_fmt_msr, trace_fmt_spc,
	trace_fmt_fio2, trace_fmt_fio3, trace_fmt_disksim, trace_fmt_mqsim, trace_fmt_blkreplay,
	trace_fmt_alibaba, trace_fmt_tencent, trace_fmt_vscsi, trace_fmt_vscsi_csv,
	trace_fmt_ftrace, trace_fmt_systor, trace_fmt_fiu, trace_fmt_etw, trace_fmt_biosnoop;

/* Sets r->err.msg (the caller's position is added by the reading loop) and returns
 * -EINVAL, so rejecting a line is one statement. */
int trace_reader_bad(struct trace_reader *r, const char *fmt, ...) IORAMP_PRINTF(2, 3);

/* Same for a binary record at offset_bytes of file (NULL: the reader's file). */
int trace_reader_bad_at(struct trace_reader *r, const char *file, uint64_t offset_bytes,
			const char *fmt, ...) IORAMP_PRINTF(4, 5);

/* Ends the stream early, keeping the records read so far: a warning "what" at offset_bytes
 * of file (NULL: the reader's file) for trace_reader_warning(). Returns 0 (the end). */
int trace_reader_cut(struct trace_reader *r, const char *file, uint64_t offset_bytes,
		     const char *what);

/* Field readers for the text formats: after blanks, the value, then (when sep is not 0) the
 * separator and the blanks after it; *pp advances past them. On failure they return -EINVAL
 * after trace_reader_bad() with a message naming the field (what) and the layout. */
int trace_field_u64(struct trace_reader *r, const char **pp, char sep, const char *what,
		    uint64_t *out);
int trace_field_u32(struct trace_reader *r, const char **pp, char sep, const char *what,
		    uint32_t *out);
int trace_field_dec_ns(struct trace_reader *r, const char **pp, char sep, uint64_t unit_ns,
		       const char *what, uint64_t *out_ns);
int trace_field_word(struct trace_reader *r, const char **pp, char sep, const char *what,
		     const char **word, size_t *len);

/* -EINVAL after trace_reader_bad() unless only blanks remain at p. */
int trace_field_end(struct trace_reader *r, const char *p, const char *after);

/* -EINVAL naming a field whose value is out of range ("bad Type 'X'; expected R or W"). */
int trace_field_bad(struct trace_reader *r, const char *at, char sep, const char *what,
		    const char *expected);

/* True when the first non-blank character is a digit: the lines the text formats read;
 * headers, comments and summaries are skipped without error. */
static inline bool trace_line_is_data(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return *p >= '0' && *p <= '9';
}

/* Picks the format of the stream's first bytes. Returns it, or NULL with err->msg set. */
const struct trace_fmt *trace_detect(struct trace_input *in, struct trace_err *err);

/* The op of a blkparse RWBS string ("RA", "WS", "FN", "DS"...): 1 with *op set, 0 when it
 * carries no data and no flush ("N"), -EINVAL when it is not an RWBS string. */
int trace_rwbs_op(const char *rwbs, size_t len, uint8_t *op);

/* init and fini of a format whose state (r->priv) is one struct trace_names: the device names
 * it numbers in order of first sight (MSR's hosts, biosnoop's disks). */
int trace_names_priv_init(struct trace_reader *r, const char *path);
void trace_names_priv_fini(struct trace_reader *r);

/* A Linux device maj,min as blktrace numbers it (major << 20 | minor) into *dev; -EINVAL with
 * a message when either is out of range. */
int trace_majmin_dev(struct trace_reader *r, uint32_t maj, uint32_t min, uint32_t *dev);

/* blkparse's action code: Q, D or C, TRACE_ACT_AUTO for any other (G, I, M, P, U...). */
enum trace_action trace_blk_action(const char *w, size_t len);

/* A blk event of action act whose device and time are in *rec, p at its RWBS field (then
 * "sector + count", or a block_rq_* tracepoint's "bytes (cmd) sector + count"): 1 with a
 * record, 0 for none (another action, an issue kept to pair with its completion), -EINVAL. */
int trace_blk_event(struct trace_reader *r, enum trace_action act, const char *p,
		    struct trace_rec *rec);

/* The op of a SCSI opcode (vSCSI traces): 1 with *op set (READ and WRITE 6/10/12/16,
 * SYNCHRONIZE CACHE, UNMAP), 0 for commands that move no block data. */
int trace_scsi_op(unsigned int cmd, uint8_t *op);

/* pick_action of the blk formats: Q when the first events hold any, else D, else C. */
int trace_blk_pick_action(struct trace_reader *r);

#endif /* IORAMP_TRACE_READER_H */
