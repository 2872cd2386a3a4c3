/* timeout= (reference §2): an SD with I/O outstanding that completes none for timeout= seconds
 * is named on the console, once per stall; timeout=(s,abort) or (s,s2) also ends the execution
 * (exit 1) with every interval so far reported. */
#ifndef IORAMP_ENGINE_STALL_H
#define IORAMP_ENGINE_STALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ioramp/parm.h"
#include "ioramp/report.h"
#include "ioramp/stats.h"

struct eng_stall {
	uint64_t warn_ns;  /* 0: off */
	uint64_t abort_ns; /* 0: never */
	uint64_t *ns;	   /* per run SD: how long it has completed nothing with I/O outstanding */
	bool *is_warned;
	size_t nr_sds;
};

/* For a run of nr_sds SDs under cfg's timeout=. Returns 0 or -ENOMEM. */
int eng_stall_init(struct eng_stall *s, const struct parm_config *cfg, size_t nr_sds);
void eng_stall_fini(struct eng_stall *s);

/* After an interval of elapsed_ns whose per-SD figures are sd_banks[nr_sds]: names the SDs that
 * stall (their names and luns in names[] and luns[]) and returns the index of one that stalled
 * past the abort time, or -1. */
long eng_stall_check(struct eng_stall *s, const struct stats_bank *sd_banks, uint64_t elapsed_ns,
		     const char *const *names, const char *const *luns, struct rep_set *reps);

#endif /* IORAMP_ENGINE_STALL_H */
