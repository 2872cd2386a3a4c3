/* blkparse/blktrace issue to completion pairing (issues.h). */
#include "issues.h"

#include <errno.h>
#include <stdlib.h>

enum {
	ISSUES_BITS = 16,
};

static struct trace_issue *slot(const struct trace_issues *t, uint32_t dev, uint64_t sector)
{
	uint64_t h = (sector ^ ((uint64_t)dev << 40)) * 0x9e3779b97f4a7c15ull;

	return &t->v[h >> (64 - ISSUES_BITS)];
}

int trace_issues_put(struct trace_issues *t, uint32_t dev, uint64_t sector, uint64_t time_ns)
{
	struct trace_issue *e;

	if (!t->v) {
		t->v = calloc(1u << ISSUES_BITS, sizeof(*t->v));
		if (!t->v)
			return -ENOMEM;
	}
	e = slot(t, dev, sector);
	*e = (struct trace_issue){ sector + 1, time_ns, dev };
	return 0;
}

uint64_t trace_issues_take(struct trace_issues *t, uint32_t dev, uint64_t sector, uint64_t time_ns)
{
	struct trace_issue *e;

	if (!t->v)
		return 0;
	e = slot(t, dev, sector);
	if (e->sector_plus_1 != sector + 1 || e->dev != dev)
		return 0;
	e->sector_plus_1 = 0;
	return time_ns > e->time_ns ? time_ns - e->time_ns : 0;
}

void trace_issues_fini(struct trace_issues *t)
{
	free(t->v);
	t->v = NULL;
}
