/* elapsed=, interval= and warmup= of a run after the -e -i -w overrides, with the checks
 * VDbench makes (reference §6, §8): elapsed a multiple of interval and at least two intervals,
 * warmup a multiple of interval. */
#include "plan_int.h"

static struct parm_loc time_loc(const struct plan_builder *b, enum parm_kw kw)
{
	const struct parm_val *v = b->rd->set.val[kw];

	return v ? v->loc : b->rd_loc;
}

int plan_rd_times(struct plan_builder *b)
{
	const struct parm_overrides *o = &b->cfg->overrides;
	struct parm_loc loc;

	b->elapsed_s = o->has_elapsed ? o->elapsed_s : b->rd->elapsed_s;
	b->interval_s = o->has_interval ? o->interval_s : b->rd->interval_s;
	b->warmup_s = o->has_warmup ? o->warmup_s : b->rd->warmup_s;
	if (!b->interval_s) {
		loc = time_loc(b, PARM_KW_INTERVAL);
		return parm_errf(b->err, &loc, "rd=%s: interval= must be at least 1 second",
				 b->rd->name);
	}
	if (b->elapsed_s % b->interval_s) {
		loc = time_loc(b, PARM_KW_ELAPSED);
		return parm_errf(b->err, &loc,
				 "rd=%s: 'elapsed=%llu' must be multiple of "
				 "'interval=%llu'",
				 b->rd->name, (unsigned long long)b->elapsed_s,
				 (unsigned long long)b->interval_s);
	}
	if (b->elapsed_s < 2 * b->interval_s) {
		loc = time_loc(b, PARM_KW_ELAPSED);
		return parm_errf(b->err, &loc,
				 "rd=%s: 'elapsed=' time value must be at least twice "
				 "the 'interval=' value (elapsed=%llu, interval=%llu)",
				 b->rd->name, (unsigned long long)b->elapsed_s,
				 (unsigned long long)b->interval_s);
	}
	if (b->warmup_s % b->interval_s) {
		loc = time_loc(b, PARM_KW_WARMUP);
		return parm_errf(b->err, &loc,
				 "rd=%s: 'warmup=%llu' must be a multiple of "
				 "'interval=%llu'",
				 b->rd->name, (unsigned long long)b->warmup_s,
				 (unsigned long long)b->interval_s);
	}
	return 0;
}
