/* Poisson variates for seekpct=poisson, written from the published algorithms: Knuth's
 * multiplication method for small means and Hormann's PTRS ("The transformed rejection method
 * for generating Poisson random variables", 1993) for large ones. */
#include "draw.h"

#include <math.h>

/* Multiplies uniforms until the product drops below e^-lambda; expected lambda + 1 draws. */
static uint64_t poisson_small(struct gen_pcg *r, double lambda)
{
	double limit = exp(-lambda);
	double p = gen_pcg_unit(r);
	uint64_t k = 0;

	while (p > limit) {
		p *= gen_pcg_unit(r);
		k++;
	}
	return k;
}

/* PTRS: a transformed-rejection sampler, about 1.1 uniform pairs per variate. */
static uint64_t poisson_ptrs(struct gen_pcg *r, double lambda)
{
	double slam = sqrt(lambda), loglam = log(lambda);
	double b = 0.931 + 2.53 * slam;
	double a = -0.059 + 0.02483 * b;
	double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
	double vr = 0.9277 - 3.6224 / (b - 2);

	for (;;) {
		double u = gen_pcg_unit(r) - 0.5;
		double v = gen_pcg_unit(r);
		double us = 0.5 - fabs(u);
		double k, lg;
		int sign;

		if (us <= 0) /* u == -0.5 exactly: the transform is undefined there */
			continue;
		k = floor((2 * a / us + b) * u + lambda + 0.43);
		if (us >= 0.07 && v <= vr)
			return (uint64_t)k;
		if (k < 0 || (us < 0.013 && v > us))
			continue;
		lg = lgamma_r(k + 1, &sign); /* lgamma() would write the global signgam */
		if (log(v) + log(inv_alpha) - log(a / (us * us) + b) <= -lambda + k * loglam - lg)
			return (uint64_t)k;
	}
}

uint64_t gen_poisson_draw(struct gen_pcg *r, double lambda)
{
	return lambda < 10 ? poisson_small(r, lambda) : poisson_ptrs(r, lambda);
}
