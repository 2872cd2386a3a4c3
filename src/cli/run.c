/* The VDbench-style command line: read the parameter files, plan the runs, then simulate (-s)
 * or execute them with every report observer. Only this layer prints errors with their place
 * in the text, and only main() turns results into exit codes. */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "ioramp/cluster.h"
#include "ioramp/dv.h"
#include "ioramp/engine.h"
#include "ioramp/fs.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/report.h"

/* The one mutable global: which signal asked us to stop (polled by the engine). */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

void cli_signals_catch(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed terminal or a closed stdout (ioramp ... | head) must not lose the reports */
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

int cli_signal_exit(void)
{
	if (!stop_signal)
		return CLI_EXIT_OK;
	return 128 + stop_signal; /* the shell's code for death by that signal */
}

const char *cli_signal_name(void)
{
	switch (stop_signal) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGPIPE:
		return "SIGPIPE";
	default:
		return NULL;
	}
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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

static int status_exit(int status)
{
	switch (status) {
	case ENG_OK:
		return CLI_EXIT_OK;
	case ENG_BAD_PARMS:
		return CLI_EXIT_USAGE;
	case ENG_INTERRUPTED:
		return cli_signal_exit() ? cli_signal_exit() : CLI_EXIT_SIGINT;
	default:
		return CLI_EXIT_FAILED;
	}
}

/* Everything one execution's observers share, kept alive until they close. */
struct exec_ctx {
	struct rep_exec x;
	struct rep_set reps;
	struct stats_vdb_buckets buckets;
	double sla_ns[REP_SLA_MAX];
	struct rep_model model; /* modelled drives; unused otherwise */
	char outdir[4096];
	/* many hosts: the names rep_exec lists */
	const char **host_names;
	char **slave_names;
	uint32_t *slave_host;
	size_t nr_slaves;
};

static void ctx_free(struct exec_ctx *c)
{
	free(c->host_names);
	for (size_t i = 0; c->slave_names && i < c->nr_slaves; i++)
		free(c->slave_names[i]);
	free(c->slave_names);
	free(c->slave_host);
	free(c);
}

/* Many hosts, rank 0: the hosts and slaves of the host and slave reports, in the engine's
 * order (by host, then slave). */
static int ctx_hosts(struct exec_ctx *c, const struct eng_cluster *cl)
{
	const struct clu_map *m = cl->map;

	c->host_names = calloc(m->nr_hosts ? m->nr_hosts : 1, sizeof(*c->host_names));
	c->slave_names = calloc(m->nr_ranks, sizeof(*c->slave_names));
	c->slave_host = calloc(m->nr_ranks, sizeof(*c->slave_host));
	if (!c->host_names || !c->slave_names || !c->slave_host)
		return -ENOMEM;
	for (size_t h = 0; h < m->nr_hosts; h++) {
		c->host_names[h] = m->hosts[h].label;
		for (uint32_t i = 0; i < m->hosts[h].nr_ranks; i++) {
			char name[300];

			snprintf(name, sizeof(name), "%s-%u", m->hosts[h].label, i);
			c->slave_host[c->nr_slaves] = (uint32_t)h;
			if (!(c->slave_names[c->nr_slaves++] = strdup(name)))
				return -ENOMEM;
		}
	}
	c->x.nr_hosts = m->nr_hosts;
	c->x.host_names = c->host_names;
	c->x.nr_slaves = c->nr_slaves;
	c->x.slave_names = (const char *const *)c->slave_names;
	c->x.slave_host = c->slave_host;
	return 0;
}

static int histogram_buckets(const struct parm_config *cfg, struct stats_vdb_buckets *b)
{
	uint64_t ns[STATS_VDB_MAX_BOUNDS];

	if (!cfg->general.nr_histogram) {
		stats_vdb_default(b);
		return 0;
	}
	for (size_t i = 0; i < cfg->general.nr_histogram && i < STATS_VDB_MAX_BOUNDS; i++)
		ns[i] = cfg->general.histogram_us[i] * 1000;
	return stats_vdb_init(b, ns, cfg->general.nr_histogram);
}

static void notice(void *ctx, const char *text)
{
	rep_set_messagef(ctx, "%s", text);
}

static int open_reports(struct exec_ctx *c, const struct cli_exec_opts *a, uint64_t seed,
			const struct plan *plan, const struct eng_exec *ex)
{
	int nr_sla = a->sla ? rep_sla_parse(a->sla, c->sla_ns, REP_SLA_MAX) : 0;
	struct rep_outdir_err oe;
	int ret;

	if (nr_sla < 0) {
		fprintf(stderr,
			"ioramp: error: --sla %s: expected latencies such as "
			"100us,200us,500us,1ms\n",
			a->sla);
		return CLI_EXIT_USAGE;
	}
	ret = rep_outdir_create(a->outdir, wall_ns(), c->outdir, sizeof(c->outdir), &oe);
	if (ret) {
		rep_outdir_perror(stderr, "ioramp", a->outdir, c->outdir, ret, &oe);
		return CLI_EXIT_USAGE;
	}
	histogram_buckets(plan->cfg, &c->buckets);
	c->x = (struct rep_exec){
		.cfg = plan->cfg,
		.plan = plan,
		.outdir = c->outdir,
		.console = a->is_json ? stderr : stdout,
		.json_out = a->is_json ? stdout : NULL,
		.argc = a->argc,
		.argv = a->argv,
		.start_tod_ns = eng_exec_tod_ns(ex),
		.seed = seed,
		.engine = a->engine		      ? a->engine
			  : plan->cfg->general.engine ? plan->cfg->general.engine
						      : "default", /* per SD: runs[].sds[].engine */
		.model = eng_exec_model(ex, &c->model) ? &c->model : NULL,
		.tod_ns = eng_exec_tod_ns,
		.tod_ctx = ex,
		.sla_ns = c->sla_ns,
		.nr_sla = (size_t)nr_sla,
		.mb_bytes = 1048576,
		.vdb_buckets = &c->buckets,
		.sd_format_loops = eng_exec_has_format(ex) ? "threads=2 iorate=max" : NULL,
		.status_label = a->status_label,
		.status_later_s = a->status_later_s,
		.nr_jvms = a->cluster ? 1 : plan_nr_jvms(plan),
	};
	if (a->cluster && ctx_hosts(c, a->cluster))
		return CLI_EXIT_FAILED;
	if (rep_set_add(&c->reps, &rep_statusline) || rep_set_add(&c->reps, &rep_console) ||
	    rep_set_add_vdbench(&c->reps) || rep_set_add(&c->reps, &rep_json) ||
	    rep_set_add(&c->reps, &rep_curves) || rep_set_add(&c->reps, &rep_html))
		return CLI_EXIT_FAILED;
	ret = rep_set_open(&c->reps, &c->x);
	if (ret) {
		fprintf(stderr, "ioramp: error: %s: cannot write the reports: %s\n", c->outdir,
			strerror(-ret));
		return CLI_EXIT_FAILED;
	}
	plan_notices(plan, notice, &c->reps); /* console and logfile, as VDbench */
	rep_set_setup(&c->reps);	      /* VDbench's slaves start, then the luns' notices */
	if (ex)
		eng_exec_format_notices(ex, notice, &c->reps);
	return CLI_EXIT_OK;
}

/* Many hosts, every rank but 0: no output at all (rank 0 reports for all). */
static int open_quiet(struct exec_ctx *c, const struct plan *plan, uint64_t seed)
{
	c->x = (struct rep_exec){
		.cfg = plan->cfg,
		.plan = plan,
		.console = stderr,
		.start_tod_ns = wall_ns(),
		.seed = seed,
		.mb_bytes = 1048576,
	};
	return rep_set_open(&c->reps, &c->x) ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}

/* The engine's hook for an RD's startcmd=/endcmd=: ctx is the execution's exec_ctx. */
static void rd_command(void *ctx, const struct parm_val *cmd, bool is_end)
{
	struct exec_ctx *c = ctx;

	cli_command_run(cmd, c->outdir, &c->reps, is_end ? CLI_CMD_RD_END : CLI_CMD_RD_START);
}

int cli_exec_plan(const struct plan *plan, const struct cli_exec_opts *a)
{
	struct eng_opts o = {
		.engine = a->engine,
		.seed = a->has_seed ? a->seed : wall_ns(), /* printed: --seed repeats it */
		.is_force = a->is_force,
		.dv = a->dv,
		.record_path = a->record,
		.trace_map = a->map,
		.command = rd_command,
		.stop_signal = &stop_signal,
		.cluster = a->cluster,
	};
	bool is_report = !a->cluster || a->cluster->rank == 0; /* many hosts: rank 0 reports */
	struct exec_ctx *c = calloc(1, sizeof(*c));
	struct eng_exec *ex = NULL;
	struct parm_err err;
	int status, rc;

	if (!c)
		return CLI_EXIT_FAILED;
	if (!is_report)
		o.command = NULL; /* startcmd=/endcmd= run once, on rank 0 */
	status = eng_exec_new(plan, &o, &ex, &err);
	if (status != ENG_OK) {
		if (err.msg[0] && is_report)
			parm_err_print(&err, stderr);
		if (a->is_lost)
			*a->is_lost = eng_exec_has_lost_rank(ex);
		eng_exec_free(ex);
		ctx_free(c);
		return status_exit(status);
	}
	rc = is_report ? open_reports(c, a, o.seed, plan, ex) : open_quiet(c, plan, o.seed);
	o.command_ctx = c; /* the engine keeps &o: RD commands see the directory and reports */
	if (rc == CLI_EXIT_OK) {
		const struct parm_kwset *g = &plan->cfg->general.set;

		cli_signals_catch();
		if (g->val[PARM_KW_STARTCMD] && is_report)
			cli_command_run(g->val[PARM_KW_STARTCMD], c->outdir, &c->reps,
					CLI_CMD_GENERAL);
		status = eng_exec_run(ex, &c->reps, &err);
		if (g->val[PARM_KW_ENDCMD] && is_report)
			cli_command_run(g->val[PARM_KW_ENDCMD], c->outdir, &c->reps,
					CLI_CMD_GENERAL);
		if (err.msg[0])
			parm_err_print(&err, stderr);
		rc = status_exit(status);
		if (rc == CLI_EXIT_OK && a->is_strict && eng_exec_nr_missed(ex) && is_report) {
			fprintf(stderr,
				"ioramp: error: --strict: %u run%s missed %s target by more than "
				"2%%\n",
				eng_exec_nr_missed(ex), eng_exec_nr_missed(ex) == 1 ? "" : "s",
				eng_exec_nr_missed(ex) == 1 ? "its" : "their");
			rc = CLI_EXIT_FAILED;
		}
		rc = cli_stdout_status(rc); /* before close: results.json gets the exit status */
		/* a report that could not be written fails the execution (it said which) */
		if (rep_set_close(&c->reps, rc) && rc == CLI_EXIT_OK)
			rc = CLI_EXIT_FAILED;
		if (is_report && cli_signal_name())
			fprintf(stderr, "interrupted (%s); results in %s\n", cli_signal_name(),
				c->outdir);
	}
	if (a->is_lost)
		*a->is_lost = eng_exec_has_lost_rank(ex);
	eng_exec_free(ex);
	ctx_free(c);
	return rc;
}

static int execute(const struct cli_args *a, int argc, char **argv, const struct plan *plan)
{
	struct cli_exec_opts o = {
		.outdir = a->outdir,
		.engine = a->engine,
		.sla = a->sla,
		.record = a->record,
		.map = a->map,
		.seed = a->seed,
		.dv = a->dv,
		.has_seed = a->has_seed,
		.is_json = a->is_json,
		.is_force = a->is_force,
		.is_strict = a->is_strict,
		.argc = argc,
		.argv = argv,
	};

	return cli_exec_plan(plan, &o);
}

/* -s: the listing, and with -o the files VDbench's simulation leaves there. Without -o
 * nothing is written (VDbench would make ./output). */
static int simulate(const struct cli_args *a, int argc, char **argv, const struct plan *plan,
		    struct parm_err *err)
{
	char *text = NULL, dir[4096];
	size_t len = 0;
	FILE *m = a->outdir ? open_memstream(&text, &len) : NULL;
	struct rep_outdir_err oe;
	int rc, ret;

	plan_print_notices(plan, m ? m : stdout);
	rc = plan_print_simulation(plan, m ? m : stdout, err);

	if (m) {
		fclose(m);
		fputs(text ? text : "", stdout);
	}
	fflush(stdout);
	if (!rc && m) {
		ret = rep_outdir_create(a->outdir, wall_ns(), dir, sizeof(dir), &oe);
		if (ret) {
			rep_outdir_perror(stderr, "ioramp", a->outdir, dir, ret, &oe);
			free(text);
			return CLI_EXIT_USAGE;
		} else {
			struct rep_exec x = { .cfg = plan->cfg,
					      .plan = plan,
					      .outdir = dir,
					      .argc = argc,
					      .argv = argv,
					      .start_tod_ns = wall_ns() };

			ret = rep_sim_files_write(&x, text ? text : "");
		}
		if (ret) {
			fprintf(stderr,
				"ioramp: error: -o %s: cannot write the reports there: %s\n",
				a->outdir, strerror(-ret));
			free(text);
			return CLI_EXIT_FAILED;
		}
	}
	free(text);
	return rc;
}

/* -s of a file-system plan: the listing, and with -o the files VDbench's simulation leaves
 * there, as for raw runs (VDbench 5.04.07 writes the same seven for an fsd= file). */
static int fs_simulate(const struct cli_args *a, const struct fs_plan *p, int argc, char **argv)
{
	char *text = NULL, dir[4096];
	size_t len = 0;
	FILE *m = a->outdir ? open_memstream(&text, &len) : NULL;
	struct rep_outdir_err oe;
	int ret = 0;

	fs_plan_print_simulation(p, m ? m : stdout);
	if (m) {
		fclose(m);
		fputs(text ? text : "", stdout);
	}
	fflush(stdout);
	if (m) {
		struct rep_exec x = { .cfg = p->cfg, .argc = argc, .argv = argv, .outdir = dir };

		ret = rep_outdir_create(a->outdir, wall_ns(), dir, sizeof(dir), &oe);
		if (ret) {
			rep_outdir_perror(stderr, "ioramp", a->outdir, dir, ret, &oe);
			free(text);
			return CLI_EXIT_USAGE;
		}
		x.start_tod_ns = wall_ns();
		ret = rep_sim_files_write(&x, text ? text : "");
		if (ret)
			fprintf(stderr,
				"ioramp: error: -o %s: cannot write the reports there: %s\n",
				a->outdir, strerror(-ret));
	}
	free(text);
	return ret ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}

/* File-system mode: its own plan, listing and engine (src/fs/). */
static int cli_fs_run(const struct cli_args *a, const struct parm_config *cfg, int argc,
		      char **argv)
{
	struct fs_plan *p = NULL;
	struct parm_err err;
	int rc = CLI_EXIT_OK;

	if (fs_plan_build(cfg, &p, &err)) {
		parm_err_print(&err, stderr);
		return CLI_EXIT_USAGE;
	}
	if (a->is_simulate) {
		rc = fs_simulate(a, p, argc, argv);
	} else {
		char dir[4096];
		struct fs_exec_opts o = { .outdir = dir,
					  .seed = a->seed,
					  .argc = argc,
					  .argv = argv,
					  .stop_signal = &stop_signal };
		struct rep_outdir_err oe;
		int ret;

		if (fs_plan_check_anchors(p, &err) || fs_plan_check_run(p, &err)) {
			parm_err_print(&err, stderr);
			fs_plan_free(p);
			return CLI_EXIT_USAGE;
		}
		ret = rep_outdir_create(a->outdir, wall_ns(), dir, sizeof(dir), &oe);
		/* -o as for raw runs: a directory the reports cannot go to is a usage error */
		if (ret) {
			rep_outdir_perror(stderr, "ioramp", a->outdir, dir, ret, &oe);
			fs_plan_free(p);
			return CLI_EXIT_USAGE;
		}
		cli_signals_catch();
		rc = fs_exec_plan(p, &o) ? CLI_EXIT_FAILED : cli_signal_exit();
		if (cli_signal_name())
			fprintf(stderr, "interrupted (%s); results in %s\n", cli_signal_name(),
				dir);
	}
	fs_plan_free(p);
	return rc;
}

/* -e shortens elapsed= only: a warmup= longer than the new elapsed stays, which surprises on a
 * library profile (sql's 60 s warmup with -e 10), so say so once per RD. */
static void note_kept_warmup(const struct cli_args *a, const struct plan *plan)
{
	size_t last_rd = (size_t)-1;

	if (!a->overrides.has_elapsed || a->overrides.has_warmup)
		return;
	for (size_t i = 0; i < plan->nr_runs; i++) {
		const struct plan_run *r = &plan->runs[i];

		if (r->rd_idx == last_rd || r->warmup_s <= r->elapsed_s)
			continue;
		last_rd = r->rd_idx;
		fprintf(stderr,
			"ioramp: note: -e %llu does not shorten warmup=%llu of rd=%s: each run "
			"lasts %llu s; -w N sets the warmup too\n",
			(unsigned long long)r->elapsed_s, (unsigned long long)r->warmup_s,
			plan->cfg->rds[r->rd_idx].name,
			(unsigned long long)(r->elapsed_s + r->warmup_s));
	}
}

/* Whether the execution validates data: -v or -j..., a general validate= or journal= word that
 * turns it on, or dedup (which keeps the same bookkeeping, reference §12.4). */
static bool is_dv_on(const struct cli_args *a, const struct parm_config *cfg)
{
	static const enum parm_kw kws[] = { PARM_KW_VALIDATE, PARM_KW_JOURNAL };
	struct dv_opts o = a->dv;
	char msg[256];

	for (size_t k = 0; k < 2; k++) {
		const struct parm_val *v = cfg->general.set.val[kws[k]];
		size_t nr = v && v->kind == PARM_VAL_LIST ? v->nr_items : !!v;

		for (size_t i = 0; i < nr; i++) {
			const char *w = v->kind == PARM_VAL_LIST ? v->items[i].text : v->text;

			if (kws[k] == PARM_KW_VALIDATE)
				dv_opts_validate_word(&o, w, msg, sizeof(msg));
			else
				dv_opts_journal_word(&o, w, msg, sizeof(msg));
		}
	}
	return o.is_on || cfg->general.dedupunit_bytes;
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
	cli_note_first_values(cfg, stderr);
	if (cfg->fs) {
		rc = cli_fs_run(&a, cfg, argc, argv);
		goto out;
	}
	if (parm_hd_check_systems(cfg, &err) || plan_build(cfg, &plan, &err) ||
	    plan_check_dv(plan, is_dv_on(&a, cfg), &err)) {
		parm_err_print(&err, stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	note_kept_warmup(&a, plan);
	plan->is_journal_recovery = a.dv.is_recover;
	if (a.is_simulate) {
		rc = simulate(&a, argc, argv, plan, &err);
	} else {
		rc = plan_check_runnable(plan, &err);
	}
	if (rc) {
		parm_err_print(&err, stderr);
		rc = CLI_EXIT_USAGE;
	} else if (!a.is_simulate) {
		rc = execute(&a, argc, argv, plan);
	}
out:
	plan_free(plan);
	parm_config_free(cfg);
	cli_args_fini(&a);
	return rc;
}
