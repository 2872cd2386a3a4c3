/* Payload stages (engine_int.h) for plain runs: VDbench's stamp on every write, pattern='s data,
 * dedup's sets of duplicates, and --record around any (or validation). The worker's buffers hold the run's
 * compressible data from the start (worker.c); a stage only changes what must differ per
 * write. */
#include "engine_int.h"

#include <string.h>

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

static bool stamp_start(struct eng_worker *w, struct eng_wsd *d, struct eng_slot *slot,
			const struct eng_pending *p)
{
	(void)d;
	if (p->is_write)
		stamp(slot, ++w->nr_writes);
	return true;
}

static bool pattern_start(struct eng_worker *w, struct eng_wsd *d, struct eng_slot *slot,
			  const struct eng_pending *p)
{
	(void)d;
	if (p->is_write) /* every time: a read may have left its data in the slot */
		eng_pattern_fill(slot->io.buf, p->size_bytes, w->run->pattern, w->run->pattern_len);
	return true;
}

static bool dedup_start(struct eng_worker *w, struct eng_wsd *d, struct eng_slot *slot,
			const struct eng_pending *p)
{
	if (p->is_write)
		eng_dedup_fill(w->run->dedup, w->run->dedup_pattern, d->cfg_sd, slot->io.buf,
			       p->offset_bytes, p->size_bytes, ++w->nr_writes);
	return true;
}

/* One phase per I/O: nothing follows a completion, nothing waits. */
static bool one_complete(struct eng_worker *w, struct eng_slot *slot)
{
	(void)w;
	(void)slot;
	return false;
}

static uint32_t one_requeue(struct eng_worker *w, uint64_t now_ns)
{
	(void)w;
	(void)now_ns;
	return 0;
}

static int one_pass(struct eng_worker *w, uint32_t from, uint64_t now_ns)
{
	(void)w;
	(void)from;
	(void)now_ns;
	return 0;
}

static bool one_drop(struct eng_worker *w, struct eng_slot *slot)
{
	(void)w;
	(void)slot;
	return false;
}

static void one_stop(struct eng_worker *w)
{
	(void)w;
}

static int one_finish(struct eng_worker *w)
{
	(void)w;
	return 0;
}

const struct eng_payload eng_payload_stamp = {
	.start = stamp_start,
	.complete = one_complete,
	.requeue = one_requeue,
	.pass = one_pass,
	.drop = one_drop,
	.stop = one_stop,
	.finish = one_finish,
};

const struct eng_payload eng_payload_pattern = {
	.start = pattern_start,
	.complete = one_complete,
	.requeue = one_requeue,
	.pass = one_pass,
	.drop = one_drop,
	.stop = one_stop,
	.finish = one_finish,
};

const struct eng_payload eng_payload_dedup = {
	.start = dedup_start,
	.complete = one_complete,
	.requeue = one_requeue,
	.pass = one_pass,
	.drop = one_drop,
	.stop = one_stop,
	.finish = one_finish,
};

/* ---- --record: the I/O stream issued, around the data stage ------------------------------ */

/* Each I/O with its scheduled arrival, so that replaying the log offers the same load (the
 * wait for a free thread is in the response times, not in the log). */
static bool rec_start(struct eng_worker *w, struct eng_wsd *d, struct eng_slot *slot,
		      const struct eng_pending *p)
{
	struct eng_rec e = {
		.time_ns = p->arrival_ns,
		.offset_bytes = p->offset_bytes,
		.size_bytes = p->size_bytes,
		.sd = d->cfg_sd,
		.wd = (uint16_t)w->run->wgs[w->wgs[p->wg].run_wg].run_wd,
		.is_write = p->is_write,
	};

	if (!w->pay_data->start(w, d, slot, p))
		return false;
	eng_rec_push(w->rec, &e, w->run->clock);
	return true;
}

static bool rec_complete(struct eng_worker *w, struct eng_slot *slot)
{
	return w->pay_data->complete(w, slot);
}

static uint32_t rec_requeue(struct eng_worker *w, uint64_t now_ns)
{
	return w->pay_data->requeue(w, now_ns);
}

/* No I/O recorded later can be older than what is still queued, what the source has not
 * released, or now: the controller writes everything before that. */
static int rec_pass(struct eng_worker *w, uint32_t from, uint64_t now_ns)
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
	eng_rec_clock(w->rec, w->src->oldest(w, oldest));
	return w->pay_data->pass(w, from, now_ns);
}

static bool rec_drop(struct eng_worker *w, struct eng_slot *slot)
{
	return w->pay_data->drop(w, slot);
}

static void rec_stop(struct eng_worker *w)
{
	eng_rec_clock(w->rec, UINT64_MAX); /* nothing more will be submitted */
	w->pay_data->stop(w);
}

static int rec_finish(struct eng_worker *w)
{
	return w->pay_data->finish(w);
}

const struct eng_payload eng_payload_record = {
	.start = rec_start,
	.complete = rec_complete,
	.requeue = rec_requeue,
	.pass = rec_pass,
	.drop = rec_drop,
	.stop = rec_stop,
	.finish = rec_finish,
};
