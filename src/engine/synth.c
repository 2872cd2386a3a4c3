/* trace synth (include/ioramp/synth.h): eng_run_build() on targets made from size= instead of
 * opened luns, then every paced generator of the run (gen_wg and gen_arrival seeded as the
 * workers seed them, schedule.c) merged by arrival time through a binary heap. */
#include "ioramp/synth.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "exec.h"

struct synth_gen {
	struct gen_wg gen;
	struct gen_arrival arr;
	uint64_t next_ns;
	uint32_t sd;
};

struct eng_synth {
	const struct plan *plan;
	struct eng_run run;
	struct eng_target *targets;
	struct synth_gen *gens;
	uint32_t *heap; /* indexes into gens, smallest (next_ns, index) first */
	size_t nr_heap;
	uint64_t run_seconds;
};

static bool heap_less(const struct eng_synth *s, uint32_t a, uint32_t b)
{
	const struct synth_gen *x = &s->gens[a], *y = &s->gens[b];

	return x->next_ns < y->next_ns || (x->next_ns == y->next_ns && a < b);
}

static void heap_down(struct eng_synth *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		uint32_t t;

		if (l < s->nr_heap && heap_less(s, s->heap[l], s->heap[m]))
			m = l;
		if (l + 1 < s->nr_heap && heap_less(s, s->heap[l + 1], s->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
}

static int no_size(const struct parm_sd *sd, struct parm_err *err)
{
	const struct parm_val *v = sd->set.val[PARM_KW_LUN];

	return parm_errf(err, v ? &v->loc : &sd->loc,
			 "sd=%s has no size=; trace synth opens no lun, so it takes every SD's "
			 "size from size=; expected size=N on sd=%s",
			 sd->name, sd->name);
}

/* Targets that are never opened: a /dev/ lun is taken for a block device (its first block
 * stays untouched, as on a real run), anything else for a file. */
static int fake_targets(struct eng_synth *s, const struct plan_run *pr, struct parm_err *err)
{
	const struct parm_config *cfg = s->plan->cfg;

	s->targets = calloc(cfg->nr_sds ? cfg->nr_sds : 1, sizeof(*s->targets));
	if (!s->targets)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	for (size_t i = 0; i < cfg->nr_sds; i++) {
		const struct parm_sd *sd = &cfg->sds[i];
		bool is_used = false;

		for (size_t w = 0; w < pr->nr_wds && !is_used; w++)
			is_used = plan_run_wd_uses_sd(pr, w, i);
		if (is_used && !sd->size_bytes)
			return no_size(sd, err);
		s->targets[i] = (struct eng_target){
			.fd = -1,
			.kind = sd->lun && !strncmp(sd->lun, "/dev/", 5) ? ENG_TARGET_BLOCK
									 : ENG_TARGET_FILE,
			.block_bytes = 512,
			.size_bytes = sd->size_bytes,
		};
	}
	return 0;
}

static int no_schedule(const struct parm_rd *rd, const char *why, struct parm_err *err)
{
	const struct parm_val *v = rd->set.val[PARM_KW_IORATE] ? rd->set.val[PARM_KW_IORATE]
							       : rd->set.val[PARM_KW_IORATE_LIST];

	return parm_errf(err, v ? &v->loc : &rd->loc,
			 "rd=%s: %s has no schedule to synthesize; expected iorate=N, a list of "
			 "rates or distribution=variable pairs",
			 rd->name, why);
}

static int check_run(const struct plan_run *pr, const struct parm_rd *rd, struct parm_err *err)
{
	if (rd->trace)
		return parm_errf(err, &rd->loc,
				 "rd=%s replays trace=%s; expected a workload run (ioramp trace "
				 "convert rewrites a trace)",
				 rd->name, rd->trace);
	switch (pr->rate) {
	case PLAN_RATE_MAX:
		return no_schedule(rd, "iorate=max", err);
	case PLAN_RATE_CURVE_MAX:
	case PLAN_RATE_CURVE_POINT:
		return no_schedule(rd, "iorate=curve (its rates follow the max run's)", err);
	case PLAN_RATE_REL:
		return no_schedule(rd, "a relative iorate= (a share of an observed rate)", err);
	default:
		return 0;
	}
}

static int start_gens(struct eng_synth *s, uint64_t seed)
{
	struct eng_run *r = &s->run;

	r->seed = seed;
	s->gens = calloc(r->nr_wgs ? r->nr_wgs : 1, sizeof(*s->gens));
	s->heap = calloc(r->nr_wgs ? r->nr_wgs : 1, sizeof(*s->heap));
	if (!s->gens || !s->heap)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_wgs; i++) {
		struct synth_gen *g = &s->gens[i];
		struct gen_arrival_cfg ac;
		int ret;

		if (r->wgs[i].rate_iops <= 0)
			continue; /* no share of the rate: the engine never issues it either */
		ret = gen_wg_init(&g->gen, &r->wgs[i].gen, seed, eng_wg_gen_stream(r, i));
		if (ret)
			return ret;
		eng_wg_arrival_cfg(r, i, 0, &ac);
		ret = gen_arrival_init(&g->arr, &ac, seed, eng_wg_arrival_stream(r, i));
		if (ret)
			return ret;
		g->next_ns = gen_arrival_next(&g->arr);
		g->sd = (uint32_t)r->sds[r->wgs[i].run_sd].cfg_idx;
		if (g->next_ns != UINT64_MAX)
			s->heap[s->nr_heap++] = (uint32_t)i;
	}
	for (size_t i = s->nr_heap / 2; i-- > 0;)
		heap_down(s, i);
	return 0;
}

int eng_synth_new(struct eng_synth **out, const struct plan *plan, size_t run_idx, uint64_t seed,
		  struct parm_err *err)
{
	const struct plan_run *pr = &plan->runs[run_idx];
	const struct parm_rd *rd = &plan->cfg->rds[pr->rd_idx];
	struct eng_synth *s = calloc(1, sizeof(*s));
	struct eng_run_src src = { .plan = plan, .run_idx = run_idx };
	int ret;

	*out = NULL;
	if (!s)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	s->plan = plan;
	s->run_seconds = pr->elapsed_s + pr->warmup_s;
	ret = check_run(pr, rd, err);
	if (!ret)
		ret = fake_targets(s, pr, err);
	if (!ret) {
		src.targets = s->targets;
		ret = eng_run_build(&s->run, &src, err);
	}
	if (!ret && s->run.mode != ENG_MODE_RATE)
		ret = no_schedule(rd, "a run without a rate", err);
	if (!ret) {
		ret = start_gens(s, seed);
		if (ret == -EINVAL)
			parm_errf(err, &rd->loc,
				  "rd=%s: a workload's generator refuses its settings", rd->name);
		else if (ret)
			parm_errf(err, NULL, "out of memory");
	}
	if (ret) {
		eng_synth_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

int eng_synth_next(struct eng_synth *s, struct eng_synth_io *io)
{
	while (s->nr_heap) {
		uint32_t i = s->heap[0];
		struct synth_gen *g = &s->gens[i];
		struct gen_io gio;

		if (gen_wg_next(&g->gen, &gio)) { /* seekpct=eof: this generator is done */
			s->heap[0] = s->heap[--s->nr_heap];
			heap_down(s, 0);
			continue;
		}
		io->time_ns = g->next_ns;
		io->offset_bytes = gio.offset_bytes;
		io->size_bytes = (uint32_t)gio.size_bytes;
		io->sd = g->sd;
		io->is_write = gio.is_write;
		g->next_ns = gen_arrival_next(&g->arr);
		if (g->next_ns == UINT64_MAX)
			s->heap[0] = s->heap[--s->nr_heap];
		heap_down(s, 0);
		return 1;
	}
	return 0;
}

uint64_t eng_synth_run_seconds(const struct eng_synth *s)
{
	return s->run_seconds;
}

void eng_synth_free(struct eng_synth *s)
{
	if (!s)
		return;
	eng_run_fini(&s->run);
	free(s->targets);
	free(s->gens);
	free(s->heap);
	free(s);
}
