/* Private to src/engine: a run as the engine executes it (SDs, workload generators, rates) and
 * the worker that drives a share of its SDs. The controller builds an eng_run, starts the
 * workers, collects their published banks at interval ends and stops them. */
#ifndef IORAMP_ENGINE_INT_H
#define IORAMP_ENGINE_INT_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>

#include "backend.h"
#include "clock.h"
#include "concat.h"
#include "dedup.h"
#include "ioramp/engine.h"
#include "ioramp/gen.h"
#include "ioramp/stats.h"
#include "record.h"
#include "replay.h"
#include "target.h"
#include "validate.h"

enum {
	ENG_SDQ_LIMIT = 2000, /* pending I/Os an SD holds before generation waits (VDbench's) */
	ENG_MAX_PRIO = 8,     /* distinct priority= levels on one SD */
	ENG_ERR_RING = 64,    /* I/O errors a worker keeps for the controller to print */
};

enum eng_mode {
	ENG_MODE_MAX,  /* keep every SD's threads busy; pick generators by weight */
	ENG_MODE_RATE, /* open-loop arrivals per generator on absolute time */
};

/* One workload generator: one WD on one SD. */
struct eng_wg_desc {
	uint32_t run_sd; /* index into eng_run.sds */
	uint32_t run_wd; /* index into eng_run.wd_names */
	struct gen_wg_cfg gen;
	double rate_iops; /* ENG_MODE_RATE: this generator's share of the run's rate */
	double weight;	  /* ENG_MODE_MAX: share among the generators of its SD */
	uint32_t prio;	  /* 0 = served first */
	/* concatenatesds=yes: the WD's generator on the concatenation's first member draws for
	 * all; the next wgs of its WD (one per further member) only count that member's I/Os */
	bool is_concat_member;
	/* VDbench's slaves at a fixed rate: the one slave a sequential WD runs on (its I/Os
	 * count there); -1: the SD's slaves in turn (jvm.c) */
	int16_t jvm;
	/* streams=: this generator's stream of its WD's nr_streams on its SD (1: none). A worker
	 * per thread (the sync engine) runs only its own stream, thread k stream k mod N, as
	 * VDbench deals its threads; a worker of the whole SD runs them all. */
	uint32_t stream;
	uint32_t nr_streams;
};

/* One SD of a run. */
struct eng_sd_desc {
	size_t cfg_idx;
	struct eng_target *target;
	const char
		*engine; /* its backend: --engine/engine=, else the default's pick (run_exec.c) */
	const char *engine_kind; /* the default's: what it saw ("O_DIRECT"); NULL when given */
	uint32_t threads;
	uint64_t size_bytes; /* used: size= or the target's, rounded down to max_xfer */
	uint64_t max_xfer_bytes;
	uint32_t worker;       /* the first worker driving it */
	uint32_t nr_parts;     /* workers worker.. worker + nr_parts - 1 each drive a part of its
			       * threads= (the sync engine: one per thread); 0 or 1: one worker */
	bool is_serial;	       /* sync, sparse and cached: one I/O at a time on a worker shared
			       * with other such SDs, inline (run_exec.c) */
	struct eng_dv_sd *dv;  /* data validation of this SD; NULL: off */
	uint64_t first_thread; /* VDbench's number of its first thread (plan_jvm_of_thread) */
	bool is_written;       /* some generator of it writes (rdpct < 100) */
	bool is_write_gated;   /* its sync threads write one at a time: eng_run.write_gates */
};

struct eng_run {
	const struct plan_run *prun; /* NULL for SD_format */
	enum eng_mode mode;
	enum gen_dist dist;
	struct eng_sd_desc *sds;
	size_t nr_sds;
	/* per SD, the gate of its sync threads' buffered writes (backend_sync.c sync_do), set up
	 * by run_exec.c for the SDs it gates; NULL when none is */
	pthread_mutex_t *write_gates;
	const char **wd_names;
	double *wd_skew_pct;
	size_t nr_wds;
	struct eng_wg_desc *wgs;
	size_t nr_wgs;
	/* one per generator when SDs are split per thread: its parts' one sequential position */
	struct gen_seq_cursor *seq_cursors;
	struct gen_rate_step *wg_steps; /* distribution=variable: nr_steps per generator */
	size_t nr_steps;		/* 0: no variable rate */
	bool is_spike;			/* distribution=spike */
	double target_iops;		/* 0 for max; variable: the pairs' mean */
	uint64_t seed;
	uint64_t stream_base;	 /* distinct per run so runs differ but repeat with the seed */
	struct eng_clock *clock; /* the execution's: real or virtual time */
	uint64_t start_ns;	 /* eng_clock_now() time, a whole second */
	uint64_t interval_ns;
	uint64_t wake_batch_ns; /* eng_opts.wake_batch_ns resolved: 0 for none */
	uint32_t nr_intervals;	/* UINT32_MAX: until every generator reaches its end (format) */
	uint32_t nr_warmup;
	uint32_t nr_prio; /* priority levels in use (queues per SD) */
	uint32_t nr_workers;
	bool has_eof;	     /* some generator stops at the end of its range */
	bool is_recording;   /* --record: workers push every submitted I/O */
	bool is_replay;	     /* the I/Os come from a trace through the feeder */
	bool is_replay_loop; /* replay in a curve: the trace starts over until the run ends */
	double compratio;    /* write data compresses about this much (1: not at all) */
	const struct eng_trace_info *trace;
	double replay_speed;	  /* trace time / speed; 0: as fast as the threads allow */
	struct eng_dv *dv;	  /* data validation; NULL: off (and for SD_format) */
	struct eng_concat concat; /* concatenatesds=yes: its members; nr 0: none */
	const char *pattern;	  /* pattern=: every write's data; NULL: the stamp */
	size_t pattern_len;
	const struct eng_dedup *dedup; /* dedupunit=: the blocks' layout; NULL: off */
	uint64_t *dedup_pattern;       /* the duplicates' data of this run */
	/* VDbench's slave JVMs whose share of the I/O the workers count apart (plan_nr_jvms);
	 * 1: none counted */
	uint32_t nr_jvms;
	/* report=slave_detail with nr_jvms > 1: each slave's I/O also per SD, and its service
	 * times' histogram (localhost-N.<sd>.html, localhost-N.histogram.html) */
	bool is_jvm_detail;
};

/* A pending I/O: drawn, waiting in its SD's queue for a free thread. */
struct eng_pending {
	uint64_t arrival_ns;
	uint64_t offset_bytes;
	uint32_t size_bytes;
	uint16_t wg;
	uint8_t is_write;
};

/* A bounded FIFO of pending I/Os. */
struct eng_ring {
	struct eng_pending *v;
	uint32_t cap;
	uint32_t head;
	uint32_t nr;
};

static inline bool eng_ring_push(struct eng_ring *r, const struct eng_pending *p)
{
	uint32_t tail = r->head + r->nr;

	if (r->nr == r->cap)
		return false;
	r->v[tail >= r->cap ? tail - r->cap : tail] = *p;
	r->nr++;
	return true;
}

static inline bool eng_ring_pop(struct eng_ring *r, struct eng_pending *p)
{
	if (!r->nr)
		return false;
	*p = r->v[r->head];
	r->head = r->head + 1 == r->cap ? 0 : r->head + 1;
	r->nr--;
	return true;
}

struct eng_slot {
	struct eng_io io;
	uint64_t arrival_ns;
	uint64_t submit_ns;
	uint32_t wg;
	uint32_t local_sd;
	enum eng_dv_phase dv_phase;
	uint8_t jvm; /* the slave of the thread it runs on (eng_run.nr_jvms > 1) */
};

/* Worker-local state of one SD. */
struct eng_wsd {
	uint32_t run_sd;
	uint32_t cfg_sd;
	uint32_t part;	   /* which of the SD's nr_parts this worker drives (0: the only one) */
	uint32_t nr_parts; /* the SD's, at least 1 */
	uint32_t threads;  /* this worker's part of the SD's threads= */
	uint32_t inflight;
	uint32_t nr_pending;
	struct eng_ring q[ENG_MAX_PRIO];
	uint32_t *wgs; /* local generator indexes on this SD */
	uint32_t nr_wgs;
	double *cum_weight; /* ENG_MODE_MAX: cumulative weights of wgs */
	uint32_t replay_wg; /* replay: the local generator that counts this SD's I/Os */
	struct gen_pcg pick;
	struct eng_dv_sd *dv; /* data validation; NULL: off */
	/* The next I/O, held back by the payload stage (validation: a key block it covers is
	 * busy) until a completion on this SD; it goes before anything queued. */
	struct eng_pending held;
	bool has_held;
};

/* VDbench's slaves (eng_run.nr_jvms > 1): the slaves of an SD's idle threads on a worker, a
 * FIFO from head to tail (an idle thread of each slave in turn takes the next I/O). cap: the
 * worker's part of the SD's threads (a serial SD's all); every take is given back once, so
 * it never holds more. At a fixed rate (eng_worker.is_jvm_even): each slave that has threads
 * of the SD once, taken in turn and never given back. */
struct eng_jvm_ring {
	uint8_t *free;
	uint32_t head;
	uint32_t tail;
	uint32_t cap;
};

/* Worker-local state of one generator. */
struct eng_wwg {
	uint32_t run_wg;
	uint32_t local_sd;
	struct gen_wg gen;
	struct gen_arrival arr;
	uint64_t next_ns; /* next scheduled arrival (is_paced) */
	bool is_paced;	  /* has an arrival schedule; else drawn when a thread frees (max) */
	bool is_eof;
	int16_t jvm; /* eng_wg_desc.jvm */
};

struct eng_io_error {
	uint32_t run_sd;
	enum eng_op op;
	uint64_t offset_bytes;
	uint32_t size_bytes;
	int32_t result;	  /* -errno, or the short count */
	uint64_t done_ns; /* eng_clock_now() when it completed */
};

struct eng_worker;

/*
 * The worker loop's two seams (DESIGN.md "Engine"). The loop itself knows no feature: where
 * I/Os come from is an arrival source, what happens to their data and phases is a payload
 * stage, each chosen once per run (worker.c). Both run on the worker thread only, on the hot
 * path: no allocation, lock or stdio.
 */

/* Where a worker's I/Os come from: the workload generators at a rate or at max (arrivals.c),
 * or the trace feeder's rings (replay_arrivals.c). */
struct eng_arrivals {
	/* Every arrival due by now_ns joins its SD's queue, stamped with its scheduled time. */
	void (*release)(struct eng_worker *w, uint64_t now_ns);
	/* A free thread of d takes a fresh I/O at once (max mode): fills *p; false when none. */
	bool (*draw)(struct eng_worker *w, struct eng_wsd *d, uint64_t now_ns,
		     struct eng_pending *p);
	/* The earliest time before dl_ns at which release() has something to do, else dl_ns. */
	uint64_t (*next_due)(const struct eng_worker *w, uint64_t now_ns, uint64_t dl_ns);
	/* The oldest arrival not yet released when older than oldest_ns, else oldest_ns (no I/O
	 * recorded later can be older: the recorder's clock). */
	uint64_t (*oldest)(const struct eng_worker *w, uint64_t oldest_ns);
};

extern const struct eng_arrivals eng_arrivals_rate;  /* every generator paced */
extern const struct eng_arrivals eng_arrivals_max;   /* drawn on a free thread (+ paced) */
extern const struct eng_arrivals eng_arrivals_drawn; /* max with no generator paced */
extern const struct eng_arrivals eng_arrivals_trace; /* the feeder's records, when due */

/* The draw of a source whose I/Os are all queued by release(): none. */
bool eng_arrivals_no_draw(struct eng_worker *w, struct eng_wsd *d, uint64_t now_ns,
			  struct eng_pending *p);

/* What happens to an I/O's data and phases: the pattern stamp and compressible data
 * (payload.c), dedup's blocks (payload.c), data validation's claims, keys, journal and checks
 * (validate.c), and recording around one of them (payload.c). */
struct eng_payload {
	/* slot (op, offset, size, SD and buffer set from p) may start: its write data filled,
	 * its first phase set. False: it waits, p held in d (eng_wsd.held) until a completion on
	 * d; the caller frees the slot. */
	bool (*start)(struct eng_worker *w, struct eng_wsd *d, struct eng_slot *slot,
		      const struct eng_pending *p);
	/* slot completed: true when it goes on with another phase (requeue() submits it). */
	bool (*complete)(struct eng_worker *w, struct eng_slot *slot);
	/* The slots whose next phase waits, into w->batch from index 0, timed from now_ns; how
	 * many. */
	uint32_t (*requeue)(struct eng_worker *w, uint64_t now_ns);
	/* Once a pass, after the batch is prepared and before it is submitted (batch[from,
	 * nr_batch) are new I/Os): the journal's BEFORE records made durable, the recorder's
	 * clock. Returns 0, or -errno to end the run. */
	int (*pass)(struct eng_worker *w, uint32_t from, uint64_t now_ns);
	/* At the stop, slot was prepared but never submitted: true when the stage keeps it (its
	 * phase ends in stop()), false to free it. */
	bool (*drop)(struct eng_worker *w, struct eng_slot *slot);
	/* Nothing more will be submitted (before the drain): phases waiting end. */
	void (*stop)(struct eng_worker *w);
	/* After the drain: what the stage still owes (journal records). Returns 0 or -errno. */
	int (*finish)(struct eng_worker *w);
};

extern const struct eng_payload eng_payload_stamp;    /* VDbench's stamp on every write */
extern const struct eng_payload eng_payload_pattern;  /* pattern=: the file's data, no stamp */
extern const struct eng_payload eng_payload_dedup;    /* dedupunit=: sets of duplicates */
extern const struct eng_payload eng_payload_validate; /* -v, validate=, journals */
extern const struct eng_payload eng_payload_record;   /* --record around w->pay_data */

/* One worker thread. Fields above the line are written by the worker only; the controller
 * reads banks[k % 2] after published >= k (acquire) and says it is done with consumed = k. */
struct eng_worker {
	const struct eng_run *run;
	uint32_t idx;
	pthread_t thread;
	struct eng_backend *be;
	struct eng_sleeper sleeper; /* this thread's part in the run's clock */
	void *bufs;
	struct eng_slot *slots;
	uint32_t *free_slots;
	uint32_t nr_free;
	uint32_t depth;
	struct eng_io **batch;
	uint32_t nr_batch; /* prepared I/Os the backend has not taken yet */
	struct eng_io **done;
	struct eng_wsd *sds;
	uint32_t nr_sds;
	/* A bit per SD that may take an I/O (a thread freed, an arrival queued): prep() visits
	 * only those, so a pass costs what happened, not the number of SDs. */
	uint64_t *ready;
	struct eng_wwg *wgs;
	uint32_t nr_wgs;
	uint64_t next_arrival_ns;	/* paced generators: none has an arrival before this */
	uint64_t wake_batch_ns;		/* run->wake_batch_ns if its arrivals are sparse, else 0 */
	const struct eng_arrivals *src; /* where the I/Os come from */
	const struct eng_payload *pay;	/* what happens to their data */
	const struct eng_payload *pay_data; /* recording: the stage it records around */
	/* nr_wgs each: per interval parity, and [2] a scratch set the drain counts into (what
	 * completes after the last interval belongs to none, VDbench's drain) */
	struct stats_bank *banks[3];
	struct stats_bank *bank; /* the set being counted into */
	/* run->nr_jvms > 1: per slave, sets as banks[] (nr_jvms each), and per local SD its
	 * idle threads; else NULL and 0, so that one slave costs a test per pass (jvm.c) */
	struct stats_lite *lites[3]; /* [jvm * nr_sds + local SD] */
	struct stats_lite *lite;
	/* run->is_jvm_detail: per slave its service times' histogram per op, sets as lites[]
	 * ([jvm * STATS_OP_NR + op]); else NULL */
	struct stats_hist *jvm_hists[3];
	struct stats_hist *jvm_hist;
	struct eng_jvm_ring *jvm_rings;
	uint32_t nr_jvms;
	bool is_jvm_even; /* a fixed rate: each ring holds its SD's slaves, taken in turn, never
			   * given back (jvm.c) */
	uint32_t cur_interval; /* 1-based interval being counted */
	uint32_t nr_eof;
	uint64_t nr_ios_total;
	uint64_t nr_writes;			  /* stamps every write's data (payload.c) */
	struct eng_io_error errors[ENG_ERR_RING]; /* [0, nr_errors_kept) are published */
	struct eng_rec_ring *rec;		  /* --record: this worker's ring; NULL otherwise */
	struct eng_rpl_ring *rpl;   /* replay: the feeder's ring for this worker's SDs */
	uint16_t *local_of_sd;	    /* replay: run SD -> local SD */
	uint32_t *concat_local;	    /* concatenation: member -> local SD; NULL: none */
	struct eng_dv *dv;	    /* data validation; NULL: off */
	struct eng_slot **dv_again; /* slots whose next validation phase waits for submit */
	uint32_t nr_dv_again;
	int dv_fatal; /* a journal write failed: -errno */
	struct eng_dv_error dv_errors[ENG_DV_ERR_RING];
	uint32_t nr_dv_errors_kept;
	/* per interval counted into, [1, nr_intervals]; [nr_intervals + 1] the drain's. The
	 * controller reads interval k once published >= k. NULL: no validation. */
	struct eng_dv_count *dv_counts;
	int fatal;	  /* a broken backend: -errno */
	bool is_draining; /* after the last published interval (validation ends phases) */
	/* Virtual time, the generators, one phase per I/O: a pass after a submit that finds
	 * nothing new at the same time may wait at once (loop.c is_settled). */
	bool is_one_pass;

	alignas(IORAMP_CACHELINE) _Atomic uint32_t published; /* last interval finished */
	_Atomic uint64_t final_ns;	 /* when the worker stopped counting (0: still running) */
	_Atomic uint64_t nr_errors;	 /* I/O and validation errors so far (data_errors=) */
	_Atomic uint64_t nr_io_errors;	 /* of which failed I/Os */
	_Atomic uint32_t nr_errors_kept; /* errors[] entries written (release) */
	_Atomic bool is_device_lost; /* an I/O failed with ENXIO or ENODEV: the device is gone */
	_Atomic bool is_done;	     /* the thread is about to return */
	alignas(IORAMP_CACHELINE) _Atomic uint32_t consumed; /* controller: bank read */
	_Atomic bool stop;				     /* controller: end the run */
	uint32_t nr_errors_reported; /* controller: errors[] entries already reported */
};

/* SD local_sd of w may take an I/O now: prep() looks at it in the next pass. */
static inline void eng_wsd_ready(struct eng_worker *w, uint32_t local_sd)
{
	w->ready[local_sd / 64] |= UINT64_C(1) << (local_sd % 64);
}

/* jvm.c: VDbench's slaves on a worker. Allocates the rings and counters (run->nr_jvms > 1);
 * returns 0 or -ENOMEM. */
int eng_jvm_init(struct eng_worker *w);
void eng_jvm_fini(struct eng_worker *w);
/* The new I/Os batch[0, nr) each take an idle thread of their SD (slot->jvm). */
void eng_jvm_take(struct eng_worker *w, uint32_t nr);
/* done[0, nr) completed at now_ns: into their slaves' counters, their threads idle again (a
 * validation phase that goes on takes one anew when requeued). */
void eng_jvm_done(struct eng_worker *w, struct eng_io *const *done, int nr, uint64_t now_ns);
/* slot prepared but never submitted: its thread is idle again. */
void eng_jvm_drop(struct eng_worker *w, const struct eng_slot *slot);
/* Counts from now on into set (0 or 1: an interval's parity, 2: the drain's), emptied first
 * when is_new. */
void eng_jvm_switch(struct eng_worker *w, int set, bool is_new);

/* worker.c: allocates everything the loop needs (slots, buffers, generators, banks, backend);
 * returns 0 or -errno with msg filled. */
int eng_worker_init(struct eng_worker *w, const struct eng_run *run, uint32_t idx,
		    const char *engine, char *msg, size_t msglen);
/* Sets the arrival schedules and first banks from run->start_ns (known only once every worker
 * is ready). Controller, before the thread starts. Returns 0 or -EINVAL. */
int eng_worker_arm(struct eng_worker *w);
void eng_worker_fini(struct eng_worker *w);
/* Thread entry: the loop until stop, then drains. */
void *eng_worker_main(void *arg);
/* Counts an error of w toward data_errors= (any of the worker's own threads) and tells the
 * controller, which stops the run at the limit: for each of the first ENG_ERR_RING errors and
 * every ENG_ERR_RING-th after, so that an error storm does not wake it each time. */
static inline void eng_worker_count_error(struct eng_worker *w)
{
	uint64_t n = atomic_fetch_add_explicit(&w->nr_errors, 1, memory_order_relaxed) + 1;

	if (n <= ENG_ERR_RING || n % ENG_ERR_RING == 0)
		eng_clock_tell(w->run->clock);
}

struct clu_share;

/* What a run is built from. */
struct eng_run_src {
	const struct plan *plan;
	size_t run_idx;
	double base_iops; /* observed rate of the run a curve point or relative rate follows */
	struct eng_target *targets;
	const struct clu_share *share; /* many hosts: this rank's part; NULL: all of it */
};

/* run_build.c: builds the run description from a plan run. On many hosts every SD of the run keeps
 * its place (the same indexes on every rank) with this rank's threads, 0 where it has none,
 * and only this rank's generators. */
int eng_run_build(struct eng_run *r, const struct eng_run_src *src, struct parm_err *err);

/* VDbench's slave JVMs of the run on one host (plan_nr_jvms) and each SD's first thread
 * number, counted over the SDs in the order of their names (strcmp). */
void eng_run_jvms(struct eng_run *r, const struct plan *plan);
/* The slave of the k-th sequential workload on run SD s (run_build.c). */
uint32_t eng_jvm_seq_slave(const struct eng_run *r, uint32_t s, uint32_t k);

/* concat_run.c: the concatenation of a concatenatesds=yes run, after its SDs are collected:
 * members, sizes and the shared threads on the first member (0 on the others). Returns 0 or
 * -errno with err filled. */
int eng_concat_build(struct eng_run *r, const struct eng_run_src *src, struct parm_err *err);
/* The bytes its generators draw over: the members' lun bytes, rounded down to the largest
 * transfer. */
uint64_t eng_concat_bytes(const struct eng_run *r);
/* Worker, on the hot path: p drawn over the concatenation to its member (offset, counting
 * generator); returns the member's local SD. */
uint32_t eng_concat_route(const struct eng_worker *w, struct eng_pending *p);

/* pattern.c: bytes of dst, the pattern= data from its start, repeated. */
void eng_pattern_fill(void *dst, size_t bytes, const char *pat, size_t len);

/* An SD's lun bytes: size=, or the target's size when it is smaller or size= is not given. */
uint64_t eng_sd_lun_bytes(const struct parm_sd *sd, const struct eng_target *t);

/* The bytes a run uses: from offset= to the lun's end (VDbench's "available SD bytes"); 0 when
 * offset= is at or past the end. */
uint64_t eng_sd_usable_bytes(const struct parm_sd *sd, const struct eng_target *t);
void eng_run_fini(struct eng_run *r);
/* run_exec.c: the write gates' release (eng_run_fini calls it; none set up is fine). */
void eng_run_write_gates_fini(struct eng_run *r);

/* schedule.c: what the workers and trace synth share, so that both draw the same streams. */
/* Part `part` of an SD split in nr_parts (eng_sd_desc.nr_parts): its threads of threads. */
uint32_t eng_part_threads(uint32_t threads, uint32_t nr_parts, uint32_t part);
/* The stream of a part: part 0 keeps the whole SD's, so an SD in one part is unchanged. */
uint64_t eng_part_stream(uint64_t stream, uint32_t part);
/* A part's arrival schedule from the whole generator's (its share of the rate). */
void eng_part_arrivals(struct gen_arrival_cfg *ac, const struct eng_wsd *d,
		       const struct eng_sd_desc *sd);
uint64_t eng_wg_gen_stream(const struct eng_run *r, size_t wg);
uint64_t eng_wg_arrival_stream(const struct eng_run *r, size_t wg);
/* distribution=variable or spike with (rate,seconds) pairs, on a run that is not a replay. */
bool eng_rd_is_variable(const struct parm_rd *rd);
/* The pairs' time-weighted mean rate. */
double eng_variable_mean_iops(const struct parm_rd *rd);
/* Fills r->wg_steps for a variable rate (after the generators and their rates are built).
 * Returns 0 or -ENOMEM with *err filled. */
int eng_run_steps(struct eng_run *r, const struct plan *plan, struct parm_err *err);
bool eng_wg_has_steps(const struct eng_run *r, size_t wg);
/* The wake batch of a worker whose paced arrivals come at iops a second: batch_ns while they
 * average at most ENG_WAKE_BATCH_MAX_ARRIVALS per batch, else 0 (each issued on time). */
uint64_t eng_wake_batch_for(uint64_t batch_ns, double iops);

/* SD s's paced rate: the sum of its generators' rates, 0 when any of them runs at max. */
double eng_sd_rate(const struct eng_run *r, size_t s);

/* The serial SDs (is_serial), in order, on workers from k on: each worker takes SDs while
 * their rates sum to at most ENG_SERIAL_MAX_ARRIVALS per wake batch, so that it still wakes
 * once per batch; an SD faster than that alone gets workers of its own, the fast SDs' together
 * about one per CPU of nr_cpus (at least one each, at most its threads=), each serving its share
 * one I/O at a time. Returns the next free worker. */
uint32_t eng_place_serial(struct eng_run *r, uint32_t k, uint32_t nr_cpus);
/* Which SDs' sync threads take their SD's gate to write (is_write_gated; backend_sync.c sync_do
 * says why): those whose threads, more than one, write a buffered file or block device, when
 * the run has at least nr_cpus SDs (of any kind). Each CPU then has an SD's threads to run
 * besides a gate's waiters. With fewer, a gate holds an SD whose threads both read and write
 * to one CPU: its waiters sleep, the futex wakes them on the waker's CPU, the readers preempt
 * the holder there, and the other CPUs idle; without one, the inode lock's waiters spin, which
 * costs CPU but keeps them spread. Max IOPS on a 2-CPU VM, page-cache files, threads=8, with
 * a gate and without (2026-12-07): one SD of 4K 90/10 0.69-0.75M against 1.05-1.07M (51% CPU
 * against 97%), of 64K 50/50 threads=2 89k against 150-155k; two SDs of 4K 50/50 0.66-0.68M
 * against 0.51-0.57M; a 4K read SD beside a 4K write SD 1.75-1.77M against 1.14-1.16M; eight
 * of 4K random write 374-378k against 191k. */
void eng_pick_write_gated(struct eng_run *r, uint32_t nr_cpus);
/* The depths the limit rule (eng_limit_rule) judges, from each SD's mean outstanding I/O
 * sd_qdepth: an SD's own threads=, but the serial SDs of one worker as one entry of depth 1
 * with their outstanding I/O summed: that worker has one slot, so a slot busy all the time is
 * the device's verdict, as a thread of its own is. Fills qd and depth (r->nr_sds entries at
 * most; qd may be sd_qdepth); returns the count. */
size_t eng_limit_depths(const struct eng_run *r, const double *sd_qdepth, double *qd,
			uint32_t *depth);
/* The arrival schedule of generator wg from start_ns (absolute). */
void eng_wg_arrival_cfg(const struct eng_run *r, size_t wg, uint64_t start_ns,
			struct gen_arrival_cfg *ac);

#endif /* IORAMP_ENGINE_INT_H */
