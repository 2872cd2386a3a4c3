/* A results document's run averages kept on disk: one compact JSON line per run in an unnamed
 * file (see doc_spill.c), a placeholder in the tree. A document whose renderers read averages
 * (report.html) spills only their histograms, most of an average (hundreds of [bucket,
 * count] pairs, each a jansson array of two integers); one built with REP_DOC_SPILL_AVG
 * spills the whole average once its curve point is taken, and its readers read one run's
 * average back at a time (rep_doc_avgs_average). */
#include "parts.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A spilled average's "histograms" is "\0histograms:N", a string no name can hold, and a
 * whole spilled average "\0average:N". */
static const char placeholder_prefix[] = "histograms:";
static const char whole_prefix[] = "average:";

/* The whole average read back last, so that a reader holds it borrowed like the tree's. */
struct rep_doc_avg_cache {
	json_t *avg; /* NULL: none yet */
	size_t run_idx;
};

void rep_doc_avgs_fini(struct rep_doc_avgs *a)
{
	rep_doc_spill_close(a->spill);
	a->spill = NULL;
	if (a->cache)
		json_decref(a->cache->avg);
	free(a->cache);
	a->cache = NULL;
}

/* Opens the file at the first call; false when there is none or run_idx has its line. */
static bool has_room(struct rep_doc_avgs *a, const char *dir, size_t run_idx)
{
	if (!a->spill && !a->is_refused) {
		a->cache = calloc(1, sizeof(*a->cache));
		if (!a->cache || rep_doc_spill_open(dir, &a->spill)) {
			free(a->cache);
			a->cache = NULL;
			a->is_refused = true;
		}
	}
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

const json_t *rep_doc_avgs_average(const struct rep_doc_avgs *a, const json_t *run,
				   size_t run_idx)
{
	const json_t *avg = json_object_get(run, "average");
	json_t *out = NULL;

	if (!json_is_string(avg))
		return json_is_object(avg) ? avg : NULL;
	if (!a || !a->spill || !a->cache)
		return NULL; /* cannot be: a placeholder is set only after its line was written */
	if (a->cache->avg && a->cache->run_idx == run_idx)
		return a->cache->avg;
	if (rep_doc_spill_each(a->spill, run_idx, keep, &out) || !json_is_object(out)) {
		json_decref(out);
		return NULL;
	}
	json_decref(a->cache->avg);
	a->cache->avg = out;
	a->cache->run_idx = run_idx;
	return out;
}

void rep_doc_write_indented(const char *text, size_t len, int indent, FILE *f)
{
	const char *nl;

	while (len && (nl = memchr(text, '\n', len))) {
		fwrite(text, 1, (size_t)(nl - text) + 1, f);
		fprintf(f, "%*s", indent, "");
		len -= (size_t)(nl - text) + 1;
		text = nl + 1;
	}
	fwrite(text, 1, len, f);
}

/* A whole average as the tree would have dumped it at indent, its histograms compact as a
 * histograms-only spill writes them. */
static int write_whole(const struct rep_doc_avgs *a, size_t run_idx, int indent, FILE *f)
{
	static const char hist_mark[] = "\"\\u0000histograms\"";
	json_t *avg = NULL, *h;
	char *text = NULL, *hist = NULL, *at;
	int ret = rep_doc_spill_each(a->spill, run_idx, keep, &avg);

	if (ret || !json_is_object(avg))
		goto out;
	h = json_incref(json_object_get(avg, "histograms"));
	if (h) {
		hist = json_dumps(h, JSON_COMPACT | JSON_REAL_PRECISION(10));
		json_object_set_new(avg, "histograms", json_stringn("\0histograms", 11));
		json_decref(h);
	}
	text = json_dumps(avg, REP_DOC_DUMP_FLAGS);
	if (!text || (h && !hist)) {
		ret = -ENOMEM;
		goto out;
	}
	at = hist ? strstr(text, hist_mark) : NULL;
	if (at) {
		rep_doc_write_indented(text, (size_t)(at - text), indent, f);
		fputs(hist, f);
		at += strlen(hist_mark);
	}
	rep_doc_write_indented(at ? at : text, strlen(at ? at : text), indent, f);
out:
	free(hist);
	free(text);
	json_decref(avg);
	if (!ret && !text)
		ret = -EIO; /* a line that is no average: cannot be, we wrote it */
	return ret ? ret : ferror(f) ? -EIO : 0;
}

int rep_doc_avgs_write(const struct rep_doc_avgs *a, size_t run_idx, int indent, FILE *f)
{
	if (!a->spill || rep_doc_spill_count(a->spill, run_idx) != 1)
		return -EINVAL; /* cannot be: a placeholder is set only after its line was written */
	if (indent >= 0)
		return write_whole(a, run_idx, indent, f);
	return rep_doc_spill_copy(a->spill, run_idx, f);
}
