/* `ioramp suite --drives DEV,...`: the review suite's command line. Every profile of the
 * workload library (or those given) runs against the drives, each as its own execution into
 * DIR/PROFILE/, then DIR/report.html draws a chart per profile as reviews do. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "ioramp/report.h"
#include "suite.h"

static const char suite_usage[] =
	"usage: ioramp suite --drives DEV,DEV,... [--profiles LIST] [-o DIR] [--precondition]\n"
	"                    [--yes] [--engine NAME] [-e SECS] [-i SECS] [-w SECS] [--size SIZE]\n"
	"                    [--curve PCTS] [--seed N] [--sla LIST] [--force]\n"
	"\n"
	"Runs the review suite: each profile of the workload library (see ioramp workloads)\n"
	"against the drives, one execution per profile into DIR/PROFILE/, then DIR/report.html\n"
	"with a chart of IOPS against mean latency per profile, peaks and IOPS at latency.\n"
	"\n"
	"  --drives LIST    block devices or files, comma-separated (reviews use 8)\n"
	"  --profiles LIST  library profiles, in order (default: all but precondition)\n"
	"  --precondition   run the precondition profile first\n"
	"  -o DIR           output directory (default: suite)\n"
	"  --yes            write to block devices without asking\n"
	"  --size SIZE      size= of the drives that are files (creates missing ones)\n"
	"  -e, -i, -w SECS  override elapsed=, interval=, warmup= of every run\n"
	"  --curve PCTS     curve points, % of the max run (default: the files', 10 to 120)\n"
	"  --engine NAME    uring (default), aio, sync, null, or model... (modelled drives:\n"
	"                   nothing is opened, --size is their capacity)\n"
	"  --seed N         seed of every generator\n"
	"  --sla LIST       IOPS-at-latency thresholds (default 100us,200us,500us,1ms)\n"
	"  --force          allow writes to devices that carry a file system or partitions\n"
	"\n"
	"Block devices are listed and written only after --yes or \"yes\" on the terminal.\n"
	"Exit status: 0 success, 1 a profile failed, 2 bad usage or parameters, 130/143\n"
	"interrupted (the report of the profiles run is still written).\n";

static void list_free(const char **v, size_t nr)
{
	for (size_t i = 0; v && i < nr; i++)
		free((char *)v[i]);
	free(v);
}

/* A comma-separated list as an array of new strings. Returns the count, or -ENOMEM / -EINVAL
 * (an empty item). */
static int split_list(const char *text, const char ***out)
{
	size_t nr = 1;
	const char **v;
	const char *p = text;

	for (const char *c = text; *c; c++)
		nr += *c == ',';
	v = calloc(nr, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		size_t len = strcspn(p, ",");

		v[i] = len ? strndup(p, len) : NULL;
		if (!v[i]) {
			list_free(v, i);
			return len ? -ENOMEM : -EINVAL;
		}
		p += len + 1;
	}
	*out = v;
	return (int)nr;
}

/* --name VALUE or --name=VALUE; NULL when the value is missing. */
static char *long_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (argv[*i][n] == '=')
		return argv[*i][n + 1] ? argv[*i] + n + 1 : NULL;
	return *i + 1 < argc ? argv[++*i] : NULL;
}

static bool is_opt(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

static int list_option(const char *value, const char *name, const char ***out, size_t *nr)
{
	int n;

	if (!value) {
		fprintf(stderr, "ioramp suite: error: %s needs a value\n", name);
		return -EINVAL;
	}
	list_free(*out, *nr);
	*nr = 0;
	n = split_list(value, out);
	if (n < 0) {
		*out = NULL;
		fprintf(stderr, "ioramp suite: error: %s %s: expected a comma-separated list\n",
			name, value);
		return -EINVAL;
	}
	*nr = (size_t)n;
	return 0;
}

static int number_option(const char *value, const char *name, uint64_t *out, bool *has)
{
	char *end;

	*out = value ? strtoull(value, &end, 0) : 0;
	if (!value || !*value || *end) {
		fprintf(stderr, "ioramp suite: error: %s needs a number\n", name);
		return -EINVAL;
	}
	*has = true;
	return 0;
}

static int curve_option(struct cli_suite_opts *o, const char *value)
{
	int n = value ? cli_suite_parse_curve(value, &o->curve_pcts) : -EINVAL;

	if (n < 0) {
		fprintf(stderr, "ioramp suite: error: --curve needs percentages of the max run, "
				"such as 10,50,100\n");
		return -EINVAL;
	}
	o->nr_curve_pcts = (size_t)n;
	return 0;
}

/* -e, -i, -w: the value joined (-e10) or next. */
static int time_option(struct cli_suite_opts *o, int argc, char **argv, int *i)
{
	char letter = argv[*i][1];
	const char *v = argv[*i][2] ? argv[*i] + 2 : *i + 1 < argc ? argv[++*i] : NULL;
	struct parm_overrides *ov = &o->overrides;

	switch (letter) {
	case 'e':
		return cli_args_time("-e", v, &ov->elapsed_s, &ov->has_elapsed);
	case 'i':
		return cli_args_time("-i", v, &ov->interval_s, &ov->has_interval);
	default:
		ov->zero_warmup_counts = true;
		return cli_args_time("-w", v, &ov->warmup_s, &ov->has_warmup);
	}
}

static int long_option(struct cli_suite_opts *o, int argc, char **argv, int *i)
{
	const char *arg = argv[*i];

	if (is_opt(arg, "--drives"))
		return list_option(long_value(argc, argv, i, "--drives"), "--drives", &o->drives,
				   &o->nr_drives);
	if (is_opt(arg, "--profiles"))
		return list_option(long_value(argc, argv, i, "--profiles"), "--profiles",
				   &o->profiles, &o->nr_profiles);
	if (is_opt(arg, "--engine"))
		return (o->engine = long_value(argc, argv, i, "--engine")) ? 0 : -EINVAL;
	if (is_opt(arg, "--size"))
		return (o->size = long_value(argc, argv, i, "--size")) ? 0 : -EINVAL;
	if (is_opt(arg, "--sla"))
		return (o->sla = long_value(argc, argv, i, "--sla")) ? 0 : -EINVAL;
	if (is_opt(arg, "--curve"))
		return curve_option(o, long_value(argc, argv, i, "--curve"));
	if (is_opt(arg, "--seed"))
		return number_option(long_value(argc, argv, i, "--seed"), "--seed", &o->seed,
				     &o->has_seed);
	if (!strcmp(arg, "--precondition"))
		o->has_precondition = true;
	else if (!strcmp(arg, "--yes"))
		o->is_yes = true;
	else if (!strcmp(arg, "--force"))
		o->is_force = true;
	else
		return -ENOENT;
	return 0;
}

/* Parses argv. Prints the problem; returns 0 or -EINVAL. */
static int parse_args(struct cli_suite_opts *o, int argc, char **argv)
{
	double sla_ns[REP_SLA_MAX];

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int ret = -ENOENT;

		if (!strncmp(arg, "--", 2))
			ret = long_option(o, argc, argv, &i);
		else if (arg[0] == '-' && arg[1] && strchr("eiw", arg[1]))
			ret = time_option(o, argc, argv, &i);
		else if (!strncmp(arg, "-o", 2))
			ret = (o->outdir = arg[2]	  ? arg + 2
					   : i + 1 < argc ? argv[++i]
							  : NULL)
				      ? 0
				      : -EINVAL;
		if (ret == -ENOENT)
			fprintf(stderr,
				"ioramp suite: error: unexpected argument %s; see ioramp "
				"suite --help\n",
				arg);
		else if (ret)
			fprintf(stderr, "ioramp suite: error: %s needs a value\n", arg);
		if (ret)
			return -EINVAL;
	}
	if (o->sla && rep_sla_parse(o->sla, sla_ns, REP_SLA_MAX) < 0) {
		fprintf(stderr,
			"ioramp suite: error: --sla %s: expected latencies such as "
			"100us,200us,500us,1ms\n",
			o->sla);
		return -EINVAL;
	}
	if (!o->nr_drives) {
		fprintf(stderr, "ioramp suite: error: no drives; expected --drives DEV,DEV,...\n");
		return -EINVAL;
	}
	return 0;
}

int cli_suite(int argc, char **argv)
{
	struct cli_suite s = { 0 };
	int rc;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(suite_usage, stdout);
		return CLI_EXIT_OK;
	}
	s.o.argc = argc + 1; /* main() passes argv + 1: the reports record "ioramp suite ..." */
	s.o.argv = argv - 1;
	rc = parse_args(&s.o, argc, argv) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	if (!rc)
		rc = cli_suite_prepare(&s);
	if (!rc)
		rc = cli_suite_confirm(&s);
	if (!rc)
		rc = cli_suite_execute(&s);
	cli_suite_fini(&s);
	return rc;
}
