/* The trace feeder as an arrival source (engine_int.h, replay.h): the worker takes the records
 * of its ring when they are due (at once at max) into their SD's queue; the trace is over for
 * this worker once the feeder closed the ring and every record went out. */
#include "engine_int.h"

static void trace_release(struct eng_worker *w, uint64_t now_ns)
{
	struct eng_rpl_ring *ring = w->rpl;
	uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(&ring->tail, memory_order_acquire);
	uint32_t first = head;
	bool is_max = w->run->mode == ENG_MODE_MAX;

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
		if (!eng_ring_push(&d->q[0], &p))
			break;
		d->nr_pending++;
		eng_wsd_ready(w, (uint32_t)(d - w->sds));
	}
	if (head != first) {
		atomic_store(&ring->head, head); /* seq_cst: see is_feeder_waiting (replay.h) */
		if (atomic_load(&ring->is_feeder_waiting) &&
		    atomic_load_explicit(&ring->tail, memory_order_acquire) - head <= ENG_RPL_LOW &&
		    atomic_exchange(&ring->is_feeder_waiting, false))
			eng_clock_kick(w->run->clock); /* the feeder waits for this room */
	}
	if (head == tail && atomic_load_explicit(&ring->is_closed, memory_order_acquire) &&
	    head == atomic_load_explicit(&ring->tail, memory_order_acquire)) {
		uint32_t queued = 0;

		for (uint32_t s = 0; s < w->nr_sds; s++)
			queued += w->sds[s].nr_pending;
		if (!queued)
			w->nr_eof = w->nr_wgs; /* the trace is over for this worker */
	}
}

/* Until the next record is due; an empty ring waits for the feeder (in virtual time its kick
 * wakes the worker, in real time a short poll). */
static uint64_t trace_next_due(const struct eng_worker *w, uint64_t now_ns, uint64_t dl_ns)
{
	const struct eng_rpl_ring *ring = w->rpl;
	uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
	const struct eng_rpl_rec *r;
	const struct eng_wsd *d;
	uint64_t due;

	if (head == atomic_load_explicit(&ring->tail, memory_order_acquire)) {
		due = atomic_load_explicit(&ring->is_closed, memory_order_acquire) ||
				      w->run->clock->is_virtual
			      ? dl_ns
			      : now_ns + 1000000;
	} else {
		r = &ring->v[head & (ENG_RPL_RING - 1)];
		d = &w->sds[w->local_of_sd[r->run_sd]];
		if (d->nr_pending >= ENG_SDQ_LIMIT || d->inflight >= d->threads)
			due = dl_ns; /* a completion makes room: reap waits for it */
		else
			due = w->run->mode == ENG_MODE_MAX ? now_ns : r->arrival_ns;
	}
	return due < dl_ns ? due : dl_ns;
}

/* A record not yet released is due at its own time, and a feeder that is behind may still
 * push records due before now. At max a record arrives when it is released, never before now:
 * its trace time (the run's start on every pass) held --record's watermark at the start, and
 * the recorder sorted an ever longer backlog at every drain (30 ms of virtual time per second). */
static uint64_t trace_oldest(const struct eng_worker *w, uint64_t oldest_ns)
{
	const struct eng_rpl_ring *ring = w->rpl;
	uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
	uint64_t fed = atomic_load_explicit(&ring->fed_ns, memory_order_acquire);

	if (w->run->mode == ENG_MODE_MAX)
		return oldest_ns;
	if (head != atomic_load_explicit(&ring->tail, memory_order_acquire) &&
	    ring->v[head & (ENG_RPL_RING - 1)].arrival_ns < oldest_ns)
		oldest_ns = ring->v[head & (ENG_RPL_RING - 1)].arrival_ns;
	if (!atomic_load_explicit(&ring->is_closed, memory_order_acquire) && fed < oldest_ns)
		oldest_ns = fed;
	return oldest_ns;
}

const struct eng_arrivals eng_arrivals_trace = {
	.release = trace_release,
	.draw = eng_arrivals_no_draw, /* every record goes through the queues, even at max */
	.next_due = trace_next_due,
	.oldest = trace_oldest,
};
