/* flatfile.html (reference §10.4): a "*" block describing the columns, a header line that
 * starts with a blank, then one line per interval and one avg_ line per run, every value
 * followed by one blank. Numbers are Java %.4f with trailing zeros removed; "n/a" where the
 * run's workloads disagree. The raw-mode Linux columns, in VDbench's order. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vdbtext.h"

/* Requested rates VDbench prints for max runs: 9999988 uncontrolled or controlled max,
 * 9999977 the max run of a curve. */
enum {
	REQRATE_MAX = 9999988,
	REQRATE_CURVE_MAX = 9999977,
};

static const char *const columns[][2] = {
	{ "Run", "Name of run from RD=" },
	{ "Interval", "Reporting interval number" },
	{ "reqrate", "Requested i/o rate" },
	{ "rate", "Observed i/o rate" },
	{ "MB/sec", NULL }, /* depends on mb_bytes */
	{ "bytes/io", "Average data transfersize" },
	{ "read%", "Observed read percentage" },
	{ "resp", "Observed response time" },
	{ "read_resp", "Observed read response time" },
	{ "write_resp", "Observed write response time" },
	{ "resp_max", "Observed maximum response time" },
	{ "read_max", "Observed maximum read response time" },
	{ "write_max", "Observed maximum write response time" },
	{ "resp_std", "Standard deviation response time" },
	{ "read_std", "Standard deviation reads" },
	{ "write_std", "Standard deviation writes" },
	{ "xfersize", "data transfer size requested" },
	{ "threads", "number of threads requested" },
	{ "rdpct", "read% requested" },
	{ "rhpct", "readhit% requested" },
	{ "whpct", "writehit% requested" },
	{ "seekpct", "seek% requested" },
	{ "lunsize", "Total amount of Gigabytes of all luns (GB= 1024*1024*1024)" },
	{ "version", "Vdbench version identifier" },
	{ "compratio", "Requested compression ratio" },
	{ "dedupratio", "Requested dedup ratio" },
	{ "queue_depth", "Vdbench calculated average i/o queue depth" },
	{ "cpu_used", "kstat: cpu% user+sys" },
	{ "cpu_user", "kstat: cpu% user" },
	{ "cpu_kernel", "kstat: cpu% sys " },
	{ "cpu_wait", "kstat: cpu% wait" },
	{ "cpu_idle", "kstat: cpu% idle" },
};

static const char preamble[] =
	"*\n"
	"* 'flatfile.html' contains Vdbench generated information in a column by column ASCII "
	"format. \n"
	"* The first line in the file contains a one word 'column header name'; the rest of the "
	"file \n"
	"* contains data that belongs to each column. The objective of this file format is to "
	"allow \n"
	"* easy transfer of information to a spreadsheet and therefore the creation of "
	"performance \n"
	"* charts different from the performance charts that can be created by Sun StorageTek "
	"Workload \n"
	"* Analysis Tool (Swat) available for download from Sun.\n"
	"* See also 'Selective flatfile parsing' in the documentation. \n"
	"*\n";

struct flatfile {
	const struct rep_exec *x;
	FILE *f;
};

void rep_flat_preamble(FILE *f)
{
	fputs(preamble, f);
}

void rep_flat_comment(FILE *f, const char *column, const char *desc)
{
	fprintf(f, "* %-16s: %s\n", column, desc);
}

void rep_flat_comments_end(FILE *f)
{
	fprintf(f, "* %-16s: %s\n* \n", "'n/a'",
		"Data not available, or conflicting data. eg. multiple different xfersize "
		"parameters used.");
}

static void write_header(FILE *f, const struct rep_exec *x)
{
	rep_flat_preamble(f);
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(columns); i++) {
		const char *desc = columns[i][1];

		if (!desc)
			desc = x->mb_bytes == 1000000 ? "Megabytes per second (MB=1000*1000)"
						      : "Megabytes per second (MB=1024*1024)";
		rep_flat_comment(f, columns[i][0], desc);
	}
	rep_flat_comments_end(f);
	fprintf(f, "%12s %23s ", "tod", "timestamp");
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(columns); i++)
		fprintf(f, "%s ", columns[i][0]);
	fputc('\n', f);
}

static int flatfile_open(const struct rep_exec *x, void **state)
{
	struct flatfile *ff;

	*state = NULL;
	if (!x->outdir)
		return 0;
	ff = calloc(1, sizeof(*ff));
	if (!ff)
		return -ENOMEM;
	ff->x = x;
	ff->f = rep_html_open(x, "flatfile.html");
	if (!ff->f) {
		int ret = -errno;

		free(ff);
		return ret;
	}
	write_header(ff->f, x);
	fflush(ff->f);
	*state = ff;
	return 0;
}

static void put_num(FILE *f, double v)
{
	char num[64];

	fprintf(f, "%s ", rep_jflat(num, sizeof(num), v));
}

/* The max columns: VDbench keeps three decimals there. */
static void put_max(FILE *f, double v)
{
	char num[64];

	fprintf(f, "%s ", rep_jflat_prec(num, sizeof(num), 3, v));
}

static void put_opt(FILE *f, bool has, double v)
{
	if (has)
		put_num(f, v);
	else
		fputs("n/a ", f);
}

static double reqrate(const struct rep_run *r)
{
	if (!r->run || r->run->rate == PLAN_RATE_MAX)
		return REQRATE_MAX;
	if (r->run->rate == PLAN_RATE_CURVE_MAX)
		return REQRATE_CURVE_MAX;
	return r->req_iops;
}

static void put_params(FILE *f, const struct rep_params *p)
{
	if (p->has_xfersize)
		fprintf(f, "%llu ", (unsigned long long)p->xfersize_bytes);
	else
		fputs("n/a ", f);
	if (p->has_threads)
		fprintf(f, "%u ", p->threads);
	else
		fputs("-1 ", f);
	put_opt(f, p->has_rdpct, p->rdpct);
	put_opt(f, p->has_rhpct, p->rhpct);
	put_opt(f, p->has_whpct, p->whpct);
	put_opt(f, p->has_seekpct && p->seekpct >= 0, p->seekpct); /* eof: n/a, as VDbench */
	put_num(f, (double)p->lunsize_bytes / (1024.0 * 1024.0 * 1024.0));
	fputs("n/a ", f); /* version */
	put_opt(f, p->compratio > 0, p->compratio);
	fputs("n/a ", f); /* dedupratio: VDbench prints n/a with dedup on and off */
}

static void write_line(struct flatfile *ff, const struct rep_run *r, const struct rep_sample *s)
{
	char tod[REP_TOD_LEN], stamp[REP_STAMP_LEN];
	struct rep_vals v;
	FILE *f = ff->f;

	rep_vals_compute(&v, s->total, s->elapsed_ns, ff->x->mb_bytes);
	rep_fmt_tod(tod, s->tod_ns);
	rep_fmt_stamp(stamp, s->tod_ns);
	fprintf(f, "%s %s %s %s%s ", tod, stamp, r->name, s->is_avg ? " " : "", s->label);
	put_num(f, reqrate(r));
	put_num(f, v.rate);
	put_num(f, v.mb_per_sec);
	fprintf(f, "%llu ", (unsigned long long)v.bytes_per_io);
	put_num(f, v.read_pct);
	put_num(f, v.resp_ms);
	put_num(f, v.read_resp_ms);
	put_num(f, v.write_resp_ms);
	put_max(f, v.resp_max_ms);
	put_max(f, v.read_max_ms);
	put_max(f, v.write_max_ms);
	put_num(f, v.resp_std_ms);
	put_num(f, v.read_std_ms);
	put_num(f, v.write_std_ms);
	put_params(f, &r->params);
	put_num(f, v.qdepth);
	put_opt(f, s->has_cpu, s->cpu.used_pct);
	put_opt(f, s->has_cpu, s->cpu.user_pct);
	put_opt(f, s->has_cpu, s->cpu.sys_pct);
	put_opt(f, s->has_cpu, s->cpu.wait_pct);
	put_opt(f, s->has_cpu, s->cpu.idle_pct);
	fputc('\n', f);
	fflush(f);
}

static int flatfile_interval(void *state, const struct rep_run *r, const struct rep_sample *s)
{
	if (state)
		write_line(state, r, s);
	return 0;
}

static int flatfile_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	if (state && e->avg)
		write_line(state, r, e->avg);
	return 0;
}

static int flatfile_close(void *state, int status)
{
	struct flatfile *ff = state;
	int ret;

	(void)status;
	if (!ff)
		return 0;
	ret = rep_html_close(ff->f);
	free(ff);
	return ret;
}

const struct rep_ops rep_flatfile = {
	.name = "flatfile",
	.file = "flatfile.html",
	.open = flatfile_open,
	.interval = flatfile_interval,
	.run_end = flatfile_run_end,
	.close = flatfile_close,
};
