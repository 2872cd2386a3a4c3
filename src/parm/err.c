/* Errors and warnings that point at the parameter text: "file:line:col: error: ..." plus the
 * source line and a caret, the one format every stage uses to reject input. */
#include "ioramp/parm.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

int parm_errf(struct parm_err *err, const struct parm_loc *loc, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -EINVAL;
	if (loc)
		err->loc = *loc;
	else
		memset(&err->loc, 0, sizeof(err->loc));
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The caret line copies the tabs of the source so the caret lands under the column. */
static void print_caret(const struct parm_loc *loc, FILE *f)
{
	const char *text = loc->text;
	uint32_t i;

	if (!text || !loc->col)
		return;
	fprintf(f, "%s\n", text);
	for (i = 1; i < loc->col && text[i - 1]; i++)
		fputc(text[i - 1] == '\t' ? '\t' : ' ', f);
	fputs("^\n", f);
}

static void print_located(const struct parm_loc *loc, const char *kind, const char *msg, FILE *f)
{
	if (loc->file && loc->line)
		fprintf(f, "%s:%u:%u: %s: %s\n", loc->file, loc->line, loc->col, kind, msg);
	else if (loc->file)
		fprintf(f, "%s: %s: %s\n", loc->file, kind, msg);
	else
		fprintf(f, "ioramp: %s: %s\n", kind, msg);
	if (loc->line)
		print_caret(loc, f);
}

void parm_err_print(const struct parm_err *err, FILE *f)
{
	print_located(&err->loc, "error", err->msg, f);
}

void parm_warn_print(const struct parm_loc *loc, const char *msg, FILE *f)
{
	print_located(loc, "warning", msg, f);
}
