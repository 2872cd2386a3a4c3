/* Private to src/engine: one execution (every run of a plan) as the controller drives it. */
#ifndef IORAMP_ENGINE_EXEC_H
#define IORAMP_ENGINE_EXEC_H

#include "engine_int.h"
#include "model.h"

/* What the plan needs of one SD, found before anything is opened. */
struct eng_sd_need {
	bool is_used;
	bool is_written;
	bool is_create; /* the file does not exist yet */
	bool is_extend; /* a missing or short file: created, extended to size= when formatted */
	bool is_format; /* SD_format writes it first (a missing or short file, formatsds=yes) */
	uint64_t found_bytes;	    /* a short file's size when the execution began */
	uint64_t format_from_bytes; /* where its format starts (found_bytes, backed off) */
	uint32_t flags; /* O_DIRECT, O_DSYNC */
};

struct eng_exec {
	const struct plan *plan;
	const struct eng_opts *opts;
	struct rep_set *reps;
	struct eng_target *targets; /* per config SD */
	struct eng_sd_need *needs;  /* per config SD */
	double *observed_iops;	    /* per plan run: the average rate reached */
	double last_resp_ms;	    /* mean service time of the last run */
	const char *engine;	 /* --engine or engine=; NULL: the default, per SD (sd_engine.c) */
	char engines_noted[256]; /* the default's picks last written to the logfile */
	bool engine_noted;
	uint32_t nr_missed;
		/* runs with a target that missed it by more than 2% (--strict) */ /* the backend fallback note is printed once */
	bool has_format;	       /* some SD needs the SD_format pass */
	struct eng_recorder *recorder; /* --record */
	struct eng_trace_info *traces; /* per RD with trace=: what the scan found */
	struct dv_opts dv_opts;	       /* data validation asked for (command line, parameters) */
	struct eng_dv *dv;	       /* data validation state; NULL: off */
	uint64_t nr_io_errors;	       /* I/O errors of the runs so far */
	struct eng_dedup *dedup;       /* dedupunit=; NULL: off */
	char *pattern;		       /* pattern=: the file's data as written (pattern.c) */
	size_t pattern_len;
	uint32_t nr_cpus;
	struct eng_clu *clu;	       /* many hosts (cluster.h); NULL: one host */
	bool is_model;		       /* --engine model: no lun opened, virtual time */
	struct eng_model model;	       /* is_model: every SD's drive */
	struct eng_clock clock;	       /* real, or virtual for modelled drives */
	struct eng_sleeper controller; /* the controller thread's part in it */
};

/* support.c */
/* is_cluster: an MPI job of several ranks, where hd= hosts run (else they are refused). */
int eng_check_supported(const struct plan *plan, bool is_cluster, struct parm_err *err);
void eng_note_no_effect(const struct plan *plan, bool is_cluster, struct rep_set *reps);
/* abort_failed_skew=N: after a run (not a replay), a workload's observed share of the run's
 * I/O off its requested skew by more than N percent ends the execution, as VDbench does; 0,
 * or -1 with err set. */
int eng_check_skew_abort(const struct plan *plan, const struct rep_run *rr,
			 const struct rep_sample *avg, struct parm_err *err);

/* sd_open.c */
int eng_targets_open(struct eng_exec *x, struct parm_err *err);
/* After a completed format pass: each file it wrote from new or short gets its size=. */
int eng_targets_formatted(struct eng_exec *x, struct parm_err *err);
void eng_targets_close(struct eng_exec *x);
int eng_check_alignment(const struct eng_exec *x, const struct eng_run *r, struct parm_err *err);

/* run_check.c: every run built against the opened targets, each generator's sizes checked; a
 * located error for the first that cannot run. */
int eng_check_runs(const struct eng_exec *x, struct parm_err *err);

/* format.c: the hidden SD_format run; sets *r up, or returns 1 when nothing needs it. */
int eng_format_build(struct eng_exec *x, struct eng_run *r);

/* sd_engine.c */
/* Sets each SD's engine: x->engine, else the default's pick for its kind and op mix. */
void eng_run_engines(const struct eng_exec *x, struct eng_run *r);
/* Places the SDs marked in placed[] on workers, round-robin within each backend (a worker
 * drives one backend), with nr_workers shared by count of SDs, at least one per backend;
 * the others get UINT32_MAX. Returns how many workers that makes. */
uint32_t eng_place_sds(struct eng_run *r, const bool *placed, uint32_t nr_workers);
/* The backend of the SDs worker drives. */
const char *eng_worker_engine(const struct eng_run *r, uint32_t worker);
/* The default engine's picks for r, one event per kind of SD, when they differ from the last
 * run's (the logfile's engine lines). */
void eng_note_engines(struct eng_exec *x, const struct eng_run *r);

/* run_exec.c: executes one built run with its observers. Returns an eng_status. */
int eng_run_execute(struct eng_exec *x, struct eng_run *r, size_t run_idx, struct parm_err *err);

/* pattern.c: pattern=FILE read as VDbench writes it (NULL and 0 without pattern=). Returns 0, or
 * -errno with err located at pattern=. */
int eng_pattern_load(const struct parm_config *cfg, char **out, size_t *out_len,
		     struct parm_err *err);

#endif /* IORAMP_ENGINE_EXEC_H */
