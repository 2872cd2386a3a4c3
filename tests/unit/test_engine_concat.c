/* Unit tests of the SD concatenation's address map (src/engine/concat.c), with the member
 * sizes of the VDbench 5.04.07 runs it was observed on (tests/parm/FINDINGS.md §SD
 * concatenation). */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../src/engine/concat.h"

#define KIB 1024ull

struct two {
	uint32_t run_sd[2];
	uint64_t start[2], len[2];
	struct eng_concat c;
};

static void two_init(struct two *t, uint64_t a, uint64_t b)
{
	*t = (struct two){ .run_sd = { 0, 1 }, .start = { 0, a }, .len = { a, b } };
	t->c = (struct eng_concat){ .nr = 2, .run_sd = t->run_sd, .start_bytes = t->start,
				    .len_bytes = t->len, .total_bytes = a + b,
				    .guard_bytes = 4 * KIB };
}

static uint32_t map(const struct two *t, uint64_t off, uint64_t *in)
{
	return eng_concat_map(&t->c, off, 4 * KIB, in);
}

/* 8 MiB + 24 MiB: the second member starts on a 4 KiB boundary; its block 0 moves to 4096. */
static void test_concat_aligned_members(void **state)
{
	struct two t;
	uint64_t in;

	(void)state;
	two_init(&t, 8192 * KIB, 24576 * KIB);
	assert_int_equal(map(&t, 4 * KIB, &in), 0);
	assert_int_equal(in, 4 * KIB);
	assert_int_equal(map(&t, 8188 * KIB, &in), 0);
	assert_int_equal(in, 8188 * KIB);
	assert_int_equal(map(&t, 8192 * KIB, &in), 1); /* the second's block 0 */
	assert_int_equal(in, 4 * KIB);
	assert_int_equal(map(&t, 8200 * KIB, &in), 1);
	assert_int_equal(in, 8 * KIB);
	assert_int_equal(map(&t, 0, &in), 0); /* the concatenation's block 0 */
	assert_int_equal(in, 4 * KIB);
}

/* 1 MiB + 1536 bytes, then 2 MiB: the I/O at 1 MiB straddles and goes to the second at 4096;
 * the next one lands 1536 bytes into the second's 4 KiB grid (VDbench wrote 2560..2095616). */
static void test_concat_straddle_goes_to_next(void **state)
{
	struct two t;
	uint64_t in;

	(void)state;
	two_init(&t, 1024 * KIB + 1536, 2048 * KIB);
	assert_int_equal(map(&t, 1020 * KIB, &in), 0);
	assert_int_equal(in, 1020 * KIB);
	assert_int_equal(map(&t, 1024 * KIB, &in), 1);
	assert_int_equal(in, 4 * KIB);
	assert_int_equal(map(&t, 1028 * KIB, &in), 1);
	assert_int_equal(in, 2560);
	assert_int_equal(map(&t, 3068 * KIB, &in), 1); /* the last whole block of the grid */
	assert_int_equal(in, 2048 * KIB - 1536 - 4 * KIB);
}

/* 5632 bytes, then 1 MiB: the first member holds only its block 0 and a straddling block, so it
 * gets no I/O at all (VDbench: sd1 0.0 I/O per second, the second's first 2560 bytes never
 * written). */
static void test_concat_tiny_member_gets_none(void **state)
{
	struct two t;
	uint64_t in;

	(void)state;
	two_init(&t, 5632, 1024 * KIB);
	assert_int_equal(map(&t, 0, &in), 1); /* 4096 + 4096 > 5632: passed on */
	assert_int_equal(in, 4 * KIB);
	assert_int_equal(map(&t, 4 * KIB, &in), 1);
	assert_int_equal(in, 4 * KIB);
	assert_int_equal(map(&t, 8 * KIB, &in), 1);
	assert_int_equal(in, 2560);
}

/* A straddle at the end of the last member wraps to the first member's first usable block. */
static void test_concat_end_wraps(void **state)
{
	struct two t;
	uint64_t in;

	(void)state;
	two_init(&t, 64 * KIB, 64 * KIB + 512);
	assert_int_equal(eng_concat_map(&t.c, 124 * KIB, 4 * KIB, &in), 1);
	assert_int_equal(in, 60 * KIB);
	assert_int_equal(eng_concat_map(&t.c, 128 * KIB, 4 * KIB, &in), 0);
	assert_int_equal(in, 4 * KIB);
}

/* Many members: each offset lands in the member whose bytes hold it. */
static void test_concat_many_members(void **state)
{
	enum { NR = 100 };
	uint32_t run_sd[NR];
	uint64_t start[NR], len[NR], at = 0, in;
	struct eng_concat c = { .nr = NR, .run_sd = run_sd, .start_bytes = start,
				.len_bytes = len, .guard_bytes = 4 * KIB };

	(void)state;
	for (uint32_t i = 0; i < NR; i++) {
		run_sd[i] = i;
		start[i] = at;
		len[i] = (16 + i) * 64 * KIB;
		at += len[i];
	}
	c.total_bytes = at;
	for (uint32_t i = 0; i < NR; i++) {
		assert_int_equal(eng_concat_map(&c, start[i] + 8 * KIB, 4 * KIB, &in), i);
		assert_int_equal(in, 8 * KIB);
		assert_int_equal(eng_concat_map(&c, start[i] + len[i] - 4 * KIB, 4 * KIB, &in), i);
		assert_int_equal(in, len[i] - 4 * KIB);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_concat_aligned_members),
		cmocka_unit_test(test_concat_straddle_goes_to_next),
		cmocka_unit_test(test_concat_tiny_member_gets_none),
		cmocka_unit_test(test_concat_end_wraps),
		cmocka_unit_test(test_concat_many_members),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
