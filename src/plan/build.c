/* Expanding RDs into runs (reference §9.1, §9.9; tests/parm/FINDINGS.md §1.3): the for-loops
 * nest in the order written, first outermost; the iorate list is innermost; iorate=curve becomes
 * a max run plus one run per curve point; n% rates take the previous run's observed rate. A run
 * at rate 0 (no iorate=, iorate=0, a curve point below 1%) is VDbench's late error. */
#include "plan_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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
		free(r->sd_idx);
		free(r->sds);
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

		if (p->nr_runs >= PLAN_MAX_RUNS)
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

static void *dup_mem(const void *src, size_t bytes)
{
	void *d = malloc(bytes ? bytes : 1);

	if (d && bytes)
		memcpy(d, src, bytes);
	return d;
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
	r->below_zero_warmup_s = b->below_zero_warmup_s;
	r->pause_s = b->rd->pause_s > 0 ? (uint64_t)b->rd->pause_s : 0;
	r->stopcurve_ms = b->rd->stopcurve_ms;
	r->base_run = -1;
	r->is_controlled = b->is_controlled;
	r->for_loops = plan_for_loops_text(b);
	r->nr_wds = b->nr_wds;
	r->wds = dup_mem(b->wds, b->nr_wds * sizeof(*r->wds));
	r->skews = dup_mem(b->skews, b->nr_wds * sizeof(*r->skews));
	if (b->sd_idx) {
		b->nr_sd_entries += b->nr_sd;
		if (b->nr_sd_entries > PLAN_MAX_SD_ENTRIES)
			return parm_errf(b->err, &b->rd_loc,
					 "rd=%s: the runs name more than %d SDs in all; expected "
					 "fewer runs or SDs",
					 b->rd->name, PLAN_MAX_SD_ENTRIES);
		r->sd_idx = dup_mem(b->sd_idx, b->nr_sd * sizeof(*r->sd_idx));
		r->nr_sd = b->nr_sd;
	}
	if (!r->name || !r->for_loops || !r->wds || !r->skews || (b->sd_idx && !r->sd_idx))
		return -ENOMEM;
	if (plan_run_resolve(b->cfg, r))
		return -ENOMEM;
	*out = r;
	return 0;
}

/* The first run at rate 0 stops the -s listing ([203-205], [216], [265]). */
static void note_zero_rate(struct plan_builder *b, const struct plan_run *r, double rate)
{
	struct plan *p = b->plan;
	const struct parm_val *v = b->rd->set.val[PARM_KW_IORATE];

	if (rate != 0 || p->has_late_err)
		return;
	p->has_late_err = true;
	p->late_idx = (size_t)(r - p->runs);
	if (r->rate == PLAN_RATE_CURVE_POINT)
		parm_errf(&p->late_err, &b->rd_loc,
			  "rd=%s: curve point %s is below 1%% and gives run %s no rate; expected "
			  "curve points of 1 or more",
			  b->rd->name, strrchr(r->name, '('), r->name);
	else
		parm_errf(&p->late_err, v ? &v->loc : &b->rd_loc,
			  "rd=%s: iorate= parameter is missing or zero for run %s; expected "
			  "iorate=max, curve or a rate above 0",
			  b->rd->name, r->name);
}

static int add_curve(struct plan_builder *b)
{
	const struct parm_rd *rd = b->rd;
	const double *pcts = rd->has_curve ? rd->curve_pcts : default_curve;
	size_t nr = rd->has_curve ? rd->nr_curve_pcts : IORAMP_ARRAY_SIZE(default_curve);
	struct plan_run *r = NULL;
	int max_idx, ret;

	ret = new_run(b, b->run_name, &r);
	if (ret)
		return ret;
	r->rate = PLAN_RATE_CURVE_MAX;
	max_idx = (int)(b->plan->nr_runs - 1);
	for (size_t i = 0; i < nr; i++) {
		/* VDbench names and computes curve points with whole percents ([215]) */
		double pct = trunc(fmax(fmin(pcts[i], 1e12), -1e12)) + 0.0; /* no "-0" */
		char name[1200];

		snprintf(name, sizeof(name), "%s_(%.0f%%)", b->run_name, pct);
		ret = new_run(b, name, &r);
		if (ret)
			return ret;
		r->is_controlled = true;
		if (pcts[i] < 0) { /* "P%" is -P: a point of P I/Os per second (observed:
				    * curve=(20%) runs rd1_(-20%) at 20, (0.5%) rd1_(0%) at 0.5) */
			r->rate = PLAN_RATE_FIXED;
			r->rate_iops = fmin(-pcts[i], 1e12);
			continue;
		}
		r->rate = PLAN_RATE_CURVE_POINT;
		r->pct = pct;
		r->base_run = max_idx;
		note_zero_rate(b, r, plan_simulated_rate(pct));
	}
	return 0;
}

static void set_rate(struct plan_builder *b, struct plan_run *r, const struct parm_rate *rate)
{
	switch (rate->kind) {
	case PARM_RATE_MAX:
		r->rate = PLAN_RATE_MAX;
		break;
	case PARM_RATE_REL:
		r->rate = PLAN_RATE_REL;
		r->pct = rate->value;
		r->base_run = (int)b->plan->nr_runs - 2;
		r->is_controlled = true;
		break;
	default:
		r->rate = PLAN_RATE_FIXED;
		r->rate_iops = rate->value;
		r->is_controlled = true;
		note_zero_rate(b, r, rate->value);
		break;
	}
}

/* The innermost loop: the iorate list, a curve, a variable rate list, or a missing rate. */
static int add_rates(struct plan_builder *b)
{
	const struct parm_rd *rd = b->rd;
	struct plan_run *r;
	int ret;

	if (rd->is_variable || rd->is_spike || !rd->nr_rates) {
		ret = new_run(b, b->run_name, &r);
		if (ret)
			return ret;
		r->rate = rd->nr_rates ? PLAN_RATE_VARIABLE : PLAN_RATE_FIXED;
		r->rate_iops = rd->nr_rates ? rd->rates[0].value : 0;
		r->is_controlled = true;
		if (!rd->nr_rates && !rd->trace) /* a replay keeps the trace's own timing */
			note_zero_rate(b, r, 0);
		return 0;
	}
	if (rd->nr_rates == 1 && rd->rates[0].kind == PARM_RATE_CURVE)
		return add_curve(b);
	for (size_t i = 0; i < rd->nr_rates; i++) {
		b->rate_idx = i;
		ret = new_run(b, b->run_name, &r);
		if (ret)
			return ret;
		set_rate(b, r, &rd->rates[i]);
	}
	return 0;
}

int plan_expand_loops(struct plan_builder *b, size_t level)
{
	const struct parm_rd *rd = b->rd;

	if (level == rd->nr_loops)
		return add_rates(b);
	for (size_t i = 0; i < rd->loops[level].nr; i++) {
		int ret;

		b->loop_pos[level] = i;
		plan_loop_apply(&b->ovr, &rd->loops[level], i);
		ret = plan_expand_loops(b, level + 1);
		if (ret)
			return ret;
	}
	return 0;
}

static int build_rd(struct plan_builder *b)
{
	int ret = plan_rd_workloads(b);

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
	return plan_rd_groups(b);
}

int plan_restart_at(const struct parm_config *cfg, size_t nr,
		    const char *(*name_of)(const struct parm_config *cfg, size_t i), size_t *first,
		    struct parm_err *err)
{
	const char *want = cfg->overrides.restart_rd;
	char list[512] = "";
	size_t len = 0;

	*first = 0;
	if (!want)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(name_of(cfg, i), want)) {
			*first = i;
			return 0;
		}
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						i ? ", " : "", name_of(cfg, i));
	}
	return parm_errf(err, NULL, "-r %s: no rd=%s in the parameter files; expected one of %s",
			 want, want, nr ? list : "(none)");
}

static const char *raw_rd_name(const struct parm_config *cfg, size_t i)
{
	return cfg->rds[i].name;
}

int plan_build(const struct parm_config *cfg, struct plan **out, struct parm_err *err)
{
	struct plan_builder b = { .cfg = cfg, .err = err };
	size_t first;
	int ret = plan_restart_at(cfg, cfg->nr_rds, raw_rd_name, &first, err);

	*out = NULL;
	if (ret)
		return ret;
	b.plan = calloc(1, sizeof(*b.plan));
	if (!b.plan)
		return -ENOMEM;
	b.plan->cfg = cfg;
	for (size_t i = first; i < cfg->nr_rds && !ret; i++) {
		b.rd = &cfg->rds[i];
		b.rd_idx = i;
		b.rd_loc = b.rd->loc;
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

uint64_t plan_loop_count(const struct parm_config *cfg, uint64_t *for_ns)
{
	const struct parm_val *v = cfg->general.set.val[PARM_KW_LOOP];
	const char *loop = cfg->overrides.loop;
	char *end;
	double n;

	*for_ns = 0;
	if (!loop && v && v->kind == PARM_VAL_WORD)
		loop = v->text;
	if (!loop)
		return 1;
	if (!*loop)
		return UINT64_MAX;
	n = strtod(loop, &end);
	if (end == loop || !(n >= 0) || (*end && end[1]))
		return 1;
	switch (*end) {
	case '\0':
		return n >= 1 ? (uint64_t)n : 1;
	case 's':
	case 'm':
	case 'h':
		*for_ns = (uint64_t)(n * (*end == 's' ? 1 : *end == 'm' ? 60 : 3600) * 1e9);
		return UINT64_MAX;
	default:
		return 1;
	}
}

double plan_simulated_rate(double pct)
{
	return trunc(pct) * PLAN_SIMULATED_MAX_IOPS / 100.0;
}
