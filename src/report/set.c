/* The list of observers of an execution: every event goes to each of them in order. An
 * observer's failure is remembered and returned, but the others still see the event, so one
 * broken output never costs the results of another. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "ioramp/results.h"

/* Remembers the first failure of any observer at any event, for rep_set_close. */
static void note(struct rep_set *s, size_t i, int ret)
{
	if (ret < 0 && !s->errs[i])
		s->errs[i] = ret;
	if (ret < 0 && !s->err) {
		s->err = ret;
		s->err_ops = s->ops[i];
	}
}

int rep_set_add(struct rep_set *s, const struct rep_ops *ops)
{
	if (s->nr >= IORAMP_ARRAY_SIZE(s->ops))
		return -ENOSPC;
	s->ops[s->nr] = ops;
	s->errs[s->nr] = 0;
	s->state[s->nr++] = NULL;
	return 0;
}

/* A failure of the results document is one of every output that renders it. */
static void note_doc(struct rep_set *s, int ret)
{
	for (size_t i = 0; ret < 0 && i < s->nr; i++)
		if (s->ops[i]->open_doc)
			note(s, i, ret);
}

/* Lets a terminal line (rep_statusline) step aside while the others print, then come back. */
static void bracket(struct rep_set *s, bool is_after)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->ops[i]->bracket)
			s->ops[i]->bracket(s->state[i], is_after);
}

int rep_set_open(struct rep_set *s, const struct rep_exec *x)
{
	s->exec = x;
	s->doc = NULL;
	for (size_t i = 0; i < s->nr; i++) {
		int ret;

		if (s->ops[i]->open_doc) { /* the first that reads it has the document built */
			ret = s->doc ? 0
				     : rep_doc_new(x, REP_DOC_DETAIL | REP_DOC_SPILL_AVG, &s->doc);
			if (!ret)
				ret = s->ops[i]->open_doc(x, s->doc, &s->state[i]);
		} else {
			ret = s->ops[i]->open ? s->ops[i]->open(x, &s->state[i]) : 0;
		}

		if (ret < 0) {
			size_t opened = i;

			s->nr = opened;
			rep_set_close(s, 1);
			return ret;
		}
	}
	return 0;
}

int rep_set_run_start(struct rep_set *s, const struct rep_run *r)
{
	int first = s->doc ? rep_doc_run_start(s->doc, r) : 0;

	bracket(s, false);
	note_doc(s, first);
	for (size_t i = 0; i < s->nr; i++) {
		int ret = s->ops[i]->run_start ? s->ops[i]->run_start(s->state[i], r) : 0;

		if (ret < 0 && !first)
			first = ret;
		note(s, i, ret);
	}
	bracket(s, true);
	return first;
}

int rep_set_interval(struct rep_set *s, const struct rep_run *r, const struct rep_sample *smp)
{
	int first = s->doc ? rep_doc_interval(s->doc, r, smp) : 0;

	bracket(s, false);
	note_doc(s, first);
	for (size_t i = 0; i < s->nr; i++) {
		int ret = s->ops[i]->interval ? s->ops[i]->interval(s->state[i], r, smp) : 0;

		if (ret < 0 && !first)
			first = ret;
		note(s, i, ret);
	}
	bracket(s, true);
	return first;
}

int rep_set_run_end(struct rep_set *s, const struct rep_run *r, const struct rep_run_end *e)
{
	int first = s->doc ? rep_doc_run_end(s->doc, r, e) : 0;

	bracket(s, false);
	note_doc(s, first);
	for (size_t i = 0; i < s->nr; i++) {
		int ret = s->ops[i]->run_end ? s->ops[i]->run_end(s->state[i], r, e) : 0;

		if (ret < 0 && !first)
			first = ret;
		note(s, i, ret);
	}
	bracket(s, true);
	return first;
}

enum {
	SET_LINE_BYTES = 1024
};

/* fmt's line into line[SET_LINE_BYTES], and into results.json's messages. */
static void doc_line(struct rep_set *s, char *line, const char *fmt, va_list ap)
{
	vsnprintf(line, SET_LINE_BYTES, fmt, ap);
	if (s->doc)
		rep_doc_message(s->doc, line);
}

void rep_set_messagef(struct rep_set *s, const char *fmt, ...)
{
	char line[SET_LINE_BYTES];
	va_list ap;

	va_start(ap, fmt);
	doc_line(s, line, fmt, ap);
	va_end(ap);
	bracket(s, false);
	for (size_t i = 0; i < s->nr; i++)
		if (s->ops[i]->message)
			s->ops[i]->message(s->state[i], line);
	bracket(s, true);
}

/* A note to the observers that take log notes, or summary notes when is_sum. */
static void notes_send(struct rep_set *s, bool is_sum, const char *fmt, va_list ap)
{
	char line[SET_LINE_BYTES];

	doc_line(s, line, fmt, ap);
	for (size_t i = 0; i < s->nr; i++) {
		void (*to)(void *, const char *) =
			is_sum ? s->ops[i]->sum_note : s->ops[i]->log_note;

		if (to)
			to(s->state[i], line);
	}
}

void rep_set_log_notef(struct rep_set *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	notes_send(s, false, fmt, ap);
	va_end(ap);
}

void rep_set_setup(struct rep_set *s)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->ops[i]->setup)
			s->ops[i]->setup(s->state[i]);
}

void rep_set_sum_notef(struct rep_set *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	notes_send(s, true, fmt, ap);
	va_end(ap);
}

void rep_set_slave_notef(struct rep_set *s, bool is_run_end, const char *fmt, ...)
{
	char line[SET_LINE_BYTES];
	va_list ap;

	va_start(ap, fmt);
	doc_line(s, line, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < s->nr; i++)
		if (s->ops[i]->slave_note)
			s->ops[i]->slave_note(s->state[i], is_run_end, line);
}

void rep_set_io_error(struct rep_set *s, const struct rep_io_error *e)
{
	if (s->doc)
		note_doc(s, rep_doc_io_error(s->doc, e));
	for (size_t i = 0; i < s->nr; i++)
		if (s->ops[i]->io_error)
			s->ops[i]->io_error(s->state[i], e);
}

void rep_set_dv_error(struct rep_set *s, const struct rep_dv_error *e)
{
	if (s->doc)
		note_doc(s, rep_doc_dv_error(rep_doc_root(s->doc), e));
	bracket(s, false);
	for (size_t i = 0; i < s->nr; i++)
		if (s->ops[i]->dv_error)
			s->ops[i]->dv_error(s->state[i], e);
	bracket(s, true);
}

void rep_set_dv_summary(struct rep_set *s, const struct rep_dv_summary *sum)
{
	if (s->doc)
		note_doc(s, rep_doc_dv_summary(rep_doc_root(s->doc), sum));
	for (size_t i = 0; i < s->nr; i++)
		if (s->ops[i]->dv_summary)
			s->ops[i]->dv_summary(s->state[i], sum);
}

int rep_set_add_vdbench(struct rep_set *s)
{
	static const struct rep_ops *const outputs[] = {
		&rep_summary,	&rep_logfile,	 &rep_totals,	  &rep_parmfile, &rep_flatfile,
		&rep_status,	&rep_errorlog,	 &rep_histogram,  &rep_sdreport, &rep_wdreport,
		&rep_skew,	&rep_hostreport, &rep_parmscan,	  &rep_config,	 &rep_slavelog,
		&rep_runtotals, &rep_swatmon,	 &rep_hostdetail,
	};

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(outputs); i++) {
		int ret = rep_set_add(s, outputs[i]);

		if (ret < 0)
			return ret;
	}
	return 0;
}

static void close_pass(struct rep_set *s, bool is_last, int status)
{
	for (size_t i = 0; i < s->nr; i++) {
		int ret;

		if (s->ops[i]->is_closed_last != is_last)
			continue;
		ret = s->ops[i]->close ? s->ops[i]->close(s->state[i], status) : 0;
		s->state[i] = NULL;
		note(s, i, ret);
	}
}

/* A report could not be written: said by those still open (console, logfile) and on stderr
 * when the console is not a terminal (it may be a pipe that nobody reads). */
static void say_failed_one(struct rep_set *s, const struct rep_ops *ops, int err)
{
	const char *dir = s->exec && s->exec->outdir ? s->exec->outdir : ".";
	FILE *con = s->exec && s->exec->console ? s->exec->console : stdout;
	char line[1024];

	if (ops->file)
		snprintf(line, sizeof(line),
			 "ioramp: error: %s/%s: cannot write the report: %s; the results in %s "
			 "are incomplete",
			 dir, ops->file, strerror(-err), dir);
	else /* one page per SD, WD or host */
		snprintf(line, sizeof(line),
			 "ioramp: error: %s: cannot write the %s pages: %s; the results in %s "
			 "are incomplete",
			 dir, ops->name, strerror(-err), dir);
	for (size_t i = 0; i < s->nr; i++)
		if (s->ops[i]->is_closed_last && s->ops[i]->message && !s->errs[i])
			s->ops[i]->message(s->state[i], line);
	if (con != stderr && !isatty(fileno(con)))
		fprintf(stderr, "%s\n", line);
}

/* Every report that failed so far and was not said yet, each once. */
static void say_failed(struct rep_set *s, bool *is_said)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->errs[i] && !is_said[i]) {
			say_failed_one(s, s->ops[i], s->errs[i]);
			is_said[i] = true;
		}
}

int rep_set_close(struct rep_set *s, int status)
{
	bool is_said[IORAMP_ARRAY_SIZE(s->ops)] = { false };

	bracket(s, false);
	if (s->doc) /* the exit status and the last curve, before its outputs are closed */
		note_doc(s, rep_doc_close(s->doc, status));
	close_pass(s, false, status);
	for (size_t i = 0; i < s->nr; i++) /* a summary cut short: no success line either */
		if (s->ops[i]->is_closed_last && s->ops[i]->check)
			note(s, i, s->ops[i]->check(s->state[i]));
	if (s->err) { /* said whatever else ended the execution */
		status = status ? status : 1;
		say_failed(s, is_said);
	}
	close_pass(s, true, status);
	for (size_t i = 0; i < s->nr; i++) /* failed at their own close: only stderr is left */
		if (s->errs[i] && !is_said[i])
			fprintf(stderr,
				"ioramp: error: %s/%s: cannot write the report: %s; the results in "
				"%s are incomplete\n",
				s->exec && s->exec->outdir ? s->exec->outdir : ".",
				s->ops[i]->file ? s->ops[i]->file : s->ops[i]->name,
				strerror(-s->errs[i]),
				s->exec && s->exec->outdir ? s->exec->outdir : ".");
	s->nr = 0;
	rep_doc_free(s->doc);
	s->doc = NULL;
	return s->err;
}
