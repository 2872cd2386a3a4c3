/* Storage definitions (reference §4) into struct parm_sd, including count=(start,n)
 * replication: sd=sd,lun=/f,count=(0,8) is sd0..sd7 on /f0../f7. */
#include "build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void parm_sd_fini(struct parm_sd *sd)
{
	free(sd->name);
	free(sd->lun);
	free(sd->host);
	memset(sd, 0, sizeof(*sd));
}

/* Replaces a printf-style %d mask (any width/zero flag) or the first '*' with nr; appends nr
 * when the text has neither. */
static char *with_number(const char *text, uint64_t nr)
{
	const char *pct = strchr(text, '%');
	const char *star = strchr(text, '*');
	char *out = NULL;
	int n = -1;

	if (pct) {
		const char *p = pct + 1;
		char fmt[16];

		while (*p == '0' || (*p >= '1' && *p <= '9'))
			p++;
		if (*p == 'd' && (size_t)(p - pct) < sizeof(fmt) - 4) {
			snprintf(fmt, sizeof(fmt), "%.*sllu", (int)(p - pct), pct);
			char num[32];

			snprintf(num, sizeof(num), fmt, (unsigned long long)nr);
			n = asprintf(&out, "%.*s%s%s", (int)(pct - text), text, num, p + 1);
			return n < 0 ? NULL : out;
		}
	}
	if (star)
		n = asprintf(&out, "%.*s%llu%s", (int)(star - text), text, (unsigned long long)nr,
			     star + 1);
	else
		n = asprintf(&out, "%s%llu", text, (unsigned long long)nr);
	return n < 0 ? NULL : out;
}

static int sd_one(struct parm_sd *sd, enum parm_kw kw, const struct parm_val *v,
		  struct parm_err *err)
{
	switch (kw) {
	case PARM_KW_SIZE:
		return parm_get_u64(v, PARM_UNIT_BYTES, 1, UINT64_MAX / 2, "size", &sd->size_bytes,
				    err);
	case PARM_KW_THREADS:
		return parm_get_u32(v, 1, 1u << 20, "threads", &sd->threads, err);
	case PARM_KW_OFFSET:
		return parm_get_u64(v, PARM_UNIT_BYTES, 0, UINT64_MAX / 2, "offset",
				    &sd->offset_bytes, err);
	case PARM_KW_ALIGN:
		return parm_get_u64(v, PARM_UNIT_BYTES, 512, 1ull << 30, "align", &sd->align_bytes,
				    err);
	case PARM_KW_RANGE:
		return parm_get_range(v, "range", &sd->range, err);
	case PARM_KW_HITAREA:
		return parm_get_u64(v, PARM_UNIT_BYTES, 0, UINT64_MAX / 2, "hitarea",
				    &sd->hitarea_bytes, err);
	case PARM_KW_OPENFLAGS:
		return parm_get_openflags(v, &sd->openflags, err);
	case PARM_KW_STREAMS:
		return parm_errf(err, &v->loc,
				 "streams= belongs to the workload (wd=) since "
				 "VDbench 5.04; move it to a wd= definition");
	default:
		return 0;
	}
}

static int sd_fill(struct parm_sd *sd, const struct parm_raw_def *def, const char *lun,
		   struct parm_err *err)
{
	sd->set = def->set;
	sd->loc = def->loc;
	sd->threads = 8;
	sd->hitarea_bytes = 1024 * 1024;
	sd->range.lo = 0;
	sd->range.hi = 100;
	if (lun && !(sd->lun = strdup(lun)))
		return -ENOMEM;
	if (def->set.val[PARM_KW_HOST] && def->set.val[PARM_KW_HOST]->kind == PARM_VAL_WORD &&
	    !(sd->host = strdup(def->set.val[PARM_KW_HOST]->text)))
		return -ENOMEM;
	for (int kw = 0; kw < PARM_KW_NR; kw++) {
		int ret;

		if (!def->set.val[kw])
			continue;
		ret = sd_one(sd, (enum parm_kw)kw, def->set.val[kw], err);
		if (ret)
			return ret;
	}
	return 0;
}

static int sd_add(struct parm_config *cfg, const struct parm_raw_def *def, const char *name,
		  const char *lun, struct parm_err *err)
{
	struct parm_sd *sd;
	int ret;

	if (cfg->nr_sds >= PARM_MAX_DEFS)
		return parm_errf(err, &def->loc,
				 "more than %d storage definitions; expected fewer "
				 "sd= (count= included)",
				 PARM_MAX_DEFS);
	if (parm_sd_find(cfg, name) >= 0)
		return parm_errf(err, &def->loc, "an SD can only be defined once: sd=%s", name);
	if (parm_grow((void **)&cfg->sds, cfg->nr_sds, sizeof(*cfg->sds)))
		return -ENOMEM;
	sd = &cfg->sds[cfg->nr_sds++];
	memset(sd, 0, sizeof(*sd));
	sd->name = strdup(name);
	if (!sd->name)
		return -ENOMEM;
	ret = sd_fill(sd, def, lun, err);
	return ret;
}

static int sd_lun(const struct parm_raw_def *def, const char **lun, struct parm_err *err)
{
	const struct parm_val *v = def->set.val[PARM_KW_LUN];

	*lun = NULL;
	if (!v)
		return parm_errf(err, &def->loc,
				 "sd=%s has no lun=; expected lun=/dev/... or a "
				 "file name",
				 def->name);
	return parm_get_word(v, "lun", lun, err);
}

int parm_apply_sd(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_err *err)
{
	const struct parm_val *cv = def->set.val[PARM_KW_COUNT];
	struct parm_num *n;
	const char *lun;
	int nr, ret;

	ret = sd_lun(def, &lun, err);
	if (ret)
		return ret;
	if (!cv)
		return sd_add(cfg, def, def->name, lun, err);
	nr = parm_val_numbers(cv, PARM_UNIT_PLAIN, &n, err);
	if (nr < 0)
		return nr;
	if (nr != 2 || n[0].value < 0 || n[1].value < 1 || n[1].value > PARM_MAX_DEFS) {
		free(n);
		return parm_errf(err, &cv->loc, "invalid count=%s; expected (start,n) with n >= 1",
				 cv->text);
	}
	for (uint64_t i = 0; !ret && i < (uint64_t)n[1].value; i++) {
		uint64_t k = (uint64_t)n[0].value + i;
		char *name = with_number(def->name, k);
		char *l = with_number(lun, k);

		ret = name && l ? sd_add(cfg, def, name, l, err) : -ENOMEM;
		free(name);
		free(l);
	}
	free(n);
	return ret;
}

int parm_sd_find(const struct parm_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nr_sds; i++)
		if (!strcmp(cfg->sds[i].name, name))
			return (int)i;
	return -ENOENT;
}
