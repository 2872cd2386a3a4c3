/* Shared internals of the command line: one function per subcommand. */
#ifndef IORAMP_CLI_H
#define IORAMP_CLI_H

#include <stddef.h>
#include <stdio.h>

enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAILED = 1,
	CLI_EXIT_USAGE = 2,
	CLI_EXIT_SIGINT = 130,
	CLI_EXIT_SIGTERM = 143,
};

void cli_usage(FILE *f);

/* The VDbench-style command line: -f files, -s, overrides, variables. Returns an exit code. */
int cli_run(int argc, char **argv);

/* `ioramp report DIR ...`: report.html from a saved results.json. Returns an exit code. */
int cli_report(int argc, char **argv);

/* `ioramp compare DIR1 DIR2 ...`: two results.json side by side. Returns an exit code. */
int cli_compare(int argc, char **argv);

/* DIR/results.json when arg is a directory, else arg itself (a results file). Returns 0 or
 * -ENAMETOOLONG. */
int cli_results_path(const char *arg, char *buf, size_t len);

/* "ioramp trace SUBCOMMAND ...": argv[0] is "trace". Returns an exit code. */
int cli_trace(int argc, char **argv);

/* "ioramp parseflat -i FILE|DIR -c COL...": argv[0] is "parseflat". Returns an exit code. */
int cli_parseflat(int argc, char **argv);

#endif /* IORAMP_CLI_H */
