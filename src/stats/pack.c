/* Counter banks on the wire, for many hosts: rank 0 adds the banks every rank sends per
 * interval, so the totals' percentiles stay exact to the bucket. A histogram travels as its
 * count, sum, min, max and its non-empty buckets (index, count): a few hundred bytes instead
 * of 20 KiB for a typical interval. */
#include "ioramp/stats.h"

#include <errno.h>
#include <string.h>

struct hist_head {
	uint64_t nr;
	uint64_t sum_ns;
	uint64_t min_ns;
	uint64_t max_ns;
	uint32_t nr_buckets; /* non-empty buckets that follow */
	uint32_t pad;
};

struct bucket {
	uint32_t idx;
	uint32_t pad;
	uint64_t count;
};

struct counters_head {
	uint64_t nr_ios;
	uint64_t total_bytes;
	uint64_t nr_errors;
	uint64_t sumsq_lo;
	uint64_t sumsq_hi;
};

struct bank_head {
	uint64_t inflight_ns;
	uint64_t inflight_since_ns;
	uint32_t nr_inflight;
	uint32_t pad;
};

size_t stats_bank_pack_max(void)
{
	return sizeof(struct bank_head) +
	       STATS_OP_NR *
		       (sizeof(struct counters_head) +
			2 * (sizeof(struct hist_head) + STATS_HIST_NR * sizeof(struct bucket)));
}

static size_t hist_pack(const struct stats_hist *h, uint8_t *out)
{
	struct hist_head hh = { h->nr, h->sum_ns, h->min_ns, h->max_ns, 0, 0 };
	size_t n = sizeof(hh);

	for (uint32_t i = 0; h->nr && i < STATS_HIST_NR; i++) {
		struct bucket b = { i, 0, h->counts[i] };

		if (!h->counts[i])
			continue;
		memcpy(out + n, &b, sizeof(b));
		n += sizeof(b);
		hh.nr_buckets++;
	}
	memcpy(out, &hh, sizeof(hh));
	return n;
}

size_t stats_bank_pack(const struct stats_bank *b, uint8_t *out, size_t cap)
{
	struct bank_head bh = { b->inflight_ns, b->inflight_since_ns, b->nr_inflight, 0 };
	size_t n = sizeof(bh);

	if (cap < stats_bank_pack_max())
		return 0;
	memcpy(out, &bh, sizeof(bh));
	for (int op = 0; op < STATS_OP_NR; op++) {
		const struct stats_counters *c = &b->op[op];
		struct counters_head ch = { c->nr_ios, c->total_bytes, c->nr_errors,
					    (uint64_t)c->svc_sumsq_ns2,
					    (uint64_t)(c->svc_sumsq_ns2 >> 64) };

		memcpy(out + n, &ch, sizeof(ch));
		n += sizeof(ch);
		n += hist_pack(&c->svc, out + n);
		n += hist_pack(&c->resp, out + n);
	}
	return n;
}

static int64_t hist_unpack(struct stats_hist *h, const uint8_t *in, size_t len)
{
	struct hist_head hh;
	size_t n = sizeof(hh);

	if (len < sizeof(hh))
		return -EINVAL;
	memcpy(&hh, in, sizeof(hh));
	if (hh.nr_buckets > STATS_HIST_NR || len - n < hh.nr_buckets * sizeof(struct bucket))
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	h->nr = hh.nr;
	h->sum_ns = hh.sum_ns;
	h->min_ns = hh.min_ns;
	h->max_ns = hh.max_ns;
	for (uint32_t i = 0; i < hh.nr_buckets; i++) {
		struct bucket b;

		memcpy(&b, in + n, sizeof(b));
		n += sizeof(b);
		/* counts lie in the buckets of [min_ns, max_ns]: merges and percentiles read only
		 * those (hist.c) */
		if (b.idx >= STATS_HIST_NR || !h->nr || b.idx < stats_hist_bucket_idx(h->min_ns) ||
		    b.idx > stats_hist_bucket_idx(h->max_ns))
			return -EINVAL;
		h->counts[b.idx] = b.count;
	}
	return (int64_t)n;
}

int64_t stats_bank_unpack(struct stats_bank *b, const uint8_t *in, size_t len)
{
	struct bank_head bh;
	size_t n = sizeof(bh);

	if (len < sizeof(bh))
		return -EINVAL;
	memcpy(&bh, in, sizeof(bh));
	b->inflight_ns = bh.inflight_ns;
	b->inflight_since_ns = bh.inflight_since_ns;
	b->nr_inflight = bh.nr_inflight;
	for (int op = 0; op < STATS_OP_NR; op++) {
		struct stats_counters *c = &b->op[op];
		struct counters_head ch;
		int64_t k;

		if (len - n < sizeof(ch))
			return -EINVAL;
		memcpy(&ch, in + n, sizeof(ch));
		n += sizeof(ch);
		c->nr_ios = ch.nr_ios;
		c->total_bytes = ch.total_bytes;
		c->nr_errors = ch.nr_errors;
		c->svc_sumsq_ns2 = ((unsigned __int128)ch.sumsq_hi << 64) | ch.sumsq_lo;
		k = hist_unpack(&c->svc, in + n, len - n);
		if (k < 0)
			return k;
		n += (size_t)k;
		k = hist_unpack(&c->resp, in + n, len - n);
		if (k < 0)
			return k;
		n += (size_t)k;
	}
	return (int64_t)n;
}
