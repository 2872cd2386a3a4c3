/* totals.html (reference §10.2): each run's anchor and average line, under one header that
 * repeats every 30 runs. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>

#include "vdbtext.h"

struct totals {
	const struct rep_exec *x;
	FILE *f;
	uint32_t nr_avgs;
};

static int totals_open(const struct rep_exec *x, void **state)
{
	struct totals *t;

	*state = NULL;
	if (!x->outdir)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->x = x;
	t->f = rep_html_open(x, "totals.html");
	if (!t->f) {
		int ret = -errno;

		free(t);
		return ret;
	}
	fprintf(t->f, "Run totals\n\n\n");
	rep_html_run_links(t->f, x);
	fputc('\n', t->f);
	fflush(t->f);
	*state = t;
	return 0;
}

static int totals_run_start(void *state, const struct rep_run *r)
{
	struct totals *t = state;

	if (!t)
		return 0;
	fputc('\n', t->f);
	rep_html_anchor(t->f, r);
	fputc('\n', t->f);
	fflush(t->f);
	return 0;
}

static int totals_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct totals *t = state;

	(void)r;
	if (!t || !e->avg)
		return 0;
	if (t->nr_avgs++ % 30 == 0)
		rep_header_print(t->f, t->x, e->avg->tod_ns, e->avg->has_cpu);
	rep_line_print(t->f, t->x, e->avg, e->avg->total);
	fflush(t->f);
	return 0;
}

static int totals_close(void *state, int status)
{
	struct totals *t = state;
	int ret;

	(void)status;
	if (!t)
		return 0;
	ret = rep_html_close(t->f);
	free(t);
	return ret;
}

const struct rep_ops rep_totals = {
	.name = "totals",
	.file = "totals.html",
	.open = totals_open,
	.run_start = totals_run_start,
	.run_end = totals_run_end,
	.close = totals_close,
};
