/* Unit tests of src/plan: loop nesting, curves, relative rates, skew split, the time rules and
 * the curve-point rounding. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/fs.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"

struct planned {
	struct parm_config *cfg;
	struct parm_source *keep;
	struct plan *plan;
	struct parm_err err;
	int ret;
};

static void plan_text(struct planned *p, const char *text, const struct parm_overrides *ovr)
{
	struct parm_input in = { 0 };

	if (ovr)
		in.overrides = *ovr;
	memset(p, 0, sizeof(*p));
	p->ret =
		parm_config_read_text("t.vdb", text, strlen(text), &in, &p->cfg, &p->keep, &p->err);
	if (!p->ret)
		p->ret = plan_build(p->cfg, &p->plan, &p->err);
}

static void planned_fini(struct planned *p)
{
	plan_free(p->plan);
	parm_config_free(p->cfg);
	parm_source_free(p->keep);
}

#define BASE "sd=sd1,lun=/tmp/f1,size=1m\nwd=wd1,sd=sd1\n"

static void test_loops_nest_in_written_order(void **state)
{
	struct planned p;

	(void)state;
	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=(10,20),forthreads=(1-8,d),forxfersize=(4k,8k)\n",
		  NULL);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan->nr_runs, 4 * 2 * 2);
	assert_string_equal(p.plan->runs[0].for_loops, "threads=1 xfersize=4k iorate=10");
	assert_string_equal(p.plan->runs[1].for_loops, "threads=1 xfersize=4k iorate=20");
	assert_string_equal(p.plan->runs[2].for_loops, "threads=1 xfersize=8k iorate=10");
	assert_string_equal(p.plan->runs[15].for_loops, "threads=8 xfersize=8k iorate=20");
	assert_int_equal(p.plan->runs[15].ovr.threads, 8);
	assert_true(p.plan->runs[15].ovr.xfersize_bytes == 8192);
	assert_true(p.plan->runs[15].rate_iops == 20);
	planned_fini(&p);
}

static void test_curve_adds_max_and_points(void **state)
{
	struct planned p;

	(void)state;
	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=curve\n", NULL);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan->nr_runs, 7);
	assert_int_equal(p.plan->runs[0].rate, PLAN_RATE_CURVE_MAX);
	assert_string_equal(p.plan->runs[1].name, "rd1_(10%)");
	assert_string_equal(p.plan->runs[6].name, "rd1_(100%)");
	assert_int_equal(p.plan->runs[3].base_run, 0);
	assert_true(p.plan->runs[3].pct == 70);
	planned_fini(&p);

	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=curve,curve=(10-120,10),forxfersize=(4k,8k)\n",
		  NULL);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan->nr_runs, 2 * 13);
	assert_string_equal(p.plan->runs[12].name, "rd1_(120%)");
	assert_int_equal(p.plan->runs[14].base_run, 13);
	planned_fini(&p);
}

static void test_relative_rate_uses_previous_run(void **state)
{
	struct planned p;

	(void)state;
	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=(max,50%)\n", NULL);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan->nr_runs, 2);
	assert_int_equal(p.plan->runs[1].rate, PLAN_RATE_REL);
	assert_int_equal(p.plan->runs[1].base_run, 0);
	assert_string_equal(p.plan->runs[1].for_loops, "iorate=50%");
	planned_fini(&p);
}

static void test_curve_target_rounds_up(void **state)
{
	(void)state;
	assert_true(plan_curve_target(395017.5, 50) == 197600);
	assert_true(plan_curve_target(395017.5, 100) == 395100);
	assert_true(plan_curve_target(10000, 70) == 7000);
	assert_true(plan_curve_target(999, 50) == 500);
	assert_true(plan_curve_target(1234, 33) == 410);
	assert_true(plan_curve_target(5000, 33) == 1700);
}

static void test_times_are_checked(void **state)
{
	struct parm_overrides ovr = { .elapsed_s = 10, .has_elapsed = true };
	struct planned p;

	(void)state;
	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=10,elapsed=5,interval=2\n", NULL);
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "'elapsed=5' must be a multiple of 'interval=2'"));
	assert_int_equal(p.err.loc.line, 3);
	planned_fini(&p);

	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=10,elapsed=2,interval=2\n", NULL);
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "at least twice"));
	planned_fini(&p);

	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=10,elapsed=5,interval=1,warmup=3\n", &ovr);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan->runs[0].elapsed_s, 10);
	assert_int_equal(p.plan->runs[0].warmup_s, 3);
	planned_fini(&p);

	/* a missing iorate= is VDbench's late error: -s lists the run first */
	plan_text(&p, BASE "rd=rd1,wd=wd1,elapsed=5\n", NULL);
	assert_int_equal(p.ret, 0);
	assert_true(p.plan->has_late_err);
	assert_int_equal(p.plan->late_idx, 0);
	assert_int_equal(plan_check_runnable(p.plan, &p.err), -EINVAL);
	assert_non_null(strstr(p.err.msg, "iorate= parameter is missing"));
	planned_fini(&p);
}

static void test_skew_split_and_checks(void **state)
{
	struct planned p;

	(void)state;
	plan_text(&p,
		  "sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1,skew=40\nwd=wd2,sd=sd1\nwd=wd3,sd=sd1\n"
		  "rd=rd1,wd=wd*,iorate=max\n",
		  NULL);
	assert_int_equal(p.ret, 0);
	assert_true(p.plan->runs[0].is_controlled);
	assert_true(p.plan->runs[0].skews[0] == 40);
	assert_true(p.plan->runs[0].skews[1] == 30 && p.plan->runs[0].skews[2] == 30);
	planned_fini(&p);

	plan_text(&p,
		  "sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1,skew=30\nwd=wd2,sd=sd1,skew=30\n"
		  "rd=rd1,wd=wd*,iorate=max\n",
		  NULL);
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "Total skew must add up to 100: 60.00"));
	planned_fini(&p);

	plan_text(&p,
		  "sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1\nwd=wd2,sd=sd1\n"
		  "rd=rd1,wd=wd*,iorate=max\n",
		  NULL);
	assert_int_equal(p.ret, 0);
	assert_false(p.plan->runs[0].is_controlled);
	planned_fini(&p);

	/* within 0.0001 of 100 is 100 [281]; 0.0002 off is not [282] */
	plan_text(&p,
		  "sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1,skew=33.3333\nwd=wd2,sd=sd1,skew=33.3333\n"
		  "wd=wd3,sd=sd1,skew=33.3333\nrd=rd1,wd=wd*,iorate=max\n",
		  NULL);
	assert_int_equal(p.ret, 0);
	assert_int_equal(plan_check_runnable(p.plan, &p.err), 0);
	planned_fini(&p);
	plan_text(&p, "sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1,skew=99.9998\nrd=rd1,wd=wd*,iorate=max\n",
		  NULL);
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "Total skew must add up to 100: 100.00"));
	planned_fini(&p);

	/* skew=120 beside a WD without skew= is listed, that WD at -20, and refused to run [283] */
	plan_text(&p,
		  "sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1,skew=120\nwd=wd2,sd=sd1\n"
		  "rd=rd1,wd=wd*,iorate=max\n",
		  NULL);
	assert_int_equal(p.ret, 0);
	assert_true(p.plan->runs[0].skews[1] == -20);
	assert_int_equal(plan_check_runnable(p.plan, &p.err), -EINVAL);
	assert_non_null(strstr(p.err.msg, "wd=wd1 would run at skew 120.00%"));
	assert_int_equal(p.err.loc.line, 2);
	planned_fini(&p);
}

static void test_loop_value_text_is_vdbench_format(void **state)
{
	static const struct {
		double v;
		const char *text;
	} cases[] = {
		{ 0.5, "0" },
		{ 1023.6, "1023" },
		{ 1024, "1k" },
		{ 1536, "1.500k" },
		{ 1.0005 * 1024, "1.001k" }, /* Java rounds the shortest decimal half-up */
		{ 1048575.9, "1024k" },	     /* rounds up inside the unit */
		{ 1.5 * 1024 * 1024 * 1024, "1.500g" },
		{ 1024.0 * 1024 * 1024 * 1024 * 1024, "1p" },
		{ 1e15, "909.495t" },
		{ -1, "1%" },
		{ -4096, "4096%" },
		{ -1.5, "1%" },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		plan_loop_value_text(cases[i].v, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].text);
	}
}

static void test_sd_modes_name_runs_and_their_sds(void **state)
{
	const char *sds = "sd=sd1,lun=/tmp/a\nsd=sd2,lun=/tmp/b\nsd=sd3,lun=/tmp/c\n"
			  "wd=wd1,sd=sd1\n";
	char text[512];
	struct planned p;

	(void)state;
	snprintf(text, sizeof(text), "%srd=rd1,wd=wd1,iorate=10,sd=range,forthreads=(1,2)\n", sds);
	plan_text(&p, text, NULL);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan->nr_runs, 6);
	assert_string_equal(p.plan->runs[0].name, "rd1_sd1-sd1");
	assert_string_equal(p.plan->runs[5].name, "rd1_sd1-sd3");
	assert_int_equal(p.plan->runs[5].nr_sd, 3);
	planned_fini(&p);

	/* setsofN in SD order (VDbench's shuffle is a documented difference) */
	snprintf(text, sizeof(text), "%srd=rd1,sd=setsof2,iorate=curve,curve=(50)\n", sds);
	plan_text(&p, text, NULL);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan->nr_runs, 4);
	assert_string_equal(p.plan->runs[1].name, "rd1_sd1_sd2_(50%)");
	assert_string_equal(p.plan->runs[2].name, "rd1_sd3");
	assert_int_equal(p.plan->runs[2].nr_sd, 1);
	assert_int_equal(p.plan->runs[2].sd_idx[0], 2);
	planned_fini(&p);
}

/* The -s listing with the time of day cut off, in a malloc'ed string. */
static char *listing(const struct plan *plan, int *ret, struct parm_err *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	*ret = plan_print_simulation(plan, f, err);
	fclose(f);
	return text;
}

static void test_zero_rate_stops_the_listing_after_its_run(void **state)
{
	struct planned p;
	char *text;
	int ret;

	(void)state;
	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=(100,0,200)\nrd=rd2,wd=wd1,iorate=10\n", NULL);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan->late_idx, 1);
	text = listing(p.plan, &ret, &p.err);
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(text, "iorate=0\n"));
	assert_null(strstr(text, "iorate=200"));
	assert_null(strstr(text, "Total amount"));
	assert_int_equal(p.err.loc.line, 3);
	free(text);
	planned_fini(&p);
}

static void test_rate_field_shows_the_last_iorate(void **state)
{
	struct planned p;
	char *text;
	int ret;

	(void)state;
	plan_text(&p,
		  BASE "rd=rd1,wd=wd1,iorate=(10,20),iorate=max\n"
		       "rd=rd2,wd=wd1,iorate=(max,10)\nrd=rd3,wd=wd1,iorate=16.5\n",
		  NULL);
	assert_int_equal(p.ret, 0);
	text = listing(p.plan, &ret, &p.err);
	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "RD=rd1; I/O rate: Controlled MAX; elapsed=30; For loops: "
				     "iorate=20\n"));
	assert_non_null(strstr(text, "RD=rd2; I/O rate: Uncontrolled MAX; elapsed=30; For loops: "
				     "iorate=max\n"));
	assert_non_null(strstr(text, "RD=rd2; I/O rate: Controlled MAX; elapsed=30; For loops: "
				     "iorate=10\n"));
	assert_non_null(strstr(text, "RD=rd3; I/O rate: 16;"));
	free(text);
	planned_fini(&p);
}

static void test_times_interval_zero_and_w_zero(void **state)
{
	struct parm_overrides w0 = { .warmup_s = 0, .has_warmup = true };
	struct planned p;

	(void)state;
	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=10,interval=0,warmup=30\n", &w0);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan->runs[0].interval_s, 15); /* min(30/2, 60) */
	assert_int_equal(p.plan->runs[0].warmup_s, 30);	  /* -w 0 changes nothing */
	planned_fini(&p);

	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=10,elapsed=1,interval=0\n", NULL);
	assert_int_equal(p.ret, -EINVAL);
	assert_non_null(strstr(p.err.msg, "interval=0"));
	planned_fini(&p);
}

static void test_runnable_refuses_what_s_lists(void **state)
{
	static const char *const texts[] = {
		BASE "rd=rd1,wd=wd1,iorate=10,forxfersize=-4k\n",
		BASE "rd=rd1,wd=wd1,iorate=10,forthreads=-2\n",
		"sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1,range=(50,10)\nrd=rd1,wd=wd1,iorate=10\n",
	};
	/* what VDbench runs: xfersize=1000 on a file, percentages run as 0 or 100 [085, 254],
	 * seek percentages above 100 as random (observed) */
	static const char *const runnable[] = {
		"sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1,xfersize=1000\nrd=rd1,wd=wd1,iorate=10\n",
		BASE "rd=rd1,wd=wd1,iorate=10,forrdpct=(150,-10),forrhpct=200\n",
		"sd=sd1,lun=/tmp/a\nwd=wd1,sd=sd1,rhpct=101,rdpct=150\nrd=rd1,wd=wd1,iorate=10\n",
		BASE "rd=rd1,wd=wd1,iorate=10,forseekpct=150\n",
	};
	struct planned p;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		plan_text(&p, texts[i], NULL);
		assert_int_equal(p.ret, 0);
		assert_int_equal(plan_check_runnable(p.plan, &p.err), -EINVAL);
		assert_true(p.err.loc.line >= 2);
		planned_fini(&p);
	}
	for (size_t i = 0; i < sizeof(runnable) / sizeof(runnable[0]); i++) {
		plan_text(&p, runnable[i], NULL);
		assert_int_equal(p.ret, 0);
		assert_int_equal(plan_check_runnable(p.plan, &p.err), 0);
		planned_fini(&p);
	}
	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=10,forxfersize=(512,1.5k),forrdpct=(0,100)\n",
		  NULL);
	assert_int_equal(plan_check_runnable(p.plan, &p.err), 0);
	planned_fini(&p);
}

/* Each run's SDs, threads in effect, largest transfers, and workload rates, resolved once. */
static void test_run_values_resolved(void **state)
{
	static const char text[] =
		"sd=sd1,lun=/tmp/f1,size=1m,threads=4\nsd=sd2,lun=/tmp/f2,size=1m,threads=6\n"
		"sd=sd3,lun=/tmp/f3,size=1m\n"
		"wd=wd1,sd=(sd2,sd1),xfersize=(4k,50,64k,50),skew=60,priority=2\n"
		"wd=wd2,sd=sd3,xfersize=(8k,50,32k,50),priority=3\nwd=wd3,sd=sd1,iorate=100,priority=1\n"
		"rd=rd1,wd=(wd1,wd2,wd3),iorate=1100,forthreads=(2,3)\n";
	const struct plan_run *r;
	struct planned p;

	(void)state;
	plan_text(&p, text, NULL);
	assert_int_equal(p.ret, 0);
	r = &p.plan->runs[1];
	assert_int_equal(r->nr_sds, 3);
	assert_int_equal(r->sds[0].sd_idx, 1); /* first use: wd1's sd2, then sd1, then sd3 */
	assert_int_equal(r->sds[1].sd_idx, 0);
	assert_int_equal(r->sds[2].sd_idx, 2);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(r->sds[i].threads, 3); /* forthreads= replaces every SD's */
	assert_int_equal(r->sds[0].max_xfer_bytes, 65536);
	assert_int_equal(r->sds[2].max_xfer_bytes, 32768);
	assert_int_equal(plan_run_sd_pos(r, 2), 2);
	assert_true(plan_run_wd_uses_sd(r, 2, 0) && !plan_run_wd_uses_sd(r, 2, 1));
	/* wd3's own 100, the other 1000 by skew: 60 and 40 */
	assert_true(plan_run_wd_iops(r, 2, 1100) == 100);
	assert_true(plan_run_wd_iops(r, 0, 1100) == 600);
	assert_true(plan_run_wd_iops(r, 1, 1100) == 400);
	planned_fini(&p);
	plan_text(&p, BASE "rd=rd1,wd=wd1,iorate=10,forxfersize=(4k,128k)\n", NULL);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan->runs[1].sds[0].max_xfer_bytes, 131072);
	assert_int_equal(p.plan->runs[1].sds[0].threads, 8); /* the SD's (VDbench's default) */
	planned_fini(&p);
}

/* VDbench 5.04.07 (observed, localhost-N.stdout.html "Started N i/o threads for sdX"): the
 * run's threads numbered on over its SDs, dealt round robin. */
static void test_jvm_threads_dealt_round_robin(void **state)
{
	/* jvms=3, threads=1/3/5 (sd1..sd3): slave 0 ran one of each, slaves 1 and 2 one of sd2
	 * and two of sd3 */
	static const uint32_t threads[] = { 1, 3, 5 }, want[3][3] = {
		{ 1, 1, 1 },
		{ 0, 1, 2 },
		{ 0, 1, 2 },
	};
	uint64_t first = 0;

	(void)state;
	for (int s = 0; s < 3; s++) {
		for (uint32_t j = 0; j < 3; j++) {
			uint32_t n = 0;

			assert_int_equal(plan_jvm_threads(first, threads[s], 3, j), want[j][s]);
			for (uint32_t t = 0; t < threads[s]; t++)
				n += plan_jvm_of_thread(first, t, 3) == j;
			assert_int_equal(n, want[j][s]);
		}
		first += threads[s];
	}
	/* jvms=2, threads=3 and 5: slave 0 two of each, slave 1 one of sd1 and three of sd2 */
	assert_int_equal(plan_jvm_threads(0, 3, 2, 0), 2);
	assert_int_equal(plan_jvm_threads(0, 3, 2, 1), 1);
	assert_int_equal(plan_jvm_threads(3, 5, 2, 0), 2);
	assert_int_equal(plan_jvm_threads(3, 5, 2, 1), 3);
	/* jvms=8, eight SDs of threads=4: slave 1 runs one thread of sd1, sd3, sd5 and sd7 */
	for (uint32_t s = 0; s < 8; s++)
		assert_int_equal(plan_jvm_threads(4 * s, 4, 8, 1), s % 2 == 0);
	/* more slaves than threads: the last ones idle; one slave: everything */
	assert_int_equal(plan_jvm_threads(1, 1, 3, 2), 0);
	assert_int_equal(plan_jvm_threads(7, 5, 1, 0), 5);
	assert_int_equal(plan_jvm_of_thread(7, 3, 1), 0);
}

static uint32_t nr_jvms(const char *text)
{
	struct planned p;
	uint32_t n;

	plan_text(&p, text, NULL);
	assert_int_equal(p.ret, 0);
	n = plan_nr_jvms(p.plan);
	planned_fini(&p);
	return n;
}

#define TWO_SDS "sd=sd1,lun=/tmp/f1,size=1m\nsd=sd2,lun=/tmp/f2,size=1m\nwd=wd1,sd=sd*\n"

static void test_jvm_count_as_vdbench(void **state)
{
	(void)state;
	assert_int_equal(nr_jvms("hd=default,jvms=3\n" BASE "rd=rd1,wd=wd1,iorate=10\n"), 3);
	assert_int_equal(nr_jvms("hd=hd1,jvms=2\n" BASE "rd=rd1,wd=wd1,iorate=10\n"), 2);
	/* the adjusted default: one per SD for max, curve or above 100000 */
	assert_int_equal(nr_jvms(TWO_SDS "rd=rd1,wd=wd1,iorate=max\n"), 2);
	assert_int_equal(nr_jvms(TWO_SDS "rd=rd1,wd=wd1,iorate=curve,curve=(50)\n"), 2);
	assert_int_equal(nr_jvms(TWO_SDS "rd=rd1,wd=wd1,iorate=1000\n"), 1);
	assert_int_equal(nr_jvms(BASE "rd=rd1,wd=wd1,iorate=max\n"), 1);
	assert_int_equal(nr_jvms("hd=default,jvms=1\n" TWO_SDS "rd=rd1,wd=wd1,iorate=max\n"), 1);
}

/* fwdrate=-5 (or 5%): a percentage of nothing, listed -5 and run at 500 operations a second
 * (VDbench 5.04.07: -1 ran 118, -5 ran 500, -100 ran 9,942 operations a second, observed). */
static void test_fs_negative_fwdrate_runs_at_100_times(void **state)
{
	static const char *const texts[] = { "-5", "5%" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		char text[512];
		struct parm_config *cfg = NULL;
		struct parm_source *keep = NULL;
		struct parm_input in = { 0 };
		struct fs_plan *fp = NULL;
		struct parm_err err;

		snprintf(text, sizeof(text),
			 "fsd=fsd1,anchor=/tmp/ioramp-no/a,depth=1,width=2,files=2,size=4k\n"
			 "fwd=fwd1,fsd=fsd1,operation=read\n"
			 "rd=rd1,fwd=fwd1,fwdrate=%s,format=no,elapsed=4,interval=1\n",
			 texts[i]);
		assert_int_equal(
			parm_config_read_text("t.vdb", text, strlen(text), &in, &cfg, &keep, &err),
			0);
		assert_int_equal(fs_plan_build(cfg, &fp, &err), 0);
		assert_int_equal(fp->nr_runs, 1);
		assert_int_equal(fp->runs[0].rate, PLAN_RATE_FIXED);
		assert_true(fp->runs[0].rate_ops == 500);
		assert_true(fp->runs[0].rate_shown == -5);
		fs_plan_free(fp);
		parm_config_free(cfg);
		parm_source_free(keep);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fs_negative_fwdrate_runs_at_100_times),
		cmocka_unit_test(test_loops_nest_in_written_order),
		cmocka_unit_test(test_curve_adds_max_and_points),
		cmocka_unit_test(test_relative_rate_uses_previous_run),
		cmocka_unit_test(test_curve_target_rounds_up),
		cmocka_unit_test(test_times_are_checked),
		cmocka_unit_test(test_skew_split_and_checks),
		cmocka_unit_test(test_loop_value_text_is_vdbench_format),
		cmocka_unit_test(test_sd_modes_name_runs_and_their_sds),
		cmocka_unit_test(test_zero_rate_stops_the_listing_after_its_run),
		cmocka_unit_test(test_rate_field_shows_the_last_iorate),
		cmocka_unit_test(test_times_interval_zero_and_w_zero),
		cmocka_unit_test(test_runnable_refuses_what_s_lists),
		cmocka_unit_test(test_run_values_resolved),
		cmocka_unit_test(test_jvm_threads_dealt_round_robin),
		cmocka_unit_test(test_jvm_count_as_vdbench),
	};

	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
