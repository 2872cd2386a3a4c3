/* References to definitions by name (reference §1.3): plain names, name ranges (sd1-sd8, a
 * common prefix and a numeric suffix, no leading zeros) and '*' wildcards (sd*, *). */
#include "ioramp/parm.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct name_table {
	const char *kind; /* "sd" or "wd" */
	size_t nr;
	const char *(*name)(const struct parm_config *cfg, size_t i);
};

static const char *sd_name(const struct parm_config *cfg, size_t i)
{
	return cfg->sds[i].name;
}

static const char *wd_name(const struct parm_config *cfg, size_t i)
{
	return cfg->wds[i].name;
}

static bool wild_match(const char *pat, const char *s)
{
	if (!*pat)
		return !*s;
	if (*pat == '*') {
		for (;; s++) {
			if (wild_match(pat + 1, s))
				return true;
			if (!*s)
				return false;
		}
	}
	return *s && *pat == *s && wild_match(pat + 1, s + 1);
}

struct idx_list {
	size_t *v;
	size_t nr;
};

static int idx_add(struct idx_list *l, size_t idx)
{
	size_t *n;

	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i] == idx)
			return 0;
	n = realloc(l->v, (l->nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	l->v = n;
	l->v[l->nr++] = idx;
	return 0;
}

static int find_name(const struct parm_config *cfg, const struct name_table *t, const char *s)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->name(cfg, i), s))
			return (int)i;
	return -ENOENT;
}

/* "sd1-sd8": prefix and numbers. Returns false when the text is not a name range. */
static bool split_range(const char *s, char *prefix, size_t cap, unsigned long *lo,
			unsigned long *hi)
{
	const char *dash = strchr(s, '-');
	size_t plen = 0;
	char *end;

	if (!dash || dash == s)
		return false;
	while (plen < (size_t)(dash - s) && !isdigit((unsigned char)s[plen]))
		plen++;
	if (plen == 0 || plen == (size_t)(dash - s) || plen >= cap)
		return false;
	if (strncmp(s, dash + 1, plen))
		return false;
	memcpy(prefix, s, plen);
	prefix[plen] = '\0';
	*lo = strtoul(s + plen, &end, 10);
	if (end != dash)
		return false;
	*hi = strtoul(dash + 1 + plen, &end, 10);
	return !*end && *lo <= *hi && *hi - *lo < 100000;
}

static int resolve_one(const struct parm_config *cfg, const struct name_table *t, const char *s,
		       const struct parm_loc *loc, struct idx_list *l, struct parm_err *err)
{
	char prefix[128], name[160];
	unsigned long lo, hi;
	int idx, ret = 0;
	bool any = false;

	if (strchr(s, '*')) {
		for (size_t i = 0; !ret && i < t->nr; i++)
			if (wild_match(s, t->name(cfg, i))) {
				any = true;
				ret = idx_add(l, i);
			}
		if (!ret && !any)
			return parm_errf(err, loc,
					 "%s=%s matches no %s; expected a defined %s name", t->kind,
					 s, t->kind, t->kind);
		return ret;
	}
	if (split_range(s, prefix, sizeof(prefix), &lo, &hi)) {
		for (unsigned long k = lo; !ret && k <= hi; k++) {
			snprintf(name, sizeof(name), "%s%lu", prefix, k);
			idx = find_name(cfg, t, name);
			if (idx < 0)
				return parm_errf(err, loc, "%s=%s: %s=%s is not defined", t->kind,
						 s, t->kind, name);
			ret = idx_add(l, (size_t)idx);
		}
		return ret;
	}
	idx = find_name(cfg, t, s);
	if (idx < 0)
		return parm_errf(err, loc, "could not find %s=%s; expected a defined %s name",
				 t->kind, s, t->kind);
	return idx_add(l, (size_t)idx);
}

static int resolve(const struct parm_config *cfg, const struct name_table *t, char *const *names,
		   size_t nr, const struct parm_loc *loc, size_t **out, struct parm_err *err)
{
	struct idx_list l = { 0 };

	for (size_t i = 0; i < nr; i++) {
		int ret = resolve_one(cfg, t, names[i], loc, &l, err);

		if (ret) {
			free(l.v);
			return ret;
		}
	}
	*out = l.v;
	return (int)l.nr;
}

int parm_sd_resolve(const struct parm_config *cfg, char *const *names, size_t nr,
		    const struct parm_loc *loc, size_t **out, struct parm_err *err)
{
	struct name_table t = { "sd", cfg->nr_sds, sd_name };

	return resolve(cfg, &t, names, nr, loc, out, err);
}

int parm_wd_resolve(const struct parm_config *cfg, char *const *names, size_t nr,
		    const struct parm_loc *loc, size_t **out, struct parm_err *err)
{
	struct name_table t = { "wd", cfg->nr_wds, wd_name };

	return resolve(cfg, &t, names, nr, loc, out, err);
}

int parm_wd_find(const struct parm_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nr_wds; i++)
		if (!strcmp(cfg->wds[i].name, name))
			return (int)i;
	return -ENOENT;
}
