/* The fixed parts of results.json: the execution (command line, times, seed, engine,
 * version), the plan (every run as planned) and each executed run's description. */
#include "parts.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

json_t *rep_doc_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

void rep_doc_time(uint64_t tod_ns, char buf[64])
{
	time_t secs = (time_t)(tod_ns / 1000000000u);
	struct tm tm;

	if (!gmtime_r(&secs, &tm)) {
		snprintf(buf, 64, "1970-01-01T00:00:00.000Z");
		return;
	}
	snprintf(buf, 64, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (unsigned int)(tod_ns % 1000000000u / 1000000u));
}

static json_t *sla_list(const struct rep_exec *x)
{
	const double *ns = x->nr_sla ? x->sla_ns : rep_sla_default_ns;
	size_t nr = x->nr_sla ? x->nr_sla : REP_SLA_DEFAULT_NR;
	json_t *a = json_array();

	for (size_t i = 0; a && i < nr; i++)
		json_array_append_new(a, rep_doc_real(ns[i] / 1e3));
	return a;
}

/* Many hosts: [{"name": "ha", "slaves": ["ha-0", "ha-1"]}, ...]. */
static json_t *host_list(const struct rep_exec *x)
{
	json_t *a = json_array();

	for (size_t h = 0; a && h < x->nr_hosts; h++) {
		json_t *slaves = json_array();

		for (size_t i = 0; slaves && i < x->nr_slaves; i++)
			if (x->slave_host[i] == h)
				json_array_append_new(slaves, rep_json_text(x->slave_names[i]));
		json_array_append_new(
			a, json_pack("{s:o,s:o}", "name", rep_json_text(x->host_names[h]), "slaves", slaves));
	}
	return a;
}

/* {"name": "model", "spec": "model:...", "is_modelled": true, "is_virtual_time": true,
 * "model": {...}} for modelled drives; a real backend has "model": null. */
static json_t *engine_obj(const struct rep_exec *x)
{
	const char *spec = x->engine ? x->engine : "";
	const struct rep_model *m = x->model;
	json_t *model;
	char name[64];

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(spec, ":"), spec);
	if (!m)
		return json_pack("{s:o,s:o,s:b,s:b,s:n}", "name", rep_json_text(name), "spec", rep_json_text(spec), "is_modelled",
				 0, "is_virtual_time", 0, "model");
	model = json_pack("{s:s,s:s?,s:I,s:o,s:o,s:o,s:o,s:s,s:o,s:o}", "preset", m->preset,
			  "source", m->source, "units", (json_int_t)m->units, "read_us",
			  rep_doc_real(m->read_us), "write_us", rep_doc_real(m->write_us),
			  "read_mbps", rep_doc_real(m->read_mbps), "write_mbps",
			  rep_doc_real(m->write_mbps), "dist", m->dist, "cache_mb",
			  rep_doc_real(m->cache_mb), "cache_us", rep_doc_real(m->cache_us));
	return json_pack("{s:o,s:o,s:b,s:b,s:o}", "name", rep_json_text(name), "spec", rep_json_text(spec), "is_modelled", 1,
			 "is_virtual_time", 1, "model", model);
}

json_t *rep_doc_execution(const struct rep_exec *x)
{
	json_t *argv = json_array();
	char tod[64], seed[24];
	json_t *e;

	for (int i = 0; argv && i < x->argc; i++)
		json_array_append_new(argv, rep_json_text(x->argv[i]));
	rep_doc_time(x->start_tod_ns, tod);
	snprintf(seed, sizeof(seed), "%" PRIu64, x->seed);
	e = json_pack("{s:s,s:o,s:s,s:I,s:s,s:o,s:I,s:o,s:o,s:n,s:n}", "version", IORAMP_VERSION,
		      "command_line", argv, "start_time", tod, "start_time_unix_ns",
		      (json_int_t)x->start_tod_ns, "seed", seed, "engine", engine_obj(x),
		      "mb_bytes", (json_int_t)x->mb_bytes, "sla_us", sla_list(x), "outdir",
		      x->outdir ? rep_json_text(x->outdir) : json_null(), "end_time", "status");
	if (e)
		json_object_set_new(e, "host", rep_doc_host());
	if (e && x->nr_hosts)
		json_object_set_new(e, "hosts", host_list(x));
	return e;
}

static const char *rate_kind(enum plan_rate rate)
{
	switch (rate) {
	case PLAN_RATE_FIXED:
		return "fixed";
	case PLAN_RATE_MAX:
		return "max";
	case PLAN_RATE_CURVE_MAX:
		return "curve_max";
	case PLAN_RATE_CURVE_POINT:
		return "curve_point";
	case PLAN_RATE_REL:
		return "relative";
	case PLAN_RATE_VARIABLE:
		return "variable";
	}
	return "fixed";
}

static json_t *opt_real(bool has, double v)
{
	return has ? rep_doc_real(v) : json_null();
}

static json_t *planned_rate(const struct plan_run *r)
{
	bool has_pct = r->rate == PLAN_RATE_CURVE_POINT || r->rate == PLAN_RATE_REL;

	return json_pack("{s:s,s:b,s:o,s:o,s:o}", "kind", rate_kind(r->rate), "is_controlled",
			 r->is_controlled, "target_iops",
			 opt_real(r->rate == PLAN_RATE_FIXED, r->rate_iops), "pct",
			 opt_real(has_pct, r->pct), "base_run",
			 has_pct && r->base_run >= 0 ? json_integer(r->base_run) : json_null());
}

static json_t *planned_run(const struct plan *p, const struct plan_run *r)
{
	json_t *wds = json_array();

	for (size_t i = 0; wds && i < r->nr_wds; i++)
		json_array_append_new(wds, rep_json_text(r->wds[i]->name));
	return json_pack("{s:o,s:o,s:o,s:o,s:I,s:I,s:I,s:I,s:o}", "name", rep_json_text(r->name),
			 "rd", rep_json_text(p->cfg->rds[r->rd_idx].name), "rate", planned_rate(r),
			 "for_loops", rep_json_text(r->for_loops), "elapsed_s", (json_int_t)r->elapsed_s, "interval_s",
			 (json_int_t)r->interval_s, "warmup_s", (json_int_t)r->warmup_s, "pause_s",
			 (json_int_t)r->pause_s, "wds", wds);
}

json_t *rep_doc_plan(const struct plan *p)
{
	json_t *a = json_array();

	for (size_t i = 0; p && a && i < p->nr_runs; i++) {
		if (json_array_append_new(a, planned_run(p, &p->runs[i]))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *params(const struct rep_params *pr)
{
	json_t *xfer = json_null();

	if (pr->has_xfersize)
		xfer = pr->xfersize_bytes == UINT64_MAX
			       ? json_integer(-1)
			       : json_integer((json_int_t)pr->xfersize_bytes);
	return json_pack(
		"{s:o,s:o,s:o,s:o,s:o,s:i,s:o,s:o,s:I}", "xfersize_bytes", xfer, "rdpct",
		opt_real(pr->has_rdpct, pr->rdpct), "rhpct", opt_real(pr->has_rhpct, pr->rhpct),
		"whpct", opt_real(pr->has_whpct, pr->whpct), "seekpct",
		opt_real(pr->has_seekpct, pr->seekpct), "threads", (int)pr->threads, "compratio",
		rep_doc_real(pr->compratio), "dedupratio", rep_doc_real(pr->dedupratio),
		"lunsize_bytes", (json_int_t)pr->lunsize_bytes);
}

static json_t *run_sds(const struct rep_run *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->nr_sds; i++) {
		const char *engine = r->sd_engines ? r->sd_engines[i] : NULL;

		json_array_append_new(
			a,
			json_pack("{s:o,s:o,s:I,s:i,s:o,s:b}", "name",
				  rep_json_text(r->sd_names[i]), "lun",
				  rep_json_text(r->sd_luns ? r->sd_luns[i] : NULL), "size_bytes",
				  (json_int_t)(r->sd_size_bytes ? r->sd_size_bytes[i] : 0),
				  "threads", r->sd_threads ? (int)r->sd_threads[i] : 0, "engine",
				  engine ? rep_json_text(engine) : json_null(), "is_engine_default",
				  r->sd_engine_is_default && r->sd_engine_is_default[i]));
	}
	return a;
}

static json_t *run_wds(const struct rep_run *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < r->nr_wds; i++)
		json_array_append_new(
			a, json_pack("{s:o,s:o}", "name", rep_json_text(r->wd_names[i]),
				     "skew_pct",
				     rep_doc_real(r->wd_skew_pct ? r->wd_skew_pct[i] : 0)));
	return a;
}

static json_t *run_rate(const struct rep_run *r)
{
	const struct plan_run *pr = r->run;
	bool has_pct = pr && (pr->rate == PLAN_RATE_CURVE_POINT || pr->rate == PLAN_RATE_REL);

	return json_pack("{s:s,s:o,s:o,s:o}", "kind", pr ? rate_kind(pr->rate) : "max", "text",
			 rep_json_text(r->rate_text), "target_iops", opt_real(r->req_iops > 0, r->req_iops), "pct",
			 opt_real(has_pct, pr ? pr->pct : 0));
}

json_t *rep_doc_run(const struct rep_exec *x, const struct rep_run *r)
{
	bool has_plan = r->run && x->plan;
	const char *rd = has_plan ? x->plan->cfg->rds[r->run->rd_idx].name : NULL;
	char tod[64];
	json_t *run;

	rep_doc_time(r->start_tod_ns, tod);
	run = json_pack(
		"{s:o,s:o,s:o,s:o,s:o,s:I,s:I,s:I,s:i,s:s,s:o,s:o,s:o,s:[],s:n,s:b,s:b,"
		"s:b,s:n}",
		"name", rep_json_text(r->name), "plan_idx",
		has_plan ? json_integer((json_int_t)r->run_idx) : json_null(), "rd",
		rd ? rep_json_text(rd) : json_null(), "rate", run_rate(r), "for_loops",
		rep_json_text(r->for_loops ? r->for_loops : "None"), "elapsed_s", (json_int_t)r->elapsed_s,
		"interval_s", (json_int_t)r->interval_s, "warmup_s", (json_int_t)r->warmup_s,
		"nr_warmup_intervals", (int)r->nr_warmup_intervals, "start_time", tod, "sds",
		run_sds(r), "wds", run_wds(r), "params", params(&r->params), "intervals", "average",
		"is_complete", false, "is_interrupted", false, "is_eof", false, "observed_iops");
	if (run && has_plan)
		rep_doc_run_setup(x->plan->cfg, run);
	if (run)
		rep_doc_run_drives(x->model, run);
	return run;
}
