/* The per-SD reports <sd>.html and per-WD reports <wd>.html (reference §10.2): each run's
 * anchor, then the interval and average lines of that SD or WD in the console layout (WDs
 * as rep_wd_report_names says). */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>

#include "vdbtext.h"

struct detail_file {
	FILE *f;
	const char *name;
	int run_idx; /* the SD's or WD's index in the current run; -1: not in it */
	uint32_t nr_lines;
};

struct detail {
	const struct rep_exec *x;
	bool is_wd;
	size_t nr;
	struct detail_file files[];
};

static int detail_close(void *state, int status);

static int open_one(struct detail *d, const char *name)
{
	struct detail_file *df = &d->files[d->nr];
	char file[1024];

	snprintf(file, sizeof(file), "%s.html", name);
	df->f = rep_html_open(d->x, file);
	if (!df->f)
		return -errno;
	df->name = name;
	df->run_idx = -1;
	d->nr++;
	fprintf(df->f, d->is_wd ? "Workload Report for wd=%s\n\n" : "SD report for sd=%s\n\n",
		name);
	fprintf(df->f,
		"Link to response time histogram: <A HREF=\"%s.histogram.html\">histogram</A>\n\n",
		name);
	rep_html_run_links(df->f, d->x);
	fputc('\n', df->f);
	fflush(df->f);
	return 0;
}

static int detail_open(const struct rep_exec *x, bool is_wd, void **state)
{
	size_t nr;
	const char **names = is_wd ? rep_wd_report_names(x, &nr) : rep_sd_report_names(x, &nr);
	struct detail *d;
	int ret = 0;

	*state = NULL;
	if (!x->outdir || !nr) {
		free(names);
		return 0;
	}
	d = calloc(1, sizeof(*d) + nr * sizeof(d->files[0]));
	if (!d) {
		free(names);
		return -ENOMEM;
	}
	d->x = x;
	d->is_wd = is_wd;
	for (size_t i = 0; !ret && i < nr; i++)
		ret = open_one(d, names[i]);
	free(names);
	if (ret < 0) {
		detail_close(d, 1);
		return ret;
	}
	*state = d;
	return 0;
}

static int sd_open(const struct rep_exec *x, void **state)
{
	return detail_open(x, false, state);
}

static int wd_open(const struct rep_exec *x, void **state)
{
	return detail_open(x, true, state);
}

static int detail_run_start(void *state, const struct rep_run *r)
{
	struct detail *d = state;

	for (size_t i = 0; d && i < d->nr; i++) {
		struct detail_file *df = &d->files[i];

		df->run_idx = d->is_wd ? rep_name_find(r->wd_names, r->nr_wds, df->name)
				       : rep_name_find(r->sd_names, r->nr_sds, df->name);
		df->nr_lines = 0;
		fputc('\n', df->f);
		rep_html_anchor(df->f, r);
		fputc('\n', df->f);
		fflush(df->f);
	}
	return 0;
}

static void detail_line(struct detail *d, struct detail_file *df, const struct rep_sample *s)
{
	static const struct stats_bank idle; /* an SD the run does not use: no I/O */
	const struct stats_bank *banks = d->is_wd ? s->wd : s->sd;

	/* VDbench 5.04.07: an SD's page has a line of zeros (and the host's cpu) for each
	 * interval of a run without it, no average; a WD's page has nothing */
	if (df->run_idx < 0 && !d->is_wd && !s->is_avg) {
		if (df->nr_lines % 30 == 0)
			rep_header_print(df->f, d->x, s->tod_ns, s->has_cpu);
		df->nr_lines++;
		rep_line_print(df->f, d->x, s, &idle);
		fflush(df->f);
		return;
	}
	if (df->run_idx < 0 || !banks)
		return;
	if (df->nr_lines % 30 == 0 && !(s->is_avg && df->nr_lines))
		rep_header_print(df->f, d->x, s->tod_ns, s->has_cpu);
	if (!s->is_avg)
		df->nr_lines++;
	rep_line_print(df->f, d->x, s, &banks[df->run_idx]);
	fflush(df->f);
}

static int detail_interval(void *state, const struct rep_run *r, const struct rep_sample *s)
{
	struct detail *d = state;

	(void)r;
	for (size_t i = 0; d && i < d->nr; i++)
		detail_line(d, &d->files[i], s);
	return 0;
}

static int detail_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct detail *d = state;

	(void)r;
	for (size_t i = 0; d && e->avg && i < d->nr; i++)
		detail_line(d, &d->files[i], e->avg);
	return 0;
}

static int detail_close(void *state, int status)
{
	struct detail *d = state;
	int ret = 0;

	(void)status;
	if (!d)
		return 0;
	for (size_t i = 0; i < d->nr; i++) {
		int r = rep_html_close(d->files[i].f);

		if (r < 0 && !ret)
			ret = r;
	}
	free(d);
	return ret;
}

const struct rep_ops rep_sdreport = {
	.name = "sdreport",
	.open = sd_open,
	.run_start = detail_run_start,
	.interval = detail_interval,
	.run_end = detail_run_end,
	.close = detail_close,
};

const struct rep_ops rep_wdreport = {
	.name = "wdreport",
	.open = wd_open,
	.run_start = detail_run_start,
	.interval = detail_interval,
	.run_end = detail_run_end,
	.close = detail_close,
};
