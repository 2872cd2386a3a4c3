/* totals_optional.html, which report_run_totals=yes asks for. VDbench 5.04.07's guide describes
 * running totals of the whole execution there; what it writes (observed, raw I/O) is an empty
 * file, created at the start. ioramp does the same, so that the directory holds what VDbench's
 * does; the totals of each run are in totals.html. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdio.h>
#include <strings.h>

static bool wants_totals(const struct parm_config *cfg)
{
	const struct parm_val *v = cfg ? cfg->general.set.val[PARM_KW_REPORT_RUN_TOTALS] : NULL;

	return v && v->kind == PARM_VAL_WORD && strcasecmp(v->text, "no");
}

static int runtotals_open(const struct rep_exec *x, void **state)
{
	char path[4096];
	FILE *f;

	*state = NULL;
	if (!x->outdir || !wants_totals(x->cfg))
		return 0;
	if (snprintf(path, sizeof(path), "%s/totals_optional.html", x->outdir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	return fclose(f) ? -errno : 0;
}

const struct rep_ops rep_runtotals = {
	.name = "runtotals",
	.file = "totals_optional.html",
	.open = runtotals_open,
};
