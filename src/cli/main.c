/* ioramp's entry point: dispatches subcommands and maps results to exit codes. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage_text[] =
	"usage: ioramp -f FILE [FILE...] [-o DIR] [-e SECS] [-i SECS] [-w SECS] [-s] [name=value ...]\n"
	"       ioramp --help | --version\n"
	"\n"
	"Reads VDbench 5.04.07 raw-I/O parameter files and runs them.\n"
	"\n"
	"  -f FILE...   parameter files, read in order as if concatenated\n"
	"  -o DIR       output directory (default: output)\n"
	"  -e SECS      override elapsed= of every run\n"
	"  -i SECS      override interval= of every run\n"
	"  -w SECS      override warmup= of every run\n"
	"  -s           simulate: list the runs the files define, run nothing\n"
	"  name=value   substitute $name and !name in the parameter files\n"
	"  --help       this text\n"
	"  --version    print the version\n"
	"\n"
	"Exit status: 0 success, 1 run failed, 2 bad usage or parameters, 130/143 interrupted.\n"
	"See ioramp(1) and ioramp-parm(5).\n";

void cli_usage(FILE *f)
{
	fputs(usage_text, f);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		cli_usage(stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("ioramp %s\n", IORAMP_VERSION);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "report"))
		return cli_report(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cli_compare(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "trace"))
		return cli_trace(argc - 1, argv + 1);
	return cli_run(argc, argv);
}
