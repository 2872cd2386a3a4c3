/* The address map of an SD concatenation (concat.h). */
#include "concat.h"

#include <stdlib.h>
#include <string.h>

/* The last member starting at or before off (binary search: a concatenation may have hundreds). */
static uint32_t member_at(const struct eng_concat *c, uint64_t off)
{
	uint32_t lo = 0, hi = c->nr;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->start_bytes[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static int fits(const struct eng_concat *c, uint32_t m, uint64_t off, uint32_t size)
{
	return off + size <= c->len_bytes[m];
}

uint32_t eng_concat_map(const struct eng_concat *c, uint64_t off, uint32_t size,
			uint64_t *member_off)
{
	uint32_t m = member_at(c, off);
	uint64_t in = off - c->start_bytes[m];

	if (!fits(c, m, in, size)) { /* straddles into the next member: its start */
		m++;
		in = 0;
	}
	if (!in) /* only lba 0 itself: an unaligned member keeps its 2560 ([observed]) */
		in = c->guard_bytes;
	for (uint32_t tries = 0; tries < c->nr; tries++, m++, in = c->guard_bytes) {
		if (m >= c->nr)
			m = 0;
		if (fits(c, m, in, size))
			break;
	}
	*member_off = in;
	return m;
}

void eng_concat_fini(struct eng_concat *c)
{
	free(c->run_sd);
	free(c->start_bytes);
	free(c->len_bytes);
	memset(c, 0, sizeof(*c));
}
