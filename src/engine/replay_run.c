/* Turning a built run into a replay (RD trace=FILE): one counting generator per SD instead of
 * the workloads' generators, transfers up to the trace's largest, the speed from the rate
 * asked (iorate=N scales the trace to N I/Os per second, max replays as fast as the threads
 * allow, no iorate keeps the trace's own timing) and, without elapsed=, a run as long as the
 * trace at that speed (the run ends with the trace anyway). */
#include "replay.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "ioramp/parm.h"

enum {
	REPLAY_MAX_SECS = 86400, /* a max-speed replay ends with the trace, at the latest a day */
};

static int one_wg_per_sd(struct eng_run *r, const char *name)
{
	struct eng_wg_desc *wgs = calloc(r->nr_sds ? r->nr_sds : 1, sizeof(*wgs));

	if (!wgs)
		return -ENOMEM;
	for (size_t s = 0; s < r->nr_sds; s++) {
		wgs[s].run_sd = (uint32_t)s;
		wgs[s].weight = 1;
	}
	free(r->wgs);
	r->wgs = wgs;
	r->nr_wgs = r->nr_sds;
	r->nr_wds = 1;
	r->wd_names[0] = name;
	r->wd_skew_pct[0] = 100;
	r->nr_prio = 1;
	return 0;
}

static void size_for_trace(struct eng_run *r, const struct parm_config *cfg,
			   const struct eng_trace_info *ti)
{
	uint64_t xfer = (ti->max_size_bytes + ENG_RPL_ALIGN - 1) / ENG_RPL_ALIGN * ENG_RPL_ALIGN;

	if (xfer < 4096)
		xfer = 4096;
	for (size_t s = 0; s < r->nr_sds; s++) {
		struct eng_sd_desc *d = &r->sds[s];
		const struct parm_sd *sd = &cfg->sds[d->cfg_idx];
		uint64_t size = sd->size_bytes ? sd->size_bytes : d->target->size_bytes;

		if (d->target->size_bytes && d->target->size_bytes < size)
			size = d->target->size_bytes;
		d->max_xfer_bytes = xfer;
		d->size_bytes = size / ENG_RPL_ALIGN * ENG_RPL_ALIGN;
	}
}

int eng_run_replay(struct eng_run *r, const struct parm_config *cfg,
		   const struct eng_trace_info *ti, bool has_elapsed)
{
	const struct plan_run *pr = r->prun;
	const struct parm_rd *rd = &cfg->rds[pr->rd_idx];
	double secs;
	int ret = one_wg_per_sd(r, rd->name);

	if (ret)
		return ret;
	r->is_replay = true;
	r->trace = ti;
	r->has_eof = true;
	size_for_trace(r, cfg, ti);
	if (pr->rate == PLAN_RATE_FIXED && pr->rate_iops == 0) {
		r->mode = ENG_MODE_RATE; /* no iorate=: the trace's own timing */
		r->target_iops = ti->traced_iops;
	}
	r->replay_speed = r->mode == ENG_MODE_MAX ? 0
			  : ti->traced_iops > 0	  ? r->target_iops / ti->traced_iops
						  : 1;
	/* a curve's runs each last elapsed=, the trace starting over as often as it takes: the
	 * max run must measure a rate even when the trace is over in a moment at full speed */
	if (pr->rate == PLAN_RATE_CURVE_MAX || pr->rate == PLAN_RATE_CURVE_POINT) {
		r->is_replay_loop = true;
		r->has_eof = false;
		return 0;
	}
	if (has_elapsed)
		return 0;
	secs = r->replay_speed > 0 ? (double)(ti->last_ns - ti->first_ns) / 1e9 / r->replay_speed
				   : REPLAY_MAX_SECS;
	if (secs > REPLAY_MAX_SECS)
		secs = REPLAY_MAX_SECS;
	/* the trace's length at this speed, whole intervals, one more for the last I/Os */
	r->nr_intervals = r->nr_warmup + (uint32_t)ceil(secs / ((double)r->interval_ns / 1e9)) + 1;
	if (r->nr_intervals < r->nr_warmup + 2)
		r->nr_intervals = r->nr_warmup + 2;
	return 0;
}
