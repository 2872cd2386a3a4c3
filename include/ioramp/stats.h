/* Statistics: log-linear latency histograms, per-interval counter banks, VDbench's histogram
 * buckets and machine CPU use. Includes no other module. Banks are written by the one worker
 * thread that owns them (allocation-free, lock-free hot path); the controller reads them only
 * after the worker has published the interval (release/acquire, see DESIGN.md), then merges,
 * derives and rebins on its own thread. */
#ifndef IORAMP_STATS_H
#define IORAMP_STATS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- log-linear histogram ------------------------------------------------------------------ */

/* Values in ns. Below 128 every value has its own bucket; above, each power of two [2^m,
 * 2^(m+1)) is split into 64 equal buckets of width 2^(m-6), so a bucket's midpoint is within
 * 1/128 (0.78%) of any value in it. Values of 2^44 ns (4.9 hours) and more are counted in the
 * last bucket; max_ns still records them exactly. */
enum {
	STATS_HIST_SUB_BITS = 6,
	STATS_HIST_SUB_NR = 1 << STATS_HIST_SUB_BITS,
	STATS_HIST_MAX_BITS = 44,
	STATS_HIST_NR = (STATS_HIST_MAX_BITS - STATS_HIST_SUB_BITS + 1) * STATS_HIST_SUB_NR,
};

/* A histogram with count, sum, min and max. Fixed size (about 20 KiB); an all-zero struct is
 * an empty histogram, so static or calloc'ed storage needs no init call. Histograms of any
 * threads, intervals or hosts merge exactly by addition. */
struct stats_hist {
	uint64_t nr;	 /* values added */
	uint64_t sum_ns; /* their sum; wraps only past 2^64 ns (584 years) */
	uint64_t min_ns; /* meaningful when nr > 0 */
	uint64_t max_ns;
	uint64_t counts[STATS_HIST_NR];
};

/* Empties h, clearing only the buckets in use. h must be all-zero or filled by the calls
 * here (its counts then lie within [min_ns, max_ns]). */
void stats_hist_reset(struct stats_hist *h);

/* Counts one value. Hot path: no allocation, a few instructions (inline, below). */
static inline void stats_hist_add(struct stats_hist *h, uint64_t ns);

/* dst, empty (reset), becomes a copy of src. */
void stats_hist_copy(struct stats_hist *dst, const struct stats_hist *src);

/* Adds src's counts into dst (dst = dst + src). */
void stats_hist_merge(struct stats_hist *dst, const struct stats_hist *src);

/* The value at percentile pct (0 < pct <= 100, e.g. 50, 99.9, 99.9999): the midpoint of the
 * bucket holding the ceil(pct% * nr)-th smallest value, clamped to [min_ns, max_ns]; exact
 * below 128 ns, within 0.78% above. Returns 0 for an empty histogram; pct <= 0 (or NaN)
 * gives min_ns, pct >= 100 gives max_ns. */
uint64_t stats_hist_percentile(const struct stats_hist *h, double pct);

/* How many values were < ns: exact when ns is a bucket boundary (any ns below 128), else the
 * bucket holding ns is split in proportion to where ns falls in it (rounded), which keeps the
 * result monotone in ns, so differences of it never go negative. Used for rebinning. */
uint64_t stats_hist_count_below(const struct stats_hist *h, uint64_t ns);

/* Mean of the values in ns, 0 when empty. */
double stats_hist_mean_ns(const struct stats_hist *h);

/* Bucket geometry, for outputs that list buckets (idx < STATS_HIST_NR): the bucket a value
 * falls in, a bucket's lowest value and its width in ns. */
static inline uint32_t stats_hist_bucket_idx(uint64_t ns);
uint64_t stats_hist_bucket_lo_ns(uint32_t idx);
uint64_t stats_hist_bucket_width_ns(uint32_t idx);

/* ---- counter banks --------------------------------------------------------------------------- */

enum stats_op {
	STATS_OP_READ,
	STATS_OP_WRITE,
	STATS_OP_NR,
};

/* One direction's counters. Service time is submit -> completion (VDbench's "resp",
 * reference §9.10); response time is scheduled arrival -> completion and includes the wait
 * in our own queue (no coordinated omission). svc.nr == nr_ios; svc.sum_ns and svc.max_ns are
 * the service-time sum and max. Failed I/Os count only in nr_errors. */
struct stats_counters {
	uint64_t nr_ios;
	uint64_t total_bytes;
	uint64_t nr_errors;
	/* Sum of squared service times, exact: squares of values below 2^44 ns (4.9 h) summed
	 * over 2^39 I/Os stay below 2^127. A double would round every addition and make the
	 * result depend on merge order; a long double has only 64 bits of mantissa while one
	 * 100 ms square already needs 53. Integer sums keep the stddev free of cancellation
	 * until the final division (see stats_counters_stddev_ns). */
	unsigned __int128 svc_sumsq_ns2;
	struct stats_hist svc;
	struct stats_hist resp;
};

/* The counters of one WD on one SD for one interval, plus the time integral of its I/Os in
 * flight (for VDbench's queue depth column: integral / interval length, reference §9.10).
 * Written only by the owning worker between stats_bank_start() and stats_bank_finish(). */
struct stats_bank {
	struct stats_counters op[STATS_OP_NR];
	uint64_t inflight_ns;	    /* sum over time of in-flight I/Os, in I/O x ns */
	uint64_t inflight_since_ns; /* time of the last change of nr_inflight */
	uint32_t nr_inflight;
	/* Since stats_bank_start() every I/O of op waited for nothing (its response time was its
	 * service time, as at max): op's resp histogram is left empty and becomes a copy of svc at
	 * the first I/O that waited, or at stats_bank_finish(). One histogram add per I/O less. */
	bool is_resp_svc[STATS_OP_NR];
};

/* Empties b (only the histogram buckets in use are cleared) and starts its interval at now_ns with nr_inflight I/Os
 * already in flight (carried over from the previous interval's bank). Owning worker, at an
 * interval boundary. */
void stats_bank_start(struct stats_bank *b, uint32_t nr_inflight, uint64_t now_ns);

/* Empties b, a bank filled only by the calls here (merges), as a zeroed one: only the
 * histogram buckets in use are cleared (a memset of a bank is 80 KiB). Controller. */
void stats_bank_clear(struct stats_bank *b);

/* Records one completed I/O: its size, service time and response time. Hot path, owning
 * worker. */
static inline void stats_bank_record(struct stats_bank *b, enum stats_op op, uint64_t size_bytes,
				     uint64_t svc_ns, uint64_t resp_ns);

/* Records one failed I/O. Owning worker. */
void stats_bank_record_error(struct stats_bank *b, enum stats_op op);

/* nr I/Os entered (nr > 0, at submit) or left (nr < 0, at completion) flight at now_ns. Call it
 * with the clock reading of the batch. Hot path, owning worker. */
static inline void stats_bank_inflight_add(struct stats_bank *b, int32_t nr, uint64_t now_ns);

/* Closes the in-flight integral at now_ns (the interval end), before publishing. Owning
 * worker. */
void stats_bank_finish(struct stats_bank *b, uint64_t now_ns);

/* dst += src, every counter, histogram and integral (SD totals, run totals, hosts). Merging
 * intervals adds their integrals, so divide by the summed interval lengths. Controller. */
void stats_counters_merge(struct stats_counters *dst, const struct stats_counters *src);
void stats_bank_merge(struct stats_bank *dst, const struct stats_bank *src);

/* A bank without histograms, for the figures of VDbench's slave JVMs (localhost-N.html, the
 * skew report's slave table): per direction the count, bytes and service-time sum, max and
 * sum of squares. A few adds per I/O, no in-flight integral: the queue depth is the service
 * times' sum over the interval (Little's law; the bank's integral differs only by the I/Os
 * that straddle an interval's end). Owning worker, as a bank; all-zero is empty. */
struct stats_lite {
	struct {
		uint64_t nr_ios;
		uint64_t total_bytes;
		uint64_t svc_sum_ns;
		uint64_t svc_max_ns;
		unsigned __int128 svc_sumsq_ns2;
	} op[STATS_OP_NR];
};

static inline void stats_lite_record(struct stats_lite *l, enum stats_op op, uint64_t size_bytes,
				     uint64_t svc_ns);
/* dst += src, as a bank whose histograms hold only count, sum and max (min is set to max, the
 * buckets stay empty: no percentile), the service times' sum its in-flight integral.
 * Controller. */
void stats_lite_merge_into(struct stats_bank *dst, const struct stats_lite *src);
/* The same without the service times' histograms, whose I/Os the caller merges from a real
 * histogram of its own (stats_hist_merge). Controller. */
void stats_lite_merge_counts(struct stats_bank *dst, const struct stats_lite *src);

/* Reads and writes together ("Reads and writes" in VDbench's reports) into *out. */
void stats_bank_total(const struct stats_bank *b, struct stats_counters *out);

/* Mean service time in ns, 0 without I/O. */
double stats_counters_mean_ns(const struct stats_counters *c);

/* Sample standard deviation of the service time in ns, computed from the sums as VDbench
 * does: sqrt((sumsq - sum^2 / n) / (n - 1)); 0 below two I/Os. The numerator n * sumsq - sum^2
 * is formed exactly in 128-bit integers when it fits (no cancellation at all), else in long
 * double. */
double stats_counters_stddev_ns(const struct stats_counters *c);
/* The same from n values' sum and exact sum of squares (two directions' sums added). */
double stats_stddev_ns(uint64_t n, uint64_t sum_ns, unsigned __int128 sumsq_ns2);

/* Events per second over elapsed_ns (0 when elapsed_ns is 0). */
double stats_rate_per_sec(uint64_t nr, uint64_t elapsed_ns);

/* MB/s with mb_bytes bytes per MB (VDbench: 1048576, or 1000000 with -mb). */
double stats_mb_per_sec(uint64_t bytes, uint64_t elapsed_ns, uint64_t mb_bytes);

/* Average I/Os in flight over elapsed_ns (the interval, or the sum of merged intervals). */
double stats_bank_qdepth(const struct stats_bank *b, uint64_t elapsed_ns);

/* ---- banks on the wire (many hosts) ----------------------------------------------------------- */

/* Most bytes stats_bank_pack() writes for one bank. */
size_t stats_bank_pack_max(void);

/* Writes b into out (cap bytes, at least stats_bank_pack_max()) in a compact form: counters,
 * then each histogram's non-empty buckets only. Same-architecture peers only (host byte
 * order). Returns the bytes written. */
size_t stats_bank_pack(const struct stats_bank *b, uint8_t *out, size_t cap);

/* Reads a bank written by stats_bank_pack() from in (len bytes) into *b. Returns the bytes
 * read, or -EINVAL for a short or malformed record. */
int64_t stats_bank_unpack(struct stats_bank *b, const uint8_t *in, size_t len);

/* ---- VDbench histogram buckets ---------------------------------------------------------------- */

enum {
	STATS_VDB_MAX_BOUNDS = 64,
	STATS_VDB_DEFAULT_NR = 26, /* 26 bounds: 27 buckets, the last up to max */
};

/* Bucket upper bounds in ns, strictly increasing. Bucket 0 is [0, bound[0]), bucket i is
 * [bound[i-1], bound[i]) (VDbench: min <= resp < max, reference §10.3), bucket nr_bounds is
 * [bound[nr_bounds-1], max]. */
struct stats_vdb_buckets {
	uint32_t nr_bounds;
	uint64_t bound_ns[STATS_VDB_MAX_BOUNDS];
};

/* VDbench's default bounds: 20, 40, 60, 80, 100, 200 ... 800 us, 1, 2, 4 ... 800 ms, 1 s, 2 s. */
void stats_vdb_default(struct stats_vdb_buckets *b);

/* User bounds (histogram=). Returns 0, or -EINVAL when nr is 0 or above STATS_VDB_MAX_BOUNDS,
 * or the bounds are not strictly increasing and positive. */
int stats_vdb_init(struct stats_vdb_buckets *b, const uint64_t *bound_ns, size_t nr);

/* Fills counts[0 .. nr_bounds] with h's values per bucket; they sum to h->nr. A VDbench bound
 * that falls inside one of h's buckets splits it (see stats_hist_count_below): exact for
 * bounds below 128 ns, else the error is a share of one 0.78%-wide bucket. */
void stats_vdb_rebin(const struct stats_vdb_buckets *b, const struct stats_hist *h,
		     uint64_t counts[STATS_VDB_MAX_BOUNDS + 1]);

/* ---- CPU use ----------------------------------------------------------------------------------- */

/* The machine-wide "cpu" line of /proc/stat, in clock ticks. Kernels before 2.6.11 lack the
 * later fields; they stay 0. guest time is already inside user and is not read. */
struct stats_cpu_sample {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/* Percentages of all ticks between two samples, for VDbench's cpu% columns (reference §10.1,
 * §10.4): user = user + nice; sys = system + irq + softirq; used = user + sys ("sys+u");
 * wait = iowait; idle = idle. Steal counts in the total only. */
struct stats_cpu_pct {
	double user_pct;
	double sys_pct;
	double used_pct;
	double wait_pct;
	double idle_pct;
};

/* Parses /proc/stat text (NUL-terminated): the first line that starts with "cpu ". Returns 0,
 * or -EINVAL when there is none or it has fewer than the four oldest fields. */
int stats_cpu_parse(const char *text, struct stats_cpu_sample *out);

/* Reads and parses path (NULL: "/proc/stat"). Returns 0, -errno when it cannot be opened or
 * read (e.g. -ENOENT where /proc is not mounted), or -EINVAL for unexpected contents. Not for
 * the hot path: it makes syscalls. */
int stats_cpu_read(const char *path, struct stats_cpu_sample *out);

/* Fills *out from the ticks between two samples (a earlier). A counter that went backwards
 * (iowait does on some kernels) counts as 0. Returns 0, or -EAGAIN when no tick elapsed. */
int stats_cpu_diff(const struct stats_cpu_sample *a, const struct stats_cpu_sample *b,
		   struct stats_cpu_pct *out);

/* ioramp's own CPU (issue 14): user + sys time of the whole process so far (getrusage), in
 * ns. Not for the hot path. */
uint64_t stats_cpu_self_ns(void);

/* CPU time one thread of this process has used so far (its CPU clock), in ns; 0 when it cannot
 * be read (the thread ended). Not for the hot path. */
uint64_t stats_cpu_thread_ns(pthread_t thread);

/* ---- the hot path, inline: a worker calls these for every I/O ------------------------------ */

/* Below 2 * SUB_NR the bucket index is the value itself; the first formula group (msb = 6)
 * continues that identity, so the geometry has no seam at 128. With shift = msb - 6 (0 below
 * 128), ns >> shift lies in [64, 128) above 128 and is ns itself below, so one formula,
 * shift * 64 + (ns >> shift), covers both without a branch. */
static inline uint32_t stats_hist_bucket_idx(uint64_t ns)
{
	unsigned int shift =
		63 - STATS_HIST_SUB_BITS - (unsigned int)__builtin_clzll(ns | STATS_HIST_SUB_NR);

	if (shift >= STATS_HIST_MAX_BITS - STATS_HIST_SUB_BITS)
		return STATS_HIST_NR - 1;
	return shift * STATS_HIST_SUB_NR + (uint32_t)(ns >> shift);
}

/* stats_hist_add() with the bucket index of ns already known. */
static inline void stats_hist_add_at(struct stats_hist *h, uint64_t ns, uint32_t idx)
{
	if (h->nr == 0 || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->nr++;
	h->sum_ns += ns;
	h->counts[idx]++;
}

static inline void stats_hist_add(struct stats_hist *h, uint64_t ns)
{
	stats_hist_add_at(h, ns, stats_hist_bucket_idx(ns));
}

/* At max an I/O waits for nothing before its submit: its response time is its service time,
 * whose bucket is then reused, or (is_resp_svc) not counted twice. */
static inline void stats_bank_record(struct stats_bank *b, enum stats_op op, uint64_t size_bytes,
				     uint64_t svc_ns, uint64_t resp_ns)
{
	struct stats_counters *c = &b->op[op];
	uint32_t idx = stats_hist_bucket_idx(svc_ns);

	if (b->is_resp_svc[op] && resp_ns != svc_ns) { /* the first I/O that waited */
		stats_hist_copy(&c->resp, &c->svc);
		b->is_resp_svc[op] = false;
	}
	c->nr_ios++;
	c->total_bytes += size_bytes;
	c->svc_sumsq_ns2 += (unsigned __int128)svc_ns * svc_ns;
	stats_hist_add_at(&c->svc, svc_ns, idx);
	if (!b->is_resp_svc[op])
		stats_hist_add_at(&c->resp, resp_ns,
				  resp_ns == svc_ns ? idx : stats_hist_bucket_idx(resp_ns));
}

static inline void stats_bank_inflight_add(struct stats_bank *b, int32_t nr, uint64_t now_ns)
{
	/* Batches may pass a clock reading older than the last change: no time, no area. */
	if (now_ns > b->inflight_since_ns) {
		b->inflight_ns += (uint64_t)b->nr_inflight * (now_ns - b->inflight_since_ns);
		b->inflight_since_ns = now_ns;
	}
	b->nr_inflight = (uint32_t)((int64_t)b->nr_inflight + nr);
}

static inline void stats_lite_record(struct stats_lite *l, enum stats_op op, uint64_t size_bytes,
				     uint64_t svc_ns)
{
	l->op[op].nr_ios++;
	l->op[op].total_bytes += size_bytes;
	l->op[op].svc_sum_ns += svc_ns;
	l->op[op].svc_sumsq_ns2 += (unsigned __int128)svc_ns * svc_ns;
	if (svc_ns > l->op[op].svc_max_ns)
		l->op[op].svc_max_ns = svc_ns;
}

#endif /* IORAMP_STATS_H */
