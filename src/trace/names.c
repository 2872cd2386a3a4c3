/* The device name table of the trace readers that name devices (names.h). */
#include "names.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* strlen first: a name shorter than len is never read past its end */
static bool name_is(const char *name, const char *w, size_t len)
{
	return strlen(name) == len && !memcmp(name, w, len);
}

int trace_names_index(struct trace_names *t, const char *w, size_t len, size_t max)
{
	if (t->nr && name_is(t->names[t->last_idx], w, len))
		return (int)t->last_idx;
	for (size_t i = 0; i < t->nr; i++) {
		if (name_is(t->names[i], w, len)) {
			t->last_idx = i;
			return (int)i;
		}
	}
	if (t->nr >= max)
		return -E2BIG;
	if (t->nr == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 8;
		char **names = realloc(t->names, cap * sizeof(*names));

		if (!names)
			return -ENOMEM;
		t->names = names;
		t->cap = cap;
	}
	t->names[t->nr] = strndup(w, len);
	if (!t->names[t->nr])
		return -ENOMEM;
	t->last_idx = t->nr;
	return (int)t->nr++;
}

void trace_names_fini(struct trace_names *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->names[i]);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
