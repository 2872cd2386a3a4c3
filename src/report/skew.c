/* skew.html (reference §9.2, §10.6): after each run, the non-warmup totals per SD and, with
 * two or more WDs, per WD with the requested and observed share of the I/O ("skew") and their
 * difference where it exceeds 0.10%. The SDs sorted by name as VDbench sorts them (observed:
 * sd=(sd3,sd2) lists sd2 first, sd2 before sd10, whatever the WD's or the configuration's
 * order). Before the SD table, with several slave JVMs on one host
 * (jvms=, or VDbench's adjusted count), the same columns per slave (VDbench 5.04.07, observed:
 * every slave, one without threads in the run with zeros). */
#include "ioramp/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vdbtext.h"

struct skew {
	const struct rep_exec *x;
	FILE *f;
	bool has_run;
	int name_width;
	char tod[REP_TOD_LEN];
};

static const char *const hdr1[] = { "i/o",  "MB/sec", "bytes", "read", "resp",
				    "read", "write",  "resp",  "resp", "queue" };
static const char *const hdr2[] = { "rate", NULL,   "i/o", "pct",    "time",
				    "resp", "resp", "max", "stddev", "depth" };

static void header(struct skew *sk, const char *title, bool with_skew)
{
	static const int widths[] = { 10, 8, 7, 6, 8, 8, 8, 8, 8, 5 };
	const char *mb = sk->x->mb_bytes == 1000000 ? "1000**2" : "1024**2";

	for (int row = 0; row < 2; row++) {
		const char *const *h = row ? hdr2 : hdr1;

		fprintf(sk->f, "%s %-*s", sk->tod, sk->name_width, row ? title : "");
		for (int i = 0; i < 10; i++)
			fprintf(sk->f, "%s%*s", i ? " " : "", widths[i], h[i] ? h[i] : mb);
		fputc(' ', sk->f);
		if (with_skew)
			fprintf(sk->f, "%10s%9s%8s ", row ? "requested" : "skew",
				row ? "observed" : "skew", row ? "delta" : "skew");
		fputc('\n', sk->f);
	}
}

static void row(struct skew *sk, const char *name, const struct stats_bank *b,
		const struct rep_sample *avg)
{
	char n[10][64];
	struct rep_vals v;

	rep_vals_compute(&v, b, avg->elapsed_ns, sk->x->mb_bytes);
	fprintf(sk->f, "%s %-*s%s %s %7llu %s %s %s %s %s %s %s ", sk->tod, sk->name_width, name,
		rep_jfmt(n[0], 64, 10, 2, v.rate), rep_jfmt(n[1], 64, 8, 2, v.mb_per_sec),
		(unsigned long long)v.bytes_per_io, rep_jfmt(n[2], 64, 6, 2, v.read_pct),
		rep_jfmt(n[3], 64, 8, 3, v.resp_ms), rep_jfmt(n[4], 64, 8, 3, v.read_resp_ms),
		rep_jfmt(n[5], 64, 8, 3, v.write_resp_ms), rep_jfmt(n[6], 64, 8, 3, v.resp_max_ms),
		rep_jfmt(n[7], 64, 8, 3, v.resp_std_ms), rep_jfmt(n[8], 64, 5, 1, v.qdepth));
}

static void blank(struct skew *sk)
{
	fprintf(sk->f, "%s \n", sk->tod);
}

/* Widest name of the tables, never narrower than VDbench's "localhost-0" column. */
static int name_width(const struct rep_exec *x, const struct rep_run *r)
{
	char last[32];
	size_t w = strlen(rep_host_name(x)) +
		   (size_t)snprintf(last, sizeof(last), "-%u", rep_nr_jvms(x) - 1);

	for (size_t i = 0; i < r->nr_sds; i++)
		w = strlen(r->sd_names[i]) > w ? strlen(r->sd_names[i]) : w;
	for (size_t i = 0; i < r->nr_wds; i++)
		w = strlen(r->wd_names[i]) > w ? strlen(r->wd_names[i]) : w;
	return (int)w + 1;
}

static uint64_t ios(const struct stats_bank *b)
{
	return b->op[STATS_OP_READ].nr_ios + b->op[STATS_OP_WRITE].nr_ios;
}

static void wd_table(struct skew *sk, const struct rep_run *r, const struct rep_sample *avg)
{
	double total = (double)ios(avg->total), req_sum = 0;
	char a[32], b[32], c[32];

	blank(sk);
	fprintf(sk->f,
		"%s Calculated versus requested workload skew. (Delta only shown if > 0.10%% "
		"absolute)\n",
		sk->tod);
	fprintf(sk->f, "%s Note that for an Uncontrolled MAX run workload skew is irrelevant.\n",
		sk->tod);
	blank(sk);
	header(sk, "WD:", true);
	for (size_t i = 0; i < r->nr_wds; i++) {
		double req = r->wd_skew_pct ? r->wd_skew_pct[i] : 100.0 / (double)r->nr_wds;
		double obs = total ? (double)ios(&avg->wd[i]) * 100.0 / total : 0;

		req_sum += req;
		row(sk, r->wd_names[i], &avg->wd[i], avg);
		fprintf(sk->f, "%s%%%s%%", rep_jfmt(a, 32, 9, 2, req), rep_jfmt(b, 32, 8, 2, obs));
		if (fabs(req - obs) > 0.1)
			fprintf(sk->f, " %s%%", rep_jfmt(c, 32, 6, 2, req - obs));
		else
			fputc(' ', sk->f);
		fputc('\n', sk->f);
	}
	row(sk, "Total", avg->total, avg);
	fprintf(sk->f, "%s%%%s%%\n", rep_jfmt(a, 32, 9, 2, req_sum),
		rep_jfmt(b, 32, 8, 2, total ? 100.0 : 0));
}

static void jvm_table(struct skew *sk, const struct rep_sample *avg)
{
	char name[300];

	header(sk, "Slave:", false);
	for (uint32_t k = 0; k < rep_nr_jvms(sk->x); k++) {
		snprintf(name, sizeof(name), "%s-%u", rep_host_name(sk->x), k);
		row(sk, name, &avg->jvm[k], avg);
		fputc('\n', sk->f);
	}
	row(sk, "Total", avg->total, avg);
	fputc('\n', sk->f);
	blank(sk);
}

static int skew_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct skew *sk = state;
	const struct rep_sample *avg = e->avg;
	size_t *order;

	if (!sk || !avg)
		return 0;
	rep_fmt_tod(sk->tod, avg->tod_ns);
	sk->name_width = name_width(sk->x, r);
	fputc('\n', sk->f);
	rep_html_anchor(sk->f, r);
	fputc('\n', sk->f);
	blank(sk);
	if (!sk->has_run) {
		fprintf(sk->f, "%s Counts reported below are for non-warmup intervals.\n", sk->tod);
		blank(sk);
		sk->has_run = true;
	}
	if (avg->jvm && rep_nr_jvms(sk->x) > 1)
		jvm_table(sk, avg);
	header(sk, "SD:", false);
	order = rep_name_order(r->sd_names, r->nr_sds, true);
	for (size_t i = 0; avg->sd && order && i < r->nr_sds; i++) {
		row(sk, r->sd_names[order[i]], &avg->sd[order[i]], avg);
		fputc('\n', sk->f);
	}
	free(order);
	row(sk, "Total", avg->total, avg);
	fputc('\n', sk->f);
	if (r->run && r->nr_wds > 1 && avg->wd)
		wd_table(sk, r, avg);
	fflush(sk->f);
	return 0;
}

static int skew_open(const struct rep_exec *x, void **state)
{
	struct skew *sk;

	*state = NULL;
	if (!x->outdir)
		return 0;
	sk = calloc(1, sizeof(*sk));
	if (!sk)
		return -ENOMEM;
	sk->x = x;
	sk->f = rep_html_open(x, "skew.html");
	if (!sk->f) {
		int ret = -errno;

		free(sk);
		return ret;
	}
	fputs(REP_VDB_SKEW_HEAD, sk->f);
	rep_html_run_links(sk->f, x);
	fputc('\n', sk->f);
	fflush(sk->f);
	*state = sk;
	return 0;
}

static int skew_close(void *state, int status)
{
	struct skew *sk = state;
	int ret;

	(void)status;
	if (!sk)
		return 0;
	ret = rep_html_close(sk->f);
	free(sk);
	return ret;
}

const struct rep_ops rep_skew = {
	.name = "skew",
	.file = "skew.html",
	.open = skew_open,
	.run_end = skew_run_end,
	.close = skew_close,
};
