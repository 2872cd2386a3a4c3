/* histogram.html, <sd>.histogram.html and <wd>.histogram.html (reference §10.3): per run, the
 * service times of the non-warmup intervals in VDbench's buckets (histogram= or the default
 * 27), for reads and writes, reads, and writes, with counts, percentages and a bar of 50
 * characters: '+' for the bucket's share, '-' for the share below it. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vdbtext.h"

enum hist_kind {
	HIST_TOTAL,
	HIST_SD,
	HIST_WD,
};

struct hist_file {
	FILE *f;
	enum hist_kind kind;
	const char *name;
};

struct histogram {
	const struct rep_exec *x;
	struct stats_vdb_buckets defaults;
	size_t nr;
	struct hist_file files[];
};

static void bar(FILE *f, double pct, double below_pct)
{
	for (int i = 0; i < (int)(pct / 2); i++)
		fputc('+', f);
	for (int i = 0; i < (int)(below_pct / 2); i++)
		fputc('-', f);
}

static void section(FILE *f, const char *title, const struct stats_hist *h,
		    const struct stats_vdb_buckets *b)
{
	char heading[256];

	snprintf(heading, sizeof(heading), "%s:", title);
	rep_hist_section(f, heading, h, b);
}

void rep_hist_section(FILE *f, const char *heading, const struct stats_hist *h,
		      const struct stats_vdb_buckets *b)
{
	uint64_t counts[STATS_VDB_MAX_BOUNDS + 1], below = 0;
	char lo[32], hi[32], nr[32], pct[32], cum[32];
	double total = (double)h->nr;

	stats_vdb_rebin(b, h, counts);
	fprintf(f,
		"%s\n  min(ms) <     max(ms)         count       %%%%    cum%%%%  '+': Individual%%; "
		"'+-': Cumulative%%\n\n",
		heading);
	for (uint32_t i = 0; i <= b->nr_bounds; i++) {
		double p = total ? (double)counts[i] * 100.0 / total : 0;
		double below_pct = total ? (double)below * 100.0 / total : 0;

		below += counts[i];
		rep_jfmt(lo, sizeof(lo), 9, 3, i ? (double)b->bound_ns[i - 1] / 1e6 : 0);
		if (i < b->nr_bounds)
			rep_jfmt(hi, sizeof(hi), 11, 3, (double)b->bound_ns[i] / 1e6);
		else
			snprintf(hi, sizeof(hi), "%11s", "max");
		rep_jgroup(nr, sizeof(nr), counts[i]);
		fprintf(f, "%s < %s %13s %s %s  ", lo, hi, nr, rep_jfmt(pct, sizeof(pct), 8, 4, p),
			rep_jfmt(cum, sizeof(cum), 8, 4,
				 total ? (double)below * 100.0 / total : 0));
		bar(f, p, below_pct);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void write_run(struct histogram *hg, FILE *f, const struct stats_bank *b)
{
	rep_hist_write_run(f, hg->x->vdb_buckets ? hg->x->vdb_buckets : &hg->defaults, b);
}

void rep_hist_write_run(FILE *f, const struct stats_vdb_buckets *buckets,
			const struct stats_bank *b)
{
	struct stats_hist *both;

	if (!b || !(b->op[STATS_OP_READ].nr_ios + b->op[STATS_OP_WRITE].nr_ios)) {
		fprintf(f, "No statistics generated for this run.\n");
		return;
	}
	/* A one-direction run gets one section (VDbench: "Only reads done ..."). */
	if (!b->op[STATS_OP_WRITE].nr_ios) {
		section(f, "Only reads done for this workload", &b->op[STATS_OP_READ].svc, buckets);
		return;
	}
	if (!b->op[STATS_OP_READ].nr_ios) {
		section(f, "Only writes done for this workload", &b->op[STATS_OP_WRITE].svc,
			buckets);
		return;
	}
	both = calloc(1, sizeof(*both));
	if (both) {
		stats_hist_merge(both, &b->op[STATS_OP_READ].svc);
		stats_hist_merge(both, &b->op[STATS_OP_WRITE].svc);
		section(f, "Reads and writes", both, buckets);
		free(both);
	}
	section(f, "Reads", &b->op[STATS_OP_READ].svc, buckets);
	section(f, "Writes", &b->op[STATS_OP_WRITE].svc, buckets);
}

/* The bank of file hf in the run's average, NULL when it has none; *is_used: the run uses
 * its SD or WD. */
static const struct stats_bank *file_bank(const struct hist_file *hf, const struct rep_run *r,
					  const struct rep_sample *avg, bool *is_used)
{
	int idx;

	*is_used = true;
	if (hf->kind == HIST_TOTAL)
		return avg->total;
	if (hf->kind == HIST_SD) {
		idx = rep_name_find(r->sd_names, r->nr_sds, hf->name);
		*is_used = idx >= 0;
		return idx < 0 || !avg->sd ? NULL : &avg->sd[idx];
	}
	idx = rep_name_find(r->wd_names, r->nr_wds, hf->name);
	*is_used = idx >= 0;
	return idx < 0 || !avg->wd ? NULL : &avg->wd[idx];
}

static int histogram_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct histogram *hg = state;

	if (!hg || !e->avg)
		return 0;
	for (size_t i = 0; i < hg->nr; i++) {
		FILE *f = hg->files[i].f;
		bool is_used;
		const struct stats_bank *b = file_bank(&hg->files[i], r, e->avg, &is_used);

		fputc('\n', f);
		rep_html_anchor(f, r);
		fputc('\n', f);
		/* VDbench: no text for a run without this SD or WD, "No statistics" for one
		 * that did no I/O in the averaged intervals */
		if (is_used)
			write_run(hg, f, b);
		fflush(f);
	}
	return 0;
}

static int open_file(struct histogram *hg, enum hist_kind kind, const char *name)
{
	struct hist_file *hf = &hg->files[hg->nr];
	char file[1024];

	snprintf(file, sizeof(file), "%s.html", kind == HIST_TOTAL ? "histogram" : name);
	if (kind != HIST_TOTAL)
		snprintf(file, sizeof(file), "%s.histogram.html", name);
	hf->f = rep_html_open(hg->x, file);
	if (!hf->f)
		return -errno;
	hf->kind = kind;
	hf->name = name;
	hg->nr++;
	if (kind == HIST_TOTAL)
		fprintf(hf->f, "Total response time histogram.\n\n\n");
	else if (kind == HIST_SD)
		fprintf(hf->f, "SD response time histogram.\n\n\n");
	else
		fprintf(hf->f, "wd=%s response time histogram.\n\n\n", name);
	rep_html_run_links(hf->f, hg->x);
	fputc('\n', hf->f);
	fflush(hf->f);
	return 0;
}

static int histogram_close(void *state, int status);

static int open_files(struct histogram *hg)
{
	size_t nr_sds, nr_wds;
	const char **sds = rep_sd_report_names(hg->x, &nr_sds);
	const char **wds = rep_wd_report_names(hg->x, &nr_wds);
	int ret = open_file(hg, HIST_TOTAL, NULL);

	for (size_t i = 0; !ret && i < nr_sds; i++)
		ret = open_file(hg, HIST_SD, sds[i]);
	for (size_t i = 0; !ret && i < nr_wds; i++)
		ret = open_file(hg, HIST_WD, wds[i]);
	free(sds);
	free(wds);
	return ret;
}

static int histogram_open(const struct rep_exec *x, void **state)
{
	size_t nr = 1 + (x->cfg ? x->cfg->nr_sds + x->cfg->nr_wds : 0);
	struct histogram *hg;
	int ret;

	*state = NULL;
	if (!x->outdir)
		return 0;
	hg = calloc(1, sizeof(*hg) + nr * sizeof(hg->files[0]));
	if (!hg)
		return -ENOMEM;
	hg->x = x;
	stats_vdb_default(&hg->defaults);
	ret = open_files(hg);
	if (ret < 0) {
		histogram_close(hg, 1);
		return ret;
	}
	*state = hg;
	return 0;
}

static int histogram_close(void *state, int status)
{
	struct histogram *hg = state;
	int ret = 0;

	(void)status;
	if (!hg)
		return 0;
	for (size_t i = 0; i < hg->nr; i++) {
		int r = rep_html_close(hg->files[i].f);

		if (r < 0 && !ret)
			ret = r;
	}
	free(hg);
	return ret;
}

const struct rep_ops rep_histogram = {
	.name = "histogram",
	.file = "histogram.html",
	.open = histogram_open,
	.run_end = histogram_run_end,
	.close = histogram_close,
};
