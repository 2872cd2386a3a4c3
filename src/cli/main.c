/* ioramp's entry point: dispatches subcommands and maps results to exit codes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ioramp/cluster.h"

static const char usage_text[] =
	"usage: ioramp -f FILE [FILE...] [-o DIR] [-e SECS] [-i SECS] [-w SECS] [-s] [name=value ...]\n"
	"       ioramp SUBCOMMAND ...\n"
	"       ioramp --help | --version\n"
	"\n"
	"Reads VDbench 5.04.07 parameter files, raw I/O (sd/wd) and file system (fsd/fwd),\n"
	"and runs them.\n"
	"\n"
	"  -f FILE...     parameter files, read in order as if concatenated; a bare NAME\n"
	"                 that is no file is the library's NAME.vdb (see ioramp workloads)\n"
	"  -o DIR         output directory (default: output; DIR+ next free, DIR.tod dated)\n"
	"  -e SECS        override elapsed= of every run\n"
	"  -i SECS        override interval= of every run\n"
	"  -w SECS        set warmup= of every run (-w 0 changes nothing, as in VDbench)\n"
	"  -s             simulate: list the runs the files define, run nothing\n"
	"  -t, -tf        VDbench's quick test, raw (1k, 50% reads, 100/s, 5 s on a 40 MB\n"
	"                 /tmp file) or file system (100 files under /tmp/fsd1)\n"
	"  -r RD          start at that RD (the ones before it are not run)\n"
	"  -l [N|Ns|Nm|Nh]  run every RD again: forever, N times or for that long (loop=)\n"
	"  -m N           N slaves (hd=default,jvms=N)\n"
	"  -co, -cy, -cn  format=only, yes or no in every file-system RD\n"
	"                 (-p, -k, -d: taken, with a note; they mean nothing here)\n"
	"  -v, -vr, -vw   data validation (-vr reads each write back, -vw no read before,\n"
	"                 -vt keeps each block's last good read or write time)\n"
	"  -j, -jr, -jro  validation with a journal; -jr recover, validate, run; -jro only\n"
	"                 recover and validate (-jn no sync journal, -jri skip pending,\n"
	"                 -jm the map only, no record of each write)\n"
	"  name=value     substitute $name and !name in the parameter files\n"
	"  --engine NAME  uring (default), aio, sync, null, or fault:NAME,OPTION=VALUE...\n"
	"                 (injects faults: eio=, short=, corrupt=, enospc_after=,\n"
	"                 vanish_after=, delay=),\n"
	"                 or model[:PRESET][,OPTION=VALUE...]: modelled drives, virtual time\n"
	"  --seed N       seed of every generator (default: from the clock, printed)\n"
	"  --json         print only the final JSON document on stdout\n"
	"  --sla LIST     IOPS-at-latency thresholds (default 100us,200us,500us,1ms)\n"
	"  --force        allow writes to devices that carry a file system or partitions\n"
	"  --strict       exit 1 when a curve point or iorate= run missed its target by > 2%\n"
	"  --record FILE  write every I/O issued as a fio iolog v3 (scheduled arrival times)\n"
	"  --map D=SD,... replay: trace devices to SDs (default: in device-number order)\n"
	"  --host-timeout S  MPI job: a rank silent S seconds past an interval is lost (30)\n"
	"  --help         this text\n"
	"  --version      print the version\n"
	"\n"
	"Subcommands:\n"
	"  parseflat      select columns of a flatfile.html, as vdbench parseflat\n"
	"  trace          stat, profile, compare or convert block traces\n"
	"  report DIR     re-render DIR/report.html from results.json (--overlay NAME=CSV)\n"
	"  compare A B    run by run and point by point differences of two output dirs\n"
	"  workloads      list the workload library (-f NAME reads NAME.vdb from it)\n"
	"  suite          run the review suite on drives: a curve per profile, one report\n"
	"  demo           the SQL profile on eight small files, then its report\n"
	"\n"
	"Exit status: 0 success, 1 run failed, 2 bad usage or parameters, 130/143/129/141\n"
	"interrupted (SIGINT/SIGTERM/SIGHUP/SIGPIPE).\n"
	"See ioramp(1) and ioramp-parm(5).\n";

void cli_usage(FILE *f)
{
	fputs(usage_text, f);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} subcommands[] = {
	{ "parseflat", cli_parseflat }, { "parse", cli_parseflat }, { "trace", cli_trace },
	{ "report", cli_report },	{ "compare", cli_compare }, { "workloads", cli_workloads },
	{ "suite", cli_suite },		{ "demo", cli_demo },
};

/* A first word that is neither an option nor name=value: a mistyped subcommand. */
static int unknown_subcommand(const char *word)
{
	const char *names[sizeof(subcommands) / sizeof(subcommands[0])];
	const char *near;

	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		names[i] = subcommands[i].name;
	near = parm_suggest(word, names, sizeof(names) / sizeof(names[0]));
	if (near)
		fprintf(stderr,
			"ioramp: error: unknown subcommand '%s'; did you mean 'ioramp %s'?\n", word,
			near);
	else
		fprintf(stderr,
			"ioramp: error: unexpected argument '%s'; expected a subcommand (parseflat, "
			"trace, report, compare, workloads, suite, demo) or -f FILE\n",
			word);
	return CLI_EXIT_USAGE;
}

/* One process: the subcommands and the VDbench-style command line. */
static int run_single(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		cli_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("ioramp %s%s\n", IORAMP_VERSION, clu_comm_has_mpi() ? " (MPI)" : "");
		return CLI_EXIT_OK;
	}
	for (size_t i = 0; argc > 1 && i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	if (argc > 1 && argv[1][0] != '-' && !strchr(argv[1], '='))
		return unknown_subcommand(argv[1]);
	return cli_run(argc, argv);
}

/* An MPI job of two or more ranks runs parameter files only; rank 0 answers --help. */
static int run_cluster(int argc, char **argv, struct clu_comm *comm, bool *is_lost)
{
	bool is_root = clu_comm_rank(comm) == 0;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "--version")))
		return is_root ? run_single(argc, argv) : CLI_EXIT_OK;
	for (size_t i = 0; argc > 1 && i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (strcmp(argv[1], subcommands[i].name))
			continue;
		if (is_root)
			fprintf(stderr,
				"ioramp: error: ioramp %s does not run in an MPI job of %u ranks; "
				"expected ioramp -f FILE ... (or run it without mpirun)\n",
				argv[1], clu_comm_size(comm));
		return CLI_EXIT_USAGE;
	}
	return cli_run_cluster(argc, argv, comm, is_lost);
}

/* A closed standard descriptor gets /dev/null: else the first file opened takes its number and
 * the console is written into a report (summary.html took it under `ioramp ... >&-`). */
static void std_fds_open(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd ? O_WRONLY : O_RDONLY) < 0)
			return;
}

int cli_stdout_status(int rc)
{
	bool is_bad;

	errno = 0;
	is_bad = fflush(stdout) != 0 || ferror(stdout);
	if (!is_bad || rc != CLI_EXIT_OK || errno == EPIPE)
		return rc;
	fprintf(stderr, "ioramp: error: standard output: cannot write (%s); its lines are lost\n",
		errno ? strerror(errno) : "a write failed");
	return CLI_EXIT_FAILED;
}

int main(int argc, char **argv)
{
	struct clu_comm *comm = NULL;
	bool is_lost = false;
	int rc;

	std_fds_open();
	if (clu_comm_open(&argc, &argv, &comm)) {
		fprintf(stderr, "ioramp: error: cannot start MPI\n");
		clu_comm_close(comm, false, CLI_EXIT_FAILED);
		return CLI_EXIT_FAILED;
	}
	if (clu_comm_size(comm) > 1)
		rc = run_cluster(argc, argv, comm, &is_lost);
	else
		rc = run_single(argc, argv);
	rc = cli_stdout_status(rc);
	fflush(NULL);
	clu_comm_close(comm, is_lost, rc);
	return rc;
}
