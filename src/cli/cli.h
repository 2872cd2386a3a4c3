/* Shared internals of the command line: one function per subcommand. */
#ifndef IORAMP_CLI_H
#define IORAMP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/dv.h"

struct plan;
struct parm_config;
struct clu_comm;
struct eng_cluster;

enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILED = 1,
	CLI_EXIT_USAGE = 2,
	CLI_EXIT_SIGHUP = 129,
	CLI_EXIT_SIGINT = 130,
	CLI_EXIT_SIGPIPE = 141,
	CLI_EXIT_SIGTERM = 143,
};

void cli_usage(FILE *f);

/* The exit status of a trace that cannot be read: 1 for an I/O error or no memory, 2 for a
 * missing, unknown or malformed trace (an input error, as a bad parameter file is). */
int cli_trace_exit(int64_t ret);

/* The VDbench-style command line: -f files, -s, overrides, variables. Returns an exit code. */
int cli_run(int argc, char **argv);

/* rc, or CLI_EXIT_FAILED when rc is CLI_EXIT_OK and stdout could not be written (a full
 * disk, /dev/full), said on stderr; a closed pipe (EPIPE) is SIGPIPE's, not this (main.c). */
int cli_stdout_status(int rc);

/* The same in an MPI job of two or more ranks (cluster_run.c): rank 0 reads the files and every
 * rank parses its copy; rank 0 prints and reports. *is_lost tells main() that some rank was
 * lost, so the job must be aborted rather than finalized. Returns the exit code, the same on
 * every rank. */
int cli_run_cluster(int argc, char **argv, struct clu_comm *comm, bool *is_lost);

/* How one execution runs, as `ioramp -f` runs it: every report observer, VDbench's output
 * directory plus results.json, curves.csv and report.html. */
struct cli_exec_opts {
	const char *outdir; /* -o spec (VDbench's rules); NULL: "output" */
	const char *engine; /* NULL: the parameter file's engine= or the default */
	const char *sla;    /* --sla LIST; NULL: the default thresholds */
	const char *record; /* --record FILE; NULL: none */
	const char *map;    /* --map DEV=SD,... for trace replay; NULL: in order */
	uint64_t seed;	    /* used when has_seed, else a seed from the clock (printed) */
	struct dv_opts dv;  /* data validation options of the command line */
	bool has_seed;
	bool is_json;
	bool is_force;
	bool is_strict; /* --strict: a run that missed its target makes the exit code 1 */
	int argc;	/* the command line the reports record */
	char **argv;
	/* Several executions in a row (ioramp suite): the status line's prefix ("sql 2/16") and
	 * the planned seconds of the executions still to come; NULL and 0 otherwise. */
	const char *status_label;
	uint64_t status_later_s;
	const struct eng_cluster *cluster; /* an MPI job; NULL: one host */
	bool *is_lost;			   /* out, with cluster: some rank was lost */
};

/* Executes plan (run.c), catching SIGINT and SIGTERM while it runs. Prints errors. Returns an
 * exit code: 0, 1 failed, 2 rejected before any I/O, 130/143 interrupted. */
int cli_exec_plan(const struct plan *plan, const struct cli_exec_opts *o);

struct parm_val;
struct rep_set;

/* Which startcmd=/endcmd= a command is: general (the master runs it), or an RD's before or
 * after its run (on its slave unless master). */
enum cli_cmd_when {
	CLI_CMD_GENERAL,
	CLI_CMD_RD_START,
	CLI_CMD_RD_END,
};

/* Runs a startcmd=/endcmd= value with /bin/sh, $output replaced by outdir, saying so and what
 * it printed through reps (VDbench's lines); reps NULL prints nothing. A failure is printed as
 * a warning at the value's place. Returns 0, or -1 when the command failed. */
int cli_command_run(const struct parm_val *v, const char *outdir, struct rep_set *reps,
		    enum cli_cmd_when when);

/* A located warning on stderr for each list given where VDbench takes one number (it uses
 * the first value). */
void cli_note_first_values(const struct parm_config *cfg, FILE *f);

/* Installs the SIGINT/SIGTERM/SIGHUP/SIGPIPE handlers that stop an execution at the end of its
 * interval; all four drain the I/O in flight and write every report. */
void cli_signals_catch(void);

/* 128 + the signal once one of them has come (130, 143, 129, 141), else 0. */
int cli_signal_exit(void);

/* "SIGINT" and so on once one of them has come, else NULL. */
const char *cli_signal_name(void);

/* `ioramp workloads`: the workload library, one line per profile. Returns an exit code. */
int cli_workloads(int argc, char **argv);

/* `ioramp suite --drives ...`: the review suite, one execution per profile and one combined
 * report. Returns an exit code. */
int cli_suite(int argc, char **argv);

/* `ioramp demo`: the SQL profile on eight small files, then the report. Returns an exit code. */
int cli_demo(int argc, char **argv);

/* `ioramp report DIR ...`: report.html from a saved results.json. Returns an exit code. */
int cli_report(int argc, char **argv);

/* `ioramp compare DIR1 DIR2 ...`: two results.json side by side. Returns an exit code. */
int cli_compare(int argc, char **argv);

/* DIR/results.json when arg is a directory (DIR/flatfile.html when it holds no results.json
 * but that: VDbench's own output), else arg itself (a results file). Returns 0 or
 * -ENAMETOOLONG. */
int cli_results_path(const char *arg, char *buf, size_t len);

/* "ioramp trace SUBCOMMAND ...": argv[0] is "trace". Returns an exit code. */
int cli_trace(int argc, char **argv);

/* "ioramp parseflat -i FILE|DIR -c COL...": argv[0] is "parseflat". Returns an exit code. */
int cli_parseflat(int argc, char **argv);

#endif /* IORAMP_CLI_H */
