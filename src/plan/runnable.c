/* What a real run needs beyond what VDbench 5.04.07 checks with -s: -s accepts transfer sizes that
 * are not a multiple of 512 on a WD ([085]), percentages above 100 ([230], [254]) and negative
 * loop values shown as N% ([074]); VDbench fails on them once the run starts, ioramp refuses them
 * before any I/O with an error at the value. */
#include "plan_int.h"

#include <errno.h>
#include <math.h>

static bool is_pct(double v)
{
	return v >= 0 && v <= 100;
}

static int check_size(const struct parm_wd *wd, uint64_t bytes, struct parm_err *err)
{
	const struct parm_val *v = wd->set.val[PARM_KW_XFERSIZE];

	if (bytes % 512 == 0)
		return 0;
	return parm_errf(err, v ? &v->loc : &wd->loc,
			 "wd=%s: xfersize %llu is not a multiple of 512 bytes; expected 512, 4k, "
			 "1.5k, ... (VDbench -s accepts it, a run does not)",
			 wd->name, (unsigned long long)bytes);
}

static int check_wd_xfer(const struct parm_wd *wd, struct parm_err *err)
{
	const struct parm_xfer *x = &wd->xfer;
	int ret = 0;

	if (x->kind == PARM_XFER_RANGE) {
		ret = check_size(wd, x->min_bytes, err);
		if (!ret)
			ret = check_size(wd, x->max_bytes, err);
		return ret ? ret : check_size(wd, x->align_bytes, err);
	}
	for (size_t i = 0; !ret && i < x->nr; i++)
		ret = check_size(wd, x->sizes_bytes[i], err);
	return ret;
}

static int check_wd_pct(const struct parm_wd *wd, enum parm_kw kw, double v, struct parm_err *err)
{
	const struct parm_val *val = wd->set.val[kw];

	if (!val || is_pct(v))
		return 0;
	return parm_errf(err, &val->loc, "wd=%s: %s=%s; expected a percentage from 0 to 100",
			 wd->name, parm_kw_name(kw), val->text);
}

static int check_wd(const struct parm_wd *wd, struct parm_err *err)
{
	int ret = check_wd_xfer(wd, err);

	if (!ret)
		ret = check_wd_pct(wd, wd->set.val[PARM_KW_WRPCT] ? PARM_KW_WRPCT : PARM_KW_RDPCT,
				   wd->rdpct, err);
	if (!ret)
		ret = check_wd_pct(wd, PARM_KW_RHPCT, wd->rhpct, err);
	if (!ret)
		ret = check_wd_pct(wd, PARM_KW_WHPCT, wd->whpct, err);
	return ret;
}

static bool loop_value_ok(enum parm_kw kw, double v)
{
	switch (kw) {
	case PARM_KW_FORRDPCT:
	case PARM_KW_FORRHPCT:
	case PARM_KW_FORWHPCT:
		return is_pct(v);
	case PARM_KW_FORSEEKPCT:
		return is_pct(v) || v == -1; /* -1: eof */
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
	case PARM_KW_FORRDPCT:
	case PARM_KW_FORRHPCT:
	case PARM_KW_FORWHPCT:
	case PARM_KW_FORSEEKPCT:
		return "a percentage from 0 to 100";
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

int plan_check_runnable(const struct plan *p, struct parm_err *err)
{
	const struct parm_config *cfg = p->cfg;
	int ret = 0;

	if (p->has_late_err) {
		*err = p->late_err;
		return -EINVAL;
	}
	ret = check_relative(p, err);
	for (size_t i = 0; !ret && i < cfg->nr_wds; i++)
		ret = check_wd(&cfg->wds[i], err);
	for (size_t i = 0; !ret && i < cfg->nr_rds; i++) {
		if (cfg->rds[i].own_wd)
			ret = check_wd(cfg->rds[i].own_wd, err);
		if (!ret)
			ret = check_loops(&cfg->rds[i], err);
	}
	return ret;
}
