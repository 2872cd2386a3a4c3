/* `ioramp compare DIR1 DIR2 [--fail-above PCT]`: two executions' results.json side by side,
 * run by run (so curve point by curve point) and IOPS at latency curve by curve, with the
 * difference in percent; with --fail-above, exit 1 when a run's IOPS, mean or p99 service
 * time differs by more than PCT percent (a regression gate for scripts). */
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

static const char compare_usage[] =
	"usage: ioramp compare DIR1 DIR2 [--fail-above PCT]\n"
	"\n"
	"Compares two executions' results.json (DIR may be the file itself): every run's IOPS\n"
	"and mean and p99 service time, and every curve's IOPS at latency, with the difference\n"
	"(B - A) / A in percent. Runs match by name and for-loop values, in order.\n"
	"\n"
	"  --fail-above PCT   exit 1 when a run's IOPS, mean or p99 differs by more than PCT%\n"
	"\n"
	"Exit status: 0, 1 (a difference above --fail-above), 2 bad usage or unreadable input.\n";

struct side {
	json_t *doc;
	char path[4096];
};

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
	double d = a == b ? 0 : a == 0 ? INFINITY : (b - a) / a * 100;

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

/* The n-th (0-based) entry of list whose key is key, or NULL. */
static const json_t *nth_with_key(const json_t *list, const char *key, size_t n,
				  void (*key_of)(const json_t *, char *, size_t))
{
	char k[256];
	const json_t *e;
	size_t i;

	json_array_foreach (list, i, e) {
		key_of(e, k, sizeof(k));
		if (!strcmp(k, key) && n-- == 0)
			return e;
	}
	return NULL;
}

/* How many entries before index idx of list have the same key as entry idx. */
static size_t occurrence(const json_t *list, size_t idx,
			 void (*key_of)(const json_t *, char *, size_t))
{
	char k[256], other[256];
	size_t nr = 0;

	key_of(json_array_get(list, idx), k, sizeof(k));
	for (size_t i = 0; i < idx; i++) {
		key_of(json_array_get(list, i), other, sizeof(other));
		nr += !strcmp(k, other);
	}
	return nr;
}

static void compare_run(const json_t *a, const json_t *b, const char *key, int w,
			struct worst *worst)
{
	static const struct {
		const char *path;
		const char *name;
	} cols[] = { { "average/total/iops", "IOPS" },
		     { "average/total/service/mean_us", "mean" },
		     { "average/total/service/percentiles_us/99", "p99" } };
	char what[320];

	printf("%-*s", w, key);
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		snprintf(what, sizeof(what), "%s %s", key, cols[c].name);
		triple(rep_doc_num(a, cols[c].path), rep_doc_num(b, cols[c].path), what,
		       c ? COL_LATENCY : COL_IOPS, worst);
	}
	putchar('\n');
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

static void compare_runs(const struct side *a, const struct side *b, struct worst *worst)
{
	const json_t *ra = json_object_get(a->doc, "runs"), *rb = json_object_get(b->doc, "runs");
	const json_t *r, *other;
	int w = name_width(ra);
	char key[256];
	size_t i;

	printf("%-*s %10s %10s %7s %10s %10s %7s %10s %10s %7s\n", w, "run", "IOPS A", "IOPS B",
	       "diff", "mean A", "mean B", "diff", "p99 A", "p99 B", "diff");
	json_array_foreach (ra, i, r) {
		run_key(r, key, sizeof(key));
		other = nth_with_key(rb, key, occurrence(ra, i, run_key), run_key);
		if (other)
			compare_run(r, other, key, w, worst);
	}
	json_array_foreach (ra, i, r) {
		run_key(r, key, sizeof(key));
		if (!nth_with_key(rb, key, occurrence(ra, i, run_key), run_key))
			printf("only in A: %s\n", key);
	}
	json_array_foreach (rb, i, r) {
		run_key(r, key, sizeof(key));
		if (!nth_with_key(ra, key, occurrence(rb, i, run_key), run_key))
			printf("only in B: %s\n", key);
	}
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

static void compare_curves(const struct side *a, const struct side *b, struct worst *worst)
{
	const json_t *la = json_object_get(a->doc, "curves"),
		     *lb = json_object_get(b->doc, "curves");
	const json_t *c, *other;
	char key[256];
	size_t i;
	int w = 24;

	if (!json_array_size(la))
		return;
	printf("\nIOPS at latency (service time; \"-\": not reached)\n%-*s %10s %10s %7s %10s %10s "
	       "%7s\n",
	       w, "curve, latency under", "mean A", "mean B", "diff", "p99 A", "p99 B", "diff");
	json_array_foreach (la, i, c) {
		curve_key(c, key, sizeof(key));
		other = nth_with_key(lb, key, occurrence(la, i, curve_key), curve_key);
		if (other)
			compare_sla(c, other, key, w, worst);
	}
}

static int parse(int argc, char **argv, const char **dirs, double *fail_above)
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

int cli_compare(int argc, char **argv)
{
	struct side a = { 0 }, b = { 0 };
	struct worst worst = { 0 };
	const char *dirs[2];
	double fail_above = -1;
	int ret = parse(argc, argv, dirs, &fail_above), rc = CLI_EXIT_USAGE;

	if (ret > 0)
		fputs(compare_usage, stdout);
	if (ret)
		return ret > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	if (load(dirs[0], &a) || load(dirs[1], &b))
		goto out;
	printf("A: %s (started %s)\nB: %s (started %s)\n\n", a.path,
	       rep_doc_str(a.doc, "execution/start_time", "?"), b.path,
	       rep_doc_str(b.doc, "execution/start_time", "?"));
	compare_runs(&a, &b, &worst);
	compare_curves(&a, &b, &worst);
	if (worst.what[0])
		printf("\nlargest run difference: %s\n", worst.what);
	rc = CLI_EXIT_OK;
	if (fail_above >= 0 && worst.pct > fail_above) {
		fflush(stdout); /* the verdict comes after the table, wherever both go */
		fprintf(stderr, "ioramp compare: %s is above --fail-above %g%%\n", worst.what,
			fail_above);
		rc = CLI_EXIT_FAILED;
	}
out:
	json_decref(a.doc);
	json_decref(b.doc);
	return rc;
}
