/* Transfer sizes of xfersize= (reference §5): a single size, a (size,pct,...) distribution,
 * or a random multiple of align in [min, max]. Drawn independently for every I/O. */
#include "draw.h"

#include <errno.h>
#include <math.h>

static int dist_prepare(const struct gen_xfer_cfg *x, double cum[GEN_XFER_MAX_SIZES])
{
	double sum = 0;

	if (x->nr_sizes == 0 || x->nr_sizes > GEN_XFER_MAX_SIZES)
		return -EINVAL;
	for (uint32_t i = 0; i < x->nr_sizes; i++) {
		if (x->size_bytes[i] == 0 || !isfinite(x->pct[i]) || x->pct[i] < 0)
			return -EINVAL;
		sum += x->pct[i];
		cum[i] = sum / 100;
	}
	if (floor(sum + 0.5) != 100) /* VDbench 5.04.07 runs a WD's total that rounds to 100 */
		return -EINVAL;
	/* Rounding must never let a draw fall past the last size; the last size takes what a
	 * total of 99.5 to 100.49 leaves or overruns. */
	cum[x->nr_sizes - 1] = 1.0;
	return 0;
}

static uint64_t range_lo(const struct gen_xfer_cfg *x)
{
	return (x->min_bytes + x->align_bytes - 1) / x->align_bytes * x->align_bytes;
}

static uint64_t range_hi(const struct gen_xfer_cfg *x)
{
	return x->max_bytes / x->align_bytes * x->align_bytes;
}

int gen_xfer_prepare(const struct gen_xfer_cfg *x, double cum[GEN_XFER_MAX_SIZES])
{
	switch (x->kind) {
	case GEN_XFER_FIXED:
		return x->size_bytes[0] ? 0 : -EINVAL;
	case GEN_XFER_DIST:
		return dist_prepare(x, cum);
	case GEN_XFER_RANGE:
		if (x->align_bytes == 0 || x->min_bytes == 0 || x->min_bytes > x->max_bytes)
			return -EINVAL;
		return range_lo(x) <= range_hi(x) ? 0 : -EINVAL;
	}
	return -EINVAL;
}

uint64_t gen_xfer_max_bytes(const struct gen_xfer_cfg *x)
{
	double cum[GEN_XFER_MAX_SIZES];
	uint64_t max = 0;

	if (gen_xfer_prepare(x, cum) < 0)
		return 0;
	switch (x->kind) {
	case GEN_XFER_FIXED:
		return x->size_bytes[0];
	case GEN_XFER_DIST:
		for (uint32_t i = 0; i < x->nr_sizes; i++)
			max = x->size_bytes[i] > max ? x->size_bytes[i] : max;
		return max;
	case GEN_XFER_RANGE:
		return range_hi(x);
	}
	return 0;
}

uint64_t gen_xfer_draw(const struct gen_xfer_cfg *x, const double *cum, struct gen_pcg *r)
{
	uint64_t lo;
	double u;
	uint32_t i;

	switch (x->kind) {
	case GEN_XFER_DIST:
		u = gen_pcg_unit(r);
		for (i = 0; u >= cum[i]; i++)
			; /* cum[nr_sizes - 1] == 1 > u ends the scan */
		return x->size_bytes[i];
	case GEN_XFER_RANGE:
		lo = range_lo(x);
		return lo +
		       gen_pcg_below(r, (range_hi(x) - lo) / x->align_bytes + 1) * x->align_bytes;
	default:
		return x->size_bytes[0];
	}
}
