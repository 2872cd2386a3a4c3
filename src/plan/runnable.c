/* What a real run needs beyond what VDbench 5.04.07 checks with -s: -s lists negative loop values
 * shown as N% ([074]); VDbench fails on them once the run starts, ioramp refuses them before any
 * I/O with an error at the value. What VDbench runs, ioramp runs: a WD xfersize that is not a
 * multiple of 512 on a file ([085]; sd_open.c refuses it under O_DIRECT, validate_exec.c with data
 * validation), read/hit percentages outside 0..100, which run as 0 or 100 ([230], [254];
 * run_build.c clamps them), and seek percentages above 100 (random) or below 0 (eof). A skew
 * outside 0..100 -s lists ([281]) is refused. */
#include "plan_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

static bool loop_value_ok(enum parm_kw kw, double v)
{
	switch (kw) {
	case PARM_KW_FORRDPCT: /* any value: clamped to 0..100 as VDbench runs it */
	case PARM_KW_FORRHPCT:
	case PARM_KW_FORWHPCT:
		return true;
	case PARM_KW_FORSEEKPCT: /* above 100: random; below 0: eof, as VDbench runs it */
		return true;
	case PARM_KW_FORXFERSIZE:
		return v > 0;
	default:
		return v >= 0;
	}
}

static const char *loop_expected(enum parm_kw kw)
{
	switch (kw) {
	case PARM_KW_FORXFERSIZE:
		return "a size above 0";
	default:
		return "0 or more";
	}
}

static int check_loops(const struct parm_rd *rd, struct parm_err *err)
{
	for (size_t l = 0; l < rd->nr_loops; l++) {
		const struct parm_loop *lp = &rd->loops[l];

		for (size_t i = 0; i < lp->nr; i++) {
			double v = parm_num_signed(&lp->vals[i]);

			if (!loop_value_ok(lp->kw, v))
				return parm_errf(err, &lp->loc,
						 "rd=%s: %s value %g cannot run (VDbench -s lists "
						 "it); expected %s",
						 rd->name, parm_kw_name(lp->kw), v,
						 loop_expected(lp->kw));
		}
	}
	return 0;
}

/* iorate=-N (N% of the run before) with no run before has no rate to take a share of: it used to
 * run at the simulated 10000 IOPS. -s still lists it as VDbench does. */
static int check_relative(const struct plan *p, struct parm_err *err)
{
	for (size_t i = 0; i < p->nr_runs; i++) {
		const struct plan_run *r = &p->runs[i];
		const struct parm_rd *rd = &p->cfg->rds[r->rd_idx];
		const struct parm_val *v = rd->set.val[PARM_KW_IORATE];

		if (r->rate != PLAN_RATE_REL || r->base_run >= 0)
			continue;
		return parm_errf(err, v ? &v->loc : &rd->loc,
				 "rd=%s: iorate=%s is %g%% of the previous run's rate, and run %s "
				 "has no run before it; expected a rate of 0 or more, max, or an "
				 "earlier run (a bare -N or N%% is relative)",
				 rd->name, v ? v->text : "?", r->pct, r->name);
	}
	return 0;
}

/* -s lists skew=120 beside a WD without skew=, which gets -20; VDbench's run gives that WD no
 * rate limit and the other none of the I/O ([281]). */
static int check_skews(const struct plan *p, struct parm_err *err)
{
	for (size_t i = 0; i < p->nr_runs; i++) {
		const struct plan_run *r = &p->runs[i];

		for (size_t w = 0; w < r->nr_wds; w++) {
			const struct parm_wd *wd = r->wds[w];
			const struct parm_val *v = wd->set.val[PARM_KW_SKEW];

			if (r->skews[w] >= 0 && r->skews[w] <= 100)
				continue;
			return parm_errf(err, v ? &v->loc : &wd->loc,
					 "rd=%s: wd=%s would run at skew %.2f%% (VDbench -s lists "
					 "it); expected skews from 0 to 100 that leave the WDs "
					 "without skew= a share of 0 or more",
					 p->cfg->rds[r->rd_idx].name, wd->name, r->skews[w]);
		}
	}
	return 0;
}

/* range= and hotband= with low not below high: -s lists them, VDbench's run fails ("'range='
 * parameter. Second value must be higher than first value", observed). */
static int check_range(const struct parm_kwset *set, enum parm_kw kw, const struct parm_range *r,
		       const char *owner, struct parm_err *err)
{
	const struct parm_val *v = set->val[kw];

	if (!v || r->lo < r->hi)
		return 0;
	return parm_errf(err, &v->loc,
			 "%s: %s=%s cannot run (VDbench -s lists it); expected (low,high) with low "
			 "below high",
			 owner, parm_kw_name(kw), v->text);
}

static int check_ranges(const struct plan *p, struct parm_err *err)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < p->nr_runs; i++) {
		const struct plan_run *r = &p->runs[i];
		char owner[300];

		for (size_t w = 0; !ret && w < r->nr_wds; w++) {
			const struct parm_wd *wd = r->wds[w];

			snprintf(owner, sizeof(owner), "wd=%s", wd->name);
			ret = check_range(&wd->set, PARM_KW_RANGE, &wd->range, owner, err);
			if (!ret)
				ret = check_range(&wd->set, PARM_KW_HOTBAND, &wd->hotband, owner,
						  err);
		}
	}
	for (size_t i = 0; !ret && i < p->cfg->nr_sds; i++) {
		const struct parm_sd *sd = &p->cfg->sds[i];
		char owner[300];

		snprintf(owner, sizeof(owner), "sd=%s", sd->name);
		ret = check_range(&sd->set, PARM_KW_RANGE, &sd->range, owner, err);
	}
	return ret;
}

static int run_err(bool has, const struct parm_err *kept, struct parm_err *err)
{
	if (!has)
		return 0;
	*err = *kept;
	return -EINVAL;
}

/* The values the parser kept for a run to refuse (struct parm_sd.run_err): of the RDs, and of
 * the WDs and SDs a run uses. */
static int check_kept(const struct plan *p, struct parm_err *err)
{
	const struct parm_config *cfg = p->cfg;
	int ret = 0;

	for (size_t i = 0; !ret && i < p->nr_runs; i++) {
		const struct plan_run *r = &p->runs[i];
		const struct parm_rd *rd = &cfg->rds[r->rd_idx];

		ret = run_err(rd->has_run_err, &rd->run_err, err);
		for (size_t w = 0; !ret && w < r->nr_wds; w++)
			ret = run_err(r->wds[w]->has_run_err, &r->wds[w]->run_err, err);
		for (size_t s = 0; !ret && s < r->nr_sds; s++) {
			const struct parm_sd *sd = &cfg->sds[r->sds[s].sd_idx];

			ret = run_err(sd->has_run_err, &sd->run_err, err);
		}
	}
	return ret;
}

int plan_check_runnable(const struct plan *p, struct parm_err *err)
{
	const struct parm_config *cfg = p->cfg;
	int ret = 0;

	if (p->has_late_err) {
		*err = p->late_err;
		return -EINVAL;
	}
	ret = p->has_run_err ? (*err = p->run_err, -EINVAL) : check_kept(p, err);
	if (!ret)
		ret = check_relative(p, err);
	if (!ret)
		ret = check_skews(p, err);
	if (!ret)
		ret = check_ranges(p, err);
	for (size_t i = 0; !ret && i < cfg->nr_rds; i++)
		ret = check_loops(&cfg->rds[i], err);
	return ret;
}

int plan_check_dv(const struct plan *p, bool is_dv, struct parm_err *err)
{
	const struct parm_config *cfg = p->cfg;

	for (size_t i = 0; is_dv && i < cfg->nr_rds; i++) {
		const struct parm_rd *rd = &cfg->rds[i];

		for (size_t l = 0; l < rd->nr_loops; l++) {
			const struct parm_loop *lp = &rd->loops[l];

			if (lp->kw != PARM_KW_FORCOMPRATIO && lp->kw != PARM_KW_FORCOMPRESSION)
				continue;
			return parm_errf(err, &lp->loc,
					 "rd=%s: %s= cannot be used with data validation; "
					 "expected compratio= in the general parameters, or no -v, "
					 "-j, validate=, journal= or dedup",
					 rd->name, parm_kw_name(lp->kw));
		}
	}
	return 0;
}
