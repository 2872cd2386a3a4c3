/* The review suite's page and console summary (src/report/suite.c), from the synthetic
 * executions of tests/data/report-own (a: 5,000 IOPS peak; b: 10% slower) and a profile that
 * did not run. */
#include <errno.h>
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

#include "ioramp/report.h"

#define DATA "tests/data/report-own"

static int count(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;

	assert_non_null(f);
	while ((c = getc(f)) != EOF)
		putc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

static const struct rep_suite_profile profiles[] = {
	{ .name = "sql",
	  .title = "SQL",
	  .results_path = DATA "/a/results.json",
	  .href = "sql/report.html",
	  .figures = "97% read \xc2\xb7 8k \xc2\xb7 32 threads per drive" },
	{ .name = "oracle",
	  .title = "Oracle",
	  .results_path = DATA "/b/results.json",
	  .href = "oracle/report.html" },
	{ .name = "vdi-fc-boot", .title = "VDI FC Boot" },
};

static const char *const drives[] = { "/dev/nvme0n1", "/dev/nvme1n1" };
static char *const argv[] = { "ioramp", "suite", "--drives", "/dev/nvme0n1,/dev/nvme1n1" };

static void request_init(struct rep_suite_request *req, const char *page)
{
	*req = (struct rep_suite_request){
		.html_path = page,
		.drives_label = "Drive <X> \xc3\x97"
				"2",
		.drives = drives,
		.nr_drives = 2,
		.argc = 4,
		.argv = argv,
		.profiles = profiles,
		.nr_profiles = 3,
		.status = 130,
	};
}

static void test_suite_page_charts_summary_and_sla(void **state)
{
	char dir[] = "/tmp/ioramp-test-suite.XXXXXX", page[256];
	struct rep_suite_request req;
	char *html;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(page, sizeof(page), "%s/report.html", dir);
	request_init(&req, page);
	assert_int_equal(rep_suite_write(&req), 0);
	html = slurp(page);
	/* Both profiles together (mean, p99), a mean, a p99 and a per-SD chart per profile that
	 * ran, one summary row per profile, an SLA table each. */
	assert_int_equal(count(html, "<svg"), 8);
	assert_int_equal(count(html, "aria-label=\"Per SD: IOPS vs average latency\""), 2);
	assert_non_null(strstr(html, "aria-label=\"All profiles: IOPS vs average latency\""));
	assert_non_null(
		strstr(html, "aria-label=\"All profiles: IOPS vs 99th percentile latency\""));
	assert_int_equal(count(html, "<table class=\"summary\">"), 1);
	assert_int_equal(count(html, "<table class=\"sla\">"), 2);
	assert_int_equal(count(html, "<tr><td class=\"t\"><a href=\"#p-"), 3);
	/* five points a profile, on its two charts and the two of every profile, and on each of
	 * its two SDs */
	assert_int_equal(count(html, "<circle class=\"pt\""), 60);
	assert_non_null(strstr(html, "<section id=\"p-vdi-fc-boot\">"));
	assert_non_null(strstr(html, "<td class=\"t\">not run</td>"));
	assert_non_null(strstr(html, "Peak <b>5,000 IOPS</b> at <b>800.8 \xc2\xb5s</b> mean"));
	assert_non_null(strstr(html, "<td>5,000</td><td>800.8</td><td>1,188</td>"));
	assert_non_null(strstr(html, "97% read \xc2\xb7 8k \xc2\xb7 32 threads per drive"));
	assert_non_null(strstr(html, "<a href=\"sql/report.html\">full report</a>"));
	assert_non_null(strstr(html, "Drive &lt;X&gt; \xc3\x97"
				     "2 \xe2\x80\x94 peak 5,000 IOPS"));
	assert_non_null(strstr(html, "<b>interrupted</b>"));
	assert_non_null(strstr(html, "<th>100 \xc2\xb5s</th>"));
	assert_null(strstr(html, "<script"));
	free(html);
	unlink(page);
	rmdir(dir);
}

static void test_suite_page_unwritable(void **state)
{
	struct rep_suite_request req;

	(void)state;
	request_init(&req, "/nonexistent/dir/report.html");
	assert_int_equal(rep_suite_write(&req), -ENOENT);
	assert_non_null(strstr(req.err, "/nonexistent/dir/report.html: cannot write:"));
}

static void test_suite_summary_on_the_console(void **state)
{
	struct rep_suite_request req;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	request_init(&req, "unused.html");
	rep_suite_print(&req, f);
	fclose(f);
	assert_non_null(strstr(out, "profile                  status        peak IOPS    mean us"
				    "      <=100us"));
	assert_non_null(
		strstr(out, "\nSQL                      completed         5,000      800.8"));
	assert_non_null(
		strstr(out, "\nVDI FC Boot              not run               -          -"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suite_page_charts_summary_and_sla),
		cmocka_unit_test(test_suite_page_unwritable),
		cmocka_unit_test(test_suite_summary_on_the_console),
	};

	return cmocka_run_group_tests_name("report_suite", tests, NULL, NULL);
}
