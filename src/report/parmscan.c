/* parmscan.html (reference §10.2): VDbench's parser trace of the expanded parameter text, one
 * "line:" per definition line (a line ending in a comma takes the next one in), one "keyw:"
 * per keyword=value and one "parm:" per value of it. VDbench repeats the first keyword of a
 * new kind of definition once for every definition kind its parser tries on the way (general,
 * hd, rg, fsd, sd, wd, fwd, rd in that order): the first sd= after general lines is written
 * five times, the first wd= after SDs twice, the first rd= after WDs three times [observed].
 * Written whole at open, stamped with the execution's start. */
#include "ioramp/report.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vdbtext.h"

struct scan {
	FILE *f;
	char tod[REP_TOD_LEN];
	int kind; /* the definition kind the parser is in: index in kinds[] */
};

static const char *const kinds[] = { "", "hd", "rg", "fsd", "sd", "wd", "fwd", "rd" };

static int kind_of(const char *kw, size_t n)
{
	if (n == 4 && !strncasecmp(kw, "host", 4))
		return 1;
	for (int i = 1; i < (int)IORAMP_ARRAY_SIZE(kinds); i++)
		if (strlen(kinds[i]) == n && !strncasecmp(kw, kinds[i], n))
			return i;
	return -1;
}

/* Length of s up to the first blank outside double quotes (the rest is a comment). */
static size_t content_len(const char *s)
{
	bool in_q = false;
	size_t i;

	for (i = 0; s[i]; i++) {
		if (s[i] == '"')
			in_q = !in_q;
		else if (!in_q && isspace((unsigned char)s[i]))
			break;
	}
	return i;
}

/* Next top-level comma-separated item of s[0..n) from *pos; returns its length. */
static size_t next_item(const char *s, size_t n, size_t *pos, size_t *start)
{
	int depth = 0;
	bool in_q = false;
	size_t i = *pos;

	*start = i;
	for (; i < n; i++) {
		if (s[i] == '"')
			in_q = !in_q;
		else if (!in_q && s[i] == '(')
			depth++;
		else if (!in_q && s[i] == ')')
			depth--;
		else if (!in_q && !depth && s[i] == ',')
			break;
	}
	*pos = i < n ? i + 1 : n;
	return i - *start;
}

/* text without quotes; with blank_as set, blanks inside them become that character (VDbench's
 * keyw: line shows startcmd="echo a b" as startcmd=echo[a[b). */
static void put_unquoted(FILE *f, const char *s, size_t n, char blank_as)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != '"')
			fputc(blank_as && s[i] == ' ' ? blank_as : s[i], f);
}

static bool is_range(const char *s, size_t n, size_t *dash)
{
	const char *d = memchr(s + 1, '-', n > 1 ? n - 1 : 0);

	if (!d || !isdigit((unsigned char)s[0]) || !isdigit((unsigned char)d[1]))
		return false;
	*dash = (size_t)(d - s);
	return true;
}

static void put_parm(struct scan *sc, const char *s, size_t n)
{
	fprintf(sc->f, "%s parm: ", sc->tod);
	if (n == 1 && (s[0] == 'd' || s[0] == 'D'))
		fputs("-102", sc->f); /* a doubling step, as VDbench stores it */
	else
		put_unquoted(sc->f, s, n, 0);
	fputc('\n', sc->f);
}

static void put_values(struct scan *sc, const char *v, size_t n)
{
	size_t pos = 0, start, len, dash;

	if (n >= 2 && v[0] == '(' && v[n - 1] == ')') {
		v++;
		n -= 2;
	}
	while (pos < n) {
		len = next_item(v, n, &pos, &start);
		if (is_range(v + start, len, &dash)) {
			put_parm(sc, v + start, dash);
			put_parm(sc, v + start + dash + 1, len - dash - 1);
		} else {
			put_parm(sc, v + start, len);
		}
	}
}

static void put_keyword(struct scan *sc, const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n);
	size_t klen = eq ? (size_t)(eq - s) : n;
	int kind = kind_of(s, klen), times = 1;

	if (kind > sc->kind) {
		times = kind - sc->kind + 1;
		sc->kind = kind;
	}
	for (int t = 0; t < times; t++) {
		fprintf(sc->f, "%s keyw: ", sc->tod);
		put_unquoted(sc->f, s, n, '[');
		fputc('\n', sc->f);
		if (eq)
			put_values(sc, eq + 1, n - klen - 1);
	}
}

static void put_content(struct scan *sc, const char *s, size_t n)
{
	size_t pos = 0, start, len;

	while (pos < n) {
		len = next_item(s, n, &pos, &start);
		if (len)
			put_keyword(sc, s + start, len);
	}
}

/* The listing's lines: a "variable substitution:" note replaces the line before it. */
static void scan_listing(struct scan *sc, const char *text)
{
	char *copy = strdup(text), *save = NULL, *pending = NULL;
	char *joined = NULL;

	if (!copy)
		return;
	for (char *l = strtok_r(copy, "\n", &save);; l = strtok_r(NULL, "\n", &save)) {
		const char *note = "    variable substitution: ";

		if (l && !strncmp(l, note, strlen(note))) {
			pending = l + strlen(note);
			continue;
		}
		if (pending) {
			const char *t = pending;
			size_t n;

			while (isspace((unsigned char)*t))
				t++;
			n = content_len(t);
			if (!joined)
				fprintf(sc->f, "%s line: %s\n", sc->tod, t);
			if (n && t[n - 1] == ',') {
				size_t old = joined ? strlen(joined) : 0;
				char *grown = realloc(joined, old + n + 1);

				if (grown) {
					memcpy(grown + old, t, n);
					grown[old + n] = '\0';
					joined = grown;
				}
			} else {
				size_t old = joined ? strlen(joined) : 0;
				char *all = malloc(old + n + 1);

				if (all) {
					memcpy(all, joined ? joined : "", old);
					memcpy(all + old, t, n);
					all[old + n] = '\0';
					put_content(sc, all, old + n);
					free(all);
				}
				free(joined);
				joined = NULL;
			}
			pending = NULL;
		}
		if (!l)
			break;
		while (isspace((unsigned char)*l))
			l++;
		if (!*l || *l == '*' || *l == '#' || *l == '/' || !strncmp(l, "include=", 8))
			continue; /* VDbench scans the included lines, not include= */
		if (!strncasecmp(l, "eof", 3) && (!l[3] || isspace((unsigned char)l[3])))
			break;
		pending = l;
	}
	if (joined)
		put_content(sc, joined, strlen(joined));
	free(joined);
	free(copy);
}

void rep_parmscan_write(FILE *f, const char *listing, uint64_t tod_ns)
{
	struct scan sc = { .f = f };

	rep_fmt_tod(sc.tod, tod_ns);
	if (listing)
		scan_listing(&sc, listing);
}

static int parmscan_open(const struct rep_exec *x, void **state)
{
	FILE *f;

	*state = NULL;
	if (!x->outdir)
		return 0;
	f = rep_html_open(x, "parmscan.html");
	if (!f)
		return -errno;
	rep_parmscan_write(f, x->cfg && x->cfg->src ? parm_source_listing(x->cfg->src) : NULL,
			   x->start_tod_ns);
	return rep_html_close(f);
}

const struct rep_ops rep_parmscan = {
	.name = "parmscan",
	.open = parmscan_open,
};
