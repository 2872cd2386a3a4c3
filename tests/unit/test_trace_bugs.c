/* Reader bugs found on real traces, each on a small fixture of its own: a blkparse empty
 * pre-flush is a flush, CRLF files are detected as LF ones, a truncated gzip file is an error
 * (a counted warning under skip_bad), DiskSim's whole-millisecond times are not MQSim's
 * nanoseconds, and a truncated blktrace keeps the records before the cut. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* cmocka.h needs the headers above first */
#include <cmocka.h>

#include "ioramp/trace.h"

static void tmp_path(char *buf, size_t len, const char *name)
{
	const char *dir = getenv("TMPDIR");

	snprintf(buf, len, "%s/ioramp-bugs-%d-%s", dir && *dir ? dir : "/tmp", (int)getpid(), name);
}

/* Reads every record of r into counts per op; returns the last trace_reader_next() value. */
static int read_all(struct trace_reader *r, uint64_t *by_op, struct trace_rec *last)
{
	struct trace_rec rec;
	int ret;

	while ((ret = trace_reader_next(r, &rec)) > 0) {
		by_op[rec.op]++;
		if (last)
			*last = rec;
	}
	return ret;
}

/* The kernel's empty pre-flush: queued as "Q FWFS" with no sector, completed as
 * "C WFS sector [0]" with no count. Both are flushes, not malformed lines. */
static void test_blkparse_empty_preflush_is_a_flush(void **state)
{
	static const char text[] =
		"  8,0    1        1     0.000000000  100  Q  WS 1000 + 8 [x]\n"
		"  8,0    1        2     0.000100000  100  Q FWFS [kworker/0:1H]\n"
		"  8,0    1        3     0.000150000  100  D  WS 1000 + 8 [x]\n"
		"  8,0    1        4     0.000200000    0  C WFS 575480360 [0]\n"
		"  8,0    1        5     0.000300000  100  Q   R 2000 + 8 [x]\n"
		"  8,0    1        6     0.000400000    0  C  WS 1000 + 8 [0]\n";
	struct trace_opts o = { .format = TRACE_FMT_BLKPARSE, .action = TRACE_ACT_QUEUE };
	uint64_t by_op[TRACE_OP_NR] = { 0 };
	struct trace_reader *r;
	struct trace_err err;

	(void)state;
	assert_int_equal(trace_reader_open_mem(&r, "f.txt", text, strlen(text), &o, &err), 0);
	assert_int_equal(read_all(r, by_op, NULL), 0);
	assert_int_equal(by_op[TRACE_OP_WRITE], 1);
	assert_int_equal(by_op[TRACE_OP_FLUSH], 1);
	assert_int_equal(by_op[TRACE_OP_READ], 1);
	trace_reader_close(r);
	memset(by_op, 0, sizeof(by_op));
	o.action = TRACE_ACT_COMPLETE;
	assert_int_equal(trace_reader_open_mem(&r, "f.txt", text, strlen(text), &o, &err), 0);
	assert_int_equal(read_all(r, by_op, NULL), 0);
	assert_int_equal(by_op[TRACE_OP_FLUSH], 1);
	assert_int_equal(by_op[TRACE_OP_WRITE], 1);
	trace_reader_close(r);
}

/* The same lines with CRLF and LF: the same format detected, the same records. */
static void test_crlf_detected_like_lf(void **state)
{
	static const char *const lf[] = {
		"128166372003061629,hm,0,Write,7014912,4096,26\n"
		"128166372016382155,hm,0,Read,1074696192,4096,113\n"
		"128166372026382155,hm,1,Read,107469,512,40\n",
		"0.000 5 174224064 16 1\n0.221 5 162947904 16 1\n0.594 5 174933616 16 0\n",
		"   0.300422537 ;     13108142 ;    8 ; W ; 0.0 ; 0.0\n"
		"   0.310422537 ;     13108150 ;    8 ; R ; 0.0 ; 0.0\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(lf) / sizeof(lf[0]); i++) {
		char crlf[1024], *q = crlf;
		struct trace_reader *a, *b;
		struct trace_rec ra, rb;
		struct trace_err err;
		int x, y;

		for (const char *p = lf[i]; *p; p++) {
			if (*p == '\n')
				*q++ = '\r';
			*q++ = *p;
		}
		*q = '\0';
		assert_int_equal(trace_reader_open_mem(&a, "lf", lf[i], strlen(lf[i]), NULL, &err),
				 0);
		assert_int_equal(trace_reader_open_mem(&b, "crlf", crlf, strlen(crlf), NULL, &err),
				 0);
		assert_int_equal(trace_reader_format(a), trace_reader_format(b));
		while ((x = trace_reader_next(a, &ra)) > 0) {
			y = trace_reader_next(b, &rb);
			assert_int_equal(y, 1);
			assert_memory_equal(&ra, &rb, sizeof(ra));
		}
		assert_int_equal(x, 0);
		assert_int_equal(trace_reader_next(b, &rb), 0);
		trace_reader_close(a);
		trace_reader_close(b);
	}
}

/* A gzip file cut in its middle: an error naming the cut, or under skip_bad the lines before
 * it and a warning. */
static void test_truncated_gzip_is_an_error(void **state)
{
	char path[256];
	struct trace_opts o = { .format = TRACE_FMT_DISKSIM };
	uint64_t by_op[TRACE_OP_NR] = { 0 };
	struct trace_reader *r;
	struct trace_err err;
	long size;
	FILE *f;
	gzFile gz;

	(void)state;
	tmp_path(path, sizeof(path), "cut.gz");
	gz = gzopen(path, "wb");
	assert_non_null(gz);
	for (int i = 0; i < 20000; i++) /* random offsets: does not compress to nothing */
		gzprintf(gz, "%d.5 0 %u 16 %d\n", i, (unsigned int)(i * 2654435761u) >> 4, i & 1);
	gzclose(gz);
	f = fopen(path, "r+");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	assert_int_equal(ftruncate(fileno(f), size / 2), 0);
	fclose(f);

	assert_int_equal(trace_reader_open(&r, path, &o, &err), 0);
	assert_int_equal(read_all(r, by_op, NULL), -EINVAL); /* malformed input, not an I/O error */
	assert_non_null(strstr(trace_reader_err(r)->msg, "ends inside its gzip data"));
	assert_true(by_op[TRACE_OP_READ] + by_op[TRACE_OP_WRITE] > 0);
	assert_true(by_op[TRACE_OP_READ] + by_op[TRACE_OP_WRITE] < 20000);
	trace_reader_close(r);

	memset(by_op, 0, sizeof(by_op));
	o.skip_bad = true;
	assert_int_equal(trace_reader_open(&r, path, &o, &err), 0);
	assert_int_equal(read_all(r, by_op, NULL), 0);
	assert_non_null(trace_reader_warning(r));
	assert_non_null(strstr(trace_reader_warning(r), "warning: the file ends inside its gzip"));
	assert_true(by_op[TRACE_OP_READ] + by_op[TRACE_OP_WRITE] > 1000);
	trace_reader_close(r);
	unlink(path);
}

/* Whole-millisecond DiskSim times look like MQSim's integer nanoseconds; the gaps tell them
 * apart (MQSim's own tpcc sample is 315 ns and more apart). */
static void test_disksim_whole_ms_is_not_mqsim(void **state)
{
	static const char ms[] = "0 5 174224064 16 1\n0 5 162947904 16 1\n1 5 174933616 16 1\n"
				 "3 5 171002352 16 1\n3 5 117757456 16 0\n7 5 117757472 16 0\n";
	static const char ns[] = "0 4 264717080 16 0\n315 3 21098968 16 1\n6600 8 93425728 16 1\n"
				 "6945 3 96372656 16 1\n20810 6 80082048 16 1\n";
	struct trace_reader *r;
	struct trace_rec last;
	uint64_t by_op[TRACE_OP_NR] = { 0 };
	struct trace_err err;

	(void)state;
	assert_int_equal(trace_reader_open_mem(&r, "ms", ms, strlen(ms), NULL, &err), 0);
	assert_int_equal(trace_reader_format(r), TRACE_FMT_DISKSIM);
	assert_int_equal(read_all(r, by_op, &last), 0);
	assert_int_equal(last.time_ns, 7000000);
	trace_reader_close(r);
	assert_int_equal(trace_reader_open_mem(&r, "ns", ns, strlen(ns), NULL, &err), 0);
	assert_int_equal(trace_reader_format(r), TRACE_FMT_MQSIM);
	assert_int_equal(read_all(r, by_op, &last), 0);
	assert_int_equal(last.time_ns, 20810);
	trace_reader_close(r);
}

/* A blktrace cut inside a record (blktrace killed, a full disk): the records before the cut,
 * and a warning with its offset. */
static void test_truncated_blktrace_keeps_records(void **state)
{
	uint64_t full[TRACE_OP_NR] = { 0 }, cut[TRACE_OP_NR] = { 0 };
	struct trace_opts o = { .format = TRACE_FMT_BLKTRACE, .action = TRACE_ACT_QUEUE };
	struct trace_reader *r;
	struct trace_err err;
	char *buf;
	long len;
	FILE *f = fopen("traces/blktrace.bin", "rb");

	(void)state;
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc((size_t)len);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	assert_int_equal(trace_reader_open_mem(&r, "full.bin", buf, (size_t)len, &o, &err), 0);
	assert_int_equal(read_all(r, full, NULL), 0);
	assert_null(trace_reader_warning(r));
	trace_reader_close(r);
	assert_int_equal(trace_reader_open_mem(&r, "cut.bin", buf, (size_t)len / 2 + 5, &o, &err),
			 0);
	assert_int_equal(read_all(r, cut, NULL), 0);
	assert_non_null(trace_reader_warning(r));
	assert_non_null(strstr(trace_reader_warning(r), "cut.bin+"));
	assert_non_null(strstr(trace_reader_warning(r), "the records before it are kept"));
	assert_true(cut[TRACE_OP_READ] + cut[TRACE_OP_WRITE] > 0);
	assert_true(cut[TRACE_OP_READ] + cut[TRACE_OP_WRITE] <
		    full[TRACE_OP_READ] + full[TRACE_OP_WRITE]);
	trace_reader_close(r);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blkparse_empty_preflush_is_a_flush),
		cmocka_unit_test(test_crlf_detected_like_lf),
		cmocka_unit_test(test_truncated_gzip_is_an_error),
		cmocka_unit_test(test_disksim_whole_ms_is_not_mqsim),
		cmocka_unit_test(test_truncated_blktrace_keeps_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
