/* Private to src/cli: the review suite that `ioramp suite` and `ioramp demo` run: library
 * profiles read with one SD per drive, planned up front, confirmed, executed in order, then
 * one review page over all of them. */
#ifndef IORAMP_CLI_SUITE_H
#define IORAMP_CLI_SUITE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ioramp/engine.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "library.h"

/* What the command line asks for. The drives and profiles arrays and their strings are owned
 * (cli_suite_fini frees them); other strings point into argv or static text. */
struct cli_suite_opts {
	const char **drives;
	size_t nr_drives;
	const char **profiles; /* library names or files, in order; NULL: the library's set */
	size_t nr_profiles;
	const char *outdir; /* -o spec; NULL: "suite" */
	const char *engine; /* NULL: each file's engine= or the default */
	const char *size;   /* --size: size= for drives that are not block devices */
	const char *sla;    /* --sla LIST */
	double *curve_pcts; /* --curve: replaces every curve's points (owned); NULL: as written */
	size_t nr_curve_pcts;
	struct parm_overrides overrides; /* -e -i -w */
	uint64_t seed;
	bool has_seed;
	bool has_precondition; /* run precondition first */
	bool is_yes;	       /* --yes: no confirmation asked */
	bool is_force;	       /* --force: devices with signatures may be written */
	bool is_page_cache;    /* drop o_direct (the demo on a file system without direct I/O) */
	bool is_formatsds;     /* formatsds=yes first: every drive written in full (the demo) */
	int argc;	       /* the command line the reports record */
	char **argv;
};

/* A drive as found before anything runs. */
struct cli_drive {
	const char *path;
	bool exists;
	struct eng_target_info info;
};

/* A profile read and planned, then executed. */
struct cli_suite_profile {
	char *name; /* "sql" */
	char path[PATH_MAX];
	struct cli_profile_info info;
	struct parm_config *cfg;
	struct plan *plan;
	uint64_t planned_s; /* elapsed + warmup of every run */
	bool is_writing;    /* some workload writes */
	char figures[256];  /* "97% read, 8k, 32 threads per drive" */
	char outdir[PATH_MAX];
	bool has_run;
	int status; /* its exit code once run */
};

struct cli_suite {
	struct cli_suite_opts o;
	struct cli_drive *drives;
	struct cli_suite_profile *p;
	size_t nr;
	char outdir[PATH_MAX];
	char drives_label[128]; /* the curves' legend: "SAMSUNG MZQL23T8HCLS x8", "8 files" */
};

/* Describes the drives, reads and plans every profile, before anything is written. Prints
 * the problems. Returns an exit code (0: ready). s->o must be filled; s is otherwise zero. */
int cli_suite_prepare(struct cli_suite *s);

/* Prints what the suite will write to and, for block devices written to, asks: --yes, or
 * "yes" typed on the terminal (/dev/tty). Returns 0 to go on, 1 when the answer was no, 2
 * when there is no terminal to ask on and no --yes. */
int cli_suite_confirm(const struct cli_suite *s);

/* Runs the profiles in order, each into its own subdirectory of the output directory, stops
 * at the first that fails or is interrupted, then writes DIR/report.html over the profiles
 * run and prints their summary. Returns an exit code. */
int cli_suite_execute(struct cli_suite *s);

void cli_suite_fini(struct cli_suite *s);

/* The figures line of a profile's plan: "97% read · 8k · 32 threads per drive". */
void cli_suite_figures(const struct plan *plan, char *buf, size_t len);
/* The curves' legend: the drives' model when they share one ("MODEL ×8", models[i] "" when
 * unknown), else a count of drives (nr_block > 0) or files; modelled drives say so ("8
 * modelled drives"). */
void cli_suite_drives_label(char *buf, size_t len, bool is_modelled, const char *const *models,
			    size_t nr, size_t nr_block);

/* ---- parameter text (suite_text.c) ------------------------------------------------------- */

/* text (a library file) with its drives line, the one line with "lun=$lun", commented out and
 * followed by one SD per drive: NAME0 ... NAME<nr-1> (NAME from the line's sd=), lun= the
 * drive, and ",size=SIZE" for drives that are not block devices when size is given. Returns
 * 0 with *out (the caller frees it), -ENOENT when there is no such line, -EEXIST when there
 * are two, or -ENOMEM. */
int cli_suite_text(const char *text, const struct cli_drive *drives, size_t nr, const char *size,
		   char **out);

/* --curve LIST: comma-separated percentages (10,50,100). Returns the count with *pcts (the
 * caller frees it), or -EINVAL. */
int cli_suite_parse_curve(const char *list, double **pcts);

/* Replaces the points of every curve RD (iorate=curve) of cfg by pcts. Returns 0 or -ENOMEM. */
int cli_suite_set_curve(struct parm_config *cfg, const double *pcts, size_t nr);

/* Removes o_direct from every SD, WD and RD of cfg (a file system without direct I/O). */
void cli_suite_drop_direct(struct parm_config *cfg);

#endif /* IORAMP_CLI_SUITE_H */
