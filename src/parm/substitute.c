/* Text substitution on one parameter line (tests/parm/FINDINGS.md §13): $host, !host and #host
 * for HD replication, then every command-line variable in command-line order as plain text
 * replacement of $name and !name (no terminator: with xs=4k, $xsx becomes 4kx). Every byte of a
 * value keeps the column of the '$' it replaced, so errors still point at the source. */
#include "source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parm_line_buf_put(struct parm_line_buf *b, char c, uint32_t col)
{
	if (b->len + 2 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 128;
		char *t = realloc(b->text, cap);
		uint32_t *m;

		if (!t)
			return -ENOMEM;
		b->text = t;
		m = realloc(b->col, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		b->col = m;
		b->cap = cap;
	}
	b->text[b->len] = c;
	b->col[b->len++] = col;
	b->text[b->len] = '\0';
	return 0;
}

void parm_line_buf_fini(struct parm_line_buf *b)
{
	free(b->text);
	free(b->col);
	memset(b, 0, sizeof(*b));
}

/* One replacement pass: every marker (a char of markers) followed by name becomes value. */
static int replace_pass(const struct parm_line_buf *in, const char *markers, const char *name,
			const char *value, struct parm_line_buf *out, bool *did)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < in->len; i++) {
		int ret = 0;

		if (in->text[i] && strchr(markers, in->text[i]) &&
		    !strncmp(in->text + i + 1, name, n)) {
			for (const char *p = value; !ret && *p; p++)
				ret = parm_line_buf_put(out, *p, in->col[i]);
			i += n;
			*did = true;
		} else {
			ret = parm_line_buf_put(out, in->text[i], in->col[i]);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* Runs one pass and makes its output the current text. */
static int replace(struct parm_line_buf *cur, const char *markers, const char *name,
		   const char *value, bool *did)
{
	struct parm_line_buf next = { 0 };
	bool hit = false;
	int ret = replace_pass(cur, markers, name, value, &next, &hit);

	if (ret || !hit) {
		parm_line_buf_fini(&next);
		return ret;
	}
	parm_line_buf_fini(cur);
	*cur = next;
	*did = true;
	return 1;
}

int parm_subst_line(const char *text, const char *host, int host_nr, struct parm_var *vars,
		    size_t nr_vars, struct parm_line_buf *out, bool *did)
{
	int ret = 0;

	*did = false;
	for (size_t i = 0; !ret && text[i]; i++)
		ret = parm_line_buf_put(out, text[i], (uint32_t)i + 1);
	if (!ret && host) {
		char nr[16];

		snprintf(nr, sizeof(nr), "%d", host_nr);
		ret = replace(out, "$!", "host", host, did);
		if (ret >= 0)
			ret = replace(out, "#", "host", nr, did);
	}
	for (size_t v = 0; ret >= 0 && v < nr_vars; v++) {
		ret = replace(out, "$!", vars[v].name, vars[v].value, did);
		if (ret > 0)
			vars[v].is_used = true;
	}
	return ret < 0 ? ret : 0;
}

bool parm_has_host_token(const char *text)
{
	for (const char *p = text; *p; p++)
		if ((*p == '$' || *p == '!' || *p == '#') && !strncmp(p + 1, "host", 4))
			return true;
	return false;
}
