/* The body VDbench writes to the console, logfile.html and summary.html alike (reference
 * §10.1): a banner per run, the header every 30 interval lines, one line per interval, the
 * average line and the warning boxes, messages and I/O errors with the time of day in front. */
#include "vdbtext.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

enum {
	HEADER_EVERY = 30,
};

void rep_conlog_run_start(struct rep_conlog *c, const struct rep_run *r)
{
	char tod[REP_TOD_LEN], text[1024];

	c->nr_lines = 0;
	if (!c->f)
		return;
	if (c->kind == REP_CONLOG_CONSOLE) {
		rep_fmt_tod(tod, r->start_tod_ns);
		rep_start_text(text, sizeof(text), r);
		fprintf(c->f, "%s %s\n", tod, text);
	} else {
		fputc('\n', c->f);
		rep_html_anchor(c->f, r);
		fputc('\n', c->f);
	}
	fflush(c->f);
}

void rep_conlog_interval(struct rep_conlog *c, const struct rep_sample *s)
{
	if (!c->f)
		return;
	if (c->nr_lines % HEADER_EVERY == 0)
		rep_header_print(c->f, c->x, s->tod_ns, s->has_cpu);
	c->nr_lines++;
	rep_line_print(c->f, c->x, s, s->total);
	fflush(c->f);
}

static void emit_timed(void *ctx, const char *line)
{
	rep_conlog_timed(ctx, line);
}

void rep_conlog_run_end(struct rep_conlog *c, const struct rep_run *r, const struct rep_run_end *e)
{
	if (!c->f || !e->avg)
		return;
	if (c->nr_lines == 0) /* interrupted before the first interval */
		rep_header_print(c->f, c->x, e->avg->tod_ns, e->avg->has_cpu);
	rep_line_print(c->f, c->x, e->avg, e->avg->total);
	rep_run_warnings(c->x, r, e, c->kind != REP_CONLOG_SUMMARY, emit_timed, c);
	fflush(c->f);
}

void rep_conlog_timed(struct rep_conlog *c, const char *line)
{
	char tod[REP_TOD_LEN];

	if (!c->f)
		return;
	rep_fmt_tod(tod, rep_now_ns(c->x));
	fprintf(c->f, "%s %s\n", tod, line);
	fflush(c->f);
}

/* One host: VDbench starts its slaves after what it says of the parameters (observed: each
 * "Starting slave:", then in logfile.html each as it connects, localhost-0 first here, then "All
 * slaves are now connected"; the console has the first and the last); many hosts are MPI ranks
 * and say nothing of it. The name's stamp is the execution's start, as the master's in VDbench. */
void rep_conlog_slaves(struct rep_conlog *c)
{
	uint64_t start_ns = c->x->start_tod_ns ? c->x->start_tod_ns : rep_now_ns(c->x);
	char line[PATH_MAX + 256];

	if (c->x->nr_hosts)
		return;
	for (uint32_t k = 0; k < rep_nr_jvms(c->x); k++) {
		rep_jvm_start_text(line, sizeof(line), rep_host_name(c->x), k, start_ns);
		rep_conlog_timed(c, line);
	}
	for (uint32_t k = 0; c->kind == REP_CONLOG_LOGFILE && k < rep_nr_jvms(c->x); k++) {
		rep_jvm_connect_text(line, sizeof(line), rep_host_name(c->x), k);
		rep_conlog_timed(c, line);
	}
	rep_conlog_timed(c, "All slaves are now connected");
}

void rep_conlog_io_error(struct rep_conlog *c, const struct rep_io_error *e)
{
	char text[1024];

	rep_io_error_text(text, sizeof(text), c->x, e);
	rep_conlog_timed(c, text);
}

void rep_conlog_dv_error(struct rep_conlog *c, const struct rep_dv_error *e)
{
	char text[1024];

	if (!c || !c->f)
		return;
	rep_dv_error_summary(text, sizeof(text), e);
	rep_conlog_timed(c, text);
	rep_dv_error_line(text, sizeof(text), c->x, e);
	rep_conlog_timed(c, text);
}

int rep_conlog_check(void *state)
{
	struct rep_conlog *c = state;

	if (!c || !c->f)
		return 0;
	errno = 0;
	if (fflush(c->f) || ferror(c->f))
		return rep_write_cause(c->f, errno ? -errno : -EIO);
	return 0;
}

void rep_conlog_close(struct rep_conlog *c, int status)
{
	char path[PATH_MAX], line[PATH_MAX + 128];

	if (!c->f || status != 0)
		return;
	if (c->kind == REP_CONLOG_SUMMARY || !c->x->outdir) {
		rep_conlog_timed(c, "Vdbench execution completed successfully");
		return;
	}
	if (!realpath(c->x->outdir, path))
		snprintf(path, sizeof(path), "%s", c->x->outdir);
	snprintf(line, sizeof(line),
		 "Vdbench execution completed successfully. Output directory: %s ", path);
	rep_conlog_timed(c, line);
}

int rep_conlog_on_run_start(void *state, const struct rep_run *r)
{
	if (state)
		rep_conlog_run_start(state, r);
	return 0;
}

int rep_conlog_on_interval(void *state, const struct rep_run *r, const struct rep_sample *s)
{
	(void)r;
	if (state)
		rep_conlog_interval(state, s);
	return 0;
}

int rep_conlog_on_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	if (state)
		rep_conlog_run_end(state, r, e);
	return 0;
}
