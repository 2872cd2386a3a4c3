/* The VDbench-style command line: read the parameter files, plan the runs, then simulate (-s)
 * or execute them. Only this layer prints errors, with their place in the text. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

#include "args.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"

static int read_config(const struct cli_args *a, struct parm_config **cfg)
{
	struct parm_input in = {
		.files = a->files,
		.nr_files = a->nr_files,
		.vars = a->vars,
		.nr_vars = a->nr_vars,
		.overrides = a->overrides,
	};
	struct parm_source *keep = NULL;
	struct parm_err err;
	int ret = parm_config_read(&in, cfg, &keep, &err);

	if (ret) {
		parm_err_print(&err, stderr);
		parm_source_free(keep);
		return ret == -ENOMEM ? CLI_EXIT_FAILED : CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

int cli_run(int argc, char **argv)
{
	struct cli_args a;
	struct parm_config *cfg = NULL;
	struct plan *plan = NULL;
	struct parm_err err;
	int rc;

	if (argc < 2) {
		cli_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (cli_args_parse(&a, argc, argv)) {
		cli_args_fini(&a);
		return CLI_EXIT_USAGE;
	}
	rc = read_config(&a, &cfg);
	if (rc)
		goto out;
	if (plan_build(cfg, &plan, &err)) {
		parm_err_print(&err, stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (a.is_simulate) {
		rc = plan_print_simulation(plan, stdout, &err) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
		goto out;
	}
	fprintf(stderr, "ioramp: error: running workloads is not implemented yet; use -s\n");
	rc = CLI_EXIT_FAILED;
out:
	plan_free(plan);
	parm_config_free(cfg);
	cli_args_fini(&a);
	return rc;
}
