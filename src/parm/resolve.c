/* References to definitions by name (tests/parm/FINDINGS.md §7): plain names (case-sensitive),
 * name ranges (sd1-sd8) only inside parentheses, where the first name is kept as written and the
 * others are the alphabetic part plus an unpadded number, a trailing '*' as a prefix wildcard and
 * '*' alone for all. A definition requested twice is an error. */
#include "ioramp/parm.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAME_RANGE 100000

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

/* The indexes found so far; seen[] flags the definitions already requested. */
struct idx_list {
	size_t *v;
	size_t nr;
	bool *seen;
};

struct resolver {
	const struct parm_config *cfg;
	const struct name_table *t;
	const char *owner;
	struct parm_err *err;
	struct idx_list l;
};

static int idx_add(struct resolver *r, size_t idx, const struct parm_loc *loc)
{
	size_t *n;

	if (r->l.seen[idx])
		return parm_errf(r->err, loc,
				 "%s=%s is requested more than once in %s; expected each "
				 "%s once",
				 r->t->kind, r->t->name(r->cfg, idx), r->owner, r->t->kind);
	if (!(r->l.nr & (r->l.nr - 1))) { /* 0, 1, 2, 4, ...: double */
		n = realloc(r->l.v, (r->l.nr ? 2 * r->l.nr : 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		r->l.v = n;
	}
	r->l.v[r->l.nr++] = idx;
	r->l.seen[idx] = true;
	return 0;
}

static int find_name(const struct resolver *r, const char *s)
{
	for (size_t i = 0; i < r->t->nr; i++)
		if (!strcmp(r->t->name(r->cfg, i), s))
			return (int)i;
	return -ENOENT;
}

static int not_found(const struct resolver *r, const char *s, const struct parm_loc *loc)
{
	return parm_errf(r->err, loc, "could not find %s=%s for %s; expected a defined %s name",
			 r->t->kind, s, r->owner, r->t->kind);
}

static int add_name(struct resolver *r, const char *s, const struct parm_loc *loc)
{
	int idx = find_name(r, s);

	return idx < 0 ? not_found(r, s, loc) : idx_add(r, (size_t)idx, loc);
}

/* "sd*": every name that starts with "sd"; "*": every name. */
static int add_wildcard(struct resolver *r, const char *s, const struct parm_loc *loc)
{
	size_t n = strlen(s) - 1, before = r->l.nr;
	int ret = 0;

	for (size_t i = 0; !ret && i < r->t->nr; i++)
		if (!strncmp(r->t->name(r->cfg, i), s, n))
			ret = idx_add(r, i, loc);
	if (!ret && r->l.nr == before)
		return not_found(r, s, loc);
	return ret;
}

/* Splits "sd01" into its alphabetic part (length) and its trailing number; false without one. */
static bool trailing_number(const char *s, size_t len, size_t *alpha_len, unsigned long *nr)
{
	size_t i = len;

	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	if (i == len || len - i > 9)
		return false;
	*alpha_len = i;
	*nr = strtoul(s + i, NULL, 10);
	return true;
}

/* (sd1-sd3) inside parentheses; returns 1 when s is not a name range. */
static int add_range(struct resolver *r, const char *s, const struct parm_loc *loc)
{
	const char *dash = strchr(s, '-');
	char first[160];
	size_t la, ra;
	unsigned long lo, hi;
	int ret;

	if (!dash || !trailing_number(s, (size_t)(dash - s), &la, &lo) ||
	    !trailing_number(dash + 1, strlen(dash + 1), &ra, &hi))
		return 1;
	if (la != ra || strncmp(s, dash + 1, la))
		return parm_errf(
			r->err, loc,
			"name range %s: the alphabetic parts differ; expected a range such "
			"as %.*s1-%.*s8",
			s, (int)la, s, (int)la, s);
	if (lo > hi || hi - lo > MAX_NAME_RANGE)
		return parm_errf(r->err, loc,
				 "name range %s: the numbers must count up (at most %d names); "
				 "expected a range such as %.*s%lu-%.*s%lu",
				 s, MAX_NAME_RANGE, (int)la, s, hi, (int)la, s, lo);
	snprintf(first, sizeof(first), "%.*s", (int)(dash - s), s);
	ret = add_name(r, first, loc);
	for (unsigned long k = lo + 1; !ret && k <= hi; k++) {
		char name[160];

		snprintf(name, sizeof(name), "%.*s%lu", (int)la, s, k);
		ret = add_name(r, name, loc);
	}
	return ret;
}

static int resolve_one(struct resolver *r, const char *s, bool is_listed,
		       const struct parm_loc *loc)
{
	size_t n = strlen(s);
	int ret;

	if (n && s[n - 1] == '*')
		return add_wildcard(r, s, loc);
	if (is_listed) {
		ret = add_range(r, s, loc);
		if (ret <= 0)
			return ret;
	}
	return add_name(r, s, loc);
}

static int resolve(const struct parm_config *cfg, const struct name_table *t,
		   const struct parm_val *v, const char *owner, size_t **out, struct parm_err *err)
{
	struct resolver r = { .cfg = cfg, .t = t, .owner = owner, .err = err };
	size_t nr = v->kind == PARM_VAL_LIST ? v->nr_items : 1;
	int ret = 0;

	r.l.seen = calloc(t->nr ? t->nr : 1, sizeof(*r.l.seen));
	if (!r.l.seen)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < nr; i++) {
		const struct parm_val *w = v->kind == PARM_VAL_LIST ? &v->items[i] : v;

		/* quotes protect a '-' ([009]): "sd1-sd3" is one name */
		ret = resolve_one(&r, w->text, v->kind == PARM_VAL_LIST && !w->is_quoted, &w->loc);
	}
	free(r.l.seen);
	if (!ret && !r.l.nr)
		ret = parm_errf(err, &v->loc, "%s=%s names no %s; expected at least one name",
				t->kind, v->text, t->kind);
	if (ret) {
		free(r.l.v);
		return ret == -ENOMEM ? parm_errf(err, &v->loc, "out of memory"), -ENOMEM : ret;
	}
	*out = r.l.v;
	return (int)r.l.nr;
}

int parm_sd_resolve(const struct parm_config *cfg, const struct parm_val *v, const char *owner,
		    size_t **out, struct parm_err *err)
{
	struct name_table t = { "sd", cfg->nr_sds, sd_name };

	return resolve(cfg, &t, v, owner, out, err);
}

int parm_wd_resolve(const struct parm_config *cfg, const struct parm_val *v, const char *owner,
		    size_t **out, struct parm_err *err)
{
	struct name_table t = { "wd", cfg->nr_wds, wd_name };

	return resolve(cfg, &t, v, owner, out, err);
}

int parm_wd_find(const struct parm_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nr_wds; i++)
		if (!strcmp(cfg->wds[i].name, name))
			return (int)i;
	return -ENOENT;
}
