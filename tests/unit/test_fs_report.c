/* Unit tests of src/fs/'s VDbench text: the max_ line (responses over the whole run, a blank
 * rate for an operation seen only in the warmup), the anchor order (a Java HashMap of the
 * anchors with a trailing '/'), the boxes after a run; and the FWDs' skew rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/fs/fs_int.h"

/* The max_ line's text from the time stamp on, one counted interval and the run's totals. */
static char *max_line(const struct fs_stats *iv, const struct fs_stats *all, unsigned int cols)
{
	char *buf = NULL, *max;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fs_console_stdmax(f, cols, "2-2", iv, all, 1, 1.0);
	fclose(f);
	max = strstr(buf, "max_2-2");
	assert_non_null(max);
	max = strdup(max);
	free(buf);
	return max;
}

static void test_max_line_warmup_mkdir(void **state)
{
	struct fs_stats iv = { 0 }, all = { 0 };
	unsigned int cols = 1u << FS_OP_MKDIR | 1u << FS_OP_CREATE | FS_COLS_REQSTD_STD;
	char *line;

	(void)state;
	fs_opstat_note(&iv.reqstd, 2.0);
	fs_opstat_note(&iv.op[FS_OP_CREATE], 3.0);
	all = iv;
	fs_opstat_note(&all.reqstd, 9.5);	     /* a longer one in the warmup */
	fs_opstat_note(&all.op[FS_OP_MKDIR], 2.068); /* the format's one mkdir, in interval 1 */
	line = max_line(&iv, &all, cols);
	/* ReqstdOps: the counted rate, the run's longest response; mkdir: blank rate, 2.068 */
	assert_non_null(strstr(line, "max_2-2    1.0  9.500"));
	assert_non_null(strstr(line, "       2.068   1.0  3.000"));
	free(line);
}

static void test_anchor_order(void **state)
{
	/* buckets of anchor + "/": f1/ 14, f2/ 13; multi_host/ 9, multi_host.dir2/ 1 */
	struct parm_fsd fsds[2] = { { .anchor = "/tmp/h18f-j/a/f1" },
				    { .anchor = "/tmp/h18f-j/a/f2" } };
	size_t *order = fs_anchor_order(fsds, 2);

	(void)state;
	assert_non_null(order);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 0);
	free(order);
	fsds[0].anchor = "/tmp/h18f-fsb/vdbench/multi_host";
	fsds[1].anchor = "/tmp/h18f-fsb/vdbench/multi_host.dir2/"; /* its '/' not doubled */
	order = fs_anchor_order(fsds, 2);
	assert_non_null(order);
	assert_int_equal(order[0], 1);
	free(order);
}

/* A late arrival: due at 1 s, issued at 1.9 s, done at 1.901 s. The console's means are the
 * service time (1 ms), as VDbench's resp; the wait is in the response histogram alone (the
 * console showed 901 ms). */
static void test_note_late_arrival(void **state)
{
	static struct stats_hist lat, svc;
	struct fs_stats st = { 0 };
	const uint64_t t[3] = { 1000000000ull, 1900000000ull, 1901000000ull };
	const uint64_t open_t[3] = { 2000000000ull, 2000000000ull, 2000500000ull };

	(void)state;
	fs_stats_note(&st, &lat, &svc, FS_OP_READ, true, t);
	fs_stats_note(&st, &lat, &svc, FS_OP_OPEN, false, open_t);
	assert_int_equal(st.op[FS_OP_READ].n, 1);
	assert_true(st.op[FS_OP_READ].resp_sum_ms == 1.0);
	assert_true(st.reqstd.resp_sum_ms == 1.0);
	assert_true(st.reqstd.resp_max_ms == 1.0);
	assert_true(st.op[FS_OP_OPEN].resp_sum_ms == 0.5);
	assert_int_equal(svc.nr, 1);
	assert_int_equal(svc.max_ns, 1000000);
	assert_int_equal(lat.nr, 1);
	assert_int_equal(lat.max_ns, 901000000);
}

/* The console's cpu sys: three figures in four columns, 9.36 but 12.6 (VDbench, observed). */
static void test_console_cpu_sys(void **state)
{
	static const struct {
		double sys;
		const char *text;
	} cases[] = { { 9.364, " 64.8 9.36 " }, { 12.63, " 64.8 12.6 " }, { 0.5, " 64.8 0.50 " } };
	struct fs_stats st = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		fs_console_line(f, 0, "1", &st, 1.0, 64.8, cases[i].sys);
		fclose(f);
		assert_non_null(strstr(buf, cases[i].text));
		free(buf);
	}
}

/* vdb_control.file as VDbench writes it: one size line, runs of files as "= N" with the last
 * file on its own line, and the checksum VDbench insists on (the sum of the bytes above
 * without the newlines). */
static void test_control_file(void **state)
{
	uint64_t size = 4096;
	struct parm_fsd fsd = { .anchor = "/x/a", .depth = 1, .width = 2, .files = 3 };
	static const unsigned char st[6] = { FS_FILE_EMPTY, FS_FILE_EMPTY, FS_FILE_NONE,
					     FS_FILE_NONE,  FS_FILE_FULL,  FS_FILE_FULL };
	const char *want = "when  end Sun Dec 06 14:48:55 UTC 2026 anchor=/x/a pid=7\n"
			   "depth 1\nwidth 2\nfiles 3\ndist  bottom\nsize  4096\n"
			   "directory status 2\ny\ny\nfile status 6\n0\n= 1\nn\n= 1\nf\nf\n";
	struct fs_tree t;
	char *buf = NULL, tail[64];
	size_t len = 0;
	uint64_t sum = 0;
	FILE *f;

	(void)state;
	fsd.sizes = (struct parm_xfer){ .kind = PARM_XFER_FIXED, .nr = 1, .sizes_bytes = &size };
	assert_int_equal(fs_tree_init(&t, &fsd), 0);
	assert_int_equal(t.nr_files, 6);
	memset(t.dir_state, 1, 2);
	memcpy(t.file_state, st, 6);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(fs_control_print(f, &t, "Sun Dec 06 14:48:55 UTC 2026", 7), 0);
	fclose(f);
	assert_int_equal(strncmp(buf, want, strlen(want)), 0);
	for (const char *c = want; *c; c++)
		sum += *c == '\n' ? 0 : (unsigned char)*c;
	snprintf(tail, sizeof(tail), "checksum: %llu \n", (unsigned long long)sum);
	assert_string_equal(buf + strlen(want), tail);
	free(buf);
	fs_tree_fini(&t);
}

/* A figure wider than its column loses decimals, as VDbench's: a rate of 214525 ops/s is
 * "214525" in %6.1f's six columns, 837.99 MB/s "838.0" in %5.2f's five. */
static void test_console_wide_figures(void **state)
{
	struct fs_stats st = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	st.reqstd.n = 214525;
	st.op[FS_OP_READ].n = 214525;
	st.read_bytes = (uint64_t)(837.99 * 1024 * 1024);
	fs_console_line(f, 0, "1", &st, 1.0, 50.0, 5.0);
	fclose(f);
	assert_non_null(strstr(buf, "1 214525  0.000  50.0 5.00 100.0 214525  0.000"));
	assert_non_null(strstr(buf, " 838.0  0.00 837.99 "));
	free(buf);
}

/* A FWD waits while it started more than its share of the operations of the FWDs still
 * running (by more than a few): 20/80 with 100 and 400 started is even; the 20% FWD at 140
 * is ahead, the 80% one never is while the other lags; a FWD whose threads all ended holds
 * nobody back; a FWD without a share is not controlled. */
static void test_skew_rule(void **state)
{
	const double shares[3] = { 0.2, 0.8, 0 };
	struct fs_skew k;

	(void)state;
	assert_int_equal(fs_skew_init(&k, shares, 3), 0);
	for (size_t i = 0; i < 3; i++)
		fs_skew_join(&k, i);
	atomic_store(&k.fwds[0].nr_ops, 100);
	atomic_store(&k.fwds[1].nr_ops, 400);
	assert_false(fs_skew_is_ahead(&k, 0));
	assert_false(fs_skew_is_ahead(&k, 1));
	atomic_store(&k.fwds[0].nr_ops, 140); /* 20% of 500 is 100: 40 ahead */
	assert_true(fs_skew_is_ahead(&k, 0));
	assert_false(fs_skew_is_ahead(&k, 1));
	atomic_store(&k.fwds[0].nr_ops, 120); /* within the lead */
	assert_false(fs_skew_is_ahead(&k, 0));
	atomic_store(&k.fwds[1].nr_ops, 0);
	assert_true(fs_skew_is_ahead(&k, 0));
	fs_skew_leave(&k, 1); /* fwd2's threads all ended */
	assert_false(fs_skew_is_ahead(&k, 0));
	atomic_store(&k.fwds[2].nr_ops, 1000000);
	assert_false(fs_skew_is_ahead(&k, 2));
	assert_true(fs_skew_take(&k, 0, &(atomic_bool){ false }, 0));
	assert_int_equal(atomic_load(&k.fwds[0].nr_ops), 121);
	/* ahead with fwd2 running again and nothing moving: a take that may wait gives up and
	 * counts nothing (its thread lets its file go); one that may not wait counts */
	fs_skew_join(&k, 1);
	assert_true(fs_skew_is_ahead(&k, 0));
	assert_false(fs_skew_take(&k, 0, &(atomic_bool){ false }, 100000));
	assert_int_equal(atomic_load(&k.fwds[0].nr_ops), 121);
	assert_true(fs_skew_take(&k, 0, &(atomic_bool){ false }, 0));
	assert_int_equal(atomic_load(&k.fwds[0].nr_ops), 122);
	/* a stop ends the wait */
	fs_skew_wait(&k, 0, &(atomic_bool){ true });
	fs_skew_fini(&k);
}

static char *warnings(const struct rep_fs_warnings *w, bool with_reasons)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	rep_fs_run_warnings(f, w, with_reasons);
	fclose(f);
	return buf;
}

/* VDbench 5.04.07's boxes after a file-system run (observed): the skew box with the file-system
 * list of reasons (on the console, not in summary.html), the CPU box over 80%, the per-slave
 * box over ios_per_jvm=; none when nothing is off. */
static void test_run_warnings(void **state)
{
	struct rep_fs_warnings w = { .rd = "rd1",
				     .skew_fwd = "fwd2",
				     .skew_delta = 1.17,
				     .cpu_pct = 97.8,
				     .ops_per_sec = 210121.5 };
	char *text;

	(void)state;
	text = warnings(&w, true);
	assert_non_null(strstr(text, "* Observed Workload skew for fwd=fwd2 delta greater than 1% "
				     "(1.17). See skew.html for details *\n"));
	assert_non_null(strstr(text, "*   Each FSD should have done at least 2000 operations. "
				     "Adding 'warmup=nn' may help this.         *\n"));
	assert_non_null(strstr(text, "* Warning for host=localhost: average processor utilization "
				     "97.8%  *\n"));
	assert_non_null(strstr(text, "* Warning: total amount of i/o per second per slave "
				     "(210,121) greater than 100,000.    *\n"));
	assert_non_null(strstr(text, "* rd=rd1 actively used 1 slaves. "));
	free(text);
	text = warnings(&w, false);
	assert_null(strstr(text, "Possible reasons"));
	assert_non_null(strstr(text, "Observed Workload skew"));
	free(text);
	w = (struct rep_fs_warnings){
		.rd = "rd1", .cpu_pct = 80.0, .ops_per_sec = 1000, .ios_per_jvm = 1000
	};
	text = warnings(&w, true);
	assert_string_equal(text, "");
	free(text);
	w.ios_per_jvm = 999;
	text = warnings(&w, true);
	assert_non_null(strstr(text, "(1,000) greater than 999."));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_max_line_warmup_mkdir),
		cmocka_unit_test(test_anchor_order),
		cmocka_unit_test(test_note_late_arrival),
		cmocka_unit_test(test_console_cpu_sys),
		cmocka_unit_test(test_control_file),
		cmocka_unit_test(test_console_wide_figures),
		cmocka_unit_test(test_skew_rule),
		cmocka_unit_test(test_run_warnings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
