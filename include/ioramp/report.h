/* Reports: observers of an execution. The engine (or a test) calls them at execution start,
 * run start, every interval, run end and execution end; each output (console, summary.html,
 * flatfile.html, results.json, ...) is one observer in one file of src/report/, and adding one
 * never touches the engine. Observers run on the controller thread only, never on the I/O
 * path; they read plan and stats, never engine internals. */
#ifndef IORAMP_REPORT_H
#define IORAMP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/dv.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/stats.h"

/* Modelled drives (--engine model): what every SD of the execution was. A report that shows a
 * figure of such a run says that it came from this model, never from a device. */
struct rep_model {
	const char *spec;   /* the engine as given: "model:micron-9100-max-2.4tb,units=8" */
	const char *preset; /* the preset it started from; "" for none */
	const char *source; /* the preset's spec sheet; NULL for none */
	uint32_t units;
	double read_us; /* mean service of a 4 KiB read on one unit */
	double write_us;
	double read_mbps; /* one unit's bandwidth for the bytes beyond 4 KiB, MB/s of 10^6 bytes */
	double write_mbps;
	const char *dist; /* "exp" or "fixed" */
	double cache_mb;  /* 0: no write cache */
	double cache_us;
};

/* One line saying the figures are a model's and what the model is ("modelled drives, not
 * measurements: model:..., per drive 90 units, ..."), for every output that shows them. */
void rep_model_text(const struct rep_model *m, char *buf, size_t len);

/* The whole execution, fixed from open to close. */
struct rep_exec {
	const struct parm_config *cfg;
	const struct plan *plan;
	const char *outdir; /* the output directory, created by the caller; NULL: none */
	FILE *console;	    /* where console lines go (stdout, or stderr with --json) */
	FILE *json_out;	    /* --json: the final JSON document goes here; else NULL */
	int argc;	    /* the command line, for logfile.html and results.json */
	char *const *argv;
	uint64_t start_tod_ns; /* time of day at execution start (see tod_ns) */
	uint64_t seed;	       /* the seed every generator was derived from */
	const char *engine; /* as given: "uring", "aio", "sync", "null", "model:..."; "default" */
	const struct rep_model *model; /* modelled drives in virtual time; NULL: real ones */
	/* The time of day of lines the reports stamp themselves (messages, I/O errors, the end):
	 * tod_ns(tod_ctx), the engine's clock (in virtual time its start plus the virtual time
	 * elapsed); NULL: the wall clock (CLOCK_REALTIME). */
	uint64_t (*tod_ns)(const void *tod_ctx);
	const void *tod_ctx;
	const double *sla_ns; /* --sla thresholds for IOPS-at-latency points */
	size_t nr_sla;
	uint64_t mb_bytes;			     /* 1048576 (VDbench's MB/sec) */
	const struct stats_vdb_buckets *vdb_buckets; /* histogram= or VDbench's defaults */
	/* The "For loops:" text of the SD_format run that precedes the plan's runs ("threads=2
	 * iorate=max"), for the run links; NULL when there is none. */
	const char *sd_format_loops;
	const char *host; /* host label for reports ("localhost"); NULL: "localhost" */
	/* One of several executions in a row (ioramp suite): the status line's prefix ("sql
	 * 2/16") and the planned seconds of the executions after this one, counted in its time
	 * left. NULL and 0 for a lone execution. */
	const char *status_label;
	uint64_t status_later_s;
	/* Many hosts (rank 0 of an MPI job): the hosts and their slaves, one per rank ("ha-0"), as
	 * every rep_run lists them; 0 and NULL on one host. */
	size_t nr_hosts;
	const char *const *host_names;
	size_t nr_slaves;
	const char *const *slave_names;
	const uint32_t *slave_host; /* per slave: index in host_names */
	/* One host: VDbench's slave JVMs (plan_nr_jvms), localhost-0 .. localhost-(N-1); 0 or
	 * 1: the one slave localhost-0, which shows the whole run */
	uint32_t nr_jvms;
};

/* What every workload of a run has in common, for the flatfile's xfersize/rdpct/... columns
 * (VDbench prints n/a where workloads differ: has_* false). */
struct rep_params {
	bool has_xfersize;
	bool has_rdpct;
	bool has_rhpct;
	bool has_whpct;
	bool has_seekpct;
	bool has_threads;
	uint64_t xfersize_bytes; /* VDbench prints the first size of a distribution */
	double rdpct;
	double rhpct;
	double whpct;
	double seekpct;
	/* The threads= every SD of the run has (or the forthreads= value); has_threads false when
	 * they differ (VDbench's flatfile prints -1). */
	uint32_t threads;
	double compratio;
	double dedupratio;	/* dedupratio=; 1 without dedup */
	uint64_t lunsize_bytes; /* total over the run's SDs */
};

/* One of VDbench's independent sequential streams (streams=): a piece of an SD that some of its
 * threads on one slave run, as the slave's "StreamContext" lines say. */
struct rep_stream {
	size_t sd;	  /* index in rep_run.sd_names */
	uint32_t stream;  /* 0 .. streams= - 1 */
	uint32_t jvm;	  /* the slave that runs it (0 with one) */
	uint32_t threads; /* its threads: threads= / streams= */
	uint64_t low_bytes, high_bytes;
};

/* One run as executed. SD and WD arrays are in the run's order; per-SD and per-WD samples use
 * the same indexes. */
struct rep_run {
	const struct plan_run *run; /* NULL for the hidden SD_format run */
	const char *name;	    /* "rd1", "rd1_(50%)", "SD_format" */
	size_t run_idx;		    /* index in plan->runs; (size_t)-1 for SD_format */
	char rate_text[64];	    /* "Uncontrolled MAX", "Controlled curve", "5000", ... */
	double req_iops;	    /* the target rate; 0 for max (flatfile reqrate 9999988) */
	const char *for_loops;	    /* "threads=2 xfersize=4k" or "None" */
	uint64_t elapsed_s;
	uint64_t interval_s;
	uint64_t warmup_s;
	uint32_t nr_warmup_intervals; /* excluded from the average (at least 1 without warmup) */
	size_t nr_sds;
	const char *const *sd_names;
	const char *const *sd_luns;
	const uint64_t *sd_size_bytes; /* size used */
	const uint32_t *sd_threads;
	/* Per SD: the backend it runs on ("uring", "sync", "model:..."); NULL for none known. And
	 * whether the default engine picked it (no --engine, no engine=). */
	const char *const *sd_engines;
	const bool *sd_engine_is_default;
	size_t nr_wds;
	const char *const *wd_names;
	const double *wd_skew_pct; /* requested skew of each WD, percent of the run's I/O */
	struct rep_params params;
	uint64_t start_tod_ns;
	/* Many hosts (rank 0 of an MPI job): the hosts and their slaves (one per rank, "ha-0"),
	 * whose totals every sample carries in the same order; 0 and NULL on one host. */
	size_t nr_hosts;
	const char *const *host_names;
	size_t nr_slaves;
	const char *const *slave_names;
	const uint32_t *slave_host; /* per slave: index in host_names */
	/* rep_exec.nr_jvms > 1: the threads of SD s on slave j at [s * nr_jvms + j]
	 * (plan_jvm_threads); NULL when the run is not split (a replay) */
	const uint32_t *jvm_threads;
	/* streams= (a max run): each stream of each SD, by SD then stream; NULL and 0 for none */
	const struct rep_stream *streams;
	size_t nr_streams;
};

/* One interval, or the average of a run's non-warmup intervals (is_avg). Banks are merged over
 * workers: total, per SD (nr_sds) and per WD (nr_wds). interval() receives only interval
 * samples; the average comes once, in run_end. Rates divide by elapsed_ns: pass the nominal
 * interval length (interval_s) to print VDbench's whole-number rates. An average over zero
 * intervals (a one-interval run) has nr_intervals 0, zero banks and NaN CPU figures. */
struct rep_sample {
	char label[32]; /* "1", "2", ..., "avg_2-5" */
	uint32_t nr;	/* 1-based interval number; 0 for an average */
	bool is_avg;
	bool is_warmup;
	uint64_t tod_ns;       /* wall clock at the end of the interval (or of the run) */
	uint64_t elapsed_ns;   /* the interval's length, or the sum of the averaged intervals */
	uint32_t nr_intervals; /* 1, or how many intervals an average covers */
	const struct stats_bank *total;
	const struct stats_bank *sd;
	const struct stats_bank *wd;
	const struct stats_bank *host;	       /* nr_hosts of rep_run; NULL on one host */
	const struct stats_bank *slave;	       /* nr_slaves */
	const struct stats_cpu_pct *slave_cpu; /* nr_slaves; NaN where unknown */
	/* One host with jvms= or VDbench's adjusted count: each slave JVM's share (nr_jvms of
	 * rep_exec, counters without histograms, but for the service times' with report=
	 * slave_detail); NULL for one slave */
	const struct stats_bank *jvm;
	/* With it and report=slave_detail: slave j's share of SD s at [j * nr_sds + s]
	 * (counters without histograms; the slaves' banks above then have them); else NULL */
	const struct stats_bank *jvm_sd;
	bool has_cpu;
	struct stats_cpu_pct cpu;
	/* ioramp's own CPU (user + sys of the process) in % of one core over the interval or the
	 * averaged ones; NaN where unknown (virtual time: a modelled second costs no CPU second) */
	double ioramp_cpu_pct;
};

/* A failed I/O, for errorlog.html and the console (VDbench's error line). */
struct rep_io_error {
	const char *sd;
	const char *lun;
	enum stats_op op;
	uint64_t lba_bytes; /* byte offset */
	uint64_t size_bytes;
	int err;		    /* positive errno (EIO for a short transfer) */
	bool is_short;		    /* a short transfer, not an error code */
	uint64_t transferred_bytes; /* a short transfer: what was transferred */
	uint64_t tod_ns;	    /* wall clock when it completed */
};

/* A key block that failed data validation (errorlog.html, console, results.json). */
struct rep_dv_error {
	const char *sd;
	const char *lun;
	const char *op;	     /* what read it: "read", "pre-read", "re-read" or "recovery" */
	uint64_t lba_bytes;  /* the I/O that found it: byte offset and size */
	uint64_t size_bytes; /* (recovery: the key block) */
	uint64_t tod_ns;     /* wall clock when it was found */
	const struct dv_mismatch *m;
	bool has_good_time;   /* -vt, validate=time: the block's last good I/O is known */
	uint64_t good_tod_ms; /* its time, ms since 1970; 0: none this execution */
};

/* Data validation totals of the execution, before close. */
struct rep_dv_summary {
	uint64_t nr_validated; /* key blocks read and compared */
	uint64_t nr_errors;    /* key blocks marked in error */
	bool is_journal;
	bool is_recovered; /* -jr or -jro ran the recovery pass */
};

/* How a run ended, for run_end. */
/* What held a run back (issue 14; man ioramp(1) POINT VALIDITY has the rule). */
enum rep_limit {
	REP_LIMIT_NONE,	     /* nothing seen: the target was met, or neither rule applies */
	REP_LIMIT_DEVICE,    /* an SD's outstanding I/O stayed at its threads= */
	REP_LIMIT_GENERATOR, /* ioramp's own threads were out of CPU */
};

/* "device", "generator", or NULL for REP_LIMIT_NONE. */
const char *rep_limit_name(enum rep_limit l);

struct rep_run_end {
	const struct rep_sample *avg;
	bool has_target;	   /* a rate was asked (curve point, iorate=); false for max runs */
	bool is_target_met;	   /* within 2% of the target, or a max run */
	enum rep_limit limited_by; /* also on a met target or a max run: what it ran into */
	bool is_interrupted;	   /* Ctrl-C / SIGTERM: avg covers the completed intervals */
	bool is_eof;		   /* every seekpct=eof workload reached the end */
	double observed_iops;	   /* avg rate, the base of following curve points */
	/* The verdict's figures (man ioramp(1) POINT VALIDITY), over the averaged intervals: the
	 * rate of the I/Os the schedule asked for that completed (observed_iops less the
	 * validation's extra reads) and the rate of the arrivals the schedule generated; NaN
	 * without a target. */
	double requested_iops;
	double scheduled_iops;
	bool has_dv;	      /* data validation was on: the counts below are known */
	uint64_t dv_prereads; /* reads of a known block before its write, in observed_iops */
	uint64_t dv_rereads;  /* -vr: reads after a write, in observed_iops */
};

struct rep_doc; /* the results document (ioramp/results.h) */

struct rep_ops {
	const char *name;
	/* The file it writes in the output directory, named when writing it failed; NULL when
	 * it writes none. */
	const char *file;
	/* Closed after every other observer, with the status made 1 when one of them failed:
	 * those that say how the execution ended ("completed successfully"). */
	bool is_closed_last;
	/* Execution start. *state is the observer's; returns 0 or -errno. */
	int (*open)(const struct rep_exec *x, void **state);
	/* Instead of open, for an output that renders the results document (ioramp/results.h):
	 * doc is the execution's one document, which the set builds from every event before
	 * any observer sees it, closes before the observers close and frees after. */
	int (*open_doc)(const struct rep_exec *x, struct rep_doc *doc, void **state);
	int (*run_start)(void *state, const struct rep_run *r);
	int (*interval)(void *state, const struct rep_run *r, const struct rep_sample *s);
	int (*run_end)(void *state, const struct rep_run *r, const struct rep_run_end *e);
	/* The parameters' notices are said: VDbench's slaves start now (logfile.html's slave
	 * lines and lun sizes). Optional; NULL: the observer has nothing to say then. */
	void (*setup)(void *state);
	/* A console-style message (notice, warning box line): already formatted, no newline. */
	void (*message)(void *state, const char *line);
	/* A note for the logs only (logfile.html, results.json), never the console, which keeps
	 * VDbench's lines: the default engine's picks. NULL: the observer takes none. */
	void (*log_note)(void *state, const char *line);
	/* A note for summary.html only (what a startcmd=/endcmd= with sum prints). */
	void (*sum_note)(void *state, const char *line);
	/* A line of the first slave's log (localhost-0.stdout.html): what an RD's startcmd=
	 * (is_run_end false: for the next run's setup) or endcmd= (before the ended run's end)
	 * that runs on the slave says and prints. */
	void (*slave_note)(void *state, bool is_run_end, const char *line);
	/* A failed I/O (errorlog.html, console, logfile). */
	void (*io_error)(void *state, const struct rep_io_error *e);
	/* A data validation error (errorlog.html, console, logfile, results.json). */
	void (*dv_error)(void *state, const struct rep_dv_error *e);
	/* Data validation totals, once before close when validation was on. */
	void (*dv_summary)(void *state, const struct rep_dv_summary *s);
	/* Execution end with the exit status; frees state. Returns 0 or -errno. */
	int (*close)(void *state, int status);
	/* Optional, for a file closed last: whether all written so far reached it (0 or -errno),
	 * asked before the console may say the execution completed. state may be NULL. */
	int (*check)(void *state);
	/* Optional, for an output that keeps a line on a terminal (rep_statusline): called with
	 * is_after false before an event (run_start, interval, run_end, message, close) reaches
	 * any observer and true after all have handled it (except close), so the line is erased
	 * while the others print and drawn again below their output. state may be NULL. */
	void (*bracket)(void *state, bool is_after);
};

/* ---- typed events: what the engine tells the reports ------------------------------------ */

/* What happened. The engine says what and with which figures; the report layer words it
 * (event.c), so that every console line's text lives in one place. */
enum rep_event_kind {
	/* the observers' own events (run, sample, run_end, io_error, dv_error, dv_summary) */
	REP_EV_RUN_START,
	REP_EV_INTERVAL,
	REP_EV_RUN_END,
	REP_EV_IO_ERROR,
	REP_EV_DV_ERROR,
	REP_EV_DV_SUMMARY,
	/* console lines */
	REP_EV_BACKEND_NOTE,   /* text: why io_uring was not used and what was */
	REP_EV_ENGINE,	       /* engine: the default engine's pick for one kind of SD (log only) */
	REP_EV_NO_EFFECT,      /* keyword: a VDbench JVM or platform setting */
	REP_EV_JVMS_NO_EFFECT, /* jvms= on one host */
	REP_EV_WORKER_FAILED,  /* worker, err */
	REP_EV_ERROR_TOTAL,    /* nr_errors: "Total Data Validation or I/O error count"; is_boxed */
	REP_EV_STOPCURVE,      /* rd, stopcurve_ms, resp_ms: the curve ends there */
	REP_EV_MAXDATA,	       /* rd, nr_bytes: maxdata= reached; one more interval */
	REP_EV_SEQ_DONE,       /* every sequential (eof) workload is done: the run ends */
	REP_EV_STALL,	       /* sd, lun, stall_s, nr_outstanding: timeout= */
	REP_EV_DEDUP_SD,       /* sd, dedup: an SD's dedup layout */
	REP_EV_ERROR,	       /* text: an error the execution ends with */
	/* data validation */
	REP_EV_JOURNAL_FAILED,	 /* err */
	REP_EV_DV_MAP,		 /* sd, nr_blocks, block_bytes: the key map allocated */
	REP_EV_JOURNAL_CREATED,	 /* sd, dir */
	REP_EV_JOURNAL_CLEARED,	 /* sd, dir, nr_bytes (journal=max=), nr_known: times in a run */
	REP_EV_RECOVERY_START,	 /* sd */
	REP_EV_RECOVERY_BACKUP,	 /* sd, dir: the journal unusable, the map backup restored */
	REP_EV_RECOVERY_MAP,	 /* sd, nr_known */
	REP_EV_RECOVERY_APPLIED, /* nr_before, nr_after */
	REP_EV_RECOVERY_DONE,	 /* sd */
	REP_EV_RECOVERY_RESULT,	 /* sd, nr_validated, nr_errors, nr_pending, nr_torn */
	REP_EV_DV_TOTALS,	 /* nr_validated, nr_errors */
	REP_EV_DV_UNLISTED,	 /* nr_errors counted but not listed, nr_kept per worker */
	REP_EV_DV_NOTHING,	 /* a validating run validated nothing (VDbench's explanation) */
	REP_EV_DV_COVERAGE,	 /* sd, nr_errors (failed writes, their blocks now unknown),
				  * nr_known, nr_blocks: validation covers fewer blocks */
	/* many hosts */
	REP_EV_RANK_NO_END,    /* rank 0 never ended the run */
	REP_EV_RANK_GONE,      /* host: stopped answering when the job was signalled */
	REP_EV_RANK_SIGNALLED, /* host: interrupted by a signal */
	REP_EV_RANK_LOST,      /* host, interval, timeout_s: no statistics in time */
};

/* One event: kind and the fields its kind names (the others are zero). Strings and pointers
 * are borrowed for the call. */
struct rep_event {
	enum rep_event_kind kind;
	const struct rep_run *run;
	const struct rep_sample *sample;
	const struct rep_run_end *run_end;
	const struct rep_io_error *io_error;
	const struct rep_dv_error *dv_error;
	const struct rep_dv_summary *dv_summary;
	const char *text;
	const char *keyword;
	const char *sd;
	const char *lun;
	const char *rd;
	const char *dir;
	const char *host;
	int err; /* positive errno */
	uint32_t worker;
	uint32_t interval;
	bool is_boxed;
	uint64_t nr_errors;
	uint64_t nr_outstanding;
	uint64_t nr_blocks;
	uint64_t block_bytes;
	uint64_t nr_known;
	uint64_t nr_before;
	uint64_t nr_after;
	uint64_t nr_validated;
	uint64_t nr_pending;
	uint64_t nr_torn;
	uint64_t nr_kept;
	uint64_t nr_bytes;
	uint64_t timeout_s;
	double stopcurve_ms;
	double resp_ms;
	double stall_s;
	struct {
		const char *name; /* "uring" */
		const char *kind; /* what the rule saw: "O_DIRECT", "buffered, written" */
		size_t nr_sds;
	} engine;
	struct {
		uint64_t unit_bytes;
		double ratio;
		uint64_t nr_units;
		uint64_t nr_unique;
		uint64_t nr_sets;
	} dedup;
};

/* The observers an execution notifies, in order. Each call forwards to every observer; the
 * first error is returned (and the others still run, so no output loses data). */
struct rep_set {
	const struct rep_ops *ops[32];
	void *state[32];
	size_t nr;
	const struct rep_exec *exec;
	struct rep_doc *doc; /* the results document, when an observer has open_doc; NULL */
	int err;	     /* the first failure of an observer (-errno), 0 when none */
	const struct rep_ops *err_ops; /* whose */
	int errs[32];		       /* each observer's first failure: every one is said */
};

/* Adds an observer before rep_set_open(). Returns 0 or -ENOSPC. */
int rep_set_add(struct rep_set *s, const struct rep_ops *ops);

/* Opens every observer. On failure, closes those already open and returns -errno. */
int rep_set_open(struct rep_set *s, const struct rep_exec *x);
int rep_set_run_start(struct rep_set *s, const struct rep_run *r);
int rep_set_interval(struct rep_set *s, const struct rep_run *r, const struct rep_sample *smp);
int rep_set_run_end(struct rep_set *s, const struct rep_run *r, const struct rep_run_end *e);
/* printf-style message to every observer (console and logfile print it with the time). */
void rep_set_messagef(struct rep_set *s, const char *fmt, ...) IORAMP_PRINTF(2, 3);
/* The same for the observers that take log notes (rep_ops.log_note). */
void rep_set_log_notef(struct rep_set *s, const char *fmt, ...) IORAMP_PRINTF(2, 3);
/* After the parameters' notices (plan_notices), before the luns' (rep_ops.setup). */
void rep_set_setup(struct rep_set *s);
/* The same for the observers that take summary notes (rep_ops.sum_note). */
void rep_set_sum_notef(struct rep_set *s, const char *fmt, ...) IORAMP_PRINTF(2, 3);
/* The same for the observers that take the first slave's lines (rep_ops.slave_note). */
void rep_set_slave_notef(struct rep_set *s, bool is_run_end, const char *fmt, ...)
	IORAMP_PRINTF(3, 4);

/* v with decimals and thousands separators ("52,340", "1,020.5"); "-" for NaN. Returns buf. */
const char *rep_fmt_group(double v, int decimals, char *buf, size_t len);
/* Bytes as VDbench's slaves print them in their control and stream lines: "0", "16k", "8m",
 * "3.176m", "1.563g" (observed: a whole number of the largest unit bare, else three
 * decimals). Returns buf. */
const char *rep_fmt_ctl_size(uint64_t b, char *buf, size_t len);
/* A failed I/O to every observer that records them. */
void rep_set_io_error(struct rep_set *s, const struct rep_io_error *e);
/* A data validation error, and the totals, to every observer that records them. */
void rep_set_dv_error(struct rep_set *s, const struct rep_dv_error *e);
void rep_set_dv_summary(struct rep_set *s, const struct rep_dv_summary *sum);
/* Closes the observers, those is_closed_last after the others; when any failed (now or at an
 * earlier event) and status is 0, they see status 1 and a message naming the file. Returns
 * the first failure (-errno) or 0. */
int rep_set_close(struct rep_set *s, int status);

/* The one entry point of the engine: the observers' own events go to their calls, the others
 * are worded (rep_event_lines) and go to every observer as messages. Returns what the
 * observers' call returned (run start, interval, run end), else 0. */
int rep_set_event(struct rep_set *s, const struct rep_event *e);

/* The console lines of a wording event, one by one, to emit(ctx, line); the observers' own
 * events have none. Returns how many. */
size_t rep_event_lines(const struct rep_event *e, void (*emit)(void *ctx, const char *line),
		       void *ctx);

/* Adds every output-directory observer below (not the console), for a VDbench-style -o. Each
 * does nothing when rep_exec.outdir is NULL. Returns 0 or -ENOSPC. */
int rep_set_add_vdbench(struct rep_set *s);

/* The observers, VDbench 5.04.07's outputs (reference §10). Each writes its file(s) in
 * rep_exec.outdir as "<title>...</title><pre>" + text and flushes after every event, so an
 * interrupted execution leaves valid files. */
extern const struct rep_ops rep_console;   /* interval lines, run banners, warning boxes */
extern const struct rep_ops rep_logfile;   /* logfile.html: the console, with run anchors */
extern const struct rep_ops rep_summary;   /* summary.html: links and every interval line */
extern const struct rep_ops rep_totals;	   /* totals.html: the avg line of each run */
extern const struct rep_ops rep_parmfile;  /* parmfile.html: parm_source_listing() */
extern const struct rep_ops rep_flatfile;  /* flatfile.html: one line per interval and avg */
extern const struct rep_ops rep_histogram; /* histogram.html, <sd>.histogram.html, <wd>... */
extern const struct rep_ops rep_sdreport;  /* <sd>.html: interval lines per SD */
extern const struct rep_ops rep_wdreport;  /* <wd>.html: interval lines per WD (2+ WDs) */
extern const struct rep_ops rep_skew;	   /* skew.html: SD and WD tables, requested skew */
extern const struct rep_ops rep_errorlog;  /* errorlog.html: header, then I/O errors */
extern const struct rep_ops rep_status;	   /* status.html: tab-separated events */
extern const struct rep_ops rep_parmscan;  /* parmscan.html: the parser's trace */
/* parmscan.html's text for an expanded listing (parm_source_listing()), stamped tod_ns; also
 * what -s writes. */
void rep_parmscan_write(FILE *f, const char *listing, uint64_t tod_ns);
/* The files -s leaves in x->outdir (created by the caller), as VDbench's simulation does; sim:
 * the listing -s printed. Returns 0 or -errno. */
int rep_sim_files_write(const struct rep_exec *x, const char *sim);
/* <host>.html and <host>-<n>.html: interval lines per host and per slave; on one host
 * localhost.html, localhost-0.html and localhost.var_adm_msgs.html */
extern const struct rep_ops rep_hostreport;
/* config.html: the host's uname, interfaces, id, mounts, memory and processes */
extern const struct rep_ops rep_config;
/* <host>-0.stdout.html: the one slave's log (run setup, threads, end of each run) */
extern const struct rep_ops rep_slavelog;
/* totals_optional.html for report_run_totals=yes: empty, as VDbench 5.04.07 leaves it */
extern const struct rep_ops rep_runtotals;
/* swat_mon.txt, swat_mon_total.txt: per-SD counts per interval and per run, for SWAT */
extern const struct rep_ops rep_swatmon;
/* report=host_detail / slave_detail on one host: <host>.<sd>.html, <host>.histogram.html,
 * <host>-0.<sd>.html, <host>-0.histogram.html */
extern const struct rep_ops rep_hostdetail;

/* ---- VDbench's page pieces, for the file-system reports (src/fs) --------------------------- */

/* The opening text of VDbench's status.html and skew.html, for raw and file-system runs. */
#define REP_VDB_STATUS_HEAD                                                                       \
	"* Vdbench status\n\n"                                                                    \
	"* The objective of this file is to contain easily parseable information about the "      \
	"current state of Vdbench.\n"                                                             \
	"* This then can serve as an 'official' interface for any software monitoring Vdbench.\n" \
	"* Each line of output will be immediately flushed to the file system, making its "       \
	"content accessible by any monitoring program.\n"                                         \
	"* The values below are all tab-delimited.\n\n"
#define REP_VDB_SKEW_HEAD                                          \
	"Workload skew report\n\n"                                 \
	"Skew information will only be generated if:\n"            \
	" - there is more than one Workload Definition (WD/FWD)\n" \
	" - there is more than one Storage Definition (SD/FSD)\n"  \
	" - there is more than one Host\n"                         \
	" - there is more than one Slave\n"                        \
	"(Though these rules may be ignored from time to time).\n\n\n"

/* Creates outdir/name with VDbench's "<title>Vdbench <last dir component>/name</title><pre>"
 * line. Returns the stream, or NULL with errno set. */
FILE *rep_html_page_open(const char *outdir, const char *name);

/* One run of a "Link to Run Definitions:" block: its name, for-loop text ("None" when NULL or
 * empty) and its index in the execution (the anchor id is a hash of name and index). */
struct rep_run_link {
	const char *name;
	const char *loops;
	size_t idx;
};
void rep_html_links(FILE *f, const struct rep_run_link *links, size_t nr);
uint32_t rep_html_anchor_id(const char *name, size_t idx);
/* Iteration order of a java.util.HashMap holding names[nr], put in that order: by bucket of
 * String.hashCode(), then insertion order within a bucket; the table doubles past 3/4 full
 * from nr_buckets (a power of two: 16 for new HashMap()). A malloc'ed array of indexes into
 * names, or NULL. */
size_t *rep_java_hash_order(const char *const *names, size_t nr, uint32_t nr_buckets);
/* VDbench's lines as its master starts its slaves on one host (observed in logfile.html, raw
 * and file-system runs): "Starting slave: LAUNCHER SlaveJvm -m localhost -n
 * localhost-1k-yyMMdd-HH.mm.ss.SSS -l localhost-k -p 5570   " for slave k, the master started
 * at tod_ns; then, as each connects (in no fixed order), "Slave localhost-k (pid  PID)
 * connected to master PID" (ioramp's pid for both: one process does all slaves' work). */
void rep_jvm_start_text(char *buf, size_t len, const char *host, uint32_t k, uint64_t tod_ns);
void rep_jvm_connect_text(char *buf, size_t len, const char *host, uint32_t k);

/* names[nr] sorted by name: with is_natural as VDbench sorts its link lists and skew.html's
 * SD table (digit runs compared as numbers, sd2 < sd10), else by strcmp (sd10 < sd2), as it
 * deals threads to its slaves. A malloc'ed array of indexes into names, or NULL. */
size_t *rep_name_order(const char *const *names, size_t nr, bool is_natural);
/* <a name="_id"></a><i><b>TOD TEXT</b></i> for the run (name, idx) of the links. */
void rep_html_anchor_line(FILE *f, const char *name, size_t idx, const char *tod, const char *text);

/* The link block of a list of names ("Link to SD reports:" ...): sorted as VDbench does
 * (digit runs compared as numbers), eight to a line, each padded to eight characters. */
void rep_html_name_links(FILE *f, const char *title, const char *const *names, size_t nr);

/* flatfile.html's "*" block: the preamble, one "* Column          : what" line each, and
 * the 'n/a' line that ends it. */
void rep_flat_preamble(FILE *f);
void rep_flat_comment(FILE *f, const char *column, const char *desc);
void rep_flat_comments_end(FILE *f);

/* One histogram section in VDbench's layout: the heading line as given ("Reads:"), the column
 * line, one line per bucket of b with count, %, cum% and the bar, a blank line. */
void rep_hist_section(FILE *f, const char *heading, const struct stats_hist *h,
		      const struct stats_vdb_buckets *b);
/* A run's sections of a histogram file: reads and writes, reads, writes (or the one direction
 * done), or "No statistics generated for this run." for an empty or NULL bank. */
void rep_hist_write_run(FILE *f, const struct stats_vdb_buckets *buckets,
			const struct stats_bank *b);

/* The curves of a file-system execution (fwdrate=curve): src/fs gives each curve's runs as
 * plain figures; curves.csv, report.html and the end-of-curve block are the raw runs' own. */
struct rep_fs_point {
	const char *run_name;  /* "rd1", "rd1_(50%)" */
	const char *rate_text; /* "max", "50%" */
	double pct;	       /* NaN for the max run */
	double target_iops;    /* NaN for the max run */
	double iops;	       /* requested operations per second, the counted intervals */
	double mb_per_sec;
	double read_pct;
	double bytes_per_io;
	double elapsed_s;
	const struct stats_hist *svc;  /* service times of the requested operations */
	const struct stats_hist *resp; /* and response times (from when each was due) */
	bool is_target_met;	       /* within 2% of the target; true for the max run */
	enum rep_limit limited_by;
	const double *interval_iops; /* every interval's rate, interval_s each */
	size_t nr_intervals;
	double interval_s;
};

/* What a file-system run's end warns of, as VDbench 5.04.07 does after its avg_ lines. */
struct rep_fs_warnings {
	const char *rd;
	const char *host;     /* NULL: localhost */
	const char *skew_fwd; /* with skew= given, the FWD whose observed share of the requested
				 * operations is more than 1 point from its requested; NULL: none */
	double skew_delta;    /* its observed minus requested share, in points */
	double cpu_pct;	      /* the machine's average processor utilization; NaN: unknown */
	double ops_per_sec;   /* the requested operations a second (one slave) */
	double ios_per_jvm;   /* ios_per_jvm=; 0: 100,000 */
};

/* The boxes, each line stamped with the time of day, on f: the skew warning (with its list of
 * possible reasons when with_reasons: the console and logfile.html have it, summary.html not),
 * the processor utilization one above 80%, the per-slave rate one above ios_per_jvm=. */
void rep_fs_run_warnings(FILE *f, const struct rep_fs_warnings *w, bool with_reasons);

struct rep_fs_curve {
	const char *rd;
	const char *for_loops;
	const char *const *fsds;
	size_t nr_fsds;
	const char *const *fwds;
	size_t nr_fwds;
	struct rep_fs_point max;
	const struct rep_fs_point *points;
	size_t nr_points;
};

struct rep_fs_curves {
	const struct rep_fs_curve *curves;
	size_t nr;
	const char *outdir; /* curves.csv and report.html there; NULL: none */
	FILE *console;	    /* each curve's points and IOPS at latency; NULL: none */
	uint64_t start_tod_ns;
	int status;
};

/* Writes them; nothing without curves. Returns 0 or -errno. */
int rep_fs_curves_write(const struct rep_fs_curves *fc);

/* ---- output directory ------------------------------------------------------------------ */

/* What rep_outdir_create() found in the way, or could not delete. */
struct rep_outdir_err {
	char file[256];	  /* -ENOTEMPTY: the entry in the way; else the report not deleted */
	bool is_deleting; /* the failure came while deleting: earlier reports may be gone */
};

/* Creates the output directory as VDbench does for -o spec (reference §7): NULL or "" means
 * "output"; an existing directory is reused after the reports ioramp wrote there are deleted
 * (rep_outdir_check, rep_outdir_clean); "name+" takes the first of name001..name999 that does
 * not exist; "name.tod" becomes name.yymmdd.hhmmss (local time of tod_ns). The chosen path
 * goes to out (len bytes). Returns 0, -ENAMETOOLONG, -EEXIST (no free name+ slot), -ENOTDIR
 * (spec or a parent is a file), -ENOTEMPTY (e->file is in the way), or -errno from mkdir,
 * opendir or unlink. Parent directories are created as needed. Before deleting anything it
 * checks that nothing is in the way and that the reports can be written there (a probe file
 * written and synced, at least 1 MiB left): -EACCES, -EROFS, -ENOSPC... then, and a directory
 * it made is removed again. e may be NULL. */
int rep_outdir_create(const char *spec, uint64_t tod_ns, char *out, size_t len,
		      struct rep_outdir_err *e);

/* Takes dir for this process until it ends (an exclusive flock on the directory): 0, or
 * -EBUSY when another process holds it (rep_outdir_create calls it before deleting). */
int rep_outdir_lock(const char *dir);

/* The message of a failed rep_outdir_create(spec) that chose dir: what was in the way or
 * could not be written, and whether anything was deleted. prog: "ioramp", "ioramp suite". */
void rep_outdir_perror(FILE *f, const char *prog, const char *spec, const char *dir, int ret,
		       const struct rep_outdir_err *e);

/* In an existing output directory, the names ioramp writes (*.html, results.json, curves.csv
 * and their .tmp) must be regular files that are empty or begin as ioramp's reports (or
 * VDbench's pages) begin. Returns 0, -ENOTEMPTY with the first other one's name in in_the_way,
 * or -errno of opendir. Touches nothing. */
int rep_outdir_check(const char *dir, char *in_the_way, size_t len);

/* ret, a report stream's -errno; a bare -EIO (the stream's error flag, the cause unknown)
 * becomes -ENOSPC when the file system of f is full. */
int rep_write_cause(FILE *f, int ret);

/* Deletes those reports. Returns 0, or -errno with the file that could not go in failed. */
int rep_outdir_clean(const char *dir, char *failed, size_t len);

/* ---- flatfile parsing (ioramp parseflat) ----------------------------------------------- */

/* A flatfile read into memory: the column names of the header line and one row of values per
 * data line (blank-separated; "?" kept as is). */
struct rep_flat {
	char **cols;
	size_t nr_cols;
	char ***rows; /* rows[i][j]: value of column j; a short line's missing values are "" */
	size_t nr_rows;
};

/* What parseflat selects: columns by name (case-insensitive, "all" = every column, echoed in
 * the header as typed), filters (column, value: case-insensitive equality, all must hold),
 * avg_ lines only or non-avg lines only, comma or tab. */
struct rep_flat_query {
	const char *const *cols;
	size_t nr_cols;
	const char *const *filters; /* pairs: column, value */
	size_t nr_filters;	    /* number of pairs */
	bool is_avg_only;
	bool is_tab;
};

/* Reads a flatfile (the "*" comment block, the header line, data lines) from f into *out.
 * Returns 0, -EINVAL when no header line is found, or -ENOMEM. Free with rep_flat_fini(). */
int rep_flat_read(FILE *f, struct rep_flat *out);
void rep_flat_fini(struct rep_flat *fl);

/* Index of a column (case-insensitive), or -ENOENT. */
int rep_flat_col(const struct rep_flat *fl, const char *name);

/* Writes the header and the selected rows to out ("?" values printed as 0). Returns the number
 * of rows written (0: nothing matched; the header is written anyway), or -ENOENT with
 * *bad_col set to the unknown column name. */
int rep_flat_select(const struct rep_flat *fl, const struct rep_flat_query *q, FILE *out,
		    const char **bad_col);

/* ioramp's own outputs. */
/* results.json in outdir (written after every run and at close, replaced atomically), and
 * the same document on exec->json_out at close when set. */
extern const struct rep_ops rep_json;
/* curves.csv in outdir (one row per curve point) and, at the end of every curve, its points
 * and IOPS-at-latency block on exec->console. */
extern const struct rep_ops rep_curves;
/* report.html in outdir: one self-contained page with SVG charts (after every run, at close). */
extern const struct rep_ops rep_html;
/* One updating line on stderr (run i of N, curve point, time left) when stderr is a terminal;
 * nothing otherwise. Writes to stderr only, so add it to the set wherever convenient. */
extern const struct rep_ops rep_statusline;

/* ---- IOPS at latency (sla.c) ------------------------------------------------------------- */

enum {
	REP_SLA_MAX = 16,	/* most thresholds --sla accepts */
	REP_SLA_DEFAULT_NR = 4, /* 100 us, 200 us, 500 us, 1 ms */
};

/* The thresholds used when rep_exec.nr_sla is 0, in ns. */
extern const double rep_sla_default_ns[REP_SLA_DEFAULT_NR];

/* Parses a --sla list: comma-separated latencies, each a number with an optional unit ns, us,
 * ms or s (no unit: us), e.g. "100us,0.2ms,1ms". Fills ns[] sorted ascending without
 * duplicates. Returns the count (1 .. max), or -EINVAL for an empty list, a value that is not
 * a positive latency, or more than max values. */
int rep_sla_parse(const char *text, double *ns, size_t max);

/* One measured point of a curve: its IOPS and latencies in ns, its target and whether it
 * missed it. */
struct rep_sla_point {
	double iops;
	double mean_ns;
	double p99_ns;
	double target_iops; /* the order points are walked in; equal or NaN: the given order */
	bool is_missed;	    /* missed its target (POINT VALIDITY): never an upper end */
};

enum rep_sla_stat {
	REP_SLA_MEAN,
	REP_SLA_P99,
};

enum rep_sla_state {
	REP_SLA_NOT_REACHED, /* no point is at or under the threshold */
	REP_SLA_REACHED,     /* iops: where the curve crosses the threshold (interpolated) */
	REP_SLA_ALL_BELOW,   /* every point is at or under it: iops is the highest measured */
};

struct rep_sla_at {
	enum rep_sla_state state;
	double iops; /* 0 when not reached */
};

/* The IOPS a curve carries with the chosen latency at or under threshold_ns (man ioramp(1)
 * IOPS AT LATENCY). Points are walked in the order of their targets; the answer interpolates
 * (linearly in IOPS and latency) between the last point under the threshold and the first
 * point over it, and nothing after that first crossing counts, so a later dip under the
 * threshold cannot raise it. A point that missed its target is never the upper end: crossing
 * at one, the answer is the last point under. Never below that point's IOPS. No point over:
 * ALL_BELOW with the highest IOPS measured. Pure. */
struct rep_sla_at rep_sla_iops_at(const struct rep_sla_point *pts, size_t nr,
				  enum rep_sla_stat stat, double threshold_ns);

/* A threshold as people write it: "100us", "1ms", "1.5ms", "2s", "500ns". */
void rep_sla_label(double ns, char *buf, size_t len);

/* ---- rendering saved results (ioramp report) ------------------------------------------------ */

/* A published curve drawn beside the measured ones: a CSV file of IOPS,latency lines whose
 * unit a header line (iops,latency_us or iops,latency_ms) or unit_us states. */
struct rep_overlay {
	const char *name;
	const char *path;
	const char *label; /* its legend; NULL: "NAME (published)" */
	double unit_us;	   /* a latency unit in us (1, 1000) for a file without a header; 0: none */
};

/* What `ioramp report` asks for, and why it failed. */
struct rep_html_request {
	const char *results_path; /* a results.json */
	const char *html_path;	  /* the page to write */
	/* From the page to the results' directory, for the links to its files ("../out/");
	 * NULL: the page is in it. */
	const char *files_href;
	const struct rep_overlay *ov;
	size_t nr_ov;
	/* Out, on failure: */
	bool is_write_error; /* the page could not be written (else: bad or unreadable input) */
	char err[512];	     /* "results.json: not an ioramp-results/2 document",
			      * "pub.csv:3: expected IOPS,latency_us", ... */
};

/* Renders the page from the results document with the overlays drawn as dashed lines on
 * every IOPS/average-latency chart. Returns 0, or -errno with req->err and
 * req->is_write_error set: -ENOENT, -EACCES... for unreadable files, -EINVAL for bad
 * contents. */
int rep_html_write(struct rep_html_request *req);

/* ---- two executions on one page (ioramp compare --html) ------------------------------------ */

struct json_t; /* jansson's; the documents of ioramp/results.h */

/* The columns both sides have per run. */
enum {
	REP_COMPARE_IOPS,
	REP_COMPARE_MEAN,
	REP_COMPARE_P99,
	REP_COMPARE_NR
};

/* A run both executions have: its name and for-loops, A's and B's figures (NaN: unknown). */
struct rep_compare_row {
	const char *key;
	double a[REP_COMPARE_NR];
	double b[REP_COMPARE_NR];
};

/* A curve both executions have ("rd1", "rd1 xfersize=8k"). */
struct rep_compare_curve {
	const char *key;
	const struct json_t *a;
	const struct json_t *b;
};

struct rep_compare_request {
	const char *path_a; /* the results read, for the header */
	const char *path_b;
	const struct json_t *doc_a;
	const struct json_t *doc_b;
	const struct rep_compare_row *rows;
	size_t nr_rows;
	const struct rep_compare_curve *curves;
	size_t nr_curves;
	const char *const *only; /* "only in A: rd1_(80%)" lines */
	size_t nr_only;
	const char *html_path;
};

/* Writes the page: per curve, a chart of IOPS against mean (and p99, when both sides have it)
 * service time with A's and B's lines, then the runs with their differences. Written through
 * a temporary file and a rename. Returns 0 or -errno. */
int rep_compare_html_save(const struct rep_compare_request *q);

/* ---- the review suite page (ioramp suite) ------------------------------------------------- */

/* One profile of a suite: an execution of its own, in its own output directory. */
struct rep_suite_profile {
	const char *name;	  /* "sql" */
	const char *title;	  /* "SQL"; NULL: name */
	const char *results_path; /* its results.json; NULL: it did not run */
	const char *href;	  /* its own report.html, relative to the suite page; NULL: none */
	const char *figures;	  /* "97% read · 8k · 32 threads per drive"; NULL: none */
	/* Published curves drawn dashed on its IOPS/average latency chart; a profile
	 * without that chart (a sweep, a pressure test, not run) refuses them. */
	const struct rep_overlay *ov;
	size_t nr_ov;
};

struct rep_suite_request {
	const char *html_path;	   /* the page to write */
	const char *drives_label;  /* legend of every curve ("8 drives", a drive model) */
	const char *const *drives; /* the drives, for the header */
	size_t nr_drives;
	int argc; /* the command line, for the header */
	char *const *argv;
	const struct rep_suite_profile *profiles;
	size_t nr_profiles;
	int status; /* the suite's exit status: 0 completed, 130/143 interrupted, else failed */
	/* Out, on failure: */
	bool is_write_error; /* the page could not be written (else: a bad overlay) */
	char err[512];
};

/* Writes the review page of a suite, as reviews present their curves: a summary table of
 * every profile's peak (the most IOPS of its curve and the mean service latency there) and
 * IOPS at each latency threshold, then per profile a chart of IOPS against mean service
 * latency (its curve's points in load order, joined by straight lines) and its IOPS-at-latency
 * table, each linking the profile's own report; a profile's published curves (its ov) dashed on
 * its average latency chart. A profile that did not run, or whose
 * results.json cannot be read, is listed as such. Returns 0, or -errno when the page cannot be
 * written (req->is_write_error) or an overlay cannot be read or drawn (req->err says why). */
int rep_suite_write(struct rep_suite_request *req);

/* The same summary on the console: one line per profile, "peak X IOPS at Y us". */
void rep_suite_print(const struct rep_suite_request *req, FILE *f);

#endif /* IORAMP_REPORT_H */
