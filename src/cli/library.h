/* Private to src/cli: the workload library (workloads/NAME.vdb): where it is installed, which
 * profiles it has, what their header comments say, and bare names given to -f. */
#ifndef IORAMP_CLI_LIBRARY_H
#define IORAMP_CLI_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

struct plan;

/* The library directory: the first that exists of $IORAMP_WORKLOADS, workloads/ next to the
 * binary (for a binary inside a build/ directory: the source tree's workloads/) and
 * IORAMP_DATADIR/workloads (where `make install` puts it). Returns 0 with the path in buf, or
 * -ENOENT when none exists. */
int cli_library_dir(char *buf, size_t len);

/* Whether arg names a library profile rather than a file: not empty, no '/', no ".vdb". */
bool cli_library_is_name(const char *arg);

/* DIR/NAME.vdb of the library when it is a file. Returns 0 with the path in buf, -ENOENT (no
 * library, or no such profile) or -ENAMETOOLONG. */
int cli_library_find(const char *name, char *buf, size_t len);

/* The file a -f argument names: *out stays NULL when arg is to be read as given (it exists, or
 * is not a bare name, or the library has no such profile); else *out is the library file's
 * path, which the caller frees. Returns 0 or -ENOMEM. */
int cli_library_resolve(const char *arg, char **out);

/* The library profile closest to a bare name that is none ("did you mean"): true with it in
 * buf, false when none is close or there is no library. */
bool cli_library_suggest(const char *name, char *buf, size_t len);

/* The profiles of directory dir (NAME of every NAME.vdb), sorted by name. Returns the count
 * with *names an array the caller frees with cli_library_names_free(), or -errno. */
int cli_library_names(const char *dir, char ***names);
void cli_library_names_free(char **names, int nr);

/* What a profile file's first comment paragraph says: "NAME.vdb - \"Title\": description.
 * More sentences." gives the title and the first sentence's description, without the
 * library's closing ", as named in ..." clause. A file without a quoted title gets the
 * profile name as its title. */
struct cli_profile_info {
	char title[64];
	char desc[512];
};

/* Reads path's header. Returns 0, or -errno when the file cannot be read. */
int cli_library_info(const char *path, const char *name, struct cli_profile_info *info);

/* The figures `ioramp workloads` lists for a planned profile (workloads.c), over all its runs:
 * read % weighted by skew ("79.21", or "0-100" when runs differ), transfer sizes ("8k,64k")
 * and threads per drive ("16,64"); "?" without runs. Each buffer has len bytes. */
void cli_profile_figures(const struct plan *plan, char *rdpct, char *sizes, char *threads,
			 size_t len);

#endif /* IORAMP_CLI_LIBRARY_H */
