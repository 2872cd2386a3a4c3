/* Unit tests of src/report/'s building blocks: Java-compatible number formatting (half-up on
 * the shortest decimal form), time stamps, the interval line with and without CPU columns, the
 * header every 30 lines, warning boxes, the I/O error line, SD link blocks, the output
 * directory rules and flatfile parsing and selection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../src/report/doc.h"
#include "../../src/report/vdbtext.h"
#include "ioramp/report.h"

static const uint64_t tod_ns = 1796025853ull * 1000000000ull + 424000000ull;

static void check_jfmt(int width, int prec, double x, const char *want)
{
	char buf[128];

	rep_jfmt(buf, sizeof(buf), width, prec, x);
	if (strcmp(buf, want))
		fail_msg("%%%d.%df of %.17g: got '%s', want '%s'", width, prec, x, buf, want);
}

/* The expected strings are Java 17's String.format output. */
static void test_jfmt_rounds_half_up_like_java(void **state)
{
	(void)state;
	check_jfmt(0, 2, 1.005, "1.01");
	check_jfmt(0, 2, 0.125, "0.13");
	check_jfmt(0, 1, 0.05, "0.1");
	check_jfmt(0, 1, 0.15, "0.2");
	check_jfmt(0, 1, 0.25, "0.3");
	check_jfmt(0, 1, 1.45, "1.5");
	check_jfmt(0, 2, 2.675, "2.68");
	check_jfmt(0, 2, 0.045, "0.05");
	check_jfmt(0, 3, 2.0005, "2.001");
	check_jfmt(0, 3, 0.0005, "0.001");
	check_jfmt(0, 4, 0.00015, "0.0002");
	check_jfmt(0, 4, 0.03125, "0.0313");
	check_jfmt(0, 4, 123456.78125, "123456.7813");
	check_jfmt(0, 0, 2.5, "3");
	check_jfmt(0, 0, 123456.78125, "123457");
	check_jfmt(0, 2, 9.995, "10.00");
	check_jfmt(0, 2, 99.995, "100.00");
	check_jfmt(0, 2, 1e-5, "0.00");
	check_jfmt(0, 2, 5e-324, "0.00");
	check_jfmt(0, 0, -0.125, "-0");
	check_jfmt(0, 2, -0.125, "-0.13");
	check_jfmt(0, 3, 0, "0.000");
	check_jfmt(0, 1, 1e20, "100000000000000000000.0");
	/* a carry over every digit and the point (rep_jfmt's fast path rounds printf's text) */
	check_jfmt(0, 2, 9.997, "10.00");
	check_jfmt(0, 0, 9.7, "10");
	check_jfmt(0, 1, 0.96, "1.0");
	check_jfmt(0, 3, 999.9996, "1000.000");
	check_jfmt(0, 1, -99.96, "-100.0");
	check_jfmt(0, 2, 0.994, "0.99");
}

/* rep_jfmt()'s fast path (printf's text where it is Java's) prints what the exact search of
 * the shortest form prints: on numbers of every magnitude the reports show, at every precision
 * they use, on the decimal midpoints where the two roundings differ and on their neighbours a
 * ulp either side. */
static void test_jfmt_fast_path_equals_exact(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	char fast[128], exact[128];
	int nr_checked = 0;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		int prec = i % 7;
		double unit = pow(10.0, -prec), x;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		switch (i % 4) {
		case 0: /* any number from 1e-7 to 1e13 */
			x = pow(10.0, -7.0 + 20.0 * (double)(seed >> 11) / 0x1p53);
			break;
		case 1: /* a midpoint of the last printed place: k + 1/2 units */
			x = ((double)(seed >> 40) + 0.5) * unit;
			break;
		case 2: /* a midpoint's neighbours */
		case 3:
			x = ((double)(seed >> 40) + 0.5) * unit;
			x = nextafter(x, i % 4 == 2 ? 0 : INFINITY);
			break;
		}
		if (seed & 1)
			x = -x;
		rep_jfmt(fast, sizeof(fast), 0, prec, x);
		rep_jfmt_exact(exact, sizeof(exact), 0, prec, x);
		if (strcmp(fast, exact))
			fail_msg("%%.%df of %.17g: '%s', the exact search says '%s'", prec, x, fast,
				 exact);
		nr_checked++;
	}
	assert_int_equal(nr_checked, 200000);
}

static void test_jfmt_pads_nan_and_infinity(void **state)
{
	(void)state;
	check_jfmt(8, 2, 1.005, "    1.01");
	check_jfmt(5, 1, NAN, "  NaN");
	check_jfmt(0, 2, INFINITY, "Infinity");
	check_jfmt(0, 2, -INFINITY, "-Infinity");
	check_jfmt(3, 2, 1234.5, "1234.50");
}

static void test_jflat_strips_trailing_zeros(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(rep_jflat(buf, sizeof(buf), 50.0), "50");
	assert_string_equal(rep_jflat(buf, sizeof(buf), 0.10351), "0.1035");
	assert_string_equal(rep_jflat(buf, sizeof(buf), 71.223), "71.223");
	assert_string_equal(rep_jflat(buf, sizeof(buf), 50.0 / 1024), "0.0488");
	assert_string_equal(rep_jflat(buf, sizeof(buf), 0.00001), "0");
	assert_string_equal(rep_jflat(buf, sizeof(buf), 9999988), "9999988");
	assert_string_equal(rep_jflat(buf, sizeof(buf), NAN), "NaN");
}

static void test_jgroup_inserts_thousands_separators(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(rep_jgroup(buf, sizeof(buf), 0), "0");
	assert_string_equal(rep_jgroup(buf, sizeof(buf), 839), "839");
	assert_string_equal(rep_jgroup(buf, sizeof(buf), 1079), "1,079");
	assert_string_equal(rep_jgroup(buf, sizeof(buf), 2976385), "2,976,385");
	assert_string_equal(rep_jgroup(buf, sizeof(buf), UINT64_MAX), "18,446,744,073,709,551,615");
}

static void test_clock_formats_vdbench_stamps(void **state)
{
	char buf[REP_STAMP_LEN];

	(void)state;
	rep_fmt_tod(buf, tod_ns);
	assert_string_equal(buf, "08:04:13.424");
	rep_fmt_date(buf, tod_ns);
	assert_string_equal(buf, "Nov 30, 2026");
	rep_fmt_stamp(buf, tod_ns);
	assert_string_equal(buf, "11/30/2026-08:04:13-UTC");
	rep_fmt_created(buf, tod_ns);
	assert_string_equal(buf, "08:04:13 Nov 30 2026 UTC");
}

/* A bank with 3 reads of 100 us and 1 write of 300 us, 4 KiB each, 0.5 I/Os in flight. */
static struct stats_bank *small_bank(void)
{
	struct stats_bank *b = calloc(1, sizeof(*b));

	assert_non_null(b);
	stats_bank_start(b, 0, 0);
	stats_bank_inflight_add(b, 1, 0);
	for (int i = 0; i < 3; i++)
		stats_bank_record(b, STATS_OP_READ, 4096, 100000, 100000);
	stats_bank_record(b, STATS_OP_WRITE, 4096, 300000, 300000);
	stats_bank_inflight_add(b, -1, 500000000);
	stats_bank_finish(b, 1000000000);
	return b;
}

static char *print_line(const struct rep_sample *s)
{
	struct rep_exec x = { .mb_bytes = 1048576 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	rep_line_print(f, &x, s, s->total);
	fclose(f);
	return text;
}

static void test_line_layout_with_and_without_cpu(void **state)
{
	struct rep_sample s = { .label = "1", .tod_ns = tod_ns, .elapsed_ns = 1000000000 };
	char *text;

	(void)state;
	s.total = small_bank();
	text = print_line(&s);
	assert_string_equal(text, "08:04:13.424           1        4.0     0.02    4096  75.00    "
				  "0.150    0.100    0.300     0.10     0.30    0.100    0.5 \n");
	free(text);
	s.has_cpu = true;
	s.cpu.used_pct = 12.25, s.cpu.sys_pct = 4.05;
	snprintf(s.label, sizeof(s.label), "avg_2-5");
	text = print_line(&s);
	assert_string_equal(text,
			    "08:04:13.424     avg_2-5        4.0     0.02    4096  75.00    "
			    "0.150    0.100    0.300     0.10     0.30    0.100    0.5  12.3   "
			    "4.1\n");
	free(text);
	free((void *)s.total);
}

static void test_console_repeats_header_every_30_lines(void **state)
{
	struct rep_exec x = { .mb_bytes = 1048576 };
	struct rep_sample s = { .tod_ns = tod_ns, .elapsed_ns = 1000000000 };
	struct rep_run r = { .name = "rd1", .rate_text = "max", .start_tod_ns = tod_ns };
	struct rep_set set = { 0 };
	char *text = NULL, *p;
	size_t len = 0;
	int nr = 0;

	(void)state;
	x.console = open_memstream(&text, &len);
	s.total = small_bank();
	assert_int_equal(rep_set_add(&set, &rep_console), 0);
	assert_int_equal(rep_set_open(&set, &x), 0);
	assert_int_equal(rep_set_run_start(&set, &r), 0);
	for (uint32_t k = 1; k <= 61; k++) {
		snprintf(s.label, sizeof(s.label), "%u", k);
		s.nr = k;
		assert_int_equal(rep_set_interval(&set, &r, &s), 0);
	}
	assert_int_equal(rep_set_close(&set, 1), 0);
	fclose(x.console);
	for (p = text; (p = strstr(p, "\nNov 30, 2026    interval")); p++)
		nr++;
	assert_int_equal(nr, 3); /* before intervals 1, 31 and 61 */
	assert_non_null(strstr(text, "Starting RD=rd1; I/O rate: max; elapsed=(none); For loops: "
				     "None\n"));
	free(text);
	free((void *)s.total);
}

static int cut_check(void *state)
{
	(void)state;
	return -ENOSPC;
}

/* A file closed last (summary.html) found cut short: the execution fails, the console says
 * which file and why, and never that it completed. */
static void test_a_summary_cut_short_fails_the_execution(void **state)
{
	static const struct rep_ops cut = {
		.name = "summary",
		.file = "summary.html",
		.is_closed_last = true,
		.check = cut_check,
	};
	struct rep_exec x = { .mb_bytes = 1048576 };
	struct rep_set set = { 0 };
	char *text = NULL;
	size_t len = 0;

	(void)state;
	x.console = open_memstream(&text, &len);
	assert_int_equal(rep_set_add(&set, &rep_console), 0);
	assert_int_equal(rep_set_add(&set, &cut), 0);
	assert_int_equal(rep_set_open(&set, &x), 0);
	assert_int_equal(rep_set_close(&set, 0), -ENOSPC);
	fclose(x.console);
	assert_null(strstr(text, "completed successfully"));
	assert_non_null(strstr(text, "ioramp: error: ./summary.html: cannot write the report: No "
				     "space left on device"));
	free(text);
}

static void emit_to_file(void *ctx, const char *line)
{
	fprintf(ctx, "%s\n", line);
}

static void test_box_pads_lines_to_the_longest(void **state)
{
	const char *lines[] = { "ab", "abcd" };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	rep_box(lines, 2, emit_to_file, f);
	fclose(f);
	assert_string_equal(text, "*\n********\n* ab   *\n* abcd *\n********\n*\n");
	free(text);
}

static void test_io_error_line_matches_vdbench(void **state)
{
	struct rep_exec x = { 0 };
	struct rep_io_error e = {
		.lun = "/tmp/vdb/luns/full",
		.op = STATS_OP_READ,
		.lba_bytes = 491520,
		.size_bytes = 4096,
		.err = ENOSPC,
		.tod_ns = tod_ns,
	};
	char buf[512];

	(void)state;
	rep_io_error_text(buf, sizeof(buf), &x, &e);
	assert_string_equal(buf, "localhost-0: 08:04:13.424 op: read   lun: /tmp/vdb/luns/full  "
				 "           lba:       491520 0x00078000 xfer:     4096 errno: "
				 "ENOSPC: 'No space left on device' ");
	e.err = EIO;
	e.is_short = true;
	e.transferred_bytes = 2048;
	rep_io_error_text(buf, sizeof(buf), &x, &e);
	assert_non_null(
		strstr(buf, "xfer:     4096 errno: EIO: 'short transfer: 2048 of 4096 bytes' "));
}

static void test_name_links_sort_naturally_eight_per_line(void **state)
{
	const char *names[] = { "sd10", "sd2", "a_much_longer_sd_name",
				"sd1",	"x",   "sd3",
				"sd4",	"sd5", "sd6",
				"sd7",	"sd8", "sd9" };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	rep_html_name_links(f, "Link to SD reports:", names, IORAMP_ARRAY_SIZE(names));
	fclose(f);
	assert_string_equal(text,
			    "Link to SD reports:              <A "
			    "HREF=\"a_much_longer_sd_name.html\">a_much_longer_sd_name</A> <A "
			    "HREF=\"sd1.html\">sd1</A>      <A HREF=\"sd2.html\">sd2</A>      <A "
			    "HREF=\"sd3.html\">sd3</A>      <A HREF=\"sd4.html\">sd4</A>      <A "
			    "HREF=\"sd5.html\">sd5</A>      <A HREF=\"sd6.html\">sd6</A>      <A "
			    "HREF=\"sd7.html\">sd7</A>     \n                                 <A "
			    "HREF=\"sd8.html\">sd8</A>      <A HREF=\"sd9.html\">sd9</A>      <A "
			    "HREF=\"sd10.html\">sd10</A>     <A HREF=\"x.html\">x</A>       \n");
	free(text);
}

static int in_tmpdir(void **state)
{
	static char dir[64];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ioramp-outdir-XXXXXX");
	return mkdtemp(dir) && !chdir(dir) ? 0 : -1;
}

static int leave_tmpdir(void **state)
{
	char cwd[256], cmd[300];

	(void)state;
	if (!getcwd(cwd, sizeof(cwd)) || chdir("/"))
		return -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cwd);
	return system(cmd) ? -1 : 0;
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fclose(f);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Only what ioramp wrote goes; anything else under a name it writes refuses the directory
 * before a single file is deleted. */
static void test_outdir_refuses_what_ioramp_did_not_write(void **state)
{
	struct rep_outdir_err e;
	char out[256];
	struct stat st;

	(void)state;
	assert_int_equal(mkdir("o", 0777), 0);
	put("o/summary.html", "<title>Vdbench o/summary.html</title><pre>\n");
	put("o/results.json", "{\n  \"schema\": \"ioramp-results/3\",\n");
	put("o/fwd1.html", "<html><head><title>ioramp o/fwd1.html</title></head><body>\n");
	put("o/index.html", "<html>my own page</html>\n");
	assert_int_equal(rep_outdir_create("o", tod_ns, out, sizeof(out), &e), -ENOTEMPTY);
	assert_string_equal(e.file, "index.html");
	assert_false(e.is_deleting);
	assert_int_equal(stat("o/summary.html", &st), 0); /* nothing deleted */
	assert_int_equal(stat("o/results.json", &st), 0);
	assert_int_equal(unlink("o/index.html"), 0);
	put("o/results.json", "{\"mine\": 1}\n");
	assert_int_equal(rep_outdir_create("o", tod_ns, out, sizeof(out), &e), -ENOTEMPTY);
	assert_string_equal(e.file, "results.json");
	put("o/results.json", "{\"mode\": \"filesystem\", \"execution\": {\"tool\": \"ioramp\"");
	assert_int_equal(mkdir("o/x.html", 0777), 0);
	assert_int_equal(rep_outdir_create("o", tod_ns, out, sizeof(out), &e), -ENOTEMPTY);
	assert_string_equal(e.file, "x.html");
	assert_int_equal(stat("o/fwd1.html", &st), 0);
	assert_int_equal(rmdir("o/x.html"), 0);
	assert_int_equal(symlink("summary.html", "o/link.html"), 0);
	assert_int_equal(rep_outdir_create("o", tod_ns, out, sizeof(out), &e), -ENOTEMPTY);
	assert_string_equal(e.file, "link.html");
	assert_int_equal(unlink("o/link.html"), 0);
	put("o/notes.txt", "mine\n");
	put("o/curves.csv", "curve,curve_name,run\n");
	touch("o/sd1.html"); /* cut off before its first line */
	assert_int_equal(rep_outdir_create("o", tod_ns, out, sizeof(out), &e), 0);
	assert_int_equal(stat("o/summary.html", &st), -1);
	assert_int_equal(stat("o/results.json", &st), -1);
	assert_int_equal(stat("o/fwd1.html", &st), -1);
	assert_int_equal(stat("o/curves.csv", &st), -1);
	assert_int_equal(stat("o/sd1.html", &st), -1);
	assert_int_equal(stat("o/notes.txt", &st), 0);
}

static void test_outdir_reuses_and_deletes_only_html(void **state)
{
	char out[256];
	struct stat st;

	(void)state;
	assert_int_equal(rep_outdir_create(NULL, tod_ns, out, sizeof(out), NULL), 0);
	assert_string_equal(out, "output");
	touch("output/summary.html");
	touch("output/keep.txt");
	assert_int_equal(rep_outdir_create("output", tod_ns, out, sizeof(out), NULL), 0);
	assert_int_equal(stat("output/summary.html", &st), -1);
	assert_int_equal(stat("output/keep.txt", &st), 0);
	assert_int_equal(rep_outdir_create("a/b/c", tod_ns, out, sizeof(out), NULL), 0);
	assert_int_equal(stat("a/b/c", &st), 0);
	touch("file");
	assert_int_equal(rep_outdir_create("file", tod_ns, out, sizeof(out), NULL), -ENOTDIR);
	assert_int_equal(rep_outdir_create("file/sub", tod_ns, out, sizeof(out), NULL), -ENOTDIR);
	assert_int_equal(rep_outdir_create("output", tod_ns, out, 4, NULL), -ENAMETOOLONG);
}

/* The probe that checks a directory before anything in it is deleted leaves nothing behind. */
static void test_outdir_probe_leaves_nothing(void **state)
{
	char out[256];
	struct dirent *de;
	DIR *d;
	int nr = 0;

	(void)state;
	assert_int_equal(rep_outdir_create("probed", tod_ns, out, sizeof(out), NULL), 0);
	assert_int_equal(rep_outdir_create("probed", tod_ns, out, sizeof(out), NULL), 0);
	d = opendir("probed");
	assert_non_null(d);
	while ((de = readdir(d)))
		nr += de->d_name[0] != '.' || strncmp(de->d_name, ".ioramp-probe", 13) == 0;
	closedir(d);
	assert_int_equal(nr, 0);
}

static void test_outdir_plus_takes_the_next_free_number(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(rep_outdir_create("run+", tod_ns, out, sizeof(out), NULL), 0);
	assert_string_equal(out, "run001");
	assert_int_equal(rep_outdir_create("run+", tod_ns, out, sizeof(out), NULL), 0);
	assert_string_equal(out, "run002");
	assert_int_equal(rmdir("run001"), 0);
	assert_int_equal(rep_outdir_create("run+", tod_ns, out, sizeof(out), NULL), 0);
	assert_string_equal(out, "run001");
}

static void test_outdir_tod_appends_the_time(void **state)
{
	char out[256];
	struct stat st;

	(void)state;
	assert_int_equal(rep_outdir_create("res.tod", tod_ns, out, sizeof(out), NULL), 0);
	assert_string_equal(out, "res.261130.080413");
	assert_int_equal(stat(out, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
}

static const char flat_text[] = "<title>Vdbench x/flatfile.html</title><pre>\n"
				"*\n* Run : name\n* \n"
				"         tod               timestamp Run Interval rate resp \n"
				"08:00:01.000 11/30/2026-08:00:01-UTC rd1 1 100 0.5 \n"
				"08:00:02.000 11/30/2026-08:00:02-UTC rd1 2 ? 0.25 \n"
				"08:00:02.000 11/30/2026-08:00:02-UTC rd1  avg_2-2 110 0.25 \n"
				"08:00:03.000 11/30/2026-08:00:03-UTC RD2 1 200 \n";

static char *select_text(const struct rep_flat *fl, const struct rep_flat_query *q, int want)
{
	char *text = NULL;
	const char *bad = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(rep_flat_select(fl, q, f, &bad), want);
	fclose(f);
	return text;
}

static void test_flat_reads_and_selects(void **state)
{
	const char *cols[] = { "run", "INTERVAL", "Rate", "resp" };
	const char *filters[] = { "run", "rd2" };
	struct rep_flat_query q = { .cols = cols, .nr_cols = 4 };
	FILE *f = fmemopen((void *)flat_text, sizeof(flat_text) - 1, "r");
	struct rep_flat fl;
	char *text;

	(void)state;
	assert_int_equal(rep_flat_read(f, &fl), 0);
	fclose(f);
	assert_int_equal(fl.nr_cols, 6);
	assert_int_equal(fl.nr_rows, 4);
	assert_int_equal(rep_flat_col(&fl, "TIMESTAMP"), 1);
	text = select_text(&fl, &q, 3);
	assert_string_equal(text,
			    "run,INTERVAL,Rate,resp\nrd1,1,100,0.5\nrd1,2,0,0.25\nRD2,1,200,\n");
	free(text);
	q.is_avg_only = q.is_tab = true;
	text = select_text(&fl, &q, 1);
	assert_string_equal(text, "run\tINTERVAL\tRate\tresp\nrd1\tavg_2-2\t110\t0.25\n");
	free(text);
	q.is_avg_only = q.is_tab = false;
	q.filters = filters, q.nr_filters = 1;
	text = select_text(&fl, &q, 1);
	assert_string_equal(text, "run,INTERVAL,Rate,resp\nRD2,1,200,\n");
	free(text);
	rep_flat_fini(&fl);
}

static void test_flat_rejects_unknown_columns_and_headerless_text(void **state)
{
	const char *cols[] = { "run", "nosuch" };
	struct rep_flat_query q = { .cols = cols, .nr_cols = 2 };
	FILE *f = fmemopen((void *)flat_text, sizeof(flat_text) - 1, "r");
	const char *bad = NULL;
	struct rep_flat fl;

	(void)state;
	assert_int_equal(rep_flat_read(f, &fl), 0);
	fclose(f);
	assert_int_equal(rep_flat_select(&fl, &q, stdout, &bad), -ENOENT);
	assert_string_equal(bad, "nosuch");
	rep_flat_fini(&fl);
	f = fmemopen("* only comments\n*\n", 18, "r");
	assert_int_equal(rep_flat_read(f, &fl), -EINVAL);
	fclose(f);
}

/* VDbench 5.04.07's slave names its SDs' threads in HashMap order (observed: sd2, sd1, sd3 for
 * sd1..sd3; sd1, sd3 on a slave without sd2), rep_java_hash_order's. */
static void test_java_hash_order_of_sd_names(void **state)
{
	const char *names[] = { "sd1", "sd2", "sd3" }, *two[] = { "sd1", "sd3" };
	const char *many[20];
	char buf[20][8];
	size_t *order, seen = 0;

	(void)state;
	order = rep_java_hash_order(names, 3, 16);
	assert_non_null(order);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 0);
	assert_int_equal(order[2], 2);
	free(order);
	order = rep_java_hash_order(two, 2, 16);
	assert_non_null(order);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 1);
	free(order);
	/* 20 names: a table of 32 buckets; each name once, in bucket order */
	for (size_t i = 0; i < 20; i++) {
		snprintf(buf[i], sizeof(buf[i]), "sd%zu", i + 1);
		many[i] = buf[i];
	}
	order = rep_java_hash_order(many, 20, 16);
	assert_non_null(order);
	for (size_t i = 0; i < 20; i++)
		seen |= (size_t)1 << order[i];
	assert_true(seen == ((size_t)1 << 20) - 1);
	free(order);
}

/* The console's line per missed point: under its target, and over it (a backlog from the
 * warmup done in the averaged intervals), both with what held it back. */
static void test_missed_point_lines(void **state)
{
	json_t *curve = json_pack(
		"{s:[{s:s,s:b,s:f,s:f,s:f,s:s},{s:s,s:b,s:f,s:f,s:f,s:s},{s:s,s:b,s:f,s:f,s:f}]}",
		"points", "name", "rd1_(90%)", "is_target_met", 0, "requested_iops", 71000.0,
		"scheduled_iops", 80100.0, "target_iops", 80100.0, "limited_by", "device", "name",
		"rd1_(100%)", "is_target_met", 0, "requested_iops", 91898.0, "scheduled_iops",
		89000.0, "target_iops", 89000.0, "limited_by", "device", "name", "rd1_(50%)",
		"is_target_met", 1, "requested_iops", 44500.0, "scheduled_iops", 44500.0,
		"target_iops", 44500.0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(curve);
	assert_non_null(f);
	rep_doc_curve_print_missed(curve, f);
	fclose(f);
	assert_string_equal(text, "rd1_(90%): reached 71,000 of 80,100 (89%), limited by device\n"
				  "rd1_(100%): reached 91,898 of 89,000 (103%), over it: catching "
				  "up I/Os that waited before its averaged intervals, limited by "
				  "device\n");
	free(text);
	json_decref(curve);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jfmt_rounds_half_up_like_java),
		cmocka_unit_test(test_java_hash_order_of_sd_names),
		cmocka_unit_test(test_a_summary_cut_short_fails_the_execution),
		cmocka_unit_test(test_jfmt_fast_path_equals_exact),
		cmocka_unit_test(test_jfmt_pads_nan_and_infinity),
		cmocka_unit_test(test_jflat_strips_trailing_zeros),
		cmocka_unit_test(test_jgroup_inserts_thousands_separators),
		cmocka_unit_test(test_clock_formats_vdbench_stamps),
		cmocka_unit_test(test_line_layout_with_and_without_cpu),
		cmocka_unit_test(test_console_repeats_header_every_30_lines),
		cmocka_unit_test(test_box_pads_lines_to_the_longest),
		cmocka_unit_test(test_io_error_line_matches_vdbench),
		cmocka_unit_test(test_name_links_sort_naturally_eight_per_line),
		cmocka_unit_test_setup_teardown(test_outdir_probe_leaves_nothing, in_tmpdir,
						leave_tmpdir),
		cmocka_unit_test_setup_teardown(test_outdir_refuses_what_ioramp_did_not_write,
						in_tmpdir, leave_tmpdir),
		cmocka_unit_test_setup_teardown(test_outdir_reuses_and_deletes_only_html, in_tmpdir,
						leave_tmpdir),
		cmocka_unit_test_setup_teardown(test_outdir_plus_takes_the_next_free_number,
						in_tmpdir, leave_tmpdir),
		cmocka_unit_test_setup_teardown(test_outdir_tod_appends_the_time, in_tmpdir,
						leave_tmpdir),
		cmocka_unit_test(test_flat_reads_and_selects),
		cmocka_unit_test(test_missed_point_lines),
		cmocka_unit_test(test_flat_rejects_unknown_columns_and_headerless_text),
	};

	setenv("TZ", "UTC", 1);
	tzset();
	return cmocka_run_group_tests_name("report_fmt", tests, NULL, NULL);
}
