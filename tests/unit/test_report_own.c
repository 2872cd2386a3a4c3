/* Unit tests of ioramp's own outputs (src/report: results.json, curves.csv, report.html, the
 * IOPS-at-latency answers, the end-of-curve block, the status line), driven by a synthetic
 * execution: a curve of a max run and five points with rising latency, built from real
 * parameter text and plan, with counter banks filled from a fixed pseudo-random sequence.
 * With IORAMP_WRITE_FIXTURES=DIR set it only writes DIR/a and DIR/b (a slower copy) for the
 * bats tests of `ioramp report` and `ioramp compare` (tests/data/report-own/README.md). */
/* cmocka.h needs these four before it. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/report/refresh.h"
#include "../../src/report/status.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/report.h"
#include "ioramp/stats.h"

#define SCHEMA_PATH "doc/results.schema.json"

/* cmocka's float assertion works in float; these values need double. */
#define assert_near(a, b, eps) near((a), (b), (eps), __FILE__, __LINE__)

static void near(double a, double b, double eps, const char *file, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("%s:%d: %.12g is not within %g of %.12g", file, line, a, eps, b);
}

static const char parm_text[] = "sd=sd1,lun=/dev/null,threads=8\n"
				"sd=sd2,lun=/dev/null,threads=8\n"
				"wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=70\n"
				"rd=rd1,wd=wd1,iorate=curve,curve=(20,40,60,80,100),elapsed=5,"
				"interval=1\n";

/* Two curves of one workload (a thread loop) and a series of fixed rates of another. */
static const char multi_text[] =
	"sd=sd1,lun=/dev/null,threads=8\n"
	"sd=sd2,lun=/dev/null,threads=8\n"
	"wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=70\n"
	"wd=wd2,sd=(sd1,sd2),xfersize=64k,rdpct=0,seekpct=0\n"
	"rd=rd1,wd=wd1,iorate=curve,curve=(25,50,75,100),forthreads=(4,8),elapsed=3,interval=1\n"
	"rd=rd2,wd=wd2,iorate=(500,1000,2000),elapsed=3,interval=1\n";

/* Mean service time of each run in us: the max run, then the points at 20..100%. */
static const double run_mean_us[] = { 900, 60, 90, 150, 300, 800 };
static const double max_iops = 5000;

enum {
	NR_INTERVALS = 5,
	NR_SDS = 2,
	NR_BANKS = 1 + NR_SDS + 1, /* total, sd1, sd2, wd1 */
};

struct synth {
	struct parm_config *cfg;
	struct parm_source *keep;
	struct plan *plan;
	struct rep_exec x;
	struct rep_set set;
	char dir[64];
	char *console;
	size_t console_len;
	FILE *console_f;
	double slow; /* latency factor: 1, or more for the "b" fixture */
	uint32_t nr_intervals;
	const char *text;	/* the parameter text */
	double observed[32];	/* each run's average IOPS, for the curve points after it */
	const char *wd_name[1]; /* the current run's workload */
	uint32_t rng;
};

static const char *const sd_names[NR_SDS] = { "sd1", "sd2" };
static const char *sd_luns[NR_SDS] = { "/dev/null", "/dev/null" }; /* a test renames one */
static const uint64_t sd_sizes[NR_SDS] = { 1 << 30, 1 << 30 };
static const uint32_t sd_threads[NR_SDS] = { 8, 8 };
static const double wd_skews[1] = { 100 };
static char *const argv_fixed[] = { "ioramp", "-f", "curve.vdb", "-o", "out" };

/* A fixed uniform sequence in [0, 1). */
static double next_u(struct synth *s)
{
	s->rng = s->rng * 1664525u + 1013904223u;
	return (double)(s->rng >> 8) / (double)(1u << 24);
}

static void fill_banks(struct synth *s, struct stats_bank *b, double mean_us, double iops)
{
	double mean_ns = mean_us * 1e3 * s->slow;
	uint64_t nr = (uint64_t)(iops / s->slow + 0.5);

	for (int i = 0; i < NR_BANKS; i++)
		stats_bank_start(&b[i], 0, 0);
	for (uint64_t j = 0; j < nr; j++) {
		uint64_t svc = (uint64_t)(mean_ns * (0.5 + next_u(s)));
		uint64_t resp = svc + (uint64_t)(mean_ns * 0.3 * next_u(s));
		enum stats_op op = j % 10 < 7 ? STATS_OP_READ : STATS_OP_WRITE;

		stats_bank_record(&b[0], op, 4096, svc, resp);
		stats_bank_record(&b[1 + j % NR_SDS], op, 4096, svc, resp);
		stats_bank_record(&b[NR_BANKS - 1], op, 4096, svc, resp);
	}
	for (int i = 0; i < NR_BANKS; i++) {
		b[i].inflight_ns =
			(uint64_t)((double)b[i].op[0].svc.sum_ns + (double)b[i].op[1].svc.sum_ns);
		stats_bank_finish(&b[i], 1000000000u);
	}
}

static void sample_init(struct rep_sample *smp, const struct stats_bank *b, uint32_t nr)
{
	memset(smp, 0, sizeof(*smp));
	snprintf(smp->label, sizeof(smp->label), "%u", nr);
	smp->nr = nr;
	smp->is_warmup = nr == 1;
	smp->tod_ns = (1700000000ull + nr) * 1000000000ull;
	smp->elapsed_ns = 1000000000u;
	smp->nr_intervals = 1;
	smp->total = &b[0];
	smp->sd = &b[1];
	smp->wd = &b[NR_BANKS - 1];
	smp->has_cpu = true;
	smp->cpu = (struct stats_cpu_pct){ 10, 5, 15, 1, 84 };
}

static void run_init(struct synth *s, struct rep_run *r, size_t i, double target)
{
	const struct plan_run *pr = &s->plan->runs[i];

	memset(r, 0, sizeof(*r));
	r->run = pr;
	r->name = pr->name;
	r->run_idx = i;
	plan_rate_text(pr, max_iops, r->rate_text, sizeof(r->rate_text));
	r->req_iops = pr->rate == PLAN_RATE_MAX || pr->rate == PLAN_RATE_CURVE_MAX ? 0 : target;
	r->for_loops = pr->for_loops;
	r->elapsed_s = s->nr_intervals;
	r->interval_s = 1;
	r->nr_warmup_intervals = 1;
	r->nr_sds = NR_SDS;
	r->sd_names = sd_names;
	r->sd_luns = sd_luns;
	r->sd_size_bytes = sd_sizes;
	r->sd_threads = sd_threads;
	s->wd_name[0] = pr->wds[0]->name;
	r->nr_wds = 1;
	r->wd_names = s->wd_name;
	r->wd_skew_pct = wd_skews;
	r->params = (struct rep_params){ .has_xfersize = true,
					 .has_rdpct = true,
					 .has_seekpct = true,
					 .xfersize_bytes = 4096,
					 .rdpct = 70,
					 .seekpct = 100,
					 .threads = 16,
					 .compratio = 1,
					 .dedupratio = 1,
					 .lunsize_bytes = 2u << 30 };
	r->start_tod_ns = 1700000000ull * 1000000000ull;
}

/* The synthetic device: a max rate set by threads, latency rising with utilization; the
 * first scenario uses the fixed table run_mean_us instead. */
static double max_rate(const struct plan_run *pr)
{
	return pr->ovr.has_threads ? 625.0 * pr->ovr.threads : max_iops;
}

static double run_target(struct synth *s, size_t i)
{
	const struct plan_run *pr = &s->plan->runs[i];

	switch (pr->rate) {
	case PLAN_RATE_CURVE_POINT:
	case PLAN_RATE_REL:
		return plan_curve_target(s->observed[pr->base_run], pr->pct);
	case PLAN_RATE_FIXED:
		return pr->rate_iops;
	default:
		return max_rate(pr);
	}
}

static double run_mean(struct synth *s, size_t i, double target)
{
	double u = target / max_rate(&s->plan->runs[i]);

	if (s->text == parm_text)
		return run_mean_us[i];
	return 40 / (1.04 - (u < 1 ? u : 1));
}

/* One run: intervals 1..nr_done (1 is warmup), then the average of the others. */
static void run_one(struct synth *s, size_t i, uint32_t nr_done)
{
	double target = run_target(s, i), mean_us = run_mean(s, i, target);
	struct stats_bank *b = calloc(NR_BANKS, sizeof(*b)), *avg = calloc(NR_BANKS, sizeof(*avg));
	struct rep_sample smp, avg_smp;
	struct rep_run r;
	struct rep_run_end e = { 0 };

	assert_non_null(b);
	assert_non_null(avg);
	run_init(s, &r, i, target);
	assert_int_equal(rep_set_run_start(&s->set, &r), 0);
	for (uint32_t n = 1; n <= nr_done; n++) {
		fill_banks(s, b, mean_us, target);
		sample_init(&smp, b, n);
		assert_int_equal(rep_set_interval(&s->set, &r, &smp), 0);
		for (int k = 0; n > 1 && k < NR_BANKS; k++)
			stats_bank_merge(&avg[k], &b[k]);
	}
	sample_init(&avg_smp, avg, 0);
	snprintf(avg_smp.label, sizeof(avg_smp.label), "avg_2-%u", nr_done);
	avg_smp.is_avg = true;
	avg_smp.is_warmup = false;
	avg_smp.nr_intervals = nr_done - 1;
	avg_smp.elapsed_ns = (uint64_t)(nr_done - 1) * 1000000000u;
	e.avg = &avg_smp;
	e.has_target = target > 0;
	e.is_target_met = true; /* the banks carry the target's I/Os by construction */
	e.is_interrupted = nr_done < s->nr_intervals;
	e.observed_iops =
		stats_rate_per_sec(avg[0].op[0].nr_ios + avg[0].op[1].nr_ios, avg_smp.elapsed_ns);
	if (i < IORAMP_ARRAY_SIZE(s->observed))
		s->observed[i] = e.observed_iops;
	assert_int_equal(rep_set_run_end(&s->set, &r, &e), 0);
	free(b);
	free(avg);
}

static void synth_open_text(struct synth *s, const char *text, const char *dir, double slow)
{
	struct parm_input in = { 0 };
	struct parm_err err;

	memset(s, 0, sizeof(*s));
	s->text = text;
	s->slow = slow;
	s->nr_intervals = NR_INTERVALS;
	s->rng = 12345;
	assert_int_equal(parm_config_read_text("curve.vdb", text, strlen(text), &in, &s->cfg,
					       &s->keep, &err),
			 0);
	assert_int_equal(plan_build(s->cfg, &s->plan, &err), 0);
	assert_true(s->plan->nr_runs <= IORAMP_ARRAY_SIZE(s->observed));
	if (dir) {
		snprintf(s->dir, sizeof(s->dir), "%s", dir);
	} else {
		snprintf(s->dir, sizeof(s->dir), "/tmp/ioramp-rep-XXXXXX");
		assert_non_null(mkdtemp(s->dir));
	}
	s->console_f = open_memstream(&s->console, &s->console_len);
	s->x = (struct rep_exec){ .cfg = s->cfg,
				  .plan = s->plan,
				  .outdir = s->dir,
				  .console = s->console_f,
				  .argc = 5,
				  .argv = argv_fixed,
				  .start_tod_ns = 1700000000ull * 1000000000ull,
				  .seed = 42,
				  .engine = "null",
				  .mb_bytes = 1048576 };
	assert_int_equal(rep_set_add(&s->set, &rep_json), 0);
	assert_int_equal(rep_set_add(&s->set, &rep_curves), 0);
	assert_int_equal(rep_set_add(&s->set, &rep_html), 0);
	assert_int_equal(rep_set_add(&s->set, &rep_statusline), 0);
	assert_int_equal(rep_set_open(&s->set, &s->x), 0);
}

static void synth_open(struct synth *s, const char *dir, double slow)
{
	synth_open_text(s, parm_text, dir, slow);
	assert_int_equal(s->plan->nr_runs, 6);
}

/* Every planned run; the last stops after 3 intervals when is_interrupted. */
static void synth_run(struct synth *s, bool is_interrupted)
{
	size_t nr = s->plan->nr_runs;

	for (size_t i = 0; i < nr; i++)
		run_one(s, i, is_interrupted && i == nr - 1 ? 3 : s->nr_intervals);
	assert_int_equal(rep_set_close(&s->set, is_interrupted ? 130 : 0), 0);
	fflush(s->console_f);
}

static void remove_dir(const char *dir)
{
	static const char *const names[] = { "results.json", "curves.csv", "report.html",
					     "page.html", "pub.csv" };
	char path[256];

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

static void synth_fini(struct synth *s, bool is_kept)
{
	fclose(s->console_f);
	free(s->console);
	if (!is_kept)
		remove_dir(s->dir);
	plan_free(s->plan);
	parm_config_free(s->cfg);
	parm_source_free(s->keep);
}

static char *slurp(const char *dir, const char *name)
{
	char path[256];
	FILE *f;
	char *buf;
	long len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t nr = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		nr++;
	return nr;
}

static json_t *load_json(const char *dir, const char *name)
{
	char path[256];
	json_error_t jerr;
	json_t *doc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	doc = json_load_file(path, 0, &jerr);
	if (!doc)
		fail_msg("%s:%d: %s", path, jerr.line, jerr.text);
	return doc;
}

/* ---- a small JSON Schema checker: type, const, enum, required, properties, items, anyOf,
 * $ref to #/$defs. Strict: a property the schema does not list is an error too, so the
 * document and doc/results.schema.json cannot drift apart. ---- */

static bool schema_check(const json_t *root, const json_t *sch, const json_t *v, char *path,
			 char *why);

static bool type_is(const char *t, const json_t *v)
{
	if (!strcmp(t, "object"))
		return json_is_object(v);
	if (!strcmp(t, "array"))
		return json_is_array(v);
	if (!strcmp(t, "string"))
		return json_is_string(v);
	if (!strcmp(t, "integer"))
		return json_is_integer(v);
	if (!strcmp(t, "number"))
		return json_is_number(v);
	if (!strcmp(t, "boolean"))
		return json_is_boolean(v);
	return !strcmp(t, "null") && json_is_null(v);
}

static bool type_ok(const json_t *type, const json_t *v)
{
	const json_t *t;
	size_t i;

	if (!type)
		return true;
	if (json_is_string(type))
		return type_is(json_string_value(type), v);
	json_array_foreach (type, i, t) {
		if (type_is(json_string_value(t), v))
			return true;
	}
	return false;
}

static bool enum_ok(const json_t *sch, const json_t *v)
{
	const json_t *e;
	size_t i;

	if (json_object_get(sch, "const") && !json_equal(json_object_get(sch, "const"), v))
		return false;
	if (!json_object_get(sch, "enum"))
		return true;
	json_array_foreach (json_object_get(sch, "enum"), i, e) {
		if (json_equal(e, v))
			return true;
	}
	return false;
}

static bool object_ok(const json_t *root, const json_t *sch, const json_t *v, char *path, char *why)
{
	const json_t *props = json_object_get(sch, "properties"), *req, *pv;
	size_t len = strlen(path), i;
	const char *key;

	json_array_foreach (json_object_get(sch, "required"), i, req) {
		if (!json_object_get(v, json_string_value(req))) {
			sprintf(why, "missing %s", json_string_value(req));
			return false;
		}
	}
	json_object_foreach ((json_t *)v, key, pv) {
		const json_t *ps = json_object_get(props, key);

		snprintf(path + len, 512 - len, "/%s", key);
		if (props && !ps) {
			sprintf(why, "not in the schema");
			return false;
		}
		if (ps && !schema_check(root, ps, pv, path, why))
			return false;
		path[len] = '\0';
	}
	return true;
}

static bool schema_check(const json_t *root, const json_t *sch, const json_t *v, char *path,
			 char *why)
{
	const char *ref = json_string_value(json_object_get(sch, "$ref"));
	const json_t *any = json_object_get(sch, "anyOf"), *alt;
	size_t len = strlen(path), i;

	if (ref) {
		assert_true(!strncmp(ref, "#/$defs/", 8));
		sch = json_object_get(json_object_get(root, "$defs"), ref + 8);
		assert_non_null(sch);
	}
	json_array_foreach (any, i, alt) {
		if (schema_check(root, alt, v, path, why))
			return true;
		path[len] = '\0';
	}
	if (any) {
		sprintf(why, "matches no alternative");
		return false;
	}
	if (!type_ok(json_object_get(sch, "type"), v) || !enum_ok(sch, v)) {
		sprintf(why, "wrong type or value");
		return false;
	}
	if (json_is_object(v))
		return object_ok(root, sch, v, path, why);
	json_array_foreach (v, i, alt) {
		snprintf(path + len, 512 - len, "/%zu", i);
		if (json_object_get(sch, "items") &&
		    !schema_check(root, json_object_get(sch, "items"), alt, path, why))
			return false;
		path[len] = '\0';
	}
	return true;
}

static void assert_valid(const json_t *doc)
{
	json_error_t jerr;
	json_t *schema = json_load_file(SCHEMA_PATH, 0, &jerr);
	char path[512] = "", why[128] = "";

	if (!schema)
		fail_msg("%s: %s (run from the repository root)", SCHEMA_PATH, jerr.text);
	if (!schema_check(schema, schema, doc, path, why))
		fail_msg("results.json%s: %s", path, why);
	json_decref(schema);
}

/* ---- IOPS at latency ---- */

static const struct rep_sla_point rising[] = { { 1000, 50e3, 100e3, 0, false },
					       { 2000, 80e3, 160e3, 0, false },
					       { 3000, 150e3, 400e3, 0, false },
					       { 4000, 300e3, 900e3, 0, false } };

static void test_sla_interpolates_between_last_under_and_first_over(void **state)
{
	struct rep_sla_at at = rep_sla_iops_at(rising, 4, REP_SLA_MEAN, 100e3);

	(void)state;
	assert_int_equal(at.state, REP_SLA_REACHED);
	/* 2000 + (100 - 80) / (150 - 80) * 1000 */
	assert_near(at.iops, 2000 + 20.0 / 70.0 * 1000, 1e-9);
	at = rep_sla_iops_at(rising, 4, REP_SLA_P99, 200e3);
	assert_int_equal(at.state, REP_SLA_REACHED);
	assert_near(at.iops, 2000 + 40.0 / 240.0 * 1000, 1e-9);
	at = rep_sla_iops_at(rising, 4, REP_SLA_MEAN, 150e3); /* on a point exactly */
	assert_int_equal(at.state, REP_SLA_REACHED);
	assert_near(at.iops, 3000, 1e-9);
}

static void test_sla_not_reached_and_all_below(void **state)
{
	struct rep_sla_at at = rep_sla_iops_at(rising, 4, REP_SLA_MEAN, 40e3);

	(void)state;
	assert_int_equal(at.state, REP_SLA_NOT_REACHED);
	assert_near(at.iops, 0, 0);
	at = rep_sla_iops_at(rising, 4, REP_SLA_MEAN, 1e6);
	assert_int_equal(at.state, REP_SLA_ALL_BELOW);
	assert_near(at.iops, 4000, 0);
	at = rep_sla_iops_at(rising, 0, REP_SLA_MEAN, 1e6);
	assert_int_equal(at.state, REP_SLA_NOT_REACHED);
	at = rep_sla_iops_at(rising, 4, REP_SLA_P99, 99e3);
	assert_int_equal(at.state, REP_SLA_NOT_REACHED);
}

static void test_sla_first_crossing_ends_the_walk(void **state)
{
	/* Past saturation a point can carry fewer IOPS at a higher latency. */
	static const struct rep_sla_point hook[] = { { 1000, 50e3, 0, 0, false },
						     { 2000, 80e3, 0, 0, false },
						     { 1900, 150e3, 0, 0, false },
						     { 2500, 90e3, 0, 0, false } };
	struct rep_sla_at at = rep_sla_iops_at(hook, 3, REP_SLA_MEAN, 100e3);

	(void)state;
	assert_int_equal(at.state, REP_SLA_REACHED);
	assert_near(at.iops, 2000, 1e-9); /* the crossing bends back: never below the last under */
	/* Back under at 2500 after the first crossing: a dip, it does not count. */
	at = rep_sla_iops_at(hook, 4, REP_SLA_MEAN, 100e3);
	assert_int_equal(at.state, REP_SLA_REACHED);
	assert_near(at.iops, 2000, 1e-9);
}

static void test_sla_a_dip_after_every_point_over_is_not_reached(void **state)
{
	/* The curve: 10% to 60% all between 1,435 and 4,512 us mean, then a point whose
	 * mean dipped under 1 ms: the table said "1ms 41,796"; nothing is under before it. */
	static const struct rep_sla_point dip[] = {
		{ 7000, 1435e3, 0, 7000, false },   { 35000, 2100e3, 0, 35000, false },
		{ 49000, 4512e3, 0, 49000, false }, { 41796, 900e3, 0, 56000, false },
		{ 50000, 3900e3, 0, 63000, false },
	};
	struct rep_sla_at at = rep_sla_iops_at(dip, 5, REP_SLA_MEAN, 1e6);

	(void)state;
	assert_int_equal(at.state, REP_SLA_NOT_REACHED);
	assert_near(at.iops, 0, 0);
}

static void test_sla_walks_points_in_target_order(void **state)
{
	/* Given out of order (as a results.json edited by hand may be): sorted by target, the
	 * crossing is between the 2000 and 3000 targets. */
	static const struct rep_sla_point mixed[] = {
		{ 3000, 150e3, 0, 3000, false },
		{ 1000, 50e3, 0, 1000, false },
		{ 2000, 80e3, 0, 2000, false },
	};
	struct rep_sla_at at = rep_sla_iops_at(mixed, 3, REP_SLA_MEAN, 100e3);

	(void)state;
	assert_int_equal(at.state, REP_SLA_REACHED);
	assert_near(at.iops, 2000 + 20.0 / 70.0 * 1000, 1e-9);
}

static void test_sla_a_missed_point_is_never_the_upper_end(void **state)
{
	/* The 3000 point reached only 2600 of its target: the answer stops at the last point
	 * under, 2000, instead of interpolating towards it. */
	static const struct rep_sla_point missed[] = {
		{ 1000, 50e3, 0, 1000, false },
		{ 2000, 80e3, 0, 2000, false },
		{ 2600, 150e3, 0, 3000, true },
	};
	struct rep_sla_at at = rep_sla_iops_at(missed, 3, REP_SLA_MEAN, 100e3);

	(void)state;
	assert_int_equal(at.state, REP_SLA_REACHED);
	assert_near(at.iops, 2000, 1e-9);
}

static void test_sla_parse_units_order_and_errors(void **state)
{
	double ns[REP_SLA_MAX];
	char label[32];

	(void)state;
	assert_int_equal(rep_sla_parse("100us,200us,500us,1ms", ns, REP_SLA_MAX), 4);
	assert_near(ns[0], 100e3, 0);
	assert_near(ns[3], 1e6, 0);
	assert_int_equal(rep_sla_parse(" 1ms, 100 ,1000us,0.5ms,2s,750ns", ns, REP_SLA_MAX), 5);
	assert_near(ns[0], 750, 0);
	assert_near(ns[1], 100e3, 0);
	assert_near(ns[2], 500e3, 0);
	assert_near(ns[3], 1e6, 0);
	assert_near(ns[4], 2e9, 0);
	assert_int_equal(rep_sla_parse("", ns, REP_SLA_MAX), -EINVAL);
	assert_int_equal(rep_sla_parse("abc", ns, REP_SLA_MAX), -EINVAL);
	assert_int_equal(rep_sla_parse("10xs", ns, REP_SLA_MAX), -EINVAL);
	assert_int_equal(rep_sla_parse("-5us", ns, REP_SLA_MAX), -EINVAL);
	assert_int_equal(rep_sla_parse("0", ns, REP_SLA_MAX), -EINVAL);
	assert_int_equal(rep_sla_parse("1ms,,2ms", ns, REP_SLA_MAX), -EINVAL);
	assert_int_equal(rep_sla_parse("1,2,3", ns, 2), -EINVAL);
	rep_sla_label(1.5e6, label, sizeof(label));
	assert_string_equal(label, "1.5ms");
	rep_sla_label(100e3, label, sizeof(label));
	assert_string_equal(label, "100us");
}

/* ---- the outputs of a synthetic curve ---- */

static void test_json_has_every_run_interval_and_curve(void **state)
{
	struct synth s;
	json_t *doc, *curve, *run;

	(void)state;
	synth_open(&s, NULL, 1);
	synth_run(&s, false);
	doc = load_json(s.dir, "results.json");
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "ioramp-results/3");
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(doc, "execution"), "seed")),
		"42");
	assert_int_equal(json_array_size(json_object_get(doc, "plan")), 6);
	assert_int_equal(json_array_size(json_object_get(doc, "runs")), 6);
	run = json_array_get(json_object_get(doc, "runs"), 3);
	assert_string_equal(json_string_value(json_object_get(run, "name")), "rd1_(60%)");
	assert_int_equal(json_array_size(json_object_get(run, "intervals")), NR_INTERVALS);
	assert_int_equal(json_array_size(json_object_get(json_object_get(run, "average"), "sds")),
			 2);
	assert_int_equal(json_array_size(json_object_get(doc, "curves")), 1);
	curve = json_array_get(json_object_get(doc, "curves"), 0);
	assert_string_equal(json_string_value(json_object_get(curve, "kind")), "curve");
	assert_int_equal(json_integer_value(json_object_get(curve, "max_run")), 0);
	assert_int_equal(json_array_size(json_object_get(curve, "points")), 5);
	assert_int_equal(json_array_size(json_object_get(curve, "sla")), REP_SLA_DEFAULT_NR);
	assert_true(json_is_true(json_object_get(curve, "is_complete")));
	assert_int_equal(
		json_integer_value(json_object_get(json_object_get(doc, "execution"), "status")),
		0);
	assert_valid(doc);
	json_decref(doc);
	synth_fini(&s, false);
}

static double num_at(const json_t *o, const char *const *keys, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(keys[i]))
				     : json_object_get(o, keys[i]);
	return json_number_value(o);
}

static void test_json_point_figures_follow_the_banks(void **state)
{
	static const char *const iops[] = { "curves", "0", "points", "1", "iops" };
	static const char *const mean[] = { "curves", "0", "points", "1", "service", "mean_us" };
	static const char *const qd[] = { "curves", "0", "points", "1", "qdepth" };
	static const char *const rd[] = { "runs", "2", "average", "total", "read_pct" };
	static const char *const sla[] = { "curves", "0", "sla", "0", "service", "mean", "iops" };
	struct synth s;
	json_t *doc;

	(void)state;
	synth_open(&s, NULL, 1);
	synth_run(&s, false);
	doc = load_json(s.dir, "results.json");
	/* 40% of 5000: 2000 I/Os per 1 s interval; mean 90 us by construction (within the
	 * sequence's sampling error); queue depth by Little's law. */
	assert_near(num_at(doc, iops, 5), 2000, 1e-9);
	assert_near(num_at(doc, mean, 6), 90, 3);
	assert_near(num_at(doc, qd, 5), 2000 * 90e-6, 0.01);
	assert_near(num_at(doc, rd, 5), 70, 1e-9);
	/* 100 us falls between the 40% (90 us) and 60% (150 us) points. */
	assert_true(num_at(doc, sla, 7) > 2000 && num_at(doc, sla, 7) < 3000);
	json_decref(doc);
	synth_fini(&s, false);
}

static void test_json_interrupted_execution_stays_valid(void **state)
{
	struct synth s;
	json_t *doc, *exec, *last;

	(void)state;
	synth_open(&s, NULL, 1);
	synth_run(&s, true);
	doc = load_json(s.dir, "results.json");
	exec = json_object_get(doc, "execution");
	assert_int_equal(json_integer_value(json_object_get(exec, "status")), 130);
	last = json_array_get(json_object_get(doc, "runs"), 5);
	assert_true(json_is_true(json_object_get(last, "is_interrupted")));
	assert_int_equal(json_array_size(json_object_get(last, "intervals")), 3);
	assert_valid(doc);
	json_decref(doc);
	synth_fini(&s, false);
}

static void test_json_out_gets_the_same_document(void **state)
{
	struct synth s;
	char *out = NULL, *file;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	synth_open(&s, NULL, 1);
	rep_set_close(&s.set, 0);
	/* Reopen with --json on a stream. */
	memset(&s.set, 0, sizeof(s.set));
	s.x.json_out = f;
	assert_int_equal(rep_set_add(&s.set, &rep_json), 0);
	assert_int_equal(rep_set_open(&s.set, &s.x), 0);
	synth_run(&s, false);
	fclose(f);
	file = slurp(s.dir, "results.json");
	assert_string_equal(out, file);
	free(out);
	free(file);
	synth_fini(&s, false);
}

/* The intervals live in an unnamed file while the execution runs: results.json gets every one
 * back in place, even beside a name that looks like the placeholder, and the live report.html
 * is the page rendered again from results.json. */
static const char spill_text[] = "sd=sd1,lun=/dev/null,threads=8\n"
				 "sd=sd2,lun=/dev/null,threads=8\n"
				 "wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=70\n"
				 "rd=rd1,wd=wd1,iorate=(1000,2000),elapsed=5,interval=1\n";

static void test_json_spilled_intervals_come_back_in_place(void **state)
{
	struct synth s;
	char in[256], out[256], *live, *again;
	struct rep_html_request req = { .results_path = in, .html_path = out };
	json_t *doc, *run;
	size_t i;

	(void)state;
	sd_luns[0] = "/dev/null\\u0000intervals:0"; /* the placeholder's text, escaped */
	synth_open_text(&s, spill_text, NULL, 1);
	synth_run(&s, false);
	sd_luns[0] = "/dev/null";
	live = slurp(s.dir, "results.json");
	assert_non_null(strstr(live, "\"/dev/null\\\\u0000intervals:0\""));
	free(live);
	doc = load_json(s.dir, "results.json");
	assert_int_equal(json_array_size(json_object_get(doc, "runs")), 2);
	json_array_foreach (json_object_get(doc, "runs"), i, run) {
		const json_t *ivs = json_object_get(run, "intervals");

		assert_int_equal(json_array_size(ivs), NR_INTERVALS);
		assert_int_equal(json_integer_value(json_object_get(
					 json_array_get(ivs, NR_INTERVALS - 1), "nr")),
				 NR_INTERVALS);
	}
	assert_valid(doc);
	json_decref(doc);
	snprintf(in, sizeof(in), "%s/results.json", s.dir);
	snprintf(out, sizeof(out), "%s/page.html", s.dir);
	assert_int_equal(rep_html_write(&req), 0);
	live = slurp(s.dir, "report.html");
	again = slurp(s.dir, "page.html");
	assert_string_equal(live, again);
	free(live);
	free(again);
	synth_fini(&s, false);
}

static void test_curves_csv_has_a_row_per_point(void **state)
{
	struct synth s;
	char *csv, *line, *save = NULL;
	size_t nr_lines = 0;

	(void)state;
	synth_open(&s, NULL, 1);
	synth_run(&s, false);
	csv = slurp(s.dir, "curves.csv");
	for (line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		assert_int_equal(count(line, ","), 20);
		if (nr_lines == 0)
			assert_true(
				!strncmp(line, "curve,curve_name,run,pct,target_iops,iops,", 42));
		if (nr_lines == 0) /* the validity columns come last: older columns keep places */
			assert_non_null(strstr(line, ",target_met,limited_by"));
		if (nr_lines == 1)
			assert_true(!strncmp(line, "1,rd1,rd1_(20%),20.0,1000,1000.00,", 34));
		nr_lines++;
	}
	assert_int_equal(nr_lines, 1 + 5);
	free(csv);
	synth_fini(&s, false);
}

static void test_console_block_at_curve_end(void **state)
{
	struct synth s;

	(void)state;
	synth_open(&s, NULL, 1);
	synth_run(&s, false);
	assert_int_equal(count(s.console, "\nCurve rd1: 5 points; peak 5,000 IOPS at "), 1);
	assert_int_equal(count(s.console, "IOPS at latency (service time"), 1);
	assert_int_equal(count(s.console, "\n  rd1_("), 5);
	assert_int_equal(count(s.console, "\n  rd1 "), 1); /* the max run's line */
	assert_int_equal(count(s.console, "\n    100us "), 1);
	assert_int_equal(count(s.console, "\n    1ms "), 1);
	synth_fini(&s, false);
}

static void test_html_has_five_charts_and_every_point(void **state)
{
	struct synth s;
	char *html;

	(void)state;
	synth_open(&s, NULL, 1);
	synth_run(&s, false);
	html = slurp(s.dir, "report.html");
	/* mean and p99, each SD, time, distribution */
	assert_int_equal(count(html, "<svg"), 5);
	/* the curve's 5 points on the mean and p99 charts, and each SD's */
	assert_int_equal(count(html, "<circle class=\"pt\""), 2 * 5 + NR_SDS * 5);
	assert_int_equal(count(html, "download=\"per-sd-iops-vs-average-latency.svg\""), 1);
	assert_int_equal(count(html, "<script"), 0);
	assert_int_equal(count(html, "<link"), 0);
	/* no resource to fetch: every URL is an SVG namespace, inline or in a download link */
	assert_int_equal(count(html, "http"),
			 count(html, "xmlns=\"http://www.w3.org/2000/svg\"") +
				 count(html, "xmlns=%22http://www.w3.org/2000/svg%22"));
	assert_int_equal(count(html, "xmlns=%22http://www.w3.org/2000/svg%22"), 5);
	assert_int_equal(count(html, "<table class=\"points\">"), 1);
	assert_int_equal(count(html, "<table class=\"sla\">"), 1);
	assert_true(strstr(html, "</html>\n") != NULL);
	free(html);
	synth_fini(&s, false);
}

static void test_html_groups_curves_by_workload(void **state)
{
	const char *keep = getenv("IORAMP_KEEP_MULTI"); /* a directory to look at the page */
	struct synth s;
	char *html, *csv;
	json_t *doc;

	(void)state;
	synth_open_text(&s, multi_text, keep, 1);
	s.nr_intervals = 3;
	assert_int_equal(s.plan->nr_runs, 13);
	synth_run(&s, false);
	doc = load_json(s.dir, "results.json");
	assert_int_equal(json_array_size(json_object_get(doc, "curves")), 3);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(doc, "curves"), 2), "kind")),
			    "sweep");
	assert_valid(doc);
	json_decref(doc);
	html = slurp(s.dir, "report.html");
	assert_int_equal(count(html, "<svg"), 2 * 5);
	/* mean and p99 of each curve, and each SD of each group's first curve */
	assert_int_equal(count(html, "<circle class=\"pt\""), 2 * (4 + 4 + 3) + NR_SDS * (4 + 3));
	assert_int_equal(count(html, "threads=4 \xe2\x80\x94 peak"), 1);
	assert_int_equal(count(html, "threads=8 \xe2\x80\x94 peak"), 1);
	free(html);
	csv = slurp(s.dir, "curves.csv");
	assert_int_equal(count(csv, "\n"), 1 + 4 + 4 + 3);
	free(csv);
	assert_int_equal(count(s.console, "\nCurve rd1 threads=4: 4 points"), 1);
	assert_int_equal(count(s.console, "\nCurve rd1 threads=8: 4 points"), 1);
	assert_int_equal(count(s.console, "\nSeries rd2: 3 points"), 1);
	synth_fini(&s, keep != NULL);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_html_write_draws_overlays_and_reports_errors(void **state)
{
	struct synth s;
	char in[256], out[256], pub[256], *html;
	struct rep_overlay ov = { .name = "P5520", .path = pub };
	struct rep_html_request req = {
		.results_path = in, .html_path = out, .ov = &ov, .nr_ov = 1
	};

	(void)state;
	synth_open(&s, NULL, 1);
	synth_run(&s, false);
	snprintf(in, sizeof(in), "%s/results.json", s.dir);
	snprintf(out, sizeof(out), "%s/page.html", s.dir);
	snprintf(pub, sizeof(pub), "%s/pub.csv", s.dir);
	write_file(s.dir, "pub.csv", "iops,latency_us\n# published\n1k,40\n3.5k,120\n\n5000,700\n");
	assert_int_equal(rep_html_write(&req), 0);
	html = slurp(s.dir, "page.html");
	assert_int_equal(count(html, "<circle class=\"ov\""), 3);
	assert_int_equal(count(html, "P5520 (published)"), 1);
	free(html);
	write_file(s.dir, "pub.csv", "iops,latency_us\n1000,40\nfast,slow\n");
	assert_int_equal(rep_html_write(&req), -EINVAL);
	assert_false(req.is_write_error);
	assert_true(strstr(req.err, "pub.csv:3: expected IOPS,latency_us") != NULL);
	ov.path = "/nonexistent/pub.csv";
	assert_int_equal(rep_html_write(&req), -ENOENT);
	req.nr_ov = 0;
	req.html_path = "/nonexistent/page.html";
	assert_int_equal(rep_html_write(&req), -ENOENT);
	assert_true(req.is_write_error);
	req.html_path = out;
	req.results_path = pub;
	assert_int_equal(rep_html_write(&req), -EINVAL);
	assert_true(strstr(req.err, "not JSON") != NULL);
	synth_fini(&s, false);
}

static void test_status_line_only_on_a_terminal(void **state)
{
	struct synth s;
	void *st = (void *)1;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct stats_bank *b = calloc(NR_BANKS, sizeof(*b));
	struct rep_sample smp;
	struct rep_run r;

	(void)state;
	synth_open(&s, NULL, 1);
	assert_int_equal(rep_status_open_on(&s.x, f, false, 100, &st), 0);
	assert_null(st);
	assert_int_equal(rep_status_open_on(&s.x, f, true, 100, &st), 0);
	run_init(&s, &r, 2, 2000);
	fill_banks(&s, b, run_mean_us[2], 2000);
	sample_init(&smp, b, 2);
	rep_statusline.run_start(st, &r);
	rep_statusline.interval(st, &r, &smp);
	rep_statusline.bracket(st, true);
	rep_statusline.bracket(st, false);
	rep_statusline.close(st, 0);
	fclose(f);
	/* 6 runs of 5 s planned; runs 1-2 done and 2 s of run 3: 18 s left. */
	assert_string_equal(out,
			    "\rioramp: run 3/6 rd1_(40%) \xc2\xb7 point 2/5 \xc2\xb7 interval 2/5"
			    " \xc2\xb7 2,000 IOPS \xc2\xb7 0:18 left\033[K\r\033[K");
	free(out);
	free(b);
	rep_set_close(&s.set, 0);
	synth_fini(&s, false);
}

/* One execution of several (ioramp suite): its label leads, the later ones add to the time. */
static void test_status_line_of_a_suite(void **state)
{
	struct synth s;
	void *st = NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct rep_run r;

	(void)state;
	synth_open(&s, NULL, 1);
	s.x.status_label = "sql 2/16";
	s.x.status_later_s = 100;
	assert_int_equal(rep_status_open_on(&s.x, f, true, 100, &st), 0);
	run_init(&s, &r, 2, 2000);
	rep_statusline.run_start(st, &r);
	rep_statusline.bracket(st, true);
	rep_statusline.close(st, 0);
	fclose(f);
	/* 6 runs of 5 s planned, runs 1-2 done: 20 s of this one and 100 s after it. */
	assert_string_equal(out, "\rioramp: sql 2/16 \xc2\xb7 run 3/6 rd1_(40%) \xc2\xb7 point "
				 "2/5 \xc2\xb7 2:00 left\033[K");
	free(out);
	rep_set_close(&s.set, 0);
	synth_fini(&s, false);
}

/* Writes the bats fixtures: DIR/a (as built) and DIR/b (latencies 10% higher, IOPS lower). */
static int write_fixtures(const char *dir)
{
	static const char *const names[] = { "a", "b" };

	for (int i = 0; i < 2; i++) {
		char sub[200];
		struct synth s;

		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]);
		mkdir(sub, 0755);
		synth_open(&s, sub, i ? 1.1 : 1);
		s.nr_intervals = 3; /* small files */
		synth_run(&s, false);
		synth_fini(&s, true);
	}
	return 0;
}

/* Interim rewrites of results.json and report.html take at most 5% of the time since the
 * output opened: the first always (nothing spent), then only once the execution has run 20
 * times what they cost (refresh.h). */
static void test_refresh_within_its_budget(void **state)
{
	(void)state;
	assert_true(rep_refresh_is_due(0, 0));
	assert_true(rep_refresh_is_due(5000000, 100000000)); /* 5 ms of 100 */
	assert_false(rep_refresh_is_due(5000000, 99000000)); /* 5 ms of 99 */
	assert_false(rep_refresh_is_due(1000000000, 1000000000));
	assert_true(rep_refresh_is_due(1000000000, 20000000000u));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sla_interpolates_between_last_under_and_first_over),
		cmocka_unit_test(test_sla_not_reached_and_all_below),
		cmocka_unit_test(test_sla_first_crossing_ends_the_walk),
		cmocka_unit_test(test_sla_a_dip_after_every_point_over_is_not_reached),
		cmocka_unit_test(test_sla_walks_points_in_target_order),
		cmocka_unit_test(test_sla_a_missed_point_is_never_the_upper_end),
		cmocka_unit_test(test_sla_parse_units_order_and_errors),
		cmocka_unit_test(test_json_has_every_run_interval_and_curve),
		cmocka_unit_test(test_json_point_figures_follow_the_banks),
		cmocka_unit_test(test_json_interrupted_execution_stays_valid),
		cmocka_unit_test(test_json_out_gets_the_same_document),
		cmocka_unit_test(test_json_spilled_intervals_come_back_in_place),
		cmocka_unit_test(test_curves_csv_has_a_row_per_point),
		cmocka_unit_test(test_console_block_at_curve_end),
		cmocka_unit_test(test_html_has_five_charts_and_every_point),
		cmocka_unit_test(test_html_groups_curves_by_workload),
		cmocka_unit_test(test_html_write_draws_overlays_and_reports_errors),
		cmocka_unit_test(test_status_line_only_on_a_terminal),
		cmocka_unit_test(test_status_line_of_a_suite),
		cmocka_unit_test(test_refresh_within_its_budget),
	};
	const char *fixtures = getenv("IORAMP_WRITE_FIXTURES");

	if (fixtures)
		return write_fixtures(fixtures);
	return cmocka_run_group_tests_name("report_own", tests, NULL, NULL);
}
