/* Numbers as VDbench writes them (reference §1.3): k/m/g/t suffixes (kb/mb/gb too), h for hours,
 * m for minutes on time values, a trailing % for percentages, and the list forms: explicit
 * lists, ranges (1-10,1), doubling (1-64,d) and halving (64-1,d). */
#include "ioramp/parm.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LIST_VALUES 100000 /* a range that expands beyond this is a mistake */

static double suffix_scale(char s, enum parm_unit unit)
{
	switch (tolower((unsigned char)s)) {
	case 'k':
		return 1024.0;
	case 'm':
		return unit == PARM_UNIT_TIME ? 60.0 : 1024.0 * 1024;
	case 'g':
		return 1024.0 * 1024 * 1024;
	case 't':
		return 1024.0 * 1024 * 1024 * 1024;
	case 'h':
		return 3600.0;
	case 's':
		return unit == PARM_UNIT_TIME ? 1.0 : 0.0;
	default:
		return 0.0;
	}
}

int parm_num_parse(const char *text, enum parm_unit unit, struct parm_num *out)
{
	const char *p = text;
	char *end;
	double v, scale = 1.0;

	if (!text || !*text)
		return -EINVAL;
	/* strtod would accept hex, inf and nan; VDbench numbers are plain decimals */
	if (!isdigit((unsigned char)*p) && *p != '.' && *p != '-' && *p != '+')
		return -EINVAL;
	for (p = text + 1; *p; p++)
		if (*p == 'x' || *p == 'X' || *p == 'n' || *p == 'N' || *p == 'p' || *p == 'P')
			return -EINVAL;
	v = strtod(text, &end);
	if (end == text || !isfinite(v))
		return -EINVAL;
	out->is_pct = false;
	if (*end && *end != '%') {
		scale = suffix_scale(*end, unit);
		if (scale == 0.0)
			return -EINVAL;
		end++;
		if (tolower((unsigned char)*end) == 'b' && tolower((unsigned char)end[-1]) != 'h' &&
		    tolower((unsigned char)end[-1]) != 's')
			end++; /* kb, mb, gb, tb */
	}
	if (*end == '%') {
		out->is_pct = true;
		end++;
	}
	if (*end)
		return -EINVAL;
	out->value = v * scale;
	if (!isfinite(out->value))
		return -EINVAL;
	return 0;
}

static bool looks_numeric(const char *s)
{
	return isdigit((unsigned char)s[0]) || s[0] == '.' ||
	       ((s[0] == '-' || s[0] == '+') && (isdigit((unsigned char)s[1]) || s[1] == '.'));
}

/* "4k-32k" splits at the '-' that is not a sign. Returns the position or 0. */
static size_t range_dash(const char *s)
{
	for (size_t i = 1; s[0] && s[i]; i++)
		if (s[i] == '-' && s[i - 1] != 'e' && s[i - 1] != 'E')
			return i;
	return 0;
}

struct num_list {
	struct parm_num *v;
	size_t nr;
	size_t cap;
};

static int num_list_add(struct num_list *l, double v, bool is_pct)
{
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct parm_num *n;

		if (cap > MAX_LIST_VALUES)
			return -E2BIG;
		n = realloc(l->v, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		l->v = n;
		l->cap = cap;
	}
	l->v[l->nr].value = v;
	l->v[l->nr++].is_pct = is_pct;
	return 0;
}

static int parse_one(const struct parm_val *v, enum parm_unit unit, struct parm_num *n,
		     struct parm_err *err)
{
	if (v->kind != PARM_VAL_WORD || parm_num_parse(v->text, unit, n))
		return parm_errf(err, &v->loc,
				 "invalid number '%s'; expected a number such as "
				 "8, 4k, 1.5 or 50%%",
				 v->text);
	return 0;
}

/* (lo-hi,step), (lo-hi,d): the VDbench range forms. */
static int expand_range(const struct parm_val *v, enum parm_unit unit, struct num_list *l,
			struct parm_err *err)
{
	const struct parm_val *r = &v->items[0], *step = &v->items[1];
	size_t dash = range_dash(r->text);
	char lo_text[64];
	struct parm_num lo, hi, st;
	int ret = 0;

	if (dash >= sizeof(lo_text))
		return parm_errf(err, &r->loc, "invalid range '%s'", r->text);
	memcpy(lo_text, r->text, dash);
	lo_text[dash] = '\0';
	if (parm_num_parse(lo_text, unit, &lo) || parm_num_parse(r->text + dash + 1, unit, &hi))
		return parm_errf(err, &r->loc,
				 "invalid range '%s'; expected (from-to,step) or "
				 "(from-to,d)",
				 r->text);
	if (step->kind == PARM_VAL_WORD && !strcasecmp(step->text, "d")) {
		if (lo.value <= 0 || hi.value <= 0)
			return parm_errf(err, &r->loc,
					 "invalid range '%s'; doubling needs values "
					 "above zero",
					 r->text);
		if (lo.value <= hi.value)
			for (double x = lo.value; !ret && x <= hi.value * (1 + 1e-12); x *= 2)
				ret = num_list_add(l, x, lo.is_pct);
		else
			for (double x = lo.value; !ret && x >= hi.value * (1 - 1e-12); x /= 2)
				ret = num_list_add(l, x, lo.is_pct);
		return ret;
	}
	ret = parse_one(step, unit, &st, err);
	if (ret)
		return ret;
	if (st.value <= 0)
		return parm_errf(err, &step->loc,
				 "invalid range step '%s'; expected a step above "
				 "zero or 'd'",
				 step->text);
	if (lo.value > hi.value)
		return parm_errf(err, &r->loc,
				 "invalid range '%s'; a stepped range counts up, "
				 "use (from-to,d) to halve",
				 r->text);
	if ((hi.value - lo.value) / st.value > MAX_LIST_VALUES)
		return parm_errf(err, &r->loc, "range '%s' has too many values", r->text);
	for (size_t i = 0; !ret; i++) {
		double x = lo.value + (double)i * st.value;

		if (x > hi.value + st.value * 1e-9)
			break;
		ret = num_list_add(l, x, lo.is_pct);
	}
	return ret;
}

static bool is_range_form(const struct parm_val *v)
{
	const struct parm_val *a;

	if (v->kind != PARM_VAL_LIST || v->nr_items != 2)
		return false;
	a = &v->items[0];
	return a->kind == PARM_VAL_WORD && looks_numeric(a->text) && range_dash(a->text);
}

/* VDbench rejects a set that mixes numbers and words ("Mix of alpha and numeric values"). */
static int check_all_numeric(const struct parm_val *v, struct parm_err *err)
{
	bool has_num = false, has_alpha = false;

	for (size_t i = 0; i < v->nr_items; i++) {
		const struct parm_val *it = &v->items[i];

		if (it->kind != PARM_VAL_WORD)
			return parm_errf(err, &it->loc, "nested list '%s' not allowed here",
					 it->text);
		if (looks_numeric(it->text))
			has_num = true;
		else
			has_alpha = true;
	}
	if (has_num && has_alpha)
		return parm_errf(err, &v->loc,
				 "mix of alpha and numeric values not allowed in %s; "
				 "expected numbers only",
				 v->text);
	return 0;
}

int parm_val_numbers(const struct parm_val *v, enum parm_unit unit, struct parm_num **out,
		     struct parm_err *err)
{
	struct num_list l = { 0 };
	int ret = 0;

	if (v->kind == PARM_VAL_WORD) {
		struct parm_num n;

		ret = parse_one(v, unit, &n, err);
		if (!ret)
			ret = num_list_add(&l, n.value, n.is_pct);
	} else if (is_range_form(v)) {
		ret = expand_range(v, unit, &l, err);
	} else {
		ret = check_all_numeric(v, err);
		for (size_t i = 0; !ret && i < v->nr_items; i++) {
			struct parm_num n;

			if (range_dash(v->items[i].text) && looks_numeric(v->items[i].text))
				ret = parm_errf(err, &v->items[i].loc,
						"range '%s' must be followed "
						"by a step: (from-to,step) or (from-to,d)",
						v->items[i].text);
			else
				ret = parse_one(&v->items[i], unit, &n, err);
			if (!ret)
				ret = num_list_add(&l, n.value, n.is_pct);
		}
	}
	if (!ret && !l.nr)
		ret = parm_errf(err, &v->loc, "empty list; expected at least one value");
	if (ret) {
		if (ret == -E2BIG)
			ret = parm_errf(err, &v->loc, "list %s has too many values", v->text);
		else if (ret == -ENOMEM)
			parm_errf(err, &v->loc, "out of memory");
		free(l.v);
		return ret;
	}
	*out = l.v;
	return (int)l.nr;
}

int parm_val_words(const struct parm_val *v, const char ***out, struct parm_err *err)
{
	const char **w;
	size_t nr = v->kind == PARM_VAL_WORD ? 1 : v->nr_items;

	w = calloc(nr ? nr : 1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	if (v->kind == PARM_VAL_WORD) {
		w[0] = v->text;
	} else {
		for (size_t i = 0; i < nr; i++) {
			if (v->items[i].kind != PARM_VAL_WORD) {
				free(w);
				return parm_errf(err, &v->items[i].loc,
						 "nested list '%s' not "
						 "allowed here",
						 v->items[i].text);
			}
			w[i] = v->items[i].text;
		}
	}
	*out = w;
	return (int)nr;
}
