/* Unit tests of timeout= stall detection (src/engine/stall.c) on synthetic interval figures:
 * a stall is named once, ends with any completion, never counts an idle SD, and past the abort
 * time names the SD to end the execution. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../../src/engine/stall.h"

#define SEC 1000000000ull

static const char *const names[] = { "sd1", "sd2" };
static const char *const luns[] = { "/dev/a", "/dev/b" };
static struct rep_set reps; /* no observers: the messages go nowhere */

static struct parm_config *config(const char *general, struct parm_source **keep)
{
	char text[512];
	struct parm_input in = { 0 };
	struct parm_config *cfg;
	struct parm_err err;

	snprintf(text, sizeof(text),
		 "%s\nsd=sd1,lun=/dev/a\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2\n",
		 general);
	assert_int_equal(parm_config_read_text("t.vdb", text, strlen(text), &in, &cfg, keep, &err),
			 0);
	return cfg;
}

/* One interval: sd1 completes done I/Os with inflight outstanding; sd2 is idle. */
static long interval(struct eng_stall *s, struct stats_bank *b, uint64_t done, uint32_t inflight)
{
	memset(b, 0, 2 * sizeof(*b));
	b[0].op[STATS_OP_READ].nr_ios = done;
	b[0].nr_inflight = inflight;
	return eng_stall_check(s, b, SEC, names, luns, &reps);
}

static void test_stall_warns_once_resets_and_aborts(void **state)
{
	static struct stats_bank b[2];
	struct parm_source *keep;
	struct parm_config *cfg = config("timeout=(2,4)", &keep);
	struct eng_stall s;

	(void)state;
	assert_int_equal(eng_stall_init(&s, cfg, 2), 0);
	assert_int_equal(s.warn_ns, 2 * SEC);
	assert_int_equal(s.abort_ns, 4 * SEC);
	assert_int_equal(interval(&s, b, 0, 4), -1);
	assert_int_equal(interval(&s, b, 0, 4), -1);
	assert_true(s.is_warned[0]);
	assert_int_equal(interval(&s, b, 7, 4), -1); /* a completion ends the stall */
	assert_int_equal(s.ns[0], 0);
	assert_false(s.is_warned[0]);
	assert_int_equal(interval(&s, b, 0, 0), -1); /* nothing outstanding: idle, not stalled */
	assert_int_equal(s.ns[0], 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(interval(&s, b, 0, 1), -1);
	assert_int_equal(interval(&s, b, 0, 1), 0); /* 4 s: sd1 ends the execution */
	assert_int_equal(s.ns[1], 0);		    /* sd2 never had I/O outstanding */
	eng_stall_fini(&s);
	parm_config_free(cfg);
	parm_source_free(keep);
}

static void test_stall_off_and_warn_only(void **state)
{
	static struct stats_bank b[2];
	struct parm_source *keep;
	struct parm_config *cfg = config("compratio=1", &keep);
	struct eng_stall s;

	(void)state;
	assert_int_equal(eng_stall_init(&s, cfg, 2), 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(interval(&s, b, 0, 4), -1);
	eng_stall_fini(&s);
	parm_config_free(cfg);
	parm_source_free(keep);
	cfg = config("timeout=1", &keep);
	assert_int_equal(eng_stall_init(&s, cfg, 2), 0);
	assert_int_equal(s.abort_ns, 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(interval(&s, b, 0, 4), -1);
	assert_true(s.is_warned[0]);
	eng_stall_fini(&s);
	parm_config_free(cfg);
	parm_source_free(keep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stall_warns_once_resets_and_aborts),
		cmocka_unit_test(test_stall_off_and_warn_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
