/* concatenatesds=yes in a run (VDbench 5.04.07 guide 1.16, and observed): the run's SDs, in the
 * order its workloads name them, are one lun. Each WD's generator on the first member draws
 * over the whole concatenation with the threads of the WD (or of the RD) shared by all
 * members; each I/O is then routed to the member it falls in (concat.c) and counted on that
 * member's SD, so the SD reports show each member's part. */
#include "engine_int.h"

#include <errno.h>
#include <stdlib.h>

#include "ioramp/plan.h"

static bool same_sds(const size_t *a, size_t nr_a, const size_t *b, size_t nr_b)
{
	if (nr_a != nr_b)
		return false;
	for (size_t i = 0; i < nr_a; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static int refuse(const struct parm_val *v, const struct parm_rd *rd, const char *what,
		  struct parm_err *err)
{
	return parm_errf(err, v ? &v->loc : &rd->loc, "not supported yet: concatenatesds=yes %s",
			 what);
}

/* The threads the concatenation shares: the RD's threads=, else the sum of its WDs' (the
 * parser makes sure one of them is given, [255]). */
static uint32_t concat_threads(const struct plan_run *pr)
{
	uint32_t sum = 0;

	if (pr->ovr.has_threads)
		return pr->ovr.threads;
	for (size_t w = 0; w < pr->nr_wds; w++)
		sum += pr->wds[w]->threads;
	return sum ? sum : 8;
}

static int concat_check(const struct eng_run *r, const struct plan *plan,
			const struct plan_run *pr, const struct eng_run_src *src,
			struct parm_err *err)
{
	const struct parm_config *cfg = plan->cfg;
	const struct parm_rd *rd = &cfg->rds[pr->rd_idx];
	const struct parm_val *v = cfg->general.set.val[PARM_KW_CONCATENATESDS];
	const size_t *first, *idx;
	size_t nr_first, nr;

	if (src->share)
		return refuse(v, rd, "in an MPI job", err);
	if (rd->trace)
		return refuse(v, rd, "with a trace= replay", err);
	if (cfg->general.dedupunit_bytes)
		return refuse(v, rd, "with dedup", err);
	plan_run_wd_sds(pr, 0, &first, &nr_first);
	for (size_t w = 1; w < pr->nr_wds; w++) {
		plan_run_wd_sds(pr, w, &idx, &nr);
		if (!same_sds(first, nr_first, idx, nr))
			return parm_errf(err, &pr->wds[w]->loc,
					 "not supported yet: concatenatesds=yes with workloads on "
					 "different SDs in rd=%s; expected every wd= on the same "
					 "sd= list",
					 pr->name);
	}
	for (size_t i = 0; i < r->nr_sds; i++)
		if (cfg->sds[r->sds[i].cfg_idx].offset_bytes)
			return refuse(cfg->sds[r->sds[i].cfg_idx].set.val[PARM_KW_OFFSET], rd,
				      "with an sd offset=", err);
	return 0;
}

static int run_sd_of(const struct eng_run *r, size_t cfg_idx)
{
	for (size_t i = 0; i < r->nr_sds; i++)
		if (r->sds[i].cfg_idx == cfg_idx)
			return (int)i;
	return -ENOENT;
}

int eng_concat_build(struct eng_run *r, const struct eng_run_src *src, struct parm_err *err)
{
	const struct plan_run *pr = &src->plan->runs[src->run_idx];
	struct eng_concat *c = &r->concat;
	const size_t *idx;
	size_t nr;
	uint64_t at = 0;
	int ret;

	if (!src->plan->cfg->general.concatenatesds || !pr->nr_wds)
		return 0;
	ret = concat_check(r, src->plan, pr, src, err);
	if (ret)
		return ret;
	plan_run_wd_sds(pr, 0, &idx, &nr);
	c->run_sd = calloc(nr, sizeof(*c->run_sd));
	c->start_bytes = calloc(nr, sizeof(*c->start_bytes));
	c->len_bytes = calloc(nr, sizeof(*c->len_bytes));
	if (!c->run_sd || !c->start_bytes || !c->len_bytes)
		return -ENOMEM;
	c->nr = (uint32_t)nr;
	for (size_t m = 0; m < nr; m++) {
		struct eng_sd_desc *d = &r->sds[run_sd_of(r, idx[m])];

		c->run_sd[m] = (uint32_t)(d - r->sds);
		c->start_bytes[m] = at;
		c->len_bytes[m] = eng_sd_lun_bytes(&src->plan->cfg->sds[d->cfg_idx], d->target);
		at += c->len_bytes[m];
		if (d->max_xfer_bytes > c->guard_bytes)
			c->guard_bytes = d->max_xfer_bytes;
		d->threads = m ? 0 : concat_threads(pr);
	}
	c->total_bytes = at;
	return 0;
}

uint64_t eng_concat_bytes(const struct eng_run *r)
{
	const struct eng_concat *c = &r->concat;

	return c->guard_bytes ? c->total_bytes / c->guard_bytes * c->guard_bytes : c->total_bytes;
}

uint32_t eng_concat_route(const struct eng_worker *w, struct eng_pending *p)
{
	uint64_t in;
	uint32_t m = eng_concat_map(&w->run->concat, p->offset_bytes, p->size_bytes, &in);

	p->offset_bytes = in;
	p->wg = (uint16_t)(p->wg + m); /* its member's generator: the next ones of its WD */
	return w->concat_local[m];
}
