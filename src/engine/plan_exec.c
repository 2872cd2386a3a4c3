/* eng_execute(): the whole plan. Checks what is not supported, opens the targets, formats what
 * is missing, then runs each run with the rate its curve or relative rate derives from the run
 * it follows; stopcurve= ends the execution (reference §9.9, §13.3). */
#include "cluster.h"
#include "exec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool is_signalled(const struct eng_exec *x)
{
	return x->opts->stop_signal && *x->opts->stop_signal;
}

static uint64_t now_ns(const struct eng_exec *x)
{
	return eng_clock_now(&x->clock);
}

/* pause= sleeps before the next run, in steps so that a signal is noticed. */
static void pause_between(struct eng_exec *x, uint64_t secs)
{
	uint64_t end_ns = now_ns(x) + secs * ENG_NSEC_PER_SEC;

	while (!is_signalled(x) && now_ns(x) < end_ns)
		eng_sleeper_until(&x->controller,
				  end_ns < now_ns(x) + 50000000 ? end_ns : now_ns(x) + 50000000);
}

static int run_format(struct eng_exec *x, struct parm_err *err)
{
	struct eng_run r;
	int ret = eng_format_build(x, &r);

	if (ret == 1) {
		eng_run_fini(&r);
		return ENG_OK;
	}
	if (ret < 0) {
		eng_run_fini(&r);
		parm_errf(err, NULL, "out of memory");
		return ENG_FAILED;
	}
	ret = eng_run_execute(x, &r, (size_t)-1, err);
	eng_run_fini(&r);
	return ret;
}

/* stopcurve=ms: a curve point whose mean service time is above it ends everything. */
static bool is_curve_stopped(const struct eng_exec *x, size_t i)
{
	const struct plan_run *r = &x->plan->runs[i];

	if (r->rate != PLAN_RATE_CURVE_POINT || r->stopcurve_ms <= 0 ||
	    x->last_resp_ms <= r->stopcurve_ms)
		return false;
	rep_set_event(x->reps, &(struct rep_event){
				       .kind = REP_EV_STOPCURVE,
				       .rd = r->name,
				       .stopcurve_ms = r->stopcurve_ms,
				       .resp_ms = x->last_resp_ms,
			       });
	return true;
}

static int make_replay(struct eng_exec *x, struct eng_run *r, struct parm_err *err)
{
	const struct plan_run *pr = r->prun;
	const struct parm_rd *rd = &x->plan->cfg->rds[pr->rd_idx];
	bool has_elapsed =
		parm_kwset_has(&rd->set, PARM_KW_ELAPSED) || x->plan->cfg->overrides.has_elapsed;

	if (!rd->trace)
		return 0;
	if (eng_run_replay(r, x->plan->cfg, &x->traces[pr->rd_idx], has_elapsed))
		return parm_errf(err, &rd->loc, "out of memory"), -ENOMEM;
	return 0;
}

/* An RD's startcmd=/endcmd= through the caller's hook (the command line runs them). */
static void rd_command(const struct eng_exec *x, const struct plan_run *pr, enum parm_kw kw)
{
	const struct parm_val *v = x->plan->cfg->rds[pr->rd_idx].set.val[kw];

	if (v && x->opts->command)
		x->opts->command(x->opts->command_ctx, v, kw == PARM_KW_ENDCMD);
}

/* Builds run i; on many hosts with this rank's share. A failure on one rank fails the run on
 * every rank through the start vote. */
static int build_run(struct eng_exec *x, size_t i, struct eng_run *r, struct parm_err *err)
{
	const struct plan_run *pr = &x->plan->runs[i];
	struct clu_share share = { 0 };
	struct eng_run_src src = {
		.plan = x->plan,
		.run_idx = i,
		.base_iops = pr->base_run >= 0 ? x->observed_iops[pr->base_run] : 0,
		.targets = x->targets,
	};
	int ret = 0;

	if (x->clu) {
		ret = clu_share_build(x->clu->map, x->plan, i, x->clu->rank, &share);
		src.share = &share;
		if (ret)
			parm_errf(err, NULL, "out of memory");
	}
	if (!ret)
		ret = eng_run_build(r, &src, err) || make_replay(x, r, err);
	clu_share_fini(&share);
	if (ret && x->clu) {
		uint64_t ignored;

		return eng_clu_start(x, ENG_BAD_PARMS, err, &ignored);
	}
	return ret ? ENG_BAD_PARMS : ENG_OK;
}

/* Every run of the plan once. */
static int run_plan(struct eng_exec *x, struct parm_err *err)
{
	const struct plan *plan = x->plan;
	int status = ENG_OK;

	for (size_t i = 0; status == ENG_OK && i < plan->nr_runs; i++) {
		const struct plan_run *pr = &plan->runs[i];
		struct eng_run r;

		status = build_run(x, i, &r, err);
		if (status != ENG_OK) {
			eng_run_fini(&r);
			return status;
		}
		rd_command(x, pr, PARM_KW_STARTCMD);
		status = eng_run_execute(x, &r, i, err);
		rd_command(x, pr, PARM_KW_ENDCMD);
		eng_run_fini(&r);
		if (status == ENG_OK && is_signalled(x) && !x->clu)
			status =
				ENG_INTERRUPTED; /* many hosts: rank 0 decided, in the run-end vote */
		if (status != ENG_OK || is_curve_stopped(x, i))
			break;
		if (pr->pause_s && i + 1 < plan->nr_runs)
			pause_between(x, pr->pause_s);
	}
	return status;
}

/* Whether to run the plan again: on many hosts rank 0's answer (its clock decides). */
static bool loop_again(struct eng_exec *x, bool mine)
{
	struct eng_clu_vote *v;
	bool again;

	if (!x->clu)
		return mine;
	v = calloc(1, sizeof(*v));
	if (!v)
		return false;
	v->value = mine;
	eng_clu_gather(x, v);
	eng_clu_answer(x, v);
	again = v->status == ENG_OK && v->value;
	free(v);
	return again;
}

/* loop=n (or -l n) runs the plan n times, or until a time has passed (plan_loop_count). */
static int run_all(struct eng_exec *x, struct parm_err *err)
{
	uint64_t for_ns, until_ns, nr = plan_loop_count(x->plan->cfg, &for_ns);
	int status = run_format(x, err);

	if (status == ENG_OK && x->has_format && eng_targets_formatted(x, err))
		status = ENG_FAILED;
	if (status == ENG_OK && x->has_format)
		status = eng_dv_formatted(x, err); /* what the format pass wrote holds no key */
	until_ns = for_ns ? now_ns(x) + for_ns : 0;
	for (uint64_t k = 0;
	     status == ENG_OK && loop_again(x, until_ns ? now_ns(x) < until_ns : k < nr); k++)
		status = run_plan(x, err);
	return status;
}

static bool needs_format(const struct eng_exec *x)
{
	for (size_t s = 0; s < x->plan->cfg->nr_sds; s++)
		if (x->clu ? x->clu->is_fmt[s] : x->needs[s].is_format)
			return true;
	return false;
}

/* Every RD that replays a trace: read it once now, so a bad trace fails before any I/O. */
static int scan_traces(struct eng_exec *x, struct parm_err *err)
{
	const struct parm_config *cfg = x->plan->cfg;

	x->traces = calloc(cfg->nr_rds ? cfg->nr_rds : 1, sizeof(*x->traces));
	if (!x->traces)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	for (size_t i = 0; i < cfg->nr_rds; i++) {
		const struct parm_rd *rd = &cfg->rds[i];
		const struct parm_val *v = rd->set.val[PARM_KW_TRACE] ? rd->set.val[PARM_KW_TRACE]
								      : rd->set.val[PARM_KW_REPLAY];
		int ret;

		if (!rd->trace)
			continue;
		ret = eng_trace_scan(rd, v ? &v->loc : &rd->loc, &x->traces[i], err);
		if (ret)
			return ret;
	}
	return 0;
}

static int open_recorder(struct eng_exec *x, struct parm_err *err)
{
	size_t nr = x->plan->cfg->nr_sds;
	bool *used = calloc(nr ? nr : 1, sizeof(*used));
	int ret;

	if (!used)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	for (size_t s = 0; s < nr; s++)
		used[s] = x->needs[s].is_used;
	ret = eng_recorder_open(&x->recorder, x->opts->record_path, x->plan, used, err);
	free(used);
	return ret;
}

static int open_all(struct eng_exec *x, struct parm_err *err);

/* pattern=: its file read before any I/O; validation and dedup write data of their own. */
static int open_pattern(struct eng_exec *x, struct parm_err *err)
{
	const struct parm_general *g = &x->plan->cfg->general;
	const struct parm_val *v = g->set.val[PARM_KW_PATTERN];

	if (v && x->dv_opts.is_on)
		return parm_errf(err, &v->loc, "not supported yet: pattern= with data validation");
	if (v && g->dedupunit_bytes)
		return parm_errf(err, &v->loc, "not supported yet: pattern= with dedup");
	return eng_pattern_load(x->plan->cfg, &x->pattern, &x->pattern_len, err);
}

/* dedupunit=: the layout of every SD in use, from its size= or its device's size. is_check:
 * from size= alone, before any file is made, to fail early; the layout is dropped. */
static int open_dedup(struct eng_exec *x, bool is_check, struct parm_err *err)
{
	const struct parm_config *cfg = x->plan->cfg;
	struct eng_dedup *d;
	uint64_t *bytes;
	int ret;

	if (x->dv_opts.is_on && cfg->general.concatenatesds) /* the checks are per SD */
		return parm_errf(err, &cfg->general.set.val[PARM_KW_CONCATENATESDS]->loc,
				 "not supported yet: concatenatesds=yes with data validation");
	if (!cfg->general.dedupunit_bytes)
		return 0;
	if (x->dv_opts.is_on)
		return parm_errf(err, &cfg->general.set.val[PARM_KW_DEDUPUNIT]->loc,
				 "not supported yet: dedup with data validation");
	bytes = calloc(cfg->nr_sds ? cfg->nr_sds : 1, sizeof(*bytes));
	if (!bytes)
		return parm_errf(err, NULL, "out of memory");
	for (size_t i = 0; i < cfg->nr_sds; i++) {
		uint64_t want = cfg->sds[i].size_bytes;
		uint64_t dev = is_check ? 0 : x->targets[i].size_bytes;

		if (is_check)
			bytes[i] = want;
		else if (x->needs[i].is_used)
			bytes[i] =
				want && (!dev || want < dev || x->needs[i].is_extend) ? want : dev;
	}
	ret = eng_dedup_new(cfg, bytes, &d, err);
	free(bytes);
	if (is_check)
		eng_dedup_free(d);
	else
		x->dedup = d;
	return ret;
}

/* The engine's name and options; an engine= of the parameter file is blamed at its place.
 * Modelled drives run on one host. */
static int check_engine(struct eng_exec *x, struct parm_err *err)
{
	const struct parm_val *v = x->plan->cfg->general.set.val[PARM_KW_ENGINE];
	const struct parm_loc *loc = !x->opts->engine && v ? &v->loc : NULL;
	char msg[sizeof(err->msg)];

	if (eng_backend_check_name(x->engine, msg, sizeof(msg)))
		return parm_errf(err, loc, "%s", msg);
	x->is_model = eng_model_is(x->engine);
	if (x->is_model && eng_model_parse(x->engine, &x->model, msg, sizeof(msg)))
		return parm_errf(err, loc, "%s", msg);
	if (x->is_model && x->opts->cluster)
		return parm_errf(err, loc,
				 "engine %s: modelled drives run on one host; expected no MPI job",
				 x->engine);
	return 0;
}

int eng_exec_new(const struct plan *plan, const struct eng_opts *o, struct eng_exec **out,
		 struct parm_err *err)
{
	struct eng_exec *x = calloc(1, sizeof(*x));
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(err, 0, sizeof(*err));
	*out = x;
	if (!x) {
		parm_errf(err, NULL, "out of memory");
		return ENG_FAILED;
	}
	x->plan = plan;
	x->opts = o;
	x->nr_cpus = cpus > 0 ? (uint32_t)cpus : 1;
	x->engine = o->engine ? o->engine : plan->cfg->general.engine;
	if (eng_check_supported(plan, o->cluster != NULL, err))
		return ENG_BAD_PARMS;
	if (check_engine(x, err))
		return ENG_BAD_PARMS;
	/* modelled drives always run in virtual time */
	if (eng_clock_init(&x->clock, x->is_model || o->is_virtual_time)) {
		parm_errf(err, NULL, "out of memory");
		return ENG_FAILED;
	}
	x->observed_iops = calloc(plan->nr_runs ? plan->nr_runs : 1, sizeof(*x->observed_iops));
	if (!x->observed_iops || eng_clu_new(x)) {
		parm_errf(err, NULL, "out of memory");
		return ENG_FAILED;
	}
	return open_all(x, err);
}

/* Validation options, targets, recorder and traces; on many hosts every rank's outcome is voted
 * on (a lun missing on one host fails the execution everywhere, before any I/O), then the SDs to
 * format. */
static int open_all(struct eng_exec *x, struct parm_err *err)
{
	int status = ENG_OK;

	if (eng_dv_opts(x, &x->dv_opts, err) || eng_dv_check(x, err)) {
		status = ENG_BAD_PARMS;
	} else if (x->clu && x->dv_opts.is_on) { /* each rank would keep its own key map */
		parm_errf(err, NULL, "data validation and journals do not run in an MPI job yet");
		status = ENG_BAD_PARMS;
	}
	if (status == ENG_OK && open_dedup(x, true, err))
		status = ENG_BAD_PARMS;
	if (status == ENG_OK && open_pattern(x, err))
		status = ENG_BAD_PARMS;
	if (status == ENG_OK && scan_traces(x, err)) /* first: a trace that writes opens RDWR */
		status = ENG_BAD_PARMS;
	if (status == ENG_OK && eng_targets_open(x, err))
		status = ENG_BAD_PARMS;
	if (status == ENG_OK && eng_check_runs(x, err)) /* every RD before any I/O */
		status = ENG_BAD_PARMS;
	if (status == ENG_OK && eng_dv_new(x, err))
		status = ENG_BAD_PARMS;
	if (status == ENG_OK && open_dedup(x, false, err))
		status = ENG_BAD_PARMS;
	if (status == ENG_OK && x->plan->cfg->general.is_showlba && x->opts->record_path) {
		parm_errf(err, &x->plan->cfg->general.set.val[PARM_KW_SHOWLBA]->loc,
			  "showlba=yes and --record %s both record every I/O; expected one of "
			  "them",
			  x->opts->record_path);
		status = ENG_BAD_PARMS;
	} else if (status == ENG_OK && x->plan->cfg->general.is_showlba && !x->clu) {
		/* VDbench writes it in the current directory [observed] */
		int ret = eng_recorder_open_showlba(&x->recorder, "localhost-0.showlba.txt",
						    x->plan, err);

		if (ret)
			status = ret == -ENOMEM ? ENG_FAILED : ENG_BAD_PARMS;
	} else if (status == ENG_OK && x->opts->record_path) {
		int ret = open_recorder(x, err);

		/* a --record path that cannot be made is a usage error, like any other argument */
		if (ret)
			status = ret == -ENOMEM ? ENG_FAILED : ENG_BAD_PARMS;
	}
	if (x->clu) {
		status = eng_clu_agree(x, status, err, err);
		if (status == ENG_OK)
			status = eng_clu_format_sds(x, err);
	}
	if (status == ENG_OK)
		x->has_format = needs_format(x);
	return status;
}

uint32_t eng_exec_nr_missed(const struct eng_exec *x)
{
	return x ? x->nr_missed : 0;
}

bool eng_exec_has_format(const struct eng_exec *x)
{
	return x && x->has_format;
}

uint64_t eng_exec_tod_ns(const void *x)
{
	return eng_clock_tod_ns(&((const struct eng_exec *)x)->clock);
}

int eng_exec_run(struct eng_exec *x, struct rep_set *reps, struct parm_err *err)
{
	int status, ret;

	memset(err, 0, sizeof(*err));
	x->reps = reps;
	if (eng_sleeper_join(&x->clock, &x->controller)) {
		parm_errf(err, NULL, "out of memory");
		return ENG_FAILED;
	}
	eng_sleeper_listen(&x->controller);
	eng_note_no_effect(x->plan, x->clu != NULL, reps);
	eng_dedup_describe(x->dedup, x->plan->cfg, reps);
	status = eng_dv_begin(x, err);
	if (status == ENG_OK && !x->dv_opts.is_recover_only)
		status = run_all(x, err);
	status = eng_dv_end(x, status);
	eng_sleeper_leave(&x->controller);
	ret = eng_recorder_close(x->recorder);
	x->recorder = NULL;
	if (ret && status == ENG_OK) {
		parm_errf(err, NULL, "%s %s: %s", x->opts->record_path ? "--record" : "showlba=yes",
			  x->opts->record_path ? x->opts->record_path : "localhost-0.showlba.txt",
			  strerror(-ret));
		status = ENG_FAILED;
	}
	return status;
}

void eng_exec_free(struct eng_exec *x)
{
	if (!x)
		return;
	eng_recorder_close(x->recorder);
	for (size_t i = 0; x->traces && i < x->plan->cfg->nr_rds; i++)
		eng_trace_info_fini(&x->traces[i]);
	free(x->traces);
	eng_dv_free(x->dv);
	eng_dedup_free(x->dedup);
	free(x->pattern);
	eng_targets_close(x);
	free(x->observed_iops);
	eng_clu_free(x->clu);
	eng_clock_fini(&x->clock);
	free(x);
}

bool eng_exec_has_lost_rank(const struct eng_exec *x)
{
	return x && x->clu && x->clu->has_lost;
}

int eng_execute(const struct plan *plan, const struct eng_opts *o, struct rep_set *reps,
		struct parm_err *err)
{
	struct eng_exec *x;
	int status = eng_exec_new(plan, o, &x, err);

	if (status == ENG_OK)
		status = eng_exec_run(x, reps, err);
	eng_exec_free(x);
	return status;
}
