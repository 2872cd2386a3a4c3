/* libFuzzer target for the flatfile reader (ioramp parseflat, compare): bytes as a flatfile,
 * read and every column selected. Malformed text must give -EINVAL, never a crash. */
#include <stdint.h>
#include <stdio.h>

#include "ioramp/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const cols[] = { "all" };
	static const char *const filters[] = { "run", "rd1" };
	struct rep_flat_query q = { .cols = cols, .nr_cols = 1 };
	struct rep_flat fl = { 0 };
	const char *bad = NULL;
	FILE *in, *out;

	if (size > 1 << 20)
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	out = fopen("/dev/null", "w");
	if (out && rep_flat_read(in, &fl) == 0) {
		rep_flat_select(&fl, &q, out, &bad);
		q.filters = filters;
		q.nr_filters = 1;
		q.is_avg_only = true;
		rep_flat_select(&fl, &q, out, &bad);
	}
	rep_flat_fini(&fl);
	if (out)
		fclose(out);
	fclose(in);
	return 0;
}
