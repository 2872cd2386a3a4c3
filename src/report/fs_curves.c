/* The curves of a file-system execution (fwdrate=curve), drawn by the raw runs' code: the
 * points become a results document of the raw shape (runs, curves with their IOPS at latency)
 * in memory, from which curves.csv (rep_doc_curves_csv), report.html (rep_html_page) and the
 * end-of-curve block (rep_doc_curve_print) are written as for raw runs. */
#include "ioramp/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "html.h"

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : rep_doc_real(v);
}

static json_t *names_json(const char *const *names, size_t nr)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < nr; i++)
		json_array_append_new(a, rep_json_text(names[i]));
	return a;
}

/* A point's total as the raw samples have it; the queue depth is the operations in service
 * on average (IOPS times the mean service time: ioramp's fs threads have one each). */
static json_t *total_json(const struct rep_fs_point *p)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "iops", rep_doc_real(p->iops),
			 "mb_per_sec", rep_doc_real(p->mb_per_sec), "read_pct",
			 rep_doc_real(p->read_pct), "bytes_per_io", rep_doc_real(p->bytes_per_io),
			 "qdepth", rep_doc_real(p->iops * stats_hist_mean_ns(p->svc) / 1e9),
			 "service", rep_doc_latency(p->svc, rep_doc_hist_stddev_ns(p->svc)),
			 "response", rep_doc_latency(p->resp, rep_doc_hist_stddev_ns(p->resp)));
}

static json_t *run_json(const struct rep_fs_curve *c, const struct rep_fs_point *p, bool is_max)
{
	const char *lim = rep_limit_name(p->limited_by);
	json_t *iv = json_array();

	/* the run's intervals, for the IOPS-over-time chart */
	for (size_t i = 0; iv && i < p->nr_intervals; i++)
		json_array_append_new(iv, json_pack("{s:o,s:{s:o}}", "elapsed_s",
						    rep_doc_real(p->interval_s), "total", "iops",
						    rep_doc_real(p->interval_iops[i])));
	return json_pack("{s:o,s:o,s:o,s:{s:s,s:o,s:o,s:o},s:o,s:o,s:{s:o,s:{s:s,s:o,s:o}},s:b,"
			 "s:o}",
			 "name", rep_json_text(p->run_name), "rd", rep_json_text(c->rd),
			 "for_loops", rep_json_text(c->for_loops), "rate", "kind",
			 is_max ? "curve_max" : "curve_point", "text", rep_json_text(p->rate_text),
			 "pct", num_or_null(p->pct), "target_iops", num_or_null(p->target_iops),
			 "elapsed_s", rep_doc_real(p->elapsed_s), "intervals", iv, "average",
			 "total", total_json(p), "histograms", "scheme", "log-linear-64", "service",
			 rep_doc_buckets(p->svc), "response", rep_doc_buckets(p->resp),
			 "is_target_met", p->is_target_met, "limited_by",
			 lim ? json_string(lim) : json_null());
}

/* A curve point as doc_curve.c makes them, from its run. */
static json_t *point_json(const json_t *run, size_t run_idx)
{
	const json_t *total = rep_doc_get(run, "average/total");

	return json_pack(
		"{s:I,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O}", "run", (json_int_t)run_idx,
		"name", json_object_get(run, "name"), "pct", rep_doc_get(run, "rate/pct"),
		"target_iops", rep_doc_get(run, "rate/target_iops"), "is_target_met",
		json_object_get(run, "is_target_met"), "limited_by",
		json_object_get(run, "limited_by"), "iops", json_object_get(total, "iops"),
		"mb_per_sec", json_object_get(total, "mb_per_sec"), "read_pct",
		json_object_get(total, "read_pct"), "bytes_per_io",
		json_object_get(total, "bytes_per_io"), "qdepth", json_object_get(total, "qdepth"),
		"service", json_object_get(total, "service"), "response",
		json_object_get(total, "response"));
}

static int add_curve(json_t *doc, const struct rep_fs_curve *c, const double *sla_ns, size_t nr_sla)
{
	json_t *runs = json_object_get(doc, "runs"), *curve, *points = json_array(), *run;
	size_t max_idx = json_array_size(runs);

	run = run_json(c, &c->max, true);
	if (!run || !points || json_array_append_new(runs, run)) {
		json_decref(points);
		return -ENOMEM;
	}
	curve = json_pack("{s:s,s:n,s:o,s:o,s:o,s:o,s:I,s:o,s:o,s:n,s:[],s:b}", "kind", "curve",
			  "x", "rd", rep_json_text(c->rd), "for_loops", rep_json_text(c->for_loops),
			  "sds", names_json(c->fsds, c->nr_fsds), "wds",
			  names_json(c->fwds, c->nr_fwds), "max_run", (json_int_t)max_idx, "max",
			  point_json(run, max_idx), "points", points, "peak", "sla", "is_complete",
			  true);
	if (!curve || json_array_append_new(json_object_get(doc, "curves"), curve))
		return -ENOMEM;
	for (size_t i = 0; i < c->nr_points; i++) {
		size_t idx = json_array_size(runs);

		run = run_json(c, &c->points[i], false);
		if (!run || json_array_append_new(runs, run) ||
		    json_array_append_new(points, point_json(run, idx)))
			return -ENOMEM;
	}
	return rep_doc_curve_sla(curve, sla_ns, nr_sla);
}

static int write_csv(FILE *f, const void *doc)
{
	return rep_doc_curves_csv(doc, f);
}

int rep_fs_curves_write(const struct rep_fs_curves *fc)
{
	char path[4200], stamp[64];
	json_t *doc;
	int ret = 0;

	if (!fc->nr)
		return 0;
	rep_doc_time(fc->start_tod_ns, stamp);
	doc = json_pack("{s:s,s:s,s:{s:s,s:s,s:s,s:s,s:i,s:[]},s:[],s:[]}", "schema",
			REP_DOC_SCHEMA, "mode", "filesystem", "execution", "tool", "ioramp",
			"version", IORAMP_VERSION, "start_time", stamp, "engine", "filesystem",
			"status", fc->status, "command_line", "runs", "curves");
	if (!doc)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < fc->nr; i++)
		ret = add_curve(doc, &fc->curves[i], rep_sla_default_ns, REP_SLA_DEFAULT_NR);
	for (size_t i = 0; !ret && fc->console && i < fc->nr; i++)
		rep_doc_curve_print(NULL, json_array_get(json_object_get(doc, "curves"), i), fc->console);
	if (!ret && fc->outdir) {
		snprintf(path, sizeof(path), "%s/curves.csv", fc->outdir);
		ret = rep_replace_file(path, write_csv, doc);
		snprintf(path, sizeof(path), "%s/report.html", fc->outdir);
		if (!ret)
			ret = rep_html_save(doc, NULL, NULL, 0, NULL, path);
	}
	json_decref(doc);
	return ret;
}
