/* Which workloads a run has and how the RD's rate is split between them (reference §9.2):
 * workload iorate= first, the rest by skew, workloads without skew sharing what is left
 * equally. Skew, priority or a workload iorate make the rate "controlled". */
#include "plan_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* With a priority= or workload iorate= on one WD of an RD, every WD of that RD needs its own
 * priority ([272]); the error points at the WD without one. */
static int check_priorities(struct plan_builder *b)
{
	const struct parm_wd *without = NULL;
	size_t with = 0;

	for (size_t i = 0; i < b->nr_wds; i++) {
		if (b->wds[i]->priority || parm_kwset_has(&b->wds[i]->set, PARM_KW_IORATE))
			with++;
		else if (!without)
			without = b->wds[i];
	}
	if (with && without)
		return parm_errf(b->err, &without->loc,
				 "wd=%s has no priority=; rd=%s runs workloads with priority= or "
				 "iorate=, so each of its workloads needs a different priority=",
				 without->name, b->rd->name);
	for (size_t i = 0; with && i < b->nr_wds; i++)
		for (size_t j = i + 1; j < b->nr_wds; j++)
			if (b->wds[i]->priority == b->wds[j]->priority)
				return parm_errf(
					b->err, &b->wds[j]->loc,
					"rd=%s: wd=%s and wd=%s have the same priority=%u; "
					"expected a different priority for every workload",
					b->rd->name, b->wds[i]->name, b->wds[j]->name,
					b->wds[i]->priority);
	return 0;
}

static int spread_skew(struct plan_builder *b)
{
	double given = 0;
	size_t nr_free = 0, nr_rated = 0;

	for (size_t i = 0; i < b->nr_wds; i++) {
		const struct parm_wd *wd = b->wds[i];

		if (parm_kwset_has(&wd->set, PARM_KW_IORATE))
			nr_rated++;
		else if (parm_kwset_has(&wd->set, PARM_KW_SKEW))
			given += wd->skew;
		else
			nr_free++;
	}
	for (size_t i = 0; i < b->nr_wds; i++) {
		const struct parm_wd *wd = b->wds[i];

		if (parm_kwset_has(&wd->set, PARM_KW_IORATE))
			b->skews[i] = 0;
		else if (parm_kwset_has(&wd->set, PARM_KW_SKEW))
			b->skews[i] = wd->skew;
		else
			b->skews[i] = (100 - given) / (double)nr_free;
	}
	if (nr_rated == b->nr_wds)
		return 0;
	/* VDbench 5.04.07: only when every WD has its skew, within 0.0001 of 100 ([281]) */
	if (nr_free == 0 && (given < 99.9999 || given > 100.0001))
		return parm_errf(b->err, &b->rd_loc, "rd=%s: Total skew must add up to 100: %.2f",
				 b->rd->name, given);
	return 0;
}

int plan_rd_workloads(struct plan_builder *b)
{
	const struct parm_rd *rd = b->rd;
	const struct parm_wd **wds;
	size_t nr = rd->own_wd ? 1 : rd->nr_wd;

	wds = realloc(b->wds, (nr ? nr : 1) * sizeof(*wds));
	if (!wds)
		return -ENOMEM;
	b->wds = wds;
	b->skews = realloc(b->skews, (nr ? nr : 1) * sizeof(*b->skews));
	if (!b->skews)
		return -ENOMEM;
	b->nr_wds = nr;
	if (rd->own_wd)
		wds[0] = rd->own_wd;
	for (size_t i = 0; !rd->own_wd && i < nr; i++)
		wds[i] = &b->cfg->wds[rd->wd_idx[i]];
	b->is_controlled = false;
	for (size_t i = 0; i < nr; i++) {
		const struct parm_kwset *s = &wds[i]->set;

		if (parm_kwset_has(s, PARM_KW_SKEW) || parm_kwset_has(s, PARM_KW_PRIORITY) ||
		    parm_kwset_has(s, PARM_KW_IORATE))
			b->is_controlled = true;
		if (!wds[i]->nr_sd && rd->sd_mode == PARM_SD_NONE)
			return parm_errf(b->err, &wds[i]->loc,
					 "wd=%s has no sd=; expected the "
					 "storage it runs on",
					 wds[i]->name);
	}
	return check_priorities(b) ? -EINVAL : spread_skew(b);
}
