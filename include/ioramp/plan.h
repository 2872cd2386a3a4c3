/* The plan: a parsed config expanded into the ordered list of runs VDbench would execute
 * (reference §9.1, §9.9): for-loops nested in the order written with the iorate list innermost,
 * curves as a max run plus one run per point, relative rates. Pure functions; also prints the
 * -s listing. */
#ifndef IORAMP_PLAN_H
#define IORAMP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/parm.h"

enum plan_rate {
	PLAN_RATE_FIXED,       /* rate_iops */
	PLAN_RATE_MAX,	       /* as fast as threads allow */
	PLAN_RATE_CURVE_MAX,   /* the max run that starts a curve */
	PLAN_RATE_CURVE_POINT, /* pct of the curve's max run (base_run) */
	PLAN_RATE_REL,	       /* pct of the previous run's observed rate (base_run) */
	PLAN_RATE_VARIABLE,    /* distribution=variable: (rate,seconds) pairs */
};

/* Values a for-loop sets for one run; has_* says which loops the RD has. */
struct plan_overrides {
	bool has_xfersize;
	bool has_threads;
	bool has_rdpct;
	bool has_rhpct;
	bool has_whpct;
	bool has_seekpct;
	bool has_hitarea;
	bool has_compratio;
	uint64_t xfersize_bytes;
	uint32_t threads;
	bool is_threads_raised; /* the forthreads= value was below 1 (VDbench's notice) */
	double rdpct;
	double rhpct;
	double whpct;
	double seekpct; /* -1: eof */
	uint64_t hitarea_bytes;
	double compratio;
};

/* One SD of a run as the plan resolves it, for every reader (plan_run_resolve()). */
struct plan_run_sd {
	size_t sd_idx;		 /* config SD */
	uint32_t threads;	 /* in effect: the RD's forthreads= value, else the SD's threads= */
	uint64_t max_xfer_bytes; /* the largest transfer any workload of the run issues on it */
};

struct plan_run {
	size_t rd_idx;
	char *name; /* "rd1", or "rd1_(50%)" for a curve point */
	enum plan_rate rate;
	bool is_controlled; /* skew, priority or a workload iorate: "Controlled MAX" */
	double rate_iops;   /* FIXED; for CURVE_POINT and REL: the target once known */
	double pct;	    /* CURVE_POINT, REL */
	int base_run;	    /* CURVE_POINT, REL: index of the run whose observed rate is used */
	double stopcurve_ms;
	uint64_t elapsed_s;
	uint64_t interval_s;
	uint64_t warmup_s;
	int64_t below_zero_warmup_s; /* warmup= below 0: -s adds it to the total, as VDbench;
				      * warmup_s is 0 and a real run refuses it */
	uint64_t pause_s;
	struct plan_overrides ovr;
	char *for_loops;	    /* "threads=2 xfersize=4k" or "None", as VDbench prints it */
	const struct parm_wd **wds; /* the run's workloads (RD wd= list, or its own WD) */
	size_t nr_wds;
	size_t *sd_idx; /* RD sd= (a list, or this run's SD of sd=single, range, setsofN): the SDs
			 * every workload runs on, owned by the plan; NULL: the WDs' own */
	size_t nr_sd;
	double *skews; /* per workload: the share of the RD rate requested (0 for WD iorate) */
	/* The run's SDs in order of first use by its workloads (the engine's run SD order). */
	struct plan_run_sd *sds;
	size_t nr_sds;
};

struct plan {
	struct plan_run *runs;
	size_t nr_runs;
	const struct parm_config *cfg;
	/* A run VDbench refuses only when -s lists it (a missing or zero iorate=): -s prints the
	 * runs up to and including runs[late_idx], then the error; a real run refuses at once. */
	bool has_late_err;
	size_t late_idx;
	struct parm_err late_err;
	/* A value -s lists and a real run refuses (a warmup= below 0): plan_check_runnable() */
	bool has_run_err;
	struct parm_err run_err;
	/* -jr or -jro: -s lists VDbench's journal_recovery run first (journal=recover in the
	 * file does too, plan_print_simulation() sees it there) */
	bool is_journal_recovery;
};

/* Expands cfg into runs. Returns 0 or -EINVAL with *err pointing at the offending text (the
 * checks VDbench makes before -s lists anything: times, workloads, skew). The plan points into
 * cfg, which must outlive it. */
int plan_build(const struct parm_config *cfg, struct plan **out, struct parm_err *err);
void plan_free(struct plan *p);

/* The config SDs workload w of r runs on: the RD's sd= or the WD's own. */
void plan_run_wd_sds(const struct plan_run *r, size_t w, const size_t **idx, size_t *nr);
bool plan_run_wd_uses_sd(const struct plan_run *r, size_t w, size_t sd);

/* The index in r->sds of config SD sd, or -ENOENT when the run does not use it. */
int plan_run_sd_pos(const struct plan_run *r, size_t sd);

/* Workload w's share of a run rate of run_iops: its own iorate=, else the rest after the
 * workloads with one, by skew (reference §9.2). */
double plan_run_wd_iops(const struct plan_run *r, size_t w, double run_iops);

/* Fills r->sds (plan_build() does it for every run). Returns 0 or -ENOMEM. */
int plan_run_resolve(const struct parm_config *cfg, struct plan_run *r);

/* What a real run needs beyond what -s checks: the late error, transfer sizes that are
 * multiples of 512, percentages from 0 to 100, no negative loop values (VDbench 5.04.07 -s
 * accepts these; tests/parm/README.md lists them). Returns 0 or -EINVAL with *err. */
int plan_check_runnable(const struct plan *p, struct parm_err *err);

/* A compression loop (forcompratio=, forcompression= or their short forms on an RD) with data
 * validation on (is_dv: -v, -j..., validate=, journal= or dedup): VDbench 5.04.07 refuses it
 * before it lists a run ("The 'forcompratio=' parameter may not be used during Data
 * Validation"), and so do -s and a run. Returns 0 or -EINVAL with *err at the loop. */
int plan_check_dv(const struct plan *p, bool is_dv, struct parm_err *err);

/* A curve point's target from the observed max rate (reference §9.9): floor(max * pct / 100)
 * rounded up to a multiple of 100 above 1000, else of 10. */
double plan_curve_target(double observed_iops, double pct);

/* How many times the runs go (loop= of the general parameters, or -l, which wins): N times,
 * or until *for_ns has passed since the first began (N with s, m or h; then UINT64_MAX),
 * forever (-l alone: UINT64_MAX, *for_ns 0); 1 without either. */
uint64_t plan_loop_count(const struct parm_config *cfg, uint64_t *for_ns);

/* VDbench's "I/O rate: ..." text for a run before it starts; observed is the base run's rate
 * where the run has one (the -s listing assumes 10000 for a curve's max). */
void plan_rate_text(const struct plan_run *run, double base_iops, char *buf, size_t len);

/* A for-loop value as "For loops:" prints it (FINDINGS §1.2): below 1024 truncated, else in
 * k/m/g/t/p with three decimals rounded half-up (".000" dropped); negative as "N%". */
void plan_loop_value_text(double v, char *buf, size_t len);

/* The -s listing: one "Simulating RD=..." line per run, each after the time of day, then the
 * total. Returns 0, or -EINVAL with *err after the line of the run VDbench refuses there
 * (plan.has_late_err); the total is then not printed. */
int plan_print_simulation(const struct plan *p, FILE *f, struct parm_err *err);

/* The informational lines VDbench 5.04.07 prints before it lists or runs anything: interval=0
 * set to min(elapsed/2,60), the JVM count it would adjust (with its reason), thread counts
 * raised to 1. Each line (empty ones too) to emit, in order; nothing when none applies. */
void plan_notices(const struct plan *p, void (*emit)(void *ctx, const char *text), void *ctx);
/* The same lines to f, each after the time of day, as -s prints them. */
void plan_print_notices(const struct plan *p, FILE *f);

/* How many slave JVMs VDbench 5.04.07 runs raw workloads in on one host (observed): jvms= of
 * the one hd= or of hd=default, else the count plan_notices() adjusts to (one per SD, at most
 * 8), else 1. Always 1 in file-system mode and on many hosts. */
uint32_t plan_nr_jvms(const struct plan *p);

/* VDbench 5.04.07 deals a run's I/O threads to its slaves round robin (observed on jvms=2, 3
 * and 8 with threads=1 to 5): the run's SDs in configuration order, each SD's threads numbered
 * on from the previous SD's, thread g on slave g % nr_jvms. The slave of thread idx of an SD
 * whose first thread has number first: */
static inline uint32_t plan_jvm_of_thread(uint64_t first, uint64_t idx, uint32_t nr_jvms)
{
	return nr_jvms > 1 ? (uint32_t)((first + idx) % nr_jvms) : 0;
}

/* How many of the threads numbered [first, first + threads) fall on slave jvm. */
uint32_t plan_jvm_threads(uint64_t first, uint32_t threads, uint32_t nr_jvms, uint32_t jvm);

/* "HH:MM:SS.mmm" of the wall clock, as VDbench prefixes console lines. */
void plan_time_of_day(char buf[16]);
/* -s's last line: how many runs and their total elapsed time, as VDbench ends its listing. */
void plan_print_total(FILE *f, size_t nr_runs, uint64_t total_s);

#endif /* IORAMP_PLAN_H */
