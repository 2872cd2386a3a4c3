/* The worker's hot loop (DESIGN.md "Engine"): release due arrivals into their SD's queue, move
 * queued I/Os into backend slots while the SD is below threads=, submit the batch, reap, count.
 * No allocation, no locks, no stdio: the only syscalls are the backend's and the clock (and,
 * with a validation journal, its one write per batch: validate.c). */
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

static inline struct stats_bank *wg_bank(struct eng_worker *w, uint32_t wg)
{
	return &w->banks[w->cur_interval & 1][wg];
}

static bool ring_push(struct eng_ring *r, const struct eng_pending *p)
{
	if (r->nr == r->cap)
		return false;
	r->v[(r->head + r->nr) % r->cap] = *p;
	r->nr++;
	return true;
}

static bool ring_pop(struct eng_ring *r, struct eng_pending *p)
{
	if (!r->nr)
		return false;
	*p = r->v[r->head];
	r->head = (r->head + 1) % r->cap;
	r->nr--;
	return true;
}

/* Open loop: every arrival that is due joins its SD's queue with its scheduled time, so an I/O
 * that waits for a thread is still timed from when it should have started. */
static void release_due(struct eng_worker *w, uint64_t now_ns)
{
	const struct eng_run *run = w->run;

	for (uint32_t i = 0; i < w->nr_wgs; i++) {
		struct eng_wwg *g = &w->wgs[i];
		struct eng_wsd *d = &w->sds[g->local_sd];
		uint32_t prio = run->wgs[g->run_wg].prio;

		while (g->is_paced && !g->is_eof && g->next_ns <= now_ns &&
		       d->nr_pending < ENG_SDQ_LIMIT) {
			struct gen_io io;
			struct eng_pending p;

			if (gen_wg_next(&g->gen, &io)) {
				g->is_eof = true;
				w->nr_eof++;
				break;
			}
			p.arrival_ns = g->next_ns;
			p.offset_bytes = io.offset_bytes;
			p.size_bytes = (uint32_t)io.size_bytes;
			p.wg = (uint16_t)i;
			p.is_write = io.is_write;
			if (!ring_push(&d->q[prio], &p))
				break;
			d->nr_pending++;
			g->next_ns = gen_arrival_next(&g->arr);
		}
	}
}

/* Replay: the feeder's records join their SD's queue when due (at once in max mode). */
static void release_replay(struct eng_worker *w, uint64_t now_ns)
{
	struct eng_rpl_ring *ring = w->rpl;
	uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(&ring->tail, memory_order_acquire);
	bool is_max = w->run->mode == ENG_MODE_MAX;
	bool was_full = tail - head >= ENG_RPL_RING;

	for (; head != tail; head++) {
		const struct eng_rpl_rec *r = &ring->v[head & (ENG_RPL_RING - 1)];
		struct eng_wsd *d = &w->sds[w->local_of_sd[r->run_sd]];
		struct eng_pending p;

		if ((!is_max && r->arrival_ns > now_ns) || d->nr_pending >= ENG_SDQ_LIMIT)
			break;
		p.arrival_ns = is_max ? now_ns : r->arrival_ns;
		p.offset_bytes = r->offset_bytes;
		p.size_bytes = r->size_bytes;
		p.wg = (uint16_t)d->replay_wg;
		p.is_write = r->is_write;
		if (!ring_push(&d->q[0], &p))
			break;
		d->nr_pending++;
	}
	atomic_store_explicit(&ring->head, head, memory_order_release);
	if (was_full && head != tail - ENG_RPL_RING)
		eng_clock_kick(w->run->clock); /* the feeder may wait for room */
	if (head == tail && atomic_load_explicit(&ring->is_closed, memory_order_acquire) &&
	    head == atomic_load_explicit(&ring->tail, memory_order_acquire)) {
		uint32_t queued = 0;

		for (uint32_t s = 0; s < w->nr_sds; s++)
			queued += w->sds[s].nr_pending;
		if (!queued)
			w->nr_eof = w->nr_wgs; /* the trace is over for this worker */
	}
}

/* Max mode: a free thread takes the next I/O of a generator picked by weight at once. */
static bool draw_now(struct eng_worker *w, struct eng_wsd *d, uint64_t now_ns,
		     struct eng_pending *p)
{
	double total = d->nr_wgs ? d->cum_weight[d->nr_wgs - 1] : 0;

	for (uint32_t tries = 0; total > 0 && tries < d->nr_wgs; tries++) {
		double x = gen_pcg_unit(&d->pick) * total;
		uint32_t k = 0;
		struct eng_wwg *g;
		struct gen_io io;

		while (k + 1 < d->nr_wgs && x >= d->cum_weight[k])
			k++;
		g = &w->wgs[d->wgs[k]];
		for (uint32_t j = 0; (g->is_eof || g->is_paced) && j < d->nr_wgs; j++)
			g = &w->wgs[d->wgs[(k + j) % d->nr_wgs]];
		if (g->is_eof || g->is_paced)
			return false;
		if (gen_wg_next(&g->gen, &io)) {
			g->is_eof = true;
			w->nr_eof++;
			continue;
		}
		p->arrival_ns = now_ns;
		p->offset_bytes = io.offset_bytes;
		p->size_bytes = (uint32_t)io.size_bytes;
		p->wg = (uint16_t)(g - w->wgs);
		p->is_write = io.is_write;
		return true;
	}
	return false;
}

/* Queued (paced) I/Os first, highest priority first; then, at max, a fresh draw. */
static bool next_pending(struct eng_worker *w, struct eng_wsd *d, uint64_t now_ns,
			 struct eng_pending *p)
{
	for (uint32_t prio = 0; d->nr_pending && prio < w->run->nr_prio; prio++) {
		if (ring_pop(&d->q[prio], p)) {
			d->nr_pending--;
			return true;
		}
	}
	return w->run->mode == ENG_MODE_MAX && !w->rpl && draw_now(w, d, now_ns, p);
}

/* --record: the I/O with its scheduled arrival, so that replaying the log offers the same load
 * (the wait for a free thread is in the response times, not in the log). */
static void record(struct eng_worker *w, const struct eng_wsd *d, const struct eng_pending *p)
{
	struct eng_rec e = {
		.time_ns = p->arrival_ns,
		.offset_bytes = p->offset_bytes,
		.size_bytes = p->size_bytes,
		.sd = d->cfg_sd,
		.is_write = p->is_write,
	};

	eng_rec_push(w->rec, &e, w->run->clock);
}

/* The first 8 bytes of every 4 KiB piece of a write become its offset and a counter, as
 * VDbench does (reference §12.3), so that two writes never carry the same data. */
static void stamp(struct eng_slot *slot, uint64_t nr)
{
	char *buf = slot->io.buf;

	for (uint32_t off = 0; off < slot->io.size_bytes; off += 4096) {
		uint64_t v = (slot->io.offset_bytes + off) ^ (nr << 40);

		memcpy(buf + off, &v, sizeof(v));
	}
}

/* No I/O recorded later can be older than this: what is still queued, or now. */
static uint64_t oldest_pending(const struct eng_worker *w, uint64_t now_ns)
{
	uint64_t oldest = now_ns;

	for (uint32_t s = 0; s < w->nr_sds; s++) {
		const struct eng_wsd *d = &w->sds[s];

		for (uint32_t prio = 0; d->nr_pending && prio < w->run->nr_prio; prio++) {
			const struct eng_ring *q = &d->q[prio];

			if (q->nr && q->v[q->head].arrival_ns < oldest)
				oldest = q->v[q->head].arrival_ns;
		}
	}
	if (w->rpl) { /* replay: a record not yet released is due at its own time */
		uint32_t head = atomic_load_explicit(&w->rpl->head, memory_order_relaxed);

		if (head != atomic_load_explicit(&w->rpl->tail, memory_order_acquire) &&
		    w->rpl->v[head & (ENG_RPL_RING - 1)].arrival_ns < oldest)
			oldest = w->rpl->v[head & (ENG_RPL_RING - 1)].arrival_ns;
	}
	return oldest;
}

/* Validation: the I/O that waited for a busy key block goes first (validate.c). */
static bool next_io(struct eng_worker *w, struct eng_wsd *d, uint64_t now_ns, struct eng_pending *p)
{
	if (d->has_dv_held) {
		*p = d->dv_held;
		d->has_dv_held = false;
		return true;
	}
	return next_pending(w, d, now_ns, p);
}

/* Queued I/Os into slots while each SD is below its threads=. Returns the batch size. */
static uint32_t prep(struct eng_worker *w, uint64_t now_ns)
{
	uint32_t nr = w->dv ? eng_dv_requeue(w, now_ns) : 0;

	for (uint32_t s = 0; s < w->nr_sds; s++) {
		struct eng_wsd *d = &w->sds[s];
		struct eng_pending p;

		while (d->inflight < d->threads && w->nr_free && next_io(w, d, now_ns, &p)) {
			struct eng_slot *slot;

			if (d->dv && !eng_dv_claim(d, &p))
				break; /* a key block it covers is busy: p waits in d */
			slot = &w->slots[w->free_slots[--w->nr_free]];
			slot->io.offset_bytes = p.offset_bytes;
			slot->io.size_bytes = p.size_bytes;
			slot->io.file_idx = s;
			slot->io.op = p.is_write ? ENG_OP_WRITE : ENG_OP_READ;
			slot->local_sd = s;
			if (d->dv)
				eng_dv_start(w, d, slot);
			else if (p.is_write && w->run->dedup)
				eng_dedup_fill(w->run->dedup, w->run->dedup_pattern, d->cfg_sd,
					       slot->io.buf, p.offset_bytes, p.size_bytes,
					       ++w->nr_writes);
			else if (p.is_write)
				stamp(slot, ++w->nr_writes);
			slot->arrival_ns = p.arrival_ns;
			slot->submit_ns = now_ns;
			slot->wg = p.wg;
			d->inflight++;
			stats_bank_inflight_add(wg_bank(w, p.wg), 1, now_ns);
			w->batch[nr++] = &slot->io;
			if (w->rec)
				record(w, d, &p);
		}
	}
	return nr;
}

/* The first ENG_ERR_RING failed I/Os of a run are kept for the controller, which reports
 * them (errorlog.html, console) at the next interval end: the entry is written before the
 * count that publishes it. */
static void keep_error(struct eng_worker *w, const struct eng_slot *slot, uint64_t now_ns)
{
	uint32_t kept = atomic_load_explicit(&w->nr_errors_kept, memory_order_relaxed);
	struct eng_io_error *e;

	atomic_fetch_add_explicit(&w->nr_errors, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&w->nr_io_errors, 1, memory_order_relaxed);
	if (slot->io.result == -ENXIO || slot->io.result == -ENODEV)
		atomic_store_explicit(&w->is_device_lost, true, memory_order_relaxed);
	if (kept >= ENG_ERR_RING)
		return;
	e = &w->errors[kept];
	e->run_sd = w->sds[slot->local_sd].run_sd;
	e->op = slot->io.op;
	e->offset_bytes = slot->io.offset_bytes;
	e->size_bytes = slot->io.size_bytes;
	e->result = slot->io.result;
	e->done_ns = now_ns;
	atomic_store_explicit(&w->nr_errors_kept, kept + 1, memory_order_release);
}

static void complete(struct eng_worker *w, struct eng_io *io, uint64_t now_ns)
{
	struct eng_slot *slot = (struct eng_slot *)io; /* io is the slot's first member */
	struct stats_bank *b = wg_bank(w, slot->wg);
	enum stats_op op = io->op == ENG_OP_WRITE ? STATS_OP_WRITE : STATS_OP_READ;

	if (io->result != (int32_t)io->size_bytes)
		keep_error(w, slot, now_ns);
	if (!w->is_draining) { /* a drained I/O belongs to no interval: its bank is published */
		if (io->result == (int32_t)io->size_bytes)
			stats_bank_record(b, op, io->size_bytes, now_ns - slot->submit_ns,
					  now_ns - slot->arrival_ns);
		else
			stats_bank_record_error(b, op);
	}
	if (slot->dv_phase && eng_dv_complete(w, slot))
		return; /* validation: the same slot goes on with its next phase */
	if (!w->is_draining)
		stats_bank_inflight_add(b, -1, now_ns);
	w->sds[slot->local_sd].inflight--;
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
	eng_clock_kick(w->run->clock); /* virtual time: the controller waits for this */
	w->cur_interval++;
	while (atomic_load_explicit(&w->consumed, memory_order_acquire) + 2 < w->cur_interval &&
	       !atomic_load_explicit(&w->stop, memory_order_relaxed))
		eng_sleeper_until(&w->sleeper, now(w) + 1000000); /* a whole interval late */
	for (uint32_t i = 0; i < w->nr_wgs; i++)
		stats_bank_start(&nb[i], old[i].nr_inflight, boundary_ns);
}

/* Replay sleeps until the next record is due, or briefly while the feeder fills the ring. */
static uint64_t replay_deadline(const struct eng_worker *w, uint64_t now_ns, uint64_t dl)
{
	const struct eng_rpl_ring *ring = w->rpl;
	uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
	uint64_t due;

	const struct eng_rpl_rec *r;
	const struct eng_wsd *d;

	/* an empty ring: the feeder fills it (virtual time: it kicks when it does) */
	if (head == atomic_load_explicit(&ring->tail, memory_order_acquire))
		due = atomic_load_explicit(&ring->is_closed, memory_order_acquire) ||
				      w->run->clock->is_virtual
			      ? dl
			      : now_ns + 1000000;
	else {
		r = &ring->v[head & (ENG_RPL_RING - 1)];
		d = &w->sds[w->local_of_sd[r->run_sd]];
		if (d->nr_pending >= ENG_SDQ_LIMIT || d->inflight >= d->threads)
			due = dl; /* a completion makes room: reap waits for it */
		else
			due = w->run->mode == ENG_MODE_MAX ? now_ns : r->arrival_ns;
	}
	return due < dl ? due : dl;
}

static uint64_t next_deadline(const struct eng_worker *w, uint64_t now_ns, uint64_t boundary_ns)
{
	uint64_t dl = now_ns + IDLE_CAP_NS;

	if (boundary_ns < dl)
		dl = boundary_ns;
	if (w->rpl)
		return replay_deadline(w, now_ns, dl);
	for (uint32_t i = 0; i < w->nr_wgs; i++) {
		const struct eng_wwg *g = &w->wgs[i];
		const struct eng_wsd *d = &w->sds[g->local_sd];

		/* a full SD does not need the arrival: it is timed by its schedule anyway */
		if (g->is_paced && !g->is_eof && g->next_ns < dl && d->inflight < d->threads)
			dl = g->next_ns;
	}
	return dl;
}

static uint32_t inflight(const struct eng_worker *w)
{
	return w->depth - w->nr_free;
}

/* Submits batch[0..nr): what the backend cannot take now stays for the next pass. */
static int submit(struct eng_worker *w, uint32_t *nr_batch)
{
	int ret;

	if (!*nr_batch)
		return 0;
	ret = eng_backend_submit(w->be, w->batch, *nr_batch);
	if (ret < 0)
		return ret;
	for (uint32_t i = (uint32_t)ret; i < *nr_batch; i++)
		w->batch[i - (uint32_t)ret] = w->batch[i];
	*nr_batch -= (uint32_t)ret;
	return ret;
}

static int reap(struct eng_worker *w, uint64_t deadline_ns)
{
	int nr = eng_backend_reap(w->be, w->done, w->depth, deadline_ns);
	uint64_t now_ns;

	if (nr <= 0)
		return nr;
	now_ns = now(w);
	for (int i = 0; i < nr; i++)
		complete(w, w->done[i], now_ns);
	return nr;
}

static bool is_finished(const struct eng_worker *w)
{
	return w->run->has_eof && w->nr_eof == w->nr_wgs && !inflight(w);
}

static int worker_loop(struct eng_worker *w)
{
	const struct eng_run *run = w->run;
	uint64_t boundary_ns = run->start_ns + run->interval_ns;
	uint32_t *nr_batch = &w->nr_batch;

	while (!atomic_load_explicit(&w->stop, memory_order_relaxed) && !is_finished(w)) {
		uint64_t now_ns = now(w);
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
		if (w->rpl)
			release_replay(w, now_ns);
		else
			release_due(w, now_ns);
		if (*nr_batch == 0)
			*nr_batch = prep(w, now_ns);
		if (w->rec)
			eng_rec_clock(w->rec, oldest_pending(w, now_ns));
		if (w->dv && eng_dv_flush(w)) /* BEFORE records durable before the writes start */
			return w->dv_fatal;
		ret = submit(w, nr_batch);
		if (ret < 0)
			return ret;
		ret = reap(w, ret > 0 ? 0 : next_deadline(w, now_ns, boundary_ns));
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* After stop: I/Os prepared but not taken by the backend were never issued; their slots are
 * free again (validation ends their phases in eng_dv_cancel()). */
static void drop_unsubmitted(struct eng_worker *w)
{
	for (uint32_t i = 0; i < w->nr_batch; i++) {
		struct eng_slot *slot = (struct eng_slot *)w->batch[i];

		if (slot->dv_phase) {
			w->dv_again[w->nr_dv_again++] = slot;
			continue;
		}
		w->sds[slot->local_sd].inflight--;
		w->free_slots[w->nr_free++] = (uint32_t)(slot - w->slots);
	}
	w->nr_batch = 0;
}

/* After stop: let outstanding I/O finish (counted in the last interval), within a limit. */
static int drain(struct eng_worker *w)
{
	uint64_t limit_ns = now(w) + DRAIN_LIMIT_NS;

	w->is_draining = true;
	drop_unsubmitted(w);
	if (w->dv)
		eng_dv_cancel(w); /* phases waiting to be submitted end here */

	while (inflight(w) && now(w) < limit_ns) {
		int ret = reap(w, now(w) + IDLE_CAP_NS);

		if (ret < 0)
			return ret;
	}
	if (w->dv && eng_dv_flush(w))
		return w->dv_fatal;
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
		/* stopped or at the end of every range: publish the partial interval now */
		uint64_t end_ns = now(w);
		struct stats_bank *b = w->banks[w->cur_interval & 1];

		for (uint32_t i = 0; i < w->nr_wgs; i++)
			stats_bank_finish(&b[i], end_ns);
		atomic_store_explicit(&w->final_ns, end_ns, memory_order_relaxed);
		atomic_store_explicit(&w->published, w->cur_interval, memory_order_release);
		eng_clock_kick(w->run->clock);
	}
	if (w->rec)
		eng_rec_clock(w->rec, UINT64_MAX); /* nothing more will be submitted */
	if (!ret)
		ret = drain(w); /* what completes now is no interval's: VDbench's drain */
	w->fatal = ret;
	eng_sleeper_leave(&w->sleeper); /* virtual time goes on without this thread */
	atomic_store_explicit(&w->is_done, true, memory_order_release);
	return NULL;
}
