/* Every run of the plan built once against the opened targets before any I/O (issue 16 item 7):
 * an offset= past the lun's end, a transfer larger than the SD, a hitarea= or hotband= that
 * leaves no room fail here at their parameter, exit 2, instead of as "cannot set up worker"
 * once earlier RDs have written. VDbench checks the same sizes, some only when the RD starts. */
#include "exec.h"

#include <stdio.h>
#include <unistd.h>

static const struct parm_loc *val_loc(const struct parm_kwset *set, enum parm_kw kw,
				      const struct parm_loc *fallback)
{
	return set->val[kw] ? &set->val[kw]->loc : fallback;
}

/* A for-loop's place when the run's value comes from it, else the keyword's. */
static const struct parm_loc *loop_or_val(const struct parm_rd *rd, enum parm_kw loop_kw,
					  const struct parm_kwset *set, enum parm_kw kw,
					  const struct parm_loc *fallback, bool is_loop)
{
	for (size_t l = 0; is_loop && l < rd->nr_loops; l++)
		if (rd->loops[l].kw == loop_kw)
			return &rd->loops[l].loc;
	return val_loc(set, kw, fallback);
}

static void mb_text(uint64_t bytes, char *buf, size_t len)
{
	if (bytes % (1024 * 1024) == 0)
		snprintf(buf, len, "%llum", (unsigned long long)(bytes >> 20));
	else if (bytes % 1024 == 0)
		snprintf(buf, len, "%lluk", (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
}

static int check_sd(const struct eng_exec *x, const struct plan_run *pr,
		    const struct eng_sd_desc *d, struct parm_err *err)
{
	const struct parm_config *cfg = x->plan->cfg;
	const struct parm_rd *rd = &cfg->rds[pr->rd_idx];
	const struct parm_sd *sd = &cfg->sds[d->cfg_idx];
	uint64_t lun = eng_sd_lun_bytes(sd, d->target);
	uint64_t usable = eng_sd_usable_bytes(sd, d->target);
	char a[32], b[32];

	if (!lun) /* a file made by the format pass with no size= is refused elsewhere */
		return 0;
	mb_text(lun, a, sizeof(a));
	if (sd->offset_bytes && !usable) {
		mb_text(sd->offset_bytes, b, sizeof(b));
		return parm_errf(err, val_loc(&sd->set, PARM_KW_OFFSET, &sd->loc),
				 "sd=%s: offset=%s is at or past the end of the %s of lun=%s; "
				 "expected an offset below the lun's size (I/O runs from offset= "
				 "to the end, as in VDbench)",
				 sd->name, b, a, sd->lun);
	}
	if (d->max_xfer_bytes > usable) {
		const struct parm_wd *wd = NULL;

		for (size_t w = 0; !wd && w < pr->nr_wds; w++)
			if (plan_run_wd_uses_sd(pr, w, d->cfg_idx))
				wd = pr->wds[w];
		mb_text(d->max_xfer_bytes, b, sizeof(b));
		mb_text(usable, a, sizeof(a));
		return parm_errf(err,
				 loop_or_val(rd, PARM_KW_FORXFERSIZE, wd ? &wd->set : &rd->set,
					     PARM_KW_XFERSIZE, wd ? &wd->loc : &rd->loc,
					     pr->ovr.has_xfersize),
				 "rd=%s: xfersize %s is larger than the %s used of sd=%s "
				 "(lun=%s); expected a transfer that fits the SD",
				 rd->name, b, a, sd->name, sd->lun);
	}
	return 0;
}

static int check_wg(const struct eng_exec *x, const struct plan_run *pr, const struct eng_run *r,
		    const struct eng_wg_desc *g, struct parm_err *err)
{
	const struct parm_config *cfg = x->plan->cfg;
	const struct parm_rd *rd = &cfg->rds[pr->rd_idx];
	const struct parm_wd *wd = pr->wds[g->run_wd];
	const struct eng_sd_desc *d = &r->sds[g->run_sd];
	const struct parm_sd *sd = &cfg->sds[d->cfg_idx];
	uint64_t len = 0;
	enum gen_wg_fault f = gen_wg_check(&g->gen, &len);
	char a[32], b[32], c[32];

	mb_text(len, a, sizeof(a));
	mb_text(g->gen.hitarea_bytes, b, sizeof(b));
	mb_text(2 * d->max_xfer_bytes, c, sizeof(c));
	switch (f) {
	case GEN_WG_OK:
		return 0;
	case GEN_WG_HITAREA:
		return parm_errf(
			err,
			loop_or_val(rd, PARM_KW_FORHITAREA, &sd->set, PARM_KW_HITAREA,
				    val_loc(&wd->set, PARM_KW_RHPCT,
					    val_loc(&wd->set, PARM_KW_WHPCT, &wd->loc)),
				    pr->ovr.has_hitarea),
			"rd=%s, wd=%s on sd=%s: hitarea=%s leaves no room in the %s used; "
			"expected hit and miss areas of at least %s each (twice the "
			"largest transfer), so a hitarea= from %s to the size used less %s",
			rd->name, wd->name, sd->name, b, a, c, c, c);
	case GEN_WG_HOTBAND:
		return parm_errf(err, val_loc(&wd->set, PARM_KW_HOTBAND, &wd->loc),
				 "rd=%s, wd=%s on sd=%s: hotband=(%g,%g) covers %s of the %llu "
				 "bytes used; expected a band of at least %d bytes (a wider band "
				 "or a larger SD)",
				 rd->name, wd->name, sd->name, wd->hotband.lo, wd->hotband.hi, a,
				 (unsigned long long)d->size_bytes, GEN_HOTBAND_MIN_BYTES);
	case GEN_WG_RANGE:
		return parm_errf(err, val_loc(&wd->set, PARM_KW_RANGE, &wd->loc),
				 "rd=%s, wd=%s on sd=%s: the range holds no %llu-byte transfer of "
				 "the %llu bytes used; expected a wider range",
				 rd->name, wd->name, sd->name,
				 (unsigned long long)d->max_xfer_bytes,
				 (unsigned long long)d->size_bytes);
	default:
		return parm_errf(err, &wd->loc,
				 "rd=%s, wd=%s on sd=%s: the workload's parameters cannot run "
				 "(a percentage, seek, stride or transfer size out of range)",
				 rd->name, wd->name, sd->name);
	}
}

static int check_run(const struct eng_exec *x, size_t i, struct parm_err *err)
{
	const struct plan_run *pr = &x->plan->runs[i];
	struct eng_run_src src = { .plan = x->plan, .run_idx = i, .targets = x->targets };
	struct eng_run r;
	int ret = 0;

	for (size_t s = 0; !ret && s < pr->nr_sds; s++) {
		struct eng_sd_desc d = {
			.cfg_idx = pr->sds[s].sd_idx,
			.target = &x->targets[pr->sds[s].sd_idx],
			.max_xfer_bytes = pr->sds[s].max_xfer_bytes,
		};

		ret = check_sd(x, pr, &d, err);
	}
	if (ret)
		return ret;
	ret = eng_run_build(&r, &src, err);
	for (size_t k = 0; !ret && k < r.nr_wgs; k++)
		ret = check_wg(x, pr, &r, &r.wgs[k], err);
	eng_run_fini(&r);
	return ret;
}

int eng_check_runs(const struct eng_exec *x, struct parm_err *err)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < x->plan->nr_runs; i++)
		ret = check_run(x, i, err);
	/* opening made the new files (sparse, sized): a refused plan leaves none behind */
	for (size_t s = 0; ret && s < x->plan->cfg->nr_sds; s++)
		if (x->needs[s].is_create)
			unlink(x->plan->cfg->sds[s].lun);
	return ret;
}
