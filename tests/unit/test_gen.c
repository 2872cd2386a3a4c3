/* Unit tests of src/gen/ random numbers, arrival schedules and range resolution: reference
 * outputs, distribution moments over 10^6 draws with fixed seeds, and rejected inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>

#include "ioramp/gen.h"

enum {
	NR_DRAWS = 1000000,
};

static void test_pcg_matches_paper_demo(void **state)
{
	/* pcg32-demo (seed 42, stream 54) in O'Neill's pcg-c-basic; the same six values are in
	 * an independent test suite (Raytracer.jl test/test_pcg.jl, inc = 54 * 2 + 1 = 109). */
	static const uint32_t want[] = { 0xa15c02b7, 0x7b47f409, 0xba1d3330,
					 0x83d2f293, 0xbfa4784b, 0xcbed606e };
	struct gen_pcg r;

	(void)state;
	gen_pcg_seed(&r, 42, 54);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(gen_pcg_u32(&r), want[i]);
}

static void test_pcg_same_seed_same_sequence(void **state)
{
	struct gen_pcg a, b, c;
	int nr_same = 0;

	(void)state;
	gen_pcg_seed(&a, 7, 1);
	gen_pcg_seed(&b, 7, 1);
	gen_pcg_seed(&c, 7, 2);
	for (int i = 0; i < 1000; i++) {
		uint64_t x = gen_pcg_u64(&a);

		assert_int_equal(x, gen_pcg_u64(&b));
		nr_same += x == gen_pcg_u64(&c);
	}
	assert_int_equal(nr_same, 0);
}

static void test_pcg_below_is_uniform(void **state)
{
	uint64_t counts[6] = { 0 };
	uint64_t big = (UINT64_C(3) << 62) + 5; /* a 64-bit bound: the u64 path */
	uint64_t nr_upper = 0;
	struct gen_pcg r;

	(void)state;
	gen_pcg_seed(&r, 1, 1);
	for (int i = 0; i < NR_DRAWS; i++)
		counts[gen_pcg_below(&r, 6)]++;
	for (int i = 0; i < 6; i++)
		assert_true(fabs((double)counts[i] / NR_DRAWS - 1.0 / 6) < 0.003);
	for (int i = 0; i < NR_DRAWS / 10; i++) {
		uint64_t x = gen_pcg_below(&r, big);

		assert_true(x < big);
		nr_upper += x >= big / 2;
	}
	assert_true(fabs((double)nr_upper / (NR_DRAWS / 10) - 0.5) < 0.01);
	assert_int_equal(gen_pcg_below(&r, 1), 0);
	assert_int_equal(gen_pcg_below(&r, 0), 0);
}

static void test_pcg_unit_in_range_with_mean_half(void **state)
{
	struct gen_pcg r;
	double sum = 0;

	(void)state;
	gen_pcg_seed(&r, 3, 9);
	for (int i = 0; i < NR_DRAWS; i++) {
		double u = gen_pcg_unit(&r);

		assert_true(u >= 0 && u < 1);
		sum += u;
	}
	assert_true(fabs(sum / NR_DRAWS - 0.5) < 0.002);
}

/* Mean and coefficient of variation of n inter-arrival deltas. */
static void arrival_moments(struct gen_arrival *a, uint64_t start_ns, int n, double *mean,
			    double *cv)
{
	long double sum = 0, sumsq = 0;
	uint64_t prev = start_ns;

	for (int i = 0; i < n; i++) {
		uint64_t t = gen_arrival_next(a);
		long double d = t - prev;

		assert_true(t >= prev);
		sum += d;
		sumsq += d * d;
		prev = t;
	}
	*mean = (double)(sum / n);
	*cv = (double)(sqrtl(sumsq / n - (sum / n) * (sum / n)) / (sum / n));
}

static void check_arrival(enum gen_dist dist, double want_cv)
{
	struct gen_arrival_cfg cfg = { .dist = dist, .mean_ns = 10000.5, .start_ns = 12345 };
	struct gen_arrival a;
	double mean, cv;

	assert_int_equal(gen_arrival_init(&a, &cfg, 11, 5), 0);
	arrival_moments(&a, cfg.start_ns, NR_DRAWS, &mean, &cv);
	assert_true(fabs(mean / cfg.mean_ns - 1) < 0.01);
	assert_true(fabs(cv - want_cv) < 0.01);
}

static void test_arrival_exponential_mean_and_cv(void **state)
{
	(void)state;
	check_arrival(GEN_DIST_EXPONENTIAL, 1.0);
}

static void test_arrival_uniform_mean_and_cv(void **state)
{
	(void)state;
	check_arrival(GEN_DIST_UNIFORM, 1 / sqrt(3.0));
}

static void test_arrival_deterministic_is_exact(void **state)
{
	struct gen_arrival_cfg cfg = {
		.dist = GEN_DIST_DETERMINISTIC,
		.mean_ns = 1e9 / 3000000, /* 333.33 ns: truncating each delta would drift 0.1% */
		.start_ns = 1000,
	};
	struct gen_arrival a;

	(void)state;
	assert_int_equal(gen_arrival_init(&a, &cfg, 1, 1), 0);
	for (uint64_t k = 1; k <= NR_DRAWS; k++)
		assert_int_equal(gen_arrival_next(&a), 1000 + (uint64_t)(k * cfg.mean_ns));
}

static void test_arrival_subnanosecond_mean_does_not_drift(void **state)
{
	struct gen_arrival_cfg cfg = { .dist = GEN_DIST_EXPONENTIAL, .mean_ns = 0.7 };
	struct gen_arrival a;
	uint64_t t = 0;

	(void)state;
	assert_int_equal(gen_arrival_init(&a, &cfg, 2, 2), 0);
	for (int i = 0; i < NR_DRAWS; i++)
		t = gen_arrival_next(&a);
	assert_true(fabs((double)t / NR_DRAWS / 0.7 - 1) < 0.01);
}

static void test_arrival_set_mean_changes_rate(void **state)
{
	struct gen_arrival_cfg cfg = { .dist = GEN_DIST_DETERMINISTIC, .mean_ns = 100 };
	struct gen_arrival a;
	uint64_t t = 0;

	(void)state;
	assert_int_equal(gen_arrival_init(&a, &cfg, 1, 1), 0);
	for (int i = 0; i < 10; i++)
		t = gen_arrival_next(&a);
	assert_int_equal(t, 1000);
	assert_int_equal(gen_arrival_set_mean(&a, 2.5), 0);
	assert_int_equal(gen_arrival_next(&a), 1002);
	assert_int_equal(gen_arrival_next(&a), 1005);
	assert_int_equal(gen_arrival_set_mean(&a, 0), -EINVAL);
	assert_int_equal(gen_arrival_set_mean(&a, NAN), -EINVAL);
}

static void test_arrival_variable_steps_follow_rates(void **state)
{
	static const struct gen_rate_step steps[] = {
		{ .iops = 20000, .duration_ns = 1000000000 },
		{ .iops = 0, .duration_ns = 500000000 },
		{ .iops = 80000, .duration_ns = 1000000000 },
	};
	struct gen_arrival_cfg cfg = { .steps = steps, .nr_steps = 3, .start_ns = 500 };
	uint64_t per_step[3] = { 0 };
	struct gen_arrival a;
	uint64_t cycle_ns = 2500000000;

	(void)state;
	assert_int_equal(gen_arrival_init(&a, &cfg, 4, 4), 0);
	for (;;) { /* four cycles of 2.5 s */
		uint64_t t = gen_arrival_next(&a) - cfg.start_ns;

		if (t >= 4 * cycle_ns)
			break;
		t %= cycle_ns;
		per_step[t < 1000000000 ? 0 : t < 1500000000 ? 1 : 2]++;
	}
	assert_true(fabs(per_step[0] / 80000.0 - 1) < 0.02);
	assert_int_equal(per_step[1], 0);
	assert_true(fabs(per_step[2] / 320000.0 - 1) < 0.02);
}

static void test_arrival_spike_releases_at_second_start(void **state)
{
	struct gen_arrival_cfg cfg = { .mean_ns = 1e6, .start_ns = 77, .is_spike = true };
	struct gen_arrival a;

	(void)state;
	assert_int_equal(gen_arrival_init(&a, &cfg, 5, 5), 0);
	for (uint64_t i = 0; i < 3000; i++) /* 1000 per second, all at the second's start */
		assert_int_equal(gen_arrival_next(&a), 77 + i / 1000 * 1000000000);
}

/* VDbench 5.04.07 (observed): a generator's spike is the whole part of its rate per second. */
static void test_arrival_spike_keeps_whole_part_of_steps(void **state)
{
	static const struct gen_rate_step steps[] = {
		{ .iops = 3.5, .duration_ns = 2000000000 },
		{ .iops = 0.5, .duration_ns = 1000000000 },
		{ .iops = 0, .duration_ns = 1000000000 },
		{ .iops = 0.35 * 100, .duration_ns = 1000000000 }, /* 35 in floating point */
	};
	static const struct gen_rate_step slow[] = { { .iops = 0.9, .duration_ns = 1000000000 } };
	struct gen_arrival_cfg cfg = { .steps = steps, .nr_steps = 4, .is_spike = true };
	uint64_t expect[3 + 3 + 35 + 3];
	struct gen_arrival a;
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 3; i++)
		expect[n++] = 0;
	for (int i = 0; i < 3; i++)
		expect[n++] = 1000000000;
	for (int i = 0; i < 35; i++)
		expect[n++] = 4000000000;
	for (int i = 0; i < 3; i++) /* the list repeats */
		expect[n++] = 5000000000;
	assert_int_equal(gen_arrival_init(&a, &cfg, 1, 1), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(gen_arrival_next(&a), expect[i]);
	cfg = (struct gen_arrival_cfg){ .steps = slow, .nr_steps = 1, .is_spike = true };
	assert_int_equal(gen_arrival_init(&a, &cfg, 1, 1), 0);
	assert_true(gen_arrival_next(&a) == UINT64_MAX);
}

static void test_arrival_init_rejects_bad_input(void **state)
{
	static const struct gen_rate_step idle[] = { { .iops = 0, .duration_ns = 1000 } };
	static const struct gen_rate_step zero_len[] = { { .iops = 10, .duration_ns = 0 } };
	struct gen_arrival_cfg cfg = { .mean_ns = 0 };
	struct gen_arrival a;

	(void)state;
	assert_int_equal(gen_arrival_init(&a, &cfg, 1, 1), -EINVAL);
	cfg.mean_ns = INFINITY;
	assert_int_equal(gen_arrival_init(&a, &cfg, 1, 1), -EINVAL);
	cfg = (struct gen_arrival_cfg){ .mean_ns = 10, .dist = GEN_DIST_NR };
	assert_int_equal(gen_arrival_init(&a, &cfg, 1, 1), -EINVAL);
	cfg = (struct gen_arrival_cfg){ .steps = idle, .nr_steps = 1 };
	assert_int_equal(gen_arrival_init(&a, &cfg, 1, 1), -EINVAL);
	cfg = (struct gen_arrival_cfg){ .steps = zero_len, .nr_steps = 1 };
	assert_int_equal(gen_arrival_init(&a, &cfg, 1, 1), -EINVAL);
}

#define GIB (UINT64_C(1) << 30)
#define MIB (UINT64_C(1) << 20)

static void test_range_resolve_percentages(void **state)
{
	struct gen_range r;

	(void)state;
	assert_int_equal(gen_range_resolve(0, 100, 100 * GIB, 4096, &r), 0);
	assert_int_equal(r.start_bytes, 0);
	assert_int_equal(r.len_bytes, 100 * GIB);
	assert_int_equal(gen_range_resolve(10, 20, 100 * GIB, 4096, &r), 0);
	assert_int_equal(r.start_bytes, 10 * GIB);
	assert_int_equal(r.len_bytes, 10 * GIB);
	/* 1/3 of 3 GiB + 8 KiB, rounded down to 64 KiB on both ends */
	assert_int_equal(gen_range_resolve(0, 100.0 / 3, 3 * GIB + 8192, 65536, &r), 0);
	assert_int_equal(r.start_bytes, 0);
	assert_int_equal(r.len_bytes, GIB);
}

static void test_range_resolve_wraps_past_100(void **state)
{
	struct gen_range r;

	(void)state;
	assert_int_equal(gen_range_resolve(90, 110, 100 * GIB, 4096, &r), 0);
	assert_int_equal(r.start_bytes, 90 * GIB);
	assert_int_equal(r.len_bytes, 20 * GIB);
	assert_int_equal(gen_range_resolve(50, 150, 100 * GIB, 4096, &r), -EINVAL);
	assert_int_equal(gen_range_resolve(100, 150, 100 * GIB, 4096, &r), -EINVAL);
	assert_int_equal(gen_range_resolve(90, 200, 100 * GIB, 4096, &r), -EINVAL);
}

static void test_range_resolve_bytes_above_200(void **state)
{
	struct gen_range r;

	(void)state;
	assert_int_equal(gen_range_resolve(GIB, 2 * GIB, 100 * GIB, 4096, &r), 0);
	assert_int_equal(r.start_bytes, GIB);
	assert_int_equal(r.len_bytes, GIB);
	assert_int_equal(gen_range_resolve(0, 1000 * MIB + 5000, 100 * GIB, MIB, &r), 0);
	assert_int_equal(r.len_bytes, 1000 * MIB);
	assert_int_equal(gen_range_resolve(0, 200 * GIB, 100 * GIB, 4096, &r), -EINVAL);
}

static void test_range_resolve_rejects_empty_and_reversed(void **state)
{
	struct gen_range r;

	(void)state;
	assert_int_equal(gen_range_resolve(20, 10, 100 * GIB, 4096, &r), -EINVAL);
	assert_int_equal(gen_range_resolve(10, 10, 100 * GIB, 4096, &r), -EINVAL);
	assert_int_equal(gen_range_resolve(-1, 10, 100 * GIB, 4096, &r), -EINVAL);
	assert_int_equal(gen_range_resolve(0, 1, 64 * 1024, 4096, &r), -EINVAL); /* 655 bytes */
	assert_int_equal(gen_range_resolve(0, 100, 100 * GIB, 0, &r), -EINVAL);
	assert_int_equal(gen_range_resolve(0, NAN, 100 * GIB, 4096, &r), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcg_matches_paper_demo),
		cmocka_unit_test(test_pcg_same_seed_same_sequence),
		cmocka_unit_test(test_pcg_below_is_uniform),
		cmocka_unit_test(test_pcg_unit_in_range_with_mean_half),
		cmocka_unit_test(test_arrival_exponential_mean_and_cv),
		cmocka_unit_test(test_arrival_uniform_mean_and_cv),
		cmocka_unit_test(test_arrival_deterministic_is_exact),
		cmocka_unit_test(test_arrival_subnanosecond_mean_does_not_drift),
		cmocka_unit_test(test_arrival_set_mean_changes_rate),
		cmocka_unit_test(test_arrival_variable_steps_follow_rates),
		cmocka_unit_test(test_arrival_spike_releases_at_second_start),
		cmocka_unit_test(test_arrival_spike_keeps_whole_part_of_steps),
		cmocka_unit_test(test_arrival_init_rejects_bad_input),
		cmocka_unit_test(test_range_resolve_percentages),
		cmocka_unit_test(test_range_resolve_wraps_past_100),
		cmocka_unit_test(test_range_resolve_bytes_above_200),
		cmocka_unit_test(test_range_resolve_rejects_empty_and_reversed),
	};

	return cmocka_run_group_tests_name("gen", tests, NULL, NULL);
}
