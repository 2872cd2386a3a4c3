/* The values of a run that several readers need, resolved once when the plan is built: the
 * run's SDs in order of first use with the threads= in effect and the largest transfer on each,
 * which SDs each workload runs on, and each workload's share of the run's rate. The engine,
 * the cluster share, the reports (through the engine) and `ioramp workloads` read them here. */
#include "plan_int.h"

#include <errno.h>
#include <stdlib.h>

void plan_run_wd_sds(const struct plan_run *r, size_t w, const size_t **idx, size_t *nr)
{
	*idx = r->sd_idx ? r->sd_idx : r->wds[w]->sd_idx;
	*nr = r->sd_idx ? r->nr_sd : r->wds[w]->nr_sd;
}

bool plan_run_wd_uses_sd(const struct plan_run *r, size_t w, size_t sd)
{
	const size_t *idx;
	size_t nr;

	plan_run_wd_sds(r, w, &idx, &nr);
	for (size_t i = 0; i < nr; i++)
		if (idx[i] == sd)
			return true;
	return false;
}

int plan_run_sd_pos(const struct plan_run *r, size_t sd)
{
	for (size_t i = 0; i < r->nr_sds; i++)
		if (r->sds[i].sd_idx == sd)
			return (int)i;
	return -ENOENT;
}

/* A workload's largest transfer in this run: the for-loop's xfersize=, else its own. */
static uint64_t wd_max_xfer(const struct plan_run *r, const struct parm_wd *wd)
{
	const struct parm_xfer *x = &wd->xfer;
	uint64_t max = 0;

	if (r->ovr.has_xfersize)
		return r->ovr.xfersize_bytes;
	switch (x->kind) {
	case PARM_XFER_FIXED:
		return x->nr ? x->sizes_bytes[0] : 0;
	case PARM_XFER_RANGE:
		return x->align_bytes ? x->max_bytes / x->align_bytes * x->align_bytes : 0;
	default:
		for (size_t i = 0; i < x->nr; i++)
			max = x->sizes_bytes[i] > max ? x->sizes_bytes[i] : max;
		return max;
	}
}

int plan_run_resolve(const struct parm_config *cfg, struct plan_run *r)
{
	size_t cap = 0;

	for (size_t w = 0; w < r->nr_wds; w++) {
		const size_t *idx;
		size_t nr;

		plan_run_wd_sds(r, w, &idx, &nr);
		cap += nr;
	}
	r->sds = calloc(cap ? cap : 1, sizeof(*r->sds));
	if (!r->sds)
		return -ENOMEM;
	for (size_t w = 0; w < r->nr_wds; w++) {
		uint64_t xfer = wd_max_xfer(r, r->wds[w]);
		const size_t *idx;
		size_t nr;

		plan_run_wd_sds(r, w, &idx, &nr);
		for (size_t k = 0; k < nr; k++) {
			int pos = plan_run_sd_pos(r, idx[k]);
			struct plan_run_sd *s;

			if (pos < 0) {
				s = &r->sds[r->nr_sds++];
				s->sd_idx = idx[k];
				/* forthreads= replaces every SD's threads= (reference §9.2) */
				s->threads = r->ovr.has_threads ? r->ovr.threads
								: cfg->sds[idx[k]].threads;
			} else {
				s = &r->sds[pos];
			}
			if (xfer > s->max_xfer_bytes)
				s->max_xfer_bytes = xfer;
		}
	}
	return 0;
}

double plan_run_wd_iops(const struct plan_run *r, size_t w, double run_iops)
{
	double fixed = 0;

	if (parm_kwset_has(&r->wds[w]->set, PARM_KW_IORATE))
		return r->wds[w]->iorate;
	for (size_t i = 0; i < r->nr_wds; i++)
		if (parm_kwset_has(&r->wds[i]->set, PARM_KW_IORATE))
			fixed += r->wds[i]->iorate;
	return run_iops > fixed ? (run_iops - fixed) * r->skews[w] / 100.0 : 0;
}
