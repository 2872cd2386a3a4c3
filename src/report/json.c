/* The rep_json observer: results.json in the output directory, rewritten after every run (so
 * an execution cut short still leaves a valid document) and at close, and the same document
 * on exec->json_out (--json) at close. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "doc.h"

struct json_state {
	const struct rep_exec *x;
	struct rep_doc *doc;
	char path[4096]; /* empty: no output directory */
	int err;	 /* a failure of an event that returns nothing, returned at close */
};

static int json_open(const struct rep_exec *x, void **state)
{
	struct json_state *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	s->x = x;
	if (x->outdir && snprintf(s->path, sizeof(s->path), "%s/results.json", x->outdir) >=
				 (int)sizeof(s->path)) {
		free(s);
		return -ENAMETOOLONG;
	}
	ret = rep_doc_new(x, REP_DOC_DETAIL | REP_DOC_SPILL_AVG, &s->doc);
	if (ret) {
		free(s);
		return ret;
	}
	*state = s;
	return 0;
}

static int json_run_start(void *state, const struct rep_run *r)
{
	struct json_state *s = state;

	return rep_doc_run_start(s->doc, r);
}

static int json_interval(void *state, const struct rep_run *r, const struct rep_sample *smp)
{
	struct json_state *s = state;

	return rep_doc_interval(s->doc, r, smp);
}

static void json_io_error(void *state, const struct rep_io_error *e)
{
	struct json_state *s = state;

	int ret = rep_doc_io_error(s->doc, e);

	if (ret && !s->err)
		s->err = ret;
}

static int json_save(struct json_state *s)
{
	return s->path[0] ? rep_doc_save(s->doc, s->path) : 0;
}

static int json_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct json_state *s = state;
	int ret = rep_doc_run_end(s->doc, r, e);
	int saved = json_save(s);

	return ret ? ret : saved;
}

static void json_dv_error(void *state, const struct rep_dv_error *e)
{
	struct json_state *s = state;

	int ret = rep_doc_dv_error(rep_doc_root(s->doc), e);

	if (!ret)
		ret = json_save(s); /* an execution that dies now still has it on disk */
	if (ret && !s->err)
		s->err = ret;
}

static void json_dv_summary(void *state, const struct rep_dv_summary *sum)
{
	struct json_state *s = state;

	int ret = rep_doc_dv_summary(rep_doc_root(s->doc), sum);

	if (ret && !s->err)
		s->err = ret;
}

static void json_message(void *state, const char *line)
{
	struct json_state *s = state;

	rep_doc_message(s->doc, line);
}

static int json_close(void *state, int status)
{
	struct json_state *s = state;
	int ret, saved;

	if (!s)
		return 0;
	ret = rep_doc_close(s->doc, status);
	saved = json_save(s); /* a document short of a piece is still written */
	ret = s->err ? s->err : ret ? ret : saved;
	if (s->x->json_out) {
		int written = rep_doc_write(s->doc, s->x->json_out);

		if (fflush(s->x->json_out) && !written)
			written = -EIO;
		ret = ret ? ret : written;
	}
	rep_doc_free(s->doc);
	free(s);
	return ret;
}

const struct rep_ops rep_json = {
	.name = "json",
	.file = "results.json",
	.open = json_open,
	.run_start = json_run_start,
	.interval = json_interval,
	.run_end = json_run_end,
	.io_error = json_io_error,
	.dv_error = json_dv_error,
	.dv_summary = json_dv_summary,
	.message = json_message,
	.log_note = json_message,
	.close = json_close,
};
