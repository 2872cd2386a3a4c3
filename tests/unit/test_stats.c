/* Unit tests of src/stats/: histogram geometry, percentiles against an exact sort of 10^6
 * values, merging, VDbench rebinning, stddev against a two-pass computation, bank-derived
 * values and /proc/stat parsing from fixed text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioramp/gen.h"
#include "ioramp/stats.h"

enum {
	NR_VALUES = 1000000,
};

/* Latency-like values: log-uniform from 50 ns to 20 s, with 1% exact small values. */
static uint64_t *make_values(uint64_t seed, int n)
{
	uint64_t *v = malloc(sizeof(*v) * (size_t)n);
	struct gen_pcg r;

	assert_non_null(v);
	gen_pcg_seed(&r, seed, 1);
	for (int i = 0; i < n; i++) {
		if (gen_pcg_below(&r, 100) == 0)
			v[i] = gen_pcg_below(&r, 128);
		else
			v[i] = (uint64_t)exp(log(50.0) +
					     gen_pcg_unit(&r) * (log(2e10) - log(50.0)));
	}
	return v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static struct stats_hist *hist_new(void)
{
	struct stats_hist *h = calloc(1, sizeof(*h)); /* all-zero is an empty histogram */

	assert_non_null(h);
	return h;
}

static void test_hist_bucket_geometry(void **state)
{
	uint64_t prev_end = 0;

	(void)state;
	for (uint32_t i = 0; i < STATS_HIST_NR; i++) {
		uint64_t lo = stats_hist_bucket_lo_ns(i), w = stats_hist_bucket_width_ns(i);

		assert_int_equal(lo, prev_end); /* buckets tile [0, 2^44) without gaps */
		assert_int_equal(stats_hist_bucket_idx(lo), i);
		assert_int_equal(stats_hist_bucket_idx(lo + w - 1), i);
		if (i >= 128)
			assert_true(w * 64 <=
				    lo); /* width <= 1/64 of the value: midpoint < 0.79% */
		prev_end = lo + w;
	}
	assert_int_equal(prev_end, UINT64_C(1) << STATS_HIST_MAX_BITS);
	assert_int_equal(stats_hist_bucket_idx(UINT64_MAX), STATS_HIST_NR - 1);
}

static void test_hist_percentiles_match_exact_sort(void **state)
{
	static const double pcts[] = { 0.5,  1,	    5,	    50,	     90,	99,
				       99.9, 99.99, 99.999, 99.9999, 100.0 / 3, 100 };
	uint64_t *v = make_values(1, NR_VALUES);
	struct stats_hist *h = hist_new();

	(void)state;
	for (int i = 0; i < NR_VALUES; i++)
		stats_hist_add(h, v[i]);
	qsort(v, NR_VALUES, sizeof(*v), cmp_u64);
	assert_int_equal(h->min_ns, v[0]);
	assert_int_equal(h->max_ns, v[NR_VALUES - 1]);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		uint64_t rank = (uint64_t)ceill((long double)pcts[i] * NR_VALUES / 100);
		uint64_t want = v[rank - 1], got = stats_hist_percentile(h, pcts[i]);
		double err = fabs((double)got - (double)want) / (double)want;

		if (err >= 0.01)
			print_error("p%g: got %lu want %lu\n", pcts[i], (unsigned long)got,
				    (unsigned long)want);
		assert_true(err < 0.01);
	}
	assert_int_equal(stats_hist_percentile(h, 0), v[0]);
	free(h);
	free(v);
}

/* A reset clears only the buckets in use, yet leaves nothing behind: the histogram is
 * all-zero again, whatever values it held (the first and last bucket included). */
static void test_hist_reset_leaves_all_zero(void **state)
{
	static const uint64_t vals[] = { 0, 127, 128, 4095, 100000, UINT64_C(1) << 43, UINT64_MAX };
	struct stats_hist *h = hist_new(), *zero = hist_new();

	(void)state;
	for (size_t n = 1; n <= sizeof(vals) / sizeof(vals[0]); n++) {
		for (size_t i = sizeof(vals) / sizeof(vals[0]) - n;
		     i < sizeof(vals) / sizeof(vals[0]); i++)
			stats_hist_add(h, vals[i]);
		stats_hist_add(h, vals[n - 1]);
		stats_hist_reset(h);
		assert_memory_equal(h, zero, sizeof(*h));
	}
	free(h);
	free(zero);
}

static void test_hist_merge_equals_adding_all(void **state)
{
	uint64_t *v = make_values(2, NR_VALUES / 4);
	struct stats_hist *all = hist_new(), *merged = hist_new(), *part = hist_new();

	(void)state;
	for (int i = 0; i < NR_VALUES / 4; i++)
		stats_hist_add(all, v[i]);
	for (int p = 0; p < 4; p++) { /* four interleaved "workers" */
		stats_hist_reset(part);
		for (int i = p; i < NR_VALUES / 4; i += 4)
			stats_hist_add(part, v[i]);
		stats_hist_merge(merged, part);
	}
	stats_hist_reset(part);
	stats_hist_merge(merged, part); /* an empty one changes nothing */
	assert_memory_equal(all, merged, sizeof(*all));
	free(all);
	free(merged);
	free(part);
	free(v);
}

static void test_hist_clamps_huge_and_handles_empty(void **state)
{
	struct stats_hist *h = hist_new();
	uint64_t huge = UINT64_C(1) << 50;

	(void)state;
	assert_int_equal(stats_hist_percentile(h, 50), 0);
	assert_int_equal(stats_hist_count_below(h, 1000), 0);
	assert_true(stats_hist_mean_ns(h) == 0);
	stats_hist_add(h, 0);
	stats_hist_add(h, huge);
	assert_int_equal(h->counts[STATS_HIST_NR - 1], 1);
	assert_int_equal(h->max_ns, huge);
	assert_int_equal(stats_hist_percentile(h, 100), huge);
	assert_int_equal(stats_hist_percentile(h, 50), 0);
	assert_int_equal(stats_hist_percentile(h, NAN), 0);
	assert_int_equal(stats_hist_count_below(h, 1), 1);
	assert_int_equal(stats_hist_count_below(h, UINT64_MAX), 2);
	free(h);
}

static void test_hist_count_below_exact_at_bucket_bounds(void **state)
{
	uint64_t *v = make_values(3, NR_VALUES / 10);
	struct stats_hist *h = hist_new();

	(void)state;
	for (int i = 0; i < NR_VALUES / 10; i++)
		stats_hist_add(h, v[i]);
	qsort(v, NR_VALUES / 10, sizeof(*v), cmp_u64);
	for (uint32_t idx = 0; idx < STATS_HIST_NR; idx += 37) {
		uint64_t bound = stats_hist_bucket_lo_ns(idx), want = 0;

		while (want < NR_VALUES / 10 && v[want] < bound)
			want++;
		assert_int_equal(stats_hist_count_below(h, bound), want);
	}
	free(h);
	free(v);
}

static void test_vdb_default_bounds(void **state)
{
	struct stats_vdb_buckets b;

	(void)state;
	stats_vdb_default(&b);
	assert_int_equal(b.nr_bounds, 26); /* 27 buckets with the last one up to max */
	assert_int_equal(b.bound_ns[0], 20000);
	assert_int_equal(b.bound_ns[4], 100000);
	assert_int_equal(b.bound_ns[5], 200000);
	assert_int_equal(b.bound_ns[9], 1000000);
	assert_int_equal(b.bound_ns[24], 1000000000);
	assert_int_equal(b.bound_ns[25], 2000000000);
}

/* Rebinned counts sum to the total and differ from exact counting by at most the values of
 * the one histogram bucket each VDbench bound splits. */
static void check_rebin(const struct stats_vdb_buckets *b, uint64_t *v, int n)
{
	uint64_t counts[STATS_VDB_MAX_BOUNDS + 1], exact[STATS_VDB_MAX_BOUNDS + 1] = { 0 };
	struct stats_hist *h = hist_new();
	uint64_t sum = 0;

	for (int i = 0; i < n; i++) {
		uint32_t k = 0;

		stats_hist_add(h, v[i]);
		while (k < b->nr_bounds && v[i] >= b->bound_ns[k]) /* min <= resp < max */
			k++;
		exact[k]++;
	}
	stats_vdb_rebin(b, h, counts);
	for (uint32_t k = 0; k <= b->nr_bounds; k++) {
		uint64_t slack = 1;

		if (k > 0)
			slack += h->counts[stats_hist_bucket_idx(b->bound_ns[k - 1])];
		if (k < b->nr_bounds)
			slack += h->counts[stats_hist_bucket_idx(b->bound_ns[k])];
		assert_true(llabs((long long)counts[k] - (long long)exact[k]) <= (long long)slack);
		sum += counts[k];
	}
	assert_int_equal(sum, (uint64_t)n);
	free(h);
}

static void test_vdb_rebin_sums_and_tracks_exact(void **state)
{
	static const uint64_t user[] = { 100000, 1000000, 10000000 }; /* (100u,1m,10m) */
	uint64_t *v = make_values(4, NR_VALUES / 4);
	struct stats_vdb_buckets b;

	(void)state;
	stats_vdb_default(&b);
	check_rebin(&b, v, NR_VALUES / 4);
	assert_int_equal(stats_vdb_init(&b, user, 3), 0);
	check_rebin(&b, v, NR_VALUES / 4);
	free(v);
}

static void test_vdb_init_rejects_bad_bounds(void **state)
{
	static const uint64_t unsorted[] = { 100, 50 };
	static const uint64_t zero[] = { 0, 50 };
	uint64_t many[STATS_VDB_MAX_BOUNDS + 1];
	struct stats_vdb_buckets b;

	(void)state;
	for (int i = 0; i <= STATS_VDB_MAX_BOUNDS; i++)
		many[i] = (uint64_t)i + 1;
	assert_int_equal(stats_vdb_init(&b, unsorted, 2), -EINVAL);
	assert_int_equal(stats_vdb_init(&b, zero, 2), -EINVAL);
	assert_int_equal(stats_vdb_init(&b, many, 0), -EINVAL);
	assert_int_equal(stats_vdb_init(&b, many, STATS_VDB_MAX_BOUNDS + 1), -EINVAL);
	assert_int_equal(stats_vdb_init(&b, many, STATS_VDB_MAX_BOUNDS), 0);
}

static double two_pass_stddev(const uint64_t *v, int n)
{
	long double mean = 0, ss = 0;

	for (int i = 0; i < n; i++)
		mean += v[i];
	mean /= n;
	for (int i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return (double)sqrtl(ss / (n - 1));
}

static void check_stddev(const uint64_t *v, int n)
{
	struct stats_bank *b = calloc(1, sizeof(*b));
	double want = two_pass_stddev(v, n), got;

	assert_non_null(b);
	stats_bank_start(b, 0, 0);
	for (int i = 0; i < n; i++)
		stats_bank_record(b, STATS_OP_READ, 4096, v[i], v[i]);
	got = stats_counters_stddev_ns(&b->op[STATS_OP_READ]);
	assert_true(fabs(got - want) <= 1e-9 * want);
	free(b);
}

static void test_bank_stddev_matches_two_pass(void **state)
{
	uint64_t *v = make_values(5, NR_VALUES / 4);
	struct gen_pcg r;

	(void)state;
	check_stddev(v, NR_VALUES / 4);
	/* 10 s +- 500 ns: the naive double formula loses every digit to cancellation here */
	gen_pcg_seed(&r, 6, 1);
	for (int i = 0; i < NR_VALUES / 4; i++)
		v[i] = UINT64_C(10000000000) + gen_pcg_below(&r, 1001) - 500;
	check_stddev(v, NR_VALUES / 4);
	/* one 2^62 ns outlier among 1023 zeros: n * sumsq overflows 128 bits (long double path) */
	memset(v, 0, 1024 * sizeof(*v));
	v[7] = UINT64_C(1) << 62;
	check_stddev(v, 1024);
	free(v);
}

/* A slave's counters (no histograms) give the figures a bank of the same I/Os gives; the queue
 * depth from the service times equals the in-flight integral when no I/O straddles the
 * interval's ends. */
static void test_lite_gives_the_bank_figures(void **state)
{
	static const uint64_t svc[] = { 100, 300, 1000, 250 };
	struct stats_bank *b = calloc(1, sizeof(*b)), *got = calloc(1, sizeof(*got));
	struct stats_lite l[2] = { 0 };

	(void)state;
	assert_non_null(b);
	assert_non_null(got);
	stats_bank_start(b, 0, 1000);
	for (int i = 0; i < 4; i++) {
		enum stats_op op = i == 2 ? STATS_OP_WRITE : STATS_OP_READ;
		uint64_t at = 1000 + 2000 * (uint64_t)i;

		stats_bank_inflight_add(b, 1, at);
		stats_bank_inflight_add(b, -1, at + svc[i]);
		stats_bank_record(b, op, 4096u << (i & 1), svc[i], svc[i]);
		stats_lite_record(&l[i & 1], op, 4096u << (i & 1), svc[i]);
	}
	stats_bank_finish(b, 1001000);
	stats_lite_merge_into(got, &l[0]);
	stats_lite_merge_into(got, &l[1]);
	for (int op = 0; op < STATS_OP_NR; op++) {
		const struct stats_counters *w = &b->op[op], *g = &got->op[op];

		assert_int_equal(g->nr_ios, w->nr_ios);
		assert_int_equal(g->total_bytes, w->total_bytes);
		assert_int_equal(g->svc.nr, w->svc.nr);
		assert_int_equal(g->svc.sum_ns, w->svc.sum_ns);
		assert_int_equal(g->svc.max_ns, w->svc.max_ns);
		assert_true(g->svc_sumsq_ns2 == w->svc_sumsq_ns2);
		assert_true(stats_counters_stddev_ns(g) == stats_counters_stddev_ns(w));
	}
	assert_int_equal(got->inflight_ns, b->inflight_ns);
	assert_true(stats_bank_qdepth(got, 1000000) == stats_bank_qdepth(b, 1000000));
	free(b);
	free(got);
}

static void test_bank_derived_values(void **state)
{
	struct stats_bank *b = calloc(1, sizeof(*b));
	struct stats_counters *tot = calloc(1, sizeof(*tot));

	(void)state;
	assert_non_null(b);
	assert_non_null(tot);
	stats_bank_start(b, 2, 1000); /* two I/Os still in flight from the last interval */
	stats_bank_inflight_add(b, 2, 1000);
	stats_bank_record(b, STATS_OP_READ, 4096, 100, 150);
	stats_bank_record(b, STATS_OP_READ, 8192, 300, 300);
	stats_bank_record(b, STATS_OP_WRITE, 4096, 1000, 5000);
	stats_bank_record_error(b, STATS_OP_WRITE);
	stats_bank_inflight_add(b, -3, 501000); /* 4 in flight for 500 us */
	stats_bank_inflight_add(b, 0, 400000);	/* an older clock reading adds no area */
	stats_bank_finish(b, 1001000);		/* 1 more for 500 us */
	assert_int_equal(b->inflight_ns, 4 * 500000 + 500000);
	assert_true(stats_bank_qdepth(b, 1000000) == 2.5);
	assert_true(stats_counters_mean_ns(&b->op[STATS_OP_READ]) == 200);
	assert_true(fabs(stats_counters_stddev_ns(&b->op[STATS_OP_READ]) - sqrt(20000)) < 1e-9);
	assert_int_equal(b->op[STATS_OP_WRITE].nr_errors, 1);
	assert_int_equal(b->op[STATS_OP_WRITE].nr_ios, 1);
	assert_int_equal(b->op[STATS_OP_WRITE].resp.max_ns, 5000);
	stats_bank_total(b, tot);
	assert_int_equal(tot->nr_ios, 3);
	assert_int_equal(tot->total_bytes, 16384);
	assert_int_equal(tot->svc.max_ns, 1000);
	assert_int_equal(tot->svc.min_ns, 100);
	assert_true(stats_rate_per_sec(tot->nr_ios, 500000000) == 6);
	assert_true(stats_mb_per_sec(3 * 1048576, 2000000000, 1048576) == 1.5);
	assert_true(stats_rate_per_sec(5, 0) == 0);
	free(tot);
	free(b);
}

/* A bank counts an I/O's response time only once one waited (is_resp_svc): its resp histogram
 * is then exactly the one of adding every response time, at the first wait or at the finish. */
static void check_resp(const uint64_t *v, int n, int first_wait)
{
	struct stats_bank *b = calloc(1, sizeof(*b));
	struct stats_hist *want = calloc(1, sizeof(*want));
	const struct stats_hist *got;

	assert_non_null(b);
	assert_non_null(want);
	stats_bank_start(b, 0, 0);
	for (int i = 0; i < n; i++) {
		uint64_t resp = v[i] + (i >= first_wait && i % 3 ? 1000 + (uint64_t)i : 0);

		stats_bank_record(b, STATS_OP_READ, 4096, v[i], resp);
		stats_hist_add(want, resp);
	}
	stats_bank_finish(b, 1000);
	got = &b->op[STATS_OP_READ].resp;
	assert_int_equal(got->nr, want->nr);
	assert_int_equal(got->sum_ns, want->sum_ns);
	assert_int_equal(got->min_ns, want->min_ns);
	assert_int_equal(got->max_ns, want->max_ns);
	assert_memory_equal(got->counts, want->counts, sizeof(want->counts));
	assert_int_equal(b->op[STATS_OP_WRITE].resp.nr, 0);
	free(want);
	free(b);
}

static void test_bank_resp_same_as_adding_each(void **state)
{
	uint64_t *v = make_values(9, 10000);

	(void)state;
	check_resp(v, 10000, 10000); /* none waited: a copy at the finish */
	check_resp(v, 10000, 4000);  /* the first wait copies what came before */
	check_resp(v, 10000, 1);
	free(v);
}

static void test_bank_merge_adds_everything(void **state)
{
	struct stats_bank *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	stats_bank_start(a, 0, 0);
	stats_bank_start(b, 0, 0);
	stats_bank_inflight_add(a, 1, 0);
	stats_bank_record(a, STATS_OP_WRITE, 512, 10, 20);
	stats_bank_finish(a, 100);
	stats_bank_inflight_add(b, 2, 0);
	stats_bank_record(b, STATS_OP_WRITE, 1024, 30, 40);
	stats_bank_record_error(b, STATS_OP_READ);
	stats_bank_finish(b, 100);
	stats_bank_merge(a, b);
	assert_int_equal(a->op[STATS_OP_WRITE].nr_ios, 2);
	assert_int_equal(a->op[STATS_OP_WRITE].total_bytes, 1536);
	assert_int_equal(a->op[STATS_OP_WRITE].svc.sum_ns, 40);
	assert_int_equal(a->op[STATS_OP_WRITE].resp.max_ns, 40);
	assert_true(a->op[STATS_OP_WRITE].svc_sumsq_ns2 == 1000);
	assert_int_equal(a->op[STATS_OP_READ].nr_errors, 1);
	assert_int_equal(a->inflight_ns, 300);
	free(a);
	free(b);
}

static const char proc_stat_1[] = "cpu  1000 100 400 8000 200 50 50 200 30 0\n"
				  "cpu0 500 50 200 4000 100 25 25 100 15 0\n"
				  "intr 123456 0 0\n";
static const char proc_stat_2[] = "cpu  1300 200 700 8400 250 100 100 250 30 0\n"
				  "cpu0 650 100 350 4200 125 50 50 125 15 0\n";

static void test_cpu_parse_and_diff(void **state)
{
	struct stats_cpu_sample a, b;
	struct stats_cpu_pct p;

	(void)state;
	assert_int_equal(stats_cpu_parse(proc_stat_1, &a), 0);
	assert_int_equal(a.user, 1000);
	assert_int_equal(a.steal, 200);
	assert_int_equal(stats_cpu_parse(proc_stat_2, &b), 0);
	/* deltas: user 300 + nice 100, system 300 + irq 50 + softirq 50, idle 400, iowait 50,
	 * steal 50: 1300 ticks in all */
	assert_int_equal(stats_cpu_diff(&a, &b, &p), 0);
	assert_true(fabs(p.user_pct - 400 * 100.0 / 1300) < 1e-9);
	assert_true(fabs(p.sys_pct - 400 * 100.0 / 1300) < 1e-9);
	assert_true(fabs(p.used_pct - 800 * 100.0 / 1300) < 1e-9);
	assert_true(fabs(p.wait_pct - 50 * 100.0 / 1300) < 1e-9);
	assert_true(fabs(p.idle_pct - 400 * 100.0 / 1300) < 1e-9);
	assert_int_equal(stats_cpu_diff(&a, &a, &p), -EAGAIN);
}

static void test_cpu_parse_tolerates_old_and_rejects_odd_text(void **state)
{
	struct stats_cpu_sample s, later;
	struct stats_cpu_pct p;

	(void)state;
	/* a 2.4-era line: four fields, later ones 0 */
	assert_int_equal(stats_cpu_parse("cpu  10 0 10 80\n", &s), 0);
	assert_int_equal(s.idle, 80);
	assert_int_equal(s.iowait, 0);
	/* the cpu line need not be first */
	assert_int_equal(stats_cpu_parse("btime 1\ncpu 1 2 3 4 5\n", &s), 0);
	assert_int_equal(s.iowait, 5);
	assert_int_equal(stats_cpu_parse("", &s), -EINVAL);
	assert_int_equal(stats_cpu_parse("cpu0 1 2 3 4\n", &s), -EINVAL);
	assert_int_equal(stats_cpu_parse("cpu  1 2 3\n", &s), -EINVAL);
	assert_int_equal(stats_cpu_parse("cpu  x y z w\n", &s), -EINVAL);
	assert_int_equal(stats_cpu_parse("cpu  99999999999999999999999 1 1 1\n", &s), -EINVAL);
	/* iowait going backwards counts as 0 rather than as 2^64 ticks */
	assert_int_equal(stats_cpu_parse("cpu  10 0 10 80 50\n", &s), 0);
	assert_int_equal(stats_cpu_parse("cpu  20 0 20 160 40\n", &later), 0);
	assert_int_equal(stats_cpu_diff(&s, &later, &p), 0);
	assert_true(p.wait_pct == 0 && fabs(p.used_pct - 20) < 1e-9);
}

static void test_cpu_read_file(void **state)
{
	struct stats_cpu_sample s;

	(void)state;
	assert_int_equal(stats_cpu_read("/nonexistent/ioramp/stat", &s), -ENOENT);
	assert_int_equal(stats_cpu_read("/dev/null", &s), -EINVAL);
	if (access("/proc/stat", R_OK) != 0)
		skip(); /* no /proc here (a bare container): the parser is tested above */
	assert_int_equal(stats_cpu_read(NULL, &s), 0);
	assert_true(s.user + s.system + s.idle > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_bucket_geometry),
		cmocka_unit_test(test_hist_percentiles_match_exact_sort),
		cmocka_unit_test(test_hist_reset_leaves_all_zero),
		cmocka_unit_test(test_hist_merge_equals_adding_all),
		cmocka_unit_test(test_hist_clamps_huge_and_handles_empty),
		cmocka_unit_test(test_hist_count_below_exact_at_bucket_bounds),
		cmocka_unit_test(test_vdb_default_bounds),
		cmocka_unit_test(test_vdb_rebin_sums_and_tracks_exact),
		cmocka_unit_test(test_vdb_init_rejects_bad_bounds),
		cmocka_unit_test(test_bank_stddev_matches_two_pass),
		cmocka_unit_test(test_bank_derived_values),
		cmocka_unit_test(test_lite_gives_the_bank_figures),
		cmocka_unit_test(test_bank_merge_adds_everything),
		cmocka_unit_test(test_bank_resp_same_as_adding_each),
		cmocka_unit_test(test_cpu_parse_and_diff),
		cmocka_unit_test(test_cpu_parse_tolerates_old_and_rejects_odd_text),
		cmocka_unit_test(test_cpu_read_file),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
