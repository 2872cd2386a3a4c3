/* trace synth: a parameter file's run as the engine would issue it, written as a fio iolog v3
 * (include/ioramp/synth.h), and the loop over runs that trace profile --check shares. */
#include "synth.h"
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/trace.h"

#define NS_PER_SEC 1000000000ull

/* One run into emit, its times shifted by base_ns, up to end_ns (0: the run's own length). */
static int64_t synth_run(const struct plan *plan, size_t idx, const struct cli_synth_opts *o,
			 uint64_t base_ns, uint64_t end_ns, uint64_t *run_ns,
			 cli_synth_emit_fn *emit, void *ctx, struct parm_err *err)
{
	struct eng_synth *s;
	struct eng_synth_io io;
	int64_t nr = 0;
	int ret = eng_synth_new(&s, plan, idx, o->seed, err);

	if (ret)
		return ret;
	*run_ns = eng_synth_run_seconds(s) * NS_PER_SEC;
	if (!end_ns || end_ns > base_ns + *run_ns)
		end_ns = base_ns + *run_ns;
	while ((ret = eng_synth_next(s, &io)) > 0 && io.time_ns + base_ns < end_ns) {
		io.time_ns += base_ns;
		ret = emit(ctx, &io);
		if (ret < 0)
			break;
		nr++;
	}
	eng_synth_free(s);
	return ret < 0 ? ret : nr;
}

int64_t cli_synth_plan(const struct plan *plan, const struct cli_synth_opts *o,
		       cli_synth_emit_fn *emit, void *ctx, struct parm_err *err)
{
	uint64_t base_ns = 0;
	int64_t total = 0;

	if (!plan->nr_runs)
		return parm_errf(err, NULL, "the parameter file has no run"), -EINVAL;
	for (size_t i = 0; i < (o->is_all_runs ? plan->nr_runs : 1); i++) {
		uint64_t run_ns = 0;
		int64_t nr;

		if (o->duration_ns && base_ns >= o->duration_ns)
			break;
		nr = synth_run(plan, i, o, base_ns, o->duration_ns, &run_ns, emit, ctx, err);
		if (nr < 0)
			return nr;
		total += nr;
		base_ns += run_ns;
	}
	return total;
}

/* ---- the subcommand ---------------------------------------------------------------------- */

static const char synth_usage_text[] =
	"usage: ioramp trace synth FILE.vdb... [name=value ...] [--seed N] [--duration S] [--all]\n"
	"                          -o OUT.iolog\n"
	"\n"
	"The I/O stream the first RD of the parameter file would issue, drawn by the engine's own\n"
	"generators on the scheduled arrival times, as a fio iolog v3. No lun is opened: every SD\n"
	"needs size=. iorate=max and curves have no schedule and are refused.\n"
	"\n"
	"  name=value    variable substitution ($name in the file), as on a run\n"
	"  --seed N      the run's seed (default 1); the same seed gives the same stream\n"
	"  --duration S  seconds to synthesize (a fraction is fine; default warmup + elapsed)\n"
	"  --all         every run of the plan back to back, each for its warmup + elapsed\n"
	"  -o FILE       the iolog to write\n";

struct synth_args {
	const char **files;
	size_t nr_files;
	struct parm_var *vars;
	size_t nr_vars;
	struct cli_synth_opts o;
	const char *out_path;
};

static int synth_usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "ioramp trace synth: ");
	fprintf(stderr, msg, arg);
	fprintf(stderr, "\n%s", synth_usage_text);
	return CLI_EXIT_USAGE;
}

static int parse_seconds(const char *text, uint64_t *ns)
{
	char *end;
	double s = strtod(text, &end);

	if (end == text || *end || !isfinite(s) || s <= 0 || s > 1e9)
		return -EINVAL;
	*ns = (uint64_t)llround(s * 1e9);
	return 0;
}

static int synth_opt(struct synth_args *a, int c, const char *arg)
{
	char *end;

	switch (c) {
	case 's':
		a->o.seed = strtoull(arg, &end, 0);
		if (end == arg || *end || *arg == '-')
			return synth_usage_error("bad --seed %s; expected a number", arg);
		return 0;
	case 'd':
		if (parse_seconds(arg, &a->o.duration_ns))
			return synth_usage_error("bad --duration %s; expected seconds above 0",
						 arg);
		return 0;
	case 'a':
		a->o.is_all_runs = true;
		return 0;
	case 'o':
		a->out_path = arg;
		return 0;
	case 'h':
		fputs(synth_usage_text, stdout);
		return -1;
	default:
		fputs(synth_usage_text, stderr);
		return CLI_EXIT_USAGE;
	}
}

/* Words are files or name=value; the value part is split off in place. */
static int synth_word(struct synth_args *a, char *word)
{
	char *eq = strchr(word, '=');

	if (!eq) {
		a->files[a->nr_files++] = word;
		return 0;
	}
	if (eq == word)
		return synth_usage_error("bad variable %s; expected name=value", word);
	*eq = '\0';
	a->vars[a->nr_vars++] = (struct parm_var){ .name = word, .value = eq + 1 };
	return 0;
}

static int synth_parse(int argc, char **argv, struct synth_args *a)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	a->o.seed = 1;
	a->files = calloc((size_t)argc, sizeof(*a->files));
	a->vars = calloc((size_t)argc, sizeof(*a->vars));
	if (!a->files || !a->vars)
		return CLI_EXIT_FAILED;
	optind = 0;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		ret = synth_opt(a, c, optarg);
		if (ret)
			return ret;
	}
	for (int i = optind; i < argc; i++) {
		ret = synth_word(a, argv[i]);
		if (ret)
			return ret;
	}
	if (!a->nr_files)
		return synth_usage_error("%s", "no parameter file given");
	if (!a->out_path)
		return synth_usage_error("%s", "no -o OUT.iolog given");
	return 0;
}

struct synth_out {
	struct trace_writer *w;
	int *file_of_sd; /* -1: not declared yet */
	const struct parm_config *cfg;
};

static int synth_emit(void *ctx, const struct eng_synth_io *io)
{
	struct synth_out *so = ctx;
	struct trace_rec rec = {
		.time_ns = io->time_ns,
		.offset_bytes = io->offset_bytes,
		.size_bytes = io->size_bytes,
		.op = io->is_write ? TRACE_OP_WRITE : TRACE_OP_READ,
	};

	rec.dev = (uint32_t)so->file_of_sd[io->sd];
	return trace_writer_add(so->w, &rec);
}

/* The iolog declares every SD of the runs synthesized, in config order, at time 0 (as
 * --record declares those of the plan). */
static int synth_declare(struct synth_out *so, const struct plan *plan, bool is_all)
{
	const struct parm_config *cfg = plan->cfg;

	for (size_t s = 0; s < cfg->nr_sds; s++) {
		bool is_used = false;
		int idx;

		for (size_t r = 0; r < (is_all ? plan->nr_runs : 1) && !is_used; r++) {
			const struct plan_run *pr = &plan->runs[r];

			for (size_t w = 0; w < pr->nr_wds && !is_used; w++) {
				const size_t *ix = pr->sd_idx ? pr->sd_idx : pr->wds[w]->sd_idx;
				size_t n = pr->sd_idx ? pr->nr_sd : pr->wds[w]->nr_sd;

				for (size_t k = 0; k < n; k++)
					is_used |= ix[k] == s;
			}
		}
		so->file_of_sd[s] = -1;
		if (!is_used)
			continue;
		idx = trace_writer_file(so->w, cfg->sds[s].lun, 0);
		if (idx < 0) {
			fprintf(stderr, "ioramp trace synth: lun=%s cannot be written: %s\n",
				cfg->sds[s].lun, strerror(-idx));
			return idx;
		}
		so->file_of_sd[s] = idx;
	}
	return 0;
}

static int synth_write(const struct synth_args *a, const struct plan *plan)
{
	struct synth_out so = { .cfg = plan->cfg };
	struct trace_err terr;
	struct parm_err err;
	int64_t nr;
	int ret;

	so.file_of_sd = calloc(plan->cfg->nr_sds ? plan->cfg->nr_sds : 1, sizeof(int));
	if (!so.file_of_sd)
		return CLI_EXIT_FAILED;
	ret = trace_writer_open(&so.w, a->out_path, &terr);
	if (ret) {
		trace_err_print(&terr, stderr);
		free(so.file_of_sd);
		return CLI_EXIT_FAILED;
	}
	ret = synth_declare(&so, plan, a->o.is_all_runs);
	nr = ret ? ret : cli_synth_plan(plan, &a->o, synth_emit, &so, &err);
	if (nr == -EINVAL)
		parm_err_print(&err, stderr);
	else if (nr < 0)
		fprintf(stderr, "%s: error: cannot write: %s\n", a->out_path, strerror((int)-nr));
	ret = trace_writer_close(so.w);
	if (ret && nr >= 0) {
		fprintf(stderr, "%s: error: cannot write: %s\n", a->out_path, strerror(-ret));
		nr = ret;
	}
	free(so.file_of_sd);
	if (nr < 0)
		return nr == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAILED;
	printf("%" PRId64 " I/Os written to %s\n", nr, a->out_path);
	return CLI_EXIT_OK;
}

int cli_trace_synth(int argc, char **argv)
{
	struct synth_args a = { 0 };
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct plan *plan = NULL;
	struct parm_err err;
	int rc = synth_parse(argc, argv, &a);

	if (rc)
		goto out;
	{
		struct parm_input in = { .files = a.files,
					 .nr_files = a.nr_files,
					 .vars = a.vars,
					 .nr_vars = a.nr_vars };
		int ret = parm_config_read(&in, &cfg, &keep, &err);

		if (ret) {
			parm_err_print(&err, stderr);
			rc = ret == -ENOMEM ? CLI_EXIT_FAILED : CLI_EXIT_USAGE;
			goto out;
		}
	}
	if (plan_build(cfg, &plan, &err) || plan_check_runnable(plan, &err)) {
		parm_err_print(&err, stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	rc = synth_write(&a, plan);
out:
	plan_free(plan);
	parm_config_free(cfg);
	parm_source_free(keep);
	free(a.files);
	free(a.vars);
	return rc < 0 ? CLI_EXIT_OK : rc;
}
