/* The views of a file-system execution, as VDbench 5.04.07 writes them (observed): the total
 * (the console and histogram.html), one per FSD (<fsd>.html, <fsd>.histogram.html) and one
 * per FWD (<fwd>.html, <fwd>.histogram.html; "format" for the format runs' own work). Every
 * page holds every run: a run anchor, the console heading, one line per interval, the avg,
 * std and max lines (zeros where the run does not use it); a histogram holds, per work run,
 * the requested operations of the counted intervals. */
#include "fs_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/report.h"

static int view_add(struct fs_views *v, enum fs_view_kind kind, const char *name)
{
	struct fs_view *w;
	void *n = realloc(v->views, (v->nr + 1) * sizeof(*v->views));

	if (!n)
		return -ENOMEM;
	v->views = n;
	w = &v->views[v->nr++];
	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->name = name;
	w->lat = calloc(1, sizeof(*w->lat));
	w->svc = calloc(1, sizeof(*w->svc));
	return w->lat && w->svc ? 0 : -ENOMEM;
}

static bool run_uses_fsd(const struct fs_run *r, const char *name)
{
	for (size_t k = 0; k < r->nr_fsds; k++)
		if (r->fsds[k].name == name)
			return true;
	return false;
}

static bool run_uses_fwd(const struct fs_run *r, const char *name)
{
	for (size_t k = 0; k < r->nr_fwds; k++) /* a format run's too (format=only) */
		if (!strcmp(r->fwds[k].name, name))
			return true;
	return false;
}

/* The views: the total, each FSD and FWD some run uses (config order), "format" when a
 * format run exists. */
static int views_make(struct fs_views *v, const struct fs_plan *p)
{
	const struct parm_fs *fs = p->cfg->fs;
	bool has_format = false;
	int ret = view_add(v, FS_VIEW_TOTAL, "histogram");

	for (size_t i = 0; !ret && i < fs->nr_fsds; i++) {
		bool used = false;

		for (size_t r = 0; r < p->nr_runs; r++)
			used |= run_uses_fsd(&p->runs[r], fs->fsds[i].name);
		if (used)
			ret = view_add(v, FS_VIEW_FSD, fs->fsds[i].name);
	}
	for (size_t r = 0; r < p->nr_runs; r++)
		has_format |= p->runs[r].kind == FS_RUN_FORMAT;
	if (!ret && has_format)
		ret = view_add(v, FS_VIEW_FWD, "format");
	for (size_t i = 0; !ret && i < fs->nr_fwds; i++) {
		bool used = false;

		for (size_t r = 0; r < p->nr_runs; r++)
			used |= run_uses_fwd(&p->runs[r], fs->fwds[i].name);
		if (used && strcmp(fs->fwds[i].name, "format"))
			ret = view_add(v, FS_VIEW_FWD, fs->fwds[i].name);
	}
	return ret;
}

static int pages_open(struct fs_views *v, const char *dir, const struct fs_plan *p)
{
	struct rep_run_link *links = calloc(p->nr_runs ? p->nr_runs : 1, sizeof(*links));

	if (!links)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_runs; i++)
		links[i] = (struct rep_run_link){
			p->runs[i].name,
			p->runs[i].kind == FS_RUN_FORMAT ? "None" : p->runs[i].for_loops, i
		};
	for (size_t i = 0; i < v->nr; i++) {
		struct fs_view *w = &v->views[i];
		const char *what = w->kind == FS_VIEW_FSD ? "fsd" : "fwd";
		char file[300];

		if (w->kind != FS_VIEW_TOTAL) {
			snprintf(file, sizeof(file), "%s.html", w->name);
			w->page = rep_html_page_open(dir, file);
			if (!w->page)
				break;
			fprintf(w->page,
				"Report for %s %s\n\nLink to Performance histogram:   <A "
				"HREF=\"%s.histogram.html\">histogram</A>\n\n",
				what, w->name, w->name);
			rep_html_links(w->page, links, p->nr_runs);
			fputc('\n', w->page);
			snprintf(file, sizeof(file), "%s.histogram.html", w->name);
		} else {
			snprintf(file, sizeof(file), "histogram.html");
		}
		w->histf = rep_html_page_open(dir, file);
		if (!w->histf)
			break;
		if (w->kind == FS_VIEW_TOTAL)
			fprintf(w->histf, "Total response time histogram.\n\n\n");
		else
			fprintf(w->histf, "Performance histogram for %s=%s\n\n\n",
				w->kind == FS_VIEW_FSD ? "FSD" : "FWD", w->name);
		rep_html_links(w->histf, links, p->nr_runs);
		fputc('\n', w->histf);
	}
	free(links);
	for (size_t i = 0; i < v->nr; i++)
		if ((v->views[i].kind != FS_VIEW_TOTAL && !v->views[i].page) || !v->views[i].histf)
			return errno ? -errno : -EIO;
	return 0;
}

int fs_views_open(struct fs_views *v, const char *dir, const struct fs_plan *p)
{
	int ret;

	memset(v, 0, sizeof(*v));
	v->cols = fs_console_cols(p);
	stats_vdb_default(&v->buckets);
	ret = views_make(v, p);
	if (!ret)
		ret = pages_open(v, dir, p);
	if (ret) {
		fprintf(stderr, "ioramp: %s: cannot write the fsd and fwd reports: %s\n", dir,
			strerror(-ret));
		fs_views_close(v);
	}
	return ret;
}

static size_t view_find(const struct fs_views *v, enum fs_view_kind kind, const char *name)
{
	for (size_t i = 0; i < v->nr; i++)
		if (v->views[i].kind == kind && !strcmp(v->views[i].name, name))
			return i;
	return 0; /* not reached: every FSD and FWD of a run has its view */
}

size_t fs_views_fsd(const struct fs_views *v, const char *fsd_name)
{
	return view_find(v, FS_VIEW_FSD, fsd_name);
}

size_t fs_views_fwd(const struct fs_views *v, const char *fwd_name)
{
	return view_find(v, FS_VIEW_FWD, fwd_name ? fwd_name : "format");
}

static void run_block_start(FILE *f, const struct fs_views *v, const struct fs_run *r,
			    size_t run_idx, const char *tod, const char *text)
{
	fputc('\n', f);
	rep_html_anchor_line(f, r->name, run_idx, tod, text);
	fputc('\n', f);
	fs_console_header(f, v->cols);
	fflush(f);
}

void fs_views_run_start(struct fs_views *v, const struct fs_run *r, size_t run_idx, const char *tod,
			const char *text)
{
	v->run = r;
	v->run_idx = run_idx;
	v->cols = fs_console_run_cols(v->cols, r);
	snprintf(v->start_tod, sizeof(v->start_tod), "%s", tod);
	snprintf(v->start_text, sizeof(v->start_text), "%s", text);
	for (size_t i = 0; i < v->nr; i++) {
		struct fs_view *w = &v->views[i];

		memset(&w->iv, 0, sizeof(w->iv));
		memset(&w->avg, 0, sizeof(w->avg));
		memset(&w->all, 0, sizeof(w->all));
		stats_hist_reset(w->lat);
		stats_hist_reset(w->svc);
		w->nr_hist = 0;
		if (!w->page)
			continue;
		run_block_start(w->page, v, r, run_idx, tod, text);
		for (size_t m = 0; w->kind == FS_VIEW_TOTAL && m < 2; m++)
			if (v->mirror[m])
				run_block_start(v->mirror[m], v, r, run_idx, tod, text);
	}
}

/* One view's interval: its line, then into its average and history when counted. */
static void view_interval(struct fs_views *v, struct fs_view *w, FILE *f, const char *label,
			  double secs, double cpu, double sys, bool is_counted)
{
	if (f) {
		fs_console_line(f, v->cols, label, &w->iv, secs, cpu, sys);
		fflush(f);
	}
	fs_stats_add(&w->all, &w->iv);
	if (is_counted) {
		if (w->nr_hist == w->cap_hist) {
			size_t cap = w->cap_hist ? 2 * w->cap_hist : 16;
			void *n = realloc(w->hist, cap * sizeof(*w->hist));

			if (n) {
				w->hist = n;
				w->cap_hist = cap;
			}
		}
		if (w->nr_hist < w->cap_hist)
			w->hist[w->nr_hist++] = w->iv;
		fs_stats_add(&w->avg, &w->iv);
	}
	memset(&w->iv, 0, sizeof(w->iv));
}

void fs_views_interval(struct fs_views *v, FILE *con, const char *label, double secs, double cpu,
		       double sys, bool is_counted)
{
	for (size_t i = 0; i < v->nr; i++) {
		struct fs_view *w = &v->views[i];

		if (w->kind == FS_VIEW_TOTAL && w->page) /* summary.html */
			fs_console_line(w->page, v->cols, label, &w->iv, secs, cpu, sys);
		for (size_t m = 0; w->kind == FS_VIEW_TOTAL && m < 2; m++) {
			if (!v->mirror[m])
				continue;
			fs_console_line(v->mirror[m], v->cols, label, &w->iv, secs, cpu, sys);
			fflush(v->mirror[m]);
		}
		view_interval(v, w, w->kind == FS_VIEW_TOTAL ? con : w->page, label, secs, cpu, sys,
			      is_counted);
	}
}

static void view_end(struct fs_views *v, struct fs_view *w, FILE *f, const char *label, double cpu,
		     double sys)
{
	const struct fs_run *r = v->run;
	double secs = (double)(w->nr_hist * r->interval_s);

	if (!f)
		return;
	fs_console_line(f, v->cols, label, &w->avg, secs, cpu, sys);
	fs_console_stdmax(f, v->cols, label + 4, w->hist, &w->all, w->nr_hist,
			  (double)r->interval_s);
	fflush(f);
}

void fs_views_run_end(struct fs_views *v, FILE *con, const char *label, double cpu, double sys)
{
	for (size_t i = 0; i < v->nr; i++) {
		struct fs_view *w = &v->views[i];

		if (w->kind == FS_VIEW_TOTAL) {
			view_end(v, w, con, label, cpu, sys);
			for (size_t m = 0; m < 2; m++)
				view_end(v, w, v->mirror[m], label, cpu, sys);
		}
		view_end(v, w, w->page, label, cpu, sys);
		if (!w->histf)
			continue;
		fputc('\n', w->histf);
		rep_html_anchor_line(w->histf, v->run->name, v->run_idx, v->start_tod,
				     v->start_text);
		fputc('\n', w->histf);
		/* service times, as VDbench's histograms (reference 9.10) */
		if (w->svc->nr)
			rep_hist_section(w->histf,
					 "Total of all requested operations since warmup: ", w->svc,
					 &v->buckets);
		fflush(w->histf);
	}
}

int fs_views_close(struct fs_views *v)
{
	int ret = 0;

	for (size_t i = 0; i < v->nr; i++) {
		struct fs_view *w = &v->views[i];

		if (w->kind != FS_VIEW_TOTAL && w->page && fclose(w->page) && !ret)
			ret = -errno;
		if (w->histf && fclose(w->histf) && !ret)
			ret = -errno;
		free(w->hist);
		free(w->lat);
		free(w->svc);
	}
	free(v->views);
	memset(v, 0, sizeof(*v));
	return ret;
}
