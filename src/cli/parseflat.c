/* "ioramp parseflat": VDbench's selective flatfile parsing (reference §10.5). Selected columns
 * of a flatfile.html (or of the one in an output directory) as CSV or tab-separated text, with
 * VDbench's options. Unlike VDbench it echoes its arguments only under -v, leaves the format
 * pass out of -a and exits 2 on an unknown column. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ioramp/report.h"

static const char usage_text[] =
	"usage: ioramp parseflat -i FILE|DIR [-o OUT] -c COL... [-f COL VALUE...]... [-a] [-t] [-q|-v]\n"
	"\n"
	"Writes selected columns of a VDbench or ioramp flatfile.html as CSV.\n"
	"\n"
	"  -i FILE|DIR   the flatfile, or an output directory holding flatfile.html\n"
	"  -o OUT        output file (default: stdout)\n"
	"  -c COL...     columns to write, in order; names are case-insensitive; 'all' for all\n"
	"  -f COL VALUE  keep only lines where COL equals VALUE (case-insensitive); repeatable,\n"
	"                all filters must hold\n"
	"  -a            keep only the avg_ lines (default: only the interval lines), without\n"
	"                the format pass's unless -f run SD_format asks for it\n"
	"  -t            separate values with tabs instead of commas\n"
	"  -q            quiet (the default; accepted as VDbench has it)\n"
	"  -v            echo the arguments on stderr, as VDbench does\n"
	"\n"
	"Exit status: 0 success, 1 nothing matched or a file could not be read or written,\n"
	"2 bad usage or an unknown column.\n";

struct pf_args {
	const char *in;
	const char *out;
	const char **cols;
	size_t nr_cols;
	const char **filters;
	size_t nr_filter_words;
	bool is_avg_only;
	bool is_tab;
	bool is_echo;
};

/* A value, not an option: anything but "-x" ("-1" is a value). */
static bool is_value(const char *a)
{
	return a[0] != '-' || isdigit((unsigned char)a[1]) || a[1] == '.';
}

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "ioramp parseflat: error: %s%s\n", msg, arg ? arg : "");
	fputs(usage_text, stderr);
	return CLI_EXIT_USAGE;
}

/* Appends argv[*i + 1 ...] up to the next option to *list. */
static void take_values(int argc, char **argv, int *i, const char **list, size_t *nr)
{
	while (*i + 1 < argc && is_value(argv[*i + 1]))
		list[(*nr)++] = argv[++*i];
}

static int parse_one(struct pf_args *a, int argc, char **argv, int *i)
{
	const char *opt = argv[*i];

	if (!strcmp(opt, "-i") || !strcmp(opt, "-o")) {
		if (*i + 1 >= argc)
			return usage_error("missing value after ", opt);
		*(opt[1] == 'i' ? &a->in : &a->out) = argv[++*i];
	} else if (!strcmp(opt, "-c")) {
		take_values(argc, argv, i, a->cols, &a->nr_cols);
	} else if (!strcmp(opt, "-f")) {
		take_values(argc, argv, i, a->filters, &a->nr_filter_words);
	} else if (!strcmp(opt, "-a")) {
		a->is_avg_only = true;
	} else if (!strcmp(opt, "-t")) {
		a->is_tab = true;
	} else if (!strcmp(opt, "-q") || !strcmp(opt, "-v")) {
		/* taken before parsing */
	} else if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
		fputs(usage_text, stdout);
		return -1;
	} else {
		return usage_error("invalid parameter: ", opt);
	}
	return 0;
}

static int parse_args(struct pf_args *a, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		int ret = parse_one(a, argc, argv, &i);

		if (ret)
			return ret;
	}
	if (!a->in)
		return usage_error("no input file specified '-i FILE'", NULL);
	if (!a->nr_cols)
		return usage_error("no data columns specified '-c COL...'", NULL);
	if (a->nr_filter_words % 2)
		return usage_error("'-f' filters must be specified in pairs", NULL);
	return 0;
}

static void echo_args(int argc, char **argv)
{
	fprintf(stderr, "ioramp parseflat arguments:\n");
	for (int i = 1; i < argc; i++)
		fprintf(stderr, "Argument %d: %s\n", i - 1, argv[i]);
}

static FILE *open_input(const char *in)
{
	char path[4096];
	struct stat st;

	if (!stat(in, &st) && S_ISDIR(st.st_mode)) {
		if (snprintf(path, sizeof(path), "%s/flatfile.html", in) >= (int)sizeof(path)) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		in = path;
	}
	return fopen(in, "r");
}

static int read_flat(const char *in, struct rep_flat *fl)
{
	FILE *f = open_input(in);
	int ret;

	if (!f) {
		fprintf(stderr, "ioramp parseflat: error: %s: %s\n", in, strerror(errno));
		return CLI_EXIT_FAILED;
	}
	ret = rep_flat_read(f, fl);
	fclose(f);
	if (ret) {
		fprintf(stderr, "ioramp parseflat: error: %s: %s\n", in,
			ret == -EINVAL ? "no flatfile header line found" : strerror(-ret));
		return CLI_EXIT_FAILED;
	}
	return CLI_EXIT_OK;
}

static int select_rows(const struct pf_args *a, const struct rep_flat *fl, FILE *out)
{
	struct rep_flat_query q = {
		.cols = a->cols,
		.nr_cols = a->nr_cols,
		.filters = a->filters,
		.nr_filters = a->nr_filter_words / 2,
		.is_avg_only = a->is_avg_only,
		.is_tab = a->is_tab,
	};
	const char *bad = NULL;
	int ret = rep_flat_select(fl, &q, out, &bad);

	if (ret == -ENOENT) {
		fprintf(stderr,
			"ioramp parseflat: error: column '%s' unknown; expected a column of the "
			"flatfile's header line (-c all writes them all)\n",
			bad);
		return CLI_EXIT_USAGE;
	}
	if (ret <= 0) {
		fprintf(stderr, "No output written. Check column names and filters\n");
		return CLI_EXIT_FAILED;
	}
	return CLI_EXIT_OK;
}

static int write_output(const struct pf_args *a, const struct rep_flat *fl)
{
	FILE *out = a->out ? fopen(a->out, "w") : stdout;
	int rc;

	if (!out) {
		fprintf(stderr, "ioramp parseflat: error: %s: %s\n", a->out, strerror(errno));
		return CLI_EXIT_FAILED;
	}
	rc = select_rows(a, fl, out);
	if (fflush(out) && !rc) {
		fprintf(stderr, "ioramp parseflat: error: %s: %s\n", a->out ? a->out : "stdout",
			strerror(errno));
		rc = CLI_EXIT_FAILED;
	}
	if (a->out)
		fclose(out);
	return rc;
}

static void say_done(void)
{
	struct timespec ts;
	struct tm tm;
	char hms[16];

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	printf("%s.%03ld ParseFlat completed successfully.\n", hms, ts.tv_nsec / 1000000);
}

int cli_parseflat(int argc, char **argv)
{
	struct pf_args a = { 0 };
	struct rep_flat fl;
	int rc;

	a.cols = calloc((size_t)argc + 1, sizeof(*a.cols));
	a.filters = calloc((size_t)argc + 1, sizeof(*a.filters));
	if (!a.cols || !a.filters) {
		rc = CLI_EXIT_FAILED;
		goto out;
	}
	for (int i = 1; i < argc; i++) /* the last of -q and -v wins */
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "-v"))
			a.is_echo = argv[i][1] == 'v';
	if (a.is_echo)
		echo_args(argc, argv);
	rc = parse_args(&a, argc, argv);
	if (rc)
		goto out;
	rc = read_flat(a.in, &fl);
	if (rc)
		goto out;
	rc = write_output(&a, &fl);
	rep_flat_fini(&fl);
	if (!rc && a.out)
		say_done();
out:
	free(a.cols);
	free(a.filters);
	return rc < 0 ? CLI_EXIT_OK : rc;
}
