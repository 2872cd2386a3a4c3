/* The rep_html observer (report.html in the output directory, rewritten after runs so it can
 * be watched during a long execution, within refresh.h's time budget, and at close) and
 * rep_html_write, which renders the same page from a saved results.json for `ioramp report`. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "html.h"
#include "refresh.h"

struct html_state {
	const struct rep_doc *doc;
	char path[4096];
	struct rep_refresh refresh;
};

static int html_open(const struct rep_exec *x, struct rep_doc *doc, void **state)
{
	struct html_state *s;

	if (!x->outdir)
		return 0; /* nowhere to write: state stays NULL and every event is ignored */
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (snprintf(s->path, sizeof(s->path), "%s/report.html", x->outdir) >=
	    (int)sizeof(s->path)) {
		free(s);
		return -ENAMETOOLONG;
	}
	s->doc = doc; /* with per-WD and per-SD figures for their charts */
	rep_refresh_init(&s->refresh);
	*state = s;
	return 0;
}

static int html_refresh(void *state)
{
	struct html_state *s = state;

	return rep_html_save(rep_doc_root(s->doc), s->doc, NULL, 0, NULL, s->path);
}

static int html_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct html_state *s = state;

	(void)r;
	(void)e;
	return s ? rep_refresh_run(&s->refresh, html_refresh, s) : 0;
}

static int html_close(void *state, int status)
{
	struct html_state *s = state;
	int ret;

	(void)status; /* the set closed the document with it */
	if (!s)
		return 0;
	ret = html_refresh(s);
	free(s);
	return ret;
}

const struct rep_ops rep_html = {
	.name = "html",
	.file = "report.html",
	.open_doc = html_open,
	.run_end = html_run_end,
	.close = html_close,
};

int rep_html_write(struct rep_html_request *req)
{
	struct rep_overlay_data *data = calloc(req->nr_ov + 1, sizeof(*data));
	size_t nr_loaded = 0, len = sizeof(req->err);
	json_t *doc = NULL;
	int ret = -ENOMEM;

	req->is_write_error = false;
	req->err[0] = '\0';
	if (!data) {
		snprintf(req->err, len, "out of memory");
		goto out;
	}
	ret = rep_doc_load(req->results_path, &doc, req->err, len);
	for (; !ret && nr_loaded < req->nr_ov; nr_loaded++)
		ret = rep_overlay_load(&req->ov[nr_loaded], &data[nr_loaded], req->err, len);
	if (ret)
		goto out;
	ret = rep_html_save(doc, NULL, data, req->nr_ov, req->files_href, req->html_path);
	if (ret) {
		req->is_write_error = true;
		snprintf(req->err, len, "%s: cannot write: %s", req->html_path, strerror(-ret));
	}
out:
	for (size_t i = 0; data && i < nr_loaded; i++)
		rep_overlay_fini(&data[i]);
	free(data);
	json_decref(doc);
	return ret;
}
