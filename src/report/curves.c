/* The rep_curves observer: curves.csv in the output directory (one row per curve point, for
 * a spreadsheet or gnuplot), rewritten after every run, and the end-of-curve block on the
 * console as each curve ends, both from the execution's results document. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"

struct curves_state {
	const struct rep_exec *x;
	struct rep_doc *doc;
	char path[4096]; /* empty: no output directory */
};

/* Writes a field as CSV wants it: quoted when it holds a comma, quote or line break. */
static void csv_text(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* ",value" with the given decimals, or "," alone when absent. */
static void csv_num(FILE *f, const json_t *o, const char *path, int decimals)
{
	double v = rep_doc_num(o, path);

	if (v == v)
		fprintf(f, ",%.*f", decimals, v);
	else
		fputc(',', f);
}

static void csv_latency(FILE *f, const json_t *p, const char *which)
{
	static const char *const keys[] = { "mean_us", "percentiles_us/50", "percentiles_us/99",
					    "percentiles_us/99.9", "percentiles_us/99.99" };
	char path[64];

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(keys); i++) {
		snprintf(path, sizeof(path), "%s/%s", which, keys[i]);
		csv_num(f, p, path, 3);
	}
}

int rep_doc_curves_csv(const json_t *doc, FILE *f)
{
	const json_t *curves = json_object_get(doc, "curves"), *c, *p;
	char name[256];
	size_t i, j;

	fputs("curve,curve_name,run,pct,target_iops,iops,mb_per_sec,read_pct,qdepth,"
	      "svc_mean_us,svc_p50_us,svc_p99_us,svc_p99.9_us,svc_p99.99_us,"
	      "resp_mean_us,resp_p50_us,resp_p99_us,resp_p99.9_us,resp_p99.99_us,target_met,"
	      "limited_by\n",
	      f);
	json_array_foreach (curves, i, c) {
		rep_doc_curve_name(c, name, sizeof(name));
		json_array_foreach (json_object_get(c, "points"), j, p) {
			fprintf(f, "%zu,", i + 1);
			csv_text(f, name);
			fputc(',', f);
			csv_text(f, rep_doc_str(p, "name", ""));
			csv_num(f, p, "pct", 1);
			csv_num(f, p, "target_iops", 0);
			csv_num(f, p, "iops", 2);
			csv_num(f, p, "mb_per_sec", 3);
			csv_num(f, p, "read_pct", 2);
			csv_num(f, p, "qdepth", 2);
			csv_latency(f, p, "service");
			csv_latency(f, p, "response");
			fprintf(f, ",%s,", json_is_false(json_object_get(p, "is_target_met")) ? "no"
												 : "yes");
			csv_text(f, rep_doc_str(p, "limited_by", ""));
			fputc('\n', f);
		}
	}
	return ferror(f) ? -EIO : 0;
}

static int write_csv(FILE *f, const void *doc)
{
	return rep_doc_curves_csv(doc, f);
}

static int csv_save(struct curves_state *s)
{
	return s->path[0] ? rep_replace_file(s->path, write_csv, rep_doc_root(s->doc)) : 0;
}

/* Prints the curves that ended since the last call: a curve always, a series from 2 points. */
static void print_ended(struct curves_state *s)
{
	const json_t *c;

	while ((c = rep_doc_next_ended(s->doc))) {
		bool is_curve = !strcmp(rep_doc_str(c, "kind", ""), "curve");

		if (s->x->console &&
		    (is_curve || json_array_size(json_object_get(c, "points")) > 1))
			rep_doc_curve_print(s->doc, c, s->x->console);
		else if (s->x->console) /* a lone iorate= run: only what it missed */
			rep_doc_curve_print_missed(c, s->x->console);
	}
}

static int curves_open(const struct rep_exec *x, struct rep_doc *doc, void **state)
{
	struct curves_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->x = x;
	s->doc = doc;
	if (x->outdir && snprintf(s->path, sizeof(s->path), "%s/curves.csv", x->outdir) >=
				 (int)sizeof(s->path)) {
		free(s);
		return -ENAMETOOLONG;
	}
	*state = s;
	return 0;
}

static int curves_run_start(void *state, const struct rep_run *r)
{
	(void)r;
	print_ended(state);
	return 0;
}

static int curves_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct curves_state *s = state;
	int saved = csv_save(s);

	(void)r;
	(void)e;
	print_ended(s);
	return saved;
}

static int curves_close(void *state, int status)
{
	struct curves_state *s = state;
	int ret;

	(void)status; /* the set closed the document with it: its last curve has ended */
	if (!s)
		return 0;
	print_ended(s);
	ret = csv_save(s);
	free(s);
	return ret;
}

const struct rep_ops rep_curves = {
	.name = "curves",
	.file = "curves.csv",
	.open_doc = curves_open,
	.run_start = curves_run_start,
	.run_end = curves_run_end,
	.close = curves_close,
};
