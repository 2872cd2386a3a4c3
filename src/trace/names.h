/* The names a trace gives its devices (fio's file names, MSR's host names), each numbered in
 * order of first sight. Lines of one device come in runs, so the last name found is tried
 * first. */
#ifndef IORAMP_TRACE_NAMES_H
#define IORAMP_TRACE_NAMES_H

#include <stddef.h>

/* Zeroed: empty, ready. trace_names_fini() makes it so again. */
struct trace_names {
	char **names;
	size_t nr, cap;
	size_t last_idx; /* the name found last: the usual next one */
};

/* The index of w[0, len), added when new. Returns it, -E2BIG when max names are known already
 * (the caller says why that is too many), or -ENOMEM. */
int trace_names_index(struct trace_names *t, const char *w, size_t len, size_t max);

/* Frees every name; accepts a zeroed or finished table. */
void trace_names_fini(struct trace_names *t);

#endif
