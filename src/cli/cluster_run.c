/* `mpirun ... ioramp -f parm` (reference §3): rank 0 reads the parameter files and sends every
 * rank their text and the seed; every rank parses and plans the same way, finds its host
 * through the hd= definitions and the machines the ranks run on, takes its host's luns, and
 * executes its share. Only rank 0 prints (errors, -s, reports); the exit code is the same on
 * every rank. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "ioramp/cluster.h"
#include "ioramp/engine.h"
#include "ioramp/parm.h"
#include "ioramp/plan.h"

#define DEFAULT_HOST_TIMEOUT_S 30

/* Everything a rank holds while it runs the command. */
struct cluster_cmd {
	struct clu_comm *comm;
	uint32_t rank;
	bool is_root;
	struct cli_args args;
	struct clu_parmcopy pc;
	struct parm_config *cfg;
	struct plan *plan;
	struct clu_map map;
	uint64_t seed;
};

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Rank 0's outcome to all: a usage error there is the same everywhere (the same argv). */
static int share_rc(struct cluster_cmd *c, int rc)
{
	int32_t v = rc;
	void *buf = &v;
	size_t len = sizeof(v);

	if (clu_comm_bcast(c->comm, &buf, &len))
		return CLI_EXIT_FAILED;
	if (!c->is_root) {
		memcpy(&v, buf, sizeof(v));
		free(buf);
	}
	return v;
}

/* Rank 0 reads (recording every lookup and file), the others parse the copy they get. */
static int read_config(struct cluster_cmd *c)
{
	struct parm_input in = {
		.files = c->args.files,
		.nr_files = c->args.nr_files,
		.vars = c->args.vars,
		.nr_vars = c->args.nr_vars,
		.overrides = c->args.overrides,
		.fileops = &c->pc.ops,
	};
	struct parm_source *keep = NULL;
	struct parm_err err;
	void *buf = NULL;
	size_t len = 0;
	int ret;

	if (c->is_root) {
		clu_parmcopy_record(&c->pc);
		in.fileops = &c->pc.ops;
		ret = parm_config_read(&in, &c->cfg, &keep, &err);
		if (ret) {
			parm_err_print(&err, stderr);
			parm_source_free(keep);
			return share_rc(c, ret == -ENOMEM ? CLI_EXIT_FAILED : CLI_EXIT_USAGE);
		}
		if (share_rc(c, CLI_EXIT_OK) || clu_parmcopy_pack(&c->pc, c->seed, &buf, &len))
			return CLI_EXIT_FAILED;
		ret = clu_comm_bcast(c->comm, &buf, &len);
		free(buf);
		return ret ? CLI_EXIT_FAILED : CLI_EXIT_OK;
	}
	ret = share_rc(c, CLI_EXIT_OK);
	if (ret)
		return ret;
	if (clu_comm_bcast(c->comm, &buf, &len))
		return CLI_EXIT_FAILED;
	ret = clu_parmcopy_replay(&c->pc, buf, len, &c->seed);
	free(buf);
	in.fileops = &c->pc.ops;
	if (!ret)
		ret = parm_config_read(&in, &c->cfg, &keep, &err);
	if (ret) {
		fprintf(stderr, "ioramp: error: rank %u cannot parse rank 0's parameter text\n",
			c->rank);
		parm_source_free(keep);
		return CLI_EXIT_FAILED;
	}
	return CLI_EXIT_OK;
}

/* Every rank takes the luns of its own host (SD host= pairs). */
static int localize_luns(struct cluster_cmd *c)
{
	int32_t h = c->map.host_of[c->rank];

	if (h < 0)
		return 0;
	for (size_t s = 0; s < c->cfg->nr_sds; s++) {
		struct parm_sd *sd = &c->cfg->sds[s];
		const char *lun = clu_sd_lun(sd, c->map.hosts[h].label);
		char *copy;

		if (!lun || lun == sd->lun || !strcmp(lun, sd->lun))
			continue;
		copy = strdup(lun);
		if (!copy)
			return -ENOMEM;
		free(sd->lun);
		sd->lun = copy;
	}
	return 0;
}

/* Plan, map and (-s) the listing; the same outcome on every rank, printed by rank 0. */
static int plan_and_map(struct cluster_cmd *c)
{
	struct parm_err err;
	char **names = NULL;
	int ret;

	ret = plan_build(c->cfg, &c->plan, &err);
	if (!ret && clu_comm_host_names(c->comm, &names))
		return CLI_EXIT_FAILED;
	if (!ret)
		ret = clu_map_build(c->cfg, names, clu_comm_size(c->comm), &c->map, &err);
	clu_names_free(names, clu_comm_size(c->comm));
	if (!ret && c->args.is_simulate && c->is_root) {
		ret = plan_print_simulation(c->plan, stdout, &err);
		if (!ret) {
			clu_map_print(&c->map, c->cfg, stdout);
			clu_share_print(&c->map, c->plan, stdout);
		}
		fflush(stdout);
	} else if (!ret && !c->args.is_simulate) {
		ret = plan_check_runnable(c->plan, &err);
	}
	if (ret == -ENOMEM)
		return CLI_EXIT_FAILED;
	if (ret && c->is_root)
		parm_err_print(&err, stderr);
	if (ret)
		return CLI_EXIT_USAGE;
	return localize_luns(c) ? CLI_EXIT_FAILED : CLI_EXIT_OK;
}

static int execute(struct cluster_cmd *c, int argc, char **argv, bool *is_lost)
{
	struct eng_cluster ec = {
		.comm = c->comm,
		.map = &c->map,
		.rank = c->rank,
		.host_timeout_ns = (c->args.has_host_timeout ? c->args.host_timeout_s
							     : DEFAULT_HOST_TIMEOUT_S) *
				   1000000000ull,
	};
	struct cli_exec_opts o = {
		.outdir = c->args.outdir,
		.engine = c->args.engine,
		.sla = c->args.sla,
		.map = c->args.map,
		.dv = c->args.dv, /* refused by the engine in a job of several ranks */
		.seed = c->seed,
		.has_seed = true,
		.is_json = c->args.is_json,
		.is_force = c->args.is_force,
		.is_strict = c->args.is_strict,
		.argc = argc,
		.argv = argv,
		.cluster = &ec,
		.is_lost = is_lost,
	};

	return cli_exec_plan(c->plan, &o);
}

static int parse_args(struct cluster_cmd *c, int argc, char **argv)
{
	int rc = CLI_EXIT_OK;

	/* rank 0 first, so that a usage error is printed once */
	if (c->is_root && cli_args_parse(&c->args, argc, argv))
		rc = CLI_EXIT_USAGE;
	if (c->is_root && !rc && c->args.record) {
		fprintf(stderr, "ioramp: error: --record is not supported in an MPI job yet; "
				"expected it on one host\n");
		rc = CLI_EXIT_USAGE;
	}
	rc = share_rc(c, rc);
	if (!rc && !c->is_root && cli_args_parse(&c->args, argc, argv))
		rc = CLI_EXIT_USAGE;
	return rc;
}

int cli_run_cluster(int argc, char **argv, struct clu_comm *comm, bool *is_lost)
{
	struct cluster_cmd c = {
		.comm = comm,
		.rank = clu_comm_rank(comm),
		.is_root = clu_comm_rank(comm) == 0,
	};
	int rc;

	if (argc < 2) {
		if (c.is_root)
			cli_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	rc = parse_args(&c, argc, argv);
	if (!rc) {
		c.seed = c.args.has_seed ? c.args.seed : wall_ns();
		rc = read_config(&c);
	}
	if (!rc)
		rc = plan_and_map(&c);
	if (!rc && !c.args.is_simulate)
		rc = execute(&c, argc, argv, is_lost);
	clu_map_fini(&c.map);
	plan_free(c.plan);
	parm_config_free(c.cfg);
	clu_parmcopy_fini(&c.pc);
	cli_args_fini(&c.args);
	return rc;
}
