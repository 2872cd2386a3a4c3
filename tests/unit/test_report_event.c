/* The words of the engine's typed events (src/report/event.c): each kind's console lines, as the
 * engine printed them before it spoke in events. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ioramp/report.h"

struct lines {
	char v[16][1024];
	size_t nr;
};

static void keep(void *ctx, const char *line)
{
	struct lines *l = ctx;

	if (l->nr < 16)
		snprintf(l->v[l->nr++], sizeof(l->v[0]), "%s", line);
}

static const char *one(const struct rep_event *e)
{
	static struct lines l;

	l.nr = 0;
	assert_int_equal(rep_event_lines(e, keep, &l), 1);
	return l.v[0];
}

/* A run whose seekpct=eof workloads are all done (and the format): VDbench's two lines. */
static void test_event_seq_done(void **state)
{
	struct lines l = { .nr = 0 };

	(void)state;
	assert_int_equal(rep_event_lines(&(struct rep_event){ .kind = REP_EV_SEQ_DONE }, keep, &l),
			 2);
	assert_string_equal(l.v[0], "All sequential workloads on all slaves are done.");
	assert_string_equal(l.v[1], "This triggers end of run inspite of possibly some "
				    "non-sequential workloads that are still running.");
}

static void test_event_console_lines(void **state)
{
	(void)state;
	assert_string_equal(one(&(struct rep_event){ .kind = REP_EV_STALL,
						     .sd = "sd1",
						     .lun = "/dev/x",
						     .stall_s = 2,
						     .nr_outstanding = 4 }),
			    "sd=sd1,lun=/dev/x: no I/O completed in 2 seconds; 4 outstanding "
			    "(timeout=)");
	assert_string_equal(
		one(&(struct rep_event){ .kind = REP_EV_WORKER_FAILED, .worker = 1, .err = EIO }),
		"ioramp: error: worker 1: Input/output error");
	assert_string_equal(one(&(struct rep_event){ .kind = REP_EV_STOPCURVE,
						     .rd = "rd1",
						     .stopcurve_ms = 0.5,
						     .resp_ms = 0.75 }),
			    "stopcurve=0.5: rd=rd1 response time 0.750 ms is above it; ending the "
			    "execution");
	/* VDbench 5.04.07's words for maxdata=, the amount reached in m or g (observed: 100.750m,
	 * 1.355g, 10.068g), with its trailing blank */
	assert_string_equal(one(&(struct rep_event){
				    .kind = REP_EV_MAXDATA, .rd = "rd1", .nr_bytes = 105644032 }),
			    "Reached maxdata=100.750m. rd=rd1 shutting down after next interval. ");
	assert_string_equal(one(&(struct rep_event){
				    .kind = REP_EV_MAXDATA, .rd = "rd2", .nr_bytes = 1454833664 }),
			    "Reached maxdata=1.355g. rd=rd2 shutting down after next interval. ");
	assert_string_equal(
		one(&(struct rep_event){
			.kind = REP_EV_DEDUP_SD, .sd = "sd1", .dedup = { 8192, 2, 512, 230, 25 } }),
		"Dedup sd=sd1: dedupunit=8192 dedupratio=2: 512 blocks, 230 unique, 282 "
		"duplicates in 25 sets: ratio 2.01:1");
	assert_string_equal(
		one(&(struct rep_event){ .kind = REP_EV_DV_MAP,
					 .sd = "sd1",
					 .nr_blocks = 1024,
					 .block_bytes = 4096 }),
		"localhost-0: Allocating Data Validation map for sd=sd1: 1,024 one-byte "
		"entries for each 4,096-byte block.");
	assert_string_equal(
		one(&(struct rep_event){
			.kind = REP_EV_RANK_LOST, .host = "hb-0", .interval = 3, .timeout_s = 30 }),
		"ioramp: error: hb-0 sent no statistics for interval 3 within 30 s; it is "
		"lost, ending the execution with the intervals measured so far");
}

static void test_event_boxes_and_blocks(void **state)
{
	struct lines l = { .nr = 0 };

	(void)state;
	assert_int_equal(rep_event_lines(&(struct rep_event){ .kind = REP_EV_ERROR_TOTAL,
							      .nr_errors = 7,
							      .is_boxed = true },
					 keep, &l),
			 3);
	assert_string_equal(l.v[0], "*");
	assert_string_equal(l.v[1], "Total Data Validation or I/O error count: 7");
	assert_string_equal(l.v[2], "*");
	l.nr = 0;
	assert_int_equal(
		rep_event_lines(&(struct rep_event){ .kind = REP_EV_DV_NOTHING }, keep, &l), 10);
	assert_string_equal(l.v[0], "No read validations done during a Data Validation run.");
	/* the observers' own events are not worded */
	l.nr = 0;
	assert_int_equal(rep_event_lines(&(struct rep_event){ .kind = REP_EV_RUN_START }, keep, &l),
			 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_console_lines),
		cmocka_unit_test(test_event_seq_done),
		cmocka_unit_test(test_event_boxes_and_blocks),
	};

	return cmocka_run_group_tests_name("report_event", tests, NULL, NULL);
}
