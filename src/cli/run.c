/* The VDbench-style command line: -f files, -s, -o, -e/-i/-w overrides, name=value variables. */
#include "cli.h"

int cli_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_usage(stderr);
	return CLI_EXIT_USAGE;
}
