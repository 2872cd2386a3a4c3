/* The hotband access curve (reference §9.7 for the idea; the curve is our own): a truncated
 * exponential over the band, so a small cache near the band start already sees most I/Os
 * and larger caches see diminishing returns, as VDbench's "cache size vs hit" table intends. */
#include "draw.h"

#include <math.h>

uint64_t gen_hotband_block(struct gen_pcg *r, uint64_t nr_blocks)
{
	/* Inverse CDF of F(x) = (1 - e^(-Lx)) / (1 - e^(-L)) on [0, 1): x = -ln(1 - u(1 - e^-L)) / L.
	 * u < 1 keeps the argument of log1p above -(1 - e^-L) > -1, so x is finite and < 1. */
	const double lambda = GEN_HOTBAND_L;
	double x = -log1p(gen_pcg_unit(r) * expm1(-lambda)) / lambda;
	uint64_t k = (uint64_t)(x * (double)nr_blocks);

	return k < nr_blocks ? k : nr_blocks - 1;
}
