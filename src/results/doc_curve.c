/* Curves in results.json: which runs make a curve (a max run and the points based on it, or a
 * series of other runs of one RD with the same for-loop values), each point's figures, the
 * peak and the IOPS-at-latency answers, updated as runs end. */
#include "parts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A sweep's x: the RD's innermost loop (an iorate list of two or more values, else the last
 * for-loop written), or 0 when the RD has neither. */
static enum parm_kw sweep_kw(const struct parm_rd *rd)
{
	if (rd->nr_rates > 1)
		return PARM_KW_IORATE;
	return rd->nr_loops ? rd->loops[rd->nr_loops - 1].kw : (enum parm_kw)0;
}

static const char *sweep_x(enum parm_kw kw)
{
	switch (kw) {
	case PARM_KW_IORATE:
		return "iorate";
	case PARM_KW_FORTHREADS:
		return "threads";
	case PARM_KW_FORXFERSIZE:
		return "xfersize";
	case PARM_KW_FORRDPCT:
		return "rdpct";
	case PARM_KW_FORSEEKPCT:
		return "seekpct";
	case PARM_KW_FORRHPCT:
		return "rhpct";
	case PARM_KW_FORWHPCT:
		return "whpct";
	case PARM_KW_FORHITAREA:
		return "hitarea";
	case PARM_KW_FORCOMPRATIO:
		return "compratio";
	default:
		return NULL;
	}
}

/* Whether two runs' loop values are equal but for the sweep's own loop (x). */
static bool same_loops(const struct plan_overrides *a, const struct plan_overrides *b,
		       enum parm_kw x)
{
	return (x == PARM_KW_FORXFERSIZE || (a->has_xfersize == b->has_xfersize &&
					      a->xfersize_bytes == b->xfersize_bytes)) &&
	       (x == PARM_KW_FORTHREADS ||
		(a->has_threads == b->has_threads && a->threads == b->threads)) &&
	       (x == PARM_KW_FORRDPCT || (a->has_rdpct == b->has_rdpct && a->rdpct == b->rdpct)) &&
	       (x == PARM_KW_FORRHPCT || (a->has_rhpct == b->has_rhpct && a->rhpct == b->rhpct)) &&
	       (x == PARM_KW_FORWHPCT || (a->has_whpct == b->has_whpct && a->whpct == b->whpct)) &&
	       (x == PARM_KW_FORSEEKPCT ||
		(a->has_seekpct == b->has_seekpct && a->seekpct == b->seekpct)) &&
	       (x == PARM_KW_FORHITAREA ||
		(a->has_hitarea == b->has_hitarea && a->hitarea_bytes == b->hitarea_bytes)) &&
	       (x == PARM_KW_FORCOMPRATIO ||
		(a->has_compratio == b->has_compratio && a->compratio == b->compratio));
}

static bool is_curve_rate(enum plan_rate rate)
{
	return rate == PLAN_RATE_CURVE_MAX || rate == PLAN_RATE_CURVE_POINT;
}

/* Whether two planned runs belong to one series: one RD, no curve, the same values of every
 * loop but the innermost (cfg NULL: of every loop). */
static bool same_series(const struct parm_config *cfg, const struct plan_run *a,
			const struct plan_run *b)
{
	enum parm_kw x = cfg && a->rd_idx < cfg->nr_rds ? sweep_kw(&cfg->rds[a->rd_idx])
							 : (enum parm_kw)0;

	return !is_curve_rate(a->rate) && !is_curve_rate(b->rate) && a->rd_idx == b->rd_idx &&
	       same_loops(&a->ovr, &b->ovr, x);
}

/* The plan index of the max run a curve run belongs to, -1 for a series run. */
static int max_idx(const struct plan_run *pr, size_t run_idx)
{
	if (pr->rate == PLAN_RATE_CURVE_MAX)
		return (int)run_idx;
	if (pr->rate == PLAN_RATE_CURVE_POINT)
		return pr->base_run;
	return -1;
}

static bool joins_open(const struct rep_doc_curves *c, const struct rep_exec *x,
		       const struct rep_run *r)
{
	const struct plan_run *pr = r->run;

	if (!c->open)
		return false;
	if (pr->rate == PLAN_RATE_CURVE_POINT)
		return c->open_max_idx >= 0 && pr->base_run == c->open_max_idx;
	if (pr->rate == PLAN_RATE_CURVE_MAX)
		return false;
	return c->open_max_idx < 0 && same_series(x->plan ? x->plan->cfg : NULL, c->open_key, pr);
}

/* Whether the plan has no further run for r's curve. */
static bool is_last_planned(const struct plan *p, const struct rep_run *r)
{
	int max = max_idx(r->run, r->run_idx);

	if (!p)
		return false;
	for (size_t j = r->run_idx + 1; max >= 0 && j < p->nr_runs; j++)
		if (p->runs[j].rate == PLAN_RATE_CURVE_POINT && p->runs[j].base_run == max)
			return false;
	if (max >= 0)
		return true;
	return r->run_idx + 1 >= p->nr_runs ||
	       !same_series(p->cfg, r->run, &p->runs[r->run_idx + 1]);
}

/* "xfersize=8k threads=4 iorate=1000" without iorate=, which varies along a series, and
 * without the sweep's own loop (x, "threads": " threads=4"). */
static json_t *loops_text(const char *for_loops, const char *x)
{
	char buf[512], key[32];
	char *cut;

	snprintf(buf, sizeof(buf), "%s", for_loops ? for_loops : "None");
	for (int k = 0; k < 2; k++) {
		snprintf(key, sizeof(key), "%s=", k ? x : "iorate");
		if (k && !x)
			break;
		cut = strstr(buf, key);
		if (cut && (cut == buf || cut[-1] == ' ')) {
			size_t len = strcspn(cut, " ");

			memmove(cut, cut + len + (cut[len] == ' '), strlen(cut + len) + 1);
		}
	}
	for (cut = buf + strlen(buf); cut > buf && cut[-1] == ' ';)
		*--cut = '\0';
	return rep_json_text(buf[0] ? buf : "None");
}

static json_t *new_curve(const struct rep_exec *x, const struct rep_run *r)
{
	const struct parm_rd *prd = x->plan ? &x->plan->cfg->rds[r->run->rd_idx] : NULL;
	const char *rd = prd ? prd->name : r->name;
	const char *sx = prd && !is_curve_rate(r->run->rate) ? sweep_x(sweep_kw(prd)) : NULL;
	const char *kind = is_curve_rate(r->run->rate) ? "curve" : sx ? "sweep" : "series";
	json_t *sds = json_array(), *wds = json_array();

	for (size_t i = 0; sds && i < r->nr_sds; i++)
		json_array_append_new(sds, rep_json_text(r->sd_names[i]));
	for (size_t i = 0; wds && i < r->nr_wds; i++)
		json_array_append_new(wds, rep_json_text(r->wd_names[i]));
	return json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:n,s:n,s:[],s:n,s:[],s:b}", "kind", kind, "x",
			 sx ? json_string(sx) : json_null(), "rd", rep_json_text(rd), "for_loops",
			 loops_text(r->for_loops, sx), "sds", sds, "wds", wds, "max_run", "max",
			 "points", "peak", "sla", "is_complete", false);
}

void rep_doc_curves_end_open(struct rep_doc_curves *c)
{
	if (!c->open)
		return;
	json_object_set_new(c->open, "is_complete", json_true());
	c->open = NULL;
	c->open_key = NULL;
	c->nr_ended++;
}

int rep_doc_curves_run_start(struct rep_doc_curves *c, const struct rep_exec *x,
			     const struct rep_run *r, size_t run_idx)
{
	static const char *const shared[] = { "sds", "wds", NULL };
	json_t *curve;

	c->cur = NULL;
	if (!r->run)
		return 0; /* the format run is no point of anything */
	if (!joins_open(c, x, r)) {
		rep_doc_curves_end_open(c);
		curve = new_curve(x, r);
		if (curve)
			rep_doc_share_parts(c->list, curve, shared);
		c->open_idx = json_array_size(c->list);
		if (!curve || json_array_append_new(c->list, curve))
			return -ENOMEM;
		c->open = curve;
		c->open_key = r->run;
		c->open_max_idx = max_idx(r->run, r->run_idx);
	}
	c->cur = c->open;
	c->cur_idx = c->open_idx;
	c->cur_run_idx = run_idx;
	if (r->run->rate == PLAN_RATE_CURVE_MAX)
		json_object_set_new(c->cur, "max_run", json_integer((json_int_t)run_idx));
	return 0;
}

/* A point: the run's average total, with its run's index in "runs". requested_iops and
 * scheduled_iops are what the target verdict compared, for the missed-point line. */
static json_t *point(const json_t *run, size_t run_idx)
{
	const json_t *total = rep_doc_get(run, "average/total");
	const json_t *rate = rep_doc_get(run, "rate");

	const json_t *met = json_object_get(run, "is_target_met");
	const json_t *lim = json_object_get(run, "limited_by");
	const json_t *req = json_object_get(run, "requested_iops");
	const json_t *sched = json_object_get(run, "scheduled_iops");

	if (!total)
		return NULL;
	return json_pack(
		"{s:I,s:O,s:O,s:O,s:b,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:O}", "run", (json_int_t)run_idx,
		"name", json_object_get(run, "name"), "pct", json_object_get(rate, "pct"),
		"target_iops", json_object_get(rate, "target_iops"), "is_target_met",
		!json_is_false(met), "limited_by", lim ? lim : json_null(), "iops",
		json_object_get(total, "iops"), "requested_iops", req ? req : json_null(),
		"scheduled_iops", sched ? sched : json_null(),		"mb_per_sec", json_object_get(total, "mb_per_sec"), "read_pct",
		json_object_get(total, "read_pct"), "bytes_per_io",
		json_object_get(total, "bytes_per_io"), "qdepth", json_object_get(total, "qdepth"),
		"service", json_object_get(total, "service"), "response",
		json_object_get(total, "response"));
}

/* A sweep point's x: the run's value of the sweep's loop (its target IOPS for iorate). */
static json_t *x_value(const json_t *curve, const struct plan_run *pr)
{
	const char *x = rep_doc_str(curve, "x", "");
	const struct plan_overrides *o = &pr->ovr;

	if (!strcmp(x, "iorate"))
		return pr->rate == PLAN_RATE_FIXED ? rep_doc_real(pr->rate_iops) : json_null();
	if (!strcmp(x, "threads"))
		return json_integer(o->threads);
	if (!strcmp(x, "xfersize"))
		return json_integer((json_int_t)o->xfersize_bytes);
	if (!strcmp(x, "rdpct"))
		return rep_doc_real(o->rdpct);
	if (!strcmp(x, "seekpct"))
		return rep_doc_real(o->seekpct);
	if (!strcmp(x, "rhpct"))
		return rep_doc_real(o->rhpct);
	if (!strcmp(x, "whpct"))
		return rep_doc_real(o->whpct);
	if (!strcmp(x, "hitarea"))
		return json_integer((json_int_t)o->hitarea_bytes);
	if (!strcmp(x, "compratio"))
		return rep_doc_real(o->compratio);
	return json_null();
}

static json_t *peak(const json_t *points);

/* A live curve's "sla" is "\0sla:N" (N: its index in "curves"), computed from its points
 * whenever read (rep_doc_curve_sla_list) or written: its entries, sixteen small objects for
 * four thresholds, would stay in memory for every curve of the execution. */
static int set_sla_mark(json_t *curve, size_t curve_idx)
{
	char mark[64];
	int len = snprintf(mark, sizeof(mark), "%csla:%zu", '\0', curve_idx);

	return json_object_set_new(curve, "sla", json_stringn(mark, (size_t)len));
}

int rep_doc_curves_run_end(struct rep_doc_curves *c, const struct rep_exec *x,
			   const struct rep_run *r, json_t *run)
{
	json_t *pt;
	int ret = 0;

	if (!c->cur)
		return 0;
	if (json_is_object(json_object_get(run, "average"))) {
		pt = point(run, c->cur_run_idx);
		if (!pt)
			return -ENOMEM;
		if (json_is_string(json_object_get(c->cur, "x")))
			json_object_set_new(pt, "x", x_value(c->cur, r->run));
		if (r->run->rate == PLAN_RATE_CURVE_MAX)
			ret = json_object_set_new(c->cur, "max", pt);
		else
			ret = json_array_append_new(json_object_get(c->cur, "points"), pt);
		if (ret || set_sla_mark(c->cur, c->cur_idx) ||
		    json_object_set_new(c->cur, "peak", peak(json_object_get(c->cur, "points"))))
			return -ENOMEM;
	}
	if (c->cur == c->open && is_last_planned(x->plan, r))
		rep_doc_curves_end_open(c);
	c->cur = NULL;
	return 0;
}

static json_t *at_json(struct rep_sla_at at)
{
	static const char *const names[] = {
		[REP_SLA_NOT_REACHED] = "not_reached",
		[REP_SLA_REACHED] = "reached",
		[REP_SLA_ALL_BELOW] = "all_below",
	};

	return json_pack("{s:s,s:o}", "status", names[at.state], "iops",
			 at.state == REP_SLA_NOT_REACHED ? json_null() : rep_doc_real(at.iops));
}

/* Fills pts from the points' "latency" (service or response) figures; NaN where absent. */
static void sla_points(const json_t *points, const char *latency, struct rep_sla_point *pts)
{
	char mean[64], p99[64];
	size_t i;
	const json_t *p;

	snprintf(mean, sizeof(mean), "%s/mean_us", latency);
	snprintf(p99, sizeof(p99), "%s/percentiles_us/99", latency);
	json_array_foreach (points, i, p) {
		pts[i].iops = rep_doc_num(p, "iops");
		pts[i].mean_ns = rep_doc_num(p, mean) * 1e3;
		pts[i].p99_ns = rep_doc_num(p, p99) * 1e3;
		pts[i].target_iops = rep_doc_num(p, "target_iops");
		pts[i].is_missed = json_is_false(json_object_get(p, "is_target_met"));
	}
}

static json_t *sla_entry(const struct rep_sla_point *svc, const struct rep_sla_point *resp,
			 size_t nr, double ns)
{
	return json_pack("{s:o,s:{s:o,s:o},s:{s:o,s:o}}", "threshold_us", rep_doc_real(ns / 1e3),
			 "service", "mean", at_json(rep_sla_iops_at(svc, nr, REP_SLA_MEAN, ns)),
			 "p99", at_json(rep_sla_iops_at(svc, nr, REP_SLA_P99, ns)), "response",
			 "mean", at_json(rep_sla_iops_at(resp, nr, REP_SLA_MEAN, ns)), "p99",
			 at_json(rep_sla_iops_at(resp, nr, REP_SLA_P99, ns)));
}

/* The point with the most IOPS: "peak X IOPS at Y us" as reviews say it. */
static json_t *peak(const json_t *points)
{
	const json_t *best = NULL, *p;
	size_t i;

	json_array_foreach (points, i, p) {
		if (!best || rep_doc_num(p, "iops") > rep_doc_num(best, "iops"))
			best = p;
	}
	if (!best)
		return json_null();
	return json_pack("{s:O,s:O,s:O?,s:O?}", "name", /* a flatfile has no p99 */ json_object_get(best, "name"), "iops",
			 json_object_get(best, "iops"), "mean_us",
			 rep_doc_get(best, "service/mean_us"), "p99_us",
			 rep_doc_get(best, "service/percentiles_us/99"));
}

/* The "sla" entries of curve's points for the thresholds given; NULL: no memory. */
static json_t *sla_list(const json_t *curve, const double *sla_ns, size_t nr_sla)
{
	const json_t *points = json_object_get(curve, "points");
	size_t nr = json_array_size(points);
	struct rep_sla_point *svc = calloc(nr + 1, sizeof(*svc));
	struct rep_sla_point *resp = calloc(nr + 1, sizeof(*resp));
	json_t *list = json_array();

	if (!svc || !resp || !list)
		goto fail;
	sla_points(points, "service", svc);
	sla_points(points, "response", resp);
	for (size_t i = 0; i < nr_sla; i++)
		if (json_array_append_new(list, sla_entry(svc, resp, nr, sla_ns[i])))
			goto fail;
	free(svc);
	free(resp);
	return list;
fail:
	json_decref(list);
	free(svc);
	free(resp);
	return NULL;
}

int rep_doc_curve_sla(json_t *curve, const double *sla_ns, size_t nr_sla)
{
	json_t *list = sla_list(curve, sla_ns, nr_sla);

	if (!list || json_object_set_new(curve, "sla", list) ||
	    json_object_set_new(curve, "peak", peak(json_object_get(curve, "points"))))
		return -ENOMEM;
	return 0;
}

json_t *rep_doc_curves_sla(const struct rep_exec *x, const json_t *curve)
{
	const json_t *sla = json_object_get(curve, "sla");

	if (!json_is_string(sla))
		return json_incref((json_t *)sla);
	return sla_list(curve, x->nr_sla ? x->sla_ns : rep_sla_default_ns,
			x->nr_sla ? x->nr_sla : REP_SLA_DEFAULT_NR);
}
