/* The model backend (model.h): each file is a modelled drive. An I/O's completion time is known
 * when it is submitted (FIFO over identical units: it starts on the unit that frees first), so
 * a drive is a min-heap of its units' free times, the backend a min-heap of in-flight I/Os by
 * completion time; reap hands back those due and otherwise sleeps on the run's virtual clock
 * until the next one. Nothing is read or written. Submit and reap allocate nothing. */
#include "model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "ioramp/gen.h"

enum {
	DESTAGE_MAX = 1 << 20, /* most writes one cache holds at once (else it counts as full) */
};

/* A heap entry: a time and what it is for. */
struct model_ev {
	uint64_t at_ns;
	union {
		struct eng_io *io; /* in flight: completes at at_ns */
		uint64_t bytes;	   /* a destage: its bytes leave the cache at at_ns */
	};
};

struct model_drive {
	/* A unit that served a job has its free time in a min-heap (one whose time has passed is
	 * idle: time only moves forward, and a job takes any of them at its arrival); the units
	 * never used yet are only counted. */
	uint64_t *unit_free_ns; /* min-heap of the used units' free times */
	uint32_t nr_used;
	uint32_t nr_unused;
	struct model_ev *destage; /* min-heap of cache destages */
	uint32_t nr_destage;
	uint32_t cap_destage;
	uint64_t dirty_bytes;
	uint64_t last_destage_ns; /* the latest destage completion queued: fsync waits for it */
	struct gen_pcg rng;
};

struct model_backend {
	struct eng_backend base;
	struct eng_model m;
	struct model_drive *drives;
	uint32_t nr_drives;
	struct model_ev *inflight; /* min-heap by completion time */
	uint32_t nr_inflight;
	uint32_t depth;
	uint64_t cache_bytes;
	uint64_t cache_ns;
	/* per op (read, write): the mean service of the last size served (most runs have one) */
	uint64_t mean_size[2];
	double mean_ns[2];
	struct eng_sleeper *sleeper;
	const struct eng_clock *clock;
};

extern const struct eng_backend_ops eng_backend_model;

static struct model_backend *to_model(struct eng_backend *be)
{
	return (struct model_backend *)be;
}

/* ---- heaps ---------------------------------------------------------------------------------- */

/* Binary min-heaps by time. A pop moves the hole down the smaller children to the bottom, then
 * the last entry up into it (Floyd): one comparison a level instead of two, and the last entry,
 * one of the latest, rarely climbs far. Equal times leave in no set order: nothing a run
 * reports depends on it (the I/Os due at one time are counted together). */
static void ev_push(struct model_ev *h, uint32_t *nr, struct model_ev e)
{
	uint32_t i = (*nr)++;

	while (i) {
		uint32_t parent = (i - 1) / 2;

		if (h[parent].at_ns <= e.at_ns)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = e;
}

static struct model_ev ev_pop(struct model_ev *h, uint32_t *nr)
{
	struct model_ev top = h[0], last = h[--*nr];
	uint32_t n = *nr, i = 0, c;

	while ((c = 2 * i + 1) + 1 < n) {
		c += h[c + 1].at_ns < h[c].at_ns;
		h[i] = h[c];
		i = c;
	}
	if (c < n) {
		h[i] = h[c];
		i = c;
	}
	ev_push(h, &i, last); /* up from the hole at i (the heap is h[0, i) plus it) */
	return top;
}

/* The root of a heap of n free times becomes t: down the hole to the bottom and back up, as
 * ev_pop. */
static void unit_replace_top(uint64_t *h, uint32_t n, uint64_t t)
{
	uint32_t i = 0, c;

	while ((c = 2 * i + 1) + 1 < n) {
		c += h[c + 1] < h[c];
		h[i] = h[c];
		i = c;
	}
	if (c < n) {
		h[i] = h[c];
		i = c;
	}
	while (i && h[(i - 1) / 2] > t) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = t;
}

static void unit_push(uint64_t *h, uint32_t *nr, uint64_t free_ns)
{
	uint32_t i = (*nr)++;

	while (i && h[(i - 1) / 2] > free_ns) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = free_ns;
}

/* The unit that frees first serves a job arriving at now_ns (never earlier than the last
 * call's) for svc_ns: its completion. A unit never used starts it at once; else the earliest
 * free time in the heap: a unit idle by now (its time passed: it starts now) or the busy one
 * that frees first. A unit idle again keeps its past free time in the heap, so the heap only
 * ever changes at its root (one sift instead of a pop per unit freed and a push). */
static uint64_t unit_take(struct model_drive *d, uint64_t now_ns, uint64_t svc_ns)
{
	uint64_t *h = d->unit_free_ns;
	uint64_t done;

	if (d->nr_unused) {
		d->nr_unused--;
		done = now_ns + svc_ns;
		unit_push(h, &d->nr_used, done);
		return done;
	}
	done = (h[0] > now_ns ? h[0] : now_ns) + svc_ns;
	unit_replace_top(h, d->nr_used, done);
	return done;
}

/* ---- the drive ------------------------------------------------------------------------------ */

/* llround() of a mean >= 0 without the library call: the integer part, plus one when the
 * fraction (exact: x minus its integer part) is a half or more, as llround rounds halves up. */
static uint64_t round_ns(double x)
{
	uint64_t i = (uint64_t)x;

	return i + (x - (double)i >= 0.5);
}

static uint64_t service_ns(struct model_backend *mb, struct model_drive *d, bool is_write,
			   uint32_t size_bytes)
{
	double mean;

	if (size_bytes != mb->mean_size[is_write]) {
		mb->mean_size[is_write] = size_bytes;
		mb->mean_ns[is_write] = eng_model_mean_ns(&mb->m, is_write, size_bytes);
	}
	mean = mb->mean_ns[is_write];

	if (mb->m.dist == ENG_MODEL_EXP) /* 1 - u lies in (0, 1]: the logarithm is finite */
		mean *= -log1p(-gen_pcg_unit(&d->rng));
	return round_ns(mean);
}

/* Destages done by now_ns leave the cache. */
static void cache_settle(struct model_drive *d, uint64_t now_ns)
{
	while (d->nr_destage && d->destage[0].at_ns <= now_ns)
		d->dirty_bytes -= ev_pop(d->destage, &d->nr_destage).bytes;
}

/* When io, arriving now, completes on its drive. */
static uint64_t drive_serve(struct model_backend *mb, struct model_drive *d,
			    const struct eng_io *io, uint64_t now_ns)
{
	bool is_write = io->op == ENG_OP_WRITE;

	cache_settle(d, now_ns);
	if (io->op == ENG_OP_FSYNC)
		return d->last_destage_ns > now_ns ? d->last_destage_ns : now_ns;
	if (is_write && mb->cache_bytes && d->dirty_bytes + io->size_bytes <= mb->cache_bytes &&
	    d->nr_destage < d->cap_destage) {
		struct model_ev e;

		e.at_ns = unit_take(d, now_ns, service_ns(mb, d, true, io->size_bytes));
		e.bytes = io->size_bytes;
		ev_push(d->destage, &d->nr_destage, e);
		d->dirty_bytes += io->size_bytes;
		if (e.at_ns > d->last_destage_ns)
			d->last_destage_ns = e.at_ns;
		return now_ns + mb->cache_ns;
	}
	return unit_take(d, now_ns, service_ns(mb, d, is_write, io->size_bytes));
}

/* ---- the backend ---------------------------------------------------------------------------- */

static void model_free(struct model_backend *mb)
{
	for (uint32_t i = 0; mb->drives && i < mb->nr_drives; i++) {
		free(mb->drives[i].unit_free_ns);
		free(mb->drives[i].destage);
	}
	free(mb->drives);
	free(mb->inflight);
	free(mb);
}

static int drive_init(struct model_backend *mb, struct model_drive *d, uint64_t seed,
		      uint64_t stream)
{
	d->unit_free_ns = calloc(mb->m.units, sizeof(*d->unit_free_ns));
	if (!d->unit_free_ns)
		return -ENOMEM;
	d->nr_unused = mb->m.units;
	if (mb->cache_bytes) {
		uint64_t cap = mb->cache_bytes / 512 + 1;

		d->cap_destage = cap < DESTAGE_MAX ? (uint32_t)cap : DESTAGE_MAX;
		d->destage = calloc(d->cap_destage, sizeof(*d->destage));
		if (!d->destage)
			return -ENOMEM;
	}
	gen_pcg_seed(&d->rng, seed, stream);
	return 0;
}

int eng_model_open(const struct eng_model *m, const struct eng_backend_cfg *cfg,
		   struct eng_backend **out)
{
	struct model_backend *mb;
	int ret = 0;

	if (cfg->depth == 0 || cfg->nr_files == 0 || m->units == 0 || !cfg->sleeper ||
	    !cfg->sleeper->clock || !cfg->sleeper->clock->is_virtual)
		return -EINVAL; /* a model only runs in virtual time */
	mb = calloc(1, sizeof(*mb));
	if (!mb)
		return -ENOMEM;
	mb->m = *m;
	mb->depth = cfg->depth;
	mb->cache_bytes = (uint64_t)(m->cache_mb * 1048576.0);
	mb->cache_ns = (uint64_t)llround(m->cache_us * 1000.0);
	for (int op = 0; op < 2; op++) {
		mb->mean_size[op] = 4096;
		mb->mean_ns[op] = eng_model_mean_ns(m, op, 4096);
	}
	mb->sleeper = cfg->sleeper;
	mb->clock = cfg->sleeper->clock;
	mb->nr_drives = cfg->nr_files;
	mb->drives = calloc(cfg->nr_files, sizeof(*mb->drives));
	mb->inflight = calloc(cfg->depth, sizeof(*mb->inflight));
	if (!mb->drives || !mb->inflight)
		ret = -ENOMEM;
	for (uint32_t i = 0; !ret && i < cfg->nr_files; i++)
		ret = drive_init(mb, &mb->drives[i], cfg->seed, cfg->files[i].stream);
	if (ret) {
		model_free(mb);
		return ret;
	}
	mb->base.ops = &eng_backend_model;
	snprintf(mb->base.desc, sizeof(mb->base.desc), "model: %u drives of %u units",
		 mb->nr_drives, m->units);
	*out = &mb->base;
	return 0;
}

/* The plain vtable open has no drive to model: only eng_model_open() opens one. */
static int model_open(const struct eng_backend_cfg *cfg, struct eng_backend **out)
{
	(void)cfg;
	(void)out;
	return -EINVAL;
}

static int model_submit(struct eng_backend *be, struct eng_io *const *ios, uint32_t nr)
{
	struct model_backend *mb = to_model(be);
	uint64_t now_ns = eng_clock_now(mb->clock);

	if (nr > mb->depth - mb->nr_inflight)
		nr = mb->depth - mb->nr_inflight;
	for (uint32_t i = 0; i < nr; i++) {
		struct eng_io *io = ios[i];
		struct model_ev e;

		io->result = io->op == ENG_OP_FSYNC ? 0 : (int32_t)io->size_bytes;
		e.at_ns = drive_serve(mb, &mb->drives[io->file_idx], io, now_ns);
		e.io = io;
		ev_push(mb->inflight, &mb->nr_inflight, e);
	}
	return (int)nr;
}

static uint32_t take_due(struct model_backend *mb, struct eng_io **done, uint32_t max,
			 uint64_t now_ns)
{
	uint32_t n = 0;

	while (n < max && mb->nr_inflight && mb->inflight[0].at_ns <= now_ns)
		done[n++] = ev_pop(mb->inflight, &mb->nr_inflight).io;
	return n;
}

static int model_reap(struct eng_backend *be, struct eng_io **done, uint32_t max,
		      uint64_t deadline_ns)
{
	struct model_backend *mb = to_model(be);
	uint32_t n = take_due(mb, done, max, eng_clock_now(mb->clock));
	uint64_t wake;

	if (n || deadline_ns == 0 || max == 0)
		return (int)n;
	if (!mb->nr_inflight && deadline_ns == UINT64_MAX)
		return 0;
	wake = mb->nr_inflight && mb->inflight[0].at_ns < deadline_ns ? mb->inflight[0].at_ns
								      : deadline_ns;
	eng_sleeper_until(mb->sleeper, wake);
	return (int)take_due(mb, done, max, eng_clock_now(mb->clock));
}

/* In-flight I/Os are the worker's again; nothing runs on a model. */
static void model_close(struct eng_backend *be)
{
	if (be)
		model_free(to_model(be));
}

const struct eng_backend_ops eng_backend_model = {
	.name = "model",
	.open = model_open,
	.submit = model_submit,
	.reap = model_reap,
	.close = model_close,
};
