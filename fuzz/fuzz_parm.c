/* libFuzzer target: bytes as a parameter file through the reader, lexer, parser, planner and the
 * -s listing. Any input must end in success or a located error, never a crash or a hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/parm.h"
#include "ioramp/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct parm_var vars[] = { { .name = "lun", .value = "/tmp/x" },
				   { .name = "n", .value = "4" } };
	struct parm_input in = { .vars = vars, .nr_vars = 2 };
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct plan *plan = NULL;
	struct parm_err err;
	FILE *devnull;

	if (size > 1 << 16)
		return 0;
	if (parm_config_read_text("fuzz.vdb", (const char *)data, size, &in, &cfg, &keep, &err)) {
		devnull = fopen("/dev/null", "w");
		if (devnull) {
			parm_err_print(&err, devnull);
			fclose(devnull);
		}
		parm_source_free(keep);
		return 0;
	}
	if (!plan_build(cfg, &plan, &err) && plan->nr_runs < 100000) {
		devnull = fopen("/dev/null", "w");
		if (devnull) {
			plan_print_simulation(plan, devnull, &err);
			plan_check_runnable(plan, &err);
			fclose(devnull);
		}
	}
	plan_free(plan);
	parm_config_free(cfg);
	return 0;
}
