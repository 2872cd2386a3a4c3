/* Private to src/cli: the parsed VDbench-style command line. */
#ifndef IORAMP_CLI_ARGS_H
#define IORAMP_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ioramp/dv.h"
#include "ioramp/parm.h"

struct cli_args {
	const char **files; /* argv words, or for a library profile (-f sql) its path */
	size_t nr_files;
	char **lib_files; /* the library paths in files, owned */
	size_t nr_lib_files;
	struct parm_var *vars; /* name=value: name and value point into argv */
	size_t nr_vars;
	struct parm_overrides overrides;
	const char *outdir; /* NULL: "output" */
	const char *engine; /* --engine, NULL: the parameter file's or the default */
	const char *sla;    /* --sla LIST, NULL: the default thresholds */
	const char *record; /* --record FILE */
	const char *map;    /* --map DEV=SD,... for trace replay */
	uint64_t seed;
	struct dv_opts dv;	 /* -v, -vr, -vw, -j, -jr, -jro, -jn, -jri */
	uint64_t host_timeout_s; /* --host-timeout: an MPI job's lost-rank deadline */
	bool has_seed;
	bool has_host_timeout;
	bool is_simulate;
	bool is_json;
	bool is_force;
	bool is_strict; /* --strict */
	bool in_files;	/* parsing state: bare words after -f are files */
};

/* Parses argv (which it may modify: name=value is split at '='). Prints the problem and
 * returns -EINVAL on a usage error. */
int cli_args_parse(struct cli_args *a, int argc, char **argv);
void cli_args_fini(struct cli_args *a);

/* Adds path (allocated) as a parameter file a owns. Returns 0, or -ENOMEM with path still
 * the caller's. */
int cli_args_own_file(struct cli_args *a, char *path);

/* VDbench's other options (args_vdb.c): -t, -tf, -m, -l, -r, -co, -cy, -cn, and -p, -k, -d,
 * taken with a note. Returns 1 when argv[*i] is none of them, else 0 or -EINVAL (printed). */
int cli_args_vdbench(struct cli_args *a, int argc, char **argv, int *i);

/* The value of -e, -i or -w (whole seconds, no m/h suffix, as VDbench) into *out, setting
 * *has. Prints the problem and returns -EINVAL for a value that is no such time. */
int cli_args_time(const char *opt, const char *val, uint64_t *out, bool *has);

#endif /* IORAMP_CLI_ARGS_H */
