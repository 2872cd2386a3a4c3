/* Numeric lists as VDbench 5.04.07 expands them (tests/parm/FINDINGS.md §5, §6): single values,
 * ranges (from-to,step) that take the next item as their step (a descending range without one is
 * its from value alone), doubling and halving (from-to,d) mixed freely with single values, and
 * the quirks of negative numbers inside parentheses: a leading -N is the two values 0 and N with
 * the list cut to its written length, a later one ends the list. A set mixing numbers and words
 * is refused. */
#include "ioramp/parm.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_LIST_VALUES 100000 /* a range that expands beyond this is a mistake */

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

		if (l->nr >= MAX_LIST_VALUES)
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

/* "4k-32k" splits at a '-' that is neither a leading sign nor an exponent's sign. */
static size_t range_dash(const char *s)
{
	for (size_t i = 1; s[0] && s[i]; i++)
		if (s[i] == '-' && s[i - 1] != 'e' && s[i - 1] != 'E')
			return i;
	return 0;
}

static bool is_range_item(const char *s)
{
	return s[0] != '-' && parm_num_looks_numeric(s) && range_dash(s);
}

static int bad_number(const struct parm_val *it, const char *what, struct parm_err *err)
{
	return parm_errf(err, &it->loc,
			 "invalid number '%s' in %s=%s; expected a number such as 8, 4k, 1.5 or "
			 "50%%",
			 it->text, what, it->is_quoted ? " (quotes make one word of it)" : "");
}

static int parse_item(const struct parm_val *it, enum parm_unit unit, const char *what,
		      struct parm_num *n, struct parm_err *err)
{
	if (parm_num_parse(it->text, unit, n))
		return bad_number(it, what, err);
	return 0;
}

/* Whether item i counts as a number: one, or the 'd' of a (from-to,d) range, written "a-b" or
 * as a later "-b" item that makes a range of the item before it. */
static bool is_num_item(const struct parm_val *v, size_t i)
{
	const char *t = v->items[i].text;

	return parm_num_looks_numeric(t) ||
	       (!strcmp(t, "d") && i &&
		(is_range_item(v->items[i - 1].text) || (i > 1 && v->items[i - 1].text[0] == '-')));
}

/* The first word that is not a number item; *nr_num counts the number items. */
static const struct parm_val *first_alpha(const struct parm_val *v, size_t *nr_num)
{
	const struct parm_val *alpha = NULL;

	*nr_num = 0;
	for (size_t i = 0; i < v->nr_items; i++) {
		if (is_num_item(v, i))
			(*nr_num)++;
		else if (!alpha)
			alpha = &v->items[i];
	}
	return alpha;
}

static int check_all_numeric(const struct parm_val *v, const char *what, struct parm_err *err)
{
	size_t nr_num;
	const struct parm_val *alpha = first_alpha(v, &nr_num);

	if (!alpha)
		return 0;
	if (nr_num) /* at the list: an open list can swallow the next line ([016]) */
		return parm_errf(err, &v->loc,
				 "mix of alpha and numeric values not allowed in %s=%s: '%s'; "
				 "expected numbers only",
				 what, v->text, alpha->text);
	return parm_errf(err, &alpha->loc, "%s=%s: '%s' is not a number; expected numbers", what,
			 v->text, alpha->text);
}

/* (lo-hi,d): doubling while <= hi, or halving while >= hi. */
static int expand_doubling(const struct parm_val *r, double lo, double hi, bool is_pct,
			   struct num_list *l, struct parm_err *err)
{
	int ret = 0;

	if (!(lo > 0 && hi > 0))
		return parm_errf(err, &r->loc,
				 "invalid range '%s'; doubling and halving need values above zero",
				 r->text);
	if (lo <= hi)
		for (double x = lo; !ret && x <= hi; x *= 2)
			ret = num_list_add(l, x, is_pct);
	else
		for (double x = lo; !ret && x >= hi; x /= 2)
			ret = num_list_add(l, x, is_pct);
	return ret;
}

/* (lo-hi,step): lo, lo+step, ... while <= hi; lo alone when hi < lo. */
static int expand_stepped(const struct parm_val *r, const struct parm_val *step, double lo,
			  double hi, bool is_pct, struct num_list *l, struct parm_err *err)
{
	struct parm_num st;
	int ret = 0;

	if (parm_num_parse(step->text, PARM_UNIT_PLAIN, &st) || st.is_pct)
		return parm_errf(err, &step->loc,
				 "invalid range step '%s' after '%s'; expected a number or 'd'",
				 step->text, r->text);
	if (!(st.value > 0))
		return parm_errf(err, &step->loc,
				 "invalid range step '%s'; expected a step above zero", step->text);
	if ((hi - lo) / st.value > MAX_LIST_VALUES)
		return -E2BIG;
	ret = num_list_add(l, lo, is_pct);
	for (double x = lo + st.value; !ret && x <= hi; x += st.value)
		ret = num_list_add(l, x, is_pct);
	return ret;
}

/* A list read as VDbench 5.04.07 reads it (FINDINGS §5, §6; observed): as tokens, where "a-b"
 * is the value a and a range end b, and a later "-b" item is a range end for the item before it,
 * so (10,-50,10) is (10-50,10). A range takes the token after its end as its step, even past the
 * last token that may start an item. A leading "-N" is the two values 0 and N, and then one
 * token less may start an item: (-1,0,100,50,1.5) is 0,1,0,100,50 ([076]) while
 * (-10,20,-40,10) is 0,10,20,30,40. */
enum tok_kind {
	TOK_NUM,
	TOK_TO, /* a range's end */
	TOK_D,	/* doubling or halving */
};

struct tok {
	enum tok_kind kind;
	const struct parm_val *it; /* the item it was written in */
	struct parm_num n;
};

struct toks {
	struct tok *v;
	size_t nr;
	size_t nr_start; /* only tokens below this start an item */
};

static int tok_item(const struct parm_val *it, size_t i, enum parm_unit unit, const char *what,
		    struct tok *t, size_t *nr, struct parm_err *err)
{
	const char *s = it->text;
	size_t dash = range_dash(s);
	char lo_text[72];

	if (!strcmp(s, "d") && i) {
		t[(*nr)++] = (struct tok){ TOK_D, it, { 0, false } };
		return 0;
	}
	if (s[0] == '-') { /* leading: 0 and N; later: the end of a range from the item before */
		struct tok *a = &t[*nr];

		if (parm_num_parse(s + 1, unit, &a->n))
			return bad_number(it, what, err);
		a->it = it;
		a->kind = i ? TOK_TO : TOK_NUM;
		if (!i) {
			t[*nr + 1] = *a;
			a->n.value = 0;
			(*nr)++;
		}
		(*nr)++;
		return 0;
	}
	if (!is_range_item(s)) {
		t[*nr] = (struct tok){ TOK_NUM, it, { 0, false } };
		if (parm_num_parse(s, unit, &t[*nr].n))
			return bad_number(it, what, err);
		(*nr)++;
		return 0;
	}
	if (dash >= sizeof(lo_text))
		return bad_number(it, what, err);
	memcpy(lo_text, s, dash);
	lo_text[dash] = '\0';
	t[*nr] = (struct tok){ TOK_NUM, it, { 0, false } };
	t[*nr + 1] = (struct tok){ TOK_TO, it, { 0, false } };
	if (parm_num_parse(lo_text, unit, &t[*nr].n) ||
	    parm_num_parse(s + dash + 1, unit, &t[*nr + 1].n))
		return parm_errf(
			err, &it->loc,
			"invalid range '%s' in %s=; expected (from-to,step) or (from-to,d)", s,
			what);
	*nr += 2;
	return 0;
}

/* The tokens of v's items; the first nr_items of them may start an item. */
static int tokenize(const struct parm_val *v, size_t nr_items, enum parm_unit unit,
		    const char *what, struct toks *tk, struct parm_err *err)
{
	int ret = 0;

	tk->v = calloc(2 * v->nr_items + 1, sizeof(*tk->v));
	if (!tk->v)
		return -ENOMEM;
	tk->nr = 0;
	tk->nr_start = 0;
	for (size_t i = 0; !ret && i < v->nr_items; i++) {
		ret = tok_item(&v->items[i], i, unit, what, tk->v, &tk->nr, err);
		if (i + 1 == nr_items)
			tk->nr_start = tk->nr;
	}
	if (v->nr_items && v->items[0].text[0] == '-' && tk->nr_start)
		tk->nr_start--; /* the leading -N's second value takes a token's place */
	return ret;
}

static int range_no_step(const struct tok *from, const struct tok *to, const char *what,
			 struct parm_err *err)
{
	if (from->it == to->it)
		return parm_errf(err, &from->it->loc,
				 "range '%s' in %s= has no step; expected (from-to,step) or "
				 "(from-to,d)",
				 from->it->text, what);
	return parm_errf(err, &from->it->loc,
			 "range %s,%s in %s= (read as %s%s) has no step; expected (from-to,step) "
			 "or (from-to,d)",
			 from->it->text, to->it->text, what, from->it->text, to->it->text);
}

/* The range from t[0] to t[1], with t[2] (if any) as its step. */
static int expand_range(const struct tok *t, size_t nr_after, const char *what, struct num_list *l,
			struct parm_err *err)
{
	double lo = t[0].n.value, hi = t[1].n.value;

	if (nr_after < 3 && lo > hi) /* descending, no step: from alone [280] */
		return num_list_add(l, lo, t[0].n.is_pct);
	if (nr_after < 3)
		return range_no_step(&t[0], &t[1], what, err);
	if (t[2].kind == TOK_D)
		return expand_doubling(t[0].it, lo, hi, t[0].n.is_pct, l, err);
	if (t[2].kind == TOK_TO)
		return parm_errf(err, &t[2].it->loc,
				 "invalid range step '%s' after '%s'; expected a number or 'd'",
				 t[2].it->text, t[0].it->text);
	return expand_stepped(t[0].it, t[2].it, lo, hi, t[0].n.is_pct, l, err);
}

/* Expands v's tokens; only those of its first nr items start an item. */
static int expand_items(const struct parm_val *v, size_t nr, enum parm_unit unit, const char *what,
			struct num_list *l, struct parm_err *err)
{
	struct toks tk;
	size_t i = 0;
	int ret = tokenize(v, nr, unit, what, &tk, err);

	while (!ret && i < tk.nr_start) {
		const struct tok *t = &tk.v[i];

		if (i + 1 < tk.nr && tk.v[i + 1].kind == TOK_TO && t->kind == TOK_NUM) {
			ret = expand_range(t, tk.nr - i, what, l, err);
			i += 3;
		} else if (t->kind == TOK_NUM) {
			ret = num_list_add(l, t->n.value, t->n.is_pct);
			i++;
		} else {
			ret = parm_errf(err, &t->it->loc,
					"'%s' in %s= ends a range that has no start; expected a "
					"number before it",
					t->it->text, what);
		}
	}
	free(tk.v);
	return ret;
}

static int expand_list(const struct parm_val *v, enum parm_unit unit, const char *what,
		       struct num_list *l, struct parm_err *err)
{
	int ret = check_all_numeric(v, what, err);

	return ret ? ret : expand_items(v, v->nr_items, unit, what, l, err);
}

/* Whether VDbench 5.04.07 reads the list's words as loop values (observed, tests/parm
 * [292-297]): all of them when the list opens with one, else only "random" (any case). */
static bool has_loop_words(const struct parm_val *v, size_t nr_num)
{
	if (v->kind != PARM_VAL_LIST || !nr_num || nr_num == v->nr_items)
		return false;
	if (!is_num_item(v, 0))
		return true;
	for (size_t i = 0; i < v->nr_items; i++)
		if (!is_num_item(v, i) && strcasecmp(v->items[i].text, "random"))
			return false;
	return true;
}

/* A loop list with words, as VDbench 5.04.07 reads it: each word is a 0 in its place, and only
 * as many items count as the list holds numbers: (seq,0,100) is 0,0 and (50,random,70) is
 * 50,0 (a range still expands with its step: (seq,10-30,10) is 0,10,20,30). */
static int expand_loop_words(const struct parm_val *v, size_t nr_num, enum parm_unit unit,
			     const char *what, struct num_list *l, struct parm_err *err)
{
	static char zero[] = "0";
	struct parm_val shadow = *v;
	int ret;

	shadow.items = malloc(v->nr_items * sizeof(*shadow.items));
	if (!shadow.items)
		return -ENOMEM;
	for (size_t i = 0; i < v->nr_items; i++) {
		shadow.items[i] = v->items[i];
		if (!is_num_item(v, i)) {
			shadow.items[i].kind = PARM_VAL_WORD;
			shadow.items[i].text = zero;
		}
	}
	ret = expand_items(&shadow, nr_num, unit, what, l, err);
	free(shadow.items);
	return ret;
}

/* Hands l to *out and returns its count, or reports ret and frees l. */
static int list_done(const struct parm_val *v, const char *what, struct num_list *l, int ret,
		     struct parm_num **out, struct parm_err *err)
{
	if (ret == -E2BIG)
		ret = parm_errf(err, &v->loc, "%s=%s expands to more than %d values", what, v->text,
				MAX_LIST_VALUES);
	else if (ret == -ENOMEM)
		parm_errf(err, &v->loc, "out of memory");
	if (ret) {
		free(l->v);
		return ret;
	}
	*out = l->v;
	return (int)l->nr;
}

int parm_val_loop_numbers(const struct parm_val *v, enum parm_unit unit, const char *what,
			  struct parm_num **out, struct parm_err *err)
{
	struct num_list l = { 0 };
	size_t nr_num = 0;
	int ret;

	if (v->kind == PARM_VAL_LIST)
		first_alpha(v, &nr_num);
	if (!has_loop_words(v, nr_num))
		return parm_val_numbers(v, unit, what, out, err);
	ret = expand_loop_words(v, nr_num, unit, what, &l, err);
	return list_done(v, what, &l, ret, out, err);
}

int parm_val_numbers(const struct parm_val *v, enum parm_unit unit, const char *what,
		     struct parm_num **out, struct parm_err *err)
{
	struct num_list l = { 0 };
	int ret;

	if (v->kind == PARM_VAL_WORD) {
		struct parm_num n;

		ret = parse_item(v, unit, what, &n, err);
		if (!ret)
			ret = num_list_add(&l, n.value, n.is_pct);
	} else {
		ret = expand_list(v, unit, what, &l, err);
	}
	return list_done(v, what, &l, ret, out, err);
}

int parm_val_words(const struct parm_val *v, const char ***out, struct parm_err *err)
{
	size_t nr = v->kind == PARM_VAL_WORD ? 1 : v->nr_items;
	const char **w = calloc(nr ? nr : 1, sizeof(*w));

	(void)err;
	if (!w)
		return -ENOMEM;
	if (v->kind == PARM_VAL_WORD)
		w[0] = v->text;
	for (size_t i = 0; v->kind == PARM_VAL_LIST && i < nr; i++)
		w[i] = v->items[i].text;
	*out = w;
	return (int)nr;
}
