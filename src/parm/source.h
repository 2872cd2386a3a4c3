/* Private to src/parm: the text of an execution's parameter files after include=, comment
 * removal, variable substitution and line joining, with the origin of every character. */
#ifndef IORAMP_PARM_SOURCE_H
#define IORAMP_PARM_SOURCE_H

#include <stdbool.h>
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

/* A line being built: text plus the original 1-based column of every byte. */
struct parm_line_buf {
	char *text;
	uint32_t *col;
	size_t len;
	size_t cap;
};

int parm_line_buf_put(struct parm_line_buf *b, char c, uint32_t col);
void parm_line_buf_fini(struct parm_line_buf *b);

/* Copies text into out (empty on entry) with $host/!host/#host replaced by host and host_nr
 * (host NULL: none), then each variable in order; marks the variables used. *did tells
 * whether anything was replaced. Returns 0 or -ENOMEM. */
int parm_subst_line(const char *text, const char *host, int host_nr, struct parm_var *vars,
		    size_t nr_vars, struct parm_line_buf *out, bool *did);

/* Whether a line holds $host, !host or #host (it is then repeated per HD). */
bool parm_has_host_token(const char *text);

/* Reads every input file (or the in-memory text when text != NULL) into a new source.
 * Returns 0, or a negative errno with *err filled; *out is set in both cases so that err->loc
 * stays printable until parm_source_free(). */
int parm_source_read(const struct parm_input *in, const char *name, const char *text, size_t len,
		     struct parm_source **out, struct parm_err *err);

/* The location of byte pos of a logical line. */
struct parm_loc parm_source_loc(const struct parm_source *src, const struct parm_logical *lg,
				size_t pos);

#endif /* IORAMP_PARM_SOURCE_H */
