/* Per-interval counter banks of one WD on one SD: I/Os, bytes, errors, service-time sums and
 * histograms per direction, and the in-flight time integral behind VDbench's queue depth. */
#include "ioramp/stats.h"

#include <math.h>
#include <string.h>

void stats_bank_start(struct stats_bank *b, uint32_t nr_inflight, uint64_t now_ns)
{
	for (int op = 0; op < STATS_OP_NR; op++) { /* the histograms' buckets in use only */
		struct stats_counters *c = &b->op[op];

		c->nr_ios = c->total_bytes = c->nr_errors = 0;
		c->svc_sumsq_ns2 = 0;
		stats_hist_reset(&c->svc);
		stats_hist_reset(&c->resp);
		b->is_resp_svc[op] = true;
	}
	b->inflight_ns = 0;
	b->nr_inflight = nr_inflight;
	b->inflight_since_ns = now_ns;
}

void stats_bank_clear(struct stats_bank *b)
{
	stats_bank_start(b, 0, 0);
	b->is_resp_svc[STATS_OP_READ] = b->is_resp_svc[STATS_OP_WRITE] = false;
}

void stats_bank_record_error(struct stats_bank *b, enum stats_op op)
{
	b->op[op].nr_errors++;
}

void stats_bank_finish(struct stats_bank *b, uint64_t now_ns)
{
	for (int op = 0; op < STATS_OP_NR; op++) {
		if (b->is_resp_svc[op])
			stats_hist_copy(&b->op[op].resp, &b->op[op].svc);
		b->is_resp_svc[op] = false;
	}
	stats_bank_inflight_add(b, 0, now_ns);
}

void stats_counters_merge(struct stats_counters *dst, const struct stats_counters *src)
{
	dst->nr_ios += src->nr_ios;
	dst->total_bytes += src->total_bytes;
	dst->nr_errors += src->nr_errors;
	dst->svc_sumsq_ns2 += src->svc_sumsq_ns2;
	stats_hist_merge(&dst->svc, &src->svc);
	stats_hist_merge(&dst->resp, &src->resp);
}

void stats_bank_merge(struct stats_bank *dst, const struct stats_bank *src)
{
	for (int op = 0; op < STATS_OP_NR; op++)
		stats_counters_merge(&dst->op[op], &src->op[op]);
	dst->inflight_ns += src->inflight_ns;
	dst->nr_inflight += src->nr_inflight;
}

void stats_bank_total(const struct stats_bank *b, struct stats_counters *out)
{
	*out = b->op[STATS_OP_READ];
	stats_counters_merge(out, &b->op[STATS_OP_WRITE]);
}

double stats_counters_mean_ns(const struct stats_counters *c)
{
	return stats_hist_mean_ns(&c->svc);
}

double stats_counters_stddev_ns(const struct stats_counters *c)
{
	return stats_stddev_ns(c->svc.nr, c->svc.sum_ns, c->svc_sumsq_ns2);
}

double stats_stddev_ns(uint64_t n, uint64_t sum_ns, unsigned __int128 sumsq_ns2)
{
	unsigned __int128 sq, n_sumsq;
	long double var;

	if (n < 2)
		return 0;
	sq = (unsigned __int128)sum_ns * sum_ns;
	if (!__builtin_mul_overflow((unsigned __int128)n, sumsq_ns2, &n_sumsq)) {
		/* n * sumsq >= sum^2 (Cauchy-Schwarz): the difference is exact and >= 0. */
		var = (long double)(n_sumsq - sq) / ((long double)n * (long double)(n - 1));
	} else {
		var = ((long double)sumsq_ns2 - (long double)sq / n) / (n - 1);
		var = var < 0 ? 0 : var;
	}
	return (double)sqrtl(var);
}

double stats_rate_per_sec(uint64_t nr, uint64_t elapsed_ns)
{
	return elapsed_ns ? (double)nr * 1e9 / (double)elapsed_ns : 0;
}

double stats_mb_per_sec(uint64_t bytes, uint64_t elapsed_ns, uint64_t mb_bytes)
{
	return mb_bytes ? stats_rate_per_sec(bytes, elapsed_ns) / (double)mb_bytes : 0;
}

double stats_bank_qdepth(const struct stats_bank *b, uint64_t elapsed_ns)
{
	return elapsed_ns ? (double)b->inflight_ns / (double)elapsed_ns : 0;
}

void stats_lite_merge_counts(struct stats_bank *dst, const struct stats_lite *src)
{
	for (int op = 0; op < STATS_OP_NR; op++) {
		struct stats_counters *c = &dst->op[op];

		c->nr_ios += src->op[op].nr_ios;
		c->total_bytes += src->op[op].total_bytes;
		c->svc_sumsq_ns2 += src->op[op].svc_sumsq_ns2;
		dst->inflight_ns += src->op[op].svc_sum_ns;
	}
}

void stats_lite_merge_into(struct stats_bank *dst, const struct stats_lite *src)
{
	stats_lite_merge_counts(dst, src);
	for (int op = 0; op < STATS_OP_NR; op++) {
		struct stats_counters *c = &dst->op[op];
		uint64_t max = src->op[op].svc_max_ns;

		if (!src->op[op].nr_ios)
			continue;
		if (!c->svc.nr || max < c->svc.min_ns)
			c->svc.min_ns = max; /* as stats_hist_merge, with the buckets left empty */
		if (max > c->svc.max_ns)
			c->svc.max_ns = max;
		c->svc.nr += src->op[op].nr_ios;
		c->svc.sum_ns += src->op[op].svc_sum_ns;
	}
}
