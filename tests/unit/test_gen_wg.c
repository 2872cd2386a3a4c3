/* Unit tests of the workload-generator stream (src/gen/stream.c): over 10^6 draws with fixed
 * seeds, the op, size and offset distributions and the relations of reference §9.5-9.7. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "ioramp/gen.h"

enum {
	NR_DRAWS = 1000000,
};

#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

/* 100% random 4k reads over a whole 1 GiB SD: tests change what they study. */
static struct gen_wg_cfg base_cfg(void)
{
	return (struct gen_wg_cfg){
		.rdpct = 100,
		.xfer = { .kind = GEN_XFER_FIXED, .size_bytes = { 4 * KIB } },
		.seek = GEN_SEEK_PCT,
		.seekpct = 100,
		.sd_size_bytes = GIB,
	};
}

static struct gen_io next_io(struct gen_wg *g)
{
	struct gen_io io;

	assert_int_equal(gen_wg_next(g, &io), 0);
	return io;
}

static bool near(double got, double want, double tol)
{
	if (fabs(got - want) <= tol)
		return true;
	print_error("got %.5f, want %.5f +- %.5f\n", got, want, tol);
	return false;
}

static void test_wg_xfersize_distribution_mix(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t n4 = 0, n8 = 0, n64 = 0;
	struct gen_wg g;

	(void)state;
	cfg.xfer = (struct gen_xfer_cfg){ .kind = GEN_XFER_DIST,
					  .nr_sizes = 3,
					  .size_bytes = { 4 * KIB, 8 * KIB, 64 * KIB },
					  .pct = { 25, 50, 25 } };
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), 0);
	for (int i = 0; i < NR_DRAWS; i++) {
		struct gen_io io = next_io(&g);

		n4 += io.size_bytes == 4 * KIB;
		n8 += io.size_bytes == 8 * KIB;
		n64 += io.size_bytes == 64 * KIB;
	}
	assert_int_equal(n4 + n8 + n64, NR_DRAWS);
	assert_true(near((double)n4 / NR_DRAWS, 0.25, 0.003));
	assert_true(near((double)n8 / NR_DRAWS, 0.50, 0.003));
	assert_true(near((double)n64 / NR_DRAWS, 0.25, 0.003));
}

static void test_wg_xfersize_range_multiples_of_align(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t counts[17] = { 0 };
	struct gen_wg g;

	(void)state;
	/* (3k,64k,4k): multiples of 4k from 4k to 64k, 16 values, each 1/16 */
	cfg.xfer = (struct gen_xfer_cfg){ .kind = GEN_XFER_RANGE,
					  .min_bytes = 3 * KIB,
					  .max_bytes = 64 * KIB,
					  .align_bytes = 4 * KIB };
	assert_int_equal(gen_xfer_max_bytes(&cfg.xfer), 64 * KIB);
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 2), 0);
	for (int i = 0; i < NR_DRAWS; i++) {
		struct gen_io io = next_io(&g);

		assert_int_equal(io.size_bytes % (4 * KIB), 0);
		assert_true(io.size_bytes >= 4 * KIB && io.size_bytes <= 64 * KIB);
		counts[io.size_bytes / (4 * KIB)]++;
	}
	for (int i = 1; i <= 16; i++)
		assert_true(near((double)counts[i] / NR_DRAWS, 1.0 / 16, 0.002));
}

static void test_wg_read_percent(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t nr_reads = 0;
	struct gen_wg g;

	(void)state;
	cfg.rdpct = 70;
	assert_int_equal(gen_wg_init(&g, &cfg, 2, 1), 0);
	for (int i = 0; i < NR_DRAWS; i++)
		nr_reads += !next_io(&g).is_write;
	assert_true(near((double)nr_reads / NR_DRAWS, 0.70, 0.003));
	cfg.rdpct = 0;
	assert_int_equal(gen_wg_init(&g, &cfg, 2, 1), 0);
	for (int i = 0; i < 1000; i++)
		assert_true(next_io(&g).is_write);
}

/* reference §9.5: random I/Os move the sequential pointer, so seekpct=20 gives runs of ~5. */
static void test_wg_seekpct_mean_run_length(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t nr_runs = 0, prev_end = UINT64_MAX;
	struct gen_wg g;

	(void)state;
	cfg.seekpct = 20;
	assert_int_equal(gen_wg_init(&g, &cfg, 3, 1), 0);
	for (int i = 0; i < NR_DRAWS; i++) {
		struct gen_io io = next_io(&g);

		nr_runs += io.offset_bytes != prev_end;
		prev_end = io.offset_bytes + io.size_bytes;
	}
	assert_true(near((double)NR_DRAWS / nr_runs, 5.0, 0.05));
}

static void test_wg_hitarea_share(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t nr_hits = 0, nr_wr_hits = 0, nr_writes = 0;
	struct gen_wg g;

	(void)state;
	cfg.range = (struct gen_range){ .start_bytes = 256 * MIB, .len_bytes = 512 * MIB };
	cfg.rdpct = 50;
	cfg.rhpct = 30;
	cfg.whpct = 10;
	cfg.hitarea_bytes = MIB;
	assert_int_equal(gen_wg_init(&g, &cfg, 4, 1), 0);
	for (int i = 0; i < NR_DRAWS; i++) {
		struct gen_io io = next_io(&g);
		bool is_hit = io.offset_bytes < 257 * MIB;

		assert_true(io.offset_bytes >= 256 * MIB);
		assert_true(io.offset_bytes + io.size_bytes <= 768 * MIB);
		nr_writes += io.is_write;
		nr_hits += is_hit && !io.is_write;
		nr_wr_hits += is_hit && io.is_write;
	}
	assert_true(near((double)nr_hits / (NR_DRAWS - nr_writes), 0.30, 0.004));
	assert_true(near((double)nr_wr_hits / nr_writes, 0.10, 0.003));
}

static void test_wg_hotband_favours_band_start(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t band = 512 * MIB, lo = 256 * MIB;
	uint64_t nr_rd_first = 0, nr_wr_shifted = 0, nr_writes = 0;
	double want = -expm1(-0.1 * GEN_HOTBAND_L) / -expm1(-1.0 * GEN_HOTBAND_L);
	struct gen_wg g;

	(void)state;
	assert_true(near(want, 0.6321, 0.0001)); /* F(0.1) of the curve documented in gen.h */
	cfg.range = (struct gen_range){ .start_bytes = lo, .len_bytes = band };
	cfg.is_hotband = true;
	cfg.rdpct = 50;
	assert_int_equal(gen_wg_init(&g, &cfg, 5, 1), 0);
	for (int i = 0; i < NR_DRAWS; i++) {
		struct gen_io io = next_io(&g);
		uint64_t rel = io.offset_bytes - lo;

		assert_true(io.offset_bytes >= lo && rel + io.size_bytes <= band);
		if (!io.is_write) {
			nr_rd_first += rel < band / 10;
			continue;
		}
		nr_writes++; /* writes: the same curve starting 1% into the band */
		nr_wr_shifted += rel >= band / 100 && rel < band / 100 + band / 10;
	}
	assert_true(near((double)nr_rd_first / (NR_DRAWS - nr_writes), want, 0.004));
	assert_true(near((double)nr_wr_shifted / nr_writes, want, 0.004));
}

static void test_wg_wrapped_range_hits_both_pieces(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t nr_tail = 0, nr_head = 0;
	struct gen_range r;
	struct gen_wg g;

	(void)state;
	cfg.xfer = (struct gen_xfer_cfg){ .kind = GEN_XFER_DIST,
					  .nr_sizes = 2,
					  .size_bytes = { 8 * KIB, 12 * KIB },
					  .pct = { 50, 50 } };
	assert_int_equal(gen_range_resolve(90, 110, cfg.sd_size_bytes, 12 * KIB, &cfg.range), 0);
	r = cfg.range;
	cfg.seekpct = 50;
	assert_int_equal(gen_wg_init(&g, &cfg, 6, 1), 0);
	for (int i = 0; i < NR_DRAWS; i++) {
		struct gen_io io = next_io(&g);
		uint64_t end = io.offset_bytes + io.size_bytes;

		if (io.offset_bytes >= r.start_bytes) {
			assert_true(end <= cfg.sd_size_bytes);
			nr_tail++;
		} else {
			assert_true(end <= r.start_bytes + r.len_bytes - cfg.sd_size_bytes);
			nr_head++;
		}
	}
	assert_true(near((double)nr_tail / NR_DRAWS, 0.5, 0.01));
	assert_true(near((double)nr_head / NR_DRAWS, 0.5, 0.01));
}

static void test_wg_random_offsets_aligned(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t nr_unaligned_8k = 0;
	struct gen_wg g;

	(void)state;
	cfg.xfer = (struct gen_xfer_cfg){ .kind = GEN_XFER_DIST,
					  .nr_sizes = 3,
					  .size_bytes = { 4 * KIB, 8 * KIB, 64 * KIB },
					  .pct = { 40, 40, 20 } };
	assert_int_equal(gen_range_resolve(33, 66, cfg.sd_size_bytes, 64 * KIB, &cfg.range), 0);
	assert_int_equal(gen_wg_init(&g, &cfg, 7, 1), 0);
	for (int i = 0; i < NR_DRAWS / 2; i++) {
		struct gen_io io = next_io(&g);

		assert_int_equal(io.offset_bytes % io.size_bytes, 0);
	}
	cfg.xfer = (struct gen_xfer_cfg){ .kind = GEN_XFER_FIXED, .size_bytes = { 8 * KIB } };
	cfg.align_bytes = 512; /* align= overrides the I/O size as granularity */
	cfg.offset_bytes = 1024 * KIB;
	assert_int_equal(gen_wg_init(&g, &cfg, 7, 2), 0);
	for (int i = 0; i < NR_DRAWS / 2; i++) {
		struct gen_io io = next_io(&g);

		assert_int_equal(io.offset_bytes % 512, 0);
		assert_true(io.offset_bytes >= cfg.offset_bytes + cfg.range.start_bytes);
		nr_unaligned_8k += io.offset_bytes % (8 * KIB) != 0;
	}
	assert_true(nr_unaligned_8k > NR_DRAWS / 4);
}

static void test_wg_raw_device_never_touches_block0(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t min_offset = UINT64_MAX;
	struct gen_io io;
	struct gen_wg g;

	(void)state;
	cfg.xfer = (struct gen_xfer_cfg){ .kind = GEN_XFER_DIST,
					  .nr_sizes = 2,
					  .size_bytes = { 4 * KIB, 64 * KIB },
					  .pct = { 50, 50 } };
	cfg.sd_size_bytes = 4 * MIB; /* small, so sequential runs wrap many times */
	cfg.seekpct = 10;
	cfg.is_raw_device = true;
	assert_int_equal(gen_wg_init(&g, &cfg, 8, 1), 0);
	io = next_io(&g); /* first I/O sequential: block 1, the range start past block 0 */
	assert_int_equal(io.offset_bytes, 64 * KIB);
	for (int i = 0; i < NR_DRAWS; i++) {
		io = next_io(&g);
		min_offset = io.offset_bytes < min_offset ? io.offset_bytes : min_offset;
		assert_true(io.offset_bytes + io.size_bytes <= cfg.sd_size_bytes);
	}
	assert_int_equal(min_offset, 64 * KIB);
	/* a wrapped range on a raw device skips block 0 in its second piece too */
	assert_int_equal(gen_range_resolve(50, 150, cfg.sd_size_bytes, 64 * KIB, &cfg.range),
			 -EINVAL);
	assert_int_equal(gen_range_resolve(75, 125, cfg.sd_size_bytes, 64 * KIB, &cfg.range), 0);
	assert_int_equal(gen_wg_init(&g, &cfg, 8, 2), 0);
	for (int i = 0; i < NR_DRAWS / 4; i++)
		assert_true(next_io(&g).offset_bytes >= 64 * KIB);
}

static void test_wg_eof_covers_range_then_stops(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t expect = 3 * MIB, nr_short = 0;
	struct gen_io io;
	struct gen_wg g;
	int ret;

	(void)state;
	cfg.xfer = (struct gen_xfer_cfg){ .kind = GEN_XFER_DIST,
					  .nr_sizes = 2,
					  .size_bytes = { 4 * KIB, 24 * KIB },
					  .pct = { 50, 50 } };
	cfg.seek = GEN_SEEK_EOF;
	cfg.range = (struct gen_range){ .start_bytes = 3 * MIB, .len_bytes = 2 * MIB };
	assert_int_equal(gen_wg_init(&g, &cfg, 9, 1), 0);
	while ((ret = gen_wg_next(&g, &io)) == 0) {
		assert_int_equal(io.offset_bytes, expect); /* back to back, nothing skipped */
		nr_short += io.size_bytes != 4 * KIB && io.size_bytes != 24 * KIB;
		expect += io.size_bytes;
	}
	assert_int_equal(ret, 1);
	assert_int_equal(expect, 5 * MIB);
	assert_true(nr_short <= 1); /* only the last block may be short */
	assert_int_equal(gen_wg_next(&g, &io), 1);
}

/* Three generators of one workload (three threads) sharing one position: one stream whose
 * blocks go to whichever draws next, each block once, to the end of the range. */
static void test_wg_shared_seq_is_one_stream(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	struct gen_seq_cursor cursor = { 0 };
	uint64_t expect = 3 * MIB;
	struct gen_wg g[3];
	struct gen_io io;
	int ret, nr_done = 0;

	(void)state;
	cfg.seek = GEN_SEEK_EOF;
	cfg.range = (struct gen_range){ .start_bytes = 3 * MIB, .len_bytes = MIB };
	for (int i = 0; i < 3; i++) {
		assert_int_equal(gen_wg_init(&g[i], &cfg, 9, (uint64_t)i + 1), 0);
		gen_wg_share_seq(&g[i], &cursor);
	}
	for (unsigned k = 0; nr_done < 3; k++) {
		ret = gen_wg_next(&g[(k * 7 + k / 3) % 3], &io); /* an uneven order of threads */
		if (ret) {
			nr_done++;
			continue;
		}
		assert_int_equal(io.offset_bytes, expect); /* back to back across the threads */
		expect += io.size_bytes;
	}
	assert_int_equal(expect, 4 * MIB);
	for (int i = 0; i < 3; i++)
		assert_int_equal(gen_wg_next(&g[i], &io), 1);
}

/* A random miss by one thread moves the position for all: seekpct=50 runs continue from the
 * last miss whichever generator drew it. */
static void test_wg_shared_seq_follows_random_misses(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	struct gen_seq_cursor cursor = { 0 };
	struct gen_wg a, b;
	struct gen_io io;
	uint64_t last_end = 0, nr_continued = 0;
	bool has_last = false;

	(void)state;
	cfg.seekpct = 50;
	assert_int_equal(gen_wg_init(&a, &cfg, 3, 1), 0);
	assert_int_equal(gen_wg_init(&b, &cfg, 3, 2), 0);
	gen_wg_share_seq(&a, &cursor);
	gen_wg_share_seq(&b, &cursor);
	for (int i = 0; i < 2000; i++) {
		io = next_io(i % 2 ? &a : &b);
		/* a sequential I/O starts where the previous one (either thread's) ended; a random
		 * one elsewhere; either way the next continues from this one */
		nr_continued += has_last && io.offset_bytes == last_end;
		last_end = io.offset_bytes + io.size_bytes;
		has_last = true;
		assert_int_equal(atomic_load(&cursor.end_plus1), last_end + 1);
	}
	/* half are sequential (and a random one lands on the next block 1 in 2^18 times) */
	assert_in_range(nr_continued, 900, 1100);
}

static void test_wg_sequential_wraps_to_range_start(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	struct gen_wg g;

	(void)state;
	cfg.seekpct = 0;
	cfg.range = (struct gen_range){ .start_bytes = MIB, .len_bytes = 64 * KIB };
	assert_int_equal(gen_wg_init(&g, &cfg, 10, 1), 0);
	for (int i = 0; i < 100; i++)
		assert_int_equal(next_io(&g).offset_bytes, MIB + (uint64_t)(i % 16) * 4 * KIB);
}

static void test_wg_seqnz_starts_at_random_block(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t first[4];
	struct gen_wg g;

	(void)state;
	cfg.seek = GEN_SEEK_SEQNZ;
	for (int s = 0; s < 4; s++) {
		assert_int_equal(gen_wg_init(&g, &cfg, 11, (uint64_t)s), 0);
		first[s] = next_io(&g).offset_bytes;
		for (int i = 1; i < 1000; i++)
			assert_int_equal(next_io(&g).offset_bytes,
					 first[s] + (uint64_t)i * 4 * KIB);
	}
	assert_true(first[0] != first[1] || first[1] != first[2] || first[2] != first[3]);
}

static void test_wg_stride_skips_forward(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t prev_end, nr_wraps = 0;
	uint64_t counts[15] = { 0 };
	struct gen_wg g;

	(void)state;
	cfg.has_stride = true;
	cfg.stride_min_bytes = 8 * KIB;
	cfg.stride_max_bytes = 64 * KIB;
	cfg.sd_size_bytes = 64 * MIB;
	assert_int_equal(gen_wg_init(&g, &cfg, 12, 1), 0);
	prev_end = next_io(&g).offset_bytes + 4 * KIB;
	for (int i = 0; i < NR_DRAWS; i++) {
		struct gen_io io = next_io(&g);

		if (io.offset_bytes < prev_end) {
			assert_int_equal(io.offset_bytes, 0); /* past the end: restart */
			nr_wraps++;
		} else {
			uint64_t skip = io.offset_bytes - prev_end;

			assert_true(skip >= 8 * KIB && skip <= 64 * KIB && skip % (4 * KIB) == 0);
			counts[(skip - 8 * KIB) / (4 * KIB)]++;
		}
		prev_end = io.offset_bytes + io.size_bytes;
	}
	assert_true(nr_wraps > 0);
	for (int i = 0; i < 15; i++) /* 8k, 12k ... 64k equally likely */
		assert_true(near((double)counts[i] / (NR_DRAWS - nr_wraps), 1.0 / 15, 0.003));
}

static void test_wg_poisson_block_index(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	double lambdas[] = { 4.5, 50000 };

	(void)state;
	cfg.seek = GEN_SEEK_POISSON;
	for (int l = 0; l < 2; l++) {
		long double sum = 0, sumsq = 0;
		struct gen_wg g;
		int n = NR_DRAWS / 4;

		cfg.poisson_lambda = lambdas[l];
		assert_int_equal(gen_wg_init(&g, &cfg, 13, (uint64_t)l), 0);
		for (int i = 0; i < n; i++) {
			long double k = next_io(&g).offset_bytes / (4 * KIB);

			sum += k;
			sumsq += k * k;
		}
		/* a Poisson variate: mean and variance both lambda */
		assert_true(near((double)(sum / n) / lambdas[l], 1, 0.01));
		assert_true(
			near((double)((sumsq - sum * sum / n) / (n - 1)) / lambdas[l], 1, 0.02));
	}
}

static void test_wg_same_seed_same_stream(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	struct gen_wg a, b, c;
	int nr_same = 0;

	(void)state;
	cfg.rdpct = 60;
	cfg.seekpct = 50;
	cfg.xfer = (struct gen_xfer_cfg){ .kind = GEN_XFER_DIST,
					  .nr_sizes = 2,
					  .size_bytes = { 4 * KIB, 8 * KIB },
					  .pct = { 50, 50 } };
	assert_int_equal(gen_wg_init(&a, &cfg, 42, 3), 0);
	assert_int_equal(gen_wg_init(&b, &cfg, 42, 3), 0);
	assert_int_equal(gen_wg_init(&c, &cfg, 42, 4), 0);
	for (int i = 0; i < 100000; i++) {
		struct gen_io x = next_io(&a), y = next_io(&b), z = next_io(&c);

		assert_int_equal(x.is_write, y.is_write);
		assert_int_equal(x.offset_bytes, y.offset_bytes);
		assert_int_equal(x.size_bytes, y.size_bytes);
		nr_same += x.offset_bytes == z.offset_bytes;
	}
	assert_true(nr_same < 1000); /* sequential runs may coincide now and then, no more */
}

static void test_wg_init_rejects_impossible(void **state)
{
	struct gen_wg_cfg cfg;
	struct gen_wg g;

	(void)state;
	cfg = base_cfg();
	cfg.range = (struct gen_range){ .start_bytes = 0, .len_bytes = 2 * KIB };
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), -EINVAL); /* range < xfersize */
	cfg = base_cfg();
	cfg.range = (struct gen_range){ .start_bytes = GIB, .len_bytes = 4 * KIB };
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), -EINVAL); /* starts past the SD */
	cfg = base_cfg();
	cfg.rdpct = 101;
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), -EINVAL);
	cfg = base_cfg();
	cfg.xfer.size_bytes[0] = 0;
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), -EINVAL);
	cfg = base_cfg();
	cfg.xfer = (struct gen_xfer_cfg){ .kind = GEN_XFER_DIST,
					  .nr_sizes = 2,
					  .size_bytes = { 4 * KIB, 8 * KIB },
					  .pct = { 50, 49 } };
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), -EINVAL); /* sums to 99 */
	cfg = base_cfg();
	cfg.rhpct = 10;
	cfg.hitarea_bytes = 4 * KIB;
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), -EINVAL); /* hit area < 2 transfers */
	cfg = base_cfg();
	cfg.is_hotband = true;
	cfg.range = (struct gen_range){ .start_bytes = 0, .len_bytes = 512 * KIB };
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), -EINVAL); /* band < 1 MB */
	cfg = base_cfg();
	cfg.has_stride = true;
	cfg.stride_min_bytes = 8 * KIB;
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), -EINVAL); /* min > max */
	cfg = base_cfg();
	cfg.seek = GEN_SEEK_POISSON;
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), -EINVAL); /* lambda 0 */
	cfg = base_cfg();
	cfg.sd_size_bytes = 64 * KIB;
	cfg.xfer.size_bytes[0] = 64 * KIB;
	cfg.is_raw_device = true;
	assert_int_equal(gen_wg_init(&g, &cfg, 1, 1), -EINVAL); /* nothing left past block 0 */
}

/* gen_wg_check() says which limit a workload breaks, for the plan-time error (issue 16 item 7).
 * A range under two transfers with hits once wrapped around and passed. */
static void test_wg_check_names_the_fault(void **state)
{
	struct gen_wg_cfg cfg = base_cfg();
	uint64_t len = 0;

	(void)state;
	assert_int_equal(gen_wg_check(&cfg, &len), GEN_WG_OK);
	assert_int_equal(len, GIB);
	cfg.rhpct = 50;
	cfg.hitarea_bytes = 2 * GIB;
	assert_int_equal(gen_wg_check(&cfg, NULL), GEN_WG_HITAREA);
	cfg.range = (struct gen_range){ .start_bytes = 0, .len_bytes = 4 * KIB };
	cfg.hitarea_bytes = 8 * KIB;
	assert_int_equal(gen_wg_check(&cfg, NULL), GEN_WG_HITAREA); /* len < 2 transfers */
	cfg = base_cfg();
	cfg.is_hotband = true;
	cfg.range = (struct gen_range){ .start_bytes = 0, .len_bytes = 8 * KIB };
	assert_int_equal(gen_wg_check(&cfg, &len), GEN_WG_HOTBAND);
	assert_int_equal(len, 8 * KIB);
	cfg = base_cfg();
	cfg.range = (struct gen_range){ .start_bytes = GIB, .len_bytes = 4 * KIB };
	assert_int_equal(gen_wg_check(&cfg, NULL), GEN_WG_RANGE);
	cfg = base_cfg();
	cfg.rdpct = 101;
	assert_int_equal(gen_wg_check(&cfg, NULL), GEN_WG_BAD_CFG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wg_xfersize_distribution_mix),
		cmocka_unit_test(test_wg_xfersize_range_multiples_of_align),
		cmocka_unit_test(test_wg_read_percent),
		cmocka_unit_test(test_wg_seekpct_mean_run_length),
		cmocka_unit_test(test_wg_hitarea_share),
		cmocka_unit_test(test_wg_hotband_favours_band_start),
		cmocka_unit_test(test_wg_wrapped_range_hits_both_pieces),
		cmocka_unit_test(test_wg_random_offsets_aligned),
		cmocka_unit_test(test_wg_raw_device_never_touches_block0),
		cmocka_unit_test(test_wg_eof_covers_range_then_stops),
		cmocka_unit_test(test_wg_shared_seq_is_one_stream),
		cmocka_unit_test(test_wg_shared_seq_follows_random_misses),
		cmocka_unit_test(test_wg_sequential_wraps_to_range_start),
		cmocka_unit_test(test_wg_seqnz_starts_at_random_block),
		cmocka_unit_test(test_wg_stride_skips_forward),
		cmocka_unit_test(test_wg_poisson_block_index),
		cmocka_unit_test(test_wg_same_seed_same_stream),
		cmocka_unit_test(test_wg_init_rejects_impossible),
		cmocka_unit_test(test_wg_check_names_the_fault),
	};

	return cmocka_run_group_tests_name("gen_wg", tests, NULL, NULL);
}
