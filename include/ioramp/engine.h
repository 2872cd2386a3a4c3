/* The engine: executes a plan's runs against block devices and files (reference §8-9). Worker
 * threads own whole SDs, pace open-loop arrivals per workload generator on absolute time, submit
 * through a backend (io_uring, libaio, a blocking thread pool, or none) and count into per-worker
 * banks that the controller merges at interval ends and hands to the report observers. */
#ifndef IORAMP_ENGINE_H
#define IORAMP_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ioramp/dv.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/report.h"

struct clu_comm;
struct clu_map;

/* Many hosts (an MPI job of two or more ranks, reference §3): every rank executes the same plan
 * with its share of the threads and rates; rank 0 gathers every interval and notifies the
 * observers, the other ranks notify none. */
struct eng_cluster {
	struct clu_comm *comm;
	const struct clu_map *map;
	uint32_t rank;
	/* How long rank 0 waits past an interval's end for a rank's statistics (and a rank for
	 * rank 0's answers) before it counts that rank as lost. */
	uint64_t host_timeout_ns;
};

struct eng_opts {
	/* "uring", "aio", "sync", "null", "model[:PRESET][,OPTION=VALUE...]" or
	 * "fault:BACKEND[,...]"; NULL: general engine= or uring */
	const char *engine;
	uint64_t seed;		 /* every generator's stream derives from it */
	uint32_t nr_workers;	 /* 0: one per CPU, never more than SDs */
	bool is_force;		 /* allow writes to devices that carry a signature */
	const char *record_path; /* --record: fio iolog v3 of every I/O issued; NULL: none */
	const char *trace_map;	 /* --map DEV=SD,...: trace devices to SDs; NULL: in order */
	/* Runs an RD's startcmd= (is_end false) or endcmd= value before/after each of its runs;
	 * NULL: none. */
	void (*command)(void *ctx, const struct parm_val *cmd, bool is_end);
	void *command_ctx;
	struct dv_opts dv; /* -v, -vr, -vw, -j, -jr, -jro, ...: merged with validate=, journal= */
	/* Set by the caller's signal handler (SIGINT, SIGTERM); polled by the controller. */
	const volatile sig_atomic_t *stop_signal;
	const struct eng_cluster *cluster; /* NULL: one host */
	/* Test hook: run a real engine in virtual time, where its I/O takes no time (sync with one
	 * worker per thread: exact counts without the wall clock). Modelled drives always do. */
	bool is_virtual_time;
	/* A paced worker with nothing in flight sleeps at least this long (arrivals due meanwhile
	 * are issued together, late by less than it): one timer wake-up per batch, not per I/O.
	 * Only a sparsely paced worker batches (ENG_WAKE_BATCH_MAX_ARRIVALS); a faster one issues
	 * every arrival on time.
	 * 0: ENG_WAKE_BATCH_NS on a real clock, none in virtual time (modelled drives stay exact);
	 * UINT64_MAX: none (one wake-up per arrival). */
	uint64_t wake_batch_ns;
};

/* The default of eng_opts.wake_batch_ns on a real clock: at most 500 timer wake-ups a second
 * per worker (bench/speed: CPU at 4000 IOPS). */
#define ENG_WAKE_BATCH_NS 2000000ull
/* A worker batches its wake-ups only while its paced arrivals average at most this many per
 * batch (2000 a second for 2 ms): there a wake-up is a real share of each I/O's cost, and a
 * burst is a few I/Os. Faster workers wake per arrival and issue it on time, so the response
 * times of high rates carry no batch's lateness. */
#define ENG_WAKE_BATCH_MAX_ARRIVALS 4.0
/* Paced SDs on cached files share a serial worker (one I/O at a time, inline) while
 * their rates sum to at most this many arrivals per batch (4000 a second for 2 ms): one
 * wake-up per batch for all of them, each I/O late by less than the batch (the mean lateness
 * is half a batch whatever the count), a burst of a few microseconds' I/Os. */
#define ENG_SERIAL_MAX_ARRIVALS 8.0

/* Why an execution ended. */
enum eng_status {
	ENG_OK = 0,
	ENG_FAILED = 1,	     /* I/O errors, a lost device, a broken backend */
	ENG_BAD_PARMS = 2,   /* a target or parameter rejected before any I/O (err filled) */
	ENG_INTERRUPTED = 3, /* stop_signal: the current run ended early, reports are valid */
};

struct eng_exec;

/* Prepares an execution: checks what is supported, opens every target and decides whether the
 * SD_format pass is needed, all before any I/O. Returns an eng_status; on ENG_BAD_PARMS *err
 * has the place in the parameter text. *out is set in every case; free it with
 * eng_exec_free(). Main thread only. */
int eng_exec_new(const struct plan *plan, const struct eng_opts *o, struct eng_exec **out,
		 struct parm_err *err);

/* How many runs with a target (curve points, iorate=) missed it by more than 2% so far: a
 * nonzero count makes --strict exit 1. */
uint32_t eng_exec_nr_missed(const struct eng_exec *x);

/* Whether the SD_format pass will run first (for the reports' run list). */
bool eng_exec_has_format(const struct eng_exec *x);

/* The lines VDbench prints before its format pass: each file shorter than size= and each file
 * missing or short, one line each to emit (empty ones too); nothing when none is. */
void eng_exec_format_notices(const struct eng_exec *x, void (*emit)(void *ctx, const char *text),
			     void *ctx);

/* Modelled drives (engine model): fills *m, whose strings point into x, and returns true;
 * false for real drives. */
bool eng_exec_model(const struct eng_exec *x, struct rep_model *m);

/* The execution's time of day in ns since 1970, as rep_exec.tod_ns wants it (ctx: the
 * eng_exec): the wall clock, or in virtual time the wall clock at the start plus the virtual
 * time elapsed. Any thread. */
uint64_t eng_exec_tod_ns(const void *x);

/* Runs the format pass (when needed) and every run of the plan in order, notifying reps
 * (already open). Returns an eng_status; *err has the reason of a failure when it has one. */
int eng_exec_run(struct eng_exec *x, struct rep_set *reps, struct parm_err *err);

void eng_exec_free(struct eng_exec *x);

/* Many hosts: whether some rank was lost (it stopped answering, or the launcher is ending the
 * job), so that the caller ends the job (clu_comm_close with is_abort) instead of waiting for
 * every rank to finish. */
bool eng_exec_has_lost_rank(const struct eng_exec *x);

/* eng_exec_new(), eng_exec_run() and eng_exec_free() in one call. */
int eng_execute(const struct plan *plan, const struct eng_opts *o, struct rep_set *reps,
		struct parm_err *err);

/* What a target is, for a confirmation before writing to it (ioramp suite). */
struct eng_target_info {
	bool is_block;	     /* a block device (else a regular file or character device) */
	uint64_t size_bytes; /* device or file size */
	bool has_signature;  /* a file system, RAID, LVM, swap or partition-table signature */
	char signature[64];  /* "ext4", "gpt partition table" */
	bool is_held;	     /* mounted or held exclusively: the engine will refuse writes */
	char holder[256];    /* "mounted on /mnt" */
	char model[64];	     /* a block device's model from sysfs ("" when unknown) */
};

/* Opens path read-only and describes it. Returns 0, or -errno with err filled ("lun=PATH:
 * cannot open: Permission denied"); -ENOENT when it does not exist. Main thread only. */
int eng_target_describe(const char *path, struct eng_target_info *info, char *err, size_t errlen);

/* Whether engine names modelled drives ("model" or "model:..."): no lun is opened, size= gives
 * each drive's capacity. */
bool eng_engine_is_model(const char *engine);

/* Monotonic time in ns (CLOCK_MONOTONIC, vDSO). */
uint64_t eng_now_ns(void);

#endif /* IORAMP_ENGINE_H */
