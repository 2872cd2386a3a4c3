/* Which workers batch their timer wake-ups (schedule.c): only those with few arrivals per
 * batch; faster ones issue every arrival on time. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_only_for_sparse_workers),
	};

	return cmocka_run_group_tests_name("engine_wake", tests, NULL, NULL);
}
