/* The console observer: VDbench 5.04.07's console lines (reference §10.1) on rep_exec.console
 * (stdout when NULL). It prints no banner of its own; the command line does. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>

#include "vdbtext.h"

static int console_open(const struct rep_exec *x, void **state)
{
	struct rep_conlog *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->x = x;
	c->f = x->console ? x->console : stdout;
	c->kind = REP_CONLOG_CONSOLE;
	rep_conlog_model_note(c); /* a model's figures are never taken for measurements */
	*state = c;
	return 0;
}

static void console_setup(void *state)
{
	if (state)
		rep_conlog_slaves(state);
}

static void console_message(void *state, const char *line)
{
	rep_conlog_timed(state, line);
}

static void console_io_error(void *state, const struct rep_io_error *e)
{
	rep_conlog_io_error(state, e);
}

static void console_dv_error(void *state, const struct rep_dv_error *e)
{
	rep_conlog_dv_error(state, e);
}

static int console_close(void *state, int status)
{
	struct rep_conlog *c = state;

	if (!c)
		return 0;
	rep_conlog_close(c, status);
	free(c);
	return 0;
}

const struct rep_ops rep_console = {
	.name = "console",
	.is_closed_last = true,
	.open = console_open,
	.setup = console_setup,
	.run_start = rep_conlog_on_run_start,
	.interval = rep_conlog_on_interval,
	.run_end = rep_conlog_on_run_end,
	.message = console_message,
	.io_error = console_io_error,
	.dv_error = console_dv_error,
	.close = console_close,
};
