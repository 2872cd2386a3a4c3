/* The histograms of a results document's run averages kept on disk: one compact JSON line
 * per run in an unnamed file (see doc_spill.c), the average's "histograms" in the tree a
 * placeholder. They are most of an average (hundreds of [bucket, count] pairs, each a
 * jansson array of two integers), so a document of many runs holds the same memory. */
#include "doc.h"

#include <errno.h>
#include <stdio.h>

/* A spilled average's "histograms" is "\0histograms:N", a string no name can hold. */
static const char placeholder_prefix[] = "histograms:";

void rep_doc_avgs_fini(struct rep_doc_avgs *a)
{
	rep_doc_spill_close(a->spill);
	a->spill = NULL;
}

void rep_doc_avgs_spill(struct rep_doc_avgs *a, const char *dir, size_t run_idx, json_t *avg)
{
	json_t *h = json_object_get(avg, "histograms");
	char mark[64];
	int len;

	if (!json_is_object(h))
		return;
	if (!a->spill && !a->is_refused && rep_doc_spill_open(dir, &a->spill))
		a->is_refused = true;
	/* no file, or a failed write (full, gone): this run's histograms stay in the tree */
	if (!a->spill || rep_doc_spill_count(a->spill, run_idx) ||
	    rep_doc_spill_add(a->spill, run_idx, h))
		return;
	len = snprintf(mark, sizeof(mark), "%c%s%zu", '\0', placeholder_prefix, run_idx);
	json_object_set_new(avg, "histograms", json_stringn(mark, (size_t)len));
	/* without memory for the placeholder the tree keeps the histograms */
}

static void keep(const json_t *h, void *arg)
{
	json_t **out = arg;

	if (!*out)
		*out = json_incref((json_t *)h);
}

json_t *rep_doc_avgs_histograms(const struct rep_doc_avgs *a, const json_t *run, size_t run_idx)
{
	json_t *h = json_object_get(json_object_get(run, "average"), "histograms");
	json_t *out = NULL;

	if (!json_is_string(h))
		return json_incref(h);
	if (a && a->spill && rep_doc_spill_each(a->spill, run_idx, keep, &out)) {
		json_decref(out);
		return NULL;
	}
	return out;
}

int rep_doc_avgs_write(const struct rep_doc_avgs *a, size_t run_idx, FILE *f)
{
	if (!a->spill || rep_doc_spill_count(a->spill, run_idx) != 1)
		return -EINVAL; /* cannot be: a placeholder is set only after its line was written */
	return rep_doc_spill_copy(a->spill, run_idx, f);
}
