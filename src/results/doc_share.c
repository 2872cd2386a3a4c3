/* Parts of a document's new run or curve that an earlier one of the last few already has
 * (every run of an execution mostly describes the same SDs, WDs and parameters) are that
 * earlier one's, shared by reference: an execution of many RDs keeps one copy of them, not
 * one per run. Nothing changes a run's or a curve's parts once it is made, and a dump of a
 * shared part is the dump of an equal one. */
#include "parts.h"

#include <stdlib.h>
#include <string.h>

/* How far back an equal part is looked for: RDs that alternate between a few workloads. */
enum { SHARE_BACK = 4 };

/* Whether a and b dump alike, key order and every digit included (json_equal ignores the
 * order of keys). */
static bool same_text(const json_t *a, const json_t *b)
{
	const size_t flags = JSON_COMPACT | JSON_REAL_PRECISION(17);
	char *ta, *tb;
	bool is_same;

	if (json_typeof(a) != json_typeof(b) || !json_equal(a, b))
		return false;
	ta = json_dumps(a, flags | JSON_ENCODE_ANY);
	tb = json_dumps(b, flags | JSON_ENCODE_ANY);
	is_same = ta && tb && !strcmp(ta, tb);
	free(ta);
	free(tb);
	return is_same;
}

void rep_doc_share_parts(const json_t *list, json_t *obj, const char *const *keys)
{
	size_t n = json_array_size(list);

	for (const char *const *k = keys; *k; k++) {
		json_t *mine = json_object_get(obj, *k);

		if (!json_is_object(mine) && !json_is_array(mine))
			continue;
		for (size_t back = 1; back <= SHARE_BACK && back <= n; back++) {
			json_t *theirs = json_object_get(json_array_get(list, n - back), *k);

			if (theirs && theirs != mine && same_text(mine, theirs)) {
				json_object_set(obj, *k, theirs); /* without memory: mine stays */
				break;
			}
		}
	}
}
