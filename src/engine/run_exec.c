/* An execution: check, open every target, format what is missing, then each run of the plan in
 * order (reference §8, §9.9): workers started on a whole second, intervals reported, the
 * average kept as the base of the curve points and relative rates that follow, stopcurve= and
 * pause= between runs. */
#include "cluster.h"
#include "collect.h"
#include "exec.h"

#include <errno.h>
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The observers' view of a run: names, sizes and the settings shared by its workloads. */
struct run_view {
	struct rep_run rr;
	const char **sd_names;
	const char **sd_luns;
	uint64_t *sd_sizes;
	uint32_t *sd_threads;
	const char **sd_engines;
	bool *sd_engine_is_default;
	const char **host_names; /* many hosts, rank 0 */
	char **slave_names;
	uint32_t *slave_host;
	uint32_t *jvm_threads;
	struct rep_stream *streams;
};

/* An SD only sequential WDs use runs on their one slave with all its threads (VDbench 5.04.07,
 * observed with jvms=3: "Started  3 i/o threads for sd1" on localhost-0 alone); with streams=,
 * each stream's slave runs threads= / streams= of them (jvm_seq_slaves, run_build.c). */
static void seq_sd_threads(const struct eng_run *r, uint32_t *jvm_threads)
{
	for (size_t s = 0; s < r->nr_sds; s++) {
		int jvm = -2; /* -2: no generator yet; -1: a random one or two slaves */
		bool has_streams = false;

		for (size_t i = 0; i < r->nr_wgs && jvm != -1; i++) {
			if (r->wgs[i].run_sd != s)
				continue;
			has_streams |= r->wgs[i].nr_streams > 1;
			jvm = r->wgs[i].jvm < 0 || (jvm >= 0 && jvm != r->wgs[i].jvm)
				      ? -1
				      : r->wgs[i].jvm;
		}
		for (uint32_t j = 0; (jvm >= 0 || has_streams) && j < r->nr_jvms; j++)
			jvm_threads[s * r->nr_jvms + j] =
				j == (uint32_t)jvm && !has_streams ? r->sds[s].threads : 0;
		for (size_t i = 0; has_streams && i < r->nr_wgs; i++)
			if (r->wgs[i].run_sd == s && r->wgs[i].nr_streams > 1 && r->wgs[i].jvm >= 0)
				jvm_threads[s * r->nr_jvms + (uint32_t)r->wgs[i].jvm] +=
					r->sds[s].threads / r->wgs[i].nr_streams;
	}
}

/* streams=: each stream's slave, threads and piece, for its slave's "StreamContext" lines. */
static int view_streams(struct run_view *v, const struct eng_run *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr_wgs; i++)
		n += r->wgs[i].nr_streams > 1;
	if (!n || r->concat.nr)
		return 0;
	v->streams = calloc(n, sizeof(*v->streams));
	if (!v->streams)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_wgs; i++) {
		const struct eng_wg_desc *g = &r->wgs[i];

		if (g->nr_streams <= 1)
			continue;
		v->streams[v->rr.nr_streams++] = (struct rep_stream){
			.sd = g->run_sd,
			.stream = g->stream,
			.jvm = g->jvm > 0 ? (uint32_t)g->jvm : 0,
			.threads = r->sds[g->run_sd].threads / g->nr_streams,
			.low_bytes = g->gen.range.start_bytes,
			.high_bytes = g->gen.range.start_bytes + g->gen.range.len_bytes,
		};
	}
	v->rr.streams = v->streams;
	return 0;
}

static void view_fini(struct run_view *v)
{
	free(v->sd_names);
	free(v->sd_luns);
	free(v->sd_sizes);
	free(v->sd_threads);
	free(v->jvm_threads);
	free(v->streams);
	free(v->sd_engines);
	free(v->sd_engine_is_default);
	free(v->host_names);
	for (size_t i = 0; v->slave_names && i < v->rr.nr_slaves; i++)
		free(v->slave_names[i]);
	free(v->slave_names);
	free(v->slave_host);
}

/* Many hosts, rank 0: the hosts and slaves the samples carry, in eng_clu's slave order. */
static int view_hosts(struct run_view *v, const struct eng_clu *cl)
{
	const struct clu_map *m = cl->map;
	size_t n = 0;

	v->host_names = calloc(m->nr_hosts ? m->nr_hosts : 1, sizeof(*v->host_names));
	v->slave_names = calloc(m->nr_ranks, sizeof(*v->slave_names));
	v->slave_host = calloc(m->nr_ranks, sizeof(*v->slave_host));
	if (!v->host_names || !v->slave_names || !v->slave_host)
		return -ENOMEM;
	for (size_t h = 0; h < m->nr_hosts; h++) {
		v->host_names[h] = m->hosts[h].label;
		for (uint32_t i = 0; i < m->hosts[h].nr_ranks; i++) {
			char name[300];

			snprintf(name, sizeof(name), "%s-%u", m->hosts[h].label, i);
			v->slave_host[n] = (uint32_t)h;
			if (!(v->slave_names[n++] = strdup(name)))
				return -ENOMEM;
			v->rr.nr_slaves = n;
		}
	}
	v->rr.nr_hosts = m->nr_hosts;
	v->rr.host_names = v->host_names;
	v->rr.slave_names = (const char *const *)v->slave_names;
	v->rr.slave_host = v->slave_host;
	return 0;
}

/* An SD's threads= for the reports: on many hosts the total over all ranks, not this rank's
 * share (the format pass: 2). */
static uint32_t view_threads(const struct eng_exec *x, const struct eng_run *r, size_t s)
{
	const struct plan_run *pr = r->prun;

	if (!x->clu)
		return r->sds[s].threads;
	if (!pr)
		return 2;
	return pr->sds[s].threads; /* the run's SDs are the plan's, in its order */
}

static void view_params(struct run_view *v, const struct eng_run *r)
{
	struct rep_params *p = &v->rr.params;

	p->has_xfersize = p->has_rdpct = p->has_rhpct = p->has_whpct = p->has_seekpct = true;
	for (size_t i = 0; i < r->nr_wgs; i++) {
		const struct gen_wg_cfg *g = &r->wgs[i].gen;
		uint64_t xfer = g->xfer.size_bytes[0]; /* VDbench: a distribution's first size */

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
	p->dedupratio = r->dedup ? r->dedup->ratio : 1;
	p->has_threads = r->nr_sds > 0;
	p->threads = r->nr_sds ? v->sd_threads[0] : 0;
	for (size_t s = 0; s < r->nr_sds; s++) {
		p->has_threads &= v->sd_threads[s] == p->threads; /* VDbench: -1 when they differ */
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
	v->sd_engines = calloc(r->nr_sds, sizeof(*v->sd_engines));
	v->sd_engine_is_default = calloc(r->nr_sds, sizeof(*v->sd_engine_is_default));
	if (!v->sd_names || !v->sd_luns || !v->sd_sizes || !v->sd_threads || !v->sd_engines ||
	    !v->sd_engine_is_default)
		return -ENOMEM;
	for (size_t s = 0; s < r->nr_sds; s++) {
		const struct parm_sd *sd = &x->plan->cfg->sds[r->sds[s].cfg_idx];

		v->sd_names[s] = sd->name;
		v->sd_luns[s] = sd->lun;
		v->sd_sizes[s] = r->sds[s].size_bytes;
		v->sd_threads[s] = view_threads(x, r, s);
		v->sd_engines[s] = r->sds[s].engine;
		v->sd_engine_is_default[s] = !x->engine;
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
		.sd_engines = v->sd_engines,
		.sd_engine_is_default = v->sd_engine_is_default,
		.nr_wds = r->nr_wds,
		.wd_names = r->wd_names,
		.wd_skew_pct = r->wd_skew_pct,
	};
	v->rr.start_tod_ns = eng_clock_tod_ns(&x->clock);
	if (pr && r->target_iops > 0 && pr->rate != PLAN_RATE_VARIABLE) /* "Variable" as -s */
		snprintf(v->rr.rate_text, sizeof(v->rr.rate_text), "%.0f", r->target_iops);
	else if (pr)
		plan_rate_text(pr, 0, v->rr.rate_text, sizeof(v->rr.rate_text));
	else
		snprintf(v->rr.rate_text, sizeof(v->rr.rate_text), "Uncontrolled MAX");
	view_params(v, r);
	if (r->nr_jvms > 1 && !r->is_replay) {
		v->jvm_threads = calloc(r->nr_sds * r->nr_jvms, sizeof(*v->jvm_threads));
		if (!v->jvm_threads)
			return -ENOMEM;
		for (size_t s = 0; s < r->nr_sds; s++)
			for (uint32_t j = 0; j < r->nr_jvms; j++)
				v->jvm_threads[s * r->nr_jvms + j] = plan_jvm_threads(
					r->sds[s].first_thread, r->sds[s].threads, r->nr_jvms, j);
		seq_sd_threads(r, v->jvm_threads);
		v->rr.jvm_threads = v->jvm_threads;
	}
	if (view_streams(v, r))
		return -ENOMEM;
	if (x->clu && eng_clu_is_root(x->clu))
		return view_hosts(v, x->clu);
	return 0;
}

/* An SD this rank drives: threads here and some generator on it (many hosts leave SDs without
 * either on some ranks). */
static bool sd_has_work(const struct eng_run *r, size_t s)
{
	if (!r->sds[s].threads)
		return false;
	for (size_t i = 0; i < r->nr_wgs; i++)
		if (r->wgs[i].run_sd == s)
			return true;
	return false;
}

/* The sync engine runs VDbench's and fio psync's thread model: each of an SD's threads= is a
 * worker of its own with one I/O in flight, issued and counted on that thread (no hand-off).
 * The stages that keep one worker per SD (validation, replay, recording, dedup, variable and
 * spike rates, many hosts) keep the pool of backend_sync.c instead. Per SD: the default
 * engine may give sync to some SDs of a run and uring to others. Sparsely paced SDs never go
 * to the shared workers (the pool's hand-off cost more CPU than the wake batch saved,
 * bench/speed.md, 2026-12-03); on cached files they go to serial workers (is_serial()). */
static bool is_per_thread(const struct eng_exec *x, const struct eng_run *r, size_t s)
{
	return eng_backend_is_sync(r->sds[s].engine) && sd_has_work(r, s) && !x->clu &&
	       !r->is_replay && !r->dv && !r->is_recording && !r->dedup && !r->nr_steps &&
	       !r->is_spike && !r->concat.nr;
}

/* A per-thread SD paced on a file in the page cache: its I/O takes microseconds of CPU, so
 * its threads= add nothing but wake-ups, and serial workers serve it, one I/O at a time each,
 * waking once per batch (eng_place_serial: with other sparse SDs, or on min(threads=, CPUs)
 * workers of its own). A thread per threads= wakes once per I/O: 11-14 us of CPU a wake-up on
 * the development VM, 4.4-5.4% of a core at 4000 IOPS before any I/O (bench/wakefloor.c,
 * bench/speed.md 2026-12-06), and at 1.35M IOPS (90% of 4K 70/30's max on eight files,
 * threads=8) only 83% of the rate; serial, 99.9%. Each I/O is late by half a batch on
 * average, in its response time, not its service time. A file that is not cached keeps its
 * threads: its reads wait on the device, and concurrency is then what sustains the rate. */
static bool is_serial(const struct eng_exec *x, const struct eng_run *r, size_t s)
{
	if (!r->wake_batch_ns || r->mode != ENG_MODE_RATE || !is_per_thread(x, r, s))
		return false;
	return eng_sd_rate(r, s) > 0 && r->sds[s].target && eng_target_is_cached(r->sds[s].target);
}

void eng_run_write_gates_fini(struct eng_run *r)
{
	for (size_t s = 0; r->write_gates && s < r->nr_sds; s++)
		pthread_mutex_destroy(&r->write_gates[s]);
	free(r->write_gates);
	r->write_gates = NULL;
}

/* Each gated SD's gate (eng_pick_write_gated), before its workers open their backends. */
static int write_gates_init(const struct eng_exec *x, struct eng_run *r)
{
	bool is_any = false;

	eng_run_write_gates_fini(r);
	eng_pick_write_gated(r, x->nr_cpus);
	for (size_t s = 0; s < r->nr_sds; s++)
		is_any |= r->sds[s].is_write_gated;
	if (!is_any)
		return 0;
	r->write_gates = calloc(r->nr_sds, sizeof(*r->write_gates));
	if (!r->write_gates)
		return -ENOMEM;
	for (size_t s = 0; s < r->nr_sds; s++)
		pthread_mutex_init(&r->write_gates[s], NULL);
	return 0;
}

/* An SD the workers of nr_workers() share (not run per thread; on many hosts, one this rank
 * drives). */
static bool is_shared(const struct eng_exec *x, const struct eng_run *r, size_t s)
{
	return !is_per_thread(x, r, s) && (!x->clu || sd_has_work(r, s));
}

/* The workers the shared SDs get: one per CPU, never more than the SDs this rank drives, at
 * least one when there is any (none: an idle rank of a many-hosts run, or every SD per
 * thread); one in virtual time. Sets each SD's nr_parts: its threads= per thread (one worker
 * each), else 1. */
static uint32_t nr_workers(const struct eng_exec *x, struct eng_run *r, bool *has_parts)
{
	uint32_t n = x->opts->nr_workers ? x->opts->nr_workers : x->nr_cpus, nr_sds = 0;
	size_t nr_shared = 0;

	*has_parts = false;
	for (size_t s = 0; s < r->nr_sds; s++) {
		bool per_thread = is_per_thread(x, r, s);

		r->sds[s].is_serial = per_thread && is_serial(x, r, s);
		r->sds[s].nr_parts = per_thread && !r->sds[s].is_serial ? r->sds[s].threads : 1;
		*has_parts |= per_thread;
		nr_sds += sd_has_work(r, s) && !per_thread;
		nr_shared += is_shared(x, r, s);
	}
	/* Virtual time: one worker. Its sleeps then only move the clock (no hand-off between
	 * threads, no futex per I/O), and one thread's order of events is the run's. */
	if (x->clock.is_virtual)
		n = 1;
	if (n > nr_sds)
		n = nr_sds;
	return nr_shared ? (n ? n : 1) : 0;
}

/* The run's workers, and which SDs each drives: the SDs not run per thread through
 * eng_place_sds() (one backend per worker), then each per-thread SD's parts in order, one
 * worker per thread. */
static uint32_t place_workers(const struct eng_exec *x, struct eng_run *r)
{
	bool has_parts;
	uint32_t n = nr_workers(x, r, &has_parts), k;
	bool *placed = calloc(r->nr_sds ? r->nr_sds : 1, sizeof(*placed));

	if (!placed)
		return 0;
	for (size_t s = 0; s < r->nr_sds; s++)
		placed[s] = n && is_shared(x, r, s);
	k = eng_place_sds(r, placed, n);
	free(placed);
	if (has_parts) {
		/* the parts of an SD share each generator's sequential position */
		free(r->seq_cursors);
		r->seq_cursors =
			aligned_alloc(alignof(struct gen_seq_cursor),
				      (r->nr_wgs ? r->nr_wgs : 1) * sizeof(*r->seq_cursors));
		if (!r->seq_cursors)
			return 0;
		memset(r->seq_cursors, 0, (r->nr_wgs ? r->nr_wgs : 1) * sizeof(*r->seq_cursors));
		for (size_t s = 0; s < r->nr_sds; s++) {
			if (!is_per_thread(x, r, s) || r->sds[s].is_serial)
				continue;
			r->sds[s].worker = k;
			k += r->sds[s].nr_parts;
		}
		k = eng_place_serial(r, k, x->nr_cpus ? x->nr_cpus : 1);
	}
	return k || x->clu ? k : 1;
}

/* The workers of the SDs place_workers() gave them; all are ready before the start time is
 * chosen. */
static int workers_init(struct eng_exec *x, struct eng_run *r, struct eng_worker *w,
			struct parm_err *err)
{
	char msg[512];
	int ret;

	for (uint32_t i = 0; i < r->nr_workers; i++) {
		ret = eng_worker_init(&w[i], r, i, eng_worker_engine(r, i), msg, sizeof(msg));
		if (ret) {
			parm_errf(err, NULL, "%s", msg);
			return ret;
		}
		if (msg[0] && !x->engine_noted) {
			rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_BACKEND_NOTE,
								    .text = msg });
			x->engine_noted = true;
		}
	}
	return 0;
}

/* Arms and starts the workers for r->start_ns. */
static int workers_start(struct eng_exec *x, struct eng_run *r, struct eng_worker *w,
			 uint32_t *nr_started, struct parm_err *err)
{
	int ret;

	if (r->is_recording) {
		eng_recorder_start(x->recorder, r->start_ns);
		eng_recorder_run(x->recorder, r->wd_names, r->start_ns);
	}
	for (uint32_t i = 0; i < r->nr_workers; i++) {
		ret = eng_worker_arm(&w[i]);
		if (!ret)
			ret = eng_sleeper_join(&x->clock, &w[i].sleeper);
		if (!ret)
			ret = -pthread_create(&w[i].thread, NULL, eng_worker_main, &w[i]);
		if (ret) {
			eng_sleeper_leave(&w[i].sleeper);
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
	/* the drain goes on in virtual time without the controller, which waits outside it */
	eng_sleeper_leave(&x->controller);
	eng_clock_kick(&x->clock);
	/* workers may wait for room in their record ring: keep draining until they are done */
	for (uint32_t i = 0; w[0].rec && i < nr_started; i++) {
		while (!atomic_load_explicit(&w[i].is_done, memory_order_acquire)) {
			eng_recorder_drain(x->recorder, w, nr_started, false);
			eng_clock_nap(1000000);
		}
	}
	for (uint32_t i = 0; i < nr_started; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].fatal && !fatal) {
			fatal = w[i].fatal;
			rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_WORKER_FAILED,
								    .worker = i,
								    .err = -w[i].fatal });
		}
	}
	if (nr_init && w[0].rec && nr_started == nr_init)
		eng_recorder_drain(x->recorder, w, nr_started, true);
	for (uint32_t i = 0; i < nr_init; i++)
		eng_worker_fini(&w[i]);
	if (eng_sleeper_join(&x->clock, &x->controller) && !fatal)
		fatal = -ENOMEM;
	eng_sleeper_listen(&x->controller);
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

	if (!nr)
		return status;
	if (status == ENG_INTERRUPTED) { /* the signal decides the exit; the count is still said */
		x->nr_io_errors += nr;
		if (!x->dv)
			rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_ERROR_TOTAL,
								    .nr_errors = nr });
		return status;
	}
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
	x->nr_io_errors += nr;
	if (!x->dv) /* else the validation summary counts both kinds in one line */
		rep_set_event(x->reps,
			      &(struct rep_event){ .kind = REP_EV_ERROR_TOTAL, .nr_errors = nr });
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
		       const struct rep_run *rr, double *observed, struct parm_err *err)
{
	struct eng_collect c = {
		.clu = x->clu,
		.nr_hosts = rr->nr_hosts,
		.nr_slaves = rr->nr_slaves,
		.plan = x->plan,
		.run = r,
		.opts = x->opts,
		.reps = x->reps,
		.rr = rr,
		.workers = w,
		.nr_workers = r->nr_workers,
		.sleeper = &x->controller,
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
	end.is_interrupted = status == ENG_INTERRUPTED;
	/* interrupted before an interval could be averaged: no avg_ line (VDbench prints none
	 * after Ctrl-C; a complete run's empty average still prints, with NaN, as VDbench's) */
	end.avg = end.is_interrupted && !avg.nr_intervals ? NULL : &avg;
	end.is_eof = c.is_eof;
	end.observed_iops =
		c.avg_elapsed_ns
			? stats_rate_per_sec(avg.total->op[0].nr_ios + avg.total->op[1].nr_ios,
					     c.avg_elapsed_ns)
			: 0;
	*observed = end.observed_iops;
	eng_collect_verdict(&c, &avg, &end);
	if (end.has_target && !end.is_target_met && status == ENG_OK)
		x->nr_missed++;
	{
		struct stats_counters all;

		stats_bank_total(avg.total, &all);
		x->last_resp_ms = stats_counters_mean_ns(&all) / 1e6;
	}
	rep_set_event(x->reps,
		      &(struct rep_event){ .kind = REP_EV_RUN_END, .run = rr, .run_end = &end });
	if (status == ENG_OK && eng_check_skew_abort(x->plan, rr, &avg, err))
		status = ENG_FAILED;
	if (c.stalled_sd >= 0) {
		const struct parm_general *g = &x->plan->cfg->general;

		parm_errf(err, &g->set.val[PARM_KW_TIMEOUT]->loc,
			  "rd=%s: sd=%s completed no I/O in %.0f seconds with I/O outstanding; "
			  "timeout=%s ended the execution",
			  r->prun ? r->prun->name : "SD_format", rr->sd_names[c.stalled_sd],
			  g->timeout_abort_s, g->set.val[PARM_KW_TIMEOUT]->text);
	}
	eng_collect_fini(&c);
	return status;
}

/* The start: on one host the next whole second; on many, the time every rank agreed on (a
 * failure anywhere fails the run everywhere before any I/O). */
static int run_start_time(struct eng_exec *x, struct eng_run *r, int status, struct parm_err *err)
{
	if (!x->clu) {
		r->start_ns = (eng_clock_now(&x->clock) / ENG_NSEC_PER_SEC + 1) * ENG_NSEC_PER_SEC;
		return status;
	}
	return eng_clu_start(x, status, err, &r->start_ns);
}

/* Many hosts: how the run ended everywhere, and rank 0's observed rate for all. */
static int run_end_vote(struct eng_exec *x, int status, double *observed, struct parm_err *err)
{
	if (!x->clu)
		return status;
	return eng_clu_run_end(x, status, observed, err);
}

int eng_run_execute(struct eng_exec *x, struct eng_run *r, size_t run_idx, struct parm_err *err)
{
	struct eng_feeder feeder = { 0 };
	struct eng_worker *w;
	struct run_view v;
	uint32_t nr_started = 0;
	double observed = 0;
	bool has_started;
	int status, ret;

	r->clock = &x->clock;
	/* a replay keeps the trace's own timing; modelled drives (virtual time) stay exact */
	r->wake_batch_ns = x->opts->wake_batch_ns == UINT64_MAX || r->is_replay ? 0
			   : x->opts->wake_batch_ns ? x->opts->wake_batch_ns
			   : x->clock.is_virtual    ? 0
						    : ENG_WAKE_BATCH_NS;
	r->seed = x->clu ? eng_clu_seed(x->clu, x->opts->seed) : x->opts->seed;
	r->is_recording = x->recorder && r->prun; /* the format pass is not the workload */
	eng_run_engines(x, r);
	if (x->dv && r->prun) { /* validation: every SD of the run, never the format pass */
		r->dv = x->dv;
		for (size_t s = 0; s < r->nr_sds; s++)
			r->sds[s].dv = &x->dv->sds[r->sds[s].cfg_idx];
	}
	if (x->pattern && r->prun) { /* pattern=: the workload's writes, not the format's */
		r->pattern = x->pattern;
		r->pattern_len = x->pattern_len;
	}
	if (x->dedup) { /* one pattern for the execution: a set's data never changes */
		r->dedup = x->dedup;
		r->dedup_pattern = eng_dedup_pattern(x->dedup, r->compratio, ENG_DEDUP_SEED);
		if (!r->dedup_pattern) {
			parm_errf(err, NULL, "out of memory");
			return ENG_FAILED;
		}
	}
	r->nr_workers = place_workers(x, r); /* after the stages: they decide per thread or not */
	if (write_gates_init(x, r)) {
		parm_errf(err, NULL, "out of memory");
		return ENG_FAILED;
	}
	ret = eng_check_alignment(x, r, err);
	if (ret && !x->clu)
		return ENG_BAD_PARMS;
	if (ret) {
		uint64_t ignored;

		return eng_clu_start(x, ENG_BAD_PARMS, err, &ignored);
	}
	w = aligned_alloc(IORAMP_CACHELINE, (r->nr_workers ? r->nr_workers : 1) * sizeof(*w));
	if (!w || view_build(&v, x, r, run_idx)) {
		free(w);
		parm_errf(err, NULL, "out of memory");
		return ENG_FAILED;
	}
	memset(w, 0, (r->nr_workers ? r->nr_workers : 1) * sizeof(*w));
	eng_note_engines(x, r);
	rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_RUN_START, .run = &v.rr });
	ret = workers_init(x, r, w, err);
	status = run_start_time(x, r, ret ? ENG_FAILED : ENG_OK, err);
	if (status == ENG_OK)
		ret = workers_start(x, r, w, &nr_started, err);
	if (status == ENG_OK && !ret && r->is_replay)
		ret = feeder_start(x, r, w, &feeder, err);
	has_started = status == ENG_OK; /* else no run-end vote: the run never started */
	if (status == ENG_OK)
		status = ret ? ENG_FAILED : run_collect(x, r, w, &v.rr, &observed, err);
	eng_sleeper_leave(&x->controller); /* it waits for threads: time goes on without it */
	if (feeder.run) {
		eng_feeder_stop(&feeder);
		if (feeder.error && status == ENG_OK) {
			parm_errf(err, NULL, "trace=%s: %s", r->trace->path, feeder.msg);
			status = ENG_FAILED;
		}
		free(feeder.rings);
	}
	if (workers_stop(x, w, nr_started, r->nr_workers) && status == ENG_OK) {
		status = ENG_FAILED;
		if (x->clu && !eng_clu_is_root(x->clu))
			parm_errf(err, NULL, "a worker failed; see this rank's console");
	}
	eng_collect_io_errors(x->reps, x->plan, r, w, r->nr_workers); /* those of the drain */
	status = io_errors_status(x, r, w, status, err);
	status = eng_dv_run_end(x, r, w, r->nr_workers, status);
	if (has_started)
		status = run_end_vote(x, status, &observed, err);
	if (r->prun)
		x->observed_iops[run_idx] = observed;
	view_fini(&v);
	free(w);
	return status;
}
