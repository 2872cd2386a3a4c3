/* Checks between definitions, made once every definition is typed (tests/parm/FINDINGS.md §8):
 * host= labels that no hd= defines, an RD mount= without an HD mount=, and SD concatenation,
 * where every workload needs a threads= unless its RD loops over threads and an RD's sd= names
 * SDs. */
#include "build.h"

#include <errno.h>
#include <string.h>

static bool is_host(const struct parm_config *cfg, const char *label)
{
	if (!strcmp(label, "*") || !strcmp(label, "localhost"))
		return true;
	for (size_t i = 0; i < cfg->nr_hds; i++)
		if (!strcmp(cfg->hds[i].name, label))
			return true;
	return false;
}

/* host=label or host=(a,b) of an SD or WD ([248], [249]). */
static int check_host(const struct parm_config *cfg, const struct parm_val *v, const char *kind,
		      const char *name, struct parm_err *err)
{
	size_t nr = v->kind == PARM_VAL_LIST ? v->nr_items : 1;

	for (size_t i = 0; i < nr; i++) {
		const struct parm_val *w = v->kind == PARM_VAL_LIST ? &v->items[i] : v;

		if (!is_host(cfg, w->text))
			return parm_errf(err, &w->loc,
					 "could not find host=%s for %s=%s; expected a label "
					 "defined by hd=",
					 w->text, kind, name);
	}
	return 0;
}

/* Whether an RD runs wds[idx] (VDbench checks only those WDs' hosts and SDs). */
static bool is_wd_used(const struct parm_config *cfg, size_t idx)
{
	for (size_t i = 0; i < cfg->nr_rds; i++)
		for (size_t w = 0; !cfg->rds[i].own_wd && w < cfg->rds[i].nr_wd; w++)
			if (cfg->rds[i].wd_idx[w] == idx)
				return true;
	return false;
}

static int check_hosts(const struct parm_config *cfg, struct parm_err *err)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < cfg->nr_sds; i++)
		if (cfg->sds[i].set.val[PARM_KW_HOST])
			ret = check_host(cfg, cfg->sds[i].set.val[PARM_KW_HOST], "sd",
					 cfg->sds[i].name, err);
	for (size_t i = 0; !ret && i < cfg->nr_wds; i++)
		if (cfg->wds[i].set.val[PARM_KW_HOST] && is_wd_used(cfg, i))
			ret = check_host(cfg, cfg->wds[i].set.val[PARM_KW_HOST], "wd",
					 cfg->wds[i].name, err);
	return ret;
}

static bool has_hd_mount(const struct parm_config *cfg)
{
	for (size_t i = 0; i < cfg->nr_hds; i++)
		if (parm_kwset_has(&cfg->hds[i].set, PARM_KW_MOUNT))
			return true;
	return false;
}

/* concatenatesds=yes: each WD of an RD needs threads= unless the RD sets threads ([255]). */
static int check_concat(const struct parm_config *cfg, const struct parm_rd *rd,
			struct parm_err *err)
{
	size_t nr = rd->own_wd ? 1 : rd->nr_wd;

	const struct parm_val *sdv = rd->set.val[PARM_KW_SD];

	if (!cfg->general.concatenatesds)
		return 0;
	/* sd=single, range, setsofN are SD names to VDbench 5.04.07 then ("Could not find
	 * sd=single") */
	if (sdv && rd->sd_mode != PARM_SD_LIST)
		return parm_errf(err, &sdv->loc,
				 "rd=%s: sd=%s cannot be used with concatenatesds=yes; expected SD "
				 "names",
				 rd->name, sdv->text);
	if (parm_kwset_has(&rd->set, PARM_KW_FORTHREADS))
		return 0;
	for (size_t i = 0; i < nr; i++) {
		const struct parm_wd *wd = rd->own_wd ? rd->own_wd : &cfg->wds[rd->wd_idx[i]];

		if (!parm_kwset_has(&wd->set, PARM_KW_THREADS))
			return parm_errf(err, &wd->loc,
					 "wd=%s: with concatenatesds=yes each workload needs "
					 "threads=, unless rd=%s sets threads= or forthreads=",
					 wd->name, rd->name);
	}
	return 0;
}

/* streams= on the first of several WDs of an RD: VDbench 5.04.07 refuses it at -s ("Only ONE
 * Workload Definition (WD) allowed when using streams", [296]); it looks at the first WD only
 * and accepts streams= on a later one ([252], [298]). */
static int check_streams(const struct parm_config *cfg, const struct parm_rd *rd,
			 struct parm_err *err)
{
	const struct parm_wd *wd;

	if (rd->own_wd || rd->nr_wd < 2)
		return 0;
	wd = &cfg->wds[rd->wd_idx[0]];
	if (!parm_kwset_has(&wd->set, PARM_KW_STREAMS))
		return 0;
	return parm_errf(err, &rd->loc,
			 "rd=%s runs %zu workloads and its first, wd=%s, has streams=; expected "
			 "one workload in an RD with streams=",
			 rd->name, rd->nr_wd, wd->name);
}

/* The errors kept for when an RD runs a WD (struct parm_wd.use_err). */
static int check_used_wds(const struct parm_config *cfg, const struct parm_rd *rd,
			  struct parm_err *err)
{
	size_t nr = rd->own_wd ? 1 : rd->nr_wd;

	for (size_t i = 0; i < nr; i++) {
		const struct parm_wd *wd = rd->own_wd ? rd->own_wd : &cfg->wds[rd->wd_idx[i]];

		if (wd->has_use_err) {
			*err = wd->use_err;
			return -EINVAL;
		}
	}
	return 0;
}

int parm_check_config(const struct parm_config *cfg, struct parm_err *err)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < cfg->nr_rds; i++)
		ret = check_used_wds(cfg, &cfg->rds[i], err);
	if (!ret)
		ret = check_hosts(cfg, err);

	for (size_t i = 0; !ret && i < cfg->nr_rds; i++) {
		const struct parm_rd *rd = &cfg->rds[i];
		const struct parm_val *mount = rd->set.val[PARM_KW_MOUNT];

		if (mount && !has_hd_mount(cfg))
			return parm_errf(err, &mount->loc,
					 "rd=%s,mount= needs an hd= with mount= as well", rd->name);
		ret = check_concat(cfg, rd, err);
		if (!ret)
			ret = check_streams(cfg, rd, err);
	}
	return ret;
}
