/* The HTML framing VDbench puts around every output file (reference §10.2): the title line,
 * the "Link to Run Definitions:" block, the anchor line that starts each run's section and the
 * link blocks of SD and WD reports. Anchor names are a hash of the run's name and index, so
 * the links of every file of one execution agree. */
#include "vdbtext.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	LINK_INDENT = 33, /* width of "Link to Run Definitions:         " */
	NAMES_PER_LINE = 8,
	NAME_PAD = 8,
};

/* VDbench titles a file with the last component of the directory, also for an absolute or
 * nested -o ("-o /tmp/a/out": "Vdbench out/name"). */
static void title_dir(const char *dir, char *out, size_t len)
{
	size_t n = strlen(dir);
	const char *base;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	base = dir + n;
	while (base > dir && base[-1] != '/')
		base--;
	snprintf(out, len, "%.*s", (int)(dir + n - base), base);
}

FILE *rep_html_open(const struct rep_exec *x, const char *name)
{
	return rep_html_page_open(x->outdir, name);
}

FILE *rep_html_page_open(const char *outdir, const char *name)
{
	char title[4096];
	char path[4096];
	FILE *f;
	int n = snprintf(path, sizeof(path), "%s/%s", outdir, name);

	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	f = fopen(path, "w");
	if (!f)
		return NULL;
	title_dir(outdir, title, sizeof(title));
	fprintf(f, "<title>Vdbench %s/%s</title><pre>\n", title, name);
	return f;
}

int rep_html_close(FILE *f)
{
	int ret = 0;

	if (!f)
		return 0;
	errno = 0; /* a failed flush says why (ENOSPC); a stream that failed earlier may not */
	if (fflush(f) || ferror(f))
		ret = rep_write_cause(f, errno ? -errno : -EIO);
	if (fclose(f) && !ret)
		ret = errno ? -errno : -EIO;
	return ret;
}

/* A positive 31-bit id from the run's name and index (FNV-1a), like Java's hash codes. */
uint32_t rep_html_anchor_id(const char *name, size_t idx)
{
	uint32_t h = 2166136261u;

	for (const char *c = name; *c; c++)
		h = (h ^ (uint8_t)*c) * 16777619u;
	for (int i = 0; i < 8; i++)
		h = (h ^ (uint8_t)(idx >> (8 * i))) * 16777619u;
	return h & 0x7fffffffu;
}

static void link_line(FILE *f, bool is_first, size_t indent, uint32_t id, const char *text)
{
	if (is_first)
		fprintf(f, "%-*s", LINK_INDENT, "Link to Run Definitions:");
	else
		fprintf(f, "%*s", (int)indent, "");
	fprintf(f, "<A HREF=\"#_%u\">%s</A>\n", id, text);
}

/* The length of loops' text before its last loop value ("threads=1 xfersize=4k " of
 * "threads=1 xfersize=4k rdpct=0"), 0 for one loop. */
static size_t inner_loop_at(const char *loops)
{
	const char *sp = strrchr(loops, ' ');

	return sp ? (size_t)(sp + 1 - loops) : 0;
}

void rep_html_links(FILE *f, const struct rep_run_link *links, size_t nr)
{
	const struct rep_run_link *prev = NULL;
	const char *prev_loops = NULL;
	char text[512];

	for (size_t i = 0; i < nr; i++) {
		const struct rep_run_link *l = &links[i];
		const char *loops = l->loops && l->loops[0] ? l->loops : "None";
		uint32_t id = rep_html_anchor_id(l->name, l->idx);
		size_t at = inner_loop_at(loops);

		/* VDbench 5.04.07: the next run of the same RD whose innermost loop alone moved
		 * shows only that value, under it; any other change repeats the whole line */
		if (prev && !strcmp(prev->name, l->name) && at == inner_loop_at(prev_loops) &&
		    !strncmp(loops, prev_loops, at) && strcmp(loops + at, prev_loops + at)) {
			link_line(f, false,
				  LINK_INDENT + strlen(l->name) + strlen(" For loops: ") + at, id,
				  loops + at);
		} else {
			snprintf(text, sizeof(text), "%s For loops: %s", l->name, loops);
			link_line(f, !i, LINK_INDENT, id, text);
		}
		prev = l;
		prev_loops = loops;
	}
}

void rep_html_run_links(FILE *f, const struct rep_exec *x)
{
	size_t nr = (x->plan ? x->plan->nr_runs : 0) + 1, n = 0;
	struct rep_run_link *links = calloc(nr, sizeof(*links));

	if (!links)
		return;
	if (x->sd_format_loops)
		links[n++] = (struct rep_run_link){ "SD_format", x->sd_format_loops, (size_t)-1 };
	for (size_t i = 0; x->plan && i < x->plan->nr_runs; i++)
		links[n++] = (struct rep_run_link){ x->plan->runs[i].name,
						    x->plan->runs[i].for_loops, i };
	rep_html_links(f, links, n);
	free(links);
}

void rep_html_anchor_line(FILE *f, const char *name, size_t idx, const char *tod, const char *text)
{
	fprintf(f, "<a name=\"_%u\"></a><i><b>%s %s</b></i>\n", rep_html_anchor_id(name, idx), tod,
		text);
}

void rep_html_anchor(FILE *f, const struct rep_run *r)
{
	char tod[REP_TOD_LEN], text[1024];

	rep_fmt_tod(tod, r->start_tod_ns);
	rep_start_text(text, sizeof(text), r);
	rep_html_anchor_line(f, r->name, r->run_idx, tod, text);
}

/* strcmp, except that runs of digits compare as numbers (sd2 < sd10). */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			size_t na, nb;
			int c;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (na = 0; isdigit((unsigned char)a[na]); na++)
				;
			for (nb = 0; isdigit((unsigned char)b[nb]); nb++)
				;
			if (na != nb)
				return na < nb ? -1 : 1;
			c = strncmp(a, b, na);
			if (c)
				return c;
			a += na;
			b += nb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int natural_qsort_cmp(const void *a, const void *b)
{
	return natural_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* qsort_r's context when sorting indexes: the names and the comparison in use. */
struct name_order {
	const char *const *names;
	bool is_natural;
};

static int order_cmp(const void *a, const void *b, void *ctx)
{
	const struct name_order *o = ctx;
	const char *x = o->names[*(const size_t *)a], *y = o->names[*(const size_t *)b];

	return o->is_natural ? natural_cmp(x, y) : strcmp(x, y);
}

size_t *rep_name_order(const char *const *names, size_t nr, bool is_natural)
{
	struct name_order o = { .names = names, .is_natural = is_natural };
	size_t *idx = malloc((nr ? nr : 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (size_t i = 0; i < nr; i++)
		idx[i] = i;
	qsort_r(idx, nr, sizeof(*idx), order_cmp, &o);
	return idx;
}

void rep_html_name_links(FILE *f, const char *title, const char *const *names, size_t nr)
{
	const char **sorted = malloc((nr ? nr : 1) * sizeof(*sorted));

	if (!sorted)
		return;
	memcpy(sorted, names, nr * sizeof(*sorted));
	qsort(sorted, nr, sizeof(*sorted), natural_qsort_cmp);
	for (size_t i = 0; i < nr; i++) {
		size_t len = strlen(sorted[i]);

		if (i % NAMES_PER_LINE == 0)
			fprintf(f, "%s%-*s", i ? "\n" : "", LINK_INDENT, i ? "" : title);
		else
			fputc(' ', f);
		fprintf(f, "<A HREF=\"%s.html\">%s</A>%*s", sorted[i], sorted[i],
			len < NAME_PAD ? (int)(NAME_PAD - len) : 0, "");
	}
	if (nr)
		fputc('\n', f);
	free(sorted);
}

/* Whether a run of the plan uses config SD or WD i (every one without a plan). */
static bool is_def_used(const struct rep_exec *x, bool is_wd, size_t i)
{
	if (!x->plan)
		return true;
	for (size_t r = 0; r < x->plan->nr_runs; r++) {
		const struct plan_run *run = &x->plan->runs[r];

		for (size_t j = 0; is_wd && j < run->nr_wds; j++)
			if (!strcmp(run->wds[j]->name, x->cfg->wds[i].name))
				return true;
		for (size_t j = 0; !is_wd && j < run->nr_sds; j++)
			if (run->sds[j].sd_idx == i)
				return true;
	}
	return false;
}

/* rep_def_names() less the definitions no run uses: VDbench 5.04.07 writes no page and no
 * link for them (observed; its swat_mon.txt still lists every SD). */
static const char **used_def_names(const struct rep_exec *x, bool is_wd, size_t *nr)
{
	const char **names = rep_def_names(x, is_wd, nr);
	size_t n = 0;

	for (size_t i = 0; names && i < *nr; i++)
		if (is_def_used(x, is_wd, i))
			names[n++] = names[i];
	*nr = n;
	if (!n) {
		free(names);
		return NULL;
	}
	return names;
}

const char **rep_wd_report_names(const struct rep_exec *x, size_t *nr)
{
	const char **names = used_def_names(x, true, nr);

	if (*nr + (x->sd_format_loops != NULL) >= 2)
		return names;
	free(names);
	*nr = 0;
	return NULL;
}

const char **rep_sd_report_names(const struct rep_exec *x, size_t *nr)
{
	*nr = 0;
	return x->cfg && x->cfg->general.is_no_sd_detail ? NULL : used_def_names(x, false, nr);
}

const char **rep_def_names(const struct rep_exec *x, bool is_wd, size_t *nr)
{
	size_t n = !x->cfg ? 0 : is_wd ? x->cfg->nr_wds : x->cfg->nr_sds;
	const char **names;

	*nr = 0;
	if (!n)
		return NULL;
	names = malloc(n * sizeof(*names));
	if (!names)
		return NULL;
	for (size_t i = 0; i < n; i++)
		names[i] = is_wd ? x->cfg->wds[i].name : x->cfg->sds[i].name;
	*nr = n;
	return names;
}

int rep_name_find(const char *const *names, size_t nr, const char *name)
{
	for (size_t i = 0; names && i < nr; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

bool rep_run_has_skew(const struct rep_run *r)
{
	const struct plan_run *run = r->run;

	if (!run || r->nr_wds < 2)
		return false;
	if ((run->rate == PLAN_RATE_MAX || run->rate == PLAN_RATE_CURVE_MAX) && !run->is_controlled)
		return false;
	return true;
}
