/* An RD's rates (tests/parm/FINDINGS.md §1.1, §8): iorate= values (numbers, max, curve, N% or a
 * bare -N for a rate relative to the previous run), the last list of two or more values as the
 * innermost loop, the first value of the last iorate= as the -s "I/O rate:", and
 * distribution= with its variable (rate,seconds) list. */
#include "build.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VARIABLE_SECONDS 3600

/* One number as a rate: N% or a bare -N is relative ([075]). */
static struct parm_rate rate_of(const struct parm_num *n)
{
	double v = parm_num_signed(n);

	if (v < 0)
		return (struct parm_rate){ PARM_RATE_REL, -v };
	return (struct parm_rate){ PARM_RATE_FIXED, v };
}

static bool is_word(const struct parm_val *v, const char *w)
{
	return v->kind == PARM_VAL_WORD && !strcasecmp(v->text, w);
}

/* iorate=(curve,...): VDbench 5.04.07 runs the curve and ignores the rest when "curve" (lower
 * case) comes first and the others are numbers or max (observed: (curve,100), (curve,max,max),
 * (curve,50%)); a second curve or another word it refuses, as it refuses (100,curve) ([101]). */
static bool is_leading_curve(const struct parm_val *v)
{
	if (v->nr_items < 2 || strcmp(v->items[0].text, "curve"))
		return false;
	for (size_t i = 1; i < v->nr_items; i++)
		if (!is_word(&v->items[i], "max") && !parm_num_looks_numeric(v->items[i].text))
			return false;
	return true;
}

/* A list holding max: numbers and max only; curve mixes with nothing ([101]). */
static int rate_words(const struct parm_val *v, struct parm_rate *r, struct parm_err *err)
{
	if (is_leading_curve(v)) {
		r[0] = (struct parm_rate){ PARM_RATE_CURVE, 0 };
		return 1;
	}
	for (size_t i = 0; i < v->nr_items; i++) {
		const struct parm_val *it = &v->items[i];
		struct parm_num n;

		if (is_word(it, "max"))
			r[i] = (struct parm_rate){ PARM_RATE_MAX, 0 };
		else if (is_word(it, "curve") && v->nr_items == 1)
			r[i] = (struct parm_rate){ PARM_RATE_CURVE, 0 };
		else if (is_word(it, "curve"))
			return parm_errf(err, &it->loc,
					 "iorate=%s: curve must be alone; expected iorate=curve "
					 "and the points in curve=",
					 v->text);
		else if (!parm_num_parse(it->text, PARM_UNIT_PLAIN, &n))
			r[i] = rate_of(&n);
		else
			return parm_errf(err, &it->loc,
					 "iorate=%s: '%s' is not a rate; expected numbers, max, "
					 "curve or N%%",
					 v->text, it->text);
	}
	return (int)v->nr_items;
}

static bool has_word(const struct parm_val *v)
{
	for (size_t i = 0; i < v->nr_items; i++)
		if (is_word(&v->items[i], "max") || is_word(&v->items[i], "curve"))
			return true;
	return false;
}

/* iorate=n, (n,n,...), (lo-hi,step), max, curve, N%, (max,50%). *out is malloc'ed. */
int parm_rd_rates(const struct parm_val *v, struct parm_rate **out, struct parm_err *err)
{
	struct parm_num *n = NULL;
	struct parm_rate *r;
	int nr;

	if (is_word(v, "max") || is_word(v, "curve") || (v->kind == PARM_VAL_LIST && has_word(v))) {
		size_t cap = v->kind == PARM_VAL_LIST ? v->nr_items : 1;

		r = calloc(cap ? cap : 1, sizeof(*r));
		if (!r)
			return -ENOMEM;
		if (v->kind == PARM_VAL_WORD) {
			r[0].kind = is_word(v, "max") ? PARM_RATE_MAX : PARM_RATE_CURVE;
			nr = 1;
		} else {
			nr = rate_words(v, r, err);
		}
		if (nr < 0)
			free(r);
		else
			*out = r;
		return nr;
	}
	nr = parm_val_numbers(v, PARM_UNIT_PLAIN, "iorate", &n, err);
	if (nr < 0)
		return nr;
	r = calloc(nr ? (size_t)nr : 1, sizeof(*r));
	for (int i = 0; r && i < nr; i++)
		r[i] = rate_of(&n[i]);
	free(n);
	if (!r)
		return -ENOMEM;
	*out = r;
	return nr;
}

/* distribution=exponential|uniform|deterministic, variable, spike, each by any prefix ([208], [210],
 * [284]). */
int parm_rd_distribution(struct parm_rd *rd, const struct parm_val *v, struct parm_err *err)
{
	static const char *const dists[] = { "exponential", "uniform", "deterministic" };
	size_t nr = v->kind == PARM_VAL_LIST ? v->nr_items : 1;

	for (size_t i = 0; i < nr; i++) {
		const struct parm_val *w = v->kind == PARM_VAL_LIST ? &v->items[i] : v;
		size_t len = strlen(w->text);
		bool is_known = false;

		for (size_t d = 0; d < IORAMP_ARRAY_SIZE(dists) && !is_known; d++)
			if (len && !strncasecmp(dists[d], w->text, len)) {
				rd->distribution = (enum parm_dist)d;
				is_known = true;
			}
		if (len && !strncasecmp("variable", w->text, len)) /* va, v [284] */
			is_known = rd->is_variable = true;
		else if (len && !strncasecmp("spike", w->text, len)) /* sp, s [284] */
			is_known = rd->is_spike = true;
		if (!is_known)
			return parm_errf(
				err, &w->loc,
				"invalid distribution=%s; expected exponential, uniform or "
				"deterministic, optionally with variable or spike",
				w->text);
	}
	return 0;
}

/* variable or spike: the rates are (rate,seconds) pairs, at most 3600 seconds ([206-209]). */
int parm_rd_check_variable(const struct parm_rd *rd, struct parm_err *err)
{
	const struct parm_val *v = rd->set.val[PARM_KW_IORATE_LIST];
	const struct parm_val *d = rd->set.val[PARM_KW_DISTRIBUTION];
	double seconds = 0;

	if (!rd->is_variable && !rd->is_spike)
		return 0;
	if (!v || rd->nr_rates < 2)
		return parm_errf(err, d ? &d->loc : &rd->loc,
				 "rd=%s: distribution=variable needs iorate=(rate,seconds,...) "
				 "pairs",
				 rd->name);
	if (rd->nr_rates % 2)
		return parm_errf(err, &v->loc,
				 "rd=%s: iorate=%s has an odd number of values; expected "
				 "(rate,seconds) pairs for distribution=variable",
				 rd->name, v->text);
	for (size_t i = 1; i < rd->nr_rates; i += 2)
		seconds += rd->rates[i].value;
	if (seconds > MAX_VARIABLE_SECONDS)
		return parm_errf(err, &v->loc,
				 "rd=%s: iorate=%s lasts %g seconds; a variable rate list may last "
				 "at most %d",
				 rd->name, v->text, seconds, MAX_VARIABLE_SECONDS);
	return 0;
}
