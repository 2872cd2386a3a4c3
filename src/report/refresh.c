/* The time budget of interim rewrites (refresh.h). It reads the real clock: what it bounds is
 * the CPU and disk time ioramp spends rewriting, which virtual time does not see. */
#include "refresh.h"

#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void rep_refresh_init(struct rep_refresh *r)
{
	r->open_ns = now_ns();
	r->spent_ns = 0;
}

bool rep_refresh_is_due(uint64_t spent_ns, uint64_t since_open_ns)
{
	return spent_ns / REP_REFRESH_PCT <= since_open_ns / 100;
}

int rep_refresh_run(struct rep_refresh *r, int (*save)(void *arg), void *arg)
{
	uint64_t start_ns = now_ns();
	int ret;

	if (!rep_refresh_is_due(r->spent_ns, start_ns - r->open_ns))
		return 0;
	ret = save(arg);
	r->spent_ns += now_ns() - start_ns;
	return ret;
}
