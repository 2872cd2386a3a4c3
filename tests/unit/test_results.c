/* The results module (src/results/): a VDbench flatfile read as a results document (flat.c),
 * from the hand-written tests/data/vdb-out/flatfile.html and from broken ones written here. */
#include <errno.h>
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

#include "ioramp/results.h"

#define FLAT "tests/data/vdb-out/flatfile.html"

static void test_flat_runs_loops_and_curves(void **state)
{
	char err[512] = "";
	json_t *doc = NULL;

	(void)state;
	assert_int_equal(rep_doc_load(FLAT, &doc, err, sizeof(err)), 0); /* by its name */
	assert_string_equal(rep_doc_str(doc, "schema", ""), REP_DOC_SCHEMA);
	assert_string_equal(rep_doc_engine(doc, "?"), "vdbench");
	assert_string_equal(rep_doc_str(doc, "execution/start_time", ""),
			    "2026-03-01T10:00:01.000Z");
	assert_int_equal(json_array_size(json_object_get(doc, "runs")), 5);
	/* the intervals, the average, ms made us */
	assert_int_equal(json_array_size(rep_doc_get(doc, "runs/0/intervals")), 2);
	assert_string_equal(rep_doc_str(doc, "runs/0/average/label", ""), "avg_2-2");
	/* one second between the lines' times of day: the interval VDbench does not write */
	assert_int_equal(json_integer_value(rep_doc_get(doc, "runs/0/interval_s")), 1);
	assert_true(rep_doc_num(doc, "runs/0/intervals/1/elapsed_s") == 1);
	assert_true(rep_doc_num(doc, "runs/0/average/elapsed_s") == 1);
	assert_null(rep_doc_get(doc, "runs/0/intervals/0/tod_s"));
	assert_true(fabs(rep_doc_num(doc, "runs/0/average/total/service/mean_us") - 380) < 1e-9);
	assert_true(fabs(rep_doc_num(doc, "runs/0/average/total/service/max_us") - 2100) < 1e-9);
	assert_true(fabs(rep_doc_num(doc, "runs/0/average/total/iops") - 42000) < 1e-9);
	assert_true(isnan(rep_doc_num(doc, "runs/0/average/total/service/percentiles_us/99")));
	assert_string_equal(rep_doc_str(doc, "runs/0/rate/kind", ""), "curve_max");
	assert_string_equal(rep_doc_str(doc, "runs/1/rate/kind", ""), "curve_point");
	assert_true(fabs(rep_doc_num(doc, "runs/1/rate/target_iops") - 21000) < 1e-9);
	assert_string_equal(rep_doc_str(doc, "runs/1/rd", ""), "rd1");
	/* two runs named rd2 are told apart by what differs: threads */
	assert_string_equal(rep_doc_str(doc, "runs/0/for_loops", ""), "None");
	assert_string_equal(rep_doc_str(doc, "runs/3/for_loops", ""), "threads=1");
	assert_string_equal(rep_doc_str(doc, "runs/4/for_loops", ""), "threads=4");
	assert_null(rep_doc_get(doc, "runs/3/_loops"));
	/* one curve: rd1's max and its two points; 90% reached 30,100 of 37,800: missed */
	assert_int_equal(json_array_size(json_object_get(doc, "curves")), 1);
	assert_int_equal(json_array_size(rep_doc_get(doc, "curves/0/points")), 2);
	assert_true(json_is_true(rep_doc_get(doc, "curves/0/points/0/is_target_met")));
	assert_true(json_is_false(rep_doc_get(doc, "curves/0/points/1/is_target_met")));
	assert_string_equal(rep_doc_str(doc, "curves/0/peak/name", ""), "rd1_(90%)");
	/* 110 us mean at 21,010 IOPS, 300 us at 30,100: under 200 us up to the last point met
	 * (a missed point is not interpolated to) */
	assert_string_equal(rep_doc_str(doc, "curves/0/sla/1/service/mean/status", ""), "reached");
	assert_true(fabs(rep_doc_num(doc, "curves/0/sla/1/service/mean/iops") - 21010) < 1e-9);
	assert_string_equal(rep_doc_str(doc, "curves/0/sla/1/service/p99/status", ""),
			    "not_reached");
	json_decref(doc);
}

/* Writes text to a flatfile.html in a new temporary directory; path gets its name. */
static void write_flat(const char *text, char *path, size_t len)
{
	char dir[] = "/tmp/ioramp-test-results-XXXXXX";
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, len, "%s/flatfile.html", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void remove_flat(const char *path)
{
	char dir[4096];

	unlink(path);
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(path, '/') - path), path);
	rmdir(dir);
}

static void expect_error(const char *text, const char *where, const char *what)
{
	char path[4096], err[512], expected[4600];
	json_t *doc = (json_t *)&doc;

	write_flat(text, path, sizeof(path));
	assert_int_equal(rep_doc_load(path, &doc, err, sizeof(err)), -EINVAL);
	assert_null(doc);
	snprintf(expected, sizeof(expected), "%s%s: %s", path, where, what);
	assert_string_equal(err, expected);
	remove_flat(path);
}

static void test_flat_errors_name_file_and_line(void **state)
{
	static const char head[] = "<pre>\n* comment\nRun Interval reqrate rate resp\n";
	char text[512];
	char err[512];
	json_t *doc;

	(void)state;
	expect_error("<pre>\n* nothing\n", ":2", "no header line; expected a VDbench flatfile");
	expect_error("<pre>\nRun Interval rate resp\n", ":2",
		     "the header has no column reqrate; expected a VDbench flatfile");
	expect_error(head, ":3", "no data lines after the header");
	snprintf(text, sizeof(text), "%srd1 1 100 95 0.1\nrd1 avg_1-1 100 fast 0.1\n", head);
	expect_error(text, ":5", "column rate: expected a number, got 'fast'");
	snprintf(text, sizeof(text), "%srd1 1 100 95\n", head);
	expect_error(text, ":4", "expected 5 columns (the header's); got 4");
	assert_int_equal(rep_doc_load("/nonexistent/flatfile.html", &doc, err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err,
			    "/nonexistent/flatfile.html: cannot open: No such file or directory");
}

static void test_flat_nested_loops(void **state)
{
	static const char text[] = "Run Interval reqrate rate resp xfersize threads\n"
				   "rd2 avg_1-1 9999988 100 0.1 4096 1\n"
				   "rd2 avg_1-1 9999988 100 0.1 8192 1\n"
				   "rd2 avg_1-1 9999988 100 0.1 4096 4\n"
				   "rd2 avg_1-1 9999988 100 0.1 1048576 4\n"
				   "rd3 avg_1-1 9999988 100 0.1 1000 4\n";
	char path[4096], err[512];
	json_t *doc;

	(void)state;
	write_flat(text, path, sizeof(path));
	assert_int_equal(rep_doc_load(path, &doc, err, sizeof(err)), 0);
	/* every loop column that varies among the runs of a name, sizes as for-loops write them */
	assert_string_equal(rep_doc_str(doc, "runs/0/for_loops", ""), "threads=1 xfersize=4k");
	assert_string_equal(rep_doc_str(doc, "runs/1/for_loops", ""), "threads=1 xfersize=8k");
	assert_string_equal(rep_doc_str(doc, "runs/2/for_loops", ""), "threads=4 xfersize=4k");
	assert_string_equal(rep_doc_str(doc, "runs/3/for_loops", ""), "threads=4 xfersize=1m");
	assert_string_equal(rep_doc_str(doc, "runs/4/for_loops", ""), "None");
	assert_int_equal(json_array_size(json_object_get(doc, "curves")), 0);
	assert_int_equal(json_integer_value(rep_doc_get(doc, "execution/status")), 0);
	json_decref(doc);
	remove_flat(path);
	/* a run without its avg_ line: the execution was cut short, its status unknown */
	write_flat("Run Interval reqrate rate resp\nrd1 avg_1-1 9999988 100 0.1\n"
		   "rd2 1 9999988 100 0.1\n",
		   path, sizeof(path));
	assert_int_equal(rep_doc_load(path, &doc, err, sizeof(err)), 0);
	assert_true(json_is_null(rep_doc_get(doc, "execution/status")));
	assert_true(json_is_null(rep_doc_get(doc, "runs/1/average")));
	json_decref(doc);
	remove_flat(path);
}

/* A time of day whose seconds do not fit a day (found by fuzz_flatdoc: "10:00:1e84" made the
 * interval step 4.4e84 s, outside any integer) is no time of day: the step stays 1 s. */
static void test_flat_time_of_day_out_of_range(void **state)
{
	char path[4096], err[512];
	json_t *doc;

	(void)state;
	write_flat("tod Run Interval reqrate rate resp\n"
		   "10:00:00.000 rd1 1 9999988 100 0.1\n"
		   "10:00:1e84 rd1 2 9999988 100 0.1\n"
		   "10:00:1e84 rd1 avg_2-2 9999988 100 0.1\n",
		   path, sizeof(path));
	assert_int_equal(rep_doc_load(path, &doc, err, sizeof(err)), 0);
	assert_int_equal(json_integer_value(rep_doc_get(doc, "runs/0/interval_s")), 1);
	json_decref(doc);
	remove_flat(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_runs_loops_and_curves),
		cmocka_unit_test(test_flat_errors_name_file_and_line),
		cmocka_unit_test(test_flat_nested_loops),
		cmocka_unit_test(test_flat_time_of_day_out_of_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
