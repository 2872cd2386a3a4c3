/* Private to src/parm: the text of an execution's parameter files after include=, comment
 * removal, variable substitution and line joining, with the origin of every character. */
#ifndef IORAMP_PARM_SOURCE_H
#define IORAMP_PARM_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "ioramp/parm.h"

/* One physical line as read; owned by the source. */
struct parm_line {
	const char *file;
	char *text;
	uint32_t lineno;
};

/* One logical line: the content (no comment, nothing after the first blank) of one or more
 * physical lines joined by trailing commas. Per character, the line and column it came from. */
struct parm_logical {
	char *text;
	size_t len;
	uint32_t *line_idx;
	uint32_t *col;
};

struct parm_source {
	char **files;
	size_t nr_files;
	struct parm_line *lines;
	size_t nr_lines;
	size_t cap_lines;
	struct parm_logical *logicals;
	size_t nr_logicals;
	size_t cap_logicals;
	char *listing; /* for parmfile.html */
	size_t listing_len;
	FILE *listing_f;
};

/* Reads every input file (or the in-memory text when text != NULL) into a new source.
 * Returns 0, or a negative errno with *err filled; *out is set in both cases so that err->loc
 * stays printable until parm_source_free(). */
int parm_source_read(const struct parm_input *in, const char *name, const char *text, size_t len,
		     struct parm_source **out, struct parm_err *err);

/* The location of byte pos of a logical line. */
struct parm_loc parm_source_loc(const struct parm_source *src, const struct parm_logical *lg,
				size_t pos);

#endif /* IORAMP_PARM_SOURCE_H */
