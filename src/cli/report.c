/* `ioramp report DIR [-o page.html] [--overlay NAME=FILE.csv ...]`: renders report.html again
 * from a saved results.json, optionally with published curves drawn beside the measured
 * ones. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioramp/report.h"
#include "suite_dir.h"

static const char report_usage[] =
	"usage: ioramp report DIR [-o PAGE.html] [--overlay NAME=FILE.csv [--overlay-unit us|ms]\n"
	"                     [--overlay-label TEXT] ...]\n"
	"\n"
	"Renders DIR/report.html (or PAGE.html) from DIR/results.json. DIR may also be the\n"
	"results.json file itself, a VDbench output directory (or its flatfile.html), or a\n"
	"suite's output directory (ioramp suite -o DIR: the suite page again).\n"
	"\n"
	"  -o PAGE.html              where to write the page (default: DIR/report.html)\n"
	"  --overlay NAME=FILE.csv   a published curve, drawn dashed on every IOPS/average\n"
	"                            latency chart: one IOPS,latency pair per line (IOPS may\n"
	"                            end in k or M), # comments, a header iops,latency_us or\n"
	"                            iops,latency_ms; drawn in IOPS order. On a suite's\n"
	"                            directory NAME is a profile's: drawn on its chart only\n"
	"  --overlay-unit us|ms      the latency unit of the last --overlay (for a file without\n"
	"                            a header)\n"
	"  --overlay-label TEXT      the legend of the last --overlay (default: NAME (published))\n"
	"\n"
	"Exit status: 0 written, 1 the page could not be written, 2 bad usage or input.\n";

int cli_results_path(const char *arg, char *buf, size_t len)
{
	struct stat st;
	int n;

	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		n = snprintf(buf, len, "%s/results.json", arg);
		if (n >= 0 && (size_t)n < len && access(buf, F_OK)) { /* VDbench's own output */
			char flat[4096];

			if (snprintf(flat, sizeof(flat), "%s/flatfile.html", arg) < (int)sizeof(flat) &&
			    !access(flat, F_OK))
				n = snprintf(buf, len, "%s", flat);
		}
	} else
		n = snprintf(buf, len, "%s", arg);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The directory a results path lives in, for the default page. */
static void default_page(const char *results, char *buf, size_t len)
{
	const char *slash = strrchr(results, '/');

	if (slash)
		snprintf(buf, len, "%.*s/report.html", (int)(slash - results), results);
	else
		snprintf(buf, len, "report.html");
}

/* The directory part of path, "." for none. */
static void dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == path)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

/* The way from the page's directory to the results' directory, ending in '/', for the links
 * to the files beside results.json ("../out/"); "" when both are one directory. When either
 * cannot be resolved: the results' directory as an absolute path. */
static void files_href(const char *results, const char *page, char *buf, size_t len)
{
	char rdir[4096], pdir[4096], *r, *p;
	size_t common = 0, n = 0;

	dir_of(results, rdir, sizeof(rdir));
	dir_of(page, pdir, sizeof(pdir));
	r = realpath(rdir, NULL);
	p = realpath(pdir, NULL);
	buf[0] = '\0';
	if (!r || !p) {
		if (r)
			snprintf(buf, len, "%s/", r);
		goto out;
	}
	if (!strcmp(r, "/")) /* the root has no component */
		r[0] = '\0';
	if (!strcmp(p, "/"))
		p[0] = '\0';
	/* the longest leading run of whole components both share */
	for (size_t i = 0;; i++) {
		bool r_end = !r[i] || r[i] == '/', p_end = !p[i] || p[i] == '/';

		if (r_end && p_end)
			common = i;
		if (!r[i] || !p[i] || r[i] != p[i])
			break;
	}
	for (const char *c = p + common; *c; c++) /* one "../" per component left in p */
		if (*c == '/' && n + 4 < len) {
			memcpy(buf + n, "../", 4);
			n += 3;
		}
	if (r[common] && n < len) /* then down into what is left of r */
		n += (size_t)snprintf(buf + n, len - n, "%s/", r + common + 1);
out:
	free(r);
	free(p);
}

struct report_args {
	const char *dir;
	const char *page;
	struct rep_overlay *ov;
	size_t nr_ov;
};

static int add_overlay(struct report_args *a, char *spec)
{
	char *eq = strchr(spec, '=');
	struct rep_overlay *n;

	if (!eq || eq == spec || !eq[1]) {
		fprintf(stderr, "ioramp report: error: --overlay %s; expected NAME=FILE.csv\n",
			spec);
		return -EINVAL;
	}
	n = realloc(a->ov, (a->nr_ov + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	a->ov = n;
	*eq = '\0';
	a->ov[a->nr_ov++] = (struct rep_overlay){ .name = spec, .path = eq + 1 };
	return 0;
}

/* --overlay-unit or --overlay-label: of the last --overlay. */
static int overlay_option(struct report_args *a, const char *opt, const char *value)
{
	struct rep_overlay *ov = a->nr_ov ? &a->ov[a->nr_ov - 1] : NULL;

	if (!ov) {
		fprintf(stderr, "ioramp report: error: %s %s: expected after an --overlay\n", opt,
			value);
		return -EINVAL;
	}
	if (!strcmp(opt, "--overlay-label")) {
		ov->label = value;
		return 0;
	}
	if (!strcmp(value, "us"))
		ov->unit_us = 1;
	else if (!strcmp(value, "ms"))
		ov->unit_us = 1000;
	else {
		fprintf(stderr, "ioramp report: error: --overlay-unit %s; expected us or ms\n",
			value);
		return -EINVAL;
	}
	return 0;
}

/* Returns 0, 1 for --help, or -EINVAL after printing the problem. */
static int parse(struct report_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
			return 1;
		if ((!strcmp(arg, "-o") || !strcmp(arg, "--overlay") ||
		     !strcmp(arg, "--overlay-unit") || !strcmp(arg, "--overlay-label")) &&
		    i + 1 >= argc) {
			fprintf(stderr, "ioramp report: error: %s needs a value\n", arg);
			return -EINVAL;
		}
		if (!strcmp(arg, "-o")) {
			a->page = argv[++i];
		} else if (!strcmp(arg, "--overlay")) {
			if (add_overlay(a, argv[++i]))
				return -EINVAL;
		} else if (!strncmp(arg, "--overlay=", 10)) {
			if (add_overlay(a, argv[i] + 10))
				return -EINVAL;
		} else if (!strcmp(arg, "--overlay-unit") || !strcmp(arg, "--overlay-label")) {
			if (overlay_option(a, arg, argv[++i]))
				return -EINVAL;
		} else if (arg[0] == '-' && arg[1]) {
			fprintf(stderr, "ioramp report: error: unknown option %s\n", arg);
			return -EINVAL;
		} else if (a->dir) {
			fprintf(stderr,
				"ioramp report: error: one results directory only; got %s "
				"and %s\n",
				a->dir, arg);
			return -EINVAL;
		} else {
			a->dir = arg;
		}
	}
	if (!a->dir) {
		fputs(report_usage, stderr);
		return -EINVAL;
	}
	return 0;
}

/* `ioramp report SUITEDIR`: the suite page again, from its profiles' results.json, with each
 * --overlay on the chart of the profile it names. */
static int report_suite(const struct report_args *a)
{
	struct cli_suite_dir sd;
	struct cli_suite_dir_page pg = { .ov = a->ov, .nr_ov = a->nr_ov };
	char page[4096], at[4200], href[4096], err[512];
	int ret;

	ret = cli_suite_dir_load(a->dir, &sd, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "ioramp report: error: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	snprintf(page, sizeof(page), "%s", a->page ? a->page : "");
	if (!a->page)
		snprintf(page, sizeof(page), "%s/report.html", a->dir);
	snprintf(at, sizeof(at), "%s/report.html", a->dir);
	files_href(at, page, href, sizeof(href));
	pg.page = page;
	pg.href_prefix = href;
	ret = cli_suite_dir_report(&sd, &pg);
	cli_suite_dir_fini(&sd);
	if (ret) {
		fprintf(stderr, "ioramp report: error: %s\n", pg.err);
		return pg.is_write_error || ret == -ENOMEM ? CLI_EXIT_FAILED : CLI_EXIT_USAGE;
	}
	printf("%s\n", page);
	return CLI_EXIT_OK;
}

int cli_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct rep_html_request req = { 0 };
	char results[4096], page[4096], href[4096];
	int ret = parse(&a, argc, argv);

	if (ret) {
		if (ret > 0)
			fputs(report_usage, stdout);
		free(a.ov);
		return ret > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	}
	if (cli_suite_dir_is(a.dir)) {
		ret = report_suite(&a);
		free(a.ov);
		return ret;
	}
	if (cli_results_path(a.dir, results, sizeof(results))) {
		fprintf(stderr, "ioramp report: error: %s: path too long\n", a.dir);
		free(a.ov);
		return CLI_EXIT_USAGE;
	}
	if (a.page)
		snprintf(page, sizeof(page), "%s", a.page);
	else
		default_page(results, page, sizeof(page));
	files_href(results, page, href, sizeof(href));
	req = (struct rep_html_request){ .results_path = results,
					 .html_path = page,
					 .files_href = href,
					 .ov = a.ov,
					 .nr_ov = a.nr_ov };
	ret = rep_html_write(&req);
	free(a.ov);
	if (ret) {
		fprintf(stderr, "ioramp report: error: %s\n", req.err);
		return req.is_write_error ? CLI_EXIT_FAILED : CLI_EXIT_USAGE;
	}
	printf("%s\n", page);
	return CLI_EXIT_OK;
}
