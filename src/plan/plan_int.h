/* Private to src/plan: the state of expanding one RD, shared by the files of the module. */
#ifndef IORAMP_PLAN_INT_H
#define IORAMP_PLAN_INT_H

#include "ioramp/plan.h"

#define PLAN_MAX_RUNS 1000000

struct plan_builder {
	const struct parm_config *cfg;
	struct plan *plan;
	size_t cap_runs;
	struct parm_err *err;
	/* the RD being expanded */
	const struct parm_rd *rd;
	size_t rd_idx;
	struct parm_loc rd_loc;
	const struct parm_wd **wds;
	size_t nr_wds;
	double *skews;
	bool is_controlled;
	uint64_t elapsed_s;
	uint64_t interval_s;
	uint64_t warmup_s;
	/* position in the loops */
	size_t *loop_pos;
	size_t rate_idx;
	struct plan_overrides ovr;
};

/* Where an RD was written (its rd= value). */
static inline struct parm_loc parm_rd_loc(const struct parm_rd *rd)
{
	return rd->loc;
}

/* The RD's workloads, their skews and whether the rate is controlled (workloads.c). */
int plan_rd_workloads(struct plan_builder *b);

/* elapsed, interval, warmup after -e -i -w, with VDbench's checks (times.c). */
int plan_rd_times(struct plan_builder *b);

/* Sets the override of loop value i (loops.c). */
void plan_loop_apply(struct plan_overrides *ovr, const struct parm_loop *lp, size_t i);

/* "threads=2 xfersize=4k iorate=100" or "None" for the current position (malloc'ed). */
char *plan_for_loops_text(const struct plan_builder *b);

/* A size as VDbench prints it: 4k, 1.500k, 2.500m, 1g, 512 (loops.c). */
void plan_size_text(double bytes, char *buf, size_t len);

#endif /* IORAMP_PLAN_INT_H */
