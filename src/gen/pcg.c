/* PCG32 (XSH-RR) random numbers, written from O'Neill's paper "PCG: A Family of Simple Fast
 * Space-Efficient Statistically Good Algorithms for Random Number Generation" (2014), plus
 * unbiased bounded integers (Lemire, "Fast Random Integer Generation in an Interval", 2019). */
#include "ioramp/gen.h"

/* The 64-bit LCG multiplier the paper uses for pcg32. */
#define PCG_MULT UINT64_C(6364136223846793005)

static void pcg_step(struct gen_pcg *r)
{
	r->state = r->state * PCG_MULT + r->inc;
}

void gen_pcg_seed(struct gen_pcg *r, uint64_t seed, uint64_t stream)
{
	r->state = 0;
	r->inc = (stream << 1) | 1;
	pcg_step(r);
	r->state += seed;
	pcg_step(r);
}

uint32_t gen_pcg_u32(struct gen_pcg *r)
{
	uint64_t old = r->state;
	uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
	uint32_t rot = (uint32_t)(old >> 59);

	pcg_step(r);
	return (xorshifted >> rot) | (xorshifted << ((32 - rot) & 31));
}

uint64_t gen_pcg_u64(struct gen_pcg *r)
{
	uint64_t hi = gen_pcg_u32(r);

	return (hi << 32) | gen_pcg_u32(r);
}

/* Lemire: the high half of x * n is uniform in [0, n) once the low half is rejected when it
 * falls below 2^w mod n; the modulo is only computed on the rare path. */
static uint64_t below32(struct gen_pcg *r, uint32_t n)
{
	uint64_t m = (uint64_t)gen_pcg_u32(r) * n;
	uint32_t lo = (uint32_t)m;

	if (lo < n) {
		uint32_t t = (uint32_t)-n % n;

		while (lo < t) {
			m = (uint64_t)gen_pcg_u32(r) * n;
			lo = (uint32_t)m;
		}
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

uint64_t gen_pcg_below(struct gen_pcg *r, uint64_t n)
{
	if (n == 0)
		return 0;
	if (n <= UINT32_MAX)
		return below32(r, (uint32_t)n);
	return below64(r, n);
}

double gen_pcg_unit(struct gen_pcg *r)
{
	return (double)(gen_pcg_u64(r) >> 11) * 0x1.0p-53;
}
