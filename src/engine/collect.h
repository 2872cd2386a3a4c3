/* Private to src/engine: the controller's state while one run executes. */
#ifndef IORAMP_ENGINE_COLLECT_H
#define IORAMP_ENGINE_COLLECT_H

#include "engine_int.h"
#include "stall.h"

struct eng_clu;

struct eng_collect {
	const struct plan *plan;
	const struct eng_run *run;
	const struct eng_opts *opts;
	struct rep_set *reps;
	const struct rep_run *rr;
	struct eng_worker *workers;
	uint32_t nr_workers;
	struct eng_sleeper *sleeper;   /* the controller's part in the run's clock */
	uint64_t max_errors;	       /* data_errors= */
	struct eng_recorder *recorder; /* --record, or NULL */
	/* merged banks: [0] total, [1..nr_sds] per SD, then per WD; on many hosts (rank 0) then
	 * per host and per slave (rank), as rep_run lists them */
	struct stats_bank *cur;
	struct stats_bank *avg;
	size_t nr_banks;
	uint64_t avg_elapsed_ns;
	uint32_t nr_excluded; /* intervals left out of the average (warmup, or interval 1) */
	uint32_t first_avg;
	uint32_t last_avg;
	/* an averaged interval in which some SD's outstanding I/O was at its threads= (the
	 * device rule, eng_limit_rule): a backlog that filled them before the run ended */
	bool was_depth_full;
	double *depth_qd; /* per run SD: scratch for the device rule */
	uint32_t *depth_thr;
	uint64_t bytes_after_warmup;
	bool has_cpu;
	struct stats_cpu_sample cpu_prev;
	/* ioramp's own CPU (real time only): the process's and each worker thread's CPU time and
	 * the clock at the last interval end, and their sums over the averaged intervals */
	bool has_self_cpu;
	uint64_t self_prev_ns;
	uint64_t wall_prev_ns;
	uint64_t self_avg_ns;
	uint64_t wall_avg_ns;
	uint64_t *thr_prev_ns;
	uint64_t *thr_avg_ns;
	uint32_t nr_cpus_usable; /* CPUs this process may run on */
	struct stats_cpu_pct cpu_sum;
	uint32_t nr_cpu;
	bool is_eof;
	int observer_error;
	struct eng_stall stall; /* timeout= */
	long stalled_sd;	/* the run SD that stalled past timeout='s abort time, or -1 */
	/* Many hosts: the exchange (NULL: one host), and on rank 0 the per-slave CPU figures of
	 * the current interval and their sums over the averaged ones. */
	struct eng_clu *clu;
	size_t nr_hosts;
	size_t nr_slaves;
	struct stats_cpu_pct *slave_cpu;
	struct stats_cpu_pct *slave_cpu_sum;
	uint32_t *slave_nr_cpu;
};

/* Pieces of the interval loop that the many-hosts loop (cluster_collect.c) shares. */
bool eng_collect_is_signalled(const struct eng_collect *c);
/* Whether every worker has published interval k or finished. */
bool eng_collect_all_published(const struct eng_collect *c, uint32_t k);
/* Waits until every worker has published interval k or finished. False on a signal. */
bool eng_collect_wait_published(struct eng_collect *c, uint32_t k);
/* When the last worker stopped (every range done), or 0 while one still runs. */
uint64_t eng_collect_final_ns(const struct eng_collect *c);
/* Zeroes the current banks and adds every worker's interval k into them. */
void eng_collect_merge(struct eng_collect *c, uint32_t k);
/* Reports the current banks as interval k of elapsed_ns and adds them to the average. */
int eng_collect_report(struct eng_collect *c, uint32_t k, uint64_t elapsed_ns);
/* maxdata= reached by the bytes after warmup. */
bool eng_collect_is_maxdata(const struct eng_collect *c);
/* I/O errors of this rank's workers so far. */
uint64_t eng_collect_nr_errors(const struct eng_collect *c);

/* cluster_collect.c: the interval loop on many hosts. Returns ENG_OK, ENG_INTERRUPTED or
 * ENG_FAILED. */
int eng_clu_collect(struct eng_collect *c);

/* Allocates the merged banks and takes the first CPU sample. Returns 0 or -ENOMEM. */
int eng_collect_init(struct eng_collect *c);
/* Reports every interval until the run ends. Returns ENG_OK, ENG_INTERRUPTED or ENG_FAILED. */
int eng_collect_intervals(struct eng_collect *c);
/* The target rule (man ioramp(1) POINT VALIDITY, unit-tested): the I/Os the schedule asked
 * for that completed in the averaged intervals are within 2% of the arrivals it generated
 * there, over or under (none generated: missed). */
bool eng_target_rule(double nr_requested, double nr_scheduled);

/* Whether the run met its target and what held it back (man ioramp(1) POINT VALIDITY):
 * device when an SD's mean outstanding I/O over the averaged intervals stayed at 95% of its
 * threads= or more (a serial worker's SDs together against its one slot: eng_limit_depths);
 * else generator when, in real time, a worker thread was busy 90% of the averaged time or more,
 * or the process used 90% of the CPUs it may run on; else none. */
void eng_collect_verdict(const struct eng_collect *c, const struct rep_sample *avg,
			 struct rep_run_end *end);

/* The rule of eng_collect_verdict() on its figures (unit-tested): per SD its mean outstanding
 * I/O and threads=; busiest_pct the busiest worker thread's CPU and self_pct the process's, in
 * % of one core (NaN: unknown); nr_cpus the CPUs it may use. */
enum rep_limit eng_limit_rule(const double *sd_qdepth, const uint32_t *sd_threads, size_t nr_sds,
			      double busiest_pct, double self_pct, uint32_t nr_cpus);

/* The run average over the reported non-warmup intervals. */
void eng_collect_average(struct eng_collect *c, struct rep_sample *s);
void eng_collect_fini(struct eng_collect *c);

/* The failed I/Os the workers counted so far (validation errors apart). Any thread. */
uint64_t eng_collect_nr_io_errors(const struct eng_worker *w, uint32_t nr_workers);

/* Whether an I/O failed with ENXIO or ENODEV (a device that vanished). Any thread. */
bool eng_collect_is_device_lost(const struct eng_worker *w, uint32_t nr_workers);

/* Hands the failed I/Os the workers kept since the last call to the observers (errorlog.html,
 * console, results.json), with the time of day each completed. Controller only. */
void eng_collect_io_errors(struct rep_set *reps, const struct plan *plan, const struct eng_run *r,
			   struct eng_worker *w, uint32_t nr_workers);

#endif /* IORAMP_ENGINE_COLLECT_H */
