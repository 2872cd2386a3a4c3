/* One interval or run average as results.json carries it: rates, mix, queue depth, CPU and
 * both latencies (service time and response time from the scheduled arrival) with their
 * moments and percentiles, for the total, every SD and every WD; averages add the total's
 * histograms. */
#include "parts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* The percentiles every latency carries; keys are the percentile as written. */
static const struct {
	const char *key;
	double pct;
} percentiles[] = {
	{ "50", 50 },	  { "90", 90 },	      { "99", 99 },
	{ "99.9", 99.9 }, { "99.99", 99.99 }, { "99.9999", 99.9999 },
};

static json_t *us(double ns)
{
	return rep_doc_real(ns / 1e3);
}

/* Standard deviation from the histogram's bucket midpoints, for response times, whose exact
 * sum of squares the banks do not keep; within a bucket's relative error (0.78%). */
static double hist_stddev_ns(const struct stats_hist *h)
{
	double mean = stats_hist_mean_ns(h), sum = 0;

	if (h->nr < 2)
		return 0;
	for (uint32_t i = stats_hist_bucket_idx(h->min_ns), hi = stats_hist_bucket_idx(h->max_ns);
	     i <= hi; i++) { /* the buckets in use */
		double mid, d;

		if (!h->counts[i])
			continue;
		mid = (double)(stats_hist_bucket_lo_ns(i) + stats_hist_bucket_width_ns(i) / 2);
		d = mid - mean;
		sum += d * d * (double)h->counts[i];
	}
	return sqrt(sum / (double)(h->nr - 1));
}

double rep_doc_hist_stddev_ns(const struct stats_hist *h)
{
	return hist_stddev_ns(h);
}

static json_t *latency(const struct stats_hist *h, double stddev_ns)
{
	return rep_doc_latency(h, stddev_ns);
}

json_t *rep_doc_latency(const struct stats_hist *h, double stddev_ns)
{
	json_t *p = json_object();

	if (!p)
		return NULL;
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(percentiles); i++)
		json_object_set_new(p, percentiles[i].key,
				    us((double)stats_hist_percentile(h, percentiles[i].pct)));
	return json_pack("{s:o,s:o,s:o,s:o,s:o}", "mean_us", us(stats_hist_mean_ns(h)), "stddev_us",
			 us(stddev_ns), "min_us", us(h->nr ? (double)h->min_ns : 0), "max_us",
			 us((double)h->max_ns), "percentiles_us", p);
}

static json_t *service(const struct stats_counters *c)
{
	return latency(&c->svc, stats_counters_stddev_ns(c));
}

static json_t *response(const struct stats_counters *c)
{
	return latency(&c->resp, hist_stddev_ns(&c->resp));
}

/* The counters of one direction (or both merged). */
static json_t *direction(const struct stats_counters *c, uint64_t elapsed_ns, uint64_t mb_bytes)
{
	double bpi = c->nr_ios ? (double)c->total_bytes / (double)c->nr_ios : 0;

	return json_pack("{s:o,s:o,s:o,s:I,s:I,s:o,s:o}", "iops",
			 rep_doc_real(stats_rate_per_sec(c->nr_ios, elapsed_ns)), "mb_per_sec",
			 rep_doc_real(stats_mb_per_sec(c->total_bytes, elapsed_ns, mb_bytes)),
			 "bytes_per_io", rep_doc_real(bpi), "nr_ios", (json_int_t)c->nr_ios,
			 "nr_errors", (json_int_t)c->nr_errors, "service", service(c), "response",
			 response(c));
}

/* Both directions of a bank with read %, queue depth and, for the total, each direction. */
static json_t *metrics(const struct stats_bank *b, uint64_t elapsed_ns, uint64_t mb_bytes,
		       bool has_ops)
{
	struct stats_counters *both = malloc(sizeof(*both));
	uint64_t nr_reads = b->op[STATS_OP_READ].nr_ios;
	json_t *m = NULL;

	if (!both)
		return NULL;
	stats_bank_total(b, both);
	m = direction(both, elapsed_ns, mb_bytes);
	if (m) {
		double read_pct =
			both->nr_ios ? 100.0 * (double)nr_reads / (double)both->nr_ios : 0;

		json_object_set_new(m, "read_pct", rep_doc_real(read_pct));
		json_object_set_new(m, "qdepth", rep_doc_real(stats_bank_qdepth(b, elapsed_ns)));
	}
	if (m && has_ops) {
		json_object_set_new(m, "read",
				    direction(&b->op[STATS_OP_READ], elapsed_ns, mb_bytes));
		json_object_set_new(m, "write",
				    direction(&b->op[STATS_OP_WRITE], elapsed_ns, mb_bytes));
	}
	free(both);
	return m;
}

static json_t *buckets(const struct stats_hist *h)
{
	return rep_doc_buckets(h);
}

json_t *rep_doc_buckets(const struct stats_hist *h)
{
	json_t *a = json_array();

	for (uint32_t i = 0; a && i < STATS_HIST_NR; i++)
		if (h->counts[i])
			json_array_append_new(a, json_pack("[I,I]",
							   (json_int_t)stats_hist_bucket_lo_ns(i),
							   (json_int_t)h->counts[i]));
	return a;
}

static json_t *histograms(const struct stats_bank *b)
{
	struct stats_counters *both = malloc(sizeof(*both));
	json_t *h;

	if (!both)
		return NULL;
	stats_bank_total(b, both);
	h = json_pack("{s:s,s:o,s:o}", "scheme", "log-linear-64", "service", buckets(&both->svc),
		      "response", buckets(&both->resp));
	free(both);
	return h;
}

/* Per SD or per WD: each entry is the metrics with the name first. */
static json_t *named_list(const struct stats_bank *banks, const char *const *names, size_t nr,
			  uint64_t elapsed_ns, uint64_t mb_bytes)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < nr; i++) {
		json_t *m = metrics(&banks[i], elapsed_ns, mb_bytes, false);
		json_t *e = json_pack("{s:o}", "name", rep_json_text(names[i]));

		if (e && m)
			json_object_update(e, m);
		json_decref(m);
		if (!e || !m || json_array_append_new(a, e)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *cpu(const struct rep_sample *s)
{
	if (!s->has_cpu)
		return json_null();
	return json_pack("{s:o,s:o,s:o,s:o,s:o}", "user_pct", rep_doc_real(s->cpu.user_pct),
			 "sys_pct", rep_doc_real(s->cpu.sys_pct), "used_pct",
			 rep_doc_real(s->cpu.used_pct), "wait_pct", rep_doc_real(s->cpu.wait_pct),
			 "idle_pct", rep_doc_real(s->cpu.idle_pct));
}

static int add_detail(json_t *o, const struct rep_run *r, const struct rep_sample *s,
		      uint64_t mb_bytes)
{
	if (s->sd &&
	    json_object_set_new(o, "sds",
				named_list(s->sd, r->sd_names, r->nr_sds, s->elapsed_ns, mb_bytes)))
		return -ENOMEM;
	if (s->wd &&
	    json_object_set_new(o, "wds",
				named_list(s->wd, r->wd_names, r->nr_wds, s->elapsed_ns, mb_bytes)))
		return -ENOMEM;
	return 0;
}

/* Many hosts: each host's and each slave's (MPI rank's) totals; they add up to the total. */
static int add_hosts(json_t *o, const struct rep_run *r, const struct rep_sample *s,
		     uint64_t mb_bytes)
{
	if (!s->host || !r->nr_hosts)
		return 0;
	if (json_object_set_new(
		    o, "hosts",
		    named_list(s->host, r->host_names, r->nr_hosts, s->elapsed_ns, mb_bytes)) ||
	    json_object_set_new(
		    o, "slaves",
		    named_list(s->slave, r->slave_names, r->nr_slaves, s->elapsed_ns, mb_bytes)))
		return -ENOMEM;
	return 0;
}

json_t *rep_doc_sample(const struct rep_exec *x, const struct rep_run *r,
		       const struct rep_sample *s, unsigned int flags)
{
	char tod[64];
	json_t *o;

	rep_doc_time(s->tod_ns, tod);
	o = json_pack("{s:o,s:i,s:b,s:b,s:s,s:o,s:i,s:o,s:o}", "label", rep_json_text(s->label),
		      "nr", (int)s->nr, "is_avg", s->is_avg, "is_warmup", s->is_warmup, "time", tod,
		      "elapsed_s", rep_doc_real((double)s->elapsed_ns / 1e9), "nr_intervals",
		      (int)s->nr_intervals, "cpu", cpu(s), "total",
		      metrics(s->total, s->elapsed_ns, x->mb_bytes, true));
	if (!o)
		return NULL;
	json_object_set_new(o, "ioramp_cpu_pct", rep_doc_real(s->ioramp_cpu_pct));
	if ((flags & REP_DOC_DETAIL) && add_detail(o, r, s, x->mb_bytes))
		goto err;
	if (add_hosts(o, r, s, x->mb_bytes))
		goto err;
	if (s->is_avg && json_object_set_new(o, "histograms", histograms(s->total)))
		goto err;
	return o;
err:
	json_decref(o);
	return NULL;
}
