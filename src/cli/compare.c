/* `ioramp compare DIR1 DIR2 [--fail-above PCT] [--html OUT]`: two executions' results side
 * by side (results.json, or a VDbench output's flatfile.html), run by run (so curve point by
 * curve point) and IOPS at latency curve by curve, with the difference in percent; with
 * --fail-above, exit 1 when a run's IOPS, mean or p99 service time differs by more than PCT
 * percent (a regression gate for scripts); with --html, the same on a page whose charts draw
 * both sides' curves together. */
#include "cli.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/report.h"
#include "ioramp/results.h"
#include "suite_dir.h"

static const char compare_usage[] =
	"usage: ioramp compare DIR1 DIR2 [--fail-above PCT] [--html OUT.html]\n"
	"\n"
	"Compares two executions' results.json (DIR may be the file itself, or a VDbench output\n"
	"directory, read from its flatfile.html): every run's IOPS and mean and p99 service\n"
	"time, and every curve's IOPS at latency, with the difference (B - A) / A in percent.\n"
	"Runs match by name and for-loop values, in order; loops may be listed in any order,\n"
	"and one that only one side names is not compared (a VDbench flatfile names only the\n"
	"loops whose values differ among a run's repeats). Two suites' directories (ioramp\n"
	"suite -o DIR) compare profile by profile.\n"
	"\n"
	"  --fail-above PCT   exit 1 when a run's IOPS, mean or p99 differs by more than PCT%\n"
	"  --html OUT.html    also a page: each curve both have on one chart, A's line and\n"
	"                     B's, and the runs with their differences\n"
	"\n"
	"Exit status: 0, 1 (a difference above --fail-above, or the page could not be\n"
	"written), 2 bad usage or unreadable input.\n";

struct side {
	json_t *doc;
	char path[4096];
	struct cli_suite_dir suite; /* a suite's directory: its profiles; else empty */
};

/* What --html draws, gathered as the table is printed. */
struct page {
	bool is_on;
	const char *prefix; /* of every key: "sql: " when suites are compared, else "" */
	int err;	    /* -ENOMEM when something could not be kept */
	struct rep_compare_row *rows;
	size_t nr_rows;
	struct rep_compare_curve *curves;
	size_t nr_curves;
	char **only;
	size_t nr_only;
};

/* Room for one more element of size sz in *arr, which holds *nr: the new one, zeroed, and
 * *nr counts it; NULL without memory (pg->err says so). */
static void *page_grow(struct page *pg, void **arr, size_t *nr, size_t sz)
{
	char *n = realloc(*arr, (*nr + 1) * sz);

	if (!n) {
		pg->err = -ENOMEM;
		return NULL;
	}
	*arr = n;
	memset(n + *nr * sz, 0, sz);
	return n + (*nr)++ * sz;
}

static void page_row(struct page *pg, const char *key, const double *a, const double *b)
{
	struct rep_compare_row *r;

	if (!pg->is_on || !(r = page_grow(pg, (void **)&pg->rows, &pg->nr_rows, sizeof(*r))))
		return;
	if (asprintf((char **)&r->key, "%s%s", pg->prefix, key) < 0)
		r->key = NULL;
	memcpy(r->a, a, sizeof(r->a));
	memcpy(r->b, b, sizeof(r->b));
	if (!r->key)
		pg->err = -ENOMEM;
}

static void page_curve(struct page *pg, const char *key, const json_t *a, const json_t *b)
{
	struct rep_compare_curve *c;

	if (!pg->is_on || !(c = page_grow(pg, (void **)&pg->curves, &pg->nr_curves, sizeof(*c))))
		return;
	*c = (struct rep_compare_curve){ .a = a, .b = b };
	if (asprintf((char **)&c->key, "%s%s", pg->prefix, key) < 0)
		c->key = NULL;
	if (!c->key)
		pg->err = -ENOMEM;
}

/* Prints "only in A: key" and keeps it for the page. */
static void only_in(struct page *pg, const char *side, const char *key)
{
	char **o;

	printf("only in %s: %s\n", side, key);
	if (!pg->is_on || !(o = page_grow(pg, (void **)&pg->only, &pg->nr_only, sizeof(*o))))
		return;
	if (asprintf(o, "only in %s: %s%s", side, pg->prefix, key) < 0) {
		*o = NULL;
		pg->err = -ENOMEM;
	}
}

static void page_fini(struct page *pg)
{
	for (size_t i = 0; i < pg->nr_rows; i++)
		free((char *)pg->rows[i].key);
	for (size_t i = 0; i < pg->nr_curves; i++)
		free((char *)pg->curves[i].key);
	for (size_t i = 0; i < pg->nr_only; i++)
		free(pg->only[i]);
	free(pg->rows);
	free(pg->curves);
	free(pg->only);
}

/* The largest difference seen, for the summary and --fail-above. */
struct worst {
	double pct; /* absolute value; INFINITY when one side is 0 */
	char what[400];
};

static int load(const char *arg, struct side *s)
{
	char err[512];

	if (cli_results_path(arg, s->path, sizeof(s->path))) {
		fprintf(stderr, "ioramp compare: error: %s: path too long\n", arg);
		return -EINVAL;
	}
	if (rep_doc_load(s->path, &s->doc, err, sizeof(err))) {
		fprintf(stderr, "ioramp compare: error: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

/* "5,000" or "896.9": grouped; latencies get one decimal below 1000. */
static const char *fmt(double v, bool is_latency, char *buf, size_t len)
{
	return rep_fmt_group(v, is_latency && fabs(v) < 1000 ? 1 : 0, buf, len);
}

/* What a column holds and whether --fail-above looks at it. */
enum col {
	COL_IOPS,    /* a run's IOPS: counted */
	COL_LATENCY, /* a run's latency: counted */
	COL_SLA,     /* an IOPS-at-latency answer: shown only */
};

/* Prints "A B diff" and tracks the largest difference of counted columns. */
static void triple(double a, double b, const char *what, enum col col, struct worst *w)
{
	bool is_counted = col != COL_SLA, is_latency = col == COL_LATENCY;
	char sa[32], sb[32], sd[16];
	double d = isnan(a) || isnan(b) ? NAN : a == b ? 0 : a == 0 ? INFINITY : (b - a) / a * 100;

	if (isnan(a) || isnan(b))
		snprintf(sd, sizeof(sd), "-");
	else if (isinf(d))
		snprintf(sd, sizeof(sd), "new");
	else
		snprintf(sd, sizeof(sd), "%+.1f%%", d);
	printf(" %10s %10s %7s", fmt(a, is_latency, sa, sizeof(sa)),
	       fmt(b, is_latency, sb, sizeof(sb)), sd);
	if (is_counted && !isnan(d) && fabs(d) > w->pct) {
		w->pct = fabs(d);
		if (isinf(d))
			snprintf(w->what, sizeof(w->what), "%s: %s against 0", what, sb);
		else
			snprintf(w->what, sizeof(w->what), "%s: %+.1f%%", what, d);
	}
}

/* A run's display name: its name and for-loop values. */
static void run_key(const json_t *run, char *buf, size_t len)
{
	const char *loops = rep_doc_str(run, "for_loops", "None");

	if (!strcmp(loops, "None"))
		snprintf(buf, len, "%s", rep_doc_str(run, "name", "?"));
	else
		snprintf(buf, len, "%s %s", rep_doc_str(run, "name", "?"), loops);
}

/* Whether value texts a[0, na) and b[0, nb) of one for-loop are the same: the same text,
 * or the same number ("70" and "70.0"). */
static bool loop_values_equal(const char *a, size_t na, const char *b, size_t nb)
{
	char sa[64], sb[64], *ea, *eb;
	double va, vb;

	if (na == nb && !memcmp(a, b, na))
		return true;
	snprintf(sa, sizeof(sa), "%.*s", (int)na, a);
	snprintf(sb, sizeof(sb), "%.*s", (int)nb, b);
	va = strtod(sa, &ea);
	vb = strtod(sb, &eb);
	return ea != sa && eb != sb && !*ea && !*eb && va == vb;
}

/* Whether every for-loop of la ("xfersize=4k threads=1", or "None") that lb names too has
 * the same value there, whatever the order: results.json lists a run's loops in its RD's
 * order, a VDbench flatfile only those whose values differ among a name's runs, in its
 * column order (threads, xfersize, rdpct, seekpct, iorate). */
static bool loops_agree(const char *la, const char *lb)
{
	for (const char *p = la; *p;) {
		size_t len = strcspn(p, " "), key_len = strcspn(p, "=");

		if (key_len < len) {
			for (const char *q = lb; *q;) {
				size_t qlen = strcspn(q, " ");

				if (qlen > key_len && q[key_len] == '=' &&
				    !memcmp(p, q, key_len + 1) &&
				    !loop_values_equal(p + key_len + 1, len - key_len - 1,
						       q + key_len + 1, qlen - key_len - 1))
					return false;
				q += qlen + (q[qlen] == ' ');
			}
		}
		p += len + (p[len] == ' ');
	}
	return true;
}

/* Pairs the entries of la (runs, or curves) with those of lb in order: each with the first
 * entry of lb not paired yet that has the same name_field and whose for-loops agree
 * (loops_agree). Returns for each entry of la its partner's index in lb or SIZE_MAX, and in
 * *is_paired_b which of lb's have one; NULL (and *is_paired_b NULL) without memory. */
static size_t *pair_entries(const json_t *la, const json_t *lb, const char *name_field,
			    bool **is_paired_b)
{
	size_t na = json_array_size(la), nb = json_array_size(lb);
	size_t *to_b = malloc((na ? na : 1) * sizeof(*to_b));
	const json_t *a;
	size_t i;

	*is_paired_b = calloc(nb ? nb : 1, sizeof(**is_paired_b));
	if (!to_b || !*is_paired_b) {
		free(to_b);
		free(*is_paired_b);
		*is_paired_b = NULL;
		return NULL;
	}
	json_array_foreach (la, i, a) {
		const char *name = rep_doc_str(a, name_field, "?");
		const char *loops = rep_doc_str(a, "for_loops", "None");

		to_b[i] = SIZE_MAX;
		for (size_t j = 0; j < nb && to_b[i] == SIZE_MAX; j++) {
			const json_t *b = json_array_get(lb, j);

			if (!(*is_paired_b)[j] && !strcmp(name, rep_doc_str(b, name_field, "?")) &&
			    loops_agree(loops, rep_doc_str(b, "for_loops", "None"))) {
				to_b[i] = j;
				(*is_paired_b)[j] = true;
			}
		}
	}
	return to_b;
}

static void compare_run(const json_t *a, const json_t *b, const char *key, int w,
			struct worst *worst, struct page *pg)
{
	static const struct {
		const char *path;
		const char *name;
	} cols[] = { { "average/total/iops", "IOPS" },
		     { "average/total/service/mean_us", "mean" },
		     { "average/total/service/percentiles_us/99", "p99" } };
	double va[REP_COMPARE_NR], vb[REP_COMPARE_NR];
	char what[320];
	/* an average of no interval (a format's "avg_2-1" in a flatfile) has no figures */
	bool is_empty_a = rep_doc_num(a, "average/nr_intervals") == 0,
	     is_empty_b = rep_doc_num(b, "average/nr_intervals") == 0;

	printf("%-*s", w, key);
	for (size_t c = 0; c < REP_COMPARE_NR; c++) {
		snprintf(what, sizeof(what), "%s%s %s", pg->prefix, key, cols[c].name);
		va[c] = is_empty_a ? NAN : rep_doc_num(a, cols[c].path);
		vb[c] = is_empty_b ? NAN : rep_doc_num(b, cols[c].path);
		triple(va[c], vb[c], what, c ? COL_LATENCY : COL_IOPS, worst);
	}
	putchar('\n');
	page_row(pg, key, va, vb);
}

static int name_width(const json_t *runs)
{
	char k[256];
	const json_t *r;
	size_t i, w = 12;

	json_array_foreach (runs, i, r) {
		run_key(r, k, sizeof(k));
		w = strlen(k) > w ? strlen(k) : w;
	}
	return (int)(w > 40 ? 40 : w);
}

static void compare_runs(const struct side *a, const struct side *b, struct worst *worst,
			 struct page *pg)
{
	const json_t *ra = json_object_get(a->doc, "runs"), *rb = json_object_get(b->doc, "runs");
	const json_t *r;
	int w = name_width(ra);
	bool *is_paired_b;
	size_t *to_b = pair_entries(ra, rb, "name", &is_paired_b);
	char key[256];
	size_t i;

	if (!to_b) {
		pg->err = -ENOMEM;
		return;
	}
	printf("%-*s %10s %10s %7s %10s %10s %7s %10s %10s %7s\n", w, "run", "IOPS A", "IOPS B",
	       "diff", "mean A", "mean B", "diff", "p99 A", "p99 B", "diff");
	json_array_foreach (ra, i, r) {
		run_key(r, key, sizeof(key));
		if (to_b[i] != SIZE_MAX)
			compare_run(r, json_array_get(rb, to_b[i]), key, w, worst, pg);
	}
	json_array_foreach (ra, i, r) {
		run_key(r, key, sizeof(key));
		if (to_b[i] == SIZE_MAX)
			only_in(pg, "A", key);
	}
	json_array_foreach (rb, i, r) {
		run_key(r, key, sizeof(key));
		if (!is_paired_b[i])
			only_in(pg, "B", key);
	}
	free(to_b);
	free(is_paired_b);
}

static void curve_key(const json_t *c, char *buf, size_t len)
{
	const char *loops = rep_doc_str(c, "for_loops", "None");

	if (!strcmp(loops, "None"))
		snprintf(buf, len, "%s", rep_doc_str(c, "rd", "?"));
	else
		snprintf(buf, len, "%s %s", rep_doc_str(c, "rd", "?"), loops);
}

/* An IOPS-at-latency answer as a number: NaN when not reached. */
static double sla_iops(const json_t *at)
{
	return strcmp(rep_doc_str(at, "status", "not_reached"), "not_reached")
		       ? rep_doc_num(at, "iops")
		       : NAN;
}

static void compare_sla(const json_t *ca, const json_t *cb, const char *key, int w,
			struct worst *worst)
{
	const json_t *ea, *eb;
	size_t i;

	json_array_foreach (json_object_get(ca, "sla"), i, ea) {
		double thr = rep_doc_num(ea, "threshold_us");
		char label[320];

		eb = json_array_get(json_object_get(cb, "sla"), i);
		if (!eb || rep_doc_num(eb, "threshold_us") != thr)
			continue;
		snprintf(label, sizeof(label), "%s", key);
		snprintf(label + strlen(label), sizeof(label) - strlen(label), " <");
		rep_sla_label(thr * 1e3, label + strlen(label), sizeof(label) - strlen(label));
		printf("%-*s", w, label);
		triple(sla_iops(rep_doc_get(ea, "service/mean")),
		       sla_iops(rep_doc_get(eb, "service/mean")), label, COL_SLA, worst);
		triple(sla_iops(rep_doc_get(ea, "service/p99")),
		       sla_iops(rep_doc_get(eb, "service/p99")), label, COL_SLA, worst);
		putchar('\n');
	}
}

static void compare_curves(const struct side *a, const struct side *b, struct worst *worst,
			   struct page *pg)
{
	const json_t *la = json_object_get(a->doc, "curves"),
		     *lb = json_object_get(b->doc, "curves");
	const json_t *c, *other;
	bool *is_paired_b;
	size_t *to_b;
	char key[256];
	size_t i;
	int w = 24;

	if (!json_array_size(la))
		return;
	to_b = pair_entries(la, lb, "rd", &is_paired_b);
	if (!to_b) {
		pg->err = -ENOMEM;
		return;
	}
	printf("\nIOPS at latency (service time; \"-\": not reached)\n%-*s %10s %10s %7s %10s %10s "
	       "%7s\n",
	       w, "curve, latency under", "mean A", "mean B", "diff", "p99 A", "p99 B", "diff");
	json_array_foreach (la, i, c) {
		curve_key(c, key, sizeof(key));
		other = to_b[i] == SIZE_MAX ? NULL : json_array_get(lb, to_b[i]);
		if (other) {
			compare_sla(c, other, key, w, worst);
			page_curve(pg, key, c, other);
		}
	}
	free(to_b);
	free(is_paired_b);
}

static int parse(int argc, char **argv, const char **dirs, double *fail_above, const char **html)
{
	size_t nr = 0;

	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
		if (!strcmp(argv[i], "--fail-above")) {
			if (i + 1 >= argc || (*fail_above = strtod(argv[++i], &end), *end) ||
			    !(*fail_above >= 0)) {
				fprintf(stderr, "ioramp compare: error: --fail-above needs a "
						"percentage (0 or more)\n");
				return -EINVAL;
			}
		} else if (!strcmp(argv[i], "--html")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ioramp compare: error: --html needs a file\n");
				return -EINVAL;
			}
			*html = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "ioramp compare: error: unknown option %s\n", argv[i]);
			return -EINVAL;
		} else if (nr < 2) {
			dirs[nr++] = argv[i];
		} else {
			nr++;
		}
	}
	if (nr != 2) {
		fputs(compare_usage, stderr);
		return -EINVAL;
	}
	return 0;
}

/* Two suites' directories, profile by profile (those both ran); the page's keys are
 * "PROFILE: run". Returns 0 or -EINVAL after saying why. */
static int compare_suites(const char *da, const char *db, struct worst *worst, struct page *pg,
			  struct side *a, struct side *b)
{
	struct cli_suite_dir sa, sb;
	char err[512], prefix[300];
	int ret = cli_suite_dir_load(da, &sa, err, sizeof(err));

	if (!ret && (ret = cli_suite_dir_load(db, &sb, err, sizeof(err))))
		cli_suite_dir_fini(&sa);
	if (ret) {
		fprintf(stderr, "ioramp compare: error: %s\n", err);
		return -EINVAL;
	}
	printf("A: %s (a suite of %zu profiles)\nB: %s (a suite of %zu profiles)\n", da, sa.nr, db,
	       sb.nr);
	for (size_t i = 0; i < sa.nr; i++) {
		size_t j = 0;

		while (j < sb.nr && strcmp(sa.p[i].name, sb.p[j].name))
			j++;
		if (j == sb.nr)
			continue;
		printf("\nprofile %s\n", sa.p[i].name);
		a->doc = sa.p[i].doc;
		b->doc = sb.p[j].doc;
		snprintf(prefix, sizeof(prefix), "%s: ", sa.p[i].name);
		pg->prefix = prefix;
		compare_runs(a, b, worst, pg);
		compare_curves(a, b, worst, pg);
		pg->prefix = "";
	}
	for (size_t i = 0, nr_only = 0; i < sa.nr + sb.nr; i++) {
		const struct cli_suite_dir *in = i < sa.nr ? &sa : &sb,
					   *other = i < sa.nr ? &sb : &sa;
		const char *name = in->p[i < sa.nr ? i : i - sa.nr].name;
		size_t j = 0;

		while (j < other->nr && strcmp(name, other->p[j].name))
			j++;
		if (j == other->nr) {
			snprintf(prefix, sizeof(prefix), "profile %s", name);
			fputs(nr_only++ ? "" : "\n", stdout);
			only_in(pg, i < sa.nr ? "A" : "B", prefix);
		}
	}
	/* the page is written before the documents go: keep them */
	a->doc = NULL;
	b->doc = NULL;
	a->suite = sa;
	b->suite = sb;
	snprintf(a->path, sizeof(a->path), "%s", da);
	snprintf(b->path, sizeof(b->path), "%s", db);
	return 0;
}

int cli_compare(int argc, char **argv)
{
	struct side a = { 0 }, b = { 0 };
	struct worst worst = { 0 };
	struct page pg = { 0 };
	const char *dirs[2], *html = NULL;
	double fail_above = -1;
	int ret = parse(argc, argv, dirs, &fail_above, &html), rc = CLI_EXIT_USAGE;

	if (ret > 0)
		fputs(compare_usage, stdout);
	if (ret)
		return ret > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	pg.is_on = html != NULL;
	pg.prefix = "";
	if (cli_suite_dir_is(dirs[0]) != cli_suite_dir_is(dirs[1])) {
		fprintf(stderr,
			"ioramp compare: error: %s is a suite's directory and %s is not; compare "
			"two suites, or a profile's directory (SUITE/PROFILE) with an execution\n",
			cli_suite_dir_is(dirs[0]) ? dirs[0] : dirs[1],
			cli_suite_dir_is(dirs[0]) ? dirs[1] : dirs[0]);
		goto out;
	}
	if (cli_suite_dir_is(dirs[0])) {
		if (compare_suites(dirs[0], dirs[1], &worst, &pg, &a, &b))
			goto out;
	} else {
		if (load(dirs[0], &a) || load(dirs[1], &b))
			goto out;
		printf("A: %s (started %s)\nB: %s (started %s)\n\n", a.path,
		       rep_doc_str(a.doc, "execution/start_time", "?"), b.path,
		       rep_doc_str(b.doc, "execution/start_time", "?"));
		compare_runs(&a, &b, &worst, &pg);
		compare_curves(&a, &b, &worst, &pg);
	}
	if (worst.what[0])
		printf("\nlargest run difference: %s\n", worst.what);
	rc = CLI_EXIT_OK;
	if (html) {
		struct rep_compare_request q = {
			.path_a = a.path,
			.path_b = b.path,
			.doc_a = a.doc ? a.doc : a.suite.p[0].doc,
			.doc_b = b.doc ? b.doc : b.suite.p[0].doc,
			.rows = pg.rows,
			.nr_rows = pg.nr_rows,
			.curves = pg.curves,
			.nr_curves = pg.nr_curves,
			.only = (const char *const *)pg.only,
			.nr_only = pg.nr_only,
			.html_path = html,
		};

		ret = pg.err ? pg.err : rep_compare_html_save(&q);
		fflush(stdout);
		if (ret) {
			fprintf(stderr, "ioramp compare: error: %s: cannot write: %s\n", html,
				strerror(-ret));
			rc = CLI_EXIT_FAILED;
			goto out;
		}
	}
	if (fail_above >= 0 && worst.pct > fail_above) {
		fflush(stdout); /* the verdict comes after the table, wherever both go */
		fprintf(stderr, "ioramp compare: %s is above --fail-above %g%%\n", worst.what,
			fail_above);
		rc = CLI_EXIT_FAILED;
	}
out:
	page_fini(&pg);
	cli_suite_dir_fini(&a.suite);
	cli_suite_dir_fini(&b.suite);
	json_decref(a.doc);
	json_decref(b.doc);
	return rc;
}
