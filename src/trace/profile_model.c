/* The profile's model of every device (profile.h), made so that a synthesized stream gives the
 * trace's fidelity figures back:
 * - one random WD per op and class of 1 MiB regions (regions whose I/O count lies in one
 *   half-octave), so the hot regions keep their counts; each class gets a range of its own
 *   whose length in regions keeps the class's share of the regions touched (uniform random
 *   placement touches R(1 - e^(-C/R)) of R regions with C I/Os);
 * - one packing factor kappa per device, the same for every class, so the footprint (bytes in
 *   the union of the ranges touched) comes out as traced: packing every class alike scales all
 *   region counts alike, which leaves the share of I/Os in the hottest 10 % unchanged;
 * - seekpct per WD so that the sequential % comes out as traced: a WD's I/O continues its
 *   previous one with probability f, and counts as sequential only when that previous I/O is
 *   still among the device's last 16 (1 - (1 - p)^16 for a WD with a share p of the device);
 *   what a WD cannot reach (f = 1) is asked of the WDs that can;
 * - classes past the WD budget are merged with a neighbour. */
#include "profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB 1048576.0

/* Bytes moved per byte covered, at most, of a class that fills (prof_is_swept()). */
#define PROF_FILL_MAX_REUSE 1.25

enum {
	/* Only a class whose regions hold this many I/Os or more on average (or as many as a
	 * run puts in a region, at its mean size: boost_ok()) continues more often than traced
	 * to make up for the interleaving: runs in sparser regions would bunch their few I/Os
	 * into fewer regions, which the hot regions figure sees. */
	PROF_BOOST_MIN_PER_REGION = 16,
	PROF_SKEW_UNITS = 1000000, /* skews in 1/10000 of a percent */
};

static uint64_t class_nr(const struct prof_class *c)
{
	return c->ops[0].nr + c->ops[1].nr;
}

/* Whether both ops of a class move all its bytes, each about once (from 4/5 to 5/4 of them):
 * what was written read back (a sort's spills), not two sweeps over bytes of their own. */
static bool ops_overlap(const struct prof_class *c)
{
	double fp = (double)c->footprint_bytes;

	for (int o = 0; o < 2; o++)
		if ((double)c->ops[o].bytes < 0.8 * fp ||
		    (double)c->ops[o].bytes > PROF_FILL_MAX_REUSE * fp)
			return false;
	return true;
}

bool prof_is_swept(const struct prof_class *c)
{
	uint64_t nr = class_nr(c), seq = c->ops[0].nr_seq + c->ops[1].nr_seq;
	double bytes = (double)(c->ops[0].bytes + c->ops[1].bytes);

	return c->is_stream ||
	       (nr && 2 * seq >= nr &&
		(bytes <= PROF_FILL_MAX_REUSE * (double)c->footprint_bytes || ops_overlap(c)));
}

static unsigned int dev_nr_wds(const struct prof_dev *d)
{
	unsigned int n = 0;

	for (int k = 0; k < PROF_NR_CLASSES; k++)
		n += (d->classes[k].ops[0].nr != 0) + (d->classes[k].ops[1].nr != 0);
	return n;
}

static int part_merge(struct prof_part *into, struct prof_part *from)
{
	into->nr += from->nr;
	into->bytes += from->bytes;
	into->nr_seq += from->nr_seq;
	for (size_t i = 0; i < from->sizes.cap; i++)
		if (from->sizes.keys[i] &&
		    trace_cmap_add(&into->sizes, from->sizes.keys[i] - 1, from->sizes.vals[i]))
			return -ENOMEM;
	trace_cmap_fini(&from->sizes);
	memset(from, 0, sizeof(*from));
	return 0;
}

/* Merges the two neighbouring classes (in count order) holding the fewest I/Os together until
 * the device's WDs fit max_wds; streams are kept. */
static int merge_classes(struct prof_dev *d, unsigned int max_wds)
{
	while (dev_nr_wds(d) > max_wds) {
		int best = -1, best_next = -1, prev = -1;
		uint64_t best_nr = UINT64_MAX;

		for (int k = 0; k < PROF_MAX_CLASSES; k++) {
			if (!class_nr(&d->classes[k]))
				continue;
			if (prev >= 0 &&
			    class_nr(&d->classes[prev]) + class_nr(&d->classes[k]) < best_nr) {
				best_nr = class_nr(&d->classes[prev]) + class_nr(&d->classes[k]);
				best = prev;
				best_next = k;
			}
			prev = k;
		}
		if (best < 0)
			return 0;
		for (int o = 0; o < 2; o++)
			if (part_merge(&d->classes[best].ops[o], &d->classes[best_next].ops[o]))
				return -ENOMEM;
		d->classes[best].nr_regions += d->classes[best_next].nr_regions;
		d->classes[best].region_pos_sum += d->classes[best_next].region_pos_sum;
		d->classes[best].footprint_bytes += d->classes[best_next].footprint_bytes;
		d->classes[best_next].nr_regions = 0;
		d->classes[best_next].region_pos_sum = 0;
		d->classes[best_next].footprint_bytes = 0;
	}
	return 0;
}

/* R regions such that C I/Os at random touch want of them, at most r_max. */
static double solve_regions(double want, double nr, double r_max)
{
	double lo = want, hi = r_max;

	if (nr <= want * 1.0001 || r_max <= want || hi * -expm1(-nr / hi) < want)
		return r_max > want ? r_max : want;
	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;

		if (mid * -expm1(-nr / mid) > want)
			hi = mid;
		else
			lo = mid;
	}
	return (lo + hi) / 2;
}

/* Expected bytes one op's WD covers in len bytes: runs from random starts (f continuations
 * each), the first from the range start; f = 1 is one sweep. With short runs this is
 * 1 - e^(-B/L) of L, with one run the bytes written up to len. */
static double cover_part(const struct prof_part *part, double len)
{
	double runs, run_bytes;

	if (len <= 0 || !part->nr)
		return 0;
	runs = (double)part->nr * (1 - part->seq_frac);
	runs = runs < 1 ? 1 : runs;
	run_bytes = (double)part->bytes / runs;
	if (run_bytes >= len)
		return len;
	return len - (len - run_bytes) * exp((runs - 1) * log1p(-run_bytes / len));
}

/* Whether a class's ops get a part of its range each (in proportion to their I/Os, so every
 * region still sees the class's count): when both mostly continue their previous I/O, as two
 * sweeps from the same range start would cover the same bytes, and each has a tenth of the
 * class's I/Os at least (a few reads of what was written share its bytes). Otherwise, or when
 * they moved the same bytes in the trace (ops_overlap()), they share it. */
static bool is_split(const struct prof_class *c)
{
	return 10 * c->ops[0].nr >= class_nr(c) && 10 * c->ops[1].nr >= class_nr(c) &&
	       c->ops[0].seq_frac >= 0.5 && c->ops[1].seq_frac >= 0.5 && !ops_overlap(c);
}

/* The share of its class's range a split op gets: its share of the class's I/Os, so every
 * region still sees the class's count. */
static double op_share(const struct prof_class *c, int o)
{
	return (double)c->ops[o].nr / (double)class_nr(c);
}

static double cover_class(const struct prof_class *c, double len)
{
	double fp = 0, uncovered = 1;

	for (int o = 0; o < 2; o++) {
		if (is_split(c))
			fp += cover_part(&c->ops[o], len * op_share(c, o));
		else if (len > 0)
			uncovered *= 1 - cover_part(&c->ops[o], len) / len;
	}
	return is_split(c) ? fp : len * (1 - uncovered);
}

/* How many times a class's WDs land in a region: every run (a random start and its
 * continuations) lands in one region plus one per MiB it runs on. Sets the I/Os one landing
 * brings. */
static double class_touches(const struct prof_class *c, double *ios_per_touch)
{
	double touches = 0;

	for (int o = 0; o < 2; o++) {
		const struct prof_part *part = &c->ops[o];
		double runs;

		if (!part->nr)
			continue;
		runs = (double)part->nr * (1 - part->seq_frac);
		runs = runs < 1 ? 1 : runs;
		touches += runs * (1 + (double)part->bytes / runs / MIB);
	}
	*ios_per_touch = touches > 0 ? (double)class_nr(c) / touches : 0;
	return touches;
}

/* Ranges that do not fit the device: each keeps as many regions as its class's traced
 * footprint (a device the trace nearly filled needs them all), the rest is shared in
 * proportion to what each asked beyond that. */
static void fit_span(const struct prof_dev *d, double span_r, double *r)
{
	double total = 0, kept = 0, over = 0, keep[PROF_MAX_CLASSES];

	for (int k = 0; k < PROF_MAX_CLASSES; k++) {
		double fp = (double)d->classes[k].footprint_bytes / MIB;

		keep[k] = r[k] < fp ? r[k] : fp;
		kept += keep[k];
		over += r[k] - keep[k];
		total += r[k];
	}
	if (total <= span_r)
		return;
	for (int k = 0; k < PROF_MAX_CLASSES; k++)
		r[k] = kept < span_r ? keep[k] + (r[k] - keep[k]) * (span_r - kept) / over
				     : keep[k] * span_r / kept;
}

/* The spurious sequential I/Os a class's random I/O may add, per op, in points of its device
 * (seq_safe_regions()). */
#define PROF_SPUR_SEQ_PT 0.25

/* The least range, in regions, over which each op of c, at random, starts where one of the
 * device's last 16 I/Os ended at most PROF_SPUR_SEQ_PT more often than traced: a chance of
 * 1 - (1 - 1/b)^recent over b blocks of its mean size (part_chance_seq()). */
static double seq_safe_regions(const struct prof_dev *d, const struct prof_class *c)
{
	double need = 0;

	for (int o = 0; o < 2; o++) {
		const struct prof_part *part = &c->ops[o];
		double allow, recent, blocks, len;

		if (!part->nr)
			continue;
		allow = ((double)part->nr_seq + PROF_SPUR_SEQ_PT / 100 * (double)d->nr) /
			(double)part->nr;
		if (allow >= 1)
			continue;
		recent = PROF_SEQ_WINDOW * (double)part->nr / (double)d->nr;
		blocks = 1 / -expm1(log1p(-allow) / recent);
		len = blocks * (double)part->bytes / (double)part->nr;
		if (is_split(c))
			len /= op_share(c, o);
		need = fmax(need, len / MIB);
	}
	return need;
}

/* Every class's range length in regions for packing kappa, each range of random I/O grown by
 * the device's share grow of what it lacks to be seq_safe_regions() long; returns the
 * expected footprint of the classes of regions (streams lie over them, as traced:
 * streams_footprint()). */
static double class_regions(const struct prof_dev *d, double kappa, double span_r, double *r)
{
	double fp = 0;

	for (int k = 0; k < PROF_NR_CLASSES; k++) {
		const struct prof_class *c = &d->classes[k];
		double want = (double)c->nr_regions / kappa, r_max = 10 * want, per;

		r[k] = 0;
		if (!class_nr(c))
			continue;
		if (prof_is_swept(c)) { /* its bytes, unpacked; a stream's lies where traced */
			r[k] = (double)c->footprint_bytes / MIB;
			continue;
		}
		r[k] = solve_regions(want, class_touches(c, &per), r_max < span_r ? r_max : span_r);
		if (d->grow > 0)
			r[k] += d->grow * fmax(seq_safe_regions(d, c) - r[k], 0);
	}
	fit_span(d, span_r, r);
	for (int k = 0; k < PROF_MAX_CLASSES; k++)
		fp += cover_class(&d->classes[k], r[k] * MIB);
	return fp;
}

/* ---- the hot 10 % share a layout gives ---------------------------------------------------- */

struct hot_bin {
	double count;	/* I/Os in each region of the bin */
	double regions; /* expected regions with that count */
};

static int cmp_bin_desc(const void *a, const void *b)
{
	const struct hot_bin *x = a, *y = b;

	return (x->count < y->count) - (x->count > y->count);
}

enum {
	HOT_MAX_VALUES = 400, /* Poisson values kept per class */
};

/* The regions of class c over r regions: a region is landed in a Poisson number of times
 * (class_touches()), each landing bringing the same I/Os; when regions are landed in 50 times
 * or more, or the class sweeps its range once, every region gets the mean. Appends bins;
 * returns how many. */
static size_t class_bins(const struct prof_class *c, double r, struct hot_bin *bins)
{
	double per, touches = class_touches(c, &per), mu, term;
	size_t n = 0;

	if (r <= 0 || touches <= 0)
		return 0;
	mu = touches / r;
	if (mu > 50 || prof_is_swept(c)) {
		bins[0] = (struct hot_bin){ (double)class_nr(c) / r, r };
		return 1;
	}
	term = exp(-mu);
	for (unsigned int v = 1; v < HOT_MAX_VALUES; v++) {
		term *= mu / v;
		if (term * r < 1e-6 && v > mu)
			break;
		bins[n++] = (struct hot_bin){ v * per, r * term };
	}
	return n;
}

/* The expected share of the device's I/Os in its busiest 10 % of regions touched. A class of
 * regions whose range is under one lies in a region of its own (regions_align()). */
static double predict_hot10(const struct prof_dev *d, const double *r, struct hot_bin *bins)
{
	double touched = 0, top, taken = 0, ios = 0;
	size_t n = 0;

	for (int k = 0; k < PROF_NR_CLASSES; k++) {
		const struct prof_class *c = &d->classes[k];

		if (k < PROF_MAX_CLASSES && r[k] > 0 && r[k] < 1 && class_nr(c))
			bins[n++] =
				(struct hot_bin){ (double)class_nr(c), 1 }; /* regions_align() */
		else
			n += class_bins(c, r[k], bins + n);
	}
	for (size_t i = 0; i < n; i++)
		touched += bins[i].regions;
	qsort(bins, n, sizeof(*bins), cmp_bin_desc);
	top = ceil(touched * 0.1);
	for (size_t i = 0; i < n && taken < top; i++) {
		double w = bins[i].regions < top - taken ? bins[i].regions : top - taken;

		taken += w;
		ios += w * bins[i].count;
	}
	return 100 * ios / (double)d->nr;
}

/* The traced footprint of the classes of regions, streams apart. */
static double regions_footprint(const struct prof_dev *d)
{
	double fp = 0;

	for (int k = 0; k < PROF_MAX_CLASSES; k++)
		fp += (double)d->classes[k].footprint_bytes;
	return fp;
}

/* Chance that a random I/O of part, over range_bytes, starts where one of the device's last 16
 * I/Os ended: one of its own (its share of them) ended just before it. Of b blocks, the first
 * follows none (the last block's end is the range's): a 6-block range, 52.6 % of a device's
 * I/Os, continued 65 % of the time where 78 % was expected. */
static double part_chance_seq(const struct prof_dev *d, const struct prof_part *part,
			      double range_bytes)
{
	double mean = (double)part->bytes / (double)part->nr;
	double blocks = range_bytes / (mean > 0 ? mean : 1);
	double recent = PROF_SEQ_WINDOW * (double)part->nr / (double)d->nr;

	return blocks > 1 ? (blocks - 1) / blocks * -expm1(recent * log1p(-1 / blocks)) : 1;
}

/* What the classes' random I/O over ranges of r regions adds to the sequential % beyond what
 * the trace saw of them, in points: a block rewritten over and over, packed into a range of a
 * few transfers, continues itself nearly every time. */
static double seq_excess_pct(const struct prof_dev *d, const double *r)
{
	double excess = 0;

	for (int k = 0; k < PROF_MAX_CLASSES; k++) {
		const struct prof_class *c = &d->classes[k];

		if (!class_nr(c) || prof_is_swept(c))
			continue;
		for (int o = 0; o < 2; o++) {
			const struct prof_part *part = &c->ops[o];
			double t;

			if (!part->nr)
				continue;
			t = (double)part->nr_seq / (double)part->nr;
			excess += (double)part->nr *
				  fmax(part_chance_seq(d, part, r[k] * MIB) - t, 0);
		}
	}
	return 100 * excess / (double)d->nr;
}

/* The packing kappa, and the share by which ranges of random I/O grow toward
 * seq_safe_regions() (footprint spent where packing would add spurious sequential I/Os: the
 * hottest block of a web proxy, rewritten at one offset in sizes of 512 to 4608 bytes,
 * packed into 32 KiB, continued itself in 8.8 % of the device's I/Os, none traced): the
 * footprint within its tolerance and, as near as may be, the hot 10 % share and the
 * sequential %; each measured against its tolerance (10 % of the device's footprint, streams
 * too; 5 points; 3 points), the worst is what the chosen packing makes smallest. Searched on
 * a log grid from 1/50 to 50, then refined. */
static double fit_kappa(struct prof_dev *d, double span_r, double *r)
{
	struct hot_bin *bins = malloc(PROF_NR_CLASSES * HOT_MAX_VALUES * sizeof(*bins));
	double target_fp = regions_footprint(d), target_hot = d->trace_hot10_pct;
	double dev_fp = fmax((double)d->footprint_bytes, target_fp);
	double best = 1, best_grow = 0, best_cost = INFINITY, step = pow(2500, 1.0 / 80);
	static const double grows[] = { 0, 0.125, 0.25, 0.5, 1 }; /* none first: ties keep it */

	for (int pass = 0; pass < 2; pass++) {
		double from = pass ? best / step : 0.02, to = pass ? best * step : 50;
		double mult = pass ? pow(step * step, 1.0 / 20) : step;

		for (double k = from; k <= to * 1.0001; k *= mult)
			for (size_t g = 0; g < IORAMP_ARRAY_SIZE(grows); g++) {
				double fp, cost;

				d->grow = grows[g];
				fp = class_regions(d, k, span_r, r);
				cost = fmax(fabs(fp - target_fp) / dev_fp / 0.10,
					    seq_excess_pct(d, r) / 3);
				if (bins && target_hot >= 0)
					cost = fmax(cost,
						    fabs(predict_hot10(d, r, bins) - target_hot) /
							    5);
				if (cost < best_cost - 1e-9) {
					best_cost = cost;
					best = k;
					best_grow = grows[g];
				}
			}
	}
	d->grow = best_grow;
	d->model_footprint_bytes = class_regions(d, best, span_r, r);
	d->model_hot10_pct = bins ? predict_hot10(d, r, bins) : -1;
	free(bins);
	return best;
}

static uint64_t part_max_size(const struct prof_part *part)
{
	uint64_t max = 0;

	for (size_t i = 0; i < part->sizes.cap; i++)
		if (part->sizes.keys[i] && part->sizes.keys[i] - 1 > max)
			max = part->sizes.keys[i] - 1;
	return max;
}

/* The largest transfer on the device and the size= of its SD: the span rounded up to 1 MiB. */
static void dev_sizes(struct prof_dev *d)
{
	uint64_t mib = 1 << 20;

	for (int k = 0; k < PROF_NR_CLASSES; k++)
		for (int o = 0; o < 2; o++) {
			uint64_t m = part_max_size(&d->classes[k].ops[o]);

			if (m > d->max_xfer_bytes)
				d->max_xfer_bytes = m;
		}
	d->size_bytes = (d->max_end_bytes + mib - 1) / mib * mib;
	if (d->size_bytes < 2 * mib)
		d->size_bytes = 2 * mib;
}

static int cmp_pos(const void *a, const void *b, void *ctx)
{
	const struct prof_dev *d = ctx;
	const struct prof_class *x = &d->classes[*(const int *)a],
				*y = &d->classes[*(const int *)b];
	double px = x->region_pos_sum / (double)x->nr_regions;
	double py = y->region_pos_sum / (double)y->nr_regions;

	return (px > py) - (px < py);
}

/* The class's range for its ops: shared, or split in proportion to their I/Os (is_split()),
 * reads first. */
static void split_range(struct prof_class *c, uint64_t unit)
{
	struct prof_part *r = &c->ops[0], *w = &c->ops[1];
	uint64_t len_r;

	if (!is_split(c)) {
		r->range_lo_bytes = w->range_lo_bytes = c->range_lo_bytes;
		r->range_len_bytes = w->range_len_bytes = c->range_len_bytes;
		return;
	}
	if (!r->nr || !w->nr) {
		struct prof_part *only = r->nr ? r : w;

		only->range_lo_bytes = c->range_lo_bytes;
		only->range_len_bytes = c->range_len_bytes;
		return;
	}
	len_r = (uint64_t)((double)c->range_len_bytes * op_share(c, 0) / (double)unit + 0.5) * unit;
	if (len_r < 2 * unit)
		len_r = 2 * unit;
	if (len_r > c->range_len_bytes - 2 * unit)
		len_r = c->range_len_bytes - 2 * unit;
	r->range_lo_bytes = c->range_lo_bytes;
	r->range_len_bytes = len_r;
	w->range_lo_bytes = c->range_lo_bytes + len_r;
	w->range_len_bytes = c->range_len_bytes - len_r;
}

/* Ranges are multiples of the device's unit: a power of two at least its largest transfer
 * (the engine, as VDbench, aligns every WD's I/Os of an SD to the SD's largest transfer). */
static uint64_t dev_unit(const struct prof_dev *d)
{
	uint64_t unit = 4096;

	while (unit < d->max_xfer_bytes)
		unit *= 2;
	return unit;
}

/* The classes' smallest range: two units, each op's when it gets a part of its own. */
static uint64_t range_min(const struct prof_class *c, uint64_t unit)
{
	return 2 * unit * (uint64_t)(is_split(c) ? 2 : 1);
}

/* Every stream's range: where it was traced, its bytes rounded up to its unit, within
 * usable. */
static void streams_layout(struct prof_dev *d, const double *r, uint64_t usable)
{
	for (int k = PROF_MAX_CLASSES; k < PROF_NR_CLASSES; k++) {
		struct prof_class *c = &d->classes[k];
		uint64_t unit = dev_unit(d), lo;
		uint64_t len = (uint64_t)ceil(r[k] * MIB / (double)unit) * unit;

		if (!class_nr(c))
			continue;
		len = len < 2 * unit ? 2 * unit : len > usable ? usable / unit * unit : len;
		lo = c->lo_bytes / unit * unit;
		c->range_lo_bytes = lo + len > usable ? (usable - len) / unit * unit : lo;
		c->range_len_bytes = len;
		split_range(c, unit);
	}
}

struct span {
	double lo, hi;
};

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* What the streams add to the classes' footprint: the union of the bytes they sweep (from
 * their range starts), less the bytes the classes already cover there (each class's range
 * covered evenly). */
static double streams_footprint(const struct prof_dev *d)
{
	struct span spans[PROF_MAX_STREAMS];
	double fp = 0, lo = 0, hi = -1;
	size_t n = 0;

	for (int k = PROF_MAX_CLASSES; k < PROF_NR_CLASSES; k++) {
		const struct prof_class *st = &d->classes[k];
		double from = (double)st->range_lo_bytes;

		if (class_nr(st))
			spans[n++] = (struct span){
				from, from + cover_class(st, (double)st->range_len_bytes)
			};
	}
	qsort(spans, n, sizeof(spans[0]), cmp_span);
	for (size_t i = 0; i <= n; i++) {
		if (i < n && spans[i].lo <= hi) { /* overlaps the union so far */
			hi = fmax(hi, spans[i].hi);
			continue;
		}
		if (hi > lo) {
			fp += hi - lo;
			for (int k = 0; k < PROF_MAX_CLASSES; k++) {
				const struct prof_class *c = &d->classes[k];
				double c_lo = (double)c->range_lo_bytes;
				double c_len = (double)c->range_len_bytes;
				double from = fmax(lo, c_lo), to = fmin(hi, c_lo + c_len);

				if (class_nr(c) && to > from && c_len > 0)
					fp -= (to - from) * cover_class(c, c_len) / c_len;
			}
		}
		if (i < n) {
			lo = spans[i].lo;
			hi = spans[i].hi;
		}
	}
	return fp;
}

/* Ranges that rounding up to their least (range_min()) left over the device: those above it
 * give back the excess in proportion to what they have above it. Returns the new total. */
static uint64_t ranges_shrink(struct prof_dev *d, const int *order, int n, uint64_t excess)
{
	uint64_t above = 0, total = 0, unit = dev_unit(d);

	for (int i = 0; i < n; i++)
		above += d->classes[order[i]].range_len_bytes -
			 range_min(&d->classes[order[i]], unit);
	for (int i = 0; i < n; i++) {
		struct prof_class *c = &d->classes[order[i]];
		uint64_t extra = c->range_len_bytes - range_min(c, unit);
		double give = (double)extra * (double)excess / (double)above;

		if (above > excess)
			c->range_len_bytes -= ((uint64_t)give + unit - 1) / unit * unit;
		total += c->range_len_bytes;
	}
	return total;
}

/* What the classes' ranges start at: a region (1 MiB) when the device has room for each in
 * regions of its own, as in the trace, where no two classes share a region; else the unit.
 * A range under a region then lies in one (predict_hot10() counts it so): 721 rewrites of
 * four blocks whose 128 KiB range straddled two regions gave 27 % hot where 52.6 % was
 * traced. Sets *left to what the ranges take at that alignment. */
static uint64_t regions_align(const struct prof_dev *d, const int *order, int n, uint64_t usable,
			      uint64_t *left)
{
	uint64_t slots = 0, mib = (uint64_t)MIB;

	for (int i = 0; i < n; i++)
		slots += (d->classes[order[i]].range_len_bytes + mib - 1) / mib * mib;
	if (slots <= usable && mib % dev_unit(d) == 0) {
		*left = slots;
		return mib;
	}
	return dev_unit(d);
}

/* The streams' ranges of a device, sorted, widened to multiples of align. Returns how many. */
static size_t stream_spans(const struct prof_dev *d, uint64_t align, struct span *out)
{
	size_t n = 0;

	for (int k = PROF_MAX_CLASSES; k < PROF_NR_CLASSES; k++) {
		const struct prof_class *st = &d->classes[k];

		if (class_nr(st))
			out[n++] = (struct span){ (double)(st->range_lo_bytes / align * align),
						  (double)((st->range_lo_bytes +
							    st->range_len_bytes + align - 1) /
							   align * align) };
	}
	qsort(out, n, sizeof(out[0]), cmp_span);
	return n;
}

/* The bytes of spans that start at or after at. */
static double spans_after(const struct span *spans, size_t n, double at)
{
	double bytes = 0;

	for (size_t i = 0; i < n; i++)
		bytes += spans[i].lo >= at ? spans[i].hi - spans[i].lo : 0;
	return bytes;
}

/* The first start at or after want where len bytes miss every span. */
static uint64_t spans_skip(const struct span *spans, size_t n, uint64_t want, uint64_t len)
{
	for (size_t i = 0; i < n; i++)
		if ((double)want < spans[i].hi && (double)(want + len) > spans[i].lo)
			want = (uint64_t)spans[i].hi;
	return want;
}

/* Ranges: at multiples of regions_align(), each class near the mean place of its regions in
 * the trace, in that order, none overlapping, and around the streams' ranges when the device
 * has room: a class's regions lie beside a stream in the trace, not under it (an
 * Elasticsearch shape's classes laid over its largest merge's output doubled 2.3 GiB of its
 * footprint where the trace shared 1 GiB). */
static void dev_layout(struct prof_dev *d, const double *r)
{
	uint64_t unit = dev_unit(d), usable, total = 0, at = 0, left, align, skip;
	int order[PROF_MAX_CLASSES], n = 0;
	struct span spans[PROF_MAX_STREAMS];
	size_t nr_spans;
	double scale = 1;

	usable = d->size_bytes / d->max_xfer_bytes * d->max_xfer_bytes / unit * unit;
	for (int k = 0; k < PROF_MAX_CLASSES; k++)
		if (class_nr(&d->classes[k])) {
			order[n++] = k;
			total += (uint64_t)(r[k] * MIB);
		}
	if (total > usable)
		scale = (double)usable / (double)total;
	streams_layout(d, r, usable);
	qsort_r(order, (size_t)n, sizeof(order[0]), cmp_pos, d);
	left = 0;
	for (int i = 0; i < n; i++) {
		struct prof_class *c = &d->classes[order[i]];
		uint64_t len = (uint64_t)(r[order[i]] * MIB * scale) / unit * unit;
		uint64_t min = range_min(c, unit);

		c->range_len_bytes = len < min ? min : len;
		left += c->range_len_bytes;
	}
	if (left > usable)
		left = ranges_shrink(d, order, n, left - usable);
	if (left > usable) { /* a device too small for its classes: every WD on all of it */
		for (int i = 0; i < n; i++)
			for (int o = 0; o < 2; o++) {
				d->classes[order[i]].range_lo_bytes = 0;
				d->classes[order[i]].range_len_bytes = usable;
				d->classes[order[i]].ops[o].range_lo_bytes = 0;
				d->classes[order[i]].ops[o].range_len_bytes = usable;
			}
		return;
	}
	align = regions_align(d, order, n, usable, &left);
	nr_spans = stream_spans(d, align, spans);
	for (int i = 0; i < n; i++) {
		struct prof_class *c = &d->classes[order[i]];
		double mid = c->region_pos_sum / (double)c->nr_regions * MIB;
		uint64_t want =
			mid > (double)c->range_len_bytes / 2
				? (uint64_t)(mid - (double)c->range_len_bytes / 2) / align * align
				: 0;
		uint64_t slot = (c->range_len_bytes + align - 1) / align * align;

		if (want < at)
			want = at;
		if (want + left > usable)
			want = (usable - left) / align * align;
		skip = spans_skip(spans, nr_spans, want, slot);
		if ((double)(skip + left) + spans_after(spans, nr_spans, (double)skip) <=
		    (double)usable)
			want = skip;
		c->range_lo_bytes = want;
		at = want + slot;
		left -= slot;
		split_range(c, unit);
	}
}

struct seq_plan {
	struct prof_part *part;
	double n, q, spur;
	bool is_boostable;
};

/* The most a boosted WD continues: runs of 50 I/Os on average, not one endless sweep that
 * every op of the class would start at the same place (and cover the same bytes). */
#define PROF_MAX_BOOST 1.0

/* At most this many interleaved sweeps for one op of a swept class, of this many I/Os each at
 * least (a few reads among a copy's writes stay one WD). */
#define PROF_MAX_SWEEPS	   16
#define PROF_SWEEP_MIN_IOS 64

/* The interleaved sweeps of an op of a class swept once (prof_is_swept(), not a stream) that
 * give its I/Os the sequential share they had in the trace: one WD of a share p of the device
 * continues one of its last 16 I/Os 1 - (1 - p)^16 of the time, k of p / k each less often (a
 * file server reading five files at once: 96.8 % traced, 99.9 % as one sweep). At most
 * PROF_MAX_SWEEPS of PROF_SWEEP_MIN_IOS I/Os, a unit of the range each, and the spare WDs of
 * --max-wds. */
static unsigned int part_sweeps(const struct prof_dev *d, const struct prof_class *c,
				const struct prof_part *part, unsigned int *spare_wds)
{
	double t = (double)part->nr_seq / (double)part->nr, per, k;
	uint64_t units = part->range_len_bytes / dev_unit(d);

	if (c->is_stream || !prof_is_swept(c) || t >= 1)
		return 1;
	per = -expm1(log1p(-t) / PROF_SEQ_WINDOW); /* a WD's share that gives t */
	k = per > 0 ? round((double)part->nr / (double)d->nr / per) : PROF_MAX_SWEEPS;
	k = fmin(fmin(k, PROF_MAX_SWEEPS), fmin(1.0 + *spare_wds, (double)units));
	k = fmin(k, floor((double)part->nr / PROF_SWEEP_MIN_IOS));
	k = k < 1 ? 1 : k;
	*spare_wds -= (unsigned int)k - 1;
	return (unsigned int)k;
}

/* Chance that one of the sweeps of a part of n of the device's d_nr I/Os, k of them, is
 * seen continuing. */
static double sweeps_q(double n, unsigned int k, double d_nr)
{
	return -expm1(PROF_SEQ_WINDOW * log1p(-n / k / d_nr));
}

/* While the device is short of sequential I/Os (classes that came in bursts cannot reach
 * theirs), fewer sweeps for the ops that were split into them, the most gained first: each
 * merge makes a swept op seen continuing more often than traced, for the device's sake. */
static void merge_sweeps(const struct prof_dev *d, struct seq_plan *plan, size_t n, double need,
			 double *got)
{
	while (need - *got > 0.5) {
		struct seq_plan *best = NULL;
		double best_gain = 0;

		for (size_t i = 0; i < n; i++) {
			unsigned int k = plan[i].part->nr_sweeps;
			double gain;

			if (k < 2)
				continue;
			gain = plan[i].n * (sweeps_q(plan[i].n, k - 1, (double)d->nr) - plan[i].q);
			if (gain > best_gain) {
				best = &plan[i];
				best_gain = gain;
			}
		}
		if (!best)
			return;
		best->part->nr_sweeps--;
		best->q = sweeps_q(best->n, best->part->nr_sweeps, (double)d->nr);
		*got += best_gain;
	}
}

/* The sequential I/Os the device's WDs fall short of the trace's asked of its boostable parts,
 * those most likely to be seen first; or, over (sweeps seen continuing more often than
 * traced, boostable parts that made up for their own interleaving: Hadoop's map tasks, +2.2
 * points), taken back from them in the same order. */
static void seq_settle(struct seq_plan *plan, size_t n, double need, double got)
{
	while (fabs(need - got) > 0.5) {
		bool is_short = need > got;
		struct seq_plan *best = NULL;
		double room, left;

		for (size_t i = 0; i < n; i++)
			if (plan[i].is_boostable && plan[i].q > plan[i].spur &&
			    (is_short ? plan[i].part->seq_frac < PROF_MAX_BOOST
				      : plan[i].part->seq_frac > 0) &&
			    (!best || plan[i].n * plan[i].q > best->n * best->q))
				best = &plan[i];
		if (!best)
			return;
		left = is_short ? PROF_MAX_BOOST - best->part->seq_frac : best->part->seq_frac;
		room = best->n * left * (best->q - best->spur);
		if (room > fabs(need - got)) {
			best->part->seq_frac += (need - got) / (best->n * (best->q - best->spur));
			return;
		}
		got += is_short ? room : -room;
		best->part->seq_frac = is_short ? PROF_MAX_BOOST : 0;
	}
}

/* Whether part's runs may be longer than traced without bunching its I/Os: its class's
 * regions hold PROF_BOOST_MIN_PER_REGION I/Os, or as many as a run at its mean size puts in a
 * region (one of 1 MiB: Hadoop's map tasks read 128 MiB blocks 1 MiB at a time, each region
 * of a block once per read; as WDs of 2-4 % of the I/Os, their 79 % sequential came out
 * 22-35 %, and the device 4 points short). */
static bool boost_ok(const struct prof_class *c, const struct prof_part *part)
{
	double per_run = MIB * (double)part->nr / (double)part->bytes;

	return class_nr(c) >= fmin(PROF_BOOST_MIN_PER_REGION, fmax(per_run, 1)) * c->nr_regions;
}

/* f for every WD of the device, then fewer sweeps (merge_sweeps()) and the boostable parts
 * (seq_settle()) for what the device's sequential I/Os lack or exceed. */
static void dev_seq_fracs(struct prof_dev *d)
{
	struct seq_plan plan[2 * PROF_NR_CLASSES];
	double need = 0, got = 0;
	size_t n = 0;
	unsigned int nr_wds = dev_nr_wds(d);
	unsigned int spare_wds = d->max_wds > nr_wds ? d->max_wds - nr_wds : 0;

	for (int k = 0; k < PROF_NR_CLASSES; k++)
		for (int o = 0; o < 2; o++) {
			struct prof_class *c = &d->classes[k];
			struct prof_part *part = &c->ops[o];
			struct seq_plan *s;
			double t, f;

			if (!part->nr)
				continue;
			s = &plan[n++];
			t = (double)part->nr_seq / (double)part->nr;
			s->part = part;
			s->n = (double)part->nr;
			part->nr_sweeps = part_sweeps(d, c, part, &spare_wds);
			s->q = sweeps_q(s->n, part->nr_sweeps, (double)d->nr);
			s->spur = part_chance_seq(d, part, (double)part->range_len_bytes);
			s->is_boostable = !prof_is_swept(c) && boost_ok(c, part);
			if (prof_is_swept(c))
				f = 1; /* one sweep, however interleaved */
			else if (s->is_boostable)
				f = s->q > s->spur ? (t - s->spur) / (s->q - s->spur) : 0;
			else
				f = t;
			f = f < 0 ? 0 : f > 1 ? 1 : f;
			if (s->is_boostable && f > PROF_MAX_BOOST && t < PROF_MAX_BOOST)
				f = PROF_MAX_BOOST;
			part->seq_frac = f;
			need += (double)part->nr_seq;
			got += s->n * (f * s->q + (1 - f) * s->spur);
		}
	merge_sweeps(d, plan, n, need, &got);
	seq_settle(plan, n, need, got);
}

/* The WDs of a part: one, or one per sweep. */
static unsigned int part_wds(const struct prof_part *part)
{
	return part->nr_sweeps > 1 ? part->nr_sweeps : 1;
}

void prof_wd_range(const struct prof *p, const struct prof_wd *w, uint64_t *lo_bytes,
		   uint64_t *len_bytes)
{
	const struct prof_part *part = w->part;
	uint64_t unit = dev_unit(p->devs[w->dev_idx]), len;

	*lo_bytes = part->range_lo_bytes;
	*len_bytes = part->range_len_bytes;
	if (!w->sweep)
		return;
	len = part->range_len_bytes / part->nr_sweeps / unit * unit;
	*lo_bytes += (w->sweep - 1) * len;
	*len_bytes = w->sweep < part->nr_sweeps
			     ? len
			     : part->range_len_bytes - (part->nr_sweeps - 1) * len;
}

static int add_wds(struct prof *p, size_t di)
{
	struct prof_dev *d = p->devs[di];
	size_t most = p->nr_wds + 2 * PROF_NR_CLASSES + (size_t)d->max_wds;
	struct prof_wd *wds = realloc(p->wds, most * sizeof(*wds));

	if (!wds)
		return -ENOMEM;
	p->wds = wds;
	for (int k = 0; k < PROF_NR_CLASSES; k++)
		for (unsigned int o = 0; o < 2; o++) {
			const struct prof_part *part = &d->classes[k].ops[o];
			unsigned int nr = part_wds(part);

			for (unsigned int i = 0; part->nr && i < nr && p->nr_wds < most; i++) {
				struct prof_wd *w = &p->wds[p->nr_wds++];
				int len;

				memset(w, 0, sizeof(*w));
				w->dev_idx = di;
				w->cls = (unsigned int)k;
				w->op = o;
				w->part = part;
				w->sweep = nr > 1 ? i + 1 : 0;
				len = d->classes[k].is_stream
					      ? snprintf(w->name, sizeof(w->name), "w%zus%d%c", di,
							 k - PROF_MAX_CLASSES, o ? 'w' : 'r')
					      : snprintf(w->name, sizeof(w->name), "w%zuc%d%c", di,
							 k, o ? 'w' : 'r');
				if (w->sweep && len > 0 && (size_t)len < sizeof(w->name))
					snprintf(w->name + len, sizeof(w->name) - (size_t)len, "%u",
						 w->sweep);
			}
		}
	return 0;
}

/* Skews in PROF_SKEW_UNITS summing exactly to it: largest remainders, ties to the first; a
 * part of several sweeps shares its I/Os among them. */
static void skews(struct prof *p)
{
	uint64_t given = 0;
	double *rem = calloc(p->nr_wds ? p->nr_wds : 1, sizeof(*rem));

	for (size_t i = 0; i < p->nr_wds; i++) {
		const struct prof_part *part = p->wds[i].part;
		double x = (double)part->nr / part_wds(part) * PROF_SKEW_UNITS / (double)p->nr_ios;

		p->wds[i].skew_units = (uint64_t)x;
		if (rem)
			rem[i] = x - floor(x);
		given += p->wds[i].skew_units;
	}
	while (given < PROF_SKEW_UNITS && p->nr_wds) {
		size_t best = 0;

		for (size_t i = 1; rem && i < p->nr_wds; i++)
			if (rem[i] > rem[best])
				best = i;
		p->wds[best].skew_units++;
		if (rem)
			rem[best] = -1;
		given++;
	}
	free(rem);
}

void prof_relayout(struct prof *p, size_t dev, double kappa)
{
	struct prof_dev *d = p->devs[dev];
	struct hot_bin *bins = malloc(PROF_NR_CLASSES * HOT_MAX_VALUES * sizeof(*bins));
	double r[PROF_NR_CLASSES];

	d->kappa = kappa;
	for (int pass = 0; pass < 2; pass++) {
		d->model_footprint_bytes = class_regions(d, kappa, (double)d->size_bytes / MIB, r);
		dev_layout(d, r);
		dev_seq_fracs(d);
	}
	d->model_footprint_bytes += streams_footprint(d);
	d->model_hot10_pct = bins ? predict_hot10(d, r, bins) : -1;
	free(bins);
}

int prof_model(struct prof *p)
{
	unsigned int max_wds = p->cfg->max_wds ? p->cfg->max_wds : PROF_DEFAULT_MAX_WDS;

	for (size_t i = 0; i < p->nr_devs; i++) {
		struct prof_dev *d = p->devs[i];
		double r[PROF_NR_CLASSES];
		int ret = merge_classes(d, max_wds < 2 ? 2 : max_wds);

		d->max_wds = max_wds < 2 ? 2 : max_wds;
		if (ret)
			return ret;
		dev_sizes(d);
		for (int k = 0; k < PROF_NR_CLASSES; k++) /* first guess: as traced */
			for (int o = 0; o < 2; o++) {
				struct prof_part *part = &d->classes[k].ops[o];

				part->seq_frac = prof_is_swept(&d->classes[k]) ? 1
						 : part->nr
							 ? (double)part->nr_seq / (double)part->nr
							 : 0;
			}
		for (int pass = 0; pass < 3; pass++) { /* packing and runs depend on each other */
			d->kappa = fit_kappa(d, (double)d->size_bytes / MIB, r);
			dev_layout(d, r);
			dev_seq_fracs(d);
		}
		d->model_footprint_bytes += streams_footprint(d);
		ret = add_wds(p, i);
		if (ret)
			return ret;
	}
	skews(p);
	return 0;
}
