/* Interim rewrites of a whole-document output (results.json, report.html) after each run, kept
 * to a share of the execution's time: each rewrite renders every run so far, so rewriting after
 * every one of many short runs (virtual time, elapsed=1 loops) made an execution quadratic in
 * its number of runs (300 modelled RDs: 102 s, 87% of it rewriting). The close always writes. */
#ifndef IORAMP_REPORT_REFRESH_H
#define IORAMP_REPORT_REFRESH_H

#include <stdbool.h>
#include <stdint.h>

enum {
	/* Interim rewrites of one output take at most this share of the time since it opened. */
	REP_REFRESH_PCT = 5,
};

struct rep_refresh {
	uint64_t open_ns;  /* when the output opened (CLOCK_MONOTONIC) */
	uint64_t spent_ns; /* the interim rewrites' time so far */
};

/* Starts the account at the output's open. */
void rep_refresh_init(struct rep_refresh *r);

/* Whether an interim rewrite fits the budget: the time already spent rewriting, at most
 * REP_REFRESH_PCT of since_open_ns. The first always does (nothing spent yet). */
bool rep_refresh_is_due(uint64_t spent_ns, uint64_t since_open_ns);

/* Calls save(arg) when an interim rewrite is due, adding its time to the account. Returns
 * what save returned, or 0 when it was not due. */
int rep_refresh_run(struct rep_refresh *r, int (*save)(void *arg), void *arg);

#endif
