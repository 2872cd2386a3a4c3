/* Splits a logical line into keyword=value items (reference §1.3): top-level commas separate
 * items, parentheses nest lists, double quotes protect blanks, commas, '=' and '-'. */
#include "lexer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct lexer {
	const struct parm_source *src;
	const struct parm_logical *lg;
	size_t pos;
	struct parm_err *err;
};

static struct parm_loc lex_loc(const struct lexer *lx, size_t pos)
{
	return parm_source_loc(lx->src, lx->lg, pos);
}

static char peek(const struct lexer *lx)
{
	return lx->pos < lx->lg->len ? lx->lg->text[lx->pos] : '\0';
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

static int lex_value(struct lexer *lx, struct parm_val *v, int depth);

/* A word ends at a comma, or at ')' inside a list; quotes are removed. */
static int lex_word(struct lexer *lx, struct parm_val *v, int depth)
{
	size_t start = lx->pos, n = 0;
	bool in_quote = false;
	char c;

	v->kind = PARM_VAL_WORD;
	v->loc = lex_loc(lx, start);
	v->text = malloc(lx->lg->len - start + 1);
	if (!v->text)
		return -ENOMEM;
	while ((c = peek(lx)) != '\0') {
		if (c == '"') {
			in_quote = !in_quote;
			v->is_quoted = true;
		} else if (!in_quote && (c == ',' || (depth > 0 && c == ')'))) {
			break;
		} else if (!in_quote && c == '(') {
			return parm_errf(lx->err, &v->loc,
					 "unexpected '(' inside a value; "
					 "lists start at the beginning of a value");
		} else {
			v->text[n++] = c;
		}
		lx->pos++;
	}
	v->text[n] = '\0';
	if (in_quote)
		return parm_errf(lx->err, &v->loc,
				 "unterminated double quote; expected a closing '\"'");
	return 0;
}

static int list_add(struct parm_val *v, struct parm_val **item)
{
	struct parm_val *items = realloc(v->items, (v->nr_items + 1) * sizeof(*items));

	if (!items)
		return -ENOMEM;
	v->items = items;
	*item = &items[v->nr_items++];
	memset(*item, 0, sizeof(**item));
	return 0;
}

static int lex_list(struct lexer *lx, struct parm_val *v, int depth)
{
	size_t start = lx->pos;
	struct parm_loc open = lex_loc(lx, start);
	int ret;

	v->kind = PARM_VAL_LIST;
	v->loc = open;
	if (depth >= 8)
		return parm_errf(lx->err, &open, "lists nested too deep");
	lx->pos++; /* ( */
	for (;;) {
		struct parm_val *item;

		ret = list_add(v, &item);
		if (ret)
			return ret;
		ret = lex_value(lx, item, depth + 1);
		if (ret)
			return ret;
		if (peek(lx) == ',') {
			lx->pos++;
			continue;
		}
		if (peek(lx) == ')')
			break;
		return parm_errf(lx->err, &open,
				 "unbalanced parentheses; expected ')' to close "
				 "this list");
	}
	lx->pos++; /* ) */
	v->text = strndup(lx->lg->text + start, lx->pos - start);
	if (!v->text)
		return -ENOMEM;
	if (peek(lx) != '\0' && peek(lx) != ',' && !(depth > 0 && peek(lx) == ')')) {
		struct parm_loc loc = lex_loc(lx, lx->pos);

		return parm_errf(lx->err, &loc,
				 "unexpected text after ')'; expected ',' or the end "
				 "of the line");
	}
	return 0;
}

static int lex_value(struct lexer *lx, struct parm_val *v, int depth)
{
	if (peek(lx) == '(')
		return lex_list(lx, v, depth);
	return lex_word(lx, v, depth);
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

static int lex_item(struct lexer *lx, struct parm_item *it)
{
	size_t start = lx->pos;
	const char *text = lx->lg->text;

	it->key_loc = lex_loc(lx, start);
	while (lx->pos < lx->lg->len && text[lx->pos] != '=' && text[lx->pos] != ',' &&
	       text[lx->pos] != '(' && text[lx->pos] != ')' && text[lx->pos] != '"')
		lx->pos++;
	if (peek(lx) != '=') {
		size_t end = lx->pos;

		while (end < lx->lg->len && text[end] != ',')
			end++;
		return parm_errf(lx->err, &it->key_loc,
				 "'%.*s' is not a parameter; expected "
				 "keyword=value",
				 (int)(end - start), text + start);
	}
	if (lx->pos == start)
		return parm_errf(lx->err, &it->key_loc,
				 "missing keyword before '='; expected "
				 "keyword=value");
	it->key = strndup(text + start, lx->pos - start);
	if (!it->key)
		return -ENOMEM;
	lx->pos++; /* = */
	return lex_value(lx, &it->val, 0);
}

int parm_lex(const struct parm_source *src, const struct parm_logical *lg, struct parm_item **items,
	     struct parm_err *err)
{
	struct lexer lx = { .src = src, .lg = lg, .err = err };
	struct parm_item *out = NULL;
	size_t nr = 0;
	int ret = 0;

	while (lx.pos < lg->len) {
		struct parm_item *n;

		if (peek(&lx) == ',') { /* empty item: ",," or a leading comma */
			lx.pos++;
			continue;
		}
		n = realloc(out, (nr + 1) * sizeof(*n));
		if (!n) {
			ret = -ENOMEM;
			break;
		}
		out = n;
		memset(&out[nr], 0, sizeof(out[nr]));
		ret = lex_item(&lx, &out[nr++]);
		if (ret)
			break;
		if (peek(&lx) == ',')
			lx.pos++;
	}
	if (ret) {
		parm_items_free(out, nr);
		if (ret == -ENOMEM)
			parm_errf(err, NULL, "out of memory");
		return ret;
	}
	*items = out;
	return (int)nr;
}
