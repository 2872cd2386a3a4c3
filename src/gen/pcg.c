/* PCG32 (XSH-RR) random numbers, written from O'Neill's paper "PCG: A Family of Simple Fast
 * Space-Efficient Statistically Good Algorithms for Random Number Generation" (2014), plus
 * unbiased bounded integers (Lemire, "Fast Random Integer Generation in an Interval", 2019):
 * the seeding and the rare paths; the per-I/O draws are inline in gen.h. */
#include "ioramp/gen.h"

static void pcg_step(struct gen_pcg *r)
{
	r->state = r->state * GEN_PCG_MULT + r->inc;
}

void gen_pcg_seed(struct gen_pcg *r, uint64_t seed, uint64_t stream)
{
	r->state = 0;
	r->inc = (stream << 1) | 1;
	pcg_step(r);
	r->state += seed;
	pcg_step(r);
}

uint64_t gen_pcg_below_retry32(struct gen_pcg *r, uint32_t n, uint64_t m)
{
	uint32_t lo = (uint32_t)m, t = (uint32_t)-n % n;

	while (lo < t) {
		m = (uint64_t)gen_pcg_u32(r) * n;
		lo = (uint32_t)m;
	}
	return m >> 32;
}

static uint64_t below64(struct gen_pcg *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)gen_pcg_u64(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		uint64_t t = -n % n;

		while (lo < t) {
			m = (unsigned __int128)gen_pcg_u64(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

uint64_t gen_pcg_below_slow(struct gen_pcg *r, uint64_t n)
{
	return n == 0 ? 0 : below64(r, n);
}
