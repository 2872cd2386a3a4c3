/* Arrival schedules on absolute time (reference §9.4): exponential, uniform or deterministic
 * inter-arrival deltas, optional variable (rate,seconds) steps and per-second spikes. The
 * schedule never looks at the clock: a late I/O is the engine's business, not a reason to
 * skip arrivals. Spikes follow what VDbench 5.04.07 does (observed, tests/parm [901]): each
 * second, a generator releases the whole part of its rate at once at the start of the second
 * (3.5 I/Os per second give 3), whatever the distribution. */
#include "ioramp/gen.h"

#include <errno.h>
#include <math.h>

#define NS_PER_SEC 1000000000.0

static bool is_valid_mean(double mean_ns)
{
	return isfinite(mean_ns) && mean_ns > 0;
}

static double arrival_delta(struct gen_arrival *a)
{
	double d;

	switch (a->dist) {
	case GEN_DIST_UNIFORM:
		return 2.0 * a->mean_ns * gen_pcg_unit(&a->rng);
	case GEN_DIST_DETERMINISTIC:
		return a->mean_ns;
	default:
		/* Inversion: 1 - u lies in (0, 1], so the logarithm is finite. */
		d = -a->mean_ns * log1p(-gen_pcg_unit(&a->rng));
		return d > (double)GEN_ARRIVAL_MAX_DELTA_NS ? (double)GEN_ARRIVAL_MAX_DELTA_NS : d;
	}
}

/* Integer ns plus a fractional remainder: each step rounds only within the fraction, so the
 * error does not grow with the number of arrivals. Deterministic schedules are computed from
 * their anchor instead, which is exact to one rounding of k * mean. */
static uint64_t arrival_advance(struct gen_arrival *a)
{
	double d, whole;

	if (a->dist == GEN_DIST_DETERMINISTIC) {
		a->nr_since_anchor++;
		a->last_ns = a->anchor_ns + (uint64_t)((double)a->nr_since_anchor * a->mean_ns);
		return a->last_ns;
	}
	d = arrival_delta(a) + a->frac_ns;
	whole = floor(d);
	a->frac_ns = d - whole;
	a->last_ns += (uint64_t)whole;
	return a->last_ns;
}

static void arrival_anchor(struct gen_arrival *a, uint64_t at_ns)
{
	a->last_ns = at_ns;
	a->frac_ns = 0;
	a->anchor_ns = at_ns;
	a->nr_since_anchor = 0;
}

static void step_enter(struct gen_arrival *a, size_t idx, uint64_t begin_ns)
{
	const struct gen_rate_step *s = &a->steps[idx];

	a->step_idx = idx;
	a->step_end_ns = begin_ns + s->duration_ns;
	arrival_anchor(a, begin_ns);
	if (s->iops > 0)
		a->mean_ns = NS_PER_SEC / s->iops;
}

/* An arrival past the end of its step is discarded and the next step starts from the step
 * boundary: exact for exponential arrivals (memoryless), a fresh phase for the others. */
static uint64_t stepped_next(struct gen_arrival *a)
{
	for (;;) {
		if (a->steps[a->step_idx].iops > 0) {
			uint64_t t = arrival_advance(a);

			if (t < a->step_end_ns)
				return t;
		}
		step_enter(a, (a->step_idx + 1) % a->nr_steps, a->step_end_ns);
	}
}

/* The I/Os a spike releases per second at rate iops: its whole part. The tiny slack keeps a
 * share computed as 35.000000000001 or 34.999999999999 from losing one. */
static uint64_t spike_count(double iops)
{
	return iops > 0 ? (uint64_t)floor(iops * (1 + 1e-12) + 1e-9) : 0;
}

static uint64_t spike_rate_count(const struct gen_arrival *a)
{
	return spike_count(a->nr_steps ? a->steps[a->step_idx].iops : NS_PER_SEC / a->mean_ns);
}

/* Spikes: anchor_ns is the start of the current second, nr_since_anchor the I/Os released in
 * it. A second (or a step) with nothing to release is skipped. */
static uint64_t spike_next(struct gen_arrival *a)
{
	uint64_t sec_ns = (uint64_t)NS_PER_SEC;

	if (!a->has_spikes)
		return UINT64_MAX; /* every rate is below one I/O per second: never */
	while (a->nr_since_anchor >= spike_rate_count(a)) {
		a->nr_since_anchor = 0;
		a->anchor_ns += sec_ns;
		if (a->nr_steps && a->anchor_ns >= a->step_end_ns) {
			uint64_t end = a->step_end_ns;

			step_enter(a, (a->step_idx + 1) % a->nr_steps, end);
		}
	}
	a->nr_since_anchor++;
	a->last_ns = a->anchor_ns;
	return a->last_ns;
}

static int steps_check(const struct gen_rate_step *steps, size_t nr_steps)
{
	bool has_rate = false;

	if (!steps)
		return -EINVAL;
	for (size_t i = 0; i < nr_steps; i++) {
		if (!isfinite(steps[i].iops) || steps[i].iops < 0 || steps[i].duration_ns == 0)
			return -EINVAL;
		if (steps[i].iops > 0)
			has_rate = true;
	}
	return has_rate ? 0 : -EINVAL;
}

int gen_arrival_init(struct gen_arrival *a, const struct gen_arrival_cfg *cfg, uint64_t seed,
		     uint64_t stream)
{
	if ((unsigned int)cfg->dist >= GEN_DIST_NR)
		return -EINVAL;
	if (cfg->nr_steps ? steps_check(cfg->steps, cfg->nr_steps) < 0
			  : !is_valid_mean(cfg->mean_ns))
		return -EINVAL;

	*a = (struct gen_arrival){
		.dist = cfg->dist,
		.is_spike = cfg->is_spike,
		.mean_ns = cfg->mean_ns,
		.start_ns = cfg->start_ns,
		.steps = cfg->nr_steps ? cfg->steps : NULL,
		.nr_steps = cfg->nr_steps,
	};
	gen_pcg_seed(&a->rng, seed, stream);
	arrival_anchor(a, cfg->start_ns);
	if (a->nr_steps)
		step_enter(a, 0, cfg->start_ns);
	for (size_t i = 0; a->is_spike && i < (a->nr_steps ? a->nr_steps : 1); i++)
		a->has_spikes |=
			spike_count(a->nr_steps ? a->steps[i].iops : NS_PER_SEC / a->mean_ns) > 0;
	return 0;
}

uint64_t gen_arrival_next(struct gen_arrival *a)
{
	if (a->is_spike)
		return spike_next(a);
	return a->nr_steps ? stepped_next(a) : arrival_advance(a);
}

int gen_arrival_set_mean(struct gen_arrival *a, double mean_ns)
{
	if (!is_valid_mean(mean_ns))
		return -EINVAL;
	if (a->nr_steps)
		return 0;
	a->mean_ns = mean_ns;
	if (a->is_spike)
		a->has_spikes = spike_count(NS_PER_SEC / mean_ns) > 0;
	else if (a->dist == GEN_DIST_DETERMINISTIC)
		arrival_anchor(a, a->last_ns);
	return 0;
}
