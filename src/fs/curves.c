/* The curves of a file-system execution: each fwdrate=curve is its max run and its points;
 * as each run ends its figures are kept (rates, both latencies' histograms, whether it met
 * its target and what held it back), and at the end curves.csv, report.html and the
 * end-of-curve blocks are written by the raw runs' code (rep_fs_curves_write). */
#include "fs_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ioramp/report.h"

/* A run's point: its figures and the storage they point into. */
static int point_fill(struct rep_fs_point *p, const struct fs_run *r, const struct fs_view *tv,
		      double target, double cpu_pct)
{
	double secs = (double)(tv->nr_hist * r->interval_s);
	const struct fs_stats *a = &tv->avg;
	uint64_t rw = a->op[FS_OP_READ].n + a->op[FS_OP_WRITE].n;
	struct stats_hist *svc = malloc(sizeof(*svc)), *resp = malloc(sizeof(*resp));
	double *ivs = calloc(tv->nr_hist ? tv->nr_hist : 1, sizeof(*ivs));
	char *text = malloc(32);

	if (!svc || !resp || !ivs || !text) {
		free(svc);
		free(resp);
		free(ivs);
		free(text);
		return -ENOMEM;
	}
	*svc = *tv->svc;
	*resp = *tv->lat;
	for (size_t i = 0; i < tv->nr_hist; i++)
		ivs[i] = (double)tv->hist[i].reqstd.n / (double)r->interval_s;
	memset(p, 0, sizeof(*p));
	p->run_name = strdup(r->name);
	if (r->rate == PLAN_RATE_CURVE_POINT)
		snprintf(text, 32, "%g%%", r->pct);
	else
		snprintf(text, 32, "max");
	p->rate_text = text;
	p->pct = r->rate == PLAN_RATE_CURVE_POINT ? r->pct : NAN;
	p->target_iops = r->rate == PLAN_RATE_CURVE_POINT ? target : NAN;
	p->iops = secs > 0 ? (double)a->reqstd.n / secs : 0;
	p->mb_per_sec = secs > 0 ? (double)(a->read_bytes + a->write_bytes) / 1048576.0 / secs : 0;
	p->read_pct = rw ? 100.0 * (double)a->op[FS_OP_READ].n / (double)rw : 0;
	p->bytes_per_io = rw ? (double)(a->read_bytes + a->write_bytes) / (double)rw : 0;
	p->elapsed_s = secs;
	p->svc = svc;
	p->resp = resp;
	p->interval_iops = ivs;
	p->nr_intervals = tv->nr_hist;
	p->interval_s = (double)r->interval_s;
	fs_run_validity(r, p->iops, p->target_iops, cpu_pct, &p->is_target_met, &p->limited_by);
	return p->run_name ? 0 : -ENOMEM;
}

void fs_run_validity(const struct fs_run *r, double iops, double target, double cpu_pct,
		     bool *is_met, enum rep_limit *limited_by)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint32_t threads = 0;

	for (size_t i = 0; i < r->nr_fwds; i++)
		threads += r->fwds[i].threads_per_fsd * (uint32_t)r->fwds[i].nr_fsd;
	if (ncpu < 1)
		ncpu = 1;
	/* as raw runs: met within 2% of the target. Missed, ioramp's threads each wait for
	 * their system call: the file system held them back, unless ioramp had no CPU left
	 * for them (its own CPU time near one core per thread, or all of them) */
	*is_met = isnan(target) || target <= 0 || iops >= 0.98 * target;
	*limited_by = REP_LIMIT_NONE;
	if (!*is_met) {
		double cores = cpu_pct * (double)ncpu / 100.0;
		double can = (double)(threads < (uint32_t)ncpu ? threads : (uint32_t)ncpu);

		*limited_by = cores >= 0.9 * can ? REP_LIMIT_GENERATOR : REP_LIMIT_DEVICE;
	}
}

static void point_free(struct rep_fs_point *p)
{
	free((void *)p->run_name);
	free((void *)p->rate_text);
	free((void *)p->svc);
	free((void *)p->resp);
	free((void *)p->interval_iops);
}

int fs_curves_run_end(struct fs_curves *cs, const struct fs_run *r, const struct fs_views *v,
		      double target, double cpu_pct)
{
	struct rep_fs_curve *c;

	if (r->rate == PLAN_RATE_CURVE_MAX) {
		void *n = realloc(cs->curves, (cs->nr + 1) * sizeof(*cs->curves));
		const char **fsds = calloc(r->nr_fsds + 1, sizeof(*fsds));
		const char **fwds = calloc(r->nr_fwds + 1, sizeof(*fwds));

		if (n)
			cs->curves = n;
		if (!n || !fsds || !fwds) {
			free(fsds);
			free(fwds);
			return -ENOMEM;
		}
		c = &cs->curves[cs->nr++];
		memset(c, 0, sizeof(*c));
		c->rd = r->name;
		c->for_loops = r->for_loops;
		for (size_t i = 0; i < r->nr_fsds; i++)
			fsds[c->nr_fsds++] = r->fsds[i].name;
		for (size_t i = 0; i < r->nr_fwds; i++)
			fwds[c->nr_fwds++] = r->fwds[i].name;
		c->fsds = fsds;
		c->fwds = fwds;
		return point_fill(&c->max, r, &v->views[0], target, cpu_pct);
	}
	if (r->rate != PLAN_RATE_CURVE_POINT || !cs->nr)
		return 0;
	c = &cs->curves[cs->nr - 1];
	{
		void *n = realloc((void *)c->points, (c->nr_points + 1) * sizeof(*c->points));
		struct rep_fs_point *pts = n;

		if (!n)
			return -ENOMEM;
		c->points = pts;
		return point_fill(&pts[c->nr_points++], r, &v->views[0], target, cpu_pct);
	}
}

int fs_curves_write(const struct fs_curves *cs, const char *outdir, int status)
{
	struct timespec ts;
	struct rep_fs_curves fc = {
		.curves = cs->curves,
		.nr = cs->nr,
		.outdir = outdir,
		.console = stdout,
		.status = status,
	};
	int ret;

	clock_gettime(CLOCK_REALTIME, &ts);
	fc.start_tod_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	ret = rep_fs_curves_write(&fc);
	if (ret)
		fprintf(stderr, "ioramp: %s: cannot write curves.csv and report.html: %s\n", outdir,
			strerror(-ret));
	return ret;
}

void fs_curves_free(struct fs_curves *cs)
{
	for (size_t i = 0; i < cs->nr; i++) {
		struct rep_fs_curve *c = &cs->curves[i];

		point_free(&c->max);
		for (size_t k = 0; k < c->nr_points; k++)
			point_free((struct rep_fs_point *)&c->points[k]);
		free((void *)c->points);
		free((void *)c->fsds);
		free((void *)c->fwds);
	}
	free(cs->curves);
	memset(cs, 0, sizeof(*cs));
}
