/* Log-linear latency histogram in nanoseconds: exact below 128 ns, then 64 linear buckets per
 * power of two. Percentiles and rebinning read it; merging is plain addition. */
#include "ioramp/stats.h"

#include <math.h>
#include <string.h>

uint64_t stats_hist_bucket_lo_ns(uint32_t idx)
{
	if (idx < 2 * STATS_HIST_SUB_NR)
		return idx;
	return (uint64_t)(STATS_HIST_SUB_NR + idx % STATS_HIST_SUB_NR)
	       << (idx / STATS_HIST_SUB_NR - 1);
}

uint64_t stats_hist_bucket_width_ns(uint32_t idx)
{
	if (idx < 2 * STATS_HIST_SUB_NR)
		return 1;
	return UINT64_C(1) << (idx / STATS_HIST_SUB_NR - 1);
}

/* Counts are nonzero only in the buckets of [min_ns, max_ns] (every value added lies there and
 * the bucket index grows with the value): reset and merge touch only those, so that a worker's
 * banks of a few busy buckets stay a few resident pages (the sync engine runs a worker per
 * thread) and a merge costs the buckets in use. */
void stats_hist_reset(struct stats_hist *h)
{
	if (h->nr) {
		uint32_t lo = stats_hist_bucket_idx(h->min_ns),
			 hi = stats_hist_bucket_idx(h->max_ns);

		memset(&h->counts[lo], 0, (size_t)(hi - lo + 1) * sizeof(h->counts[0]));
	}
	h->nr = h->sum_ns = h->min_ns = h->max_ns = 0;
}

void stats_hist_copy(struct stats_hist *dst, const struct stats_hist *src)
{
	dst->nr = src->nr;
	dst->sum_ns = src->sum_ns;
	dst->min_ns = src->min_ns;
	dst->max_ns = src->max_ns;
	if (src->nr) {
		uint32_t lo = stats_hist_bucket_idx(src->min_ns),
			 hi = stats_hist_bucket_idx(src->max_ns);

		memcpy(&dst->counts[lo], &src->counts[lo],
		       (size_t)(hi - lo + 1) * sizeof(dst->counts[0]));
	}
}

void stats_hist_merge(struct stats_hist *dst, const struct stats_hist *src)
{
	if (src->nr == 0)
		return;
	if (dst->nr == 0 || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->nr += src->nr;
	dst->sum_ns += src->sum_ns;
	for (uint32_t i = stats_hist_bucket_idx(src->min_ns),
		      hi = stats_hist_bucket_idx(src->max_ns);
	     i <= hi; i++)
		dst->counts[i] += src->counts[i];
}

uint64_t stats_hist_percentile(const struct stats_hist *h, double pct)
{
	uint64_t rank, mid, cum = 0;
	uint32_t i;

	if (h->nr == 0)
		return 0;
	if (!(pct > 0)) /* NaN too */
		return h->min_ns;
	if (pct >= 100)
		return h->max_ns;
	rank = (uint64_t)ceill((long double)pct * h->nr / 100);
	rank = rank < 1 ? 1 : rank > h->nr ? h->nr : rank;
	for (i = stats_hist_bucket_idx(h->min_ns); i < STATS_HIST_NR - 1; i++) { /* none below */
		cum += h->counts[i];
		if (cum >= rank)
			break;
	}
	mid = stats_hist_bucket_lo_ns(i) + stats_hist_bucket_width_ns(i) / 2;
	/* The extremes are known exactly; never report a midpoint outside them. */
	if (mid < h->min_ns)
		return h->min_ns;
	return mid > h->max_ns ? h->max_ns : mid;
}

uint64_t stats_hist_count_below(const struct stats_hist *h, uint64_t ns)
{
	uint32_t idx = stats_hist_bucket_idx(ns);
	uint64_t below = 0, lo, width, part;

	for (uint32_t i = h->nr ? stats_hist_bucket_idx(h->min_ns) : idx; i < idx; i++)
		below += h->counts[i]; /* none below min_ns's bucket */
	lo = stats_hist_bucket_lo_ns(idx);
	width = stats_hist_bucket_width_ns(idx);
	part = ns - lo < width ? ns - lo : width; /* the clamped last bucket may lie below ns */
	/* Rounded share of the bucket holding ns; 128-bit so huge counts cannot overflow. */
	below += (uint64_t)(((unsigned __int128)h->counts[idx] * part + width / 2) / width);
	return below;
}

double stats_hist_mean_ns(const struct stats_hist *h)
{
	return h->nr ? (double)h->sum_ns / (double)h->nr : 0;
}
