/* The FWDs' skew: each one's share of a run's operations, kept paced and at max as VDbench
 * 5.04.07 keeps it, and what a run observed of it. A FWD starts an operation (when due, or at
 * once at max) only while it is not ahead of its share of the operations the FWDs started;
 * one that is ahead waits for the others. A FWD whose threads all ended (nothing left to do)
 * holds nobody back. VDbench's, observed: at fwdrate=max a 4k read FWD and a 64k write FWD,
 * two threads each, did 50.2% reads; skew=20 and 80, 18.8% and 81.2%; at fwdrate=3000000,
 * beyond what the two reached, 19.99% and 80.01%. */
#include "fs_int.h"
#include "ioramp/parm.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How far (in operations) a FWD may run ahead of its share: enough that its threads seldom
 * wait for a single operation of the others, small against a second's thousands. */
#define SKEW_LEAD_OPS 32.0

double fs_fwd_share(const struct fs_run *r, size_t i)
{
	double skewed = 0;
	size_t unskewed = 0;

	for (size_t k = 0; k < r->nr_fwds; k++) {
		skewed += r->fwds[k].skew;
		unskewed += r->fwds[k].skew == 0;
	}
	if (r->fwds[i].skew > 0)
		return r->fwds[i].skew / 100.0;
	return unskewed ? (100 - skewed) / 100.0 / (double)unskewed : 0;
}

bool fs_run_has_skew(const struct fs_run *r)
{
	for (size_t i = 0; i < r->nr_fwds; i++)
		if (r->fwds[i].skew > 0)
			return true;
	return false;
}

size_t fs_skew_observed(const struct fs_run *r, const struct fs_views *v, struct fs_skew_row *rows)
{
	double total = (double)v->views[0].avg.reqstd.n;
	size_t n = 0;

	for (size_t i = 0; i < r->nr_fwds; i++) {
		size_t view = fs_views_fwd(v, r->fwds[i].name), k;
		const struct fs_view *w = &v->views[view];

		for (k = 0; k < n && rows[k].view != view; k++)
			;
		if (k == n) { /* operations= splits a FWD: one row */
			rows[n++] = (struct fs_skew_row){
				.view = view,
				.name = r->fwds[i].name,
				.ops_per_sec =
					w->nr_hist ? (double)w->avg.reqstd.n /
							     (double)(w->nr_hist * r->interval_s)
						   : 0,
				.actual_pct =
					total > 0 ? (double)w->avg.reqstd.n * 100.0 / total : 0,
			};
		}
		rows[k].requested_pct += fs_fwd_share(r, i) * 100.0;
	}
	return n;
}

int fs_skew_init(struct fs_skew *k, const double *shares, size_t nr)
{
	k->fwds = calloc(nr ? nr : 1, sizeof(*k->fwds));
	k->nr = nr;
	if (!k->fwds)
		return -1;
	for (size_t i = 0; i < nr; i++) {
		atomic_init(&k->fwds[i].nr_ops, 0);
		atomic_init(&k->fwds[i].nr_live, 0);
		k->fwds[i].share = shares[i];
	}
	return 0;
}

void fs_skew_fini(struct fs_skew *k)
{
	free(k->fwds);
	k->fwds = NULL;
	k->nr = 0;
}

void fs_skew_join(struct fs_skew *k, size_t i)
{
	atomic_fetch_add(&k->fwds[i].nr_live, 1);
}

void fs_skew_leave(struct fs_skew *k, size_t i)
{
	atomic_fetch_sub(&k->fwds[i].nr_live, 1);
}

bool fs_skew_is_ahead(const struct fs_skew *k, size_t i)
{
	const struct fs_skew_fwd *f = &k->fwds[i];
	double least = INFINITY;

	if (!(f->share > 0))
		return false; /* no share: not controlled */
	for (size_t g = 0; g < k->nr; g++) {
		const struct fs_skew_fwd *o = &k->fwds[g];
		double done = (double)atomic_load_explicit(&o->nr_ops, memory_order_relaxed);

		if (g == i || !(o->share > 0) || !atomic_load(&o->nr_live))
			continue;
		if (done / o->share < least)
			least = done / o->share;
	}
	return (double)atomic_load_explicit(&f->nr_ops, memory_order_relaxed) >=
	       least * f->share + SKEW_LEAD_OPS;
}

/* The others' operations take microseconds: a short nap, not a spin on two CPUs. Waits while
 * FWD i is ahead, at most max_wait_ns (UINT64_MAX: no limit); returns whether it still is. */
static bool wait_ahead(struct fs_skew *k, size_t i, const atomic_bool *stop, uint64_t max_wait_ns)
{
	const struct timespec nap = { 0, 20000 };
	struct timespec t0, t;

	if (!fs_skew_is_ahead(k, i))
		return false;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (fs_skew_is_ahead(k, i) && !atomic_load(stop)) {
		nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000ull + (uint64_t)t.tv_nsec -
			    (uint64_t)t0.tv_nsec >=
		    max_wait_ns)
			return fs_skew_is_ahead(k, i);
	}
	return false;
}

void fs_skew_wait(struct fs_skew *k, size_t i, const atomic_bool *stop)
{
	wait_ahead(k, i, stop, UINT64_MAX);
}

bool fs_skew_take(struct fs_skew *k, size_t i, const atomic_bool *stop, uint64_t max_wait_ns)
{
	if (max_wait_ns && wait_ahead(k, i, stop, max_wait_ns))
		return false;
	atomic_fetch_add_explicit(&k->fwds[i].nr_ops, 1, memory_order_relaxed);
	return true;
}

int fs_skew_abort(const struct fs_run *r, const struct fs_views *v, const struct parm_config *cfg,
		  FILE *con)
{
	const struct parm_val *val = cfg->general.set.val[PARM_KW_ABORT_FAILED_SKEW];
	struct fs_skew_row *rows;
	size_t n, worst = 0;
	double limit, max_delta = 0;
	struct parm_err err;

	if (!val || r->kind != FS_RUN_WORK || !fs_run_has_skew(r))
		return 0;
	rows = calloc(r->nr_fwds, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	n = fs_skew_observed(r, v, rows);
	limit = strtod(val->text, NULL);
	for (size_t i = 0; i < n; i++) {
		double d = fabs(rows[i].actual_pct - rows[i].requested_pct);

		if (d > max_delta) {
			max_delta = d;
			worst = i;
		}
	}
	if (n && max_delta > limit) {
		char tod[16];

		/* VDbench's words on its console, then where and why on stderr */
		plan_time_of_day(tod);
		fprintf(con,
			"%s \n%s 'abort_failed_skew=%.3f' parameter used. See file skew.html for "
			"more info.\n%s \n",
			tod, tod, limit, tod);
		fflush(con);
		memset(&err, 0, sizeof(err));
		parm_errf(&err, &val->loc,
			  "rd=%s: fwd=%s did %.2f%% of the operations, off its skew of %.2f%% by "
			  "%.2f%%, more than abort_failed_skew=%.3f allows; see skew.html",
			  r->name, rows[worst].name, rows[worst].actual_pct,
			  rows[worst].requested_pct, max_delta, limit);
		parm_err_print(&err, stderr);
	}
	free(rows);
	return n && max_delta > limit ? -ECANCELED : 0;
}
