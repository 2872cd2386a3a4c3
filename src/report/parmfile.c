/* parmfile.html (reference §10.2): the parameter files as read, with VDbench's "* Contents of
 * parameter file:" lines and variable substitution notes (parm_source_listing()). Written
 * whole at open. */
#include "ioramp/report.h"

#include <errno.h>

#include "vdbtext.h"

static int parmfile_open(const struct rep_exec *x, void **state)
{
	const char *text = x->cfg && x->cfg->src ? parm_source_listing(x->cfg->src) : NULL;
	FILE *f;

	*state = NULL;
	if (!x->outdir)
		return 0;
	f = rep_html_open(x, "parmfile.html");
	if (!f)
		return -errno;
	if (text)
		fputs(text, f);
	return rep_html_close(f);
}

const struct rep_ops rep_parmfile = {
	.name = "parmfile",
	.file = "parmfile.html",
	.open = parmfile_open,
};
