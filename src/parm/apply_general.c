/* General and HD parameters (reference §2, §3) into struct parm_general and struct parm_hd.
 * Keywords ioramp does not act on are still checked here so a typo fails at once. */
#include "build.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* histogram=(default,b1,b2,...): bucket bounds with u/m/s units, microseconds by default. */
static int histogram_bound(const struct parm_val *v, uint64_t *out_us, struct parm_err *err)
{
	const char *t = v->text;
	size_t n = strlen(t);
	double scale = 1.0;
	char num[64];
	struct parm_num x;

	if (n && (t[n - 1] == 'u' || t[n - 1] == 'U')) {
		n--;
	} else if (n && (t[n - 1] == 'm' || t[n - 1] == 'M')) {
		scale = 1000.0;
		n--;
	} else if (n && (t[n - 1] == 's' || t[n - 1] == 'S')) {
		scale = 1e6;
		n--;
	}
	if (!n || n >= sizeof(num))
		return parm_errf(err, &v->loc,
				 "invalid histogram bound '%s'; expected a time such "
				 "as 100u, 1m or 2s",
				 t);
	memcpy(num, t, n);
	num[n] = '\0';
	if (parm_num_parse(num, PARM_UNIT_PLAIN, &x) || x.is_pct || x.value <= 0)
		return parm_errf(err, &v->loc,
				 "invalid histogram bound '%s'; expected a time such "
				 "as 100u, 1m or 2s",
				 t);
	*out_us = (uint64_t)(x.value * scale);
	return 0;
}

static int set_histogram(struct parm_general *g, const struct parm_val *v, struct parm_err *err)
{
	size_t first = 0, nr;

	if (v->kind != PARM_VAL_LIST || v->nr_items < 2 || strcasecmp(v->items[0].text, "default"))
		return parm_errf(err, &v->loc, "invalid histogram=%s; expected (default,bound,...)",
				 v->text);
	first = 1;
	nr = v->nr_items - first;
	if (nr > 64)
		return parm_errf(err, &v->loc, "histogram=%s has %zu buckets; expected at most 64",
				 v->text, nr);
	g->histogram_us = calloc(nr, sizeof(*g->histogram_us));
	if (!g->histogram_us)
		return -ENOMEM;
	g->nr_histogram = nr;
	for (size_t i = 0; i < nr; i++) {
		int ret = histogram_bound(&v->items[first + i], &g->histogram_us[i], err);

		if (ret)
			return ret;
		if (i && g->histogram_us[i] <= g->histogram_us[i - 1])
			return parm_errf(err, &v->items[first + i].loc,
					 "histogram bounds must "
					 "increase; %s is not above the previous bound",
					 v->items[first + i].text);
	}
	return 0;
}

static int set_engine(struct parm_general *g, const struct parm_val *v, struct parm_err *err)
{
	static const char *const engines[] = { "uring", "aio", "sync", "null" };
	const char *w = NULL;
	int ret = parm_get_word(v, "engine", &w, err);

	if (ret)
		return ret;
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(engines); i++) {
		if (!strcasecmp(w, engines[i])) {
			g->engine = strdup(engines[i]);
			return g->engine ? 0 : -ENOMEM;
		}
	}
	return parm_errf(err, &v->loc, "invalid engine=%s; expected uring, aio, sync or null", w);
}

static int general_one(struct parm_general *g, enum parm_kw kw, const struct parm_val *v,
		       struct parm_err *err)
{
	switch (kw) {
	case PARM_KW_COMPRATIO:
		return parm_get_double(v, PARM_UNIT_PLAIN, 1, 25, "compratio", &g->compratio, err);
	case PARM_KW_DATA_ERRORS:
		if (v->kind == PARM_VAL_WORD &&
		    parm_num_parse(v->text, PARM_UNIT_PLAIN, &(struct parm_num){ 0 }))
			return 0; /* a command or "remove" */
		if (v->kind == PARM_VAL_LIST)
			return 0;
		return parm_get_u32(v, 0, UINT32_MAX, "data_errors", &g->data_errors, err);
	case PARM_KW_CONCATENATESDS:
		return parm_get_yesno(v, "concatenatesds", &g->concatenatesds, err);
	case PARM_KW_FORMATSDS:
		return parm_get_yesno(v, "formatsds", &g->formatsds, err);
	case PARM_KW_FORMATXFERSIZE:
		return parm_get_u64(v, PARM_UNIT_BYTES, 512, 1ull << 30, "formatxfersize",
				    &g->formatxfersize_bytes, err);
	case PARM_KW_HISTOGRAM:
		return set_histogram(g, v, err);
	case PARM_KW_ENGINE:
		return set_engine(g, v, err);
	case PARM_KW_PORT:
	case PARM_KW_IOS_PER_JVM:
	case PARM_KW_ABORT_FAILED_SKEW: {
		double d;

		return parm_get_double(v, PARM_UNIT_PLAIN, 0, 1e12, parm_kw_name(kw), &d, err);
	}
	default:
		return 0; /* kept in the kwset as written */
	}
}

int parm_apply_general(struct parm_config *cfg, const struct parm_kwset *set, struct parm_err *err)
{
	struct parm_general *g = &cfg->general;

	g->compratio = 1;
	g->data_errors = 50;
	g->formatxfersize_bytes = 128 * 1024;
	for (int kw = 0; kw < PARM_KW_NR; kw++) {
		int ret;

		if (!set->val[kw])
			continue;
		ret = general_one(g, (enum parm_kw)kw, set->val[kw], err);
		if (ret)
			return ret;
	}
	return 0;
}

int parm_apply_hd(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_err *err)
{
	struct parm_hd *hd;
	const struct parm_val *v;
	int ret = 0;

	if (parm_grow((void **)&cfg->hds, cfg->nr_hds, sizeof(*cfg->hds)))
		return -ENOMEM;
	hd = &cfg->hds[cfg->nr_hds++];
	memset(hd, 0, sizeof(*hd));
	hd->set = def->set;
	hd->loc = def->loc;
	hd->name = strdup(def->name);
	if (!hd->name)
		return -ENOMEM;
	hd->jvms = 0;
	if ((v = def->set.val[PARM_KW_SYSTEM])) {
		const char *w = NULL;

		ret = parm_get_word(v, "system", &w, err);
		if (!ret && !(hd->system = strdup(w)))
			ret = -ENOMEM;
	}
	if (!ret && (v = def->set.val[PARM_KW_JVMS]))
		ret = parm_get_u32(v, 1, 64, "jvms", &hd->jvms, err);
	if (!ret && (v = def->set.val[PARM_KW_CLIENTS]))
		ret = parm_get_u32(v, 1, 10000, "clients", &hd->clients, err);
	if (!ret && (v = def->set.val[PARM_KW_SHELL])) {
		const char *w = NULL;

		ret = parm_get_word(v, "shell", &w, err);
		if (!ret && strcasecmp(w, "rsh") && strcasecmp(w, "ssh") &&
		    strcasecmp(w, "vdbench"))
			ret = parm_errf(err, &v->loc,
					"invalid shell=%s; expected rsh, ssh or "
					"vdbench",
					w);
	}
	return ret;
}
