/* VDbench's text building blocks, shared by the observers of src/report (private header):
 * Java-compatible number formatting, time stamps, the interval line and its header, the HTML
 * framing of every output file (title, run links, run anchors) and warning boxes. */
#ifndef IORAMP_REPORT_VDBTEXT_H
#define IORAMP_REPORT_VDBTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/report.h"

/* ---- numbers (jfmt.c) ---------------------------------------------------------------------- */

/* Java's String.format("%<width>.<prec>f", x), which VDbench uses everywhere: Java rounds the
 * shortest decimal form of x half-up (0.125 -> "0.13", 1.005 -> "1.01") where C's printf
 * rounds the exact binary value (0.12, 1.00); NaN prints "NaN", infinities "Infinity". width
 * 0: no padding. Returns buf. */
char *rep_jfmt(char *buf, size_t len, int width, int prec, double x);
/* rep_jfmt() always by the exact search of the shortest form (its fast path takes printf's
 * text where that is Java's): the reference its tests compare with. */
char *rep_jfmt_exact(char *buf, size_t len, int width, int prec, double x);

/* A flatfile number: 4 decimals (as rep_jfmt), then trailing zeros and a bare point removed
 * ("0.1035", "50", "71.223"). Returns buf. */
char *rep_jflat(char *buf, size_t len, double x);
/* The same with prec decimals (VDbench's max columns have 3: "0.219", "34.198"). */
char *rep_jflat_prec(char *buf, size_t len, int prec, double x);

/* Java's "%,d": 1,234,567. Returns buf. */
char *rep_jgroup(char *buf, size_t len, uint64_t n);

/* ---- time (clock.c); all local time -------------------------------------------------------- */

enum {
	REP_TOD_LEN = 16,
	REP_STAMP_LEN = 48,
};

uint64_t rep_now_ns(const struct rep_exec *x);	      /* x->tod_ns, else CLOCK_REALTIME, in ns */
void rep_fmt_tod(char *buf, uint64_t tod_ns);	      /* "08:04:13.424" (REP_TOD_LEN) */
void rep_fmt_date(char *buf, uint64_t tod_ns);	      /* "Nov 30, 2026" (REP_TOD_LEN) */
void rep_fmt_stamp(char *buf, uint64_t tod_ns);	      /* "11/30/2026-08:04:13-UTC" */
void rep_fmt_created(char *buf, uint64_t tod_ns);     /* "08:04:13 Nov 30 2026 UTC" */
void rep_fmt_created_utc(char *buf, uint64_t tod_ns); /* the same in UTC */

/* ---- interval lines (line.c) ----------------------------------------------------------------- */

/* The figures VDbench derives from one bank over elapsed_ns; times in ms. */
struct rep_vals {
	uint64_t nr_ios;
	double rate;
	double mb_per_sec;
	uint64_t bytes_per_io; /* integer division, 0 without I/O */
	double read_pct;
	double resp_ms, read_resp_ms, write_resp_ms;
	double resp_max_ms, read_max_ms, write_max_ms;
	double resp_std_ms, read_std_ms, write_std_ms;
	double qdepth;
};

void rep_vals_compute(struct rep_vals *v, const struct stats_bank *b, uint64_t elapsed_ns,
		      uint64_t mb_bytes);

/* Writes one console-layout line (reference §10.1) for bank b of sample s, with s's time of
 * day and label, CPU columns when s->has_cpu. */
void rep_line_print(FILE *f, const struct rep_exec *x, const struct rep_sample *s,
		    const struct stats_bank *b);

/* Writes the blank line and the two header rows (date of tod_ns). */
void rep_header_print(FILE *f, const struct rep_exec *x, uint64_t tod_ns, bool has_cpu);

/* "Starting RD=rd1; I/O rate: 200; elapsed=4 warmup=2; For loops: None" */
void rep_start_text(char *buf, size_t len, const struct rep_run *r);

/* The "For loops:" text of a run ("None" when it has none). */
const char *rep_run_loops(const struct rep_run *r);

/* ---- HTML files (html.c) --------------------------------------------------------------------- */

/* The host label of a one-host execution ("localhost"). */
static inline const char *rep_host_name(const struct rep_exec *x)
{
	return x->host ? x->host : "localhost";
}

/* The slaves of a one-host execution: VDbench's JVMs, at least the one localhost-0. */
static inline uint32_t rep_nr_jvms(const struct rep_exec *x)
{
	return x->nr_jvms > 1 ? x->nr_jvms : 1;
}

/* Run r's threads on slave jvm (all of them for one slave); of SD s when s < nr_sds, else of
 * every SD. */
uint32_t rep_jvm_threads(const struct rep_exec *x, const struct rep_run *r, uint32_t jvm, size_t s);

/* Creates outdir/name and writes "<title>Vdbench outdir/name</title><pre>". Returns the stream,
 * or NULL with errno set. */
FILE *rep_html_open(const struct rep_exec *x, const char *name);

/* Flushes and closes f (NULL is fine). Returns 0 or -errno of a failed write. */
int rep_html_close(FILE *f);

/* The "Link to Run Definitions:" block: one link per run of the plan (SD_format first when the
 * execution has one), a run repeating the previous one's RD only with its for-loop text. */
void rep_html_run_links(FILE *f, const struct rep_exec *x);

/* The anchor line of a run: <a name="_id"></a><i><b>HH:MM:SS.mmm Starting RD=...</b></i> */
void rep_html_anchor(FILE *f, const struct rep_run *r);

/* The names of the config's SDs (is_wd false) or WDs, in definition order: a malloc'ed array
 * (free it; the strings belong to the config) and *nr. NULL with *nr 0 when there are none or
 * memory ran out. */
const char **rep_def_names(const struct rep_exec *x, bool is_wd, size_t *nr);
/* The WDs that have <wd>.html and <wd>.histogram.html: VDbench 5.04.07 writes them when the
 * execution has two workloads or more, the format pass's own counting, so a single WD has its
 * reports only when a format pass runs [observed]. Returns rep_def_names(x, true) or NULL. */
const char **rep_wd_report_names(const struct rep_exec *x, size_t *nr);
/* The SDs that have <sd>.html and <sd>.histogram.html: all but with report=no_sd_detail. */
const char **rep_sd_report_names(const struct rep_exec *x, size_t *nr);

/* Index of name in names[nr], or -1. */
int rep_name_find(const char *const *names, size_t nr, const char *name);

/* Whether the run's workloads should be compared with their requested skew: two or more WDs
 * in a run that is not an uncontrolled max (reference §9.2). */
bool rep_run_has_skew(const struct rep_run *r);

/* ---- the console stream (conlog.c) --------------------------------------------------------- */

/* Which file a console stream is: the console itself, logfile.html (console lines with run
 * anchors instead of the "Starting RD=" line) or summary.html (interval lines and the short
 * warnings only). */
enum rep_conlog_kind {
	REP_CONLOG_CONSOLE,
	REP_CONLOG_LOGFILE,
	REP_CONLOG_SUMMARY,
};

struct rep_conlog {
	const struct rep_exec *x;
	FILE *f;
	enum rep_conlog_kind kind;
	uint32_t nr_lines; /* interval lines of the current run: the header repeats every 30 */
};

void rep_conlog_run_start(struct rep_conlog *c, const struct rep_run *r);
/* With modelled drives (rep_exec.model): the note that opens the console and the logfile. */
void rep_conlog_model_note(struct rep_conlog *c);
void rep_conlog_interval(struct rep_conlog *c, const struct rep_sample *s);
void rep_conlog_run_end(struct rep_conlog *c, const struct rep_run *r, const struct rep_run_end *e);
/* The same three as rep_ops members, for observers whose state is a rep_conlog (or NULL when
 * they have nowhere to write): console, logfile.html and summary.html share them. */
int rep_conlog_on_run_start(void *state, const struct rep_run *r);
int rep_conlog_on_interval(void *state, const struct rep_run *r, const struct rep_sample *s);
int rep_conlog_on_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e);
/* One line with the current time of day in front. */
void rep_conlog_timed(struct rep_conlog *c, const char *line);
/* The slaves started (one host only): before the luns' notices, as VDbench. */
void rep_conlog_slaves(struct rep_conlog *c);
void rep_conlog_io_error(struct rep_conlog *c, const struct rep_io_error *e);
/* A data validation error: its summary line and VDbench's op line (c may be NULL). */
void rep_conlog_dv_error(struct rep_conlog *c, const struct rep_dv_error *e);
/* The closing line when status is 0. */
void rep_conlog_close(struct rep_conlog *c, int status);
/* rep_ops.check of a rep_conlog written to a file (summary.html, logfile.html). */
int rep_conlog_check(void *state);

/* ---- warning boxes (box.c) ------------------------------------------------------------------- */

typedef void rep_emit_fn(void *ctx, const char *line);

/* VDbench's box: "*", a row of stars, "* line *" with lines padded to the longest, stars, "*". */
void rep_box(const char *const *lines, size_t nr, rep_emit_fn *emit, void *ctx);

/* The warnings VDbench prints after a run's average line: the workload skew box (plus the box
 * of possible reasons when with_reasons) when a WD's observed skew is off by more than 1%,
 * the processor utilization box when the average CPU use is above 80%, and the box for more
 * than ios_per_jvm= (REP_VDB_IOS_PER_JVM) I/Os per second per slave that did I/O. */
#define REP_VDB_IOS_PER_JVM 100000.0
void rep_run_warnings(const struct rep_exec *x, const struct rep_run *r,
		      const struct rep_run_end *e, bool with_reasons, rep_emit_fn *emit, void *ctx);

/* The console form of an I/O error (also errorlog.html), without the newline. */
void rep_io_error_text(char *buf, size_t len, const struct rep_exec *x,
		       const struct rep_io_error *e);

/* ---- data validation errors (dverror.c) ---------------------------------------------------- */

/* VDbench's console line of a data validation error ("op: read lun: ... errno: 60003: 'A Data
 * Validation error was discovered' "), without the newline. */
void rep_dv_error_line(char *buf, size_t len, const struct rep_exec *x,
		       const struct rep_dv_error *e);
/* One line: SD, key block, class and what was found instead. */
void rep_dv_error_summary(char *buf, size_t len, const struct rep_dv_error *e);
/* The block report of errorlog.html, one emit per line: the summary, the sector, the class,
 * keys, time found, and the first 32 bytes (and first differing body line) expected | found. */
void rep_dv_error_detail(const struct rep_dv_error *e, rep_emit_fn *emit, void *ctx);

#endif /* IORAMP_REPORT_VDBTEXT_H */
