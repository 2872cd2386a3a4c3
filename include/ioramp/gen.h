/* Workload generation: PCG random streams, arrival schedules and the (op, offset, size) stream
 * of one workload generator (one WD on one SD), with VDbench 5.04.07's semantics
 * (reference/vdbench.md §5, §9.4-9.7). Pure computation: no I/O, no clocks, no allocation.
 * Every object here belongs to the one thread that calls it; nothing is shared or locked. */
#ifndef IORAMP_GEN_H
#define IORAMP_GEN_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- PCG32 ----------------------------------------------------------------------------- */

/* PCG32 (XSH-RR output, 64-bit LCG state) after O'Neill's paper. The stream selects one of
 * 2^63 independent sequences; give every generator its own stream so that the same seed
 * gives every generator a different but reproducible sequence. Plain data: copyable. */
struct gen_pcg {
	uint64_t state;
	uint64_t inc; /* always odd */
};

/* Seeds r as the paper's pcg32_srandom_r(seed, stream) does, so (42, 54) reproduces the
 * paper's demo output. Any values are valid. */
void gen_pcg_seed(struct gen_pcg *r, uint64_t seed, uint64_t stream);

/* Next 32 random bits. Hot path (every I/O draws): inline, below. */
static inline uint32_t gen_pcg_u32(struct gen_pcg *r);

/* Next 64 random bits: two consecutive u32 outputs, the first in the high half. */
static inline uint64_t gen_pcg_u64(struct gen_pcg *r);

/* Uniform integer in [0, n), without modulo bias (Lemire's multiply-and-reject). Uses one
 * u32 draw (rarely more) when n <= 2^32 - 1, u64 draws above. n == 0 returns 0. */
static inline uint64_t gen_pcg_below(struct gen_pcg *r, uint64_t n);

/* Uniform double in [0, 1) with 53 random bits (one u64 draw). */
static inline double gen_pcg_unit(struct gen_pcg *r);

/* ---- arrivals ---------------------------------------------------------------------------- */

/* Inter-arrival distributions of RD distribution= (reference §9.4). */
enum gen_dist {
	GEN_DIST_EXPONENTIAL, /* default; deltas capped at GEN_ARRIVAL_MAX_DELTA_NS like VDbench */
	GEN_DIST_UNIFORM,     /* uniform in [0, 2 * mean] */
	GEN_DIST_DETERMINISTIC, /* exactly mean */
	GEN_DIST_NR,
};

/* Cap on one exponential inter-arrival delta, as VDbench (180 s); a #define because it does
 * not fit an int enum constant. */
#define GEN_ARRIVAL_MAX_DELTA_NS UINT64_C(180000000000)

/* One step of distribution=variable: this generator's rate for duration_ns, then the next
 * step; the list repeats. iops == 0 means no arrivals during the step. */
struct gen_rate_step {
	double iops;
	uint64_t duration_ns;
};

struct gen_arrival_cfg {
	enum gen_dist dist;
	double mean_ns; /* mean inter-arrival time; fractional ns are kept (no drift) */
	/* Absolute origin: the first arrival is start_ns + one delta. VDbench staggers
	 * deterministic generators i = 0, 1, ... at run start + 100 ms + 100 us * (i + 1)
	 * (reference §9.4); that choice is the engine's. */
	uint64_t start_ns;
	/* distribution=spike: at the start of every second (from start_ns, or from each step's
	 * start) release the whole part of the rate at once: 3.5 I/Os per second give 3, below
	 * one I/O per second none (VDbench 5.04.07, observed). The distribution is then unused. */
	bool is_spike;
	/* distribution=variable: when nr_steps > 0 the steps replace mean_ns, starting at
	 * start_ns. The array is the caller's and must outlive the schedule. */
	const struct gen_rate_step *steps;
	size_t nr_steps;
};

/* The arrival schedule of one generator, on absolute time. The time is kept as an integer
 * part and a fractional remainder (deterministic: anchor + k * mean), so that summing a
 * billion 333.33 ns deltas does not drift. Fields are private to arrival.c. */
struct gen_arrival {
	struct gen_pcg rng;
	enum gen_dist dist;
	bool is_spike;
	bool has_spikes; /* is_spike: some rate releases at least one I/O per second */
	double mean_ns;
	uint64_t start_ns;
	uint64_t last_ns;	  /* integer part of the last arrival drawn */
	double frac_ns;		  /* fractional part of the last arrival, in [0, 1) */
	uint64_t anchor_ns;	  /* deterministic: origin of the current mean */
	uint64_t nr_since_anchor; /* deterministic: arrivals since anchor_ns */
	const struct gen_rate_step *steps;
	size_t nr_steps;
	size_t step_idx;
	uint64_t step_end_ns;
};

/* Sets up a schedule. Returns 0, or -EINVAL when dist is unknown, mean_ns is not finite and
 * > 0 (without steps), or the steps have no positive rate, a zero duration or a bad rate. */
int gen_arrival_init(struct gen_arrival *a, const struct gen_arrival_cfg *cfg, uint64_t seed,
		     uint64_t stream);

/* Returns the next arrival time (absolute ns, never decreasing) and advances; UINT64_MAX when
 * a spike schedule never releases anything. Hot path. */
uint64_t gen_arrival_next(struct gen_arrival *a);

/* Changes the mean for the arrivals after the last one returned (curves, rate changes). The
 * schedule continues from the last arrival; a deterministic schedule re-anchors there.
 * Returns 0, or -EINVAL for a mean that is not finite and > 0. Ignored with steps. */
int gen_arrival_set_mean(struct gen_arrival *a, double mean_ns);

/* ---- ranges ------------------------------------------------------------------------------ */

/* A byte range of an SD: [start, start + len). start + len may exceed the SD size: the range
 * then wraps, and its second piece is [0, start + len - sd_size). */
struct gen_range {
	uint64_t start_bytes;
	uint64_t len_bytes;
};

/* Resolves range=(lo,hi) or hotband=(lo,hi) against an SD (reference §9.6): values <= 100 are
 * percentages of the SD; 100 < hi < 200 wraps around the end ((90,110) = last 10% + first
 * 10%; span must stay below 100%); hi > 200 means both values are bytes. Start and end are
 * rounded down to multiples of max_xfer_bytes (so (0,50) and (50,100) tile the SD), and
 * sd_size_bytes is first rounded down likewise (reference §4). Returns 0, or -EINVAL when
 * lo > hi, lo >= 100 as a percentage, hi == 200, a byte value beyond the SD, or the result
 * holds less than one max_xfer_bytes. */
int gen_range_resolve(double lo, double hi, uint64_t sd_size_bytes, uint64_t max_xfer_bytes,
		      struct gen_range *out);

/* ---- workload generator ------------------------------------------------------------------ */

enum {
	GEN_XFER_MAX_SIZES = 64, /* entries of an xfersize=(size,pct,...) distribution (VDbench
				  * 5.04.07 takes 64: tested) */
};

enum gen_xfer_kind {
	GEN_XFER_FIXED, /* size_bytes[0] */
	GEN_XFER_DIST,	/* size_bytes[i] with pct[i], i < nr_sizes, pct summing to 100 */
	GEN_XFER_RANGE, /* (min,max,align): a random multiple of align_bytes in [min, max] */
};

struct gen_xfer_cfg {
	enum gen_xfer_kind kind;
	uint32_t nr_sizes;
	uint64_t size_bytes[GEN_XFER_MAX_SIZES];
	double pct[GEN_XFER_MAX_SIZES];
	uint64_t min_bytes;
	uint64_t max_bytes;
	uint64_t align_bytes;
};

/* seekpct= (reference §9.5). */
enum gen_seek {
	GEN_SEEK_PCT,	  /* seekpct (0..100) is the probability of a random I/O */
	GEN_SEEK_SEQNZ,	  /* sequential, first I/O at a random block */
	GEN_SEEK_EOF,	  /* sequential, gen_wg_next() reports the end of the range */
	GEN_SEEK_POISSON, /* random; block index ~ Poisson(poisson_lambda), folded into range */
};

/* What one generator does. The engine fills it from a WD (with RD overrides) and an SD. */
struct gen_wg_cfg {
	double rdpct; /* 0..100: an I/O reads if uniform[0,100) < rdpct */
	struct gen_xfer_cfg xfer;
	enum gen_seek seek;
	double seekpct;	       /* GEN_SEEK_PCT only */
	double poisson_lambda; /* GEN_SEEK_POISSON only: mean block index, > 0 */
	uint64_t sd_size_bytes;
	struct gen_range range; /* from gen_range_resolve(); len 0 means the whole SD */
	uint64_t align_bytes;	/* random-offset granularity; 0 = the I/O's own size */
	uint64_t offset_bytes;	/* SD offset=: added to every offset returned */
	uint64_t hitarea_bytes; /* used when rhpct or whpct > 0 */
	double rhpct;		/* read hits: uniform [start, start + hitarea) */
	double whpct;		/* write hits */
	bool is_hotband;	/* range is a hotband: random misses favour its start */
	bool has_stride;	/* stride=(min,max): random I/Os become forward skips */
	uint64_t stride_min_bytes;
	uint64_t stride_max_bytes;
	bool is_raw_device;   /* never touch the first max-xfersize bytes of the SD */
	uint64_t guard_bytes; /* is_raw_device: that many bytes instead (the SD's largest
			       * transfer, shared by all its generators); 0: this one's */
};

/* One I/O to issue. offset_bytes already includes cfg.offset_bytes. */
struct gen_io {
	bool is_write;
	uint64_t offset_bytes;
	uint64_t size_bytes;
};

/* One sequential position shared by the generators of one workload split across threads
 * (reference §9.5: sequential I/O continues from the end of the previous I/O of that WG,
 * whichever thread issued it, so threads=8 is one stream eight deep, not eight streams).
 * Zeroed: no position yet. */
struct gen_seq_cursor {
	alignas(64) _Atomic uint64_t end_plus1; /* logical end of the last miss + 1; 0: none */
};

/* One generator's state: caller-provided storage, filled by gen_wg_init(), private to
 * stream.c. Offsets are computed in a logical range [0, len) that maps onto up to two
 * physical pieces (a wrapped range, or a raw device's excluded first block). */
struct gen_wg {
	struct gen_pcg rng;
	struct gen_wg_cfg cfg;
	double xfer_cum[GEN_XFER_MAX_SIZES]; /* cumulative probabilities, last forced to 1 */
	uint64_t max_xfer_bytes;
	uint64_t len_bytes;	/* logical length: piece A then piece B */
	uint64_t a_start_bytes; /* physical start of piece A */
	uint64_t a_len_bytes;
	uint64_t b_start_bytes; /* physical start of piece B (length len - a_len) */
	uint64_t miss_lo_bytes; /* logical start of the miss area; [0, miss_lo) is the hit area */
	uint64_t seq_pos_bytes; /* logical end of the previous miss I/O */
	/* The random miss area's blocks for the last size drawn (a division saved per I/O) */
	uint64_t miss_size_bytes; /* 0: none yet */
	uint64_t miss_gran_bytes;
	uint64_t miss_nr_blocks;
	struct gen_seq_cursor *shared_seq; /* NULL: seq_pos_bytes is the position */
	bool has_hits;
	bool is_plain_random; /* every I/O a uniform random miss: no hits, strides or curves */
	bool has_seq_pos;
	bool is_eof;
};

/* The hotband curve (hotband.c): a random miss lands at fraction x of the band with the
 * truncated exponential CDF F(x) = (1 - exp(-L x)) / (1 - exp(-L)), L = GEN_HOTBAND_L, so
 * the first 10% of the band gets F(0.1) = 63.2% of the I/Os, the first 20% 86.5%, the first
 * half 99.3%. Writes are shifted by +1% of the band, wrapping. Our own curve, not VDbench's
 * table. Bands must hold at least GEN_HOTBAND_MIN_BYTES (VDbench: 1 MB = 10^6 bytes). */
enum {
	GEN_HOTBAND_L = 10,
	GEN_HOTBAND_MIN_BYTES = 1000000,
};

/* Validates cfg and prepares g, with its own PCG stream (seed, stream). Returns 0, or -EINVAL
 * for an impossible configuration: percentages outside 0..100, an xfersize of 0 or a
 * distribution not summing to 100 (+-0.0001), a range outside the SD or smaller than the
 * largest transfer, hit or miss area under two largest transfers when hits are used, a
 * hotband under GEN_HOTBAND_MIN_BYTES, stride min > max, poisson_lambda <= 0. */
int gen_wg_init(struct gen_wg *g, const struct gen_wg_cfg *cfg, uint64_t seed, uint64_t stream);

/* Why gen_wg_init() refuses cfg, so a caller can say it before any I/O. */
enum gen_wg_fault {
	GEN_WG_OK,
	GEN_WG_BAD_CFG,	 /* a percentage, seek or stride out of its range */
	GEN_WG_BAD_XFER, /* the transfer sizes (see gen_wg_init()) */
	GEN_WG_RANGE,	 /* the range does not hold one largest transfer inside the SD */
	GEN_WG_HITAREA,	 /* hit or miss area under two largest transfers, hits in use */
	GEN_WG_HOTBAND,	 /* the band's miss area under GEN_HOTBAND_MIN_BYTES */
};

/* gen_wg_init()'s checks alone; *len_bytes (if not NULL): the usable range length found. */
enum gen_wg_fault gen_wg_check(const struct gen_wg_cfg *cfg, uint64_t *len_bytes);

/* Makes g take its sequential position from c, shared with the other generators given c:
 * each sequential I/O claims the next block with one compare-and-swap, random misses move
 * the position for all. Call after gen_wg_init(); c outlives g. */
void gen_wg_share_seq(struct gen_wg *g, struct gen_seq_cursor *c);

/* Draws the next I/O into *io. Returns 0, or 1 once a GEN_SEEK_EOF generator has passed the
 * end of its range (and on every later call; *io is then untouched). Hot path: no
 * allocation, no syscalls, bounded work. Rules (reference §9.5-9.7):
 * - per I/O, in this order: read or write, size, hit or miss, random or sequential;
 * - hits are uniform in the hit area and leave the sequential position alone;
 * - random offsets are area start + k * granularity with every block fully inside;
 * - sequential I/O continues at the end of the previous miss (random ones included), wraps
 *   to the area start at its end; the last block before the end may be short, so a
 *   sequential pass covers every byte; GEN_SEEK_EOF reports the end instead of wrapping;
 * - a stride draws the next offset as previous end + min + k * granularity <= max; past the
 *   end it restarts at the area start;
 * - in a wrapped range a random I/O that would straddle the SD end starts at the SD start
 *   instead; a sequential one is cut short there. */
int gen_wg_next(struct gen_wg *g, struct gen_io *io);

/* The largest transfer size cfg can draw (for validating ranges before gen_wg_init()), or 0
 * when xfer is invalid. */
uint64_t gen_xfer_max_bytes(const struct gen_xfer_cfg *xfer);

/* ---- the draws, inline: the generators and the model call them for every I/O ------------- */

/* The 64-bit LCG multiplier the paper uses for pcg32. */
#define GEN_PCG_MULT UINT64_C(6364136223846793005)

static inline uint32_t gen_pcg_u32(struct gen_pcg *r)
{
	uint64_t old = r->state;
	uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
	uint32_t rot = (uint32_t)(old >> 59);

	r->state = old * GEN_PCG_MULT + r->inc;
	return (xorshifted >> rot) | (xorshifted << ((32 - rot) & 31));
}

static inline uint64_t gen_pcg_u64(struct gen_pcg *r)
{
	uint64_t hi = gen_pcg_u32(r);

	return (hi << 32) | gen_pcg_u32(r);
}

/* Lemire: the high half of x * n is uniform in [0, n) once the low half is rejected when it
 * falls below 2^w mod n; the modulo is only computed on the rare path, out of line (pcg.c):
 * n == 0 or above 32 bits, and a first draw m whose low half is below n. */
uint64_t gen_pcg_below_slow(struct gen_pcg *r, uint64_t n);
uint64_t gen_pcg_below_retry32(struct gen_pcg *r, uint32_t n, uint64_t m);

static inline uint64_t gen_pcg_below(struct gen_pcg *r, uint64_t n)
{
	uint64_t m;

	if (n - 1 >= UINT32_MAX) /* n == 0 or n > 2^32 - 1 */
		return gen_pcg_below_slow(r, n);
	m = (uint64_t)gen_pcg_u32(r) * n;
	if ((uint32_t)m < (uint32_t)n) /* maybe in the rejected zone: pcg.c decides */
		return gen_pcg_below_retry32(r, (uint32_t)n, m);
	return m >> 32;
}

static inline double gen_pcg_unit(struct gen_pcg *r)
{
	return (double)(gen_pcg_u64(r) >> 11) * 0x1.0p-53;
}

#endif /* IORAMP_GEN_H */
