/* Unit tests of modelled drives (src/engine/model.h): the options and presets, the service-time
 * formula, and the backend's FIFO over units and its write cache, driven through a virtual
 * clock so that every completion time is asserted exactly. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/clock.h"
#include "../../src/engine/model.h"
#include "ioramp/compiler.h"

enum {
	DEPTH = 16,
};

struct fx {
	struct eng_clock clock;
	struct eng_sleeper sleeper;
	struct eng_backend *be;
	struct eng_io ios[DEPTH];
	struct eng_io *ptrs[DEPTH];
	struct eng_io *done[DEPTH];
	uint64_t at_ns[DEPTH]; /* when each I/O was reaped; 0: not yet */
};

static int fx_setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (!fx || eng_clock_init(&fx->clock, true) || eng_sleeper_join(&fx->clock, &fx->sleeper))
		return -1;
	for (int i = 0; i < DEPTH; i++)
		fx->ptrs[i] = &fx->ios[i];
	*state = fx;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *fx = *state;

	eng_backend_close(fx->be);
	eng_sleeper_leave(&fx->sleeper);
	eng_clock_fini(&fx->clock);
	free(fx);
	return 0;
}

/* One modelled drive (file 0) of spec, depth DEPTH, in fx's virtual time. */
static void model_open(struct fx *fx, const char *spec)
{
	struct eng_backend_file file = { .fd = -1, .threads = DEPTH, .stream = 1 };
	struct eng_backend_cfg cfg = {
		.depth = DEPTH,
		.files = &file,
		.nr_files = 1,
		.sleeper = &fx->sleeper,
		.seed = 42,
	};
	struct eng_model m;
	char msg[256];

	assert_int_equal(eng_model_parse(spec, &m, msg, sizeof(msg)), 0);
	assert_int_equal(eng_model_open(&m, &cfg, &fx->be), 0);
	assert_ptr_equal(fx->be->ops, &eng_backend_model);
}

static void io_set(struct eng_io *io, enum eng_op op, uint32_t size)
{
	memset(io, 0, sizeof(*io));
	io->op = op;
	io->size_bytes = size;
}

/* Submits ios[from..from+nr) now. */
static void submit(struct fx *fx, uint32_t from, uint32_t nr)
{
	for (uint32_t i = from; i < from + nr; i++)
		fx->at_ns[i] = 0;
	assert_int_equal(eng_backend_submit(fx->be, fx->ptrs + from, nr), (int)nr);
}

/* Reaps until ios[idx] has completed (noting when every I/O reaped did); returns the virtual
 * time it did. */
static uint64_t done_at(struct fx *fx, int idx)
{
	for (int round = 0; !fx->at_ns[idx] && round < 1000; round++) {
		int n = eng_backend_reap(fx->be, fx->done, DEPTH, UINT64_MAX);

		assert_true(n >= 0);
		for (int i = 0; i < n; i++)
			fx->at_ns[fx->done[i] - fx->ios] = eng_clock_now(&fx->clock);
	}
	if (!fx->at_ns[idx])
		fail_msg("ios[%d] never completed", idx);
	return fx->at_ns[idx];
}

static void test_model_options(void **state)
{
	static const struct {
		const char *spec;
		const char *msg; /* NULL: valid */
	} cases[] = {
		{ "model", NULL },
		{ "model:micron-9100-max-2.4tb", NULL },
		{ "model:micron-9100-max-2.4tb,units=8,dist=fixed", NULL },
		{ "model:units=4,read_us=80,write_us=20.5,mbps=500,cache_mb=64,cache_us=5", NULL },
		{ "model:read_mbps=3,write_mbps=2,cache_mb=0", NULL },
		{ "model:", "engine model:: expected a preset or OPTION=VALUE after model:" },
		{ "model:nope", "engine model:nope: unknown preset nope; expected "
				"micron-9100-max-2.4tb or OPTION=VALUE" },
		{ "model:units=2,micron-9100-max-2.4tb",
		  "engine model:units=2,micron-9100-max-2.4tb: "
		  "unknown preset micron" },
		{ "model:units=0", "engine model:units=0: invalid units=0; expected a whole number "
				   "from 1 to 4096" },
		{ "model:units=1.5", "engine model:units=1.5: invalid units=1.5" },
		{ "model:read_us=-1", "engine model:read_us=-1: invalid read_us=-1; expected a "
				      "positive number" },
		{ "model:dist=normal",
		  "engine model:dist=normal: invalid dist=normal; expected exp "
		  "or fixed" },
		{ "model:speed=3", "engine model:speed=3: unknown option speed; expected units=" },
	};
	struct eng_model m;
	char msg[256];

	(void)state;
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(cases); i++) {
		int ret;

		msg[0] = '\0';
		ret = eng_model_parse(cases[i].spec, &m, msg, sizeof(msg));
		if (!cases[i].msg) {
			if (ret)
				fail_msg("%s: %s", cases[i].spec, msg);
			continue;
		}
		assert_int_equal(ret, -EINVAL);
		if (strncmp(msg, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("%s: got \"%s\", expected \"%s...\"", cases[i].spec, msg,
				 cases[i].msg);
	}
	assert_true(eng_model_is("model:units=1"));
	assert_false(eng_model_is("modelx"));
	assert_false(eng_model_is(NULL));
	assert_int_equal(eng_model_parse("model:units=3,mbps=250", &m, msg, sizeof(msg)), 0);
	assert_int_equal(m.units, 3);
	assert_true(m.read_mbps == 250 && m.write_mbps == 250);
	assert_true(m.read_us == 100 && m.write_us == 100 && m.dist == ENG_MODEL_EXP);
	assert_true(m.cache_mb == 0);
}

/* The preset's drive reproduces its sheet: random read and write IOPS with every unit busy,
 * sequential 128 KiB rates, QD1 latencies. */
static void test_model_preset_derivation(void **state)
{
	const struct eng_model_preset *p = &eng_model_presets[0];
	struct eng_model m;
	double u;

	(void)state;
	assert_string_equal(p->name, "micron-9100-max-2.4tb");
	eng_model_from_preset(p, &m);
	u = m.units;
	assert_int_equal(m.units, 90);
	assert_true(m.read_us == 120 && m.cache_us == 30);
	assert_true(fabs(u / (eng_model_mean_ns(&m, false, 4096) / 1e9) - 750000) < 1e-6);
	assert_true(fabs(u / (eng_model_mean_ns(&m, true, 4096) / 1e9) - 300000) < 1e-6);
	assert_true(fabs(u * 131072 / (eng_model_mean_ns(&m, false, 131072) / 1e3) - 3000) < 1e-6);
	assert_true(fabs(u * 131072 / (eng_model_mean_ns(&m, true, 131072) / 1e3) - 2000) < 1e-6);
	assert_true(m.cache_mb == 12); /* 90 x 128 KiB = 11.25 MiB, rounded up */
}

static void test_model_mean_formula(void **state)
{
	struct eng_model m;
	char msg[128];

	(void)state;
	assert_int_equal(
		eng_model_parse("model:read_us=100,write_us=40,read_mbps=1000,write_mbps=500", &m,
				msg, sizeof(msg)),
		0);
	assert_true(eng_model_mean_ns(&m, false, 512) == 100000);
	assert_true(eng_model_mean_ns(&m, false, 4096) == 100000);
	/* 4 KiB base plus 61,440 bytes at 1000 MB/s (1 byte per ns): 61,440 ns more */
	assert_true(eng_model_mean_ns(&m, false, 65536) == 100000 + 61440);
	assert_true(eng_model_mean_ns(&m, true, 65536) == 40000 + 2 * 61440);
}

/* FIFO over units: two units, fixed 100 us; five reads at time 0 complete at 100, 100, 200,
 * 200 and 300 us, in arrival order; one that arrives at 250 us starts at once on the unit
 * free since 200 us. */
static void test_model_fifo_over_units(void **state)
{
	struct fx *fx = *state;

	model_open(fx, "model:units=2,read_us=100,dist=fixed");
	for (int i = 0; i < 6; i++)
		io_set(&fx->ios[i], ENG_OP_READ, 4096);
	submit(fx, 0, 5);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, 0), 0);
	assert_int_equal(done_at(fx, 0), 100000);
	assert_int_equal(done_at(fx, 1), 100000);
	assert_int_equal(done_at(fx, 2), 200000);
	assert_int_equal(done_at(fx, 3), 200000);
	eng_sleeper_until(&fx->sleeper, 250000);
	submit(fx, 5, 1);
	assert_int_equal(done_at(fx, 4), 300000);
	assert_int_equal(done_at(fx, 5), 350000);
	assert_int_equal(fx->ios[5].result, 4096);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, UINT64_MAX), 0);
}

/* A reap with a deadline before the next completion returns at the deadline with nothing. */
static void test_model_reap_deadline(void **state)
{
	struct fx *fx = *state;

	model_open(fx, "model:read_us=100,dist=fixed");
	io_set(&fx->ios[0], ENG_OP_READ, 4096);
	submit(fx, 0, 1);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, 40000), 0);
	assert_int_equal(eng_clock_now(&fx->clock), 40000);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, 100000), 1);
	assert_int_equal(eng_clock_now(&fx->clock), 100000);
}

/* The write cache: writes complete after cache_us while they fit (1 MiB = four 256 KiB
 * writes), the fifth is written through; an fsync waits for every destage. One unit, writes
 * of 256 KiB at 1 us + 0.25 MB per MB/s: 100 + 258,048 / 1000 us = 358.048 us each. */
static void test_model_write_cache(void **state)
{
	struct fx *fx = *state;
	uint64_t svc = 100000 + 258048;

	model_open(fx, "model:units=1,write_us=100,write_mbps=1000,dist=fixed,cache_mb=1,"
		       "cache_us=10");
	for (int i = 0; i < 5; i++)
		io_set(&fx->ios[i], ENG_OP_WRITE, 262144);
	io_set(&fx->ios[5], ENG_OP_FSYNC, 0);
	submit(fx, 0, 5);
	for (int i = 0; i < 4; i++)
		assert_int_equal(done_at(fx, i), 10000);
	/* written through behind the four destages on the one unit */
	assert_int_equal(done_at(fx, 4), 5 * svc);
	submit(fx, 5, 1);
	assert_int_equal(done_at(fx, 5), 5 * svc); /* every destage is done by then */
	io_set(&fx->ios[6], ENG_OP_WRITE, 262144);
	submit(fx, 6, 1); /* the cache is empty again */
	assert_int_equal(done_at(fx, 6), 5 * svc + 10000);
}

/* dist=exp: service times scatter around the formula's mean. */
static void test_model_exp_service(void **state)
{
	struct fx *fx = *state;
	double sum = 0;
	uint64_t t0;
	int n = 0;

	model_open(fx, "model:units=1,read_us=50");
	for (int round = 0; round < 20000; round++) {
		io_set(&fx->ios[0], ENG_OP_READ, 4096);
		t0 = eng_clock_now(&fx->clock);
		submit(fx, 0, 1);
		sum += (double)(done_at(fx, 0) - t0);
		n++;
	}
	assert_true(fabs(sum / n - 50000) / 50000 < 0.02);
}

/* A model runs only in virtual time. */
static void test_model_needs_virtual_time(void **state)
{
	struct eng_backend_file file = { .fd = -1, .threads = 1 };
	struct eng_backend_cfg cfg = { .depth = 1, .files = &file, .nr_files = 1 };
	struct eng_backend *be = NULL;
	struct eng_model m;
	char msg[128];

	(void)state;
	assert_int_equal(eng_model_parse("model", &m, msg, sizeof(msg)), 0);
	assert_int_equal(eng_model_open(&m, &cfg, &be), -EINVAL);
	assert_null(be);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_options),
		cmocka_unit_test(test_model_preset_derivation),
		cmocka_unit_test(test_model_mean_formula),
		cmocka_unit_test_setup_teardown(test_model_fifo_over_units, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_model_reap_deadline, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_model_write_cache, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_model_exp_service, fx_setup, fx_teardown),
		cmocka_unit_test(test_model_needs_virtual_time),
	};

	return cmocka_run_group_tests_name("engine_model", tests, NULL, NULL);
}
