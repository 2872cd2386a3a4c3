/* The results document: everything an execution measured, built once per execution from the
 * report events and read by every output that renders it (results.json, curves.csv,
 * report.html, the suite page) and by `ioramp report`, `compare` and `suite`. Its content is
 * results.json, schema ioramp-results/3 (doc/results.schema.json). The module keeps the
 * rep_doc_ names it had inside src/report/.
 *
 * During an execution the observer set builds it (report/set.c): rep_set_open creates one
 * when an observer renders it (rep_ops.open_doc), every event reaches it before any observer,
 * rep_set_close closes it before the observers close and frees it after. A saved document,
 * or another tool's results (a VDbench flatfile.html), is read with rep_doc_load. */
#ifndef IORAMP_RESULTS_H
#define IORAMP_RESULTS_H

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
	/* a finished run's whole average goes to disk, not only its histograms: whoever reads
	 * a run's average after its run ended reads it with rep_doc_run_average */
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

/* The "average" of run run_idx (run is its tree): the tree's, or for a live document that
 * spilled it (REP_DOC_SPILL_AVG) the one read back from its file, borrowed until the next
 * call for another run (a caller may hold one run's average at a time) or rep_doc_free. NULL
 * when the run has none (null: fewer than two intervals) or it cannot be read back. */
const json_t *rep_doc_run_average(const struct rep_doc *live, const json_t *run, size_t run_idx);

/* Writes the document as results.json carries it, intervals and histograms spliced in, and a
 * newline.
 * Returns 0 or -errno. */
int rep_doc_write(const struct rep_doc *d, FILE *f);

/* The next curve that ended (no more points will join it) and was not returned yet, in
 * order; NULL when none. */
const json_t *rep_doc_next_ended(struct rep_doc *d);

/* ---- pieces (doc_exec.c, doc_sample.c, jtext.c)-------------------------------------------------- */

/* A JSON number, or null for NaN and infinities (which JSON cannot carry). NULL: no memory. */
json_t *rep_doc_real(double v);
/* Text from the user or the data as a JSON string (jtext.c): every byte that does not start a
 * valid UTF-8 sequence becomes U+FFFD; NULL is "". NULL only without memory. */
json_t *rep_json_text(const char *text);

/* "2025-03-01T12:34:56.789Z" (UTC, ms) for a CLOCK_REALTIME time in ns. */
void rep_doc_time(uint64_t tod_ns, char buf[64]);

/* A latency as every sample carries it: mean, stddev, min, max (us) and the percentiles. */
json_t *rep_doc_latency(const struct stats_hist *h, double stddev_ns);
/* The non-empty buckets of h as [lowest value ns, count] pairs. */
json_t *rep_doc_buckets(const struct stats_hist *h);
/* Standard deviation from the histogram's bucket midpoints (within 0.78%). */
double rep_doc_hist_stddev_ns(const struct stats_hist *h);

/* ---- data validation (doc_dv.c) ------------------------------------------------------------ */

/* Appends a key block in error to root's "data_validation" object (created when missing), or
 * sets its totals. Return 0 or -ENOMEM. */
int rep_doc_dv_error(json_t *root, const struct rep_dv_error *e);
int rep_doc_dv_summary(json_t *root, const struct rep_dv_summary *s);

/* ---- curves (doc_curve.c) ------------------------------------------------------------------ */

/* A curve's "sla" list (new reference; NULL when none): a live document computes its curves'
 * lists from their points whenever asked, a loaded one has them in its tree. */
json_t *rep_doc_curve_sla_list(const struct rep_doc *live, const json_t *curve);
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
 * ioramp-results/3, /2 or /1), with a one-line reason in err. A path whose file is named
 * flatfile.html is read with rep_doc_load_flat. */
int rep_doc_load(const char *path, json_t **out, char *err, size_t errlen);

/* A VDbench output's flatfile.html (flat.c) as a results document: a run per RD run with its
 * intervals and average (rate, MB/s, read%, mean, max and standard deviation of the service
 * time: VDbench writes no percentiles), for-loop values where runs share a name, the curves
 * of the max runs (reqrate 9999977) and the NAME_(P%) points after them, and IOPS at the
 * default latency thresholds. execution.engine.name is "vdbench". Returns 0, -errno
 * (unreadable) or -EINVAL with "file:line: what was expected" in err. */
int rep_doc_load_flat(const char *path, json_t **out, char *err, size_t errlen);

/* The engine of a document's execution as people name it ("uring", "model:..."), in either
 * schema version; dflt when absent. */
const char *rep_doc_engine(const json_t *doc, const char *dflt);

/* With modelled drives: the line saying so (rep_model_text) into buf, and true; false for
 * real drives (and for ioramp-results/1, which had no models). */
bool rep_doc_model_text(const json_t *doc, char *buf, size_t len);

/* Writes a file through path.tmp and a rename, so readers never see half of it: write fills
 * the temporary file and returns 0 or -errno. A path that is not a regular file (a symbolic
 * link, /dev/null, a FIFO) is written in place instead. Returns 0 or -errno. */
int rep_replace_file(const char *path, int (*write)(FILE *f, const void *arg), const void *arg);

/* Writes a live document to path with rep_replace_file. Returns 0 or -errno. */
int rep_doc_save(const struct rep_doc *d, const char *path);

/* Dump flags of every results.json. */
#define REP_DOC_DUMP_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(10))

#endif /* IORAMP_RESULTS_H */
