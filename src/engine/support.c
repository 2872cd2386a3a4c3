/* What the engine does not do (yet): parameters that parse and validate but would change what a
 * run means are refused before any I/O with "not supported yet: KEYWORD", never ignored.
 * Parameters that only tune VDbench's Java machinery (JVMs, ports, message scans) have no
 * meaning here; they are accepted with one note each. */
#include "exec.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
static const enum parm_kw unsupported[] = {
	PARM_KW_DEDUPRATIO, /* dedupratio=, dedupsets= and dedupflipflop=no: general only */
	PARM_KW_DEDUPSETS,
	PARM_KW_DEDUPFLIPFLOP,
	PARM_KW_DEDUPHOTSETS,
	PARM_KW_MONITOR,
	PARM_KW_REPLAY,
	PARM_KW_MOUNT,
	PARM_KW_USER,
};

static const enum parm_kw no_effect[] = {
	PARM_KW_PORT,
	PARM_KW_MESSAGESCAN,
	PARM_KW_DEBUG,
	PARM_KW_SWAT,
	PARM_KW_PSRSET,
	PARM_KW_AUXREPORT,
	PARM_KW_PATTERN_BUFFER,
	PARM_KW_HEARTBEAT_ERROR,
	PARM_KW_COMPRESSIONSEED,
	PARM_KW_FWD_THREAD_ADJUST,
	PARM_KW_CREATE_ANCHORS,
	PARM_KW_KSTAT,
	PARM_KW_INSTANCE,
	PARM_KW_MISC, /* VDbench's undocumented knobs; a replay's filters are refused (check_rd) */
};

/* SD settings VDbench 5.04.07 accepts and ignores on Linux (Solaris only; observed: no line). */
static const enum parm_kw sd_no_effect[] = {
	PARM_KW_RESETLUN,
	PARM_KW_RESETBUS,
};
/* clang-format on */

static bool is_listed(enum parm_kw kw, const enum parm_kw *list, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (list[i] == kw)
			return true;
	return false;
}

/* handled: keywords of the list the caller handles itself. */
static int check_set(const struct parm_kwset *set, const enum parm_kw *handled, size_t nr_handled,
		     struct parm_err *err)
{
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(unsupported); i++) {
		const struct parm_val *v = set->val[unsupported[i]];

		if (v && !is_listed(unsupported[i], handled, nr_handled))
			return parm_errf(err, &v->loc, "not supported yet: %s",
					 parm_kw_name(unsupported[i]));
	}
	return 0;
}

/* timeout=: seconds, with abort or a second time (stall.c); a script, report, or a job of
 * many hosts (whose interval loop does not watch for stalls) is not supported yet. */
static int check_timeout(const struct parm_general *g, bool is_cluster, struct parm_err *err)
{
	const struct parm_val *v = g->set.val[PARM_KW_TIMEOUT];

	if (!v)
		return 0;
	if (!(g->timeout_s > 0))
		return parm_errf(err, &v->loc,
				 "not supported yet: timeout=%s; expected timeout=secs, "
				 "(secs,abort) or (secs,secs2)",
				 v->text);
	if (is_cluster)
		return parm_errf(err, &v->loc, "not supported yet: timeout= in an MPI job");
	return 0;
}

/* The general dedup settings (dedup.c), without hot sets or flipflops. */
static int check_general(const struct parm_general *g, struct parm_err *err)
{
	static const enum parm_kw dedup[] = { PARM_KW_DEDUPRATIO, PARM_KW_DEDUPSETS,
					      PARM_KW_DEDUPFLIPFLOP };
	const struct parm_val *v = g->set.val[PARM_KW_DEDUPFLIPFLOP];

	if (g->dedupflipflop != PARM_FLIPFLOP_NO)
		return parm_errf(err, &v->loc, "not supported yet: dedupflipflop=%s", v->text);
	return check_set(&g->set, dedup, IORAMP_ARRAY_SIZE(dedup), err);
}

/* Multi-host: an HD other than this machine runs only in an MPI job (reference §3). */
static int check_hosts(const struct parm_config *cfg, bool is_cluster, struct parm_err *err)
{
	for (size_t i = 0; i < cfg->nr_hds; i++) {
		const struct parm_hd *hd = &cfg->hds[i];
		const char *sys = hd->system ? hd->system : hd->name;

		if (!is_cluster && strcmp(sys, "localhost") && strcmp(sys, "127.0.0.1"))
			return parm_errf(err, &hd->loc,
					 "hd=%s runs on another host; expected hd=localhost or no "
					 "hd=, or an MPI job: mpirun -np N ioramp (built with make "
					 "MPI=1)",
					 hd->name);
		if (parm_kwset_has(&hd->set, PARM_KW_CLIENTS) && !is_cluster)
			/* VDbench 5.04.07 fails the same way when its slaves start (observed) */
			return parm_errf(
				err, &hd->set.val[PARM_KW_CLIENTS]->loc,
				"hd=%s,clients= on this host alone: VDbench fails too "
				"(\"Invalid network definition for multi-host "
				"processing\"); expected clients= on the hd= of other hosts",
				hd->name);
		if (parm_kwset_has(&hd->set, PARM_KW_CLIENTS))
			return parm_errf(err, &hd->set.val[PARM_KW_CLIENTS]->loc,
					 "not supported yet: clients= in an MPI job");
	}
	return 0;
}

static int check_rd(const struct parm_rd *rd, const struct parm_val *misc, struct parm_err *err)
{
	static const enum parm_kw replay[] = { PARM_KW_REPLAY }; /* replay=FILE is trace=FILE */
	const struct parm_val *v = rd->set.val[PARM_KW_DISTRIBUTION];

	if (rd->trace && misc)
		return parm_errf(
			err, &misc->loc,
			"not supported yet: misc= with a trace= replay (its replay filters); "
			"expected no misc=");
	if (v && rd->trace && (rd->is_variable || rd->is_spike))
		return parm_errf(err, &v->loc,
				 "distribution=%s does not apply to a trace= replay; expected "
				 "iorate=N, max or curve to set the replay's speed",
				 rd->is_variable ? "variable" : "spike");
	return check_set(&rd->set, replay, IORAMP_ARRAY_SIZE(replay), err);
}

/* Replay on many hosts would need the trace split over the ranks. */
static int check_cluster_replay(const struct parm_config *cfg, struct parm_err *err)
{
	for (size_t i = 0; i < cfg->nr_rds; i++)
		if (cfg->rds[i].trace)
			return parm_errf(err, &cfg->rds[i].loc,
					 "not supported yet: trace= replay in an MPI job; expected "
					 "a replay on one host");
	return 0;
}

/* streams=: VDbench 5.04.07 runs it only at iorate=max ("Use of the streams= parameter requires
 * iorate=max", observed); the streams themselves are built in run_build.c. */
static int check_streams(const struct plan *plan, struct parm_err *err)
{
	for (size_t r = 0; r < plan->nr_runs; r++) {
		const struct plan_run *run = &plan->runs[r];

		for (size_t i = 0; i < run->nr_wds; i++) {
			const struct parm_val *v = run->wds[i]->set.val[PARM_KW_STREAMS];

			if (v && run->rate != PLAN_RATE_MAX)
				return parm_errf(err, &v->loc,
						 "wd=%s: streams= in rd=%s needs iorate=max, as "
						 "VDbench requires it",
						 run->wds[i]->name, run->name);
		}
	}
	return 0;
}

int eng_check_supported(const struct plan *plan, bool is_cluster, struct parm_err *err)
{
	const struct parm_config *cfg = plan->cfg;
	int ret = check_general(&cfg->general, err);

	if (!ret)
		ret = check_timeout(&cfg->general, is_cluster, err);
	/* <host>.<sd>.html and <host>-<n>.<sd>.html on one host: src/report/vdb_hostdetail.c */
	if (!ret && is_cluster && cfg->general.host_detail)
		ret = parm_errf(err, &cfg->general.host_detail->loc,
				"not supported yet: report=%s in an MPI job",
				cfg->general.host_detail->text);
	if (!ret)
		ret = check_hosts(cfg, is_cluster, err);
	if (!ret)
		ret = check_streams(plan, err);
	if (!ret && is_cluster)
		ret = check_cluster_replay(cfg, err);
	if (!ret && is_cluster && cfg->general.is_showlba)
		ret = parm_errf(err, &cfg->general.set.val[PARM_KW_SHOWLBA]->loc,
				"not supported yet: showlba=yes in an MPI job");
	if (!ret && is_cluster && cfg->general.set.val[PARM_KW_ABORT_FAILED_SKEW])
		ret = parm_errf(err, &cfg->general.set.val[PARM_KW_ABORT_FAILED_SKEW]->loc,
				"not supported yet: abort_failed_skew= in an MPI job");
	for (size_t i = 0; !ret && i < cfg->nr_sds; i++)
		ret = check_set(&cfg->sds[i].set, NULL, 0, err);
	for (size_t i = 0; !ret && i < cfg->nr_wds; i++)
		ret = check_set(&cfg->wds[i].set, NULL, 0, err);
	for (size_t i = 0; !ret && i < cfg->nr_rds; i++) {
		ret = check_rd(&cfg->rds[i], cfg->general.set.val[PARM_KW_MISC], err);
		if (!ret && cfg->rds[i].own_wd)
			ret = check_set(&cfg->rds[i].own_wd->set, NULL, 0, err);
	}
	return ret;
}

void eng_note_no_effect(const struct plan *plan, bool is_cluster, struct rep_set *reps)
{
	const struct parm_kwset *set = &plan->cfg->general.set;

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(no_effect); i++)
		if (set->val[no_effect[i]])
			rep_set_event(reps,
				      &(struct rep_event){ .kind = REP_EV_NO_EFFECT,
							   .keyword = parm_kw_name(no_effect[i]) });
	for (size_t k = 0; k < IORAMP_ARRAY_SIZE(sd_no_effect); k++)
		for (size_t i = 0; i < plan->cfg->nr_sds; i++)
			if (plan->cfg->sds[i].set.val[sd_no_effect[k]]) {
				rep_set_event(reps,
					      &(struct rep_event){
						      .kind = REP_EV_NO_EFFECT,
						      .keyword = parm_kw_name(sd_no_effect[k]) });
				break;
			}
	for (size_t i = 0; !is_cluster && i < plan->cfg->nr_hds; i++)
		if (parm_kwset_has(&plan->cfg->hds[i].set, PARM_KW_JVMS))
			rep_set_event(reps, &(struct rep_event){ .kind = REP_EV_JVMS_NO_EFFECT });
}

/* VDbench 5.04.07 [observed]: the largest |observed - requested| share over the run's WDs, for
 * uncontrolled max runs too, aborts when above the limit, after the run's reports. */
int eng_check_skew_abort(const struct plan *plan, const struct rep_run *rr,
			 const struct rep_sample *avg, struct parm_err *err)
{
	const struct parm_val *v = plan->cfg->general.set.val[PARM_KW_ABORT_FAILED_SKEW];
	double limit, max_delta = 0, worst_pct = 0;
	uint64_t total = 0;
	size_t worst = 0;

	if (!v || !rr->run || !avg || !avg->wd || !rr->wd_skew_pct ||
	    plan->cfg->rds[rr->run->rd_idx].trace)
		return 0;
	limit = strtod(v->text, NULL);
	for (size_t i = 0; i < rr->nr_wds; i++)
		total += avg->wd[i].op[STATS_OP_READ].nr_ios + avg->wd[i].op[STATS_OP_WRITE].nr_ios;
	if (!total)
		return 0;
	for (size_t i = 0; i < rr->nr_wds; i++) {
		uint64_t n =
			avg->wd[i].op[STATS_OP_READ].nr_ios + avg->wd[i].op[STATS_OP_WRITE].nr_ios;
		double pct = (double)n * 100.0 / (double)total;
		double d = fabs(pct - rr->wd_skew_pct[i]);

		if (d > max_delta) {
			max_delta = d;
			worst = i;
			worst_pct = pct;
		}
	}
	if (!(max_delta > limit))
		return 0;
	return parm_errf(err, &v->loc,
			 "rd=%s: wd=%s did %.2f%% of the I/O, off its skew of %.2f%% by %.2f%%, "
			 "more than abort_failed_skew=%.3f allows; see skew.html",
			 rr->name, rr->wd_names[worst], worst_pct, rr->wd_skew_pct[worst],
			 max_delta, limit);
}
