/* The workload generators as an arrival source (engine_int.h): open-loop arrivals on each
 * generator's absolute schedule (a late I/O keeps its scheduled time, so the wait for a thread
 * is in its response time), and at max a fresh draw from a generator picked by weight whenever
 * a thread frees. */
#include "engine_int.h"

/* Generator i's next I/O into *p, stamped arrival_ns. False at the end of its range (eof=, a
 * sequential workload's end): it is done. */
static inline bool next_io(struct eng_worker *w, uint32_t i, uint64_t arrival_ns,
			   struct eng_pending *p)
{
	struct eng_wwg *g = &w->wgs[i];
	struct gen_io io;

	if (gen_wg_next(&g->gen, &io)) {
		g->is_eof = true;
		w->nr_eof++;
		return false;
	}
	p->arrival_ns = arrival_ns;
	p->offset_bytes = io.offset_bytes;
	p->size_bytes = (uint32_t)io.size_bytes;
	p->wg = (uint16_t)i;
	p->is_write = io.is_write;
	return true;
}

/* Whether generator g has an arrival due by now_ns and room in its SD's queue of its
 * priority. Each priority= level has its own queue of ENG_SDQ_LIMIT, as VDbench has a fifo per
 * priority: a lower priority's full queue (its WD asked for more than the drive takes) holds
 * back only its own generators, so a higher-priority WD's fixed iorate= still arrives on time
 * and, served first, keeps its rate at saturation (VDbench 5.04.07 keeps a priority=1 WD's
 * iorate=3000 at 3,008 IOPS under rd iorate=5000000). Without priority= every WD shares level
 * 0, and a full SD stalls them all, which keeps skew. */
static bool is_due(const struct eng_worker *w, const struct eng_wwg *g, uint64_t now_ns)
{
	return g->is_paced && !g->is_eof && g->next_ns <= now_ns &&
	       w->sds[g->local_sd].q[w->run->wgs[g->run_wg].prio].nr < ENG_SDQ_LIMIT;
}

/* The due generator whose arrival comes first (equal times: the lowest index), and in *after
 * the index of the one due next after it, or UINT32_MAX for none. */
static uint32_t first_due(const struct eng_worker *w, uint64_t now_ns, uint32_t *after)
{
	uint32_t best = UINT32_MAX;

	*after = UINT32_MAX;
	for (uint32_t i = 0; i < w->nr_wgs; i++) {
		if (!is_due(w, &w->wgs[i], now_ns))
			continue;
		if (best == UINT32_MAX || w->wgs[i].next_ns < w->wgs[best].next_ns) {
			*after = best;
			best = i;
		} else if (*after == UINT32_MAX || w->wgs[i].next_ns < w->wgs[*after].next_ns) {
			*after = i;
		}
	}
	return best;
}

/* Whether g's next arrival still comes before that of generator `after` (ties: lower index). */
static bool is_before(const struct eng_worker *w, uint32_t g, uint32_t after)
{
	return after == UINT32_MAX || w->wgs[g].next_ns < w->wgs[after].next_ns ||
	       (w->wgs[g].next_ns == w->wgs[after].next_ns && g < after);
}

/* Releases generator i's due arrivals while they come before those of `after`. Returns false
 * when its SD's queue is full. */
static bool release_run(struct eng_worker *w, uint32_t i, uint32_t after, uint64_t now_ns)
{
	struct eng_wwg *g = &w->wgs[i];
	struct eng_wsd *d = &w->sds[g->local_sd];
	struct eng_ring *q = &d->q[w->run->wgs[g->run_wg].prio];

	while (is_due(w, g, now_ns) && is_before(w, i, after)) {
		struct eng_pending p;

		if (!next_io(w, i, g->next_ns, &p))
			return true;
		if (!eng_ring_push(q, &p))
			return false;
		d->nr_pending++;
		eng_wsd_ready(w, g->local_sd);
		g->next_ns = gen_arrival_next(&g->arr);
	}
	return true;
}

/* Every arrival that is due joins its SD's queue with its scheduled time, in scheduled order
 * over all generators, as VDbench's waiter merges them (reference §0): each SD's queue is then
 * in time order, which --record relies on (a late worker used to queue one generator's due
 * arrivals before an earlier one of another). A pass with none due (a completion's) costs one
 * comparison: next_arrival_ns is the earliest of them. */
static void paced_release(struct eng_worker *w, uint64_t now_ns)
{
	uint64_t next = UINT64_MAX;
	uint32_t i, after;

	if (now_ns < w->next_arrival_ns)
		return;
	while ((i = first_due(w, now_ns, &after)) != UINT32_MAX)
		if (!release_run(w, i, after, now_ns))
			break;
	for (i = 0; i < w->nr_wgs; i++) {
		const struct eng_wwg *g = &w->wgs[i];

		/* a generator held back (a full queue) keeps the next pass looking at once */
		if (g->is_paced && !g->is_eof && g->next_ns < next)
			next = g->next_ns;
	}
	w->next_arrival_ns = next;
}

bool eng_arrivals_no_draw(struct eng_worker *w, struct eng_wsd *d, uint64_t now_ns,
			  struct eng_pending *p)
{
	(void)w;
	(void)d;
	(void)now_ns;
	(void)p;
	return false;
}

static bool is_drawable(const struct eng_wwg *g)
{
	return !g->is_eof && !g->is_paced;
}

/* The local generator of d (two or more) to draw from at max: picked by weight, then the next
 * one when that one is paced (its own iorate=) or at its end; UINT32_MAX when none can. */
static uint32_t weighted_pick(struct eng_worker *w, struct eng_wsd *d)
{
	double total = d->cum_weight[d->nr_wgs - 1], x;
	uint32_t k = 0, i;

	if (!(total > 0))
		return UINT32_MAX;
	x = gen_pcg_unit(&d->pick) * total;
	while (k + 1 < d->nr_wgs && x >= d->cum_weight[k])
		k++;
	i = d->wgs[k];
	for (uint32_t j = 0; !is_drawable(&w->wgs[i]) && j < d->nr_wgs; j++)
		i = d->wgs[(k + j) % d->nr_wgs];
	return is_drawable(&w->wgs[i]) ? i : UINT32_MAX;
}

/* Max, two or more generators: the next I/O of one picked by weight, at once; another pick when
 * the one picked reaches its end. */
static __attribute__((noinline)) bool weighted_draw(struct eng_worker *w, struct eng_wsd *d,
						    uint64_t now_ns, struct eng_pending *p)
{
	for (uint32_t tries = 0; tries < d->nr_wgs; tries++) {
		uint32_t i = weighted_pick(w, d);

		if (i == UINT32_MAX)
			return false;
		if (next_io(w, i, now_ns, p))
			return true;
	}
	return false;
}

/* Max: the next I/O of d at once. One generator needs no pick (its stream is its own) and no
 * loop: the null engine's hot path, with the pick out of line (no registers to save for it). */
static bool max_draw(struct eng_worker *w, struct eng_wsd *d, uint64_t now_ns,
		     struct eng_pending *p)
{
	if (d->nr_wgs == 1)
		return is_drawable(&w->wgs[d->wgs[0]]) && d->cum_weight[0] > 0 &&
		       next_io(w, d->wgs[0], now_ns, p);
	return weighted_draw(w, d, now_ns, p);
}

/* The next scheduled arrival of an SD with a free thread (a full SD does not need it: the
 * I/O keeps its scheduled time anyway). */
static uint64_t paced_next_due(const struct eng_worker *w, uint64_t now_ns, uint64_t dl_ns)
{
	(void)now_ns;
	if (w->next_arrival_ns >= dl_ns)
		return dl_ns;
	for (uint32_t i = 0; i < w->nr_wgs; i++) {
		const struct eng_wwg *g = &w->wgs[i];
		const struct eng_wsd *d = &w->sds[g->local_sd];

		if (g->is_paced && !g->is_eof && g->next_ns < dl_ns && d->inflight < d->threads)
			dl_ns = g->next_ns;
	}
	return dl_ns;
}

/* Arrivals not released yet are all in the future: none is older than now. */
static uint64_t paced_oldest(const struct eng_worker *w, uint64_t oldest_ns)
{
	(void)w;
	return oldest_ns;
}

const struct eng_arrivals eng_arrivals_rate = {
	.release = paced_release,
	.draw = eng_arrivals_no_draw, /* at a rate every generator is paced */
	.next_due = paced_next_due,
	.oldest = paced_oldest,
};

/* Max with no generator paced: nothing is ever released or due. */
static void drawn_release(struct eng_worker *w, uint64_t now_ns)
{
	(void)w;
	(void)now_ns;
}

static uint64_t drawn_next_due(const struct eng_worker *w, uint64_t now_ns, uint64_t dl_ns)
{
	(void)w;
	(void)now_ns;
	return dl_ns;
}

const struct eng_arrivals eng_arrivals_drawn = {
	.release = drawn_release,
	.draw = max_draw,
	.next_due = drawn_next_due,
	.oldest = paced_oldest,
};

const struct eng_arrivals eng_arrivals_max = {
	.release = paced_release,
	.draw = max_draw,
	.next_due = paced_next_due,
	.oldest = paced_oldest,
};
