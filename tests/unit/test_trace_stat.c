/* Trace statistics: the figures of generated traces checked against brute-force values
 * computed here from the generating rule (bitmaps for footprints, sorted arrays for hot
 * bands, two-pass moments for inter-arrival), plus the bounded-memory fallbacks, filters,
 * JSON, the fio iolog v3 writer and the profile deriver. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmocka.h needs the headers above first */
#include <cmocka.h>

#include "ioramp/trace.h"
#include "trace_rule.h"

#define MSR_BASE_TICKS 128166372000000000ull

/* cmocka's assert_near() compares floats; these figures need doubles. */
#define assert_near(a, b, eps) assert_near_at((a), (b), (eps), __FILE__, __LINE__)

static void assert_near_at(double a, double b, double eps, const char *file, int line)
{
	if (fabs(a - b) <= eps)
		return;
	print_error("%.9g != %.9g (within %.3g)\n", a, b, eps);
	_fail(file, line);
}
#define SPAN_SECTORS (70u << 11) /* 70 MiB in 512-byte sectors: beyond every rule offset */

struct expect {
	uint64_t nr, by_op[2], bytes[2], duration_ns, nr_seq, nr_near, seq_op[2];
	uint64_t footprint, footprint_4k, nr_regions, size_hist[32];
	double hot[TRACE_NR_HOT], ia_mean, ia_cv;
};

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

/* Hot bands from per-region counts, by sorting. */
static void expect_hot(struct expect *e, uint64_t *counts, size_t n)
{
	size_t nz = 0;

	for (size_t i = 0; i < n; i++)
		if (counts[i])
			counts[nz++] = counts[i];
	qsort(counts, nz, sizeof(*counts), cmp_desc);
	e->nr_regions = nz;
	for (int h = 0; h < TRACE_NR_HOT; h++) {
		size_t top = (size_t)ceil((double)nz * trace_hot_pcts[h] / 100.0);
		uint64_t sum = 0;

		for (size_t k = 0; k < top; k++)
			sum += counts[k];
		e->hot[h] = 100.0 * (double)sum / (double)e->nr;
	}
}

/* Footprints from sector and 4 KiB-block bitmaps (one byte per unit, simple over fast). */
static void expect_footprint(struct expect *e, const struct rule_rec *recs, int dev, uint64_t shift)
{
	unsigned char *sec = calloc(2 * SPAN_SECTORS, 1), *blk = calloc(2 * SPAN_SECTORS / 8, 1);

	assert_non_null(sec);
	assert_non_null(blk);
	for (int i = 0; i < RULE_N; i++) {
		uint64_t off = recs[i].offset_bytes + shift, end = off + recs[i].size_bytes;

		if (dev >= 0 && (int)recs[i].dev != dev)
			continue;
		for (uint64_t s = off / 512; s < end / 512; s++)
			sec[recs[i].dev * SPAN_SECTORS + s] = 1;
		for (uint64_t b = off / 4096; b <= (end - 1) / 4096; b++)
			blk[recs[i].dev * SPAN_SECTORS / 8 + b] = 1;
	}
	for (size_t i = 0; i < 2 * SPAN_SECTORS; i++)
		e->footprint += sec[i] * 512u;
	for (size_t i = 0; i < 2 * SPAN_SECTORS / 8; i++)
		e->footprint_4k += blk[i] * 4096u;
	free(sec);
	free(blk);
}

/* Inter-arrival mean and CV, two passes over the gaps. */
static void expect_gaps(struct expect *e, const uint64_t *t_ns, size_t n)
{
	double sum = 0, sq = 0;

	for (size_t i = 1; i < n; i++)
		sum += (double)(t_ns[i] - t_ns[i - 1]);
	e->ia_mean = n > 1 ? sum / (double)(n - 1) : 0;
	for (size_t i = 1; i < n; i++)
		sq += pow((double)(t_ns[i] - t_ns[i - 1]) - e->ia_mean, 2);
	e->ia_cv = n > 1 ? sqrt(sq / (double)(n - 1)) / e->ia_mean : 0;
	e->duration_ns = n ? t_ns[n - 1] - t_ns[0] : 0;
}

/* The figures of the rule's trace (nr_devs devices, offsets + shift, time in ns = t_us x
 * 1000 x time_scale), for device dev or all (-1). */
static void expect_rule(struct expect *e, unsigned int nr_devs, int dev, uint64_t shift)
{
	struct rule_rec recs[RULE_N];
	uint64_t prev_end[2], t_ns[RULE_N], counts[2 * 128] = { 0 }, prev_op_end[2][2];
	bool has_prev[2] = { false, false }, has_op[2][2] = { { false } };
	size_t n = 0;

	memset(e, 0, sizeof(*e));
	rule_records(nr_devs, recs);
	for (int i = 0; i < RULE_N; i++) {
		const struct rule_rec *r = &recs[i];
		uint64_t off = r->offset_bytes + shift, gap;

		if (dev >= 0 && (int)r->dev != dev)
			continue;
		e->nr++;
		e->by_op[r->op]++;
		e->bytes[r->op] += r->size_bytes;
		e->size_hist[31 - __builtin_clz(r->size_bytes)]++;
		if (has_prev[r->dev]) {
			gap = off > prev_end[r->dev] ? off - prev_end[r->dev]
						     : prev_end[r->dev] - off;
			e->nr_seq += gap == 0;
			e->nr_near += gap <= 128 * 1024;
		}
		if (has_op[r->dev][r->op])
			e->seq_op[r->op] += off == prev_op_end[r->dev][r->op];
		has_prev[r->dev] = has_op[r->dev][r->op] = true;
		prev_end[r->dev] = prev_op_end[r->dev][r->op] = off + r->size_bytes;
		counts[r->dev * 128 + (off >> 20)]++;
		t_ns[n++] = r->t_us * 1000;
	}
	expect_gaps(e, t_ns, n);
	expect_hot(e, counts, 2 * 128);
	expect_footprint(e, recs, dev, shift);
}

static void check_figs(const struct trace_figs *f, const struct expect *e)
{
	assert_int_equal(f->nr_ios, e->nr);
	assert_int_equal(f->nr_by_op[TRACE_OP_READ], e->by_op[TRACE_OP_READ]);
	assert_int_equal(f->nr_by_op[TRACE_OP_WRITE], e->by_op[TRACE_OP_WRITE]);
	assert_int_equal(f->bytes_by_op[TRACE_OP_READ], e->bytes[TRACE_OP_READ]);
	assert_int_equal(f->duration_ns, e->duration_ns);
	assert_near(f->read_pct, 100.0 * (double)e->by_op[0] / (double)e->nr, 1e-9);
	assert_near(f->iops, (double)e->nr / ((double)e->duration_ns / 1e9), 1e-6);
	for (int i = 0; i < 32; i++)
		assert_int_equal(f->size_hist[i], e->size_hist[i]);
	assert_int_equal(f->nr_seq, e->nr_seq);
	assert_int_equal(f->nr_near, e->nr_near);
	assert_int_equal(f->nr_seq_by_op[0], e->seq_op[0]);
	assert_int_equal(f->nr_seq_by_op[1], e->seq_op[1]);
	assert_true(f->is_footprint_exact);
	assert_int_equal(f->footprint_bytes, e->footprint);
	assert_int_equal(f->footprint_4k_bytes, e->footprint_4k);
	assert_int_equal(f->nr_regions, e->nr_regions);
	for (int h = 0; h < TRACE_NR_HOT; h++)
		assert_near(f->hot_pct[h], e->hot[h], 1e-9);
	assert_near(f->ia_mean_ns, e->ia_mean, 1e-6 * e->ia_mean);
	assert_near(f->ia_cv, e->ia_cv, 1e-9);
	assert_near(f->burstiness, (e->ia_cv - 1) / (e->ia_cv + 1), 1e-9);
}

static struct trace_stat *stat_file(const char *path, const struct trace_stat_opts *so)
{
	struct trace_stat *s;
	struct trace_reader *r;
	struct trace_err err;

	assert_int_equal(trace_reader_open(&r, path, NULL, &err), 0);
	assert_int_equal(trace_stat_new(&s, so), 0);
	assert_true(trace_stat_read(s, r) > 0);
	trace_reader_close(r);
	return s;
}

/* MSR: two devices, offsets shifted by 3584: the total and each device. */
static void test_stat_msr_matches_rule(void **state)
{
	struct trace_stat *s = stat_file("traces/msr.csv", NULL);
	struct trace_figs f;
	struct expect e;

	(void)state;
	assert_int_equal(trace_stat_nr_devs(s), 2);
	expect_rule(&e, 2, -1, 3584);
	assert_int_equal(trace_stat_figs(s, SIZE_MAX, &f), 0);
	assert_true(f.is_total);
	check_figs(&f, &e);
	for (int d = 0; d < 2; d++) {
		expect_rule(&e, 2, d, 3584);
		assert_int_equal(trace_stat_figs(s, (size_t)d, &f), 0);
		assert_int_equal(f.dev, d);
		check_figs(&f, &e);
	}
	assert_int_equal(trace_stat_figs(s, 2, &f), -ERANGE);
	trace_stat_free(s);
}

/* blkreplay: one device; also the median and the dominant sizes. */
static void test_stat_blkreplay_matches_rule(void **state)
{
	struct trace_stat *s = stat_file("traces/blkreplay.load.gz", NULL);
	struct rule_rec recs[RULE_N];
	uint64_t gaps[RULE_N - 1];
	struct trace_figs f;
	struct expect e;

	(void)state;
	expect_rule(&e, 1, -1, 0);
	assert_int_equal(trace_stat_figs(s, SIZE_MAX, &f), 0);
	check_figs(&f, &e);
	rule_records(1, recs);
	for (int i = 1; i < RULE_N; i++)
		gaps[i - 1] = (recs[i].t_us - recs[i - 1].t_us) * 1000;
	qsort(gaps, RULE_N - 1, sizeof(gaps[0]), cmp_desc);
	/* 239 gaps: the median is the 120th of either order */
	assert_near(f.ia_median_ns, (double)gaps[119], (double)gaps[119] / 16);
	/* sizes cycle 4, 8, 16 KiB: 80 each, ties listed smallest first */
	assert_int_equal(f.nr_top_sizes, 3);
	assert_int_equal(f.top_sizes[0].size_bytes, 4096);
	assert_int_equal(f.top_sizes[0].nr, 80);
	assert_int_equal(f.top_sizes[2].size_bytes, 16384);
	assert_near(f.peak_iops_1s, 0, 0); /* under one second */
	assert_false(f.is_time_whole_s);
	trace_stat_free(s);
}

static void add(struct trace_stat *s, uint64_t t_ns, uint32_t dev, uint8_t op, uint64_t off,
		uint32_t size)
{
	struct trace_rec rec = {
		.time_ns = t_ns, .offset_bytes = off, .size_bytes = size, .dev = dev, .op = op
	};

	assert_int_equal(trace_stat_add(s, &rec), 0);
}

/* Times in whole seconds (libCacheSim's vSCSI CSV, Tencent): the figures are the rule's, but
 * the gaps inside a second are unknown and the figures say so; one sub-second time in such a
 * trace, and they are known again. */
static void test_stat_whole_seconds(void **state)
{
	const char *paths[] = { "traces/vscsi.csv", "traces/tencent.csv" };
	struct trace_stat *s;
	struct trace_figs f;

	(void)state;
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(paths); i++) {
		s = stat_file(paths[i], NULL);
		assert_int_equal(trace_stat_figs(s, SIZE_MAX, &f), 0);
		assert_int_equal(f.nr_ios, RULE_N);
		assert_true(f.is_time_whole_s);
		add(s, 7000000000ull + 1, 0, TRACE_OP_READ, 0, 4096);
		assert_int_equal(trace_stat_figs(s, SIZE_MAX, &f), 0);
		assert_false(f.is_time_whole_s);
		trace_stat_free(s);
	}
}

/* Past max_extents the extents go to temporary files: the footprint stays exact, also when
 * later extents overlap spilled ones (it was rounded to a growing grain, approximate). */
static void test_stat_footprint_stays_exact_past_the_extent_limit(void **state)
{
	struct trace_stat_opts so = { .max_extents = 64 };
	struct trace_stat *s;
	struct trace_figs f;

	(void)state;
	assert_int_equal(trace_stat_new(&s, &so), 0);
	for (uint64_t i = 0; i < 10000; i++)
		add(s, i, 0, TRACE_OP_READ, i * 4096, 4096);
	for (uint64_t i = 0; i < 5000; i++) /* 5000 disjoint 4 KiB extents, 1 MiB apart */
		add(s, 20000 + i, 1, TRACE_OP_WRITE, i << 20, 4096);
	assert_int_equal(trace_stat_figs(s, 0, &f), 0);
	assert_true(f.is_footprint_exact);
	assert_int_equal(f.footprint_bytes, 10000 * 4096ull);
	assert_int_equal(trace_stat_figs(s, 1, &f), 0);
	assert_true(f.is_footprint_exact);
	assert_int_equal(f.footprint_grain_bytes, 1);
	assert_int_equal(f.footprint_bytes, 5000 * 4096ull);
	assert_int_equal(f.footprint_4k_bytes, 5000 * 4096ull);
	for (uint64_t i = 0; i < 5000; i++) /* each overlaps the second half of a spilled one */
		add(s, 30000 + i, 1, TRACE_OP_WRITE, (i << 20) + 2048, 4096);
	assert_int_equal(trace_stat_figs(s, 1, &f), 0);
	assert_int_equal(f.footprint_bytes, 5000 * 6144ull);
	assert_int_equal(f.footprint_4k_bytes, 5000 * 8192ull);
	assert_int_equal(trace_stat_figs(s, SIZE_MAX, &f), 0);
	assert_true(f.is_footprint_exact);
	assert_int_equal(f.footprint_bytes, 10000 * 4096ull + 5000 * 6144ull);
	trace_stat_free(s);
}

/* The default bound: past a million disjoint extents on one device, still exact. */
static void test_stat_footprint_exact_past_a_million_extents(void **state)
{
	struct trace_stat *s;
	struct trace_figs f;
	const uint64_t n = 1200000;

	(void)state;
	assert_int_equal(trace_stat_new(&s, NULL), 0);
	for (uint64_t i = 0; i < n; i++) /* a permutation of n 512-byte slots, 1 KiB apart */
		add(s, i, 0, TRACE_OP_READ, (i * 7919 % n) * 1024, 512);
	assert_int_equal(trace_stat_figs(s, SIZE_MAX, &f), 0);
	assert_true(f.is_footprint_exact);
	assert_int_equal(f.footprint_bytes, n * 512);
	trace_stat_free(s);
}

/* Past max_regions the region grows: hot bands keep working on fewer, larger regions. */
static void test_stat_regions_fold(void **state)
{
	struct trace_stat_opts so = { .max_regions = 16 };
	struct trace_stat *s;
	struct trace_figs f;

	(void)state;
	assert_int_equal(trace_stat_new(&s, &so), 0);
	for (uint64_t i = 0; i < 100; i++)
		add(s, i, 0, TRACE_OP_READ, i << 20, 4096);
	assert_int_equal(trace_stat_figs(s, SIZE_MAX, &f), 0);
	/* 100 MiB in 1 MiB steps folds 1 -> 2 -> 4 -> 8 MiB: 12 regions of 8 I/Os and one of 4;
	 * the busiest 25 % (4 regions) hold 32 I/Os */
	assert_int_equal(f.region_bytes, 8u << 20);
	assert_int_equal(f.nr_regions, 13);
	assert_near(f.hot_pct[TRACE_NR_HOT - 1], 32.0, 1e-9);
	trace_stat_free(s);
}

/* Flushes and discards are counted only; --device keeps one device; time going backwards
 * counts as a zero gap; the busiest second. */
static void test_stat_counts_filters_and_time(void **state)
{
	struct trace_stat_opts so = { .has_dev_filter = true, .dev_filter = 7 };
	struct trace_stat *s;
	struct trace_figs f;

	(void)state;
	assert_int_equal(trace_stat_new(&s, &so), 0);
	add(s, 0, 7, TRACE_OP_READ, 0, 4096);
	add(s, 1000, 3, TRACE_OP_READ, 0, 4096); /* another device: dropped */
	add(s, 2000, 7, TRACE_OP_FLUSH, 0, 0);
	add(s, 3000, 7, TRACE_OP_DISCARD, 1 << 20, 65536);
	for (int i = 0; i < 10; i++)
		add(s, 1500000000ull + (uint64_t)i, 7, TRACE_OP_WRITE, 4096, 4096);
	add(s, 2500000000ull, 7, TRACE_OP_WRITE, 8192, 4096);
	add(s, 2400000000ull, 7, TRACE_OP_WRITE, 12288, 4096); /* back in time */
	assert_int_equal(trace_stat_nr_devs(s), 1);
	assert_int_equal(trace_stat_figs(s, SIZE_MAX, &f), 0);
	assert_int_equal(f.nr_ios, 13);
	assert_int_equal(f.nr_by_op[TRACE_OP_FLUSH], 1);
	assert_int_equal(f.nr_by_op[TRACE_OP_DISCARD], 1);
	assert_int_equal(f.bytes_by_op[TRACE_OP_DISCARD], 65536);
	assert_int_equal(f.footprint_bytes, 4 * 4096);
	assert_int_equal(f.duration_ns, 2500000000ull);
	assert_int_equal(f.nr_time_backwards, 1);
	assert_near(f.peak_iops_1s, 10, 0);
	/* the first write continues the read, its 9 repeats do not, 8192 and 12288 continue */
	assert_int_equal(f.nr_seq, 3);
	trace_stat_free(s);
}

static void test_stat_json(void **state)
{
	struct trace_stat *s = stat_file("traces/blkparse.txt", NULL);
	struct trace_figs f;
	json_t *j, *buckets;

	(void)state;
	assert_int_equal(trace_stat_figs(s, 1, &f), 0);
	j = trace_figs_json(&f, true);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "device")), "8,32");
	assert_int_equal(json_integer_value(json_object_get(j, "records")), RULE_N / 2);
	/* the writes are the even I/Os, all on 8,16 */
	assert_near(json_real_value(json_object_get(j, "read_pct")), 100.0, 1e-9);
	assert_true(json_is_true(json_object_get(j, "footprint_exact")));
	buckets = json_object_get(j, "size_buckets");
	assert_int_equal(json_array_size(buckets), 3);
	assert_int_equal(
		json_integer_value(json_object_get(json_array_get(buckets, 0), "min_bytes")), 4096);
	json_decref(j);
	trace_stat_free(s);
}

static void tmp_path(char *buf, size_t len, const char *name)
{
	const char *dir = getenv("TMPDIR");

	snprintf(buf, len, "%s/ioramp-test-%d-%s", dir && *dir ? dir : "/tmp", (int)getpid(), name);
}

/* blkparse completions get their device latency from the issue of the same sector (D to C):
 * 100, 300 and 200 us here; a completion without its issue, a flush and the queue events carry
 * none. */
static void test_stat_blkparse_latency_pairs_issue_and_completion(void **state)
{
	static const char text[] = "8,0 0 1 0.000000000 7 Q R 1000 + 8 [fio]\n"
				   "8,0 0 2 0.000001000 7 D R 1000 + 8 [fio]\n"
				   "8,0 0 3 0.000002000 7 D W 2000 + 16 [fio]\n"
				   "8,0 0 4 0.000003000 7 D FN [fio]\n"
				   "8,0 0 5 0.000101000 0 C R 1000 + 8 [0]\n"
				   "8,0 0 6 0.000200000 0 D R 3000 + 8 [fio]\n"
				   "8,0 0 7 0.000302000 0 C W 2000 + 16 [0]\n"
				   "8,0 0 8 0.000350000 0 C FN 0 [0]\n"
				   "8,0 0 9 0.000400000 0 C R 3000 + 8 [0]\n"
				   "8,0 0 10 0.000500000 0 C R 9000 + 8 [0]\n"
				   "CPU0 (8,0):\n";
	struct trace_opts o = { .format = TRACE_FMT_BLKPARSE, .action = TRACE_ACT_COMPLETE };
	struct trace_reader *r;
	struct trace_stat *s;
	struct trace_figs f;
	struct trace_err err;
	char path[256];
	FILE *fp;

	(void)state;
	tmp_path(path, sizeof(path), "lat.blkparse");
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	assert_int_equal(trace_reader_open(&r, path, &o, &err), 0);
	assert_int_equal(trace_stat_new(&s, NULL), 0);
	assert_int_equal(trace_stat_read(s, r), 5); /* the completions, the flush's included */
	trace_reader_close(r);
	unlink(path);
	assert_int_equal(trace_stat_figs(s, SIZE_MAX, &f), 0);
	assert_int_equal(f.nr_ios, 4);
	assert_int_equal(f.nr_latencies, 3);
	assert_near(f.lat_mean_ns, 200000, 1e-6);
	assert_int_equal(f.lat_max_ns, 300000);
	assert_near(f.lat_p50_ns, 200000, 200000 / 16.0);
	assert_true(f.lat_p999_ns <= 300000);
	trace_stat_free(s);
	/* by default the queue events are the records: no latency */
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	s = stat_file(path, NULL);
	unlink(path);
	assert_int_equal(trace_stat_figs(s, SIZE_MAX, &f), 0);
	assert_int_equal(f.nr_ios, 1);
	assert_int_equal(f.nr_latencies, 0);
	trace_stat_free(s);
}

/* Written records read back identically (whole microseconds), flushes as "sync 0 0" and
 * discards as "trim". */
static void test_writer_round_trip(void **state)
{
	struct rule_rec want[RULE_N];
	struct trace_writer *w;
	struct trace_reader *r;
	struct trace_err err;
	struct trace_rec rec;
	char path[256];
	int i = 0;

	(void)state;
	tmp_path(path, sizeof(path), "rt.iolog");
	rule_records(2, want);
	assert_int_equal(trace_writer_open(&w, path, &err), 0);
	assert_int_equal(trace_writer_file(w, "/dev/a", 0), 0);
	assert_int_equal(trace_writer_file(w, "/dev/b", 0), 1);
	assert_int_equal(trace_writer_file(w, "bad name", 0), -EINVAL);
	for (int k = 0; k < RULE_N; k++) {
		rec = (struct trace_rec){ .time_ns = want[k].t_us * 1000 + 999,
					  .offset_bytes = want[k].offset_bytes,
					  .size_bytes = want[k].size_bytes,
					  .dev = want[k].dev,
					  .op = want[k].op };
		assert_int_equal(trace_writer_add(w, &rec), 0);
	}
	rec = (struct trace_rec){ .time_ns = 300000000, .dev = 1, .op = TRACE_OP_FLUSH };
	assert_int_equal(trace_writer_add(w, &rec), 0);
	rec.op = TRACE_OP_DISCARD;
	rec.size_bytes = 8192;
	assert_int_equal(trace_writer_add(w, &rec), 0);
	rec.dev = 2;
	assert_int_equal(trace_writer_add(w, &rec), -EINVAL);
	assert_int_equal(trace_writer_close(w), 0);

	assert_int_equal(trace_reader_open(&r, path, NULL, &err), 0);
	assert_int_equal(trace_reader_format(r), TRACE_FMT_FIO3);
	for (; i < RULE_N && trace_reader_next(r, &rec) == 1; i++) {
		assert_int_equal(rec.time_ns, want[i].t_us * 1000);
		assert_int_equal(rec.offset_bytes, want[i].offset_bytes);
		assert_int_equal(rec.size_bytes, want[i].size_bytes);
		assert_int_equal(rec.dev, want[i].dev);
		assert_int_equal(rec.op, want[i].op);
	}
	assert_int_equal(i, RULE_N);
	assert_int_equal(trace_reader_next(r, &rec), 1);
	assert_int_equal(rec.op, TRACE_OP_FLUSH);
	assert_int_equal(trace_reader_next(r, &rec), 1);
	assert_int_equal(rec.op, TRACE_OP_DISCARD);
	assert_int_equal(rec.size_bytes, 8192);
	assert_int_equal(trace_reader_next(r, &rec), 0);
	trace_reader_close(r);
	unlink(path);
}

static void test_writer_open_error(void **state)
{
	struct trace_writer *w;
	struct trace_err err;

	(void)state;
	assert_int_equal(trace_writer_open(&w, "/nonexistent-dir/x.iolog", &err), -ENOENT);
	assert_string_equal(err.msg, "cannot create: No such file or directory");
	assert_int_equal(trace_writer_close(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_msr_matches_rule),
		cmocka_unit_test(test_stat_blkreplay_matches_rule),
		cmocka_unit_test(test_stat_whole_seconds),
		cmocka_unit_test(test_stat_footprint_stays_exact_past_the_extent_limit),
		cmocka_unit_test(test_stat_footprint_exact_past_a_million_extents),
		cmocka_unit_test(test_stat_regions_fold),
		cmocka_unit_test(test_stat_counts_filters_and_time),
		cmocka_unit_test(test_stat_json),
		cmocka_unit_test(test_writer_round_trip),
		cmocka_unit_test(test_writer_open_error),
		cmocka_unit_test(test_stat_blkparse_latency_pairs_issue_and_completion),
	};

	return cmocka_run_group_tests_name("trace_stat", tests, NULL, NULL);
}
