/* Smoke test of the unit-test harness itself: cmocka links, runs, and reports in TAP. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ioramp/compiler.h"

static void test_array_size_counts_elements(void **state)
{
	int a[7];

	(void)state;
	assert_int_equal(IORAMP_ARRAY_SIZE(a), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_array_size_counts_elements),
	};

	return cmocka_run_group_tests_name("compiler", tests, NULL, NULL);
}
