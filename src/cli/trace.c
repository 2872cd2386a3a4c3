/* "ioramp trace": stat, profile, compare and convert over block traces. Reading and
 * computing live in src/trace/; this file parses arguments, prints, and maps results to
 * exit codes (0 ok, 1 a trace could not be read or written, 2 bad usage). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioramp/trace.h"
#include "synth.h"

struct trace_args {
	struct trace_opts opts;
	bool is_json;
	bool has_dev;
	const char *dev_text;
	const char *out_path;
	const char *target;
	bool is_check;
	uint64_t seed;
	unsigned int max_wds;
	char **paths;
	int nr_paths;
};

static const char trace_usage_text[] =
	"usage: ioramp trace stat [OPTIONS] [--device DEV] [--json] FILE...\n"
	"       ioramp trace profile [OPTIONS] [--device DEV] [--check [--json]] [-o OUT.vdb] FILE...\n"
	"       ioramp trace compare [OPTIONS] [--json] A B\n"
	"       ioramp trace convert [OPTIONS] [--target PATH] -o OUT.iolog FILE\n"
	"       ioramp trace synth FILE.vdb [name=value ...] [--seed N] [--duration S] -o OUT\n"
	"\n"
	"  stat      records, rate, read %%, sizes, sequentiality, footprint, hot bands and\n"
	"            inter-arrival figures per device and in total\n"
	"  profile   a VDbench parameter file reproducing the trace's figures (run it with\n"
	"            lun=/dev/nvme%%dn1); --check synthesizes it and prints trace, synthesized,\n"
	"            difference, tolerance and ok for every figure (exit 1 if one is off)\n"
	"  compare   the same figures for two traces, B against A\n"
	"  convert   rewrite a trace as a fio iolog v3 (ioramp's recording format)\n"
	"  synth     the I/O stream a parameter file's first RD would issue, as a fio iolog v3\n"
	"            (ioramp trace synth --help)\n"
	"\n"
	"OPTIONS:\n"
	"  --format F     trace format (default auto: detected from the content); one of\n"
	"                 %s\n"
	"  --action A     blkparse/blktrace/ftrace event to keep: Q (queue), D (issue), C (complete);\n"
	"                 default Q when the trace has Q events, else D, else C\n"
	"  --skip-bad     count and skip malformed lines instead of stopping at the first\n"
	"  --device DEV   only this device (a number, or maj,min for blkparse/blktrace/ftrace)\n"
	"  --json         print a JSON document instead of text\n"
	"  -o FILE        output file (profile: default standard output)\n"
	"  --target PATH  convert: the file name every I/O is written against (default devN)\n"
	"  --check        profile: synthesize the profile and compare its figures with the trace's\n"
	"  --seed N       profile --check: the synthesized run's seed (default 1)\n"
	"  --max-wds N    profile: at most N WDs per device (default 64)\n"
	"\n"
	"Exit status: 0 success, 1 a trace could not be read (an I/O error) or written,\n"
	"2 bad usage, or a trace that is missing, of an unknown format or malformed.\n";

static void trace_usage(FILE *f)
{
	fprintf(f, trace_usage_text, trace_format_names());
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "ioramp trace: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	trace_usage(stderr);
	return CLI_EXIT_USAGE;
}

enum {
	OPT_FORMAT = 256,
	OPT_ACTION,
	OPT_SKIP_BAD,
	OPT_DEVICE,
	OPT_JSON,
	OPT_TARGET,
	OPT_CHECK,
	OPT_SEED,
	OPT_MAX_WDS,
	OPT_HELP,
};

static const struct option trace_longopts[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "action", required_argument, NULL, OPT_ACTION },
	{ "skip-bad", no_argument, NULL, OPT_SKIP_BAD },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "max-wds", required_argument, NULL, OPT_MAX_WDS },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* One option into a. Returns 0, or an exit code. */
static int trace_arg(struct trace_args *a, int c, const char *arg)
{
	char *end;

	switch (c) {
	case OPT_FORMAT:
		if (trace_format_parse(arg, &a->opts.format) < 0)
			return usage_error("unknown --format %s", arg);
		return 0;
	case OPT_ACTION:
		if (trace_action_parse(arg, &a->opts.action) < 0)
			return usage_error("unknown --action %s; expected Q, D or C", arg);
		return 0;
	case OPT_SKIP_BAD:
		a->opts.skip_bad = true;
		return 0;
	case OPT_DEVICE:
		a->has_dev = true;
		a->dev_text = arg;
		return 0;
	case OPT_JSON:
		a->is_json = true;
		return 0;
	case OPT_TARGET:
		a->target = arg;
		return 0;
	case OPT_CHECK:
		a->is_check = true;
		return 0;
	case OPT_SEED:
		a->seed = strtoull(arg, &end, 0);
		if (end == arg || *end || *arg == '-')
			return usage_error("bad --seed %s; expected a number", arg);
		return 0;
	case OPT_MAX_WDS: {
		unsigned long n = strtoul(arg, &end, 10);

		if (end == arg || *end || n < 2 || n > 128)
			return usage_error("bad --max-wds %s; expected 2 to 128", arg);
		a->max_wds = (unsigned int)n;
		return 0;
	}
	case 'o':
		a->out_path = arg;
		return 0;
	case OPT_HELP:
		trace_usage(stdout);
		return -1;
	default:
		trace_usage(stderr);
		return CLI_EXIT_USAGE;
	}
}

/* Parses argv (argv[0] the subcommand). Returns 0, -1 after --help, or an exit code. */
static int trace_parse_args(int argc, char **argv, struct trace_args *a)
{
	int c, ret;

	memset(a, 0, sizeof(*a));
	a->seed = 1;
	optind = 0; /* GNU: full reinitialisation, argv[0] is the subcommand */
	opterr = 1;
	while ((c = getopt_long(argc, argv, "o:", trace_longopts, NULL)) != -1) {
		ret = trace_arg(a, c, optarg);
		if (ret)
			return ret;
	}
	a->paths = argv + optind;
	a->nr_paths = argc - optind;
	return 0;
}

/* "259,0" (major,minor as blktrace numbers them) or a plain number. */
static int parse_dev(const char *text, uint32_t *dev)
{
	char *end;
	unsigned long long maj = strtoull(text, &end, 10), min;

	if (end == text || *text == '-')
		return -EINVAL;
	if (*end == ',') {
		const char *p = end + 1;

		min = strtoull(p, &end, 10);
		if (end == p || *end || *p == '-' || maj >= 1u << 12 || min >= 1u << 20)
			return -EINVAL;
		*dev = (uint32_t)(maj << 20 | min);
		return 0;
	}
	if (*end || maj > UINT32_MAX)
		return -EINVAL;
	*dev = (uint32_t)maj;
	return 0;
}

int cli_trace_exit(int64_t ret)
{
	return ret == -ENOMEM || ret == -EIO ? CLI_EXIT_FAILED : CLI_EXIT_USAGE;
}

/* Opens path and reads all of it into a new *stat. Prints the error and returns
 * the exit status on failure. */
static int read_trace(const struct trace_args *a, const char *path, struct trace_stat **stat,
		      struct trace_reader **reader)
{
	struct trace_stat_opts so = { 0 };
	struct trace_err err;
	int64_t nr;

	if (a->has_dev) {
		so.has_dev_filter = true;
		if (parse_dev(a->dev_text, &so.dev_filter) < 0)
			return usage_error("bad --device %s; expected a number or maj,min",
					   a->dev_text);
	}
	nr = trace_reader_open(reader, path, &a->opts, &err);
	if (nr < 0) {
		trace_err_print(&err, stderr);
		return cli_trace_exit(nr);
	}
	nr = trace_stat_new(stat, &so);
	if (nr < 0) {
		fprintf(stderr, "ioramp trace: out of memory\n");
		goto err_close;
	}
	nr = trace_stat_read(*stat, *reader);
	if (nr < 0) {
		trace_err_print(trace_reader_err(*reader), stderr);
		trace_stat_free(*stat);
		goto err_close;
	}
	trace_reader_print_notes(*reader, stderr);
	return 0;

err_close:
	trace_reader_close(*reader);
	return cli_trace_exit(nr);
}

static void stat_print_text(const char *path, struct trace_reader *r, struct trace_stat *s)
{
	enum trace_format fmt = trace_reader_format(r);
	bool is_majmin = trace_format_has_majmin(fmt);
	struct trace_figs f;

	printf("trace %s: format %s", path, trace_format_name(fmt));
	if (trace_reader_action(r) != TRACE_ACT_AUTO)
		printf(", action %s", trace_action_name(trace_reader_action(r)));
	printf(", %zu device%s\n", trace_stat_nr_devs(s), trace_stat_nr_devs(s) == 1 ? "" : "s");
	for (size_t i = 0; trace_stat_nr_devs(s) > 1 && i < trace_stat_nr_devs(s); i++)
		if (trace_stat_figs(s, i, &f) == 0)
			trace_figs_print(&f, is_majmin, stdout);
	if (trace_stat_figs(s, SIZE_MAX, &f) == 0)
		trace_figs_print(&f, is_majmin, stdout);
}

/* The JSON object of one file: path, format, action, devices and total. NULL on -ENOMEM. */
static json_t *stat_json(const char *path, struct trace_reader *r, struct trace_stat *s)
{
	bool is_majmin = trace_format_has_majmin(trace_reader_format(r));
	json_t *devs = json_array(), *obj;
	struct trace_figs f;

	for (size_t i = 0; devs && i < trace_stat_nr_devs(s); i++) {
		if (trace_stat_figs(s, i, &f) < 0 ||
		    json_array_append_new(devs, trace_figs_json(&f, is_majmin)) < 0) {
			json_decref(devs);
			return NULL;
		}
	}
	if (!devs || trace_stat_figs(s, SIZE_MAX, &f) < 0) {
		json_decref(devs);
		return NULL;
	}
	obj = json_pack("{s:s,s:s,s:s,s:I,s:I,s:o,s:o}", "path", path, "format",
			trace_format_name(trace_reader_format(r)), "action",
			trace_action_name(trace_reader_action(r)), "skipped",
			(json_int_t)trace_reader_nr_skipped(r), "zero_size",
			(json_int_t)trace_reader_nr_empty(r, NULL), "devices", devs, "total",
			trace_figs_json(&f, is_majmin));
	return obj;
}

static int print_json(json_t *doc)
{
	int ret = doc ? json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : -1;

	json_decref(doc);
	if (ret < 0) {
		fprintf(stderr, "ioramp trace: cannot write JSON\n");
		return CLI_EXIT_FAILED;
	}
	printf("\n");
	return CLI_EXIT_OK;
}

static int cmd_stat(const struct trace_args *a)
{
	json_t *files = json_array();
	int ret = CLI_EXIT_OK;

	if (a->nr_paths < 1) {
		json_decref(files);
		return usage_error("stat: %s", "no trace file given");
	}
	for (int i = 0; i < a->nr_paths && ret == CLI_EXIT_OK; i++) {
		struct trace_reader *r;
		struct trace_stat *s;

		ret = read_trace(a, a->paths[i], &s, &r);
		if (ret)
			break;
		if (a->is_json && json_array_append_new(files, stat_json(a->paths[i], r, s)) < 0)
			ret = CLI_EXIT_FAILED;
		else if (!a->is_json)
			stat_print_text(a->paths[i], r, s);
		trace_stat_free(s);
		trace_reader_close(r);
	}
	if (ret || !a->is_json) {
		json_decref(files);
		return ret;
	}
	return print_json(json_pack("{s:s,s:o}", "schema", "ioramp-trace-stat/1", "files", files));
}

/* Opens path and reads its fidelity figures into a new *fid (of --device only). Prints the
 * error and returns an exit code on failure. */
static int read_fid(const struct trace_args *a, const char *path, struct trace_fid **fid)
{
	struct trace_reader *r;
	struct trace_err err;
	uint32_t dev = 0;
	int64_t nr;

	if (a->has_dev && parse_dev(a->dev_text, &dev) < 0)
		return usage_error("bad --device %s; expected a number or maj,min", a->dev_text);
	nr = trace_reader_open(&r, path, &a->opts, &err);
	if (nr < 0) {
		trace_err_print(&err, stderr);
		return cli_trace_exit(nr);
	}
	if (trace_fid_new(fid) < 0) {
		trace_reader_close(r);
		fprintf(stderr, "ioramp trace: out of memory\n");
		return CLI_EXIT_FAILED;
	}
	nr = trace_fid_read(*fid, r, a->has_dev, dev);
	if (nr < 0) {
		if (nr == -ENOMEM)
			fprintf(stderr, "ioramp trace: out of memory\n");
		else
			trace_err_print(trace_reader_err(r), stderr);
		trace_fid_free(*fid);
		*fid = NULL;
	} else {
		trace_reader_print_notes(r, stderr);
	}
	trace_reader_close(r);
	return nr < 0 ? cli_trace_exit(nr) : CLI_EXIT_OK;
}

/* The fidelity figures of two traces: A the reference, B against it. */
static int cmd_compare(const struct trace_args *a)
{
	struct trace_fid_row rows[TRACE_FID_NR];
	struct trace_fid *fa = NULL, *fb = NULL;
	int ret;

	if (a->nr_paths != 2)
		return usage_error("compare: %s", "expected two trace files");
	ret = read_fid(a, a->paths[0], &fa);
	if (!ret)
		ret = read_fid(a, a->paths[1], &fb);
	if (!ret && trace_fid_compare(fa, fb, rows) < 0) {
		fprintf(stderr, "ioramp trace: out of memory\n");
		ret = CLI_EXIT_FAILED;
	}
	if (!ret && a->is_json) {
		ret = print_json(json_pack("{s:s,s:s,s:s,s:b,s:o*}", "schema",
					   "ioramp-trace-compare/2", "a", a->paths[0], "b",
					   a->paths[1], "ok", trace_fid_rows_ok(rows), "figures",
					   (json_t *)trace_fid_json(rows, "a", "b")));
	} else if (!ret) {
		printf("A: %s\nB: %s\n", a->paths[0], a->paths[1]);
		trace_fid_print(rows, "A", "B", stdout);
	}
	trace_fid_free(fa);
	trace_fid_free(fb);
	return ret;
}

static int cmd_profile(const struct trace_args *a)
{
	struct trace_profile_cfg cfg = {
		.paths = (const char *const *)a->paths,
		.nr_paths = (size_t)a->nr_paths,
		.opts = &a->opts,
		.has_dev = a->has_dev,
		.max_wds = a->max_wds,
	};
	FILE *out = a->is_check ? NULL : stdout;
	int ret;

	if (a->nr_paths < 1)
		return usage_error("profile: %s", "no trace file given");
	if (a->has_dev && parse_dev(a->dev_text, &cfg.dev) < 0)
		return usage_error("bad --device %s; expected a number or maj,min", a->dev_text);
	if (a->out_path) {
		out = fopen(a->out_path, "w");
		if (!out) {
			fprintf(stderr, "%s: error: cannot create: %s\n", a->out_path,
				strerror(errno));
			return CLI_EXIT_FAILED;
		}
	}
	ret = cli_trace_profile(&cfg, out, a->is_check, a->seed, a->is_json);
	if (out && out != stdout) {
		bool is_empty = ftell(out) == 0;

		if (fclose(out) != 0 && ret != CLI_EXIT_FAILED) {
			fprintf(stderr, "%s: error: cannot write: %s\n", a->out_path,
				strerror(errno));
			ret = CLI_EXIT_FAILED;
		}
		if (ret != CLI_EXIT_OK && is_empty)
			unlink(a->out_path); /* no profile: no empty file that looks like one */
	}
	return ret;
}

enum {
	CONVERT_MAX_DEVS = 4096,
};

struct convert_state {
	struct trace_writer *w;
	const struct trace_args *a;
	bool is_majmin;
	uint32_t devs[CONVERT_MAX_DEVS];
	int files[CONVERT_MAX_DEVS];
	size_t nr_devs;
	int target_file; /* -1 until --target is declared */
};

/* The writer's file index for dev, declared on first sight. Returns it or -errno. */
static int convert_file(struct convert_state *cs, uint32_t dev, uint64_t time_ns)
{
	char name[64];
	int idx;

	if (cs->a->target) {
		if (cs->target_file < 0)
			cs->target_file = trace_writer_file(cs->w, cs->a->target, time_ns);
		return cs->target_file;
	}
	for (size_t i = 0; i < cs->nr_devs; i++)
		if (cs->devs[i] == dev)
			return cs->files[i];
	if (cs->nr_devs == CONVERT_MAX_DEVS)
		return -E2BIG;
	if (cs->is_majmin)
		snprintf(name, sizeof(name), "dev%u_%u", dev >> 20, dev & 0xfffff);
	else
		snprintf(name, sizeof(name), "dev%u", dev);
	idx = trace_writer_file(cs->w, name, time_ns);
	if (idx >= 0) {
		cs->devs[cs->nr_devs] = dev;
		cs->files[cs->nr_devs++] = idx;
	}
	return idx;
}

/* Copies every record of r into cs->w, times rebased to the first record. */
static int convert_copy(struct convert_state *cs, struct trace_reader *r)
{
	struct trace_rec rec;
	uint64_t t0 = 0;
	bool has_t0 = false;
	int ret, idx;

	while ((ret = trace_reader_next(r, &rec)) > 0) {
		if (!has_t0) {
			t0 = rec.time_ns;
			has_t0 = true;
		}
		rec.time_ns = rec.time_ns >= t0 ? rec.time_ns - t0 : 0;
		idx = convert_file(cs, rec.dev, rec.time_ns);
		if (idx < 0)
			return idx;
		rec.dev = (uint32_t)idx;
		ret = trace_writer_add(cs->w, &rec);
		if (ret < 0)
			return ret;
	}
	if (ret < 0)
		trace_err_print(trace_reader_err(r), stderr);
	else
		trace_reader_print_notes(r, stderr);
	return ret;
}

static int cmd_convert(const struct trace_args *a)
{
	struct convert_state *cs;
	struct trace_reader *r;
	struct trace_err err;
	int ret;

	if (a->nr_paths != 1 || !a->out_path)
		return usage_error("convert: %s", "expected one trace file and -o OUT");
	if (a->target && strpbrk(a->target, " \t\n"))
		return usage_error("convert: --target %s contains a blank", a->target);
	ret = trace_reader_open(&r, a->paths[0], &a->opts, &err);
	if (ret < 0) {
		trace_err_print(&err, stderr);
		return cli_trace_exit(ret);
	}
	cs = calloc(1, sizeof(*cs));
	ret = cs ? trace_writer_open(&cs->w, a->out_path, &err) : -ENOMEM;
	if (ret < 0) {
		if (cs)
			trace_err_print(&err, stderr);
		free(cs);
		trace_reader_close(r);
		return CLI_EXIT_FAILED;
	}
	cs->a = a;
	cs->target_file = -1;
	cs->is_majmin = trace_format_has_majmin(trace_reader_format(r));
	ret = convert_copy(cs, r);
	if (ret < 0 && ret != -EINVAL && ret != -EIO)
		fprintf(stderr, "%s: error: %s\n", a->out_path, strerror(-ret));
	if (trace_writer_close(cs->w) < 0 && ret == 0) {
		fprintf(stderr, "%s: error: cannot write: %s\n", a->out_path, strerror(EIO));
		ret = -EIO;
	}
	free(cs);
	trace_reader_close(r);
	return ret == -EINVAL ? CLI_EXIT_USAGE /* a malformed trace */
	       : ret < 0      ? CLI_EXIT_FAILED
			      : CLI_EXIT_OK;
}

int cli_trace(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(const struct trace_args *a);
	} cmds[] = {
		{ "stat", cmd_stat },
		{ "profile", cmd_profile },
		{ "compare", cmd_compare },
		{ "convert", cmd_convert },
	};
	struct trace_args a;
	int ret;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		trace_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "synth"))
		return cli_trace_synth(argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		ret = trace_parse_args(argc - 1, argv + 1, &a);
		if (ret)
			return ret < 0 ? CLI_EXIT_OK : ret;
		return cmds[i].run(&a);
	}
	return usage_error("unknown subcommand %s", argv[1]);
}
