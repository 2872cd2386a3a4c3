/* Reading an execution's parameter files into a struct parm_config: the text (source.c), the
 * definitions as written (define.c), then the typed definitions in VDbench's order (general, HD,
 * SD, WD, RD) and the checks between them. */
#include "build.h"

#include "ioramp/fs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int apply_wd_def(struct parm_config *cfg, const struct parm_raw_def *def,
			struct parm_err *err)
{
	int ret;

	if (parm_grow((void **)&cfg->wds, cfg->nr_wds, sizeof(*cfg->wds)))
		return -ENOMEM;
	memset(&cfg->wds[cfg->nr_wds], 0, sizeof(cfg->wds[0]));
	ret = parm_apply_wd(cfg, def, &cfg->wds[cfg->nr_wds], err);
	cfg->nr_wds++;
	return ret;
}

/* hd=default,jvms=N (checked by parm_check_hd_set). */
static int default_jvms(struct parm_config *cfg, const struct parm_kwset *set, struct parm_err *err)
{
	return parm_get_u32(set->val[PARM_KW_JVMS], 1, 64, "jvms", &cfg->default_jvms, err);
}

/* HDs and SDs first: every WD and RD refers to the final SD list. */
static int apply_all(struct parm_config *cfg, const struct parm_raw *raw, struct parm_err *err)
{
	struct parm_raw_def wdd = { .sec = PARM_SEC_WD, .set = raw->defaults[PARM_SEC_WD] };
	int ret = parm_apply_general(cfg, &cfg->general.set, err);

	if (!ret)
		ret = parm_check_hd_set(&raw->defaults[PARM_SEC_HD], err);
	cfg->has_default_jvms = parm_kwset_has(&raw->defaults[PARM_SEC_HD], PARM_KW_JVMS);
	if (!ret && cfg->has_default_jvms)
		ret = default_jvms(cfg, &raw->defaults[PARM_SEC_HD], err);
	if (cfg->overrides.has_jvms) { /* -m N, as VDbench: hd=default,jvms=N */
		cfg->default_jvms = cfg->overrides.jvms;
		cfg->has_default_jvms = true;
	}
	for (size_t i = 0; !ret && i < raw->nr_defs; i++)
		if (raw->defs[i].sec == PARM_SEC_HD)
			ret = parm_apply_hd(cfg, &raw->defs[i], err);
	if (!ret)
		ret = parm_apply_sds(cfg, raw, err);
	/* what a one-line RD without wd= clones when no RD says otherwise */
	if (!ret)
		ret = parm_apply_wd(cfg, &wdd, &cfg->wd_default, err);
	for (size_t i = 0; !ret && i < raw->nr_defs; i++) {
		const struct parm_raw_def *def = &raw->defs[i];

		if (def->sec == PARM_SEC_WD)
			ret = apply_wd_def(cfg, def, err);
		else if (def->sec == PARM_SEC_RD)
			ret = parm_apply_rd(cfg, def, err);
		/* RG: kept as written; replay groups are not run */
	}
	if (!ret)
		ret = parm_check_config(cfg, err);
	return ret;
}

static void raw_fini(struct parm_raw *raw)
{
	for (size_t i = 0; i < raw->nr_defs; i++) {
		free(raw->defs[i].name);
		free(raw->defs[i].hl);
	}
	free(raw->defs);
	raw->defs = NULL;
}

static bool has_def(const struct parm_raw *raw, enum parm_section sec)
{
	for (size_t i = 0; i < raw->nr_defs; i++)
		if (raw->defs[i].sec == sec)
			return true;
	return false;
}

static int config_build(struct parm_config *cfg, struct parm_err *err)
{
	struct parm_raw raw = { 0 };
	int ret = parm_define(cfg, cfg->src, &raw, err);

	if (!ret && cfg->fs) {
		ret = parm_apply_general(cfg, &cfg->general.set, err);
		if (!ret)
			ret = parm_check_hd_set(&raw.defaults[PARM_SEC_HD], err);
		cfg->has_default_jvms = parm_kwset_has(&raw.defaults[PARM_SEC_HD], PARM_KW_JVMS);
		if (!ret && cfg->has_default_jvms)
			ret = default_jvms(cfg, &raw.defaults[PARM_SEC_HD], err);
		for (size_t i = 0; !ret && i < raw.nr_defs; i++)
			if (raw.defs[i].sec == PARM_SEC_HD)
				ret = parm_apply_hd(cfg, &raw.defs[i], err);
		if (!ret)
			ret = parm_fs_finish(cfg, err);
	} else if (!ret && !raw.nr_defs)
		ret = parm_errf(err, NULL, "no sd=, wd= or rd= definitions in the parameter files");
	else if (!ret && !has_def(&raw, PARM_SEC_RD))
		ret = parm_errf(err, NULL,
				"no run definition in the parameter files; expected at least one "
				"rd=name,wd=...,iorate=...");
	if (!ret && !cfg->fs)
		ret = apply_all(cfg, &raw, err);
	/* the items stay: every kwset points into them */
	cfg->items = raw.item_blocks;
	cfg->nr_items = raw.nr_items;
	cfg->nr_item_blocks = raw.nr_blocks;
	raw_fini(&raw);
	if (ret == -ENOMEM)
		parm_errf(err, NULL, "out of memory");
	return ret;
}

static int config_read(const struct parm_input *in, const char *name, const char *text, size_t len,
		       struct parm_config **out, struct parm_source **keep, struct parm_err *err)
{
	struct parm_config *cfg;
	struct parm_source *src = NULL;
	int ret;

	*out = NULL;
	*keep = NULL;
	memset(err, 0, sizeof(*err));
	ret = parm_source_read(in, name, text, len, &src, err);
	*keep = src;
	if (ret)
		return ret;
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	cfg->src = src;
	cfg->overrides = in->overrides;
	ret = config_build(cfg, err);
	if (ret) {
		cfg->src = NULL; /* the caller keeps it to print err */
		parm_config_free(cfg);
		return ret;
	}
	*keep = NULL;
	*out = cfg;
	return 0;
}

int parm_config_read(const struct parm_input *in, struct parm_config **out,
		     struct parm_source **keep, struct parm_err *err)
{
	return config_read(in, NULL, NULL, 0, out, keep, err);
}

int parm_config_read_text(const char *name, const char *text, size_t len,
			  const struct parm_input *in, struct parm_config **out,
			  struct parm_source **keep, struct parm_err *err)
{
	return config_read(in, name, text, len, out, keep, err);
}

void parm_config_free(struct parm_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->general.histogram_us);
	free(cfg->general.engine);
	for (size_t i = 0; i < cfg->nr_hds; i++) {
		free(cfg->hds[i].name);
		free(cfg->hds[i].system);
	}
	free(cfg->hds);
	for (size_t i = 0; i < cfg->nr_sds; i++)
		parm_sd_fini(&cfg->sds[i]);
	free(cfg->sds);
	for (size_t i = 0; i < cfg->nr_wds; i++)
		parm_wd_fini(&cfg->wds[i]);
	free(cfg->wds);
	parm_wd_fini(&cfg->wd_default);
	for (size_t i = 0; i < cfg->nr_rds; i++)
		parm_rd_fini(&cfg->rds[i]);
	free(cfg->rds);
	parm_fs_free(cfg->fs);
	for (size_t i = 0; i < cfg->nr_item_blocks; i++)
		parm_items_free(cfg->items[i], cfg->nr_items[i]);
	free(cfg->items);
	free(cfg->nr_items);
	parm_source_free(cfg->src);
	free(cfg);
}
