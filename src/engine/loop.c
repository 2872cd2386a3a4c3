/* The worker's hot loop (DESIGN.md "Engine"): publish the intervals that ended, let the arrival
 * source release what is due, move queued I/Os into backend slots while each SD is below
 * threads= (the payload stage fills their data), submit the batch, reap, count. The loop knows
 * no feature: replay, validation, dedup and recording are the two seams (engine_int.h). No
 * allocation, no locks, no stdio: the only system calls are the backend's and the clock's. */
#include "engine_int.h"

#include <errno.h>
#include <string.h>
#include <sys/prctl.h>

enum {
	IDLE_CAP_NS = 100000000,	  /* wake at least every 100 ms to notice stop */
	DRAIN_LIMIT_NS = 300000000000ull, /* give outstanding I/O 5 minutes, as VDbench */
};

static inline uint64_t now(const struct eng_worker *w)
{
	return eng_clock_now(w->run->clock);
}

/* The next I/O of d: one the payload stage held back, queued ones highest priority first,
 * then (max) a fresh draw from the arrival source. */
static bool next_io(struct eng_worker *w, struct eng_wsd *d, uint64_t now_ns, struct eng_pending *p)
{
	if (d->has_held) {
		*p = d->held;
		d->has_held = false;
		return true;
	}
	for (uint32_t prio = 0; d->nr_pending && prio < w->run->nr_prio; prio++) {
		if (eng_ring_pop(&d->q[prio], p)) {
			d->nr_pending--;
			return true;
		}
	}
	return w->src->draw(w, d, now_ns, p);
}

/* SD s's queued I/Os into slots while it is below its threads=; returns the new batch size. */
static uint32_t prep_sd(struct eng_worker *w, uint32_t s, uint64_t now_ns, uint32_t nr)
{
	struct eng_wsd *d = &w->sds[s];
	struct eng_pending p;

	while (d->inflight < d->threads && w->nr_free && next_io(w, d, now_ns, &p)) {
		struct eng_slot *slot = &w->slots[w->free_slots[w->nr_free - 1]];
		/* a concatenation's I/O goes to its member's file (concat_run.c) */
		uint32_t file = w->concat_local ? eng_concat_route(w, &p) : s;

		slot->io.offset_bytes = p.offset_bytes;
		slot->io.size_bytes = p.size_bytes;
		slot->io.file_idx = file;
		slot->io.op = p.is_write ? ENG_OP_WRITE : ENG_OP_READ;
		slot->local_sd = s;
		if (!w->pay->start(w, d, slot, &p))
			break; /* held back in d until a completion on d: the slot stays free */
		w->nr_free--;
		slot->arrival_ns = p.arrival_ns;
		slot->submit_ns = now_ns;
		slot->wg = p.wg;
		d->inflight++;
		stats_bank_inflight_add(&w->bank[p.wg], 1, now_ns);
		w->batch[nr++] = &slot->io;
	}
	return nr;
}

/* Phases that wait, then the I/Os of every SD that may take one. Sets *from to where the new
 * I/Os start in the batch; returns the batch size. With no slot left every SD is full (the
 * slots are the sum of their threads=): the others stay marked for a later pass. */
static uint32_t prep(struct eng_worker *w, uint64_t now_ns, uint32_t *from)
{
	uint32_t nr = *from = w->pay->requeue(w, now_ns);

	for (uint32_t k = 0; k * 64 < w->nr_sds && w->nr_free; k++) {
		while (w->ready[k] && w->nr_free) {
			uint32_t s = k * 64 + (uint32_t)__builtin_ctzll(w->ready[k]);

			nr = prep_sd(w, s, now_ns, nr);
			if (w->nr_free)
				w->ready[k] &=
					w->ready[k] - 1; /* nothing more for s until marked */
		}
	}
	if (IORAMP_UNLIKELY(w->nr_jvms))
		eng_jvm_take(w, nr);
	return nr;
}

/* The first ENG_ERR_RING failed I/Os of a run are kept for the controller, which reports
 * them (errorlog.html, console) at the next interval end: the entry is written before the
 * count that publishes it. */
static void keep_error(struct eng_worker *w, const struct eng_slot *slot, uint64_t now_ns)
{
	uint32_t kept = atomic_load_explicit(&w->nr_errors_kept, memory_order_relaxed);
	struct eng_io_error *e;

	atomic_fetch_add_explicit(&w->nr_io_errors, 1, memory_order_relaxed);
	if (slot->io.result == -ENXIO || slot->io.result == -ENODEV)
		atomic_store_explicit(&w->is_device_lost, true, memory_order_relaxed);
	if (kept >= ENG_ERR_RING) {
		eng_worker_count_error(w);
		return;
	}
	e = &w->errors[kept];
	e->run_sd = w->sds[slot->io.file_idx].run_sd; /* a concatenation's member, not its first */
	e->op = slot->io.op;
	e->offset_bytes = slot->io.offset_bytes;
	e->size_bytes = slot->io.size_bytes;
	e->result = slot->io.result;
	e->done_ns = now_ns;
	atomic_store_explicit(&w->nr_errors_kept, kept + 1, memory_order_release);
	eng_worker_count_error(w);
}

/* Into the interval's bank (the drain's scratch bank once the last one is out). */
static void complete(struct eng_worker *w, struct eng_io *io, uint64_t now_ns)
{
	struct eng_slot *slot = (struct eng_slot *)io; /* io is the slot's first member */
	struct stats_bank *b = &w->bank[slot->wg];
	enum stats_op op = io->op == ENG_OP_WRITE ? STATS_OP_WRITE : STATS_OP_READ;

	if (io->result == (int32_t)io->size_bytes) {
		stats_bank_record(b, op, io->size_bytes, now_ns - slot->submit_ns,
				  now_ns - slot->arrival_ns);
	} else {
		keep_error(w, slot, now_ns);
		stats_bank_record_error(b, op);
	}
	if (w->pay->complete(w, slot))
		return; /* the same slot goes on with its next phase */
	stats_bank_inflight_add(b, -1, now_ns);
	w->sds[slot->local_sd].inflight--;
	eng_wsd_ready(w, slot->local_sd);
	w->free_slots[w->nr_free++] = (uint32_t)(slot - w->slots);
	w->nr_ios_total++;
}

/* Closes the interval at boundary_ns, publishes it and opens the next bank, waiting (rarely) for
 * the controller to have read that bank two intervals ago. */
static void publish(struct eng_worker *w, uint64_t boundary_ns)
{
	struct stats_bank *old = w->banks[w->cur_interval & 1];
	struct stats_bank *nb = w->banks[(w->cur_interval + 1) & 1];

	for (uint32_t i = 0; i < w->nr_wgs; i++)
		stats_bank_finish(&old[i], boundary_ns);
	atomic_store_explicit(&w->published, w->cur_interval, memory_order_release);
	eng_clock_tell(w->run->clock); /* the controller waits for this */
	w->cur_interval++;
	while (atomic_load_explicit(&w->consumed, memory_order_acquire) + 2 < w->cur_interval &&
	       !atomic_load_explicit(&w->stop, memory_order_relaxed))
		eng_sleeper_until(&w->sleeper, now(w) + 1000000); /* a whole interval late */
	if (atomic_load_explicit(&w->consumed, memory_order_acquire) + 2 < w->cur_interval) {
		/* stopped while the controller is still behind: nb holds an interval it has not
		 * read, so what completes from now on goes to the drain's bank (counted there) */
		w->bank = w->banks[2];
		if (w->nr_jvms)
			eng_jvm_switch(w, 2, false);
		return;
	}
	for (uint32_t i = 0; i < w->nr_wgs; i++)
		stats_bank_start(&nb[i], old[i].nr_inflight, boundary_ns);
	w->bank = nb;
	if (w->nr_jvms)
		eng_jvm_switch(w, w->cur_interval & 1, true);
}

/* Sleep until the interval's end, the source's next arrival, or the idle cap (stop). On a
 * sparsely paced worker (its wake_batch_ns, worker.c) an arrival wait lasts at least the batch:
 * the arrivals that fall due meanwhile are released together by the next pass, each keeping
 * its scheduled time (its lateness is in its response time, not in its service time), so it
 * wakes once per batch, not once per I/O; arrivals further apart than that, and every arrival
 * of a faster worker, are issued on time. A completion ends the wait earlier. */
static uint64_t next_deadline(const struct eng_worker *w, uint64_t now_ns, uint64_t boundary_ns)
{
	uint64_t cap = now_ns + IDLE_CAP_NS, dl;

	if (boundary_ns < cap)
		cap = boundary_ns;
	dl = w->src->next_due(w, now_ns, cap);
	if (dl < cap && dl - now_ns < w->wake_batch_ns && now_ns < dl)
		dl = now_ns + w->wake_batch_ns < cap ? now_ns + w->wake_batch_ns : cap;
	return dl;
}

static uint32_t inflight(const struct eng_worker *w)
{
	return w->depth - w->nr_free;
}

/* Submits batch[0..nr_batch): what the backend cannot take now stays for the next pass. */
static int submit(struct eng_worker *w)
{
	int ret;

	if (!w->nr_batch)
		return 0;
	ret = eng_backend_submit(w->be, w->batch, w->nr_batch);
	if (ret < 0)
		return ret;
	for (uint32_t i = (uint32_t)ret; i < w->nr_batch; i++)
		w->batch[i - (uint32_t)ret] = w->batch[i];
	w->nr_batch -= (uint32_t)ret;
	return ret;
}

/* Waits for completions until deadline_ns at the latest (0: not at all), counts them. */
static int reap(struct eng_worker *w, uint64_t deadline_ns)
{
	int nr = eng_backend_reap(w->be, w->done, w->depth, deadline_ns);
	uint64_t now_ns;

	if (nr <= 0)
		return nr;
	now_ns = now(w);
	for (int i = 0; i < nr; i++)
		complete(w, w->done[i], now_ns);
	if (IORAMP_UNLIKELY(w->nr_jvms))
		eng_jvm_done(w, w->done, nr, now_ns);
	return nr;
}

/* After a submit at now_ns, whether another pass at the same time would only wait: no arrival
 * due, no SD marked that could take a slot, nothing left to submit (virtual time does not move
 * between the passes). Then the loop waits at once: one pass per event instead of two, about
 * 250 instructions per simulated I/O (bench/speed.md). */
static bool is_settled(const struct eng_worker *w, uint64_t now_ns)
{
	if (!w->is_one_pass || w->nr_batch || now_ns >= w->next_arrival_ns)
		return false;
	for (uint32_t k = 0; w->nr_free && k * 64 < w->nr_sds; k++)
		if (w->ready[k])
			return false;
	return true;
}

static bool is_finished(const struct eng_worker *w)
{
	return w->run->has_eof && w->nr_eof == w->nr_wgs && !inflight(w);
}

static int worker_loop(struct eng_worker *w)
{
	const struct eng_run *run = w->run;
	uint64_t boundary_ns = run->start_ns + run->interval_ns;

	while (!atomic_load_explicit(&w->stop, memory_order_relaxed) && !is_finished(w)) {
		uint64_t now_ns = now(w);
		uint32_t from = w->nr_batch; /* a batch the backend did not take: nothing new */
		int ret;

		if (now_ns < run->start_ns) {
			ret = reap(w, run->start_ns);
			if (ret < 0)
				return ret;
			continue;
		}
		while (now_ns >= boundary_ns) {
			publish(w, boundary_ns);
			if (w->cur_interval > run->nr_intervals)
				return 0; /* the last interval is out: the run is over */
			boundary_ns += run->interval_ns;
		}
		w->src->release(w, now_ns);
		if (!w->nr_batch)
			w->nr_batch = prep(w, now_ns, &from);
		ret = w->pay->pass(w, from, now_ns);
		if (!ret)
			ret = submit(w);
		/* After a submit only a poll: the next pass looks again before any wait, so that
		 * what arrived meanwhile at this time (a replay feeder's records) goes out before
		 * virtual time moves; waiting at once made replays on modelled drives unrepeatable */
		if (ret >= 0)
			ret = reap(w, ret > 0 && !is_settled(w, now_ns)
					      ? 0
					      : next_deadline(w, now_ns, boundary_ns));
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* After stop: I/Os prepared but not taken by the backend were never issued; their slots are
 * free again, unless the payload stage keeps them to end their phases. */
static void drop_unsubmitted(struct eng_worker *w)
{
	for (uint32_t i = 0; i < w->nr_batch; i++) {
		struct eng_slot *slot = (struct eng_slot *)w->batch[i];

		if (w->pay->drop(w, slot))
			continue;
		if (w->nr_jvms)
			eng_jvm_drop(w, slot);
		w->sds[slot->local_sd].inflight--;
		w->free_slots[w->nr_free++] = (uint32_t)(slot - w->slots);
	}
	w->nr_batch = 0;
}

/* After stop: let outstanding I/O finish, within a limit, counted in no interval. */
static int drain(struct eng_worker *w)
{
	uint64_t limit_ns = now(w) + DRAIN_LIMIT_NS;
	int ret;

	w->is_draining = true;
	w->bank = w->banks[2];
	if (w->nr_jvms)
		eng_jvm_switch(w, 2, false);
	drop_unsubmitted(w);
	w->pay->stop(w);
	while (inflight(w) && now(w) < limit_ns) {
		ret = reap(w, now(w) + IDLE_CAP_NS);
		if (ret < 0)
			return ret;
	}
	ret = w->pay->finish(w);
	if (ret)
		return ret;
	return inflight(w) ? -ETIMEDOUT : 0;
}

void *eng_worker_main(void *arg)
{
	struct eng_worker *w = arg;
	int ret;

	/* arrivals are paced by sleeping until the next one: the default 50 us timer slack
	 * would make every early wake-up late */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	ret = worker_loop(w);
	if (w->cur_interval <= w->run->nr_intervals) {
		/* stopped or at the end of every range: publish the partial interval now (unless
		 * publish() already sent what follows to the drain's bank) */
		uint64_t end_ns = now(w);

		for (uint32_t i = 0; i < w->nr_wgs; i++)
			stats_bank_finish(&w->bank[i], end_ns);
		atomic_store_explicit(&w->final_ns, end_ns, memory_order_relaxed);
		if (w->bank != w->banks[2])
			atomic_store_explicit(&w->published, w->cur_interval, memory_order_release);
		eng_clock_tell(w->run->clock);
	}
	if (!ret)
		ret = drain(w); /* what completes now is no interval's: VDbench's drain */
	eng_backend_finish(w->be);
	w->fatal = ret;
	eng_sleeper_leave(&w->sleeper); /* virtual time goes on without this thread */
	atomic_store_explicit(&w->is_done, true, memory_order_release);
	return NULL;
}
