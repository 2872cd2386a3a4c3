/* range=(lo,hi) and hotband=(lo,hi) resolved against an SD's size (reference §9.6):
 * percentages, wrap-around percentages and byte values, aligned to the largest transfer. */
#include "ioramp/gen.h"

#include <errno.h>
#include <math.h>

static uint64_t pct_of(double pct, uint64_t sd_bytes)
{
	return (uint64_t)((long double)sd_bytes * pct / 100);
}

/* Fills [*start, *end) in unaligned bytes; *end may exceed sd_bytes only when wrapping. */
static int range_bounds(double lo, double hi, uint64_t sd_size_bytes, uint64_t sd_bytes,
			uint64_t *start, uint64_t *end)
{
	if (hi > 200) { /* bytes: VDbench treats values above 200 as byte counts */
		if (hi > (double)sd_size_bytes)
			return -EINVAL;
		*start = (uint64_t)lo;
		*end = (uint64_t)hi < sd_bytes ? (uint64_t)hi : sd_bytes;
		return 0;
	}
	if (lo >= 100 || hi == 200)
		return -EINVAL;
	if (hi > 100 && hi - lo >= 100) /* a wrapped span must stay below the whole SD */
		return -EINVAL;
	*start = pct_of(lo, sd_bytes);
	*end = pct_of(hi, sd_bytes);
	return 0;
}

int gen_range_resolve(double lo, double hi, uint64_t sd_size_bytes, uint64_t max_xfer_bytes,
		      struct gen_range *out)
{
	uint64_t sd_bytes, start, end;
	int ret;

	if (!isfinite(lo) || !isfinite(hi) || lo < 0 || lo > hi || max_xfer_bytes == 0)
		return -EINVAL;
	sd_bytes = sd_size_bytes / max_xfer_bytes * max_xfer_bytes;
	ret = range_bounds(lo, hi, sd_size_bytes, sd_bytes, &start, &end);
	if (ret < 0)
		return ret;
	/* Rounding both ends down makes adjacent ranges tile the SD without gaps or overlap. */
	start = start / max_xfer_bytes * max_xfer_bytes;
	end = end / max_xfer_bytes * max_xfer_bytes;
	if (end <= start || end - start < max_xfer_bytes || start >= sd_bytes)
		return -EINVAL;
	out->start_bytes = start;
	out->len_bytes = end - start;
	return 0;
}
