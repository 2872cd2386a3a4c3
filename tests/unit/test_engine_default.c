/* Unit tests of the default engine: its rule per kind of SD (eng_backend_default, every file
 * kind x flags x op mix) and the placing of SDs of different backends on workers (one backend
 * per worker, each backend its share of the workers). No I/O, no clock. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "../../src/engine/backend.h"
#include "../../src/engine/exec.h"
#include "ioramp/compiler.h"

/* Every kind the rule tells apart, with its pick and its words. */
static void test_default_rule_per_kind(void **state)
{
	static const struct {
		struct eng_sd_traits t;
		const char *engine;
		const char *kind;
	} cases[] = {
		/* O_DIRECT: io_uring, whatever the file, the mix and the sizes */
		{ { .is_direct = true, .max_xfer_bytes = 4096 }, "uring", "O_DIRECT" },
		{ { .is_direct = true, .max_xfer_bytes = 1 << 20 }, "uring", "O_DIRECT" },
		{ { .is_direct = true, .is_writing = true }, "uring", "O_DIRECT" },
		{ { .is_block = true, .is_direct = true, .max_xfer_bytes = 1 << 20 },
		  "uring",
		  "O_DIRECT" },
		/* a block device through its page cache: io_uring, large reads too */
		{ { .is_block = true, .max_xfer_bytes = 1 << 20 },
		  "uring",
		  "buffered block device" },
		{ { .is_block = true, .is_writing = true }, "uring", "buffered block device" },
		/* buffered files (and character devices): bench/engines' and bench/speed's winner
		 * per mix: io_uring for small reads, sync for large reads and for any write (io_uring
		 * punts buffered writes to its kernel workers) */
		{ { .max_xfer_bytes = 4096 }, "uring", "buffered, reads below 64 KiB" },
		{ { .max_xfer_bytes = (64 << 10) - 512 }, "uring", "buffered, reads below 64 KiB" },
		{ { .max_xfer_bytes = 64 << 10 }, "sync", "buffered, reads of 64 KiB or more" },
		{ { .max_xfer_bytes = 1 << 20 }, "sync", "buffered, reads of 64 KiB or more" },
		{ { .is_writing = true, .max_xfer_bytes = 4096 }, "sync", "buffered, writes" },
		{ { .is_writing = true, .max_xfer_bytes = 64 << 10 }, "sync", "buffered, writes" },
	};

	(void)state;
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(cases); i++) {
		const char *e = eng_backend_default(&cases[i].t);

		assert_non_null(e);
		assert_non_null(eng_backend_find(e)); /* a backend that exists, by that name */
		assert_string_equal(e, cases[i].engine);
		assert_string_equal(eng_backend_default_kind(&cases[i].t), cases[i].kind);
	}
}

/* A run of nr SDs with the backends given (NULL ends the list), every SD placed. */
static void run_of(struct eng_run *r, struct eng_sd_desc *sds, bool *placed, const char **engines)
{
	memset(r, 0, sizeof(*r));
	r->sds = sds;
	for (size_t i = 0; engines[i]; i++) {
		memset(&sds[i], 0, sizeof(sds[i]));
		sds[i].engine = engines[i];
		placed[i] = true;
		r->nr_sds++;
	}
}

/* One backend: round-robin over every worker, as before the default picked per SD. */
static void test_place_one_backend_round_robin(void **state)
{
	const char *engines[] = { "uring", "uring", "uring", "uring", "uring", NULL };
	struct eng_sd_desc sds[5];
	bool placed[5];
	struct eng_run r;

	(void)state;
	run_of(&r, sds, placed, engines);
	assert_int_equal(eng_place_sds(&r, placed, 2), 2);
	for (size_t s = 0; s < 5; s++)
		assert_int_equal(sds[s].worker, s % 2);
	assert_string_equal(eng_worker_engine(&r, 1), "uring");
}

/* Two backends: no worker drives both; each gets its share of the workers, at least one. */
static void test_place_two_backends_apart(void **state)
{
	const char *engines[] = { "uring", "sync", "uring", "uring", "sync", "uring", NULL };
	struct eng_sd_desc sds[6];
	bool placed[6];
	struct eng_run r;
	uint32_t n;

	(void)state;
	run_of(&r, sds, placed, engines);
	n = eng_place_sds(&r, placed, 2); /* 4 uring SDs: 1 worker; 2 sync SDs: 1 worker */
	assert_int_equal(n, 2);
	for (size_t s = 0; s < 6; s++) {
		assert_true(sds[s].worker < n);
		assert_string_equal(eng_worker_engine(&r, sds[s].worker), sds[s].engine);
	}
	assert_int_not_equal(sds[0].worker, sds[1].worker);
	n = eng_place_sds(&r, placed, 6); /* 4 workers for uring, 2 for sync: one SD each */
	assert_int_equal(n, 6);
	for (size_t s = 0; s < 6; s++)
		for (size_t p = 0; p < s; p++)
			assert_int_not_equal(sds[s].worker, sds[p].worker);
}

/* An SD left out (many hosts: another rank drives it) gets no worker and no share. */
static void test_place_skips_unplaced(void **state)
{
	const char *engines[] = { "sync", "uring", "uring", NULL };
	struct eng_sd_desc sds[3];
	bool placed[3];
	struct eng_run r;

	(void)state;
	run_of(&r, sds, placed, engines);
	placed[0] = false;
	assert_int_equal(eng_place_sds(&r, placed, 2), 2);
	assert_int_equal(sds[0].worker, UINT32_MAX);
	assert_int_equal(sds[1].worker, 0);
	assert_int_equal(sds[2].worker, 1);
	assert_null(eng_worker_engine(&r, 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_rule_per_kind),
		cmocka_unit_test(test_place_one_backend_round_robin),
		cmocka_unit_test(test_place_two_backends_apart),
		cmocka_unit_test(test_place_skips_unplaced),
	};

	return cmocka_run_group_tests_name("engine_default", tests, NULL, NULL);
}
