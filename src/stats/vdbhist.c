/* VDbench's histogram buckets (reference §10.3): the default 27 latency buckets or user bounds,
 * filled by rebinning a log-linear histogram rather than by counting each I/O twice. */
#include "ioramp/stats.h"

#include <errno.h>

/* Upper bounds in us: 20-100 us by 20, 200-800 us by 200, then 1-2-4-6-8 per decade to 2 s. */
static const uint32_t vdb_default_us[STATS_VDB_DEFAULT_NR] = {
	20,    40,     60,     80,     100,    200,    400,	600,	 800,
	1000,  2000,   4000,   6000,   8000,   10000,  20000,	40000,	 60000,
	80000, 100000, 200000, 400000, 600000, 800000, 1000000, 2000000,
};

void stats_vdb_default(struct stats_vdb_buckets *b)
{
	b->nr_bounds = STATS_VDB_DEFAULT_NR;
	for (uint32_t i = 0; i < STATS_VDB_DEFAULT_NR; i++)
		b->bound_ns[i] = (uint64_t)vdb_default_us[i] * 1000;
}

int stats_vdb_init(struct stats_vdb_buckets *b, const uint64_t *bound_ns, size_t nr)
{
	if (nr == 0 || nr > STATS_VDB_MAX_BOUNDS || bound_ns[0] == 0)
		return -EINVAL;
	for (size_t i = 1; i < nr; i++)
		if (bound_ns[i] <= bound_ns[i - 1])
			return -EINVAL;
	b->nr_bounds = (uint32_t)nr;
	for (size_t i = 0; i < nr; i++)
		b->bound_ns[i] = bound_ns[i];
	return 0;
}

void stats_vdb_rebin(const struct stats_vdb_buckets *b, const struct stats_hist *h,
		     uint64_t counts[STATS_VDB_MAX_BOUNDS + 1])
{
	uint64_t prev = 0;

	/* count_below() is monotone and at most h->nr, so every difference is >= 0 and the
	 * counts sum to h->nr exactly. */
	for (uint32_t i = 0; i < b->nr_bounds; i++) {
		uint64_t below = stats_hist_count_below(h, b->bound_ns[i]);

		counts[i] = below - prev;
		prev = below;
	}
	counts[b->nr_bounds] = h->nr - prev;
}
