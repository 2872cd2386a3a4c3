/* Private to src/engine: --record, the I/O stream ioramp issued written as a fio iolog v3.
 * Workers push one entry per submitted I/O into their own single-producer ring (no lock, no
 * stdio); the controller drains the rings, merges them in time order and writes the log. */
#ifndef IORAMP_ENGINE_RECORD_H
#define IORAMP_ENGINE_RECORD_H

#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "clock.h"
#include "ioramp/compiler.h"

struct parm_err;
struct plan;
struct eng_worker;

enum {
	ENG_REC_RING = 1 << 16, /* entries per worker ring (a power of two) */
};

struct eng_rec {
	uint64_t time_ns; /* scheduled arrival, eng_clock_now() time */
	uint64_t offset_bytes;
	uint32_t size_bytes;
	uint32_t sd; /* config SD index */
	uint16_t wd; /* the run's WD index (showlba=yes) */
	uint16_t is_write;
};

/* One worker's ring. The worker writes v[] and tail, and clock_ns after each batch: every
 * later entry has a time at or after it. The controller writes head. */
struct eng_rec_ring {
	struct eng_rec v[ENG_REC_RING];
	alignas(IORAMP_CACHELINE) _Atomic uint32_t tail;
	_Atomic uint64_t clock_ns;
	alignas(IORAMP_CACHELINE) _Atomic uint32_t head;
};

/* Worker side: appends one entry; waits (yields) while the controller has not drained a full
 * ring, because a recording with holes would be worse than a slower run. In virtual time the
 * kick wakes the controller to drain it; the clock stays while this thread waits awake. */
static inline void eng_rec_push(struct eng_rec_ring *r, const struct eng_rec *e,
				struct eng_clock *clock)
{
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

	if (tail - atomic_load_explicit(&r->head, memory_order_acquire) >= ENG_REC_RING)
		eng_clock_kick(clock);
	while (tail - atomic_load_explicit(&r->head, memory_order_acquire) >= ENG_REC_RING)
		sched_yield();
	r->v[tail & (ENG_REC_RING - 1)] = *e;
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
}

/* Worker side, once per batch after its pushes: no later entry is older than now_ns. */
static inline void eng_rec_clock(struct eng_rec_ring *r, uint64_t now_ns)
{
	atomic_store_explicit(&r->clock_ns, now_ns, memory_order_release);
}

struct eng_recorder;

/* Creates the log at path and declares every SD the plan uses (config order). Returns 0 or
 * -errno with *err filled. */
int eng_recorder_open(struct eng_recorder **out, const char *path, const struct plan *plan,
		      const bool *is_used, struct parm_err *err);

/* showlba=yes: instead of an iolog, VDbench's localhost-0.showlba.txt at path, one line per
 * I/O issued: SD, WD, 1 for a read (0 for a write), the byte offset and the milliseconds since
 * its run started. Returns 0 or -errno with *err filled. */
int eng_recorder_open_showlba(struct eng_recorder **out, const char *path, const struct plan *plan,
			      struct parm_err *err);

/* A run starts (showlba): its WD names (borrowed until its final drain) and its start. */
void eng_recorder_run(struct eng_recorder *r, const char *const *wd_names, uint64_t start_ns);

/* The execution's time origin: the first run's start (eng_clock_now() time). */
void eng_recorder_start(struct eng_recorder *r, uint64_t origin_ns);

/* Controller: takes what the rings hold and writes every entry older than all workers' clocks
 * (everything when is_final, after the workers have stopped). Returns 0 or -errno. */
int eng_recorder_drain(struct eng_recorder *r, struct eng_worker *w, uint32_t nr, bool is_final);

/* Writes what is left, closes the log. Returns 0 or the first write error. Accepts NULL. */
int eng_recorder_close(struct eng_recorder *r);

#endif /* IORAMP_ENGINE_RECORD_H */
