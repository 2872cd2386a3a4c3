/* Which workers batch their timer wake-ups (schedule.c): only those with few arrivals per
 * batch; faster ones issue every arrival on time. Which serial SDs share a worker. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../src/engine/engine_int.h"

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

/* Serial SDs share workers in order while their rates fit ENG_SERIAL_MAX_ARRIVALS per batch
 * (4000 a second for 2 ms): eight SDs at 500 a second (4000 IOPS) on one worker, a ninth on
 * the next; an SD not serial keeps its own placement; an SD with a generator at max has no
 * rate. */
static void test_serial_sds_share_workers_by_rate(void **state)
{
	struct eng_sd_desc sds[10] = { 0 };
	struct eng_wg_desc wgs[11] = { 0 };
	struct eng_run r = {
		.sds = sds, .nr_sds = 10, .wgs = wgs, .nr_wgs = 11, .wake_batch_ns = BATCH_NS
	};

	(void)state;
	for (uint32_t s = 0; s < 10; s++) {
		sds[s] = (struct eng_sd_desc){ .is_serial = s != 4, .worker = 77, .nr_parts = 8 };
		wgs[s] = (struct eng_wg_desc){ .run_sd = s, .rate_iops = 500 };
	}
	wgs[10] = (struct eng_wg_desc){ .run_sd = 4, .rate_iops = 0 }; /* at max */
	assert_true(eng_sd_rate(&r, 0) == 500);
	assert_true(eng_sd_rate(&r, 4) == 0);
	assert_int_equal(eng_place_serial(&r, 3), 5); /* workers 3 and 4 */
	for (uint32_t s = 0; s < 10; s++) {
		if (s == 4) {
			assert_int_equal(sds[s].worker, 77);
			assert_int_equal(sds[s].nr_parts, 8);
			continue;
		}
		assert_int_equal(sds[s].worker, s < 9 ? 3 : 4);
		assert_int_equal(sds[s].nr_parts, 1);
	}
	/* one more rate than fits: each of two SDs at 2500 a second gets a worker of its own */
	wgs[0].rate_iops = wgs[1].rate_iops = 2500;
	assert_int_equal(eng_place_serial(&r, 0), 3);
	assert_int_equal(sds[0].worker, 0);
	assert_int_equal(sds[1].worker, 1);
	assert_int_equal(sds[2].worker, 1);
	for (uint32_t s = 0; s < 10; s++)
		sds[s].is_serial = false;
	assert_int_equal(eng_place_serial(&r, 6), 6); /* none: no worker taken */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_only_for_sparse_workers),
		cmocka_unit_test(test_serial_sds_share_workers_by_rate),
	};

	return cmocka_run_group_tests_name("engine_wake", tests, NULL, NULL);
}
