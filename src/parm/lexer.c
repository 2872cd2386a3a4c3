/* Splits a logical line into keyword=value items as VDbench 5.04.07 does (tests/parm/FINDINGS.md
 * §2): commas outside parentheses and double quotes separate parameters, an empty parameter
 * (a,,b) is an error, a ')' without '(' is an error, a list left open at the end of the line is
 * closed silently, nested parentheses are flattened ((1k,2k)) and empty list items are skipped.
 * Double quotes protect blanks, commas, '=' and parentheses and are removed. */
#include "lexer.h"
#include "build.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct lexer {
	const struct parm_source *src;
	const struct parm_logical *lg;
	struct parm_err *err;
};

static struct parm_loc lex_loc(const struct lexer *lx, size_t pos)
{
	return parm_source_loc(lx->src, lx->lg, pos);
}

void parm_val_fini(struct parm_val *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nr_items; i++)
		parm_val_fini(&v->items[i]);
	free(v->items);
	free(v->text);
	memset(v, 0, sizeof(*v));
}

void parm_items_free(struct parm_item *items, size_t nr)
{
	if (!items)
		return;
	for (size_t i = 0; i < nr; i++) {
		free(items[i].key);
		parm_val_fini(&items[i].val);
	}
	free(items);
}

/* Copies text[start, end) without its double quotes. */
static int unquoted(const char *text, size_t start, size_t end, char **out, bool *is_quoted)
{
	char *s = malloc(end - start + 1);
	size_t n = 0;

	if (!s)
		return -ENOMEM;
	for (size_t i = start; i < end; i++) {
		if (text[i] == '"')
			*is_quoted = true;
		else
			s[n++] = text[i];
	}
	s[n] = '\0';
	*out = s;
	return 0;
}

static int list_add(struct lexer *lx, struct parm_val *v, size_t start, size_t end)
{
	struct parm_val *items, *it;

	if (start == end)
		return 0; /* (1,,2): empty items are skipped */
	if (parm_grow((void **)&v->items, v->nr_items, sizeof(*items)))
		return -ENOMEM;
	items = v->items;
	it = &items[v->nr_items++];
	memset(it, 0, sizeof(*it));
	it->kind = PARM_VAL_WORD;
	it->loc = lex_loc(lx, start);
	return unquoted(lx->lg->text, start, end, &it->text, &it->is_quoted);
}

/* (a,b,(c,d)): items between the parentheses, nesting flattened. The list ends at the ')'
 * matching the first '(' or, left open, at end. */
static int lex_list(struct lexer *lx, struct parm_val *v, size_t start, size_t end)
{
	const char *t = lx->lg->text;
	size_t item = start + 1, i;
	bool in_quote = false;
	int depth = 0, ret = 0;

	v->kind = PARM_VAL_LIST;
	for (i = start; !ret && i < end; i++) {
		if (t[i] == '"')
			in_quote = !in_quote;
		if (in_quote || (t[i] != '(' && t[i] != ')' && t[i] != ','))
			continue;
		if (t[i] != '(' || depth)
			ret = list_add(lx, v, item, i);
		item = i + 1;
		depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
		if (!depth)
			break;
	}
	if (!ret && i >= end)
		ret = list_add(lx, v, item, end); /* left open: closed silently ([011]) */
	if (!ret && i + 1 < end) {
		struct parm_loc loc = lex_loc(lx, i + 1);

		return parm_errf(
			lx->err, &loc,
			"unexpected text after ')' in %.*s; expected ',' or the end of the "
			"line",
			(int)(end - start), t + start);
	}
	if (!ret && !(v->text = strndup(t + start, end - start)))
		ret = -ENOMEM;
	return ret;
}

static int lex_value(struct lexer *lx, struct parm_val *v, size_t start, size_t end)
{
	const char *t = lx->lg->text;

	v->loc = lex_loc(lx, start);
	if (t[start] == '(')
		return lex_list(lx, v, start, end);
	/* parentheses inside a word are text, as VDbench reads sd=sd(1-3) and lun=/x/a(1)
	 * (item_end() refused a ')' without its '(') */
	v->kind = PARM_VAL_WORD;
	return unquoted(t, start, end, &v->text, &v->is_quoted);
}

/* Only a blank ends the parameters of a line; a tab is part of the text ([021]). */
static int check_tab(struct lexer *lx, size_t start, size_t end)
{
	const char *t = lx->lg->text;
	bool in_quote = false;

	for (size_t i = start; i < end; i++) {
		struct parm_loc loc;

		in_quote ^= t[i] == '"';
		if (in_quote || t[i] != '\t')
			continue;
		loc = lex_loc(lx, i);
		return parm_errf(lx->err, &loc,
				 "tab inside %.*s; only a blank ends the parameters of a line, "
				 "expected a blank before a comment",
				 (int)(end - start), t + start);
	}
	return 0;
}

/* One parameter, text[start, end): keyword=value. */
static int lex_item(struct lexer *lx, struct parm_item *it, size_t start, size_t end)
{
	const char *t = lx->lg->text;
	const char *eq = memchr(t + start, '=', end - start);
	int ret = check_tab(lx, start, end);

	if (ret)
		return ret;
	it->key_loc = lex_loc(lx, start);
	if (start == end)
		return parm_errf(lx->err, &it->key_loc,
				 "empty parameter between two commas; expected keyword=value");
	if (!eq || eq == t + start || memchr(t + start, '"', (size_t)(eq - t) - start) ||
	    memchr(t + start, '(', (size_t)(eq - t) - start))
		return parm_errf(lx->err, &it->key_loc,
				 "'%.*s' is not a parameter; expected "
				 "keyword=value",
				 (int)(end - start), t + start);
	if ((size_t)(eq - t) + 1 == end)
		return parm_errf(lx->err, &it->key_loc, "%.*s has no value; expected keyword=value",
				 (int)(end - start), t + start);
	it->key = strndup(t + start, (size_t)(eq - t) - start);
	if (!it->key)
		return -ENOMEM;
	return lex_value(lx, &it->val, (size_t)(eq - t) + 1, end);
}

/* End of the parameter starting at start: a comma outside quotes and parentheses. */
static int item_end(struct lexer *lx, size_t start, size_t *end)
{
	const struct parm_logical *lg = lx->lg;
	bool in_quote = false;
	int depth = 0;
	size_t i;

	for (i = start; i < lg->len; i++) {
		char c = lg->text[i];

		if (c == '"')
			in_quote = !in_quote;
		else if (in_quote)
			continue;
		else if (c == '(')
			depth++;
		else if (c == ')' && --depth < 0) {
			struct parm_loc loc = lex_loc(lx, i);

			return parm_errf(lx->err, &loc,
					 "unmatched parenthesis: ')' without '('; expected "
					 "keyword=(a,b)");
		} else if (c == ',' && !depth)
			break;
	}
	if (in_quote) {
		struct parm_loc loc = lex_loc(lx, start);

		return parm_errf(lx->err, &loc,
				 "unterminated double quote; expected a closing '\"'");
	}
	*end = i;
	return 0;
}

static int lex_all(struct lexer *lx, struct parm_item **items, size_t *nr)
{
	const struct parm_logical *lg = lx->lg;
	size_t pos = 0;

	while (pos < lg->len) {
		struct parm_item *n;
		size_t end = lg->len;
		int ret = item_end(lx, pos, &end);

		if (ret)
			return ret;
		if (parm_grow((void **)items, *nr, sizeof(**items))) /* doubling: 100k items */
			return -ENOMEM;
		n = *items;
		memset(&n[*nr], 0, sizeof(n[*nr]));
		ret = lex_item(lx, &n[(*nr)++], pos, end);
		if (ret)
			return ret;
		pos = end + 1; /* a comma that ends the line joined the next one or ends the file */
	}
	return 0;
}

int parm_lex(const struct parm_source *src, const struct parm_logical *lg, struct parm_item **items,
	     struct parm_err *err)
{
	struct lexer lx = { .src = src, .lg = lg, .err = err };
	struct parm_item *out = NULL;
	size_t nr = 0;
	int ret = lex_all(&lx, &out, &nr);

	if (ret) {
		parm_items_free(out, nr);
		if (ret == -ENOMEM)
			parm_errf(err, NULL, "out of memory");
		return ret;
	}
	*items = out;
	return (int)nr;
}
