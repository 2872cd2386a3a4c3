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

/* The profile of tp as text, in *text (malloc'ed). Returns 0 or -ENOMEM. */
static int profile_text(struct trace_profile *tp, char **text, size_t *len)
{
	FILE *mem = open_memstream(text, len);

	if (!mem)
		return -ENOMEM;
	trace_profile_emit(tp, mem);
	return fclose(mem) ? -ENOMEM : 0;
}

/* The profile as it is now, synthesized for the traces' duration into a new *syn. Returns 0
 * or an exit code (printed). */
static int synth_profile(struct trace_profile *tp, uint64_t seed, struct trace_fid **syn)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	*syn = NULL;
	if (profile_text(tp, &text, &len) || trace_fid_new(syn) < 0) {
		free(text);
		fprintf(stderr, "ioramp trace: out of memory\n");
		return CLI_EXIT_FAILED;
	}
	rc = check_synth(text, len, trace_profile_duration_s(tp), seed, *syn);
	free(text);
	return rc;
}

enum {
	CAL_ROUNDS = 8,
	CAL_SEED = 0x5ca1ab1e, /* not --check's seed: the check must not see the seed fitted to */
};

/* Calibration of one device's packing: the footprint falls and the hot 10 % share rises as
 * the packing grows, so the packing where both are off by the same part of their tolerances
 * (g = 0) is the one the worse of the two is best at; found by bracketing, then regula falsi
 * on log kappa. */
struct cal_dev {
	double lo, g_lo, hi, g_hi; /* kappa with g > 0 (too little packing), g < 0; 0: none yet */
	double best, best_cost;
	bool is_done;
};

static double cal_next(struct cal_dev *c, double kappa, double g)
{
	if (g > 0) {
		c->lo = kappa;
		c->g_lo = g;
	} else {
		c->hi = kappa;
		c->g_hi = g;
	}
	if (!c->hi)
		return kappa * 2;
	if (!c->lo)
		return kappa / 2;
	return exp((log(c->lo) * -c->g_hi + log(c->hi) * c->g_lo) / (c->g_lo - c->g_hi));
}

/* One round over every device. Returns true when every device is done. */
static bool cal_round(struct trace_profile *tp, struct trace_fid *syn, struct cal_dev *cal)
{
	bool is_all_done = true;

	for (size_t d = 0; d < trace_profile_nr_devs(tp); d++) {
		uint64_t t_nr, t_fp, s_nr, s_fp;
		double t_hot, s_hot, e_fp, e_hot, cost, kappa = trace_profile_kappa(tp, d);

		if (cal[d].is_done)
			continue;
		trace_profile_dev_target(tp, d, &t_nr, &t_fp, &t_hot);
		if (trace_fid_dev_space(syn, (uint32_t)d, &s_nr, &s_fp, &s_hot) || !t_fp || !s_nr)
			continue;
		e_fp = ((double)s_fp / (double)t_fp - 1) / 0.10;
		e_hot = (s_hot - t_hot) / 5;
		cost = fmax(fabs(e_fp), fabs(e_hot));
		if (cost < cal[d].best_cost) {
			cal[d].best_cost = cost;
			cal[d].best = kappa;
		}
		if (cost < 0.2) {
			cal[d].is_done = true;
			continue;
		}
		is_all_done = false;
		trace_profile_set_kappa(tp, d, cal_next(&cal[d], kappa, e_fp - e_hot));
	}
	return is_all_done;
}

/* Corrects every device's packing by synthesizing the profile and measuring it. */
static int calibrate(struct trace_profile *tp)
{
	size_t nr = trace_profile_nr_devs(tp);
	struct cal_dev *cal = calloc(nr ? nr : 1, sizeof(*cal));
	int rc = CLI_EXIT_OK;

	if (!cal)
		return CLI_EXIT_FAILED;
	for (size_t d = 0; d < nr; d++)
		cal[d].best_cost = INFINITY;
	for (int round = 0; round < CAL_ROUNDS && rc == CLI_EXIT_OK; round++) {
		struct trace_fid *syn;
		bool is_done;

		rc = synth_profile(tp, CAL_SEED + (uint64_t)round, &syn);
		is_done = rc == CLI_EXIT_OK && cal_round(tp, syn, cal);
		trace_fid_free(syn);
		if (is_done)
			break;
	}
	for (size_t d = 0; d < nr; d++)
		if (cal[d].best_cost < INFINITY && trace_profile_kappa(tp, d) != cal[d].best)
			trace_profile_set_kappa(tp, d, cal[d].best);
	free(cal);
	return rc;
}

int cli_trace_profile(const struct trace_profile_cfg *cfg, FILE *profile_out, bool is_check,
		      uint64_t seed, bool is_json)
{
	struct trace_fid_row rows[TRACE_FID_NR];
	struct trace_profile *tp = NULL;
	struct trace_fid *syn = NULL;
	struct trace_err err;
	char *text = NULL;
	size_t len = 0;
	int rc = CLI_EXIT_FAILED;

	rc = trace_profile_new(&tp, cfg, &err);
	if (rc < 0) {
		trace_err_print(&err, stderr);
		return cli_trace_exit(rc);
	}
	rc = CLI_EXIT_FAILED;
	fputs(trace_profile_warnings(tp), stderr);
	if (calibrate(tp) || profile_text(tp, &text, &len))
		goto out;
	if (profile_out && fwrite(text, 1, len, profile_out) != len) {
		fprintf(stderr, "ioramp trace profile: cannot write the profile\n");
		goto out;
	}
	if (!is_check) {
		rc = CLI_EXIT_OK;
		goto out;
	}
	rc = synth_profile(tp, seed, &syn);
	if (rc)
		goto out;
	if (trace_fid_compare(trace_profile_fid(tp), syn, rows) < 0) {
		fprintf(stderr, "ioramp trace: out of memory\n");
		rc = CLI_EXIT_FAILED;
		goto out;
	}
	rc = check_print(cfg, rows, is_json);
out:
	trace_fid_free(syn);
	trace_profile_free(tp);
	free(text);
	return rc;
}
