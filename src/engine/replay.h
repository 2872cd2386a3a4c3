/* Private to src/engine: replaying a block trace (RD trace=FILE, or replay=FILE for a format
 * ioramp reads). A feeder thread reads the trace, maps its devices to the run's SDs, folds and
 * realigns offsets into each SD, stamps every record with its arrival on the run's absolute
 * schedule (the trace's timing divided by the speed) and hands it to the worker that owns the
 * SD through a single-producer ring. Workers never touch the trace file. */
#ifndef IORAMP_ENGINE_REPLAY_H
#define IORAMP_ENGINE_REPLAY_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "ioramp/compiler.h"
#include "ioramp/trace.h"

struct parm_err;
struct parm_loc;
struct eng_run;
struct parm_config;
struct parm_rd;
struct eng_worker;

enum {
	ENG_RPL_RING = 1 << 14,		/* records per worker ring (a power of two) */
	ENG_RPL_LOW = ENG_RPL_RING / 2, /* a full ring's feeder waits until it holds this many */
	ENG_RPL_MAX_DEVS = 256,		/* trace devices mapped */
	ENG_RPL_ALIGN = 512,		/* replayed offsets and sizes are multiples of it */
};

/* What a pass over the trace found before the replay (reference: traces.md, units). */
struct eng_trace_info {
	char *path;
	struct trace_opts opts; /* trace=(FILE,format=,action=,skipbad) */
	uint64_t nr_records;	/* reads and writes */
	uint64_t nr_writes;	/* of which writes: the SDs are then opened for writing */
	uint64_t nr_other;	/* flushes, discards: not replayed */
	uint64_t first_ns;
	uint64_t last_ns;
	uint64_t max_size_bytes;
	uint64_t shift_bytes; /* a constant offset remainder (MSR's 3584) to remove, else 0 */
	uint32_t devs[ENG_RPL_MAX_DEVS]; /* in order of first appearance */
	uint32_t nr_devs;
	double traced_iops; /* records / duration */
};

/* Reads the whole trace of rd (its trace= file with the reader options given there) once.
 * Returns 0 or -errno with *err (at loc) filled. */
int eng_trace_scan(const struct parm_rd *rd, const struct parm_loc *loc, struct eng_trace_info *out,
		   struct parm_err *err);
void eng_trace_info_fini(struct eng_trace_info *ti);

/* One replayed I/O in a worker's ring. */
struct eng_rpl_rec {
	uint64_t arrival_ns;
	uint64_t offset_bytes;
	uint32_t size_bytes;
	uint16_t run_sd;
	uint8_t is_write;
};

/* A worker's ring: the feeder writes v[], tail and is_closed; the worker writes head. In
 * virtual time each side kicks the clock when the other may wait for it: the feeder after
 * filling an empty ring, the worker once the ring of a waiting feeder is down to ENG_RPL_LOW.
 * The feeder waits for half a ring, not one slot: one hand-over per record made every replay
 * at a rate on modelled drives switch threads twice per I/O (85 s of real time for 3 x 30 s). */
struct eng_rpl_ring {
	struct eng_rpl_rec v[ENG_RPL_RING];
	alignas(IORAMP_CACHELINE) _Atomic uint32_t tail;
	_Atomic bool is_closed; /* the trace is exhausted: no more records */
	/* the feeder waits for room (set by it, cleared by the worker that kicks it); seq_cst
	 * with head on both sides, so that either the feeder sees the room or the worker the flag */
	_Atomic bool is_feeder_waiting;
	/* No record the feeder pushes later, to any ring, arrives before this (arrivals are made
	 * non-decreasing): what --record may write while this ring is empty. */
	_Atomic uint64_t fed_ns;
	alignas(IORAMP_CACHELINE) _Atomic uint32_t head;
};

/* The feeder of one run. */
struct eng_feeder {
	const struct eng_run *run;
	const struct eng_trace_info *ti;
	struct eng_rpl_ring **rings; /* per worker */
	uint32_t nr_rings;
	uint32_t map[ENG_RPL_MAX_DEVS]; /* trace device index -> run SD */
	double speed;	  /* trace time / speed = replay time; 0: as fast as the threads allow */
	uint64_t last_ns; /* the latest arrival pushed (feeder thread) */
	uint64_t pass_ns; /* is_replay_loop: where the current pass of the trace starts */
	pthread_t thread;
	struct eng_sleeper sleeper; /* the feeder thread's part in the run's clock */
	_Atomic bool stop;
	int error; /* -errno from the reader */
	char msg[256];
};

/* Makes a built run a replay of ti (see replay_run.c). has_elapsed: elapsed= or -e was given,
 * else the run is as long as the trace. Returns 0 or -ENOMEM. */
int eng_run_replay(struct eng_run *r, const struct parm_config *cfg,
		   const struct eng_trace_info *ti, bool has_elapsed);

/* Builds the device map from --map ("DEV=SD,...": DEV as trace stat prints it, or its
 * number; SD a name of the run) or in the order of the device numbers, wrapping over the
 * run's SDs.
 * Returns 0 or -EINVAL with *err filled. */
int eng_feeder_map(struct eng_feeder *f, const char *map, const struct parm_loc *loc,
		   const char *const *sd_names, struct parm_err *err);

/* The records a replay at a speed (not max) schedules in [from_ns, to_ns) of the run's clock,
 * the trace read again as the feeder read it: the verdict's "asked" (the trace's rate varies,
 * so its mean times the time is not what a part of the run asked). -1 when it cannot tell. */
double eng_replay_scheduled(const struct eng_run *run, uint64_t from_ns, uint64_t to_ns);

/* Starts the feeder thread (a sleeper of the run's clock) / stops it. */
int eng_feeder_start(struct eng_feeder *f);
void eng_feeder_stop(struct eng_feeder *f);

#endif /* IORAMP_ENGINE_REPLAY_H */
