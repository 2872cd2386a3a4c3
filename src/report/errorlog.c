/* errorlog.html (reference §10.2): a header saying that an empty log means no errors, then one
 * line per failed I/O in VDbench's console form and a block report per data validation error
 * (reference §12.1), flushed at once. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>

#include "vdbtext.h"

struct errorlog {
	const struct rep_exec *x;
	FILE *f;
};

static int errorlog_open(const struct rep_exec *x, void **state)
{
	char created[REP_STAMP_LEN];
	struct errorlog *el;

	*state = NULL;
	if (!x->outdir)
		return 0;
	el = calloc(1, sizeof(*el));
	if (!el)
		return -ENOMEM;
	el->x = x;
	el->f = rep_html_open(x, "errorlog.html");
	if (!el->f) {
		int ret = -errno;

		free(el);
		return ret;
	}
	rep_fmt_created(created, x->start_tod_ns);
	fprintf(el->f,
		"Vdbench error log, created %s \n"
		"Error log. If there are no error messages beyond this line then there were no "
		"Data Validation or I/O errors.\n\n",
		created);
	fflush(el->f);
	*state = el;
	return 0;
}

static void errorlog_io_error(void *state, const struct rep_io_error *e)
{
	struct errorlog *el = state;
	char text[1024], tod[REP_TOD_LEN];

	if (!el)
		return;
	rep_io_error_text(text, sizeof(text), el->x, e);
	rep_fmt_tod(tod, rep_now_ns(el->x));
	fprintf(el->f, "%s %s\n", tod, text);
	fflush(el->f);
}

static void errorlog_emit(void *ctx, const char *line)
{
	struct errorlog *el = ctx;
	char tod[REP_TOD_LEN];

	rep_fmt_tod(tod, rep_now_ns(el->x));
	fprintf(el->f, "%s %s\n", tod, line);
}

/* The block report, then VDbench's op line. */
static void errorlog_dv_error(void *state, const struct rep_dv_error *e)
{
	struct errorlog *el = state;
	char text[1024];

	if (!el)
		return;
	fputc('\n', el->f);
	rep_dv_error_detail(e, errorlog_emit, el);
	rep_dv_error_line(text, sizeof(text), el->x, e);
	errorlog_emit(el, text);
	fflush(el->f);
}

static int errorlog_close(void *state, int status)
{
	struct errorlog *el = state;
	int ret;

	(void)status;
	if (!el)
		return 0;
	ret = rep_html_close(el->f);
	free(el);
	return ret;
}

const struct rep_ops rep_errorlog = {
	.name = "errorlog",
	.file = "errorlog.html",
	.open = errorlog_open,
	.io_error = errorlog_io_error,
	.dv_error = errorlog_dv_error,
	.close = errorlog_close,
};
