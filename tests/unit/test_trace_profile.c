/* The fidelity figures on hand-made streams whose figures are known (the window of 16 for
 * sequential I/Os, the exact footprint, the hottest 10 % of regions, the per-second CV, the
 * size mix distance and the tolerances), and the parameter text of trace profile: one SD per
 * traced device, skews and size percents summing exactly to 100, plain VDbench lines that
 * ioramp's own parser reads back, RDs of at most 3600 s. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmocka.h needs the headers above first */
#include <cmocka.h>

#include "../../src/trace/stream_table.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/trace.h"

#define MIB (1ull << 20)
#define SEC 1000000000ull

static void add(struct trace_fid *f, uint64_t t_ns, uint32_t dev, uint8_t op, uint64_t off,
		uint32_t size)
{
	struct trace_rec rec = {
		.time_ns = t_ns, .offset_bytes = off, .size_bytes = size, .dev = dev, .op = op
	};

	assert_int_equal(trace_fid_add(f, &rec), 0);
}

/* I/O 17 starts where I/O 1 ended (16 back: sequential), I/O 18 where I/O 0 ended (18 back:
 * not); another device's I/Os neither count nor push a device's own out of its window. */
static void test_fid_sequential_window(void **state)
{
	struct trace_fid *f;
	struct trace_fid_figs g;

	(void)state;
	assert_int_equal(trace_fid_new(&f), 0);
	for (uint64_t i = 0; i < 17; i++) /* scattered: none sequential */
		add(f, i, 0, TRACE_OP_READ, (i * 37 % 17) * MIB, 4096);
	for (uint64_t i = 0; i < 30; i++) /* another device's I/Os in between */
		add(f, 100 + i, 1, TRACE_OP_READ, i * 2 * MIB, 4096);
	add(f, 200, 0, TRACE_OP_READ, (1 * 37 % 17) * MIB + 4096, 4096);  /* ends of I/O 1 */
	add(f, 201, 0, TRACE_OP_WRITE, (0 * 37 % 17) * MIB + 4096, 4096); /* of I/O 0: gone */
	assert_int_equal(trace_fid_figs(f, &g), 0);
	assert_int_equal(g.nr_ios, 17 + 30 + 2);
	assert_true(fabs(g.seq_pct - 100.0 / 49) < 1e-9);
	assert_int_equal(g.nr_writes, 1);
	trace_fid_free(f);
}

/* Footprint: the union of the ranges (overlaps once); hot 10 %: of 20 regions the two
 * busiest; CV of whole seconds only. */
static void test_fid_space_and_time(void **state)
{
	struct trace_fid *f;
	struct trace_fid_figs g;
	uint64_t t = 0;

	(void)state;
	assert_int_equal(trace_fid_new(&f), 0);
	for (uint64_t r = 0; r < 20; r++) /* region r gets r + 1 I/Os, all at its start */
		for (uint64_t k = 0; k <= r; k++)
			add(f, t++, 0, TRACE_OP_READ, r * MIB + (k % 2) * 2048, 4096);
	/* 210 I/Os; regions 19 and 18 hold 20 + 19; each region covers 6 KiB (0-4K, 2K-6K) but
	 * region 0 only 4 KiB */
	assert_int_equal(trace_fid_figs(f, &g), 0);
	assert_int_equal(g.nr_ios, 210);
	assert_int_equal(g.nr_regions, 20);
	assert_true(fabs(g.hot10_pct - 100.0 * 39 / 210) < 1e-9);
	assert_int_equal(g.footprint_bytes, 19 * 6144 + 4096);
	assert_false(g.has_sec_cv); /* all within a microsecond */
	trace_fid_free(f);

	assert_int_equal(trace_fid_new(&f), 0);
	/* seconds 0, 1, 2 with 1, 3, 2 I/Os and a last I/O at 3.5 s (second 3 is not whole) */
	add(f, 0, 0, TRACE_OP_READ, 0, 512);
	for (int i = 0; i < 3; i++)
		add(f, SEC + i, 0, TRACE_OP_READ, 0, 512);
	add(f, 2 * SEC, 0, TRACE_OP_READ, 0, 512);
	add(f, 2 * SEC + 1, 0, TRACE_OP_READ, 0, 512);
	add(f, 3 * SEC + SEC / 2, 0, TRACE_OP_READ, 0, 512);
	assert_int_equal(trace_fid_figs(f, &g), 0);
	assert_true(g.has_sec_cv);
	assert_int_equal(g.nr_seconds, 3);
	assert_true(fabs(g.sec_cv - sqrt(2.0 / 3) / 2) < 1e-9);
	assert_true(fabs(g.rate_iops - 7 / 3.5) < 1e-9);
	trace_fid_free(f);
}

/* Two mixes 50 % 4K + 50 % 8K and 100 % 4K are 50 points apart; rows judge their
 * tolerances; an op that neither side has is n/a and ok. */
static void test_fid_compare_rows(void **state)
{
	struct trace_fid_row rows[TRACE_FID_NR];
	struct trace_fid *a, *b;

	(void)state;
	assert_int_equal(trace_fid_new(&a), 0);
	assert_int_equal(trace_fid_new(&b), 0);
	for (uint64_t i = 0; i < 100; i++) {
		add(a, i * SEC / 10, 0, TRACE_OP_READ, i * MIB, i % 2 ? 8192 : 4096);
		add(b, i * SEC / 10, 0, TRACE_OP_READ, i * MIB, 4096);
	}
	assert_int_equal(trace_fid_compare(a, b, rows), 0);
	assert_string_equal(rows[TRACE_FID_SIZE_MIX].name, "size mix");
	assert_true(fabs(rows[TRACE_FID_SIZE_MIX].difference - 50) < 1e-9);
	assert_false(rows[TRACE_FID_SIZE_MIX].is_ok);
	assert_true(rows[TRACE_FID_RECORDS].is_ok);
	assert_true(fabs(rows[TRACE_FID_READ_SIZE].difference - (4096.0 / 6144 - 1)) < 1e-9);
	assert_false(rows[TRACE_FID_READ_SIZE].is_ok);
	assert_false(rows[TRACE_FID_WRITE_SIZE].is_judged);
	assert_true(rows[TRACE_FID_WRITE_SIZE].is_ok);
	assert_string_equal(rows[TRACE_FID_WRITE_SIZE].a_text, "n/a");
	assert_true(rows[TRACE_FID_HOT10].is_ok);
	assert_false(trace_fid_rows_ok(rows));
	assert_int_equal(trace_fid_compare(a, a, rows), 0);
	assert_true(trace_fid_rows_ok(rows));
	trace_fid_free(a);
	trace_fid_free(b);
}

/* A mean size that a few large transfers carry is judged within three times its sampling
 * error: 1,000 reads of 4 KiB and 10 of 4 MiB against 8 of 4 MiB are 18 % apart, and the
 * tolerance (3 sd / mean / sqrt(n)) is 86 %; with sizes alike it stays 3 %. Counts and shares
 * too. */
static void test_fid_mean_size_sampling_error(void **state)
{
	struct trace_fid_row rows[TRACE_FID_NR];
	struct trace_fid *a, *b;

	(void)state;
	assert_int_equal(trace_fid_new(&a), 0);
	assert_int_equal(trace_fid_new(&b), 0);
	for (uint64_t i = 0; i < 1010; i++) {
		add(a, i * SEC / 100, 0, TRACE_OP_READ, i * MIB, i % 101 == 7 ? 4 * MIB : 4096);
		add(a, i * SEC / 100, 0, TRACE_OP_WRITE, i * MIB, 4096 + i % 2 * 512);
	}
	for (uint64_t i = 0; i < 1008; i++) {
		add(b, i * SEC / 100, 0, TRACE_OP_READ, i * MIB, i % 126 == 7 ? 4 * MIB : 4096);
		add(b, i * SEC / 100, 0, TRACE_OP_WRITE, i * MIB, 4096);
	}
	assert_int_equal(trace_fid_compare(a, b, rows), 0);
	assert_true(rows[TRACE_FID_READ_SIZE].difference < -0.17);
	assert_true(fabs(rows[TRACE_FID_READ_SIZE].tolerance - 0.860) < 0.005);
	assert_true(rows[TRACE_FID_READ_SIZE].is_ok);
	assert_true(fabs(rows[TRACE_FID_WRITE_SIZE].tolerance - 0.03) < 1e-12);
	assert_false(rows[TRACE_FID_WRITE_SIZE].is_ok); /* 4352 against 4096: -5.9 % */
	/* 2,020 I/Os: a count within 3 / sqrt(2020), a share of 50 % within 3.33 points (1012
	 * of 2024 draws, Agresti and Coull's) */
	assert_true(fabs(rows[TRACE_FID_RECORDS].tolerance - 3 / sqrt(2020)) < 1e-12);
	assert_true(fabs(rows[TRACE_FID_RATE].tolerance - 3 / sqrt(2020)) < 1e-12);
	assert_true(fabs(rows[TRACE_FID_READ_PCT].tolerance - 300 * sqrt(0.25 / 2024)) < 1e-12);
	trace_fid_free(a);
	trace_fid_free(b);
}

/* A share of none in a small trace is no proof that a random stream never strays: 20 random
 * reads with no sequential one against 20 with one (5 points) pass, judged on 2 of 24 draws
 * (11.3 points); 2,000 against 2,000 with 100 fail at the 3-point floor. */
static void test_fid_share_of_none_in_a_small_trace(void **state)
{
	static const uint64_t nr[] = { 20, 2000 };
	struct trace_fid_row rows[TRACE_FID_NR];

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		struct trace_fid *a, *b;

		assert_int_equal(trace_fid_new(&a), 0);
		assert_int_equal(trace_fid_new(&b), 0);
		for (uint64_t i = 0, prev = 0; i < nr[k]; i++) {
			uint64_t off = (i * 7 % nr[k]) * 2 * MIB;

			add(a, i * SEC / 100, 0, TRACE_OP_READ, off, 4096);
			/* one of b's I/Os in every 20 starts where the one before it ended */
			off = i % 20 == 1 ? prev + 4096 : off;
			add(b, i * SEC / 100, 0, TRACE_OP_READ, off, 4096);
			prev = off;
		}
		assert_int_equal(trace_fid_compare(a, b, rows), 0);
		assert_true(rows[TRACE_FID_SEQ_PCT].a == 0);
		assert_true(fabs(rows[TRACE_FID_SEQ_PCT].b - 5) < 1e-9);
		if (k == 0) {
			assert_true(fabs(rows[TRACE_FID_SEQ_PCT].tolerance -
					 300 * sqrt(2.0 / 24 * 22 / 24 / 24)) < 1e-9);
			assert_true(rows[TRACE_FID_SEQ_PCT].is_ok);
		} else {
			assert_true(fabs(rows[TRACE_FID_SEQ_PCT].tolerance - 3) < 1e-12);
			assert_false(rows[TRACE_FID_SEQ_PCT].is_ok);
		}
		trace_fid_free(a);
		trace_fid_free(b);
	}
}

/* The profile of path (cfg's other fields as given), in a malloc'ed string. */
static char *profile_text(struct trace_profile_cfg *cfg, const char *path)
{
	const char *paths[] = { path };
	struct trace_err err;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	cfg->paths = paths;
	cfg->nr_paths = 1;
	assert_int_equal(trace_profile_write(cfg, f, &err), 0);
	fclose(f);
	return text;
}

/* Sums the skews and checks every line: comments start with '*', others hold no blank,
 * every xfersize list sums to 100.00. Returns the number of lines starting with what. */
static unsigned int check_lines(const char *text, const char *what, double *skews)
{
	unsigned int n = 0;

	*skews = 0;
	for (const char *l = text; *l; l = strchr(l, '\n') + 1) {
		const char *nl = strchr(l, '\n'), *x = strstr(l, "xfersize=(");
		size_t len = (size_t)(nl - l);

		assert_non_null(nl);
		n += !strncmp(l, what, strlen(what));
		if (*l == '*')
			continue;
		assert_null(memchr(l, ' ', len));
		if (!strncmp(l, "wd=", 3))
			*skews += atof(strstr(l, "skew=") + 5);
		if (x && x < nl) {
			double sum = 0;
			const char *p = x + 10;

			while (*p != ')') {
				p = strchr(p, ',') + 1; /* past the size */
				sum += strtod(p, (char **)&p);
				p += *p == ',';
			}
			assert_true(fabs(sum - 100) < 1e-6);
		}
	}
	return n;
}

/* Reads the text back with ioramp's parser and plans it (lun= given, as a run would). */
static size_t plan_text(const char *text, size_t *nr_sds)
{
	struct parm_var var = { .name = "lun", .value = "/x/lun%d" };
	struct parm_input in = { .vars = &var, .nr_vars = 1 };
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct plan *plan = NULL;
	struct parm_err err;
	size_t nr;

	assert_int_equal(parm_config_read_text("p.vdb", text, strlen(text), &in, &cfg, &keep, &err),
			 0);
	assert_int_equal(plan_build(cfg, &plan, &err), 0);
	assert_int_equal(plan_check_runnable(plan, &err), 0);
	nr = plan->nr_runs;
	*nr_sds = cfg->nr_sds;
	assert_string_equal(cfg->sds[0].lun, "/x/lun0");
	plan_free(plan);
	parm_config_free(cfg);
	parm_source_free(keep);
	return nr;
}

static void test_profile_one_sd_per_device(void **state)
{
	struct trace_profile_cfg cfg = { 0 };
	double skews;
	size_t nr_sds;
	char *text = profile_text(&cfg, "traces/msr.csv.gz");

	(void)state;
	assert_int_equal(check_lines(text, "sd=sd,count=(", &skews), 2);
	assert_non_null(strstr(text, "\nsd=sd,count=(0,1),lun=$lun,size="));
	assert_non_null(strstr(text, "\nsd=sd,count=(1,1),lun=$lun,size="));
	assert_true(fabs(skews - 100) < 1e-9);
	assert_int_equal(plan_text(text, &nr_sds), 1);
	assert_int_equal(nr_sds, 2);
	free(text);
	cfg = (struct trace_profile_cfg){ .has_dev = true, .dev = 1 }; /* MSR disk 1 only */
	text = profile_text(&cfg, "traces/msr.csv.gz");
	assert_int_equal(check_lines(text, "sd=", &skews), 1);
	assert_true(fabs(skews - 100) < 1e-9);
	assert_non_null(strstr(text, "120 I/Os over"));
	free(text);
}

/* The I/Os the pairs of the RD line starting at rd ask for: the sum of rate x seconds. */
static double pairs_ios(const char *rd)
{
	const char *p = strstr(rd, "iorate=(") + 8;
	double ios = 0;

	while (*p && *p != ')') {
		double rate = strtod(p, (char **)&p), secs;

		p += *p == ',';
		p += *p == '\n';
		secs = strtod(p, (char **)&p);
		ios += rate * secs;
		p += *p == ',';
		p += *p == '\n';
	}
	return ios;
}

/* A trace of 3999.002 s (its last 2 ms join the second before), bursts every tenth second:
 * RDs of 3600 and 399 s whose pairs ask for the trace's I/Os. */
static void test_profile_long_trace_splits_rds(void **state)
{
	struct trace_profile_cfg cfg = { 0 };
	char path[256], *text, *rd1, *rd2;
	double skews, ios;
	size_t nr_sds;
	uint64_t nr = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/ioramp-prof-%d.iolog", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n");
	for (uint64_t s = 0; s < 4000; s++) /* 30 I/Os every tenth second, else 1 */
		for (uint64_t k = 0; k < (s % 10 ? 1 : 30); k++, nr++)
			fprintf(f, "%llu /dev/x read %llu 4096\n",
				(unsigned long long)(s * 1000000 + k * 1000),
				(unsigned long long)((s * 7 + k) % 1000) * 1048576);
	fclose(f);
	text = profile_text(&cfg, path);
	check_lines(text, "rd=", &skews);
	rd1 = strstr(text, "\nrd=rd1,wd=w*,distribution=(exponential,variable),elapsed=3600,"
			   "interval=1,iorate=(");
	rd2 = strstr(text, "\nrd=rd2,wd=w*,distribution=(exponential,variable),elapsed=399,"
			   "interval=1,iorate=(");
	assert_non_null(rd1);
	assert_non_null(rd2);
	ios = pairs_ios(rd1) + pairs_ios(rd2);
	assert_true(fabs(ios / (double)nr - 1) < 0.001);
	assert_int_equal(plan_text(text, &nr_sds), 2);
	free(text);
	unlink(path);
}

/* A log writer resumed every 31 I/Os continues its stream, though the sequential window of 16
 * has forgotten it; past TRACE_STREAM_REACH I/Os it begins anew. A random I/O that ends where
 * the log's last write ended does not take the log's place, nor does a read start where it
 * ended continue it. */
static void test_stream_table(void **state)
{
	struct trace_stream_table *t = calloc(1, sizeof(*t));
	struct trace_stream s, log = { 0 };
	uint64_t at = 1ull << 30;

	(void)state;
	assert_non_null(t);
	for (int i = 0; i < 31 * 100; i++) {
		if (i % 31) { /* random 8K elsewhere */
			s = trace_stream_table_add(t, TRACE_OP_READ,
						   (uint64_t)(i * 7919 % 100000) * 8192, 0);
			continue;
		}
		s = trace_stream_table_add(t, TRACE_OP_WRITE, at, at + 65536);
		if (i)
			assert_true(s.is_cont && s.id == log.id);
		log = s;
		at += 65536;
	}
	assert_int_equal(log.nr, 100);
	assert_int_equal(log.first, 1ull << 30);
	s = trace_stream_table_add(t, TRACE_OP_WRITE, at - 8192, at); /* ends where the log did */
	assert_false(s.is_cont);
	s = trace_stream_table_add(t, TRACE_OP_READ, at, at + 65536); /* a read passing over it */
	assert_false(s.is_cont);
	s = trace_stream_table_add(t, TRACE_OP_WRITE, at, at + 65536);
	assert_true(s.is_cont && s.id == log.id);
	for (int i = 0; i < TRACE_STREAM_REACH; i++)
		trace_stream_table_add(t, TRACE_OP_READ,
				       (uint64_t)(i * 7919 % 100000 + 200000) * 8192, 1);
	s = trace_stream_table_add(t, TRACE_OP_WRITE, at + 65536, at + 131072);
	assert_false(s.is_cont);
	free(t);
}

/* A consumer that caught up with a log reads its last block: the read ends where the last
 * write ended, and its stream is the longer, yet the log's next write continues the log. */
static void test_stream_table_reader_meets_writer(void **state)
{
	struct trace_stream_table *t = calloc(1, sizeof(*t));
	struct trace_stream w = { 0 }, r = { 0 };
	uint64_t wat = 64 * MIB, rat = wat - 32 * 65536;

	(void)state;
	assert_non_null(t);
	for (int i = 0; i < 32; i++, rat += 65536) /* the consumer, behind */
		r = trace_stream_table_add(t, TRACE_OP_READ, rat, rat + 65536);
	for (int i = 0; i < 4; i++, wat += 65536)
		w = trace_stream_table_add(t, TRACE_OP_WRITE, wat, wat + 65536);
	for (; rat < wat; rat += 65536)
		r = trace_stream_table_add(t, TRACE_OP_READ, rat, rat + 65536);
	assert_true(r.nr > w.nr); /* both ended at wat */
	r = trace_stream_table_add(t, TRACE_OP_WRITE, wat, wat + 65536);
	assert_true(r.is_cont && r.id == w.id);
	free(t);
}

/* Whether the first line after text starting with wd holds what. */
static bool has_wd(const char *text, const char *wd, const char *what)
{
	const char *line = strstr(text, wd), *end;

	if (!line)
		return false;
	end = strchr(line + 1, '\n');
	return end && strstr(line, what) && strstr(line, what) < end;
}

/* The profile of the fio iolog that write_ios writes to /tmp (deleted after), its skews
 * summing to 100 %. */
static char *profile_of(const char *name, void (*write_ios)(FILE *f))
{
	struct trace_profile_cfg cfg = { 0 };
	char path[256], *text;
	double skews;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/ioramp-prof-%s-%d.iolog", name, (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n");
	write_ios(f);
	fclose(f);
	text = profile_text(&cfg, path);
	unlink(path);
	check_lines(text, "wd=", &skews);
	assert_true(fabs(skews - 100) < 1e-9);
	return text;
}

/* The footprint the model expects of a one-device profile is its trace's within 10 %, and
 * ioramp reads the profile back as one run. Frees text. */
static void expect_footprint(char *text)
{
	const char *fp = strstr(text, "the model expects a footprint of ");
	double expects, traced;
	size_t nr_sds;

	assert_non_null(fp);
	expects = strtod(fp + strlen("the model expects a footprint of "), NULL);
	traced = strtod(strstr(text, ", footprint ") + strlen(", footprint "), NULL);
	assert_true(fabs(expects / traced - 1) < 0.10);
	assert_int_equal(plan_text(text, &nr_sds), 1);
	free(text);
}

static uint64_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x;
}

/* 8K random I/O over 1 GiB with a 256K log writer every 32nd I/O and a 1M scan every 53rd,
 * 3000 a second. */
static void write_streams(FILE *f)
{
	uint64_t log_at = 2048 * MIB, scan_at = 256 * MIB, x = 1;

	for (int i = 0; i < 30000; i++) {
		unsigned long long t = (unsigned long long)i * 1000000 / 3000;

		lcg(&x);
		if (i % 32 == 5) {
			fprintf(f, "%llu /dev/x write %llu 262144\n", t,
				(unsigned long long)log_at);
			log_at += 262144;
		} else if (i % 53 == 7) {
			fprintf(f, "%llu /dev/x read %llu 1048576\n", t,
				(unsigned long long)scan_at);
			scan_at += 1048576;
		} else {
			fprintf(f, "%llu /dev/x %s %llu 8192\n", t, x >> 63 ? "read" : "write",
				(unsigned long long)(x >> 20) % 131072 * 8192);
		}
	}
}

/* Each stream gets a WD of its own that sweeps its bytes (seekpct=0), where it was traced, so
 * the footprint the model expects is the trace's within its tolerance. */
static void test_profile_interleaved_streams(void **state)
{
	char *text = profile_of("streams", write_streams), *want;

	(void)state;
	want = strstr(text, "* w0s0r: reads of an interleaved sequential stream of sd0");
	assert_non_null(want);
	assert_true(has_wd(want, "wd=w0s0r,", "rdpct=100,seekpct=0.00,range=(268435456,"));
	want = strstr(text, "* w0s1w: writes of an interleaved sequential stream of sd0");
	assert_non_null(want);
	assert_true(has_wd(want, "wd=w0s1w,", "rdpct=0,seekpct=0.00,range=(2147483648,"));
	assert_null(strstr(text, "wd=w0s0w")); /* a random write that met the scan is random */
	expect_footprint(text);
}

/* A boot storm: 30 desktops read their 64 MiB images at once, 64K at a time, the next read
 * from any of them (60 % of the I/O), among 4K random I/O over 2 GiB, 80 % of it reads. */
static void write_boot_storm(FILE *f)
{
	uint64_t at[30], x = 5;

	for (int s = 0; s < 30; s++)
		at[s] = (uint64_t)s * 128 * MIB;
	for (int i = 0; i < 30000; i++) {
		unsigned long long t = (unsigned long long)i * 1000000 / 3000;
		uint64_t r = lcg(&x) >> 33; /* 31 bits */

		if (r % 100 < 60) {
			uint64_t s = (r >> 8) % 30;

			fprintf(f, "%llu /dev/x read %llu 65536\n", t, (unsigned long long)at[s]);
			at[s] += 65536;
		} else {
			fprintf(f, "%llu /dev/x %s %llu 4096\n", t, r >> 20 & 3 ? "read" : "write",
				(unsigned long long)(lcg(&x) >> 20) % 524288 * 4096);
		}
	}
}

/* The sequential window sees each image continue about a time in four (its next read comes
 * after 29 others on average), so the classes' runs stood for them, from random starts, and
 * covered 63 % of what they read: the footprint came out -21 %. Each is a WD of its own now,
 * seen continuing as often in the synthesized stream as in the trace. */
static void test_profile_boot_storm(void **state)
{
	char *text = profile_of("boot", write_boot_storm);
	unsigned int nr = 0;

	(void)state;
	for (const char *s = text; (s = strstr(s, "reads of an interleaved sequential")); s++)
		nr++;
	assert_int_equal(nr, 30);
	expect_footprint(text);
}

/* nr bursts of per_burst transfers of size bytes, sequential from at with a gap of gap bytes
 * after each burst, each burst followed by nr_random 4K random I/Os over blocks 4K blocks (half
 * of them reads), an I/O every 300 us. */
struct bursts {
	const char *op;
	uint64_t at, size, gap;
	int nr, per_burst, nr_random;
	uint64_t blocks, seed;
};

static void write_bursts(FILE *f, const struct bursts *b)
{
	uint64_t at = b->at, x = b->seed, t = 0;

	for (int burst = 0; burst < b->nr; burst++) {
		for (int k = 0; k < b->per_burst; k++, t += 300, at += b->size)
			fprintf(f, "%llu /dev/x %s %llu %llu\n", (unsigned long long)t, b->op,
				(unsigned long long)at, (unsigned long long)b->size);
		at += b->gap;
		for (int k = 0; k < b->nr_random; k++, t += 300) {
			lcg(&x);
			fprintf(f, "%llu /dev/x %s %llu 4096\n", (unsigned long long)t,
				x >> 63 ? "read" : "write",
				(unsigned long long)(x >> 20) % b->blocks * 4096);
		}
	}
}

/* A scan read in bursts of 16 1 MiB reads, 600 4K random I/Os over 256 MiB between bursts. */
static void write_bursty_scan(FILE *f)
{
	write_bursts(f, &(struct bursts){ "read", 1024 * MIB, MIB, 0, 40, 16, 600, 65536, 9 });
}

/* The window sees the scan continue 15 times in 16; a WD of its own, 2.5 % of the I/O, would
 * be seen continuing a third of the time: 1.5 points of sequential % lost. Its runs stay in
 * the classes' seekpct=. */
static void test_profile_bursty_scan(void **state)
{
	char *text = profile_of("bursty", write_bursty_scan);

	(void)state;
	assert_null(strstr(text, "interleaved sequential stream"));
	free(text);
}

/* A copy writing files of 8 MiB into free space, 1 MiB transfers in a burst per file, a gap of
 * 1 MiB between files, among 4K random I/O over 64 MiB: each file a stream too short for a
 * class of its own. */
static void write_fill(FILE *f)
{
	write_bursts(f, &(struct bursts){ "write", 256 * MIB, MIB, MIB, 278, 8, 100, 16384, 3 });
}

/* The copy's sparse regions get a class swept once (seekpct=0 over as long a range as it
 * covered), not runs from random starts that overlap (the footprint came out -36 %). */
static void test_profile_fill(void **state)
{
	char *text = profile_of("fill", write_fill);

	(void)state;
	assert_true(has_wd(text, "\nwd=w0c0w,", "xfersize=1024k,rdpct=0,seekpct=0.00,"));
	expect_footprint(text);
}

/* The fill, and now and then a 4K read of what the copy wrote: 139 reads in the copy's regions,
 * none continuing another. */
static void write_fill_reread(FILE *f)
{
	uint64_t x = 17;

	write_fill(f);
	for (int i = 0; i < 139; i++) {
		lcg(&x);
		fprintf(f, "%d /dev/x read %llu 4096\n", 30024 * 300 + i * 300,
			(unsigned long long)(256 * MIB + (x >> 20) % (2224 * 256) * 4096));
	}
}

/* Those reads never continued one another: as sweeps they would want as many as there may be
 * (16), each of a few reads; a sweep has 64 I/Os at least, so they stay one WD. */
static void test_profile_fill_reread(void **state)
{
	char *text = profile_of("reread", write_fill_reread);

	(void)state;
	assert_true(has_wd(text, "\nwd=w0c0w", "xfersize=1024k,rdpct=0,seekpct=0.00,"));
	assert_true(has_wd(text, "\nwd=w0c0r,", "rdpct=100,"));
	expect_footprint(text);
}

static void test_profile_errors(void **state)
{
	const char *missing[] = { "traces/none" }, *empty[1];
	struct trace_profile_cfg cfg = { .paths = missing, .nr_paths = 1 };
	struct trace_err err;
	char path[256];
	FILE *f;

	(void)state;
	assert_int_equal(trace_profile_write(&cfg, stdout, &err), -ENOENT);
	snprintf(path, sizeof(path), "/tmp/ioramp-prof-empty-%d.iolog", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("fio version 3 iolog\n0 /dev/x add\n", f);
	fclose(f);
	empty[0] = path;
	cfg.paths = empty;
	assert_int_equal(trace_profile_write(&cfg, stdout, &err), -ENODATA);
	assert_string_equal(err.msg, "no read or write I/O: nothing to profile");
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fid_sequential_window),
		cmocka_unit_test(test_fid_space_and_time),
		cmocka_unit_test(test_fid_compare_rows),
		cmocka_unit_test(test_fid_mean_size_sampling_error),
		cmocka_unit_test(test_fid_share_of_none_in_a_small_trace),
		cmocka_unit_test(test_profile_one_sd_per_device),
		cmocka_unit_test(test_profile_long_trace_splits_rds),
		cmocka_unit_test(test_stream_table),
		cmocka_unit_test(test_stream_table_reader_meets_writer),
		cmocka_unit_test(test_profile_interleaved_streams),
		cmocka_unit_test(test_profile_boot_storm),
		cmocka_unit_test(test_profile_bursty_scan),
		cmocka_unit_test(test_profile_fill),
		cmocka_unit_test(test_profile_fill_reread),
		cmocka_unit_test(test_profile_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
