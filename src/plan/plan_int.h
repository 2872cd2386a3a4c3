/* Private to src/plan: the state of expanding one RD, shared by the files of the module. */
#ifndef IORAMP_PLAN_INT_H
#define IORAMP_PLAN_INT_H

#include "ioramp/plan.h"

#define PLAN_MAX_RUNS		1000000
#define PLAN_MAX_SD_ENTRIES	10000000 /* run SD lists in all (sd=range grows quadratically) */
#define PLAN_SIMULATED_MAX_IOPS 10000.0	 /* -s lists curves and relative rates against this */

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
	int64_t below_zero_warmup_s;
	/* the SD group being expanded (sd=single, range, setsofN, or the sd= list) */
	const char *run_name; /* the RD name, or "rd1_sd1" for a group */
	const size_t *sd_idx; /* NULL: the workloads' own SDs */
	size_t nr_sd;
	size_t nr_sd_entries; /* in all runs so far */
	/* position in the loops */
	size_t *loop_pos;
	size_t rate_idx;
	struct plan_overrides ovr;
};

/* The RD's workloads, their skews and whether the rate is controlled (workloads.c). */
int plan_rd_workloads(struct plan_builder *b);

/* elapsed, interval, warmup after -e -i -w, with VDbench's checks (times.c). */
int plan_rd_times(struct plan_builder *b);

/* Runs the loops once per SD group of the RD's sd= (groups.c). */
int plan_rd_groups(struct plan_builder *b);

/* The loops and rates of the current group into runs (build.c). */
int plan_expand_loops(struct plan_builder *b, size_t level);

/* Sets the override of loop value i (loops.c). */
void plan_loop_apply(struct plan_overrides *ovr, const struct parm_loop *lp, size_t i);

/* "threads=2 xfersize=4k iorate=100" or "None" for the current position (malloc'ed). */
char *plan_for_loops_text(const struct plan_builder *b);

/* -r NAME (VDbench's restart): *first, the index among the nr RDs named by name_of of the one
 * to start at (0 without -r). Returns 0, or -EINVAL with err naming the RDs there are. */
int plan_restart_at(const struct parm_config *cfg, size_t nr,
		    const char *(*name_of)(const struct parm_config *cfg, size_t i), size_t *first,
		    struct parm_err *err);

/* The -s rate of a curve point or relative rate: the whole percent of 10000. */
double plan_simulated_rate(double pct);

#endif /* IORAMP_PLAN_INT_H */
