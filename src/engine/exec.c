/* An execution: check, open every target, format what is missing, then each run of the plan in
 * order (reference §8, §9.9): workers started on a whole second, intervals reported, the
 * average kept as the base of the curve points and relative rates that follow, stopcurve= and
 * pause= between runs. */
#include "exec.h"
#include "collect.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t eng_now_ns(void)
{
	return eng_clock_ns();
}

/* The observers' view of a run: names, sizes and the settings shared by its workloads. */
struct run_view {
	struct rep_run rr;
	const char **sd_names;
	const char **sd_luns;
	uint64_t *sd_sizes;
	uint32_t *sd_threads;
};

static void view_fini(struct run_view *v)
{
	free(v->sd_names);
	free(v->sd_luns);
	free(v->sd_sizes);
	free(v->sd_threads);
}

static void view_params(struct run_view *v, const struct eng_run *r)
{
	struct rep_params *p = &v->rr.params;

	p->has_xfersize = p->has_rdpct = p->has_rhpct = p->has_whpct = p->has_seekpct = true;
	for (size_t i = 0; i < r->nr_wgs; i++) {
		const struct gen_wg_cfg *g = &r->wgs[i].gen;
		uint64_t xfer = g->xfer.kind == GEN_XFER_FIXED ? g->xfer.size_bytes[0] : 0;

		if (i == 0) {
			p->xfersize_bytes = xfer;
			p->rdpct = g->rdpct;
			p->rhpct = g->rhpct;
			p->whpct = g->whpct;
			p->seekpct = g->seek == GEN_SEEK_EOF ? -1 : g->seekpct;
		}
		p->has_xfersize &= xfer && xfer == p->xfersize_bytes;
		p->has_rdpct &= g->rdpct == p->rdpct;
		p->has_rhpct &= g->rhpct == p->rhpct;
		p->has_whpct &= g->whpct == p->whpct;
		p->has_seekpct &= (g->seek == GEN_SEEK_EOF ? -1 : g->seekpct) == p->seekpct;
	}
	p->compratio = r->compratio;
	p->dedupratio = 1;
	p->has_threads = r->nr_sds > 0;
	p->threads = r->nr_sds ? r->sds[0].threads : 0;
	for (size_t s = 0; s < r->nr_sds; s++) {
		p->has_threads &=
			r->sds[s].threads == p->threads; /* VDbench: -1 when they differ */
		p->lunsize_bytes += r->sds[s].size_bytes;
	}
}

static int view_build(struct run_view *v, const struct eng_exec *x, const struct eng_run *r,
		      size_t run_idx)
{
	const struct plan_run *pr = r->prun;

	memset(v, 0, sizeof(*v));
	v->sd_names = calloc(r->nr_sds, sizeof(*v->sd_names));
	v->sd_luns = calloc(r->nr_sds, sizeof(*v->sd_luns));
	v->sd_sizes = calloc(r->nr_sds, sizeof(*v->sd_sizes));
	v->sd_threads = calloc(r->nr_sds, sizeof(*v->sd_threads));
	if (!v->sd_names || !v->sd_luns || !v->sd_sizes || !v->sd_threads)
		return -ENOMEM;
	for (size_t s = 0; s < r->nr_sds; s++) {
		const struct parm_sd *sd = &x->plan->cfg->sds[r->sds[s].cfg_idx];

		v->sd_names[s] = sd->name;
		v->sd_luns[s] = sd->lun;
		v->sd_sizes[s] = r->sds[s].size_bytes;
		v->sd_threads[s] = r->sds[s].threads;
	}
	v->rr = (struct rep_run){
		.run = pr,
		.name = pr ? pr->name : "SD_format",
		.run_idx = pr ? run_idx : (size_t)-1,
		.req_iops = r->target_iops,
		.for_loops = pr ? pr->for_loops : "threads=2 iorate=max",
		.elapsed_s = pr ? pr->elapsed_s : 0,
		.interval_s = r->interval_ns / 1000000000u,
		.warmup_s = pr ? pr->warmup_s : 0,
		.nr_warmup_intervals = r->nr_warmup ? r->nr_warmup : 1,
		.nr_sds = r->nr_sds,
		.sd_names = v->sd_names,
		.sd_luns = v->sd_luns,
		.sd_size_bytes = v->sd_sizes,
		.sd_threads = v->sd_threads,
		.nr_wds = r->nr_wds,
		.wd_names = r->wd_names,
		.wd_skew_pct = r->wd_skew_pct,
	};
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		v->rr.start_tod_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	if (pr && r->mode == ENG_MODE_RATE)
		snprintf(v->rr.rate_text, sizeof(v->rr.rate_text), "%.0f", r->target_iops);
	else if (pr)
		plan_rate_text(pr, 0, v->rr.rate_text, sizeof(v->rr.rate_text));
	else
		snprintf(v->rr.rate_text, sizeof(v->rr.rate_text), "Uncontrolled MAX");
	view_params(v, r);
	return 0;
}

static uint32_t nr_workers(const struct eng_exec *x, const struct eng_run *r)
{
	uint32_t n = x->opts->nr_workers ? x->opts->nr_workers : x->nr_cpus;

	if (n > r->nr_sds)
		n = (uint32_t)r->nr_sds;
	return n ? n : 1;
}

/* Workers share the SDs round-robin and start on the next whole second after set-up. */
static int workers_start(struct eng_exec *x, struct eng_run *r, struct eng_worker *w,
			 uint32_t *nr_started, struct parm_err *err)
{
	char msg[512];
	int ret;

	for (size_t s = 0; s < r->nr_sds; s++)
		r->sds[s].worker = (uint32_t)(s % r->nr_workers);
	for (uint32_t i = 0; i < r->nr_workers; i++) {
		ret = eng_worker_init(&w[i], r, i, x->engine, msg, sizeof(msg));
		if (ret) {
			parm_errf(err, NULL, "%s", msg);
			return ret;
		}
		if (msg[0] && i == 0 && !x->engine_noted) {
			rep_set_messagef(x->reps, "ioramp: note: %s", msg);
			x->engine_noted = true;
		}
	}
	r->start_ns = (eng_clock_ns() / 1000000000u + 1) * 1000000000u;
	if (r->is_recording)
		eng_recorder_start(x->recorder, r->start_ns);
	for (uint32_t i = 0; i < r->nr_workers; i++) {
		ret = eng_worker_arm(&w[i]);
		if (!ret)
			ret = -pthread_create(&w[i].thread, NULL, eng_worker_main, &w[i]);
		if (ret) {
			parm_errf(err, NULL, "cannot start worker %u: %s", i, strerror(-ret));
			return ret;
		}
		(*nr_started)++;
	}
	return 0;
}

static int workers_stop(struct eng_exec *x, struct eng_worker *w, uint32_t nr_started,
			uint32_t nr_init)
{
	int fatal = 0;

	for (uint32_t i = 0; i < nr_started; i++)
		atomic_store_explicit(&w[i].stop, true, memory_order_relaxed);
	/* workers may wait for room in their record ring: keep draining until they are done */
	for (uint32_t i = 0; w[0].rec && i < nr_started; i++) {
		while (!atomic_load_explicit(&w[i].is_done, memory_order_acquire)) {
			struct timespec ts = { 0, 1000000 };

			eng_recorder_drain(x->recorder, w, nr_started, false);
			nanosleep(&ts, NULL);
		}
	}
	for (uint32_t i = 0; i < nr_started; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].fatal && !fatal) {
			fatal = w[i].fatal;
			rep_set_messagef(x->reps, "ioramp: error: worker %u: %s", i,
					 strerror(-w[i].fatal));
		}
	}
	if (nr_init && w[0].rec && nr_started == nr_init)
		eng_recorder_drain(x->recorder, w, nr_started, true);
	for (uint32_t i = 0; i < nr_init; i++)
		eng_worker_fini(&w[i]);
	return fatal;
}

/* VDbench aborts at the end of a run with any I/O error, or as soon as data_errors= of them
 * were counted (reference §2): says so, naming the first one. */
static int io_errors_status(struct eng_exec *x, const struct eng_run *r, const struct eng_worker *w,
			    int status, struct parm_err *err)
{
	uint64_t nr = eng_collect_nr_io_errors(w, r->nr_workers);
	const struct eng_io_error *e = NULL;
	uint32_t limit = x->plan->cfg->general.data_errors ? x->plan->cfg->general.data_errors : 1;
	char first[512] = "";

	if (!nr || status == ENG_INTERRUPTED)
		return status;
	for (uint32_t i = 0; !e && i < r->nr_workers; i++)
		if (atomic_load_explicit(&w[i].nr_errors_kept, memory_order_acquire))
			e = &w[i].errors[0];
	if (e) {
		const struct parm_sd *sd = &x->plan->cfg->sds[r->sds[e->run_sd].cfg_idx];

		snprintf(first, sizeof(first),
			 "; first: sd=%s lun=%s %s at byte %llu, %u bytes: %s", sd->name, sd->lun,
			 e->op == ENG_OP_WRITE ? "write" : "read",
			 (unsigned long long)e->offset_bytes, e->size_bytes,
			 e->result < 0 ? strerror(-e->result) : "short transfer");
	}
	rep_set_messagef(x->reps, "Total Data Validation or I/O error count: %llu",
			 (unsigned long long)nr);
	parm_errf(err, NULL, "rd=%s: %llu I/O error%s%s%s; see errorlog.html",
		  r->prun ? r->prun->name : "SD_format", (unsigned long long)nr, nr == 1 ? "" : "s",
		  eng_collect_is_device_lost(w, r->nr_workers) ? " (a device is gone: run ended)"
		  : nr >= limit				       ? " (data_errors= reached)"
							       : "",
		  first);
	return ENG_FAILED;
}

/* Replay: the thread that streams the trace into the workers' rings. */
static int feeder_start(struct eng_exec *x, struct eng_run *r, struct eng_worker *w,
			struct eng_feeder *f, struct parm_err *err)
{
	const struct parm_rd *rd = &x->plan->cfg->rds[r->prun->rd_idx];
	const char **names = calloc(r->nr_sds, sizeof(*names));
	int ret;

	f->rings = calloc(r->nr_workers, sizeof(*f->rings));
	if (!names || !f->rings) {
		free(names);
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	}
	f->run = r;
	f->ti = r->trace;
	f->speed = r->replay_speed;
	f->nr_rings = r->nr_workers;
	for (uint32_t i = 0; i < r->nr_workers; i++)
		f->rings[i] = w[i].rpl;
	for (size_t s = 0; s < r->nr_sds; s++)
		names[s] = x->plan->cfg->sds[r->sds[s].cfg_idx].name;
	ret = eng_feeder_map(f, x->opts->trace_map, &rd->loc, names, err);
	free(names);
	if (!ret)
		ret = eng_feeder_start(f);
	if (ret) {
		free(f->rings);
		f->run = NULL;
	}
	return ret;
}

static int run_collect(struct eng_exec *x, struct eng_run *r, struct eng_worker *w,
		       const struct rep_run *rr, double *observed)
{
	struct eng_collect c = {
		.plan = x->plan,
		.run = r,
		.opts = x->opts,
		.reps = x->reps,
		.rr = rr,
		.workers = w,
		.nr_workers = r->nr_workers,
		.recorder = r->is_recording ? x->recorder : NULL,
		.max_errors =
			x->plan->cfg->general.data_errors ? x->plan->cfg->general.data_errors : 1,
	};
	struct rep_sample avg;
	struct rep_run_end end = { 0 };
	int status;

	if (eng_collect_init(&c)) {
		eng_collect_fini(&c);
		return ENG_FAILED;
	}
	status = eng_collect_intervals(&c);
	eng_collect_average(&c, &avg);
	end.avg = &avg;
	end.is_interrupted = status == ENG_INTERRUPTED;
	end.is_eof = c.is_eof;
	end.observed_iops =
		c.avg_elapsed_ns
			? stats_rate_per_sec(avg.total->op[0].nr_ios + avg.total->op[1].nr_ios,
					     c.avg_elapsed_ns)
			: 0;
	*observed = end.observed_iops;
	{
		struct stats_counters all;

		stats_bank_total(avg.total, &all);
		x->last_resp_ms = stats_counters_mean_ns(&all) / 1e6;
	}
	rep_set_run_end(x->reps, rr, &end);
	eng_collect_fini(&c);
	return status;
}

int eng_run_execute(struct eng_exec *x, struct eng_run *r, size_t run_idx, struct parm_err *err)
{
	struct eng_feeder feeder = { 0 };
	struct eng_worker *w;
	struct run_view v;
	uint32_t nr_started = 0;
	double observed = 0;
	int status, ret;

	r->seed = x->opts->seed;
	r->is_recording = x->recorder && r->prun; /* the format pass is not the workload */
	r->nr_workers = nr_workers(x, r);
	if (x->dv && r->prun) { /* validation: every SD of the run, never the format pass */
		r->dv = x->dv;
		for (size_t s = 0; s < r->nr_sds; s++)
			r->sds[s].dv = &x->dv->sds[r->sds[s].cfg_idx];
	}
	ret = eng_check_alignment(x, r, err);
	if (ret)
		return ENG_BAD_PARMS;
	w = aligned_alloc(IORAMP_CACHELINE, r->nr_workers * sizeof(*w));
	if (!w || view_build(&v, x, r, run_idx)) {
		free(w);
		parm_errf(err, NULL, "out of memory");
		return ENG_FAILED;
	}
	memset(w, 0, r->nr_workers * sizeof(*w));
	rep_set_run_start(x->reps, &v.rr);
	ret = workers_start(x, r, w, &nr_started, err);
	if (!ret && r->is_replay)
		ret = feeder_start(x, r, w, &feeder, err);
	status = ret ? ENG_FAILED : run_collect(x, r, w, &v.rr, &observed);
	if (feeder.run) {
		eng_feeder_stop(&feeder);
		if (feeder.error && status == ENG_OK) {
			parm_errf(err, NULL, "trace=%s: %s", r->trace->path, feeder.msg);
			status = ENG_FAILED;
		}
		free(feeder.rings);
	}
	if (workers_stop(x, w, nr_started, r->nr_workers) && status == ENG_OK)
		status = ENG_FAILED;
	eng_collect_io_errors(x->reps, x->plan, r, w, r->nr_workers); /* those of the drain */
	status = io_errors_status(x, r, w, status, err);
	status = eng_dv_run_end(x, r, w, r->nr_workers, status);
	if (r->prun)
		x->observed_iops[run_idx] = observed;
	view_fini(&v);
	free(w);
	return status;
}
