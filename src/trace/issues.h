/* Issues waiting for their completion, to give blkparse and blktrace completions (C) their
 * device latency (C minus D): a direct-mapped table keyed by device and sector. A newer issue
 * that hashes to a busy entry replaces the older one, whose completion then carries no latency;
 * with 65,536 entries that needs tens of thousands of I/Os in flight. */
#ifndef IORAMP_TRACE_ISSUES_H
#define IORAMP_TRACE_ISSUES_H

#include <stdint.h>

struct trace_issue {
	uint64_t sector_plus_1; /* 0: free */
	uint64_t time_ns;
	uint32_t dev;
};

struct trace_issues {
	struct trace_issue *v; /* allocated with the first issue */
};

/* Remembers an issue. Returns 0 or -ENOMEM. */
int trace_issues_put(struct trace_issues *t, uint32_t dev, uint64_t sector, uint64_t time_ns);

/* The latency of the completion of (dev, sector) at time_ns, its issue forgotten; 0 when no
 * issue is known (or the clock went back). */
uint64_t trace_issues_take(struct trace_issues *t, uint32_t dev, uint64_t sector, uint64_t time_ns);

void trace_issues_fini(struct trace_issues *t);

#endif /* IORAMP_TRACE_ISSUES_H */
