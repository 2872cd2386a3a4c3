/* elapsed=, interval= and warmup= of a run after the -e -i -w overrides, with the checks VDbench
 * 5.04.07 makes before -s lists anything (tests/parm/FINDINGS.md §9), in its order: elapsed at
 * least two intervals, elapsed a multiple of the interval, warmup a multiple of the interval.
 * Without interval= the checks use 1; interval=0 means min(elapsed/2, 60); -w 0 changes nothing. */
#include "plan_int.h"

static struct parm_loc time_loc(const struct plan_builder *b, enum parm_kw kw)
{
	const struct parm_val *v = b->rd->set.val[kw];

	return v ? v->loc : b->rd_loc;
}

/* -e given and -i not: the interval is the file's, and -e may be too short for it. */
static bool is_short_e(const struct plan_builder *b)
{
	return b->cfg->overrides.has_elapsed && !b->cfg->overrides.has_interval;
}

/* The largest interval that divides elapsed at least twice and the warmup (1 at worst). */
static int64_t half_divisor(int64_t elapsed, int64_t warmup)
{
	int64_t g = elapsed, w = warmup > 0 ? warmup : 0;

	while (w) { /* gcd */
		int64_t t = g % w;

		g = w;
		w = t;
	}
	if (g <= elapsed / 2)
		return g > 0 ? g : 1;
	for (int64_t p = 2; p * p <= g && p < 1000000;
	     p++) /* g == elapsed: over its least factor */
		if (g % p == 0)
			return g / p;
	return 1;
}

static int check_times(struct plan_builder *b, int64_t elapsed, int64_t interval, int64_t warmup)
{
	struct parm_loc loc = time_loc(b, PARM_KW_ELAPSED);
	const char *rd = b->rd->name;

	if (interval < 1) {
		loc = time_loc(b, PARM_KW_INTERVAL);
		return parm_errf(b->err, &loc, "rd=%s: interval=%lld; expected at least 1 second",
				 rd, (long long)interval);
	}
	if ((__int128)elapsed < (__int128)2 * interval && is_short_e(b))
		return parm_errf(
			b->err, &loc,
			"rd=%s: 'elapsed=%lld' must be at least twice 'interval=%lld'; -e %lld "
			"is shorter than two intervals: add -i %lld (an interval that divides "
			"elapsed twice and warmup)",
			rd, (long long)elapsed, (long long)interval, (long long)elapsed,
			(long long)half_divisor(elapsed, warmup));
	if ((__int128)elapsed < (__int128)2 * interval)
		return parm_errf(b->err, &loc,
				 "rd=%s: 'elapsed=%lld' must be at least twice 'interval=%lld'", rd,
				 (long long)elapsed, (long long)interval);
	if (elapsed % interval)
		return parm_errf(b->err, &loc,
				 "rd=%s: 'elapsed=%lld' must be a multiple of "
				 "'interval=%lld'",
				 rd, (long long)elapsed, (long long)interval);
	loc = time_loc(b, PARM_KW_WARMUP);
	if (warmup < 0 && !b->plan->has_run_err) { /* -s lists it (observed); a run refuses it */
		b->plan->has_run_err = true;
		parm_errf(&b->plan->run_err, &loc,
			  "rd=%s: warmup=%lld cannot run (VDbench -s lists it); expected 0 or more "
			  "seconds",
			  rd, (long long)warmup);
	}
	if (warmup % interval)
		return parm_errf(b->err, &loc,
				 "rd=%s: 'warmup=%lld' must be a multiple of "
				 "'interval=%lld'",
				 rd, (long long)warmup, (long long)interval);
	return 0; /* a negative pause= is none, as VDbench 5.04.07 runs it (observed) */
}

int plan_rd_times(struct plan_builder *b)
{
	const struct parm_overrides *o = &b->cfg->overrides;
	int64_t elapsed = o->has_elapsed ? (int64_t)o->elapsed_s : b->rd->elapsed_s;
	int64_t interval = o->has_interval ? (int64_t)o->interval_s : b->rd->interval_s;
	int64_t warmup = o->has_warmup && (o->warmup_s || o->zero_warmup_counts)
				 ? (int64_t)o->warmup_s
				 : b->rd->warmup_s;
	int ret;

	if (!interval && (o->has_interval || parm_kwset_has(&b->rd->set, PARM_KW_INTERVAL))) {
		interval = elapsed / 2 < 60 ? elapsed / 2 : 60; /* [183], [189] */
	}
	ret = check_times(b, elapsed, interval, warmup);
	if (ret)
		return ret;
	b->elapsed_s = (uint64_t)elapsed;
	b->interval_s = (uint64_t)interval;
	b->warmup_s = warmup > 0 ? (uint64_t)warmup : 0;
	b->below_zero_warmup_s = warmup < 0 ? warmup : 0;
	return 0;
}
