/* The wake batch's two decisions (schedule.c): which workers batch their timer wake-ups (only
 * those with few arrivals per batch) and which paced SDs leave the sync engine's thread per
 * thread= for the shared workers (those whose threads get under one arrival per batch). */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "../../src/engine/engine_int.h"
#include "ioramp/compiler.h"

enum {
	BATCH_NS = 2000000, /* ENG_WAKE_BATCH_NS */
};

/* At most four arrivals per 2 ms batch (2000 a second) keep the batch; faster goes on time. */
static void test_batch_only_for_sparse_workers(void **state)
{
	(void)state;
	assert_int_equal(ENG_WAKE_BATCH_NS, BATCH_NS);
	assert_int_equal(eng_wake_batch_for(BATCH_NS, 0), BATCH_NS);
	assert_int_equal(eng_wake_batch_for(BATCH_NS, 62.5), BATCH_NS);
	assert_int_equal(eng_wake_batch_for(BATCH_NS, 2000), BATCH_NS);
	assert_int_equal(eng_wake_batch_for(BATCH_NS, 2001), 0);
	assert_int_equal(eng_wake_batch_for(BATCH_NS, 25600), 0);
	assert_int_equal(eng_wake_batch_for(1000000, 4000), 1000000); /* 4 per 1 ms batch */
	assert_int_equal(eng_wake_batch_for(1000000, 4001), 0);
	assert_int_equal(eng_wake_batch_for(0, 10), 0); /* no batch (virtual time) stays none */
}

/* A run of SDs with threads[i] threads, one generator each at iops[i]. */
static void run_of(struct eng_run *r, struct eng_sd_desc *sds, struct eng_wg_desc *wgs,
		   const uint32_t *threads, const double *iops, size_t n)
{
	memset(r, 0, sizeof(*r));
	memset(sds, 0, n * sizeof(*sds));
	memset(wgs, 0, n * sizeof(*wgs));
	r->mode = ENG_MODE_RATE;
	r->wake_batch_ns = BATCH_NS;
	r->sds = sds;
	r->nr_sds = n;
	r->wgs = wgs;
	r->nr_wgs = n;
	for (size_t i = 0; i < n; i++) {
		sds[i].threads = threads[i];
		wgs[i].run_sd = (uint32_t)i;
		wgs[i].rate_iops = iops[i];
	}
}

/* bench/speed's 4000 IOPS on eight SDs of threads=8 (62.5 a second per thread) all go to the
 * shared workers; an SD whose threads each get one arrival per batch or more keeps its own. */
static void test_sparse_sds_go_to_shared_workers(void **state)
{
	static const uint32_t threads[] = { 8, 8, 1, 1, 2, 2, 8 };
	static const double iops[] = { 500, 3999, 499, 500, 999, 1000, 0 };
	static const bool sparse[] = { true, true, true, false, true, false, true };
	struct eng_sd_desc sds[IORAMP_ARRAY_SIZE(threads)];
	struct eng_wg_desc wgs[IORAMP_ARRAY_SIZE(threads)];
	struct eng_run r;

	(void)state;
	run_of(&r, sds, wgs, threads, iops, IORAMP_ARRAY_SIZE(threads));
	for (size_t s = 0; s < r.nr_sds; s++)
		if (eng_sd_is_sparse(&r, s) != sparse[s])
			fail_msg("sd %zu: threads=%u at %.0f IOPS: sparse %d, expected %d", s,
				 threads[s], iops[s], !sparse[s], sparse[s]);
}

/* Two generators on one SD add up; max runs, runs without a batch (virtual time) and SDs with
 * no threads on this host never count as sparse. */
static void test_sparse_sums_generators_and_needs_a_batch(void **state)
{
	static const uint32_t threads[] = { 1, 1 };
	static const double iops[] = { 300, 300 };
	struct eng_sd_desc sds[2];
	struct eng_wg_desc wgs[2];
	struct eng_run r;

	(void)state;
	run_of(&r, sds, wgs, threads, iops, 2);
	assert_true(eng_sd_is_sparse(&r, 0));
	wgs[1].run_sd = 0; /* 600 a second on sd 0: 1.2 per batch for its one thread */
	assert_false(eng_sd_is_sparse(&r, 0));
	assert_true(eng_sd_is_sparse(&r, 1)); /* no arrivals at all: no thread of its own */
	wgs[1].run_sd = 1;
	r.wake_batch_ns = 0;
	assert_false(eng_sd_is_sparse(&r, 0));
	r.wake_batch_ns = BATCH_NS;
	r.mode = ENG_MODE_MAX;
	assert_false(eng_sd_is_sparse(&r, 0));
	r.mode = ENG_MODE_RATE;
	sds[0].threads = 0;
	assert_false(eng_sd_is_sparse(&r, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_only_for_sparse_workers),
		cmocka_unit_test(test_sparse_sds_go_to_shared_workers),
		cmocka_unit_test(test_sparse_sums_generators_and_needs_a_batch),
	};

	return cmocka_run_group_tests_name("engine_wake", tests, NULL, NULL);
}
