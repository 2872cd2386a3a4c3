/* Expanding RDs into runs (reference §9.1, §9.9): the for-loops nest in the order written,
 * first outermost; the iorate list is innermost; iorate=curve becomes a max run plus one run
 * per curve point; n% rates take the previous run's observed rate. */
#include "plan_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double default_curve[] = { 10, 50, 70, 80, 90, 100 };

void plan_free(struct plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr_runs; i++) {
		struct plan_run *r = &p->runs[i];

		free(r->name);
		free(r->for_loops);
		free(r->wds);
		free(r->skews);
	}
	free(p->runs);
	free(p);
}

static int add_run(struct plan_builder *b, struct plan_run **out)
{
	struct plan *p = b->plan;

	if (p->nr_runs == b->cap_runs) {
		size_t cap = b->cap_runs ? b->cap_runs * 2 : 16;
		struct plan_run *n;

		if (cap > PLAN_MAX_RUNS)
			return parm_errf(b->err, &b->rd_loc, "rd=%s expands to more than %d runs",
					 b->rd->name, PLAN_MAX_RUNS);
		n = realloc(p->runs, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		p->runs = n;
		b->cap_runs = cap;
	}
	*out = &p->runs[p->nr_runs++];
	memset(*out, 0, sizeof(**out));
	return 0;
}

/* A run as the current loop values describe it; the rate fields are the caller's. */
static int new_run(struct plan_builder *b, const char *name, struct plan_run **out)
{
	struct plan_run *r = NULL;
	int ret = add_run(b, &r);

	if (ret)
		return ret;
	r->rd_idx = b->rd_idx;
	r->name = strdup(name);
	r->ovr = b->ovr;
	r->elapsed_s = b->elapsed_s;
	r->interval_s = b->interval_s;
	r->warmup_s = b->warmup_s;
	r->pause_s = b->rd->pause_s;
	r->stopcurve_ms = b->rd->stopcurve_ms;
	r->base_run = -1;
	r->is_controlled = b->is_controlled;
	r->sd_idx = b->rd->sd_idx;
	r->nr_sd = b->rd->nr_sd;
	r->for_loops = plan_for_loops_text(b);
	r->nr_wds = b->nr_wds;
	r->wds = calloc(b->nr_wds, sizeof(*r->wds));
	r->skews = calloc(b->nr_wds, sizeof(*r->skews));
	if (!r->name || !r->for_loops || !r->wds || !r->skews)
		return -ENOMEM;
	memcpy(r->wds, b->wds, b->nr_wds * sizeof(*r->wds));
	memcpy(r->skews, b->skews, b->nr_wds * sizeof(*r->skews));
	*out = r;
	return 0;
}

static int add_curve(struct plan_builder *b)
{
	const struct parm_rd *rd = b->rd;
	const double *pcts = rd->nr_curve_pcts ? rd->curve_pcts : default_curve;
	size_t nr = rd->nr_curve_pcts ? rd->nr_curve_pcts : IORAMP_ARRAY_SIZE(default_curve);
	struct plan_run *r = NULL;
	int max_idx, ret;

	ret = new_run(b, rd->name, &r);
	if (ret)
		return ret;
	r->rate = PLAN_RATE_CURVE_MAX;
	max_idx = (int)(b->plan->nr_runs - 1);
	for (size_t i = 0; i < nr; i++) {
		char name[160];

		/* VDbench names and computes curve points with whole percents */
		snprintf(name, sizeof(name), "%s_(%d%%)", rd->name, (int)pcts[i]);
		ret = new_run(b, name, &r);
		if (ret)
			return ret;
		r->rate = PLAN_RATE_CURVE_POINT;
		r->pct = (double)(int)pcts[i];
		r->base_run = max_idx;
		r->is_controlled = true;
	}
	return 0;
}

/* The innermost loop: the iorate list. A curve in the list replaces the whole list. */
static int add_rates(struct plan_builder *b)
{
	const struct parm_rd *rd = b->rd;
	struct plan_run *r = NULL;
	int ret;

	if (!rd->nr_rates) { /* a replay without iorate= keeps the trace's own timing */
		ret = new_run(b, rd->name, &r);
		if (!ret) {
			r->rate = PLAN_RATE_FIXED; /* rate_iops 0: as traced */
			r->is_controlled = true;
		}
		return ret;
	}
	for (size_t i = 0; i < rd->nr_rates; i++)
		if (rd->rates[i].kind == PARM_RATE_CURVE)
			return add_curve(b);
	for (size_t i = 0; i < rd->nr_rates; i++) {
		b->rate_idx = i;
		ret = new_run(b, rd->name, &r);
		if (ret)
			return ret;
		switch (rd->rates[i].kind) {
		case PARM_RATE_MAX:
			r->rate = PLAN_RATE_MAX;
			break;
		case PARM_RATE_REL:
			r->rate = PLAN_RATE_REL;
			r->pct = rd->rates[i].value;
			r->base_run = (int)b->plan->nr_runs - 2;
			r->is_controlled = true;
			break;
		default:
			r->rate = rd->is_variable ? PLAN_RATE_VARIABLE : PLAN_RATE_FIXED;
			r->rate_iops = rd->rates[i].value;
			r->is_controlled = true;
			break;
		}
	}
	return 0;
}

static int expand_loops(struct plan_builder *b, size_t level)
{
	const struct parm_rd *rd = b->rd;

	if (level == rd->nr_loops)
		return add_rates(b);
	for (size_t i = 0; i < rd->loops[level].nr; i++) {
		int ret;

		b->loop_pos[level] = i;
		plan_loop_apply(&b->ovr, &rd->loops[level], i);
		ret = expand_loops(b, level + 1);
		if (ret)
			return ret;
	}
	return 0;
}

static int build_rd(struct plan_builder *b)
{
	int ret;

	if (!b->rd->nr_rates && !b->rd->trace)
		return parm_errf(b->err, &b->rd_loc,
				 "rd=%s: iorate= parameter is missing; expected "
				 "iorate=max, iorate=curve or a rate",
				 b->rd->name);
	ret = plan_rd_workloads(b);
	if (!ret)
		ret = plan_rd_times(b);
	if (ret)
		return ret;
	memset(&b->ovr, 0, sizeof(b->ovr));
	b->rate_idx = 0;
	free(b->loop_pos);
	b->loop_pos = calloc(b->rd->nr_loops + 1, sizeof(*b->loop_pos));
	if (!b->loop_pos)
		return -ENOMEM;
	return expand_loops(b, 0);
}

int plan_build(const struct parm_config *cfg, struct plan **out, struct parm_err *err)
{
	struct plan_builder b = { .cfg = cfg, .err = err };
	int ret = 0;

	*out = NULL;
	b.plan = calloc(1, sizeof(*b.plan));
	if (!b.plan)
		return -ENOMEM;
	b.plan->cfg = cfg;
	for (size_t i = 0; i < cfg->nr_rds && !ret; i++) {
		b.rd = &cfg->rds[i];
		b.rd_idx = i;
		b.rd_loc = parm_rd_loc(b.rd);
		ret = build_rd(&b);
	}
	free(b.loop_pos);
	free(b.wds);
	free(b.skews);
	if (ret) {
		if (ret == -ENOMEM)
			parm_errf(err, NULL, "out of memory");
		plan_free(b.plan);
		return ret;
	}
	*out = b.plan;
	return 0;
}

double plan_curve_target(double observed_iops, double pct)
{
	double t = floor(observed_iops * pct / 100.0);
	double step = t > 1000 ? 100 : 10;

	return ceil(t / step) * step;
}
