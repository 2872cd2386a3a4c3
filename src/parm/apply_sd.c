/* Storage definitions (reference §4) into struct parm_sd, including count=(start,n) replication
 * (tests/parm/FINDINGS.md §11): sd=sd,lun=/f,count=(0,8) is sd0..sd7 on /f0../f7, a printf-style
 * mask or '*' in the name or lun takes the number. The SD list then gets VDbench's order, which
 * moves replicated SDs to the end in a skipping pass (FINDINGS §1.3, [136]). */
#include "build.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COUNT_START 1e15

void parm_sd_fini(struct parm_sd *sd)
{
	free(sd->name);
	free(sd->lun);
	free(sd->host);
	for (size_t i = 0; i < sd->nr_host_luns; i++) {
		free(sd->host_luns[i].host);
		free(sd->host_luns[i].lun);
	}
	free(sd->host_luns);
	memset(sd, 0, sizeof(*sd));
}

static int with_number(const char *text, uint64_t nr, char **out);

/* One (host, lun) per label of a host= value; lun takes count= number nr (UINT64_MAX: none). */
static int host_lun_add(struct parm_sd *sd, const struct parm_val *host, const char *lun,
			uint64_t nr, struct parm_err *err)
{
	const char **words = NULL;
	int n = parm_val_words(host, &words, err);

	for (int i = 0; i < n; i++) {
		struct parm_host_lun *hl;

		if (parm_grow((void **)&sd->host_luns, sd->nr_host_luns, sizeof(*sd->host_luns))) {
			free(words);
			return -ENOMEM;
		}
		hl = &sd->host_luns[sd->nr_host_luns++];
		hl->host = strdup(words[i]);
		hl->lun = NULL;
		if (!hl->host || (nr == UINT64_MAX ? !(hl->lun = strdup(lun))
						   : with_number(lun, nr, &hl->lun))) {
			free(words);
			return -ENOMEM;
		}
	}
	free(words);
	return n < 0 ? n : 0;
}

/* Where the SD exists (reference §3): host= and lun= pairs as written, else every label of its
 * host= with its lun=, else every host (nr_host_luns 0). */
static int sd_host_luns(struct parm_sd *sd, const struct parm_raw_def *def, const char *lun,
			uint64_t nr, struct parm_err *err)
{
	const struct parm_val *host = NULL;
	bool has_pair = false;

	for (size_t i = 0; i < def->nr_hl; i++) {
		const struct parm_raw_hl *hl = &def->hl[i];
		int ret;

		if (!hl->is_lun) {
			host = hl->val;
			continue;
		}
		if (!host || hl->val->kind != PARM_VAL_WORD)
			continue;
		ret = host_lun_add(sd, host, hl->val->text, nr, err);
		if (ret)
			return ret;
		host = NULL;
		has_pair = true;
	}
	if (has_pair && def->nr_hl > 2)
		return 0;
	for (size_t i = 0; i < sd->nr_host_luns; i++) { /* one pair: a plain host= restriction */
		free(sd->host_luns[i].host);
		free(sd->host_luns[i].lun);
	}
	sd->nr_host_luns = 0;
	host = def->set.val[PARM_KW_HOST];
	return host ? host_lun_add(sd, host, lun, UINT64_MAX, err) : 0;
}

/* align=N: a multiple of 512 ("SD align= parameter must be multiple of 512 bytes" in VDbench
 * 5.04.07 -s) once truncated (512.5 is 512); 0 or less is the default, the transfer size, as
 * VDbench runs it (observed). */
static int set_align(struct parm_sd *sd, const struct parm_val *v, struct parm_err *err)
{
	double d;
	int ret = parm_get_double(v, PARM_UNIT_BYTES, -1e18, 1ull << 30, "align", &d, err);

	if (ret)
		return ret;
	sd->align_bytes = d > 0 ? (uint64_t)d : 0;
	if (sd->align_bytes % 512)
		return parm_errf(err, &v->loc, "invalid align=%s; expected a multiple of 512 bytes",
				 v->text);
	return 0;
}

/* threads=0 or less: -s lists it, VDbench's run finds no work ("prepareWgWork(): no work
 * created for any slave", observed); kept for the run to refuse. Too many is refused now. */
static int set_threads(struct parm_sd *sd, const struct parm_val *v, struct parm_err *err)
{
	double d;
	int ret = parm_get_u32(v, 1, 1u << 20, "threads", &sd->threads, err);
	struct parm_err keep = *err;

	if (!ret || parm_get_double(v, PARM_UNIT_PLAIN, -1e18, 1e18, "threads", &d, err) || d >= 1)
		return ret;
	*err = keep;
	return parm_keep_run_err(&sd->has_run_err, &sd->run_err, -ERANGE, err);
}

/* hitarea=10%: -s lists it and VDbench runs it, with a meaning we have not observed; ioramp
 * refuses it before a run. */
static int pct_run_err(struct parm_sd *sd, const struct parm_val *v, int ret, struct parm_err *err)
{
	struct parm_num n;

	if (!ret || v->kind != PARM_VAL_WORD || parm_num_parse(v->text, PARM_UNIT_BYTES, &n) ||
	    !n.is_pct)
		return ret;
	parm_errf(err, &v->loc,
		  "hitarea=%s: a percentage cannot run in ioramp (VDbench -s lists it); expected "
		  "bytes",
		  v->text);
	return parm_keep_run_err(&sd->has_run_err, &sd->run_err, -ERANGE, err);
}

static int sd_one(struct parm_sd *sd, enum parm_kw kw, const struct parm_val *v,
		  struct parm_err *err)
{
	switch (kw) {
	case PARM_KW_SIZE: /* 0: the lun's own size, as without size= (VDbench runs it) */
		return parm_get_u64(v, PARM_UNIT_BYTES, 0, UINT64_MAX / 2, "size", &sd->size_bytes,
				    err);
	case PARM_KW_THREADS:
		return set_threads(sd, v, err);
	case PARM_KW_OFFSET:
		return parm_get_u64(v, PARM_UNIT_BYTES, 0, UINT64_MAX / 2, "offset",
				    &sd->offset_bytes, err);
	case PARM_KW_ALIGN:
		return set_align(sd, v, err);
	case PARM_KW_RANGE:
		return parm_get_range(v, "range", &sd->range, err);
	case PARM_KW_HITAREA:
		return pct_run_err(sd, v,
				   parm_get_u64(v, PARM_UNIT_BYTES, 0, UINT64_MAX / 2, "hitarea",
						&sd->hitarea_bytes, err),
				   err);
	case PARM_KW_OPENFLAGS: /* any word passes -s; VDbench's run refuses it */
		return parm_keep_run_err(&sd->has_run_err, &sd->run_err,
					 parm_get_openflags(v, &sd->openflags, err), err);
	case PARM_KW_STREAMS:
		return parm_errf(
			err, &v->loc,
			"streams= belongs to the workload (wd=) since VDbench 5.04; move it "
			"to a wd= definition");
	default:
		return 0;
	}
}

static int sd_fill(struct parm_sd *sd, const struct parm_raw_def *def, const char *lun, uint64_t nr,
		   struct parm_err *err)
{
	const struct parm_val *host = def->set.val[PARM_KW_HOST];
	int ret;

	sd->set = def->set;
	sd->loc = def->loc;
	sd->threads = 8;
	sd->hitarea_bytes = 1024 * 1024;
	sd->range.lo = 0;
	sd->range.hi = 100;
	if (!(sd->lun = strdup(lun)))
		return -ENOMEM;
	if (host && !(sd->host = strdup(host->kind == PARM_VAL_WORD ? host->text
					: host->nr_items	    ? host->items[0].text
								    : "")))
		return -ENOMEM;
	ret = sd_host_luns(sd, def, lun, nr, err);
	if (ret)
		return ret;
	for (int kw = 0; kw < PARM_KW_NR; kw++) {
		if (!def->set.val[kw])
			continue;
		ret = sd_one(sd, (enum parm_kw)kw, def->set.val[kw], err);
		if (ret)
			return ret;
	}
	return 0;
}

static int sd_add(struct parm_config *cfg, const struct parm_raw_def *def, char *name,
		  const char *lun, uint64_t nr, struct parm_err *err)
{
	struct parm_sd *sd;

	if (cfg->nr_sds >= PARM_MAX_DEFS) {
		free(name);
		return parm_errf(err, &def->loc,
				 "more than %d storage definitions; expected fewer sd= (count= "
				 "included)",
				 PARM_MAX_DEFS);
	}
	if (parm_grow((void **)&cfg->sds, cfg->nr_sds, sizeof(*cfg->sds))) {
		free(name);
		return -ENOMEM;
	}
	sd = &cfg->sds[cfg->nr_sds++];
	memset(sd, 0, sizeof(*sd));
	sd->name = name;
	return sd_fill(sd, def, lun, nr, err);
}

/* Formats nr through the printf-style mask at pct ("%02d", "%04x", "%s"). */
static int mask_number(const char *pct, uint64_t nr, char *out, size_t len, const char **after)
{
	const char *p = pct + 1;
	char spec[24], num[32];
	int n;

	p += strspn(p, "-0 +#");
	p += strspn(p, "0123456789");
	if (*p == '.')
		p += 1 + strspn(p + 1, "0123456789");
	if ((size_t)(p - pct) > 12 || !*p || !strchr("diuxXos", *p))
		return -EINVAL;
	*after = p + 1;
	if (*p == 's') {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)nr);
		snprintf(spec, sizeof(spec), "%.*ss", (int)(p - pct), pct);
		n = snprintf(out, len, spec, num);
	} else {
		snprintf(spec, sizeof(spec), "%.*sll%c", (int)(p - pct), pct, *p == 'i' ? 'd' : *p);
		n = snprintf(out, len, spec, (unsigned long long)nr);
	}
	return n < 0 || (size_t)n >= len ? -EINVAL : 0;
}

/* The name or lun of count= number nr: a printf mask or a '*' takes the number, else it is
 * appended ([134]). *out is malloc'ed. */
static int with_number(const char *text, uint64_t nr, char **out)
{
	const char *pct = strchr(text, '%');
	const char *star = strchr(text, '*');
	char num[96];
	int n;

	if (pct) {
		const char *after;

		if (mask_number(pct, nr, num, sizeof(num), &after))
			return -EINVAL;
		n = asprintf(out, "%.*s%s%s", (int)(pct - text), text, num, after);
	} else if (star) {
		n = asprintf(out, "%.*s%llu%s", (int)(star - text), text, (unsigned long long)nr,
			     star + 1);
	} else {
		n = asprintf(out, "%s%llu", text, (unsigned long long)nr);
	}
	return n < 0 ? -ENOMEM : 0;
}

/* count=(start,n): start truncated, n at least one ([135], [137], [138]). */
static int count_values(const struct parm_val *cv, uint64_t *start, uint64_t *nr,
			struct parm_err *err)
{
	struct parm_num *n = NULL;
	int k = parm_val_numbers(cv, PARM_UNIT_BYTES, "count", &n, err);
	double s, c;

	if (k < 0)
		return k;
	s = k >= 1 ? parm_num_signed(&n[0]) : 0;
	c = k >= 2 ? parm_num_signed(&n[1]) : 0;
	free(n);
	if (k != 2)
		return parm_errf(err, &cv->loc,
				 "invalid count=%s; expected two values: count=(start,count)",
				 cv->text);
	if (!(c >= 1))
		return parm_errf(err, &cv->loc,
				 "invalid count=%s; expected a count of one or more SDs", cv->text);
	if (!(s >= 0 && s <= MAX_COUNT_START) || c > PARM_MAX_DEFS)
		return parm_errf(err, &cv->loc,
				 "invalid count=%s; expected a start from 0 to 1e15 and at most %d "
				 "SDs",
				 cv->text, PARM_MAX_DEFS);
	*start = (uint64_t)s;
	*nr = (uint64_t)c;
	return 0;
}

static int sd_count(struct parm_config *cfg, const struct parm_raw_def *def, const char *lun,
		    struct parm_err *err)
{
	const struct parm_val *cv = def->set.val[PARM_KW_COUNT];
	uint64_t start = 0, nr = 0;
	int ret = count_values(cv, &start, &nr, err);

	for (uint64_t i = 0; !ret && i < nr; i++) {
		char *name = NULL, *l = NULL;

		ret = with_number(def->name, start + i, &name);
		if (!ret)
			ret = with_number(lun, start + i, &l);
		if (ret == -EINVAL)
			ret = parm_errf(err, &cv->loc,
					"sd=%s,lun=%s: invalid count= mask; expected %%d, %%02d, "
					"%%x, %%s or *",
					def->name, lun);
		if (!ret)
			ret = sd_add(cfg, def, name, l, start + i, err);
		else
			free(name);
		free(l);
	}
	return ret;
}

static int sd_def(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_err *err)
{
	const struct parm_val *v = def->set.val[PARM_KW_LUN];
	const char *lun = NULL;
	char *name;
	int ret;

	if (!v)
		return parm_errf(err, &def->loc,
				 "sd=%s has no lun=; expected lun=/dev/... or a file name",
				 def->name);
	ret = parm_get_word(v, "lun", &lun, err);
	if (ret)
		return ret;
	if (def->set.val[PARM_KW_COUNT])
		return sd_count(cfg, def, lun, err);
	name = strdup(def->name);
	return name ? sd_add(cfg, def, name, lun, UINT64_MAX, err) : -ENOMEM;
}

static int cmp_name(const void *a, const void *b, void *arg)
{
	const struct parm_sd *sds = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sds[i].name, sds[j].name);

	return c ? c : (i > j) - (i < j);
}

/* The first SD (in definition order) whose name an earlier SD already has ([121]). */
static int check_duplicates(const struct parm_config *cfg, struct parm_err *err)
{
	size_t *idx = malloc((cfg->nr_sds ? cfg->nr_sds : 1) * sizeof(*idx));
	size_t dup = SIZE_MAX;

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < cfg->nr_sds; i++)
		idx[i] = i;
	qsort_r(idx, cfg->nr_sds, sizeof(*idx), cmp_name, cfg->sds);
	for (size_t i = 1; i < cfg->nr_sds; i++)
		if (!strcmp(cfg->sds[idx[i]].name, cfg->sds[idx[i - 1]].name) &&
		    (i < 2 || strcmp(cfg->sds[idx[i]].name, cfg->sds[idx[i - 2]].name)) &&
		    idx[i] < dup)
			dup = idx[i];
	free(idx);
	if (dup == SIZE_MAX)
		return 0;
	return parm_errf(err, &cfg->sds[dup].loc, "an SD can only be defined once: sd=%s",
			 cfg->sds[dup].name);
}

/* One sd= definition's SDs in cfg->sds: [start, start + nr). */
struct sd_group {
	size_t start;
	size_t nr;
	bool is_count;
};

/* VDbench's order: repeat until no count= group is left: for i over the list, a count= group
 * at i is removed and its SDs appended at the end; the element sliding into i is skipped. */
static void order_groups(struct sd_group *g, size_t nr, size_t *order, size_t *nr_order)
{
	size_t len = nr, out = 0;
	bool again = true;

	while (again) {
		again = false;
		for (size_t i = 0; i < len; i++) {
			if (!g[i].is_count)
				continue;
			g[len] = g[i];
			g[len].is_count = false;
			memmove(&g[i], &g[i + 1], (len - i) * sizeof(*g));
			again = true;
		}
	}
	for (size_t i = 0; i < len; i++)
		for (size_t k = 0; k < g[i].nr; k++)
			order[out++] = g[i].start + k;
	*nr_order = out;
}

static int reorder(struct parm_config *cfg, struct sd_group *g, size_t nr_groups)
{
	size_t *order = malloc((cfg->nr_sds ? cfg->nr_sds : 1) * sizeof(*order));
	struct parm_sd *sds = malloc((cfg->nr_sds ? cfg->nr_sds : 1) * sizeof(*sds));
	size_t nr = 0;

	if (!order || !sds) {
		free(order);
		free(sds);
		return -ENOMEM;
	}
	order_groups(g, nr_groups, order, &nr);
	for (size_t i = 0; i < nr; i++)
		sds[i] = cfg->sds[order[i]];
	if (nr) /* no SDs: cfg->sds may be NULL, and memcpy must not see it */
		memcpy(cfg->sds, sds, nr * sizeof(*sds));
	free(order);
	free(sds);
	return 0;
}

int parm_apply_sds(struct parm_config *cfg, const struct parm_raw *raw, struct parm_err *err)
{
	struct sd_group *g = calloc(raw->nr_defs + 1, sizeof(*g));
	size_t nr = 0;
	int ret = g ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < raw->nr_defs; i++) {
		const struct parm_raw_def *def = &raw->defs[i];

		if (def->sec != PARM_SEC_SD)
			continue;
		g[nr].start = cfg->nr_sds;
		g[nr].is_count = def->set.val[PARM_KW_COUNT] != NULL;
		ret = sd_def(cfg, def, err);
		g[nr].nr = cfg->nr_sds - g[nr].start;
		nr++;
	}
	if (!ret)
		ret = check_duplicates(cfg, err);
	if (!ret)
		ret = reorder(cfg, g, nr);
	free(g);
	return ret;
}

int parm_sd_find(const struct parm_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nr_sds; i++)
		if (!strcmp(cfg->sds[i].name, name))
			return (int)i;
	return -ENOENT;
}
