/* Which workers batch their timer wake-ups (schedule.c): only those with few arrivals per
 * batch; faster ones issue every arrival on time. Which serial SDs share a worker, what the
 * limit rule judges of them, and which SDs' writes take a gate. How the controller, asleep on
 * a real clock until its interval ends, hears what the workers tell it. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "../../src/engine/collect.h"
#include "../../src/engine/engine_int.h"
#include "../../src/engine/target.h"

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
	assert_int_equal(eng_place_serial(&r, 3, 2), 5); /* workers 3 and 4 */
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
	assert_int_equal(eng_place_serial(&r, 0, 2), 3);
	assert_int_equal(sds[0].worker, 0);
	assert_int_equal(sds[1].worker, 1);
	assert_int_equal(sds[2].worker, 1);
	/* an SD faster than a worker's share has workers of its own, the fast SDs' together
	 * about one per CPU: SD 1 alone on 4 CPUs four (threads=8), SDs 0 and 1 on 4 CPUs two
	 * each, with threads=1 one; the slow SDs around them share as before */
	for (uint32_t s = 0; s < 10; s++)
		sds[s].threads = 8;
	wgs[0].rate_iops = 500;
	wgs[1].rate_iops = 200000;
	assert_int_equal(eng_place_serial(&r, 0, 4), 6);
	assert_int_equal(sds[0].worker, 0);
	assert_int_equal(sds[0].nr_parts, 1);
	assert_int_equal(sds[1].worker, 1);
	assert_int_equal(sds[1].nr_parts, 4);
	assert_int_equal(sds[2].worker, 5);
	assert_int_equal(sds[9].worker, 5);
	wgs[0].rate_iops = 200000;
	assert_int_equal(eng_place_serial(&r, 0, 4), 5);
	assert_int_equal(sds[0].nr_parts, 2);
	assert_int_equal(sds[1].worker, 2);
	assert_int_equal(sds[1].nr_parts, 2);
	sds[1].threads = 1;
	assert_int_equal(eng_place_serial(&r, 0, 4), 4);
	assert_int_equal(sds[1].nr_parts, 1);
	for (uint32_t s = 0; s < 10; s++)
		sds[s].is_serial = false;
	assert_int_equal(eng_place_serial(&r, 6, 2), 6); /* none: no worker taken */
}

/* A serial worker has one slot (one I/O at a time) for all its SDs: when their outstanding
 * I/O sums to that slot all the time, the I/O holds the point back and the verdict is device,
 * as for an SD whose threads are all busy (issue 14). Judged per SD against threads=8, as
 * before, the same figures said none. The CPU figures are low: not the generator. */
static void test_serial_worker_busy_slot_is_device(void **state)
{
	struct eng_sd_desc sds[4] = {
		{ .is_serial = true, .worker = 3, .threads = 8 },
		{ .is_serial = false, .worker = 0, .threads = 8 },
		{ .is_serial = true, .worker = 3, .threads = 8 },
		{ .is_serial = true, .worker = 4, .threads = 8 },
	};
	struct eng_run r = { .sds = sds, .nr_sds = 4, .wake_batch_ns = BATCH_NS };
	double sd_qd[4] = { 0.60, 2.0, 0.38, 0.2 }, qd[4];
	uint32_t depth[4], thr[4] = { 8, 8, 8, 8 };
	size_t n;

	(void)state;
	assert_int_equal(eng_limit_rule(sd_qd, thr, 4, 20, 20, 2), REP_LIMIT_NONE);
	n = eng_limit_depths(&r, sd_qd, qd, depth);
	assert_int_equal(n, 3); /* worker 3's two SDs, sd1, worker 4's */
	assert_true(fabs(qd[0] - 0.98) < 1e-12 && depth[0] == 1);
	assert_true(qd[1] == 2.0 && depth[1] == 8);
	assert_true(qd[2] == 0.2 && depth[2] == 1);
	assert_int_equal(eng_limit_rule(qd, depth, n, 20, 20, 2), REP_LIMIT_DEVICE);
	/* a slot busy half the time holds nothing back; in place, as the collector calls it */
	sd_qd[0] = 0.3;
	sd_qd[2] = 0.2;
	n = eng_limit_depths(&r, sd_qd, sd_qd, depth);
	assert_true(sd_qd[0] == 0.5);
	assert_int_equal(eng_limit_rule(sd_qd, depth, n, 20, 20, 2), REP_LIMIT_NONE);
}

/* The sync threads of a written buffered SD take its write gate only when the run has at least
 * as many SDs as CPUs: one SD on two CPUs writes ungated (a gate held it to one CPU: its
 * waiters were woken on the waker's CPU and preempted the holder there); beside a second SD,
 * even one only read, it is gated. SDs read only, O_DIRECT, with one thread, or on another
 * engine are never gated. */
static void test_write_gates_only_as_many_sds_as_cpus(void **state)
{
	struct eng_target file = { .fd = 3, .kind = ENG_TARGET_FILE };
	struct eng_target direct = { .fd = 4, .kind = ENG_TARGET_FILE, .is_direct = true };
	struct eng_sd_desc sds[6] = {
		{ .target = &file, .engine = "sync", .threads = 8, .is_written = true },
		{ .target = &file, .engine = "uring", .threads = 8, .is_written = false },
		{ .target = &direct, .engine = "sync", .threads = 8, .is_written = true },
		{ .target = &file, .engine = "sync", .threads = 1, .is_written = true },
		{ .target = &file, .engine = "uring", .threads = 8, .is_written = true },
		{ .target = &file, .engine = "sync", .threads = 8, .is_written = false },
	};
	struct eng_run r = { .sds = sds, .nr_sds = 1 };

	(void)state;
	eng_pick_write_gated(&r, 2);
	assert_false(sds[0].is_write_gated); /* one SD, two CPUs */
	eng_pick_write_gated(&r, 1);
	assert_true(sds[0].is_write_gated);
	r.nr_sds = 2;
	eng_pick_write_gated(&r, 2); /* beside an SD only read, on another engine */
	assert_true(sds[0].is_write_gated);
	assert_false(sds[1].is_write_gated);
	r.nr_sds = 6;
	eng_pick_write_gated(&r, 2);
	for (size_t s = 0; s < 6; s++)
		assert_int_equal(sds[s].is_write_gated, s == 0);
	eng_pick_write_gated(&r, 7);
	for (size_t s = 0; s < 6; s++)
		assert_false(sds[s].is_write_gated);
}

struct teller {
	struct eng_clock *clock;
	atomic_bool is_heard;
	uint32_t nr_tells;
};

/* A worker publishing intervals: tells until the listener is back. */
static void *tell_until_heard(void *arg)
{
	struct teller *t = arg;

	while (!atomic_load(&t->is_heard)) {
		eng_clock_tell(t->clock);
		t->nr_tells++;
		sched_yield();
	}
	return NULL;
}

/* A listening sleeper on a real clock (the controller) waits until its deadline or a tell: a
 * tell while it is awake ends its next wait at once (none is lost between two waits), a tell
 * from another thread ends a wait a minute long. A sleeper that does not listen (a worker)
 * is not woken by tells: its wait of 1 ms is whole. */
static void test_real_listener_hears_tells(void **state)
{
	struct eng_clock clock;
	struct eng_sleeper ctl, worker;
	struct teller t = { .clock = &clock };
	pthread_t thread;
	uint64_t minute, start;

	(void)state;
	assert_int_equal(eng_clock_init(&clock, false), 0);
	assert_int_equal(eng_sleeper_join(&clock, &ctl), 0);
	assert_int_equal(eng_sleeper_join(&clock, &worker), 0);
	eng_sleeper_listen(&ctl);
	minute = eng_clock_now(&clock) + 60 * ENG_NSEC_PER_SEC;

	eng_clock_tell(&clock); /* told while awake */
	eng_sleeper_until(&ctl, minute);
	assert_true(eng_clock_now(&clock) < minute);

	assert_int_equal(pthread_create(&thread, NULL, tell_until_heard, &t), 0);
	eng_sleeper_until(&ctl, minute);
	atomic_store(&t.is_heard, true);
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_true(eng_clock_now(&clock) < minute);
	assert_true(t.nr_tells > 0);

	eng_clock_tell(&clock);
	start = eng_clock_now(&clock);
	eng_sleeper_until(&worker, start + 1000000);
	assert_true(eng_clock_now(&clock) >= start + 1000000);
	eng_sleeper_leave(&worker);
	eng_sleeper_leave(&ctl);
	eng_clock_fini(&clock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_only_for_sparse_workers),
		cmocka_unit_test(test_serial_sds_share_workers_by_rate),
		cmocka_unit_test(test_serial_worker_busy_slot_is_device),
		cmocka_unit_test(test_write_gates_only_as_many_sds_as_cpus),
		cmocka_unit_test(test_real_listener_hears_tells),
	};

	return cmocka_run_group_tests_name("engine_wake", tests, NULL, NULL);
}
