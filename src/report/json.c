/* The rep_json observer: results.json in the output directory, rewritten after runs (so an
 * execution cut short still leaves a valid document; within refresh.h's time budget), after
 * every data validation error and at close, and the same document on exec->json_out (--json)
 * at close. The document is the execution's one (ioramp/results.h), built by the set. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ioramp/results.h"
#include "refresh.h"

struct json_state {
	const struct rep_exec *x;
	const struct rep_doc *doc;
	char path[4096]; /* empty: no output directory */
	int err;	 /* a failure of an event that returns nothing, returned at close */
	struct rep_refresh refresh;
};

static int json_open(const struct rep_exec *x, struct rep_doc *doc, void **state)
{
	struct json_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->x = x;
	s->doc = doc;
	rep_refresh_init(&s->refresh);
	if (x->outdir && snprintf(s->path, sizeof(s->path), "%s/results.json", x->outdir) >=
				 (int)sizeof(s->path)) {
		free(s);
		return -ENAMETOOLONG;
	}
	*state = s;
	return 0;
}

static int json_save(struct json_state *s)
{
	return s->path[0] ? rep_doc_save(s->doc, s->path) : 0;
}

static int json_refresh(void *state)
{
	return json_save(state);
}

static int json_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct json_state *s = state;

	(void)r;
	(void)e;
	return rep_refresh_run(&s->refresh, json_refresh, s);
}

static void json_dv_error(void *state, const struct rep_dv_error *e)
{
	struct json_state *s = state;
	int ret = json_save(s); /* an execution that dies now still has it on disk */

	(void)e;
	if (ret && !s->err)
		s->err = ret;
}

static int json_close(void *state, int status)
{
	struct json_state *s = state;
	int ret;

	(void)status; /* the set closed the document with it */
	if (!s)
		return 0;
	ret = json_save(s); /* a document short of a piece is still written */
	ret = s->err ? s->err : ret;
	if (s->x->json_out) {
		int written = rep_doc_write(s->doc, s->x->json_out);

		if (fflush(s->x->json_out) && !written)
			written = -EIO;
		ret = ret ? ret : written;
	}
	free(s);
	return ret;
}

const struct rep_ops rep_json = {
	.name = "json",
	.file = "results.json",
	.open_doc = json_open,
	.run_end = json_run_end,
	.dv_error = json_dv_error,
	.close = json_close,
};
