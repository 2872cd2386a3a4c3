/* Parameter files: VDbench 5.04.07's raw-I/O language turned into a struct parm_config.
 * Every value keeps the file, line and column it came from, so any later stage can point at
 * the text. This module knows nothing about I/O and nothing about how runs are planned. */
#ifndef IORAMP_PARM_H
#define IORAMP_PARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/compiler.h"

/* Where a piece of text came from. file and text point into the parm_source that read them
 * and live as long as it does; text is the whole source line as written (for the caret). */
struct parm_loc {
	const char *file;
	const char *text;
	uint32_t line; /* 1-based; 0 when the value came from the command line */
	uint32_t col;  /* 1-based byte column */
};

struct parm_err {
	struct parm_loc loc;
	char msg[256];
};

/* Fills *err and returns -EINVAL, so rejecting a value is one statement. */
int parm_errf(struct parm_err *err, const struct parm_loc *loc, const char *fmt, ...)
	IORAMP_PRINTF(3, 4);

/* Prints "file:line:col: error: msg", the source line and a caret under the column. */
void parm_err_print(const struct parm_err *err, FILE *f);

/* Same layout with "warning:" instead of "error:". */
void parm_warn_print(const struct parm_loc *loc, const char *msg, FILE *f);

/* ---- values --------------------------------------------------------------------------- */

enum parm_val_kind {
	PARM_VAL_WORD, /* a single value: text, quotes removed */
	PARM_VAL_LIST, /* (a,b,...) */
};

struct parm_val {
	enum parm_val_kind kind;
	bool is_quoted;
	struct parm_loc loc;
	char *text;	 /* WORD: the value; LIST: the list as written, parentheses included */
	size_t nr_items; /* LIST only */
	struct parm_val *items; /* LIST only; items may be lists themselves */
};

/* How a numeric suffix scales: bytes (k=1024), time (m=minutes, h=hours), plain (k=1024, h=3600). */
enum parm_unit {
	PARM_UNIT_PLAIN,
	PARM_UNIT_BYTES,
	PARM_UNIT_TIME,
};

struct parm_num {
	double value;
	bool is_pct; /* written with a trailing '%' */
};

/* VDbench keeps "N%" as -N, and a bare "-N" means the same percentage (FINDINGS §5). */
static inline double parm_num_signed(const struct parm_num *n)
{
	return n->is_pct ? -n->value : n->value;
}

/* Parses one number with VDbench's suffixes. Returns 0, or -EINVAL when text is not one. */
int parm_num_parse(const char *text, enum parm_unit unit, struct parm_num *out);

/* Whether text starts like a number ([+-]digits...), the test for "numeric" in a list. */
bool parm_num_looks_numeric(const char *text);

/* Expands a value into numbers: a single number, an explicit list, ranges (1-10,1) or
 * (4k-32k,4k), doubling (1-64,d) and halving (64-1,d), with VDbench's quirks for negative
 * items. what names the keyword in messages. *out is malloc'ed (caller frees; NULL for an
 * empty list). Returns the count (0 for "()"), or -EINVAL with *err filled. */
int parm_val_numbers(const struct parm_val *v, enum parm_unit unit, const char *what,
		     struct parm_num **out, struct parm_err *err);

/* The same for an RD's for-loop, which also reads a list holding words as VDbench 5.04.07 does:
 * a word is a 0 in its place and only the first (count of numbers) items count, for a list
 * that opens with a word or whose only words are "random". */
int parm_val_loop_numbers(const struct parm_val *v, enum parm_unit unit, const char *what,
			  struct parm_num **out, struct parm_err *err);

/* Flattens a value into words (a single word, or the items of a list). Returns the count or
 * -EINVAL for nested lists. The array is malloc'ed; its strings belong to v. */
int parm_val_words(const struct parm_val *v, const char ***out, struct parm_err *err);

/* ---- keywords --------------------------------------------------------------------------- */

enum parm_section {
	PARM_SEC_GENERAL,
	PARM_SEC_HD,
	PARM_SEC_RG,
	PARM_SEC_SD,
	PARM_SEC_WD,
	PARM_SEC_RD,
	PARM_SEC_NR,
};

/* Every keyword of every section; one id for a keyword shared by several sections. */
enum parm_kw {
	/* general */
	PARM_KW_ABORT_FAILED_SKEW,
	PARM_KW_AUXREPORT,
	PARM_KW_COMPRATIO,
	PARM_KW_COMPRESSION,
	PARM_KW_COMPRESSIONSEED,
	PARM_KW_CONCATENATESDS,
	PARM_KW_CREATE_ANCHORS,
	PARM_KW_DATA_ERRORS,
	PARM_KW_DEBUG,
	PARM_KW_DEDUPFLIPFLOP,
	PARM_KW_DEDUPHOTSETS,
	PARM_KW_DEDUPRATIO,
	PARM_KW_DEDUPSETS,
	PARM_KW_DEDUPUNIT,
	PARM_KW_ENDCMD,
	PARM_KW_ENGINE,
	PARM_KW_FORMATSDS,
	PARM_KW_FORMATXFERSIZE,
	PARM_KW_FWD_THREAD_ADJUST,
	PARM_KW_HEARTBEAT_ERROR,
	PARM_KW_HISTOGRAM,
	PARM_KW_IOS_PER_JVM,
	PARM_KW_JOURNAL,
	PARM_KW_LOOP,
	PARM_KW_MESSAGESCAN,
	PARM_KW_MISC,
	PARM_KW_MONITOR,
	PARM_KW_PATTERN,
	PARM_KW_PATTERN_BUFFER,
	PARM_KW_PORT,
	PARM_KW_PSRSET,
	PARM_KW_REPORT,
	PARM_KW_REPORT_RUN_TOTALS,
	PARM_KW_SHOWLBA,
	PARM_KW_STARTCMD,
	PARM_KW_SWAT,
	PARM_KW_TIMEOUT,
	PARM_KW_VALIDATE,
	/* hd */
	PARM_KW_HD,
	PARM_KW_CLIENTS,
	PARM_KW_JVMS,
	PARM_KW_MASTER,
	PARM_KW_MOUNT,
	PARM_KW_SHELL,
	PARM_KW_SYSTEM,
	PARM_KW_USER,
	PARM_KW_VDBENCH,
	/* rg */
	PARM_KW_RG,
	PARM_KW_DEVICES,
	/* sd */
	PARM_KW_SD,
	PARM_KW_ALIGN,
	PARM_KW_COUNT,
	PARM_KW_HITAREA,
	PARM_KW_HOST,
	PARM_KW_INSTANCE,
	PARM_KW_KSTAT,
	PARM_KW_LUN,
	PARM_KW_OFFSET,
	PARM_KW_OPENFLAGS,
	PARM_KW_RANGE,
	PARM_KW_REPLAY,
	PARM_KW_RESETBUS,
	PARM_KW_RESETLUN,
	PARM_KW_SIZE,
	PARM_KW_THREADS,
	/* wd */
	PARM_KW_WD,
	PARM_KW_HOTBAND,
	PARM_KW_IORATE,
	PARM_KW_PRIORITY,
	PARM_KW_RDPCT,
	PARM_KW_WRPCT,
	PARM_KW_RHPCT,
	PARM_KW_SEEKPCT,
	PARM_KW_SKEW,
	PARM_KW_STREAMS,
	PARM_KW_STRIDE,
	PARM_KW_WHPCT,
	PARM_KW_XFERSIZE,
	/* rd */
	PARM_KW_RD,
	PARM_KW_CURVE,
	PARM_KW_DISTRIBUTION,
	PARM_KW_ELAPSED,
	PARM_KW_INTERVAL,
	PARM_KW_MAXDATA,
	PARM_KW_MAXDATAREAD,
	PARM_KW_MAXDATAWRITTEN,
	PARM_KW_PAUSE,
	PARM_KW_STOPCURVE,
	PARM_KW_WARMUP,
	PARM_KW_TRACE, /* ioramp extension: replay a block trace */
	PARM_KW_FORCOMPRATIO,
	PARM_KW_FORCOMPRESSION,
	PARM_KW_FORHITAREA,
	PARM_KW_FORRDPCT,
	PARM_KW_FORRHPCT,
	PARM_KW_FORSEEKPCT,
	PARM_KW_FORTHREADS,
	PARM_KW_FORWHPCT,
	PARM_KW_FORXFERSIZE,
	PARM_KW_OPERATION,   /* file-system mode; refused */
	PARM_KW_FWDRATE,     /* file-system mode; refused */
	PARM_KW_IORATE_LIST, /* not a keyword: an RD's last iorate= of two or more values */
	PARM_KW_NR,
};

/* The canonical (VDbench) spelling of a keyword. */
const char *parm_kw_name(enum parm_kw kw);

/* Resolves what a user wrote (any case, a prefix of 2+ letters settled by VDbench's table order,
 * an alias) in a section. Returns the keyword, or -ENOENT (unknown) / -EINVAL (too short). */
int parm_kw_lookup(enum parm_section sec, const char *written);

/* Which keywords a definition set, and the value each was given (NULL: not set). The values
 * belong to the config. A definition created from xxx=default starts with the default's. */
struct parm_kwset {
	const struct parm_val *val[PARM_KW_NR];
	uint32_t seq[PARM_KW_NR]; /* order in which the keywords were written (for-loop order) */
};

static inline bool parm_kwset_has(const struct parm_kwset *set, enum parm_kw kw)
{
	return set->val[kw] != NULL;
}

/* ---- definitions ------------------------------------------------------------------------ */

/* range=, hotband=: numbers as written; <= 100 percent, 100 < hi < 200 wraps, > 200 bytes. */
struct parm_range {
	double lo;
	double hi;
};

enum parm_xfer_kind {
	PARM_XFER_FIXED, /* one size */
	PARM_XFER_DIST,	 /* (size,pct,size,pct,...) */
	PARM_XFER_RANGE, /* (min,max,align) */
};

struct parm_xfer {
	enum parm_xfer_kind kind;
	size_t nr;	       /* FIXED: 1; DIST: pairs */
	uint64_t *sizes_bytes; /* FIXED, DIST */
	double *pcts;	       /* DIST */
	uint64_t min_bytes;    /* RANGE */
	uint64_t max_bytes;    /* RANGE */
	uint64_t align_bytes;  /* RANGE */
};

enum parm_seek {
	PARM_SEEK_PCT,	   /* seekpct=n: random with probability n% (100 = random, 0 = seq) */
	PARM_SEEK_SEQNZ,   /* sequential from a random block */
	PARM_SEEK_EOF,	   /* sequential, stop at the end */
	PARM_SEEK_POISSON, /* random, Poisson-skewed blocks */
};

struct parm_openflags {
	uint32_t flags; /* O_DIRECT, O_DSYNC, raw bits */
	bool has_fsync; /* fsync before close */
};

/* dedupflipflop= (reference §12.4). */
enum parm_flipflop {
	PARM_FLIPFLOP_NO,
	PARM_FLIPFLOP_YES,
	PARM_FLIPFLOP_HOT,
};

struct parm_general {
	struct parm_kwset set;
	double compratio;
	double compression_ratio;  /* compression=P converted as VDbench does, 100/P; 0: none */
	uint64_t dedupunit_bytes;  /* 0: no dedup */
	double dedupratio;	   /* 1 unless given */
	struct parm_num dedupsets; /* a count, or a percentage of the dedup units (5%) */
	enum parm_flipflop dedupflipflop;
	bool is_no_sd_detail;		    /* report=no_sd_detail: no <sd>.html files */
	const struct parm_val *host_detail; /* report=host_detail or slave_detail; NULL */
	bool is_host_detail;  /* report=host_detail: <host>.<sd>.html, <host>.histogram.html */
	bool is_slave_detail; /* report=slave_detail: <host>-0.<sd>.html, <host>-0.histogram.html */
	bool is_showlba;      /* showlba=yes: localhost-0.showlba.txt, one line per I/O */
	double timeout_s;     /* timeout=: name an SD that completes nothing this long; 0: off */
	double timeout_abort_s; /* timeout=(s,abort) or (s,s2): and end the execution then */
	uint32_t data_errors;
	bool concatenatesds;
	bool formatsds;
	uint64_t formatxfersize_bytes;
	uint64_t *histogram_us; /* bucket upper bounds; NULL: VDbench's 27 defaults */
	size_t nr_histogram;
	char *engine;	    /* ioramp extension: uring, aio, sync, null (NULL: default) */
	double ios_per_jvm; /* ios_per_jvm=: the per-slave rate VDbench warns above; 0: 100000 */
};

struct parm_hd {
	char *name;
	struct parm_loc loc; /* of the name */
	struct parm_kwset set;
	char *system;
	uint32_t jvms;
	uint32_t clients;
};

/* One host= and lun= pair of an SD (reference §3): the SD's lun on that host. host is an hd=
 * label or "*" (every host). */
struct parm_host_lun {
	char *host;
	char *lun;
};

struct parm_sd {
	char *name;
	struct parm_loc loc; /* of the name */
	struct parm_kwset set;
	char *lun;
	uint64_t size_bytes; /* 0: the device or file's own size */
	uint32_t threads;    /* default 8 */
	uint64_t offset_bytes;
	uint64_t align_bytes; /* 0: the transfer size */
	struct parm_range range;
	uint64_t hitarea_bytes; /* default 1m */
	struct parm_openflags openflags;
	char *host;
	/* Where the SD exists: host=a,lun=x,host=b,lun=y pairs, or every host= label with lun=.
	 * 0: every host, with lun (the "same luns on all hosts" case). */
	struct parm_host_lun *host_luns;
	size_t nr_host_luns;
	/* A value VDbench 5.04.07 -s lists and its run refuses (observed: SD threads=0, WD
	 * xfersize=0, priority=-1, openflags=bogus): plan_check_runnable() reports it. */
	bool has_run_err;
	struct parm_err run_err;
};

struct parm_wd {
	char *name;
	struct parm_loc loc; /* of the name */
	struct parm_kwset set;
	char **sd_names; /* as written: names, ranges, wildcards */
	size_t nr_sd_names;
	size_t *sd_idx; /* resolved: indexes into parm_config.sds */
	size_t nr_sd;
	double rdpct; /* default 100 */
	struct parm_xfer xfer;
	enum parm_seek seek;
	double seekpct; /* PARM_SEEK_PCT: 0..100; POISSON: the mean */
	double skew;	/* 0: not given */
	double iorate;	/* 0: not given */
	uint32_t priority;
	struct parm_range range;
	struct parm_range hotband;
	double rhpct;
	double whpct;
	uint64_t stride_min_bytes;
	uint64_t stride_max_bytes;
	uint32_t streams;
	uint32_t threads;
	struct parm_openflags openflags;
	char *host;
	/* An error VDbench 5.04.07 reports only when an RD runs the WD (observed: a WD no RD
	 * runs may name SDs that do not exist or have iorate= without priority=);
	 * parm_check_config() reports it for a WD in use. */
	bool has_use_err;
	struct parm_err use_err;
	/* A value VDbench 5.04.07 -s lists and its run refuses (observed: SD threads=0, WD
	 * xfersize=0, priority=-1, openflags=bogus): plan_check_runnable() reports it. */
	bool has_run_err;
	struct parm_err run_err;
};

/* One element of an iorate= list. */
enum parm_rate_kind {
	PARM_RATE_FIXED, /* n I/Os per second */
	PARM_RATE_MAX,
	PARM_RATE_CURVE,
	PARM_RATE_REL, /* n% of the previous run's observed rate */
};

struct parm_rate {
	enum parm_rate_kind kind;
	double value; /* FIXED: I/O per second; REL: percent */
};

/* One for-loop of an RD (forxfersize=, threads=, ...), in the order written. */
struct parm_loop {
	enum parm_kw kw; /* the for-keyword (PARM_KW_FORXFERSIZE, ...) */
	struct parm_loc loc;
	size_t nr;
	struct parm_num *vals;
};

/* How an RD's sd= chooses the SDs of its runs (FINDINGS §1.3). */
enum parm_sd_mode {
	PARM_SD_NONE,	/* no sd=: each workload's own SDs */
	PARM_SD_LIST,	/* sd=names: every run on these SDs */
	PARM_SD_SINGLE, /* sd=single: the whole RD once per SD */
	PARM_SD_RANGE,	/* sd=range: on sd1, then on sd1-sd2, ... */
	PARM_SD_SETS,	/* sd=setsofN: on consecutive sets of N SDs */
};

enum parm_dist {
	PARM_DIST_EXPONENTIAL,
	PARM_DIST_UNIFORM,
	PARM_DIST_DETERMINISTIC,
};

struct parm_rd {
	char *name;
	struct parm_loc loc; /* of the name */
	struct parm_kwset set;
	char **wd_names;
	size_t nr_wd_names;
	char **sd_names;
	size_t nr_sd_names;
	size_t *wd_idx; /* resolved wd= */
	size_t nr_wd;
	size_t *sd_idx; /* resolved sd= (overrides the workloads' SDs); PARM_SD_LIST only */
	size_t nr_sd;
	enum parm_sd_mode sd_mode;
	uint32_t sd_set_size; /* PARM_SD_SETS: N */
	/* The runs' rates: the last iorate= list of two or more values (the innermost loop), else
	 * the last iorate=; with distribution=variable, its (rate,seconds) pairs. */
	struct parm_rate *rates;
	size_t nr_rates;
	bool has_iorate;
	struct parm_rate shown_rate; /* first value of the last iorate= ("I/O rate:" of -s) */
	double *curve_pcts;
	size_t nr_curve_pcts;
	bool has_curve; /* curve= given: its points, maybe none (curve=abc runs the max alone) */
	double stopcurve_ms; /* 0: none */
	int64_t elapsed_s;   /* default 30; whole seconds as written, checked by the planner */
	int64_t interval_s;  /* default 1; 0 written: the planner picks min(elapsed/2, 60) */
	int64_t warmup_s;
	int64_t pause_s;
	double maxdata;
	double maxdataread;
	double maxdatawritten;
	enum parm_dist distribution;
	bool is_variable;
	bool is_spike;
	struct parm_loop *loops;
	size_t nr_loops;
	struct parm_openflags openflags;
	char *trace;		/* ioramp extension: trace=FILE or trace=(FILE,option...) */
	char *trace_format;	/* trace=(...,format=NAME): the reader's format; NULL: auto */
	char *trace_action;	/* trace=(...,action=Q|D|C): blkparse/blktrace event; NULL */
	bool is_trace_skip_bad; /* trace=(...,skipbad): skip malformed lines */
	struct parm_wd *own_wd; /* sd= without wd=: the wd=default of that moment, cloned */
	/* A value VDbench 5.04.07 -s lists and its run refuses (observed: SD threads=0, WD
	 * xfersize=0, priority=-1, openflags=bogus): plan_check_runnable() reports it. */
	bool has_run_err;
	struct parm_err run_err;
};

/* A name=value given on the command line for $name / !name substitution. */
struct parm_var {
	const char *name;
	const char *value;
	bool is_used; /* set by the reader */
};

/* Command-line overrides of every RD (0 = none), -e -i -w. */
struct parm_overrides {
	uint64_t elapsed_s;
	uint64_t interval_s;
	uint64_t warmup_s;
	bool has_elapsed;
	bool has_interval;
	bool has_warmup;
	bool zero_warmup_counts; /* -w 0 means no warmup (ioramp suite); VDbench ignores -w 0 */
	const char *restart_rd;	 /* -r: the RD to start at (NULL: the first) */
	const char *loop;	 /* -l: loop= ("" forever), NULL: the files' own */
	const char *fs_format;	 /* -co, -cy, -cn: every FS RD's format= (only, yes, no) */
	uint32_t jvms;		 /* -m: hd=default,jvms= */
	bool has_jvms;
};

struct parm_item;
struct parm_fs;

/* A whole parsed execution. Definitions appear in the order written; defaults are applied. */
struct parm_config {
	struct parm_general general;
	struct parm_hd *hds;
	size_t nr_hds;
	struct parm_sd *sds;
	size_t nr_sds;
	struct parm_wd *wds;
	size_t nr_wds;
	struct parm_rd *rds;
	size_t nr_rds;
	struct parm_wd wd_default; /* wd=default at the end of the files */
	bool has_default_jvms;	   /* hd=default sets jvms= */
	uint32_t default_jvms;	   /* its value */
	bool has_host_alias;	   /* an HD was started with host= (deprecated form of hd=) */
	struct parm_fs *fs;	   /* file-system mode (fsd=, fwd=); NULL: raw I/O */
	struct parm_overrides overrides;
	struct parm_source *src;  /* owns the text every parm_loc points into */
	struct parm_item **items; /* every keyword=value as lexed; kwsets point into them */
	size_t *nr_items;
	size_t nr_item_blocks;
};

/* ---- reading ------------------------------------------------------------------------------ */

/* Where parameter text comes from, when not straight from the file system: under MPI rank 0
 * records every file it reads and the other ranks read the same text from memory
 * (src/cluster/parmcopy.c), so that every rank parses the same thing. */
struct parm_fileops {
	/* include=name written in from_file: the file to read, as parm_include_find(). */
	int (*find)(void *ctx, const char *name, const char *from_file, char *path, size_t len,
		    char *tried, size_t tried_len);
	/* The whole text of path, malloc'ed, as parm_file_read(). */
	int (*read)(void *ctx, const char *path, char **text, size_t *len);
	void *ctx;
};

/* What parm_config_read() needs: the files in order and the substitution variables. */
struct parm_input {
	const char *const *files;
	size_t nr_files;
	struct parm_var *vars;
	size_t nr_vars;
	struct parm_overrides overrides;
	const struct parm_fileops *fileops; /* NULL: the file system */
};

/* Finds the file of include=name written in from_file (tests/parm/FINDINGS.md §12): an absolute
 * name as given; a relative one against the current directory, then against the parent of
 * from_file's directory. path gets the file to read. Returns 0, -ENOENT with the places looked
 * at in tried, or -ENAMETOOLONG. */
int parm_include_find(const char *name, const char *from_file, char *path, size_t len, char *tried,
		      size_t tried_len);

/* Reads a whole parameter file (a regular file or a pipe, at most 64 MiB) into *text
 * (malloc'ed, not NUL-terminated, *len bytes). Returns 0, -errno, -EINVAL when path is not a
 * regular file or pipe, -EISDIR or -EFBIG. */
int parm_file_read(const char *path, char **text, size_t *len);

/* Reads, substitutes and parses the files into a new config (*out, free with
 * parm_config_free()). Returns 0, -EINVAL with *err filled for bad input, -errno for an
 * unreadable file (also in *err) or -ENOMEM. On failure *out is NULL, but err->loc may point
 * into text kept alive in *keep (free with parm_source_free()) for printing. */
int parm_config_read(const struct parm_input *in, struct parm_config **out,
		     struct parm_source **keep, struct parm_err *err);

/* Same, from text in memory (tests, the fuzzer); name is used as the file name. */
int parm_config_read_text(const char *name, const char *text, size_t len,
			  const struct parm_input *in, struct parm_config **out,
			  struct parm_source **keep, struct parm_err *err);

void parm_config_free(struct parm_config *cfg);
void parm_source_free(struct parm_source *src);

/* The expanded parameter text for parmfile.html: every line as read, with the
 * "    variable substitution: ..." notes. The string belongs to src. */
const char *parm_source_listing(const struct parm_source *src);

/* Index of the SD / WD named, or -ENOENT. */
int parm_sd_find(const struct parm_config *cfg, const char *name);
int parm_wd_find(const struct parm_config *cfg, const char *name);

/* Resolves an sd= or wd= value into indexes in the order written (FINDINGS §7): names, name
 * ranges (sd1-sd8) inside parentheses, a trailing '*' wildcard and '*' alone. owner ("wd=wd1")
 * names the referring definition in messages. *out is malloc'ed. Returns the count, or -EINVAL
 * with *err for a name that matches nothing or a definition requested twice. */
int parm_sd_resolve(const struct parm_config *cfg, const struct parm_val *v, const char *owner,
		    size_t **out, struct parm_err *err);
int parm_wd_resolve(const struct parm_config *cfg, const struct parm_val *v, const char *owner,
		    size_t **out, struct parm_err *err);

/* Checks that every hd= system= name resolves (getaddrinfo), as VDbench does before a run or
 * -s (FINDINGS §4, [246]). Returns 0 or -EINVAL with *err at the system= value. */
int parm_hd_check_systems(const struct parm_config *cfg, struct parm_err *err);

/* The edit distance of a and b, ignoring case, a swap of neighbours counting one (suggest.c). */
size_t parm_edit_distance(const char *a, const char *b);

/* The name closest to word (1 edit for words up to 4 letters, 2 up to 8, else 3), or NULL: the
 * "did you mean" of every unknown name. */
const char *parm_suggest(const char *word, const char *const *names, size_t nr);

#endif /* IORAMP_PARM_H */
