/* Private to src/report: the results document (the content of results.json, schema
 * ioramp-results/2, described in doc/results.schema.json) built from observer events, and the
 * helpers every output that renders it uses. Each observer owns its own document. */
#ifndef IORAMP_REPORT_DOC_H
#define IORAMP_REPORT_DOC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/report.h"

#define REP_DOC_SCHEMA "ioramp-results/3"
/* Older versions, read as well: /2 lacks the points' is_target_met and limited_by and the
 * runs' ioramp_cpu_pct; /1's execution.engine is a plain string. */
#define REP_DOC_SCHEMA_V2 "ioramp-results/2"
#define REP_DOC_SCHEMA_V1 "ioramp-results/1"

/* Flags of rep_doc_new(). */
enum {
	REP_DOC_DETAIL = 1 << 0, /* per-SD and per-WD metrics in every sample (results.json) */
	/* a finished run's whole average goes to disk, not only its histograms: for documents
	 * nothing reads runs' averages from after their run ended (results.json, curves.csv) */
	REP_DOC_SPILL_AVG = 1 << 1,
};

/* ---- building (doc.c) ---------------------------------------------------------------------- */

struct rep_doc;

/* A new document for execution x: execution, plan, no runs yet. Returns 0 or -ENOMEM. */
int rep_doc_new(const struct rep_exec *x, unsigned int flags, struct rep_doc **out);
void rep_doc_free(struct rep_doc *d);

/* The observer events. Each returns 0 or -ENOMEM (the document then lacks that piece). */
int rep_doc_run_start(struct rep_doc *d, const struct rep_run *r);
int rep_doc_interval(struct rep_doc *d, const struct rep_run *r, const struct rep_sample *s);
int rep_doc_run_end(struct rep_doc *d, const struct rep_run *r, const struct rep_run_end *e);
/* A failed I/O joins the current run's "io_errors" (none between runs). */
int rep_doc_io_error(struct rep_doc *d, const struct rep_io_error *e);
/* Records the exit status and end time, seals the last curve. */
int rep_doc_close(struct rep_doc *d, int status);
/* A console message: "ioramp: error: ..." lines go to execution.errors. */
void rep_doc_message(struct rep_doc *d, const char *line);

/* The document (borrowed: lives as long as d). */
json_t *rep_doc_root(const struct rep_doc *d);

/* Intervals: a live document (one built by rep_doc_new) keeps them in an unnamed file, one
 * compact JSON line each, and its runs' "intervals" hold a placeholder; a loaded document has
 * them in the tree. */
typedef void rep_doc_iv_fn(const json_t *iv, void *arg);

/* Calls fn (when not NULL) with every interval of run run_idx of the document, in order, and
 * returns their number. run is that run's tree; live the document being built, or NULL for a
 * loaded one. An interval lives for the call only. */
size_t rep_doc_run_intervals(const struct rep_doc *live, const json_t *run, size_t run_idx,
			     rep_doc_iv_fn *fn, void *arg);

/* The "histograms" of run run_idx's average (run is its tree) as a new reference, from a
 * live document's file or from the tree of a loaded one (live NULL); NULL when none. */
json_t *rep_doc_run_histograms(const struct rep_doc *live, const json_t *run, size_t run_idx);

/* Writes the document as results.json carries it, intervals and histograms spliced in, and a newline.
 * Returns 0 or -errno. */
int rep_doc_write(const struct rep_doc *d, FILE *f);

/* The next curve that ended (no more points will join it) and was not returned yet, in
 * order; NULL when none. */
const json_t *rep_doc_next_ended(struct rep_doc *d);

/* ---- intervals on disk (doc_spill.c) -------------------------------------------------------- */

struct rep_doc_spill;

/* An unnamed file in dir (NULL: the temporary directory). Returns 0 or -errno. */
int rep_doc_spill_open(const char *dir, struct rep_doc_spill **out);
void rep_doc_spill_close(struct rep_doc_spill *s);
/* Appends an interval of run run_idx; a run's intervals come together. Returns 0 or -errno. */
int rep_doc_spill_add(struct rep_doc_spill *s, size_t run_idx, const json_t *iv);
size_t rep_doc_spill_count(const struct rep_doc_spill *s, size_t run_idx);
/* Calls fn with each interval of the run, parsed. Returns 0 or -errno. */
int rep_doc_spill_each(const struct rep_doc_spill *s, size_t run_idx, rep_doc_iv_fn *fn, void *arg);
/* Writes the run's intervals as a JSON array whose lines are indented by indent + 1 spaces
 * and whose closing bracket by indent. Returns 0 or -errno. */
int rep_doc_spill_write(const struct rep_doc_spill *s, size_t run_idx, int indent, FILE *f);
/* Writes the run's lines as they are, without their newlines, joined by commas. Returns 0 or
 * -errno. */
int rep_doc_spill_copy(const struct rep_doc_spill *s, size_t run_idx, FILE *f);

/* ---- averages' histograms on disk (doc_avg.c) ---------------------------------------------- */

/* A live document's run averages (REP_DOC_SPILL_AVG) or only their histograms, in an unnamed
 * file opened at the first. Zeroed is empty. */
struct rep_doc_avgs {
	struct rep_doc_spill *spill;
	bool is_refused; /* no file could be had: averages stay in the tree */
};

void rep_doc_avgs_fini(struct rep_doc_avgs *a);
/* Moves the "histograms" of run run_idx's average avg to the file (opened in dir, NULL: the
 * temporary directory) and leaves a placeholder; without a file, or when the write fails,
 * they stay in the tree. */
void rep_doc_avgs_spill(struct rep_doc_avgs *a, const char *dir, size_t run_idx, json_t *avg);
/* The same for the whole "average" of run (index run_idx), which must hold no placeholder. */
void rep_doc_avgs_spill_whole(struct rep_doc_avgs *a, const char *dir, size_t run_idx,
			      json_t *run);
/* The histograms of run (index run_idx) as a new reference, from the tree or from a (NULL:
 * none); NULL when the run has none or they cannot be read back. */
json_t *rep_doc_avgs_histograms(const struct rep_doc_avgs *a, const json_t *run, size_t run_idx);
/* Writes run run_idx's spilled histograms or average as one JSON object. Returns 0 or
 * -errno. */
int rep_doc_avgs_write(const struct rep_doc_avgs *a, size_t run_idx, FILE *f);

/* ---- pieces (doc_exec.c, doc_sample.c) ----------------------------------------------------- */

/* A JSON number, or null for NaN and infinities (which JSON cannot carry). NULL: no memory. */
json_t *rep_doc_real(double v);
/* Text from the user or the data as a JSON string (jtext.c): every byte that does not start a
 * valid UTF-8 sequence becomes U+FFFD; NULL is "". NULL only without memory. */
json_t *rep_json_text(const char *text);
json_t *rep_json_textn(const char *text, size_t n);

/* "2025-03-01T12:34:56.789Z" (UTC, ms) for a CLOCK_REALTIME time in ns. */
void rep_doc_time(uint64_t tod_ns, char buf[64]);

json_t *rep_doc_execution(const struct rep_exec *x);
json_t *rep_doc_plan(const struct plan *p);
/* A run's description, "intervals": [] and "average": null. */
json_t *rep_doc_run(const struct rep_exec *x, const struct rep_run *r);
/* A latency as every sample carries it: mean, stddev, min, max (us) and the percentiles. */
json_t *rep_doc_latency(const struct stats_hist *h, double stddev_ns);
/* The non-empty buckets of h as [lowest value ns, count] pairs. */
json_t *rep_doc_buckets(const struct stats_hist *h);
/* Standard deviation from the histogram's bucket midpoints (within 0.78%). */
double rep_doc_hist_stddev_ns(const struct stats_hist *h);
/* An interval or average; averages carry the total's histograms. */
json_t *rep_doc_sample(const struct rep_exec *x, const struct rep_run *r,
		       const struct rep_sample *s, unsigned int flags);

/* ---- set-up (doc_setup.c) ------------------------------------------------------------------- */

/* {"kernel": "Linux 6.1.0 x86_64", "cpu": "model name" or null, "nr_cpus": n}. NULL: no memory. */
json_t *rep_doc_host(void);
/* Adds to run's "sds" each SD's "range" ([lo, hi], % of the lun or bytes above 200) and
 * "openflags" text, and to its "wds" each WD's "sds", fixed "iorate" and "priority" (null
 * when not given), from cfg (NULL: nothing). */
void rep_doc_run_setup(const struct parm_config *cfg, json_t *run);

/* ---- drives (doc_drive.c) ------------------------------------------------------------------ */

/* What lun is (schema: runs[].sds[].drive): {"kind": "block", model, serial, wwid, firmware_rev,
 * block sizes, is_rotational...}, {"kind": "file", fs_type, mount_point, "backing": the block
 * signature or null}, {"kind": "modelled", the model m} when m is not NULL, or {"kind":
 * "unknown"} when lun cannot be looked at. NULL: no memory. */
json_t *rep_doc_drive(const char *lun, const struct rep_model *m);
/* Sets each of run's "sds" its "drive" from its "lun". */
void rep_doc_run_drives(const struct rep_model *m, json_t *run);

/* ---- data validation (doc_dv.c) ------------------------------------------------------------ */

/* Appends a key block in error to root's "data_validation" object (created when missing), or
 * sets its totals. Return 0 or -ENOMEM. */
int rep_doc_dv_error(json_t *root, const struct rep_dv_error *e);
int rep_doc_dv_summary(json_t *root, const struct rep_dv_summary *s);

/* ---- curves (doc_curve.c) ------------------------------------------------------------------ */

/* Which curve the current run adds to. A curve is a max run and the points based on it; a
 * series is a sequence of other runs of one RD with the same for-loop values (an iorate list,
 * a thread sweep). */
struct rep_doc_curves {
	json_t *list;			 /* the document's "curves" array (borrowed) */
	json_t *open;			 /* the curve the next runs may join; NULL */
	const struct plan_run *open_key; /* its first planned run */
	int open_max_idx;		 /* plan index of its max run, -1 for a series */
	json_t *cur;			 /* the curve of the current run; NULL */
	size_t cur_run_idx;		 /* the current run's index in "runs" */
	size_t nr_ended;
	size_t nr_taken;
};

int rep_doc_curves_run_start(struct rep_doc_curves *c, const struct rep_exec *x,
			     const struct rep_run *r, size_t run_idx);
/* Adds the finished run (its document, average included) to its curve. */
int rep_doc_curves_run_end(struct rep_doc_curves *c, const struct rep_exec *x,
			   const struct rep_run *r, json_t *run);
void rep_doc_curves_end_open(struct rep_doc_curves *c);

/* One line per point of curve that missed its target ("rd1_(130%): reached 97,111 of 115,600
 * (84%), limited by device"); nothing when every point met its target. */
void rep_doc_curve_print_missed(const json_t *curve, FILE *f);

/* Recomputes a curve's "sla" and "peak" from its points with the thresholds given. */
int rep_doc_curve_sla(json_t *curve, const double *sla_ns, size_t nr_sla);

/* ---- reading (doc_read.c) ------------------------------------------------------------------ */

/* The value at a '/'-separated path of object keys and array indexes ("average/total/service/
 * percentiles_us/99.9"); NULL when absent. */
const json_t *rep_doc_get(const json_t *o, const char *path);
/* The number there, NaN when absent or not a number. */
double rep_doc_num(const json_t *o, const char *path);
/* The string there, or dflt. */
const char *rep_doc_str(const json_t *o, const char *path, const char *dflt);

/* Loads and checks a results document: 0, -errno (unreadable) or -EINVAL (not JSON, or not
 * ioramp-results/2 or /1), with a one-line reason in err. */
int rep_doc_load(const char *path, json_t **out, char *err, size_t errlen);

/* The engine of a document's execution as people name it ("uring", "model:..."), in either
 * schema version; dflt when absent. */
const char *rep_doc_engine(const json_t *doc, const char *dflt);

/* With modelled drives: the line saying so (rep_model_text) into buf, and true; false for
 * real drives (and for ioramp-results/1, which had no models). */
bool rep_doc_model_text(const json_t *doc, char *buf, size_t len);

/* Writes a file through path.tmp and a rename, so readers never see half of it: write fills
 * the temporary file and returns 0 or -errno. Returns 0 or -errno. */
int rep_replace_file(const char *path, int (*write)(FILE *f, const void *arg), const void *arg);

/* Writes a live document to path with rep_replace_file. Returns 0 or -errno. */
int rep_doc_save(const struct rep_doc *d, const char *path);

/* Dump flags of every results.json. */
#define REP_DOC_DUMP_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(10))

/* ---- printing (curve_print.c, curves.c) ---------------------------------------------------- */

/* The end-of-curve block for the console: points, peak and IOPS at latency. */
void rep_doc_curve_print(const json_t *curve, FILE *f);

/* curves.csv: a header and one row per curve point. Returns 0 or -EIO. */
int rep_doc_curves_csv(const json_t *doc, FILE *f);

/* A curve's display name: "rd1", "rd1 xfersize=8k". Returns buf. */
const char *rep_doc_curve_name(const json_t *curve, char *buf, size_t len);

/* ---- numbers for people (numfmt.c) --------------------------------------------------------- */

/* A latency in us with 2 decimals below 10, 1 below 1000, else none. Returns buf. */
const char *rep_fmt_lat_us(double us, char *buf, size_t len);
/* An axis label: 500, 2.5k, 1.2M. Returns buf. */
const char *rep_fmt_si(double v, char *buf, size_t len);

#endif /* IORAMP_REPORT_DOC_H */
