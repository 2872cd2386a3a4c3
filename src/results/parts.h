/* Private to src/results: the parts the document is built from (intervals spilled to disk,
 * the curves, the fixed pieces) and the set-up taken from the parameters. */
#ifndef IORAMP_RESULTS_PARTS_H
#define IORAMP_RESULTS_PARTS_H

#include "ioramp/results.h"

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
struct rep_doc_avg_cache;
struct rep_doc_avgs {
	struct rep_doc_spill *spill;
	struct rep_doc_avg_cache *cache; /* the last whole average read back; with spill */
	bool is_refused;		 /* no file could be had: averages stay in the tree */
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
/* The "average" of run (index run_idx): the tree's, or a whole one read back from a (NULL:
 * none), which lives until the next call for another run or rep_doc_avgs_fini. NULL when the
 * run has none or it cannot be read back. */
const json_t *rep_doc_avgs_average(const struct rep_doc_avgs *a, const json_t *run,
				   size_t run_idx);
/* Writes run run_idx's spilled histograms as one compact JSON object (indent -1), or its
 * whole average as the tree dumps it at a key indented by indent (its histograms compact).
 * Returns 0 or -errno. */
int rep_doc_avgs_write(const struct rep_doc_avgs *a, size_t run_idx, int indent, FILE *f);

/* Writes text with indent spaces after each of its newlines. */
void rep_doc_write_indented(const char *text, size_t len, int indent, FILE *f);

/* Each of obj's keys (NULL-terminated) whose object or array one of the last few items of list
 * has alike becomes a reference to that one's (doc_share.c). */
void rep_doc_share_parts(const json_t *list, json_t *obj, const char *const *keys);

/* ---- pieces of the document (doc_exec.c, doc_sample.c, jtext.c) -------------------------- */

/* rep_json_text of the first n bytes. */
json_t *rep_json_textn(const char *text, size_t n);
json_t *rep_doc_execution(const struct rep_exec *x);
json_t *rep_doc_plan(const struct plan *p);
/* A run's description, "intervals": [] and "average": null. */
json_t *rep_doc_run(const struct rep_exec *x, const struct rep_run *r);
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

/* ---- curves (doc_curve.c) ------------------------------------------------------------------ */

/* Which curve the current run adds to. A curve is a max run and the points based on it; a
 * series is a sequence of other runs of one RD with the same for-loop values (an iorate list,
 * a thread sweep). */
struct rep_doc_curves {
	json_t *list;			 /* the document's "curves" array (borrowed) */
	json_t *open;			 /* the curve the next runs may join; NULL */
	const struct plan_run *open_key; /* its first planned run */
	int open_max_idx;		 /* plan index of its max run, -1 for a series */
	size_t open_idx;		 /* its index in list */
	json_t *cur;			 /* the curve of the current run; NULL */
	size_t cur_idx;			 /* its index in list */
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
/* The "sla" list of curve: the tree's, or the one its placeholder stands for, computed from its
 * points with x's thresholds. New reference; NULL when none or without memory. */
json_t *rep_doc_curves_sla(const struct rep_exec *x, const json_t *curve);

#endif /* IORAMP_RESULTS_PARTS_H */
