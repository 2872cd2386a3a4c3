/* Engine tests: whole executions observed through a capturing observer, with a fixed seed. Every
 * figure asserted here comes from modelled drives in virtual time (--engine model), so it is
 * exact and repeatable whatever the machine's load: rates, Little's law, M/M/c response times
 * (Erlang C), curve targets, interval and warmup boundaries, the drain, a stop. Nothing waits
 * for the wall clock or judges it; the tests that need real files (creation, end of range)
 * assert logic only. Rate accuracy on real targets is a bench/ figure. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioramp/engine.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/report.h"

enum {
	MAX_RUNS = 16,
	MAX_WDS = 4,
	MAX_IVS = 64,
};

/* What the capturing observer keeps of each run. */
struct seen_run {
	char name[64];
	double req_iops;
	double observed_iops;
	double mean_svc_ns;
	double mean_resp_ns;
	double qdepth;
	uint64_t avg_elapsed_ns;
	uint32_t avg_nr_intervals;
	char avg_label[32];
	uint64_t wd_ios[MAX_WDS];
	uint64_t total_ios;
	uint64_t reads;
	uint32_t nr_intervals;
	uint64_t iv_ios[MAX_IVS]; /* I/Os completed in each interval */
	bool iv_warmup[MAX_IVS];
	uint64_t iv_tod_ns[MAX_IVS];
	uint64_t iv_elapsed_ns[MAX_IVS];
	uint64_t start_tod_ns;
	bool is_interrupted;
	bool is_eof;
};

struct seen {
	struct seen_run runs[MAX_RUNS];
	int nr_runs;
	bool is_modelled;
	int stop_run;	  /* raise the stop flag at this run's ... */
	uint32_t stop_iv; /* ... interval (0: never) */
};

static struct seen seen;
static volatile sig_atomic_t stop_flag;

static int cap_open(const struct rep_exec *x, void **state)
{
	seen.is_modelled = x->model != NULL;
	*state = &seen;
	return 0;
}

static int cap_run_start(void *state, const struct rep_run *r)
{
	struct seen *s = state;
	struct seen_run *sr;

	if (s->nr_runs >= MAX_RUNS)
		return 0;
	sr = &s->runs[s->nr_runs++];
	memset(sr, 0, sizeof(*sr));
	snprintf(sr->name, sizeof(sr->name), "%s", r->name);
	sr->req_iops = r->req_iops;
	sr->start_tod_ns = r->start_tod_ns;
	return 0;
}

static int cap_interval(void *state, const struct rep_run *r, const struct rep_sample *smp)
{
	struct seen *s = state;
	struct seen_run *sr = &s->runs[s->nr_runs - 1];
	uint32_t k = sr->nr_intervals++;

	(void)r;
	if (k < MAX_IVS) {
		sr->iv_ios[k] = smp->total->op[0].nr_ios + smp->total->op[1].nr_ios;
		sr->iv_warmup[k] = smp->is_warmup;
		sr->iv_tod_ns[k] = smp->tod_ns;
		sr->iv_elapsed_ns[k] = smp->elapsed_ns;
	}
	/* a stop at a chosen interval: deterministic in virtual time, unlike a timer */
	if (s->stop_iv && s->nr_runs - 1 == s->stop_run && smp->nr == s->stop_iv)
		stop_flag = 1;
	return 0;
}

static int cap_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct seen_run *sr = &((struct seen *)state)->runs[((struct seen *)state)->nr_runs - 1];
	struct stats_counters all;

	stats_bank_total(e->avg->total, &all);
	sr->observed_iops = e->observed_iops;
	sr->mean_svc_ns = stats_counters_mean_ns(&all);
	sr->mean_resp_ns = stats_hist_mean_ns(&all.resp);
	sr->qdepth = stats_bank_qdepth(e->avg->total, e->avg->elapsed_ns);
	sr->avg_elapsed_ns = e->avg->elapsed_ns;
	sr->avg_nr_intervals = e->avg->nr_intervals;
	snprintf(sr->avg_label, sizeof(sr->avg_label), "%s", e->avg->label);
	sr->total_ios = all.nr_ios;
	sr->reads = e->avg->total->op[STATS_OP_READ].nr_ios;
	for (size_t w = 0; w < r->nr_wds && w < MAX_WDS; w++)
		sr->wd_ios[w] = e->avg->wd[w].op[0].nr_ios + e->avg->wd[w].op[1].nr_ios;
	sr->is_interrupted = e->is_interrupted;
	sr->is_eof = e->is_eof;
	return 0;
}

static const struct rep_ops rep_capture = {
	.name = "capture",
	.open = cap_open,
	.run_start = cap_run_start,
	.interval = cap_interval,
	.run_end = cap_run_end,
};

static char tmpdir[256];

static int setup_dir(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s/ioramp-eng-XXXXXX", t ? t : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Parses text (with $dir set to the temp dir), plans and executes it on engine with seed. */
static int execute_seed(const char *text, const char *engine, uint64_t seed, struct parm_err *err)
{
	struct parm_var vars[] = { { .name = "dir", .value = tmpdir } };
	struct parm_input in = { .vars = vars, .nr_vars = 1 };
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct plan *plan = NULL;
	struct rep_set reps = { 0 };
	struct rep_exec x = { 0 };
	struct rep_model model;
	struct eng_opts o = { .engine = engine, .seed = seed, .stop_signal = &stop_flag };
	struct eng_exec *ex;
	int ret;

	seen.nr_runs = 0;
	seen.is_modelled = false;
	ret = parm_config_read_text("t.vdb", text, strlen(text), &in, &cfg, &keep, err);
	if (!ret)
		ret = plan_build(cfg, &plan, err);
	if (ret) {
		parm_source_free(keep);
		parm_config_free(cfg);
		return -1;
	}
	x.cfg = cfg;
	x.plan = plan;
	ret = eng_exec_new(plan, &o, &ex, err);
	if (ret == ENG_OK) {
		x.model = eng_exec_model(ex, &model) ? &model : NULL;
		x.tod_ns = eng_exec_tod_ns;
		x.tod_ctx = ex;
		rep_set_add(&reps, &rep_capture);
		rep_set_open(&reps, &x);
		ret = eng_exec_run(ex, &reps, err);
		rep_set_close(&reps, ret);
	}
	eng_exec_free(ex);
	plan_free(plan);
	parm_config_free(cfg);
	return ret;
}

static int execute(const char *text, const char *engine, struct parm_err *err)
{
	return execute_seed(text, engine, 42, err);
}

static double rel_err(double got, double want)
{
	return fabs(got - want) / want;
}

/* Erlang C: the chance that an arrival waits in an M/M/c queue of offered load a = lambda/mu. */
static double erlang_c(unsigned int c, double a)
{
	double term = 1, sum = 1, last;

	for (unsigned int k = 1; k < c; k++) {
		term *= a / k;
		sum += term;
	}
	last = term * a / c * c / (c - a);
	return last / (sum + last);
}

/* An open-loop rate on modelled drives: the rate and the read share reached. */
static void test_rate_matches_target(void **state)
{
	struct parm_err err;
	struct seen_run *r;

	(void)state;
	assert_int_equal(execute("sd=sd1,lun=$dir/n1,size=64m,threads=64\n"
				 "sd=sd2,lun=$dir/n2,size=64m,threads=64\n"
				 "wd=wd1,sd=sd*,rdpct=70\n"
				 "rd=rd1,wd=wd1,iorate=20000,elapsed=30,interval=1\n",
				 "model:units=8,read_us=50,write_us=50", &err),
			 ENG_OK);
	assert_true(seen.is_modelled);
	assert_int_equal(seen.nr_runs, 1); /* a modelled drive needs no format pass */
	r = &seen.runs[0];
	assert_string_equal(r->name, "rd1");
	assert_int_equal(r->nr_intervals, 30);
	assert_true(rel_err(r->observed_iops, 20000) < 0.005);
	assert_true(fabs(100.0 * (double)r->reads / (double)r->total_ios - 70) < 0.5);
	{ /* no file was made: a model opens no lun */
		char path[300];

		snprintf(path, sizeof(path), "%s/n1", tmpdir);
		assert_int_equal(access(path, F_OK), -1);
	}
}

/* Little's law on the model's figures at max: queue depth = rate x mean service time. */
static void test_littles_law(void **state)
{
	struct parm_err err;
	struct seen_run *r;

	(void)state;
	assert_int_equal(execute("sd=sd1,lun=$dir/l1,size=16m,threads=12\n"
				 "wd=wd1,sd=sd1,rdpct=100\n"
				 "rd=rd1,wd=wd1,iorate=(6000,max),elapsed=20,interval=1\n",
				 "model:units=4,read_us=500", &err),
			 ENG_OK);
	assert_int_equal(seen.nr_runs, 2);
	for (int i = 0; i < 2; i++) {
		r = &seen.runs[i];
		assert_true(r->qdepth > 0);
		assert_true(rel_err(r->observed_iops * r->mean_svc_ns / 1e9, r->qdepth) < 0.01);
	}
	/* at max every thread is busy: 12 in flight, the units serve 4 at a time */
	assert_true(rel_err(seen.runs[1].qdepth, 12) < 0.01);
	assert_true(rel_err(seen.runs[1].observed_iops, 4 / 500e-6) < 0.01);
}

/* M/M/c: exponential arrivals and service on c units, FIFO, threads never the limit; the mean
 * time in the drive is 1/mu + C(c, a) / (c mu - lambda) (Erlang C). */
static void test_mmc_response_erlang_c(void **state)
{
	static const struct {
		unsigned int c;
		double svc_us;
		double iops;
	} cases[] = { { 1, 100, 5000 }, { 4, 1000, 3000 }, { 8, 200, 36000 } };
	char text[512], engine[128];
	struct parm_err err;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double mu = 1e6 / cases[i].svc_us, lambda = cases[i].iops;
		double want_ns = 1e9 * (1 / mu + erlang_c(cases[i].c, lambda / mu) /
							 (cases[i].c * mu - lambda));
		struct seen_run *r;

		snprintf(text, sizeof(text),
			 "sd=sd1,lun=$dir/q1,size=1g,threads=1024\nwd=wd1,sd=sd1,rdpct=100\n"
			 "rd=rd1,wd=wd1,iorate=%.0f,elapsed=60,interval=5\n",
			 lambda);
		snprintf(engine, sizeof(engine), "model:units=%u,read_us=%g,dist=exp", cases[i].c,
			 cases[i].svc_us);
		assert_int_equal(execute(text, engine, &err), ENG_OK);
		r = &seen.runs[0];
		if (rel_err(r->mean_svc_ns, want_ns) >= 0.03)
			fail_msg("M/M/%u at %.0f IOPS: mean %.1f us, Erlang C %.1f us", cases[i].c,
				 lambda, r->mean_svc_ns / 1e3, want_ns / 1e3);
		/* nothing waits in ioramp's own queue: response from arrival is the same time */
		assert_true(rel_err(r->mean_resp_ns, r->mean_svc_ns) < 0.01);
		assert_true(rel_err(r->observed_iops, lambda) < 0.01);
	}
}

/* dist=fixed at max: every interval completes exactly threads / service I/Os; a warmup is left
 * out of the average by interval, exactly. */
static void test_intervals_and_warmup_exact(void **state)
{
	struct parm_err err;
	struct seen_run *r;

	(void)state;
	assert_int_equal(execute("sd=sd1,lun=$dir/w1,size=16m,threads=4\n"
				 "wd=wd1,sd=sd1,rdpct=100\n"
				 "rd=rd1,wd=wd1,iorate=max,elapsed=6,warmup=2,interval=2\n",
				 "model:units=4,read_us=100,dist=fixed", &err),
			 ENG_OK);
	r = &seen.runs[0];
	assert_int_equal(r->nr_intervals, 4);
	for (uint32_t k = 0; k < 4; k++) {
		assert_int_equal(r->iv_ios[k], 80000); /* 4 units x 10,000 a second x 2 s */
		assert_int_equal(r->iv_warmup[k], k == 0);
	}
	assert_string_equal(r->avg_label, "avg_2-4");
	assert_int_equal(r->avg_nr_intervals, 3);
	assert_int_equal(r->avg_elapsed_ns, 6000000000ull);
	assert_true(r->observed_iops == 40000);
	assert_true(r->mean_svc_ns == 100000);
	/* virtual time of day: intervals end exactly 2 s apart */
	for (uint32_t k = 1; k < 4; k++)
		assert_int_equal(r->iv_tod_ns[k] - r->iv_tod_ns[k - 1], 2000000000ull);
}

/* A curve's points are the measured max times their share, rounded as VDbench (§9.9), and
 * each is reached (evenly spaced arrivals: the rate is exact, not a Poisson count). */
static void test_curve_points_follow_max(void **state)
{
	struct parm_err err;

	(void)state;
	assert_int_equal(
		execute("sd=sd1,lun=$dir/c1,size=16m,threads=8\n"
			"wd=wd1,sd=sd1\n"
			"rd=rd1,wd=wd1,iorate=curve,curve=(10,50,90),elapsed=20,interval=1,"
			"distribution=deterministic\n",
			"model:units=8,read_us=200,dist=fixed", &err),
		ENG_OK);
	assert_int_equal(seen.nr_runs, 4);
	assert_true(seen.runs[0].observed_iops == 40000);
	assert_string_equal(seen.runs[1].name, "rd1_(10%)");
	assert_true(seen.runs[1].req_iops == 4000);
	assert_true(seen.runs[2].req_iops == 20000);
	assert_true(seen.runs[3].req_iops == 36000);
	for (int i = 1; i < 4; i++) {
		static const double pcts[] = { 0, 10, 50, 90 };

		assert_true(seen.runs[i].req_iops ==
			    plan_curve_target(seen.runs[0].observed_iops, pcts[i]));
		if (rel_err(seen.runs[i].observed_iops, seen.runs[i].req_iops) >= 0.005)
			fail_msg("%s: %.1f IOPS for %.0f", seen.runs[i].name,
				 seen.runs[i].observed_iops, seen.runs[i].req_iops);
	}
}

/* The same seed gives the same figures, bit for bit, run after run. */
static void test_same_seed_same_numbers(void **state)
{
	static const char text[] =
		"sd=sd1,lun=$dir/r1,size=1g,threads=16\n"
		"sd=sd2,lun=$dir/r2,size=1g,threads=16\n"
		"wd=wd1,sd=sd*,rdpct=70,xfersize=(4k,50,64k,50)\n"
		"rd=rd1,wd=wd1,iorate=curve,curve=(30,70),elapsed=3,interval=1\n";
	/* exponential service and a write cache that fills: every path of the model */
	static const char engine[] = "model:units=8,read_us=200,write_us=100,mbps=200,cache_mb=1";
	struct seen first, other;
	struct parm_err err;

	(void)state;
	assert_int_equal(execute_seed(text, engine, 7, &err), ENG_OK);
	first = seen;
	assert_int_equal(execute_seed(text, engine, 7, &err), ENG_OK);
	assert_int_equal(seen.nr_runs, first.nr_runs);
	for (int i = 0; i < seen.nr_runs; i++) {
		const struct seen_run *a = &first.runs[i], *b = &seen.runs[i];

		assert_memory_equal(a->iv_ios, b->iv_ios, sizeof(a->iv_ios));
		assert_true(a->observed_iops == b->observed_iops);
		assert_true(a->mean_svc_ns == b->mean_svc_ns);
		assert_true(a->mean_resp_ns == b->mean_resp_ns);
		assert_true(a->qdepth == b->qdepth);
		assert_true(a->req_iops == b->req_iops);
	}
	other = seen;
	assert_int_equal(execute_seed(text, engine, 8, &err), ENG_OK);
	assert_true(seen.runs[0].mean_svc_ns != other.runs[0].mean_svc_ns);
}

static void test_skew_splits_ios(void **state)
{
	struct parm_err err;
	struct seen_run *r;
	double share;

	(void)state;
	assert_int_equal(execute("sd=sd1,lun=$dir/k1,size=16m,threads=32\n"
				 "wd=wd1,sd=sd1,skew=70\nwd=wd2,sd=sd1,rdpct=0\n"
				 "rd=rd1,wd=wd*,iorate=10000,elapsed=30,interval=1\n",
				 "model:units=8", &err),
			 ENG_OK);
	r = &seen.runs[0];
	share = 100.0 * (double)r->wd_ios[0] / (double)r->total_ios;
	assert_true(fabs(share - 70) < 0.5);
	assert_true(rel_err(r->observed_iops, 10000) < 0.005);
}

/* An I/O still in flight at the end is drained (in virtual time too) and counted in no
 * interval: one 2.5 s I/O completes in interval 3, the next one after the run. */
static void test_drain_counts_nothing(void **state)
{
	struct parm_err err;
	struct seen_run *r;

	(void)state;
	assert_int_equal(execute("sd=sd1,lun=$dir/d1,size=16m,threads=1\n"
				 "wd=wd1,sd=sd1,rdpct=100\n"
				 "rd=rd1,wd=wd1,iorate=max,elapsed=3,interval=1\n",
				 "model:read_us=2500000,dist=fixed", &err),
			 ENG_OK);
	r = &seen.runs[0];
	assert_int_equal(r->nr_intervals, 3);
	assert_int_equal(r->iv_ios[0], 0);
	assert_int_equal(r->iv_ios[1], 0);
	assert_int_equal(r->iv_ios[2], 1);
	assert_int_equal(r->total_ios, 1);
	assert_true(r->mean_svc_ns == 2500000000.0);
}

/* A stop (the signal flag) ends the run after the intervals completed so far. */
static void test_stop_ends_run_with_completed_intervals(void **state)
{
	struct parm_err err;
	struct seen_run *r;

	(void)state;
	stop_flag = 0;
	seen.stop_run = 0;
	seen.stop_iv = 3;
	assert_int_equal(execute("sd=sd1,lun=$dir/i1,size=8m\nwd=wd1,sd=sd1\n"
				 "rd=rd1,wd=wd1,iorate=1000,elapsed=60,interval=1\n"
				 "rd=rd2,wd=wd1,iorate=1000,elapsed=60,interval=1\n",
				 "model", &err),
			 ENG_INTERRUPTED);
	seen.stop_iv = 0;
	stop_flag = 0;
	assert_int_equal(seen.nr_runs, 1); /* rd2 never starts */
	r = &seen.runs[0];
	assert_true(r->is_interrupted);
	assert_int_equal(r->nr_intervals, 3);
	assert_string_equal(r->avg_label, "avg_2-3");
}

/* seekpct=eof ends a run at the end of the range: 8 MiB at 64 KiB is 128 I/Os. */
static void test_eof_ends_run(void **state)
{
	struct parm_err err;
	struct seen_run *r;

	(void)state;
	assert_int_equal(execute("sd=sd1,lun=$dir/e0,size=8m\n"
				 "wd=wd1,sd=sd1,seekpct=eof,xfersize=64k\n"
				 "rd=rd1,wd=wd1,iorate=max,elapsed=60,interval=1\n",
				 "model:units=8,read_us=10000,dist=fixed", &err),
			 ENG_OK);
	r = &seen.runs[0];
	assert_true(r->is_eof);
	assert_int_equal(r->nr_intervals, 1);
	assert_int_equal(r->iv_ios[0], 128);
	/* 128 I/Os of 10 ms on 8 units took 0.16 s: VDbench's rate is 128.0, per whole interval */
	assert_int_equal(r->iv_elapsed_ns[0], 1000000000);
}

/* maxdata= reached at the end of interval 3 (after the warmup interval 1: 2 x 100 x 64 KiB =
 * 12.5 MiB >= 10m): VDbench runs one more interval, avg_2-4. */
static void test_maxdata_one_more_interval(void **state)
{
	struct parm_err err;
	struct seen_run *r;

	(void)state;
	assert_int_equal(execute("sd=sd1,lun=$dir/m0,size=8m\n"
				 "wd=wd1,sd=sd1,xfersize=64k\n"
				 "rd=rd1,wd=wd1,iorate=100,elapsed=60,interval=1,maxdata=10m\n",
				 "model:units=8,read_us=100,dist=fixed", &err),
			 ENG_OK);
	r = &seen.runs[0];
	assert_int_equal(r->nr_intervals, 4);
	assert_string_equal(r->avg_label, "avg_2-4");
}

/* A real file: a missing one is created at its size by the format pass (logic, no time). */
static void test_format_creates_file(void **state)
{
	struct parm_err err;
	char path[300];
	struct stat st;

	(void)state;
	assert_int_equal(execute("sd=sd1,lun=$dir/e1,size=8m\n"
				 "wd=wd1,sd=sd1,seekpct=eof,xfersize=64k\n"
				 "rd=rd1,wd=wd1,iorate=max,elapsed=60,interval=1\n",
				 "sync", &err),
			 ENG_OK);
	snprintf(path, sizeof(path), "%s/e1", tmpdir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 8 << 20);
	assert_false(seen.is_modelled);
	assert_string_equal(seen.runs[0].name, "SD_format");
	assert_true(seen.runs[1].is_eof);
}

static void test_bad_targets_fail_before_io(void **state)
{
	struct parm_err err;

	(void)state;
	assert_int_equal(execute("sd=sd1,lun=$dir/missing\nwd=wd1,sd=sd1\n"
				 "rd=rd1,wd=wd1,iorate=10,elapsed=2\n",
				 "null", &err),
			 ENG_BAD_PARMS);
	assert_int_equal(err.loc.line, 1);
	assert_non_null(strstr(err.msg, "does not exist"));
	assert_int_equal(seen.nr_runs, 0);

	assert_int_equal(execute("sd=sd1,lun=$dir/n1,size=1m\nwd=wd1,sd=sd1,dedupratio=2\n"
				 "rd=rd1,wd=wd1,iorate=10,elapsed=2\n",
				 "null", &err),
			 -1); /* dedupratio is not a wd keyword */
	assert_int_equal(
		execute("dedupratio=2\ndedupunit=8k\ndeduphotsets=(2,4)\nsd=sd1,lun=$dir/n1,size=1m\n"
			"wd=wd1,sd=sd1\nrd=rd1,wd=wd1,iorate=10,elapsed=2\n",
			"null", &err),
		ENG_BAD_PARMS);
	assert_non_null(strstr(err.msg, "not supported yet: deduphotsets"));
}

/* A modelled drive needs size=; its engine's options are checked, at their place in a file. */
static void test_model_refusals(void **state)
{
	struct parm_err err;

	(void)state;
	assert_int_equal(execute("sd=sd1,lun=$dir/sdz\nwd=wd1,sd=sd1\n"
				 "rd=rd1,wd=wd1,iorate=10,elapsed=2\n",
				 "model", &err),
			 ENG_BAD_PARMS);
	assert_int_equal(err.loc.line, 1);
	assert_int_equal(err.loc.col, 4);
	assert_string_equal(err.msg, "sd=sd1: a modelled drive (engine model) opens no lun; "
				     "expected size= to give its capacity");
	assert_int_equal(
		execute("engine=(model:units=0)\nsd=sd1,lun=$dir/x,size=1m\nwd=wd1,sd=sd1\n"
			"rd=rd1,wd=wd1,iorate=10,elapsed=2\n",
			NULL, &err),
		ENG_BAD_PARMS);
	assert_int_equal(err.loc.line, 1);
	assert_int_equal(err.loc.col, 8);
	assert_string_equal(err.msg, "engine model:units=0: invalid units=0; expected a whole "
				     "number from 1 to 4096");
	assert_int_equal(execute("sd=sd1,lun=$dir/x,size=1m\nwd=wd1,sd=sd1\n"
				 "rd=rd1,wd=wd1,iorate=10,elapsed=2\n",
				 "model", &err),
			 ENG_OK);
	assert_int_equal(execute("sd=sd1,lun=$dir/v1,size=1m\nwd=wd1,sd=sd1\n"
				 "rd=rd1,wd=wd1,iorate=10,elapsed=2\n",
				 "model:bogus", &err),
			 ENG_BAD_PARMS);
	assert_non_null(strstr(err.msg, "unknown preset bogus"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_matches_target),
		cmocka_unit_test(test_littles_law),
		cmocka_unit_test(test_mmc_response_erlang_c),
		cmocka_unit_test(test_intervals_and_warmup_exact),
		cmocka_unit_test(test_curve_points_follow_max),
		cmocka_unit_test(test_same_seed_same_numbers),
		cmocka_unit_test(test_skew_splits_ios),
		cmocka_unit_test(test_drain_counts_nothing),
		cmocka_unit_test(test_stop_ends_run_with_completed_intervals),
		cmocka_unit_test(test_eof_ends_run),
		cmocka_unit_test(test_maxdata_one_more_interval),
		cmocka_unit_test(test_format_creates_file),
		cmocka_unit_test(test_bad_targets_fail_before_io),
		cmocka_unit_test(test_model_refusals),
	};

	return cmocka_run_group_tests_name("engine", tests, setup_dir, teardown_dir);
}
