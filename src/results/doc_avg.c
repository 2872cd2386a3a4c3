/* A results document's run averages kept on disk: one compact JSON line per run in an unnamed
 * file (see doc_spill.c), a placeholder in the tree. A document whose renderers read averages
 * (report.html) spills only their histograms, most of an average (hundreds of [bucket,
 * count] pairs, each a jansson array of two integers); one that only writes them
 * (results.json, curves.csv) spills the whole average once its curve point is taken. */
#include "parts.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

/* A spilled average's "histograms" is "\0histograms:N", a string no name can hold, and a
 * whole spilled average "\0average:N". */
static const char placeholder_prefix[] = "histograms:";
static const char whole_prefix[] = "average:";

void rep_doc_avgs_fini(struct rep_doc_avgs *a)
{
	rep_doc_spill_close(a->spill);
	a->spill = NULL;
}

/* Opens the file at the first call; false when there is none or run_idx has its line. */
static bool has_room(struct rep_doc_avgs *a, const char *dir, size_t run_idx)
{
	if (!a->spill && !a->is_refused && rep_doc_spill_open(dir, &a->spill))
		a->is_refused = true;
	return a->spill && !rep_doc_spill_count(a->spill, run_idx);
}

void rep_doc_avgs_spill(struct rep_doc_avgs *a, const char *dir, size_t run_idx, json_t *avg)
{
	json_t *h = json_object_get(avg, "histograms");
	char mark[64];
	int len;

	/* no file, or a failed write (full, gone): this run's histograms stay in the tree */
	if (!json_is_object(h) || !has_room(a, dir, run_idx) ||
	    rep_doc_spill_add(a->spill, run_idx, h))
		return;
	len = snprintf(mark, sizeof(mark), "%c%s%zu", '\0', placeholder_prefix, run_idx);
	json_object_set_new(avg, "histograms", json_stringn(mark, (size_t)len));
	/* without memory for the placeholder the tree keeps the histograms */
}

void rep_doc_avgs_spill_whole(struct rep_doc_avgs *a, const char *dir, size_t run_idx,
			      json_t *run)
{
	json_t *avg = json_object_get(run, "average");
	char mark[64];
	int len;

	/* no file, or a failed write (full, gone): the average stays in the tree */
	if (!json_is_object(avg) || !has_room(a, dir, run_idx) ||
	    rep_doc_spill_add(a->spill, run_idx, avg))
		return;
	len = snprintf(mark, sizeof(mark), "%c%s%zu", '\0', whole_prefix, run_idx);
	json_object_set_new(run, "average", json_stringn(mark, (size_t)len));
}

static void keep(const json_t *h, void *arg)
{
	json_t **out = arg;

	if (!*out)
		*out = json_incref((json_t *)h);
}

json_t *rep_doc_avgs_histograms(const struct rep_doc_avgs *a, const json_t *run, size_t run_idx)
{
	const json_t *avg = json_object_get(run, "average");
	json_t *h = json_object_get(avg, "histograms");
	json_t *out = NULL;

	if (json_is_object(avg) && !json_is_string(h))
		return json_incref(h);
	if (!json_is_string(avg) && !json_is_string(h))
		return NULL; /* no average */
	if (a && a->spill && rep_doc_spill_each(a->spill, run_idx, keep, &out)) {
		json_decref(out);
		return NULL;
	}
	if (json_is_string(avg)) { /* the whole average was read back */
		h = json_incref(json_object_get(out, "histograms"));
		json_decref(out);
		return h;
	}
	return out;
}

int rep_doc_avgs_write(const struct rep_doc_avgs *a, size_t run_idx, FILE *f)
{
	if (!a->spill || rep_doc_spill_count(a->spill, run_idx) != 1)
		return -EINVAL; /* cannot be: a placeholder is set only after its line was written */
	return rep_doc_spill_copy(a->spill, run_idx, f);
}
