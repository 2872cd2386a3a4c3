/* `ioramp workloads`: the workload library, one line per profile: its name, the figures that
 * tell profiles apart (read %, transfer sizes, threads per drive, from the file as ioramp
 * reads it) and the first sentence of its header comment. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "library.h"

static const char workloads_usage[] =
	"usage: ioramp workloads [--dir]\n"
	"\n"
	"Lists the workload library: each profile's name (for -f NAME and ioramp suite), its\n"
	"read %, transfer sizes and threads per drive, and what it models. --dir prints only\n"
	"the library's directory: $IORAMP_WORKLOADS, workloads/ next to the binary, or\n"
	"" IORAMP_DATADIR "/workloads.\n";

enum {
	MAX_SIZES = 16,
	MAX_THREADS = 16,
};

/* What a profile's runs do, collected over all of them. */
struct figures {
	double rdpct_min;
	double rdpct_max;
	uint64_t sizes[MAX_SIZES];
	size_t nr_sizes;
	uint32_t threads[MAX_THREADS];
	size_t nr_threads;
};

static void add_size(struct figures *fg, uint64_t bytes)
{
	size_t i = 0;

	while (i < fg->nr_sizes && fg->sizes[i] < bytes)
		i++;
	if ((i < fg->nr_sizes && fg->sizes[i] == bytes) || fg->nr_sizes == MAX_SIZES)
		return;
	memmove(&fg->sizes[i + 1], &fg->sizes[i], (fg->nr_sizes - i) * sizeof(*fg->sizes));
	fg->sizes[i] = bytes;
	fg->nr_sizes++;
}

static void add_threads(struct figures *fg, uint32_t threads)
{
	for (size_t i = 0; i < fg->nr_threads; i++)
		if (fg->threads[i] == threads)
			return;
	if (fg->nr_threads < MAX_THREADS)
		fg->threads[fg->nr_threads++] = threads;
}

static void add_wd_sizes(struct figures *fg, const struct plan_run *r, const struct parm_wd *wd)
{
	if (r->ovr.has_xfersize) {
		add_size(fg, r->ovr.xfersize_bytes);
	} else if (wd->xfer.kind == PARM_XFER_RANGE) {
		add_size(fg, wd->xfer.min_bytes);
		add_size(fg, wd->xfer.max_bytes);
	} else {
		for (size_t i = 0; i < wd->xfer.nr; i++)
			add_size(fg, wd->xfer.sizes_bytes[i]);
	}
}

/* The run's read % over its workloads, weighted by their skews (equal shares without); a
 * WD with its own iorate= weighs its share of a fixed RD rate, the skews share the rest. */
static double run_rdpct(const struct plan_run *r)
{
	bool is_fixed = r->rate == PLAN_RATE_FIXED && r->rate_iops > 0;
	double sum = 0, weight = 0, fixed = 0;

	for (size_t w = 0; is_fixed && w < r->nr_wds; w++)
		fixed += r->wds[w]->iorate;
	for (size_t w = 0; w < r->nr_wds; w++) {
		double rd = r->ovr.has_rdpct ? r->ovr.rdpct : r->wds[w]->rdpct;
		double share = r->skews[w] > 0 ? r->skews[w] : 0;

		if (is_fixed && fixed > 0)
			share = r->wds[w]->iorate > 0 ? 100 * r->wds[w]->iorate / r->rate_iops
						      : share * fmax(0, 1 - fixed / r->rate_iops);

		sum += rd * share;
		weight += share;
	}
	if (weight > 0)
		return sum / weight;
	for (size_t w = 0; w < r->nr_wds; w++)
		sum += r->ovr.has_rdpct ? r->ovr.rdpct : r->wds[w]->rdpct;
	return r->nr_wds ? sum / (double)r->nr_wds : 0;
}

static void plan_figures(const struct plan *plan, struct figures *fg)
{
	for (size_t i = 0; i < plan->nr_runs; i++) {
		const struct plan_run *r = &plan->runs[i];
		double rd = run_rdpct(r);

		fg->rdpct_min = i && fg->rdpct_min < rd ? fg->rdpct_min : rd;
		fg->rdpct_max = i && fg->rdpct_max > rd ? fg->rdpct_max : rd;
		for (size_t w = 0; w < r->nr_wds; w++)
			add_wd_sizes(fg, r, r->wds[w]);
		if (r->nr_sds) /* the threads= in effect, as the plan resolved it */
			add_threads(fg, r->sds[0].threads);
	}
}

/* Reads path as `ioramp -f path -s lun=drive%d` would and collects its figures. */
static int profile_figures(const char *path, struct figures *fg)
{
	struct parm_var lun = { .name = "lun", .value = "drive%d" };
	const char *files[] = { path };
	struct parm_input in = { .files = files, .nr_files = 1, .vars = &lun, .nr_vars = 1 };
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct plan *plan = NULL;
	struct parm_err err;
	int ret = parm_config_read(&in, &cfg, &keep, &err);

	if (!ret)
		ret = plan_build(cfg, &plan, &err);
	if (ret)
		parm_err_print(&err, stderr);
	else
		plan_figures(plan, fg);
	plan_free(plan);
	parm_config_free(cfg);
	parm_source_free(keep);
	return ret;
}

static void fmt_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes && bytes % (1u << 20) == 0)
		snprintf(buf, len, "%llum", (unsigned long long)(bytes >> 20));
	else if (bytes && bytes % 1024 == 0)
		snprintf(buf, len, "%lluk", (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

/* The three figure columns: "79.21", "8k,64k", "16,64". */
static void figure_texts(const struct figures *fg, char *rd, char *sizes, char *threads, size_t len)
{
	size_t o = 0;
	char one[32];

	if (fg->rdpct_min == fg->rdpct_max)
		snprintf(rd, len, "%.4g", fg->rdpct_min);
	else
		snprintf(rd, len, "%.4g-%.4g", fg->rdpct_min, fg->rdpct_max);
	sizes[0] = threads[0] = '\0';
	for (size_t i = 0; i < fg->nr_sizes && o < len; i++) {
		fmt_size(fg->sizes[i], one, sizeof(one));
		o += (size_t)snprintf(sizes + o, len - o, "%s%s", i ? "," : "", one);
	}
	o = 0;
	for (size_t i = 0; i < fg->nr_threads && o < len; i++)
		o += (size_t)snprintf(threads + o, len - o, "%s%u", i ? "," : "", fg->threads[i]);
}

void cli_profile_figures(const struct plan *plan, char *rdpct, char *sizes, char *threads,
			 size_t len)
{
	struct figures fg = { 0 };

	plan_figures(plan, &fg);
	figure_texts(&fg, rdpct, sizes, threads, len);
}

/* One profile's line of the listing: its name, figures and words. */
struct profile_row {
	char rd[128], sizes[128], threads[128];
	struct cli_profile_info info;
	int ret; /* of reading its figures */
};

static int profile_row(const char *dir, const char *name, struct profile_row *row)
{
	char path[PATH_MAX];
	struct figures fg = { 0 };

	snprintf(row->rd, sizeof(row->rd), "?");
	snprintf(row->sizes, sizeof(row->sizes), "?");
	snprintf(row->threads, sizeof(row->threads), "?");
	if (snprintf(path, sizeof(path), "%s/%s.vdb", dir, name) >= (int)sizeof(path))
		return row->ret = -ENAMETOOLONG;
	row->ret = profile_figures(path, &fg);
	if (!row->ret)
		figure_texts(&fg, row->rd, row->sizes, row->threads, sizeof(row->rd));
	cli_library_info(path, name, &row->info);
	return row->ret;
}

/* The width of column text t when it is wider than w. */
static int widest(int w, const char *t)
{
	return (int)strlen(t) > w ? (int)strlen(t) : w;
}

/* The listing: every column as wide as its widest cell ("10.04-43.86", a QD sweep's
 * "1,2,4,...,256"), so that the descriptions line up. */
static void print_profiles(char **names, const struct profile_row *rows, int nr)
{
	int w_name = 7, w_rd = 6, w_sizes = 16, w_threads = 7;

	for (int i = 0; i < nr; i++) {
		w_name = widest(w_name, names[i]);
		w_rd = widest(w_rd, rows[i].rd);
		w_sizes = widest(w_sizes, rows[i].sizes);
		w_threads = widest(w_threads, rows[i].threads);
	}
	printf("%-*s %*s  %-*s %*s  %s\n", w_name, "profile", w_rd, "read%", w_sizes, "sizes",
	       w_threads, "threads", "description");
	for (int i = 0; i < nr; i++) {
		printf("%-*s %*s  %-*s %*s  ", w_name, names[i], w_rd, rows[i].rd, w_sizes,
		       rows[i].sizes, w_threads, rows[i].threads);
		if (strcmp(rows[i].info.title, names[i]))
			printf("%s: ", rows[i].info.title);
		printf("%s\n", rows[i].info.desc);
	}
}

int cli_workloads(int argc, char **argv)
{
	char dir[PATH_MAX];
	struct profile_row *rows;
	char **names = NULL;
	int nr, rc = CLI_EXIT_OK;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--dir"))) {
		fputs(workloads_usage, argc == 2 && !strcmp(argv[1], "--help") ? stdout : stderr);
		return argc == 2 && !strcmp(argv[1], "--help") ? CLI_EXIT_OK : CLI_EXIT_USAGE;
	}
	if (cli_library_dir(dir, sizeof(dir))) {
		fprintf(stderr, "ioramp workloads: error: no workload library: none of "
				"$IORAMP_WORKLOADS, workloads/ next to the binary, " IORAMP_DATADIR
				"/workloads exists\n");
		return CLI_EXIT_FAILED;
	}
	if (argc == 2) {
		printf("%s\n", dir);
		return CLI_EXIT_OK;
	}
	nr = cli_library_names(dir, &names);
	if (nr < 0) {
		fprintf(stderr, "ioramp workloads: error: %s: %s\n", dir, strerror(-nr));
		return CLI_EXIT_FAILED;
	}
	rows = calloc(nr ? (size_t)nr : 1, sizeof(*rows));
	if (!rows) {
		cli_library_names_free(names, nr);
		fprintf(stderr, "ioramp workloads: error: out of memory\n");
		return CLI_EXIT_FAILED;
	}
	for (int i = 0; i < nr; i++)
		if (profile_row(dir, names[i], &rows[i]))
			rc = CLI_EXIT_FAILED;
	printf("Workload library %s: %d profile%s\n", dir, nr, nr == 1 ? "" : "s");
	print_profiles(names, rows, nr);
	free(rows);
	cli_library_names_free(names, nr);
	return rc;
}
