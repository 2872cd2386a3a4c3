/* trace profile --check: the profile written, read back as a parameter file, synthesized as
 * trace synth does (every RD back to back, for the traces' duration) and its fidelity figures
 * compared with the traces'. Nothing is opened but the traces: the luns are never touched. */
#include "cli.h"
#include "synth.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/trace.h"

#define CHECK_LUN "/nonexistent/ioramp-check/lun%d" /* never opened by synth */

static int check_emit(void *ctx, const struct eng_synth_io *io)
{
	struct trace_rec rec = {
		.time_ns = io->time_ns,
		.offset_bytes = io->offset_bytes,
		.size_bytes = io->size_bytes,
		.dev = io->sd, /* the profile numbers its SDs as the traced devices */
		.op = io->is_write ? TRACE_OP_WRITE : TRACE_OP_READ,
	};

	return trace_fid_add(ctx, &rec);
}

/* Parses the profile text and synthesizes it into syn. Returns 0 or an exit code. */
static int check_synth(const char *text, size_t len, double duration_s, uint64_t seed,
		       struct trace_fid *syn)
{
	struct parm_var var = { .name = "lun", .value = CHECK_LUN };
	struct parm_input in = { .vars = &var, .nr_vars = 1 };
	struct cli_synth_opts o = {
		.seed = seed,
		.duration_ns = (uint64_t)llround(duration_s * 1e9) + 1,
		.is_all_runs = true,
	};
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct plan *plan = NULL;
	struct parm_err err;
	int64_t nr;
	int rc = CLI_EXIT_OK;

	if (parm_config_read_text("profile", text, len, &in, &cfg, &keep, &err) ||
	    plan_build(cfg, &plan, &err) || plan_check_runnable(plan, &err)) {
		fprintf(stderr, "ioramp trace profile --check: the profile does not read back:\n");
		parm_err_print(&err, stderr);
		rc = CLI_EXIT_FAILED;
		goto out;
	}
	nr = cli_synth_plan(plan, &o, check_emit, syn, &err);
	if (nr < 0) {
		if (nr == -EINVAL)
			parm_err_print(&err, stderr);
		else
			fprintf(stderr, "ioramp trace profile --check: %s\n", strerror((int)-nr));
		rc = CLI_EXIT_FAILED;
	}
out:
	plan_free(plan);
	parm_config_free(cfg);
	parm_source_free(keep);
	return rc;
}

static int check_print(const struct trace_profile_cfg *cfg, const struct trace_fid_row *rows,
		       bool is_json)
{
	bool is_ok = trace_fid_rows_ok(rows);

	if (is_json) {
		json_t *paths = json_array(), *doc;
		int ret;

		for (size_t i = 0; paths && i < cfg->nr_paths; i++)
			json_array_append_new(paths, json_string(cfg->paths[i]));
		doc = json_pack("{s:s,s:o*,s:b,s:o*}", "schema", "ioramp-trace-fidelity/1",
				"traces", paths, "ok", is_ok, "figures",
				(json_t *)trace_fid_json(rows, "trace", "synthesized"));
		ret = doc ? json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : -1;
		json_decref(doc);
		if (ret < 0) {
			fprintf(stderr, "ioramp trace: cannot write JSON\n");
			return CLI_EXIT_FAILED;
		}
		printf("\n");
	} else {
		trace_fid_print(rows, "trace", "synthesized", stdout);
		printf("%s\n", is_ok ? "every figure within its tolerance"
				     : "some figures outside their tolerance (NO)");
	}
	return is_ok ? CLI_EXIT_OK : CLI_EXIT_FAILED;
}

int cli_trace_profile_check(const struct trace_profile_cfg *cfg, FILE *profile_out,
			    uint64_t seed, bool is_json)
{
	struct trace_fid_row rows[TRACE_FID_NR];
	struct trace_fid *tfid = NULL, *syn = NULL;
	struct trace_fid_figs figs;
	struct trace_err err;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc = CLI_EXIT_FAILED, ret;

	if (!mem)
		return CLI_EXIT_FAILED;
	ret = trace_profile_write(cfg, mem, &tfid, &err);
	if (fclose(mem) || ret < 0) {
		if (ret < 0)
			trace_err_print(&err, stderr);
		goto out;
	}
	if (profile_out && fwrite(text, 1, len, profile_out) != len) {
		fprintf(stderr, "ioramp trace profile: cannot write the profile\n");
		goto out;
	}
	if (trace_fid_figs(tfid, &figs) < 0 || trace_fid_new(&syn) < 0)
		goto out_oom;
	rc = check_synth(text, len, figs.duration_s, seed, syn);
	if (rc)
		goto out;
	if (trace_fid_compare(tfid, syn, rows) < 0)
		goto out_oom;
	rc = check_print(cfg, rows, is_json);
	goto out;
out_oom:
	fprintf(stderr, "ioramp trace: out of memory\n");
	rc = CLI_EXIT_FAILED;
out:
	trace_fid_free(tfid);
	trace_fid_free(syn);
	free(text);
	return rc;
}
