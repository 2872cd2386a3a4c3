/* VDbench's slave JVMs on a worker (plan.h plan_jvm_of_thread): which slave's thread runs each
 * I/O, and each slave's counters (localhost-N.html). Once per pass, never per I/O in the loop
 * itself, so that one slave costs two tests a pass: the new I/Os of a batch take an idle
 * thread of their SD, the completed ones count for its slave and give it back. At a fixed rate
 * VDbench gives each (SD, slave) pair of a workload its own equal share of the rate (reference
 * §9.2, observed: threads=5 on three slaves ran 211/198/201, not 2:2:1), so there the I/Os of
 * an SD take its slaves in turn instead, whichever thread is idle. A sequential WD's I/Os run on
 * its one slave (run_build.c jvm_seq_slave) and take no thread of the others. */
#include "engine_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int eng_jvm_init(struct eng_worker *w)
{
	const struct eng_run *run = w->run;

	if (run->nr_jvms <= 1 || run->is_replay)
		return 0;
	w->nr_jvms = run->nr_jvms;
	w->is_jvm_even = run->mode == ENG_MODE_RATE;
	w->jvm_rings = calloc(w->nr_sds, sizeof(*w->jvm_rings));
	for (int i = 0; i < 3; i++) {
		w->lites[i] = calloc((size_t)w->nr_jvms * w->nr_sds, sizeof(*w->lites[i]));
		if (!w->lites[i])
			return -ENOMEM;
		if (!run->is_jvm_detail)
			continue;
		w->jvm_hists[i] =
			calloc((size_t)w->nr_jvms * STATS_OP_NR, sizeof(*w->jvm_hists[i]));
		if (!w->jvm_hists[i])
			return -ENOMEM;
	}
	if (!w->jvm_rings)
		return -ENOMEM;
	for (uint32_t s = 0; s < w->nr_sds; s++) {
		const struct eng_wsd *d = &w->sds[s];
		const struct eng_sd_desc *sd = &run->sds[d->run_sd];
		struct eng_jvm_ring *q = &w->jvm_rings[s];
		uint32_t per = sd->threads / d->nr_parts, extra = sd->threads % d->nr_parts;
		/* VDbench's numbers of this part's threads start after the parts before it */
		uint64_t first = sd->first_thread + (uint64_t)d->part * per +
				 (d->part < extra ? d->part : extra);

		q->cap = sd->is_serial ? sd->threads : d->threads;
		if (w->is_jvm_even) { /* the SD's slaves, each once, in the order of its threads */
			q->cap = sd->threads < w->nr_jvms ? sd->threads : w->nr_jvms;
			first = sd->first_thread;
		}
		if (!q->cap)
			continue;
		q->free = calloc(q->cap, sizeof(*q->free));
		if (!q->free)
			return -ENOMEM;
		for (uint32_t t = 0; t < q->cap; t++)
			q->free[t] = (uint8_t)plan_jvm_of_thread(first, t, w->nr_jvms);
	}
	return 0;
}

void eng_jvm_fini(struct eng_worker *w)
{
	for (uint32_t s = 0; w->jvm_rings && s < w->nr_sds; s++)
		free(w->jvm_rings[s].free);
	free(w->jvm_rings);
	w->jvm_rings = NULL;
	for (int i = 0; i < 3; i++) {
		free(w->lites[i]);
		w->lites[i] = NULL;
		free(w->jvm_hists[i]);
		w->jvm_hists[i] = NULL;
	}
	w->lite = NULL;
	w->jvm_hist = NULL;
	w->nr_jvms = 0;
	w->is_jvm_even = false;
}

static inline void give(struct eng_jvm_ring *q, uint8_t jvm)
{
	q->free[q->tail] = jvm;
	q->tail = q->tail + 1 == q->cap ? 0 : q->tail + 1;
}

void eng_jvm_take(struct eng_worker *w, uint32_t nr)
{
	struct eng_jvm_ring *rings = w->jvm_rings;

	for (uint32_t i = 0; i < nr; i++) {
		struct eng_slot *slot = (struct eng_slot *)w->batch[i];
		struct eng_jvm_ring *q = &rings[slot->local_sd];

		if (w->wgs[slot->wg].jvm >= 0) { /* a sequential WD's one slave */
			slot->jvm = (uint8_t)w->wgs[slot->wg].jvm;
			continue;
		}
		slot->jvm = q->free[q->head];
		q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
	}
}

void eng_jvm_done(struct eng_worker *w, struct eng_io *const *done, int nr, uint64_t now_ns)
{
	struct stats_lite *lite = w->lite;
	struct eng_jvm_ring *rings = w->jvm_rings;

	for (int i = 0; i < nr; i++) {
		const struct eng_slot *slot = (const struct eng_slot *)done[i];
		const struct eng_io *io = &slot->io;
		enum stats_op op = io->op == ENG_OP_WRITE ? STATS_OP_WRITE : STATS_OP_READ;
		uint64_t svc_ns = now_ns - slot->submit_ns;

		if (io->result == (int32_t)io->size_bytes) {
			stats_lite_record(&lite[slot->jvm * w->nr_sds + slot->local_sd], op,
					  io->size_bytes, svc_ns);
			if (w->jvm_hist)
				stats_hist_add(&w->jvm_hist[slot->jvm * STATS_OP_NR + op], svc_ns);
		}
		if (!w->is_jvm_even && w->wgs[slot->wg].jvm < 0)
			give(&rings[slot->local_sd], slot->jvm);
	}
}

void eng_jvm_drop(struct eng_worker *w, const struct eng_slot *slot)
{
	if (!w->is_jvm_even && w->wgs[slot->wg].jvm < 0)
		give(&w->jvm_rings[slot->local_sd], slot->jvm);
}

void eng_jvm_switch(struct eng_worker *w, int set, bool is_new)
{
	w->lite = w->lites[set];
	w->jvm_hist = w->jvm_hists[set];
	if (!is_new)
		return;
	memset(w->lite, 0, (size_t)w->nr_jvms * w->nr_sds * sizeof(*w->lite));
	for (uint32_t i = 0; w->jvm_hist && i < w->nr_jvms * STATS_OP_NR; i++)
		stats_hist_reset(&w->jvm_hist[i]);
}
