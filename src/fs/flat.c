/* flatfile.html of a file-system run: VDbench's file-system columns (Reqrate, Rate, Resp,
 * MB/sec, then rate/resp with std and max for each operation, cpu), one row per interval and
 * one per run average. In an interval row the *_rate_std and *_rate_max columns are 0 and
 * the resp std/max are over that interval's operations; in the average row the rate std/max
 * are over the counted intervals, as VDbench fills them. */
#include "fs_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

/* The operations VDbench gives columns, in its order (copy and move have none). */
static const enum fs_op flat_ops[] = {
	FS_OP_READ,  FS_OP_WRITE,  FS_OP_MKDIR,	  FS_OP_RMDIR,	 FS_OP_CREATE, FS_OP_OPEN,
	FS_OP_CLOSE, FS_OP_DELETE, FS_OP_GETATTR, FS_OP_SETATTR, FS_OP_ACCESS,
};

/* A number as VDbench's flatfile prints it: up to `dec` decimals, trailing zeros dropped. */
static void num(FILE *f, double v, int dec)
{
	char b[64];
	char *e;

	if (isnan(v)) {
		fprintf(f, "NaN ");
		return;
	}
	snprintf(b, sizeof(b), "%.*f", dec, v);
	if (strchr(b, '.')) {
		e = b + strlen(b) - 1;
		while (*e == '0')
			*e-- = '\0';
		if (*e == '.')
			*e = '\0';
	}
	if (!strcmp(b, "-0"))
		strcpy(b, "0");
	fprintf(f, "%s ", b);
}

static double mean(const struct fs_opstat *o)
{
	return o->n ? o->resp_sum_ms / (double)o->n : 0;
}

static double resp_std(const struct fs_opstat *o)
{
	double m = mean(o), v;

	if (o->n < 2)
		return 0;
	v = (o->resp_sq_ms - (double)o->n * m * m) / (double)(o->n - 1);
	return v > 0 ? sqrt(v) : 0;
}

/* rate, rate_std, rate_max, resp, resp_std, resp_max of one operation */
static void op_cols(FILE *f, const struct fs_opstat *o, double secs, double rstd, double rmax)
{
	num(f, (double)o->n / secs, 4);
	num(f, rstd, 4);
	num(f, rmax, 4);
	num(f, mean(o), 4);
	num(f, resp_std(o), 4);
	num(f, o->resp_max_ms, 3);
}

/* The columns before the operations', as VDbench describes them (observed). */
static const char *const head_cols[][2] = {
	{ "Run", "Name of run from RD=" },
	{ "Interval", "Reporting interval number" },
	{ "Xfersize", "data transfer size requested" },
	{ "Threads", "number of threads requested" },
	{ "Reqrate", "Requested FWD rate" },
	{ "Rate", "Requested operations per second" },
	{ "Rate_std", "Requested operations per second standard deviation" },
	{ "Rate_max", "Requested operations per second max" },
	{ "Resp", "Requested response time" },
	{ "Resp_std", "Requested response time standard deviation" },
	{ "Resp_max", "Requested response time max" },
	{ "MB/sec", "Megabytes per second (MB=1024*1024)" },
	{ "MB_read", "Megabytes read per second" },
	{ "MB_write", "Megabytes written per second" },
};

static const char *const tail_cols[][2] = {
	{ "Compratio", "Requested compression ratio" },
	{ "Dedupratio", "Requested dedup ratio" },
	{ "cpu_used", "kstat: cpu% user+sys" },
	{ "cpu_user", "kstat: cpu% user" },
	{ "cpu_kernel", "kstat: cpu% sys " },
	{ "cpu_wait", "kstat: cpu% wait" },
	{ "cpu_idle", "kstat: cpu% idle" },
};

/* "Read", "Getattr": the operation's column prefix. */
static void op_title(enum fs_op op, char *buf, size_t len)
{
	snprintf(buf, len, "%s", fs_op_name(op));
	if (buf[0] >= 'a' && buf[0] <= 'z')
		buf[0] = (char)(buf[0] - 32);
}

/* The "*" block: VDbench's preamble, then each column and what it holds. */
static void comments(FILE *f)
{
	rep_flat_preamble(f);
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(head_cols); i++)
		rep_flat_comment(f, head_cols[i][0], head_cols[i][1]);
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(flat_ops); i++) {
		static const char *const sfx[][2] = {
			{ "rate", "s per second" },
			{ "rate_std", "s per second stddev" },
			{ "rate_max", "s per second max" },
			{ "resp", " response time" },
			{ "resp_std", " response time stddev" },
			{ "resp_max", " response time max" },
		};
		char n[32], col[48], desc[96];

		op_title(flat_ops[i], n, sizeof(n));
		for (size_t k = 0; k < IORAMP_ARRAY_SIZE(sfx); k++) {
			/* "Accesses per second": the plural of a word in s */
			bool es = k < 3 && n[strlen(n) - 1] == 's';

			snprintf(col, sizeof(col), "%s_%s", n, sfx[k][0]);
			snprintf(desc, sizeof(desc), "%s%s%s", n, es ? "e" : "", sfx[k][1]);
			rep_flat_comment(f, col, desc);
		}
	}
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(tail_cols); i++)
		rep_flat_comment(f, tail_cols[i][0], tail_cols[i][1]);
	rep_flat_comments_end(f);
}

FILE *fs_flat_open(const char *dir)
{
	FILE *f = rep_html_page_open(dir, "flatfile.html");

	if (!f) {
		fprintf(stderr, "ioramp: %s/flatfile.html: %s\n", dir, strerror(errno));
		return NULL;
	}
	comments(f);
	fprintf(f, "%12s %23s ", "tod", "timestamp");
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(head_cols); i++)
		fprintf(f, "%s ", head_cols[i][0]);
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(flat_ops); i++) {
		char n[32];

		op_title(flat_ops[i], n, sizeof(n));
		fprintf(f, "%s_rate %s_rate_std %s_rate_max %s_resp %s_resp_std %s_resp_max ", n, n,
			n, n, n, n);
	}
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(tail_cols); i++)
		fprintf(f, "%s ", tail_cols[i][0]);
	fputc('\n', f);
	return f;
}

/* Whether the run's FWDs request operations of different kinds, read and write counted as
 * one. */
static bool is_mixed_meta(const struct fs_run *r)
{
	for (size_t j = 1; r->kind == FS_RUN_WORK && j < r->nr_fwds; j++) {
		enum fs_op a = r->fwds[0].op, b = r->fwds[j].op;
		bool is_xfer_a = a == FS_OP_READ || a == FS_OP_WRITE;
		bool is_xfer_b = b == FS_OP_READ || b == FS_OP_WRITE;

		if (a != b && !(is_xfer_a && is_xfer_b))
			return true;
	}
	return false;
}

uint64_t fs_flat_xfer(const struct fs_run *r, const struct fs_stats *s)
{
	const struct parm_xfer *x = r->nr_fwds ? &r->fwds[0].xfer : NULL;
	uint64_t rw = s->op[FS_OP_READ].n + s->op[FS_OP_WRITE].n;

	/* a format's transfer size is what its writes moved on average */
	if (r->kind == FS_RUN_FORMAT)
		return rw ? (s->read_bytes + s->write_bytes) / rw : 0;
	return x && x->kind != PARM_XFER_RANGE && x->nr ? x->sizes_bytes[0] : 0;
}

/* One row. hist/nr: the counted intervals for an average row (NULL for an interval row). */
void fs_flat_row(FILE *f, const struct fs_run *r, const char *label, double reqrate,
		 const struct fs_stats *s, double secs, double cpu, double cpu_sys,
		 const struct fs_stats *hist, size_t nr)
{
	struct timeval tv;
	struct tm tm;
	char tod[32], stamp[40];
	/* an average over no interval (a format done within its first): NaN rates */
	double d = secs > 0 ? secs : 0;
	uint64_t xfer = fs_flat_xfer(r, s);

	if (!f)
		return;
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(tod, sizeof(tod), "%H:%M:%S", &tm);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%m/%d/%Y-%H:%M:%S-UTC", &tm);
	fprintf(f, "%s.%03ld %s %s %s %llu n/a ", tod, (long)(tv.tv_usec / 1000), stamp, r->name,
		label, (unsigned long long)xfer);
	num(f, reqrate > 0 ? reqrate : 9999988, 0);
	for (int k = -1; k < (int)(sizeof(flat_ops) / sizeof(flat_ops[0])); k++) {
		const struct fs_opstat *o = k < 0 ? &s->reqstd : &s->op[flat_ops[k]];
		double sum = 0, sq = 0, mx = 0, sd = 0;

		for (size_t i = 0; hist && i < nr; i++) {
			const struct fs_opstat *h =
				k < 0 ? &hist[i].reqstd : &hist[i].op[flat_ops[k]];
			double rt = (double)h->n / (r->interval_s ? (double)r->interval_s : 1);

			sum += rt;
			sq += rt * rt;
			mx = rt > mx ? rt : mx;
		}
		if (hist && nr > 1) {
			double m = sum / (double)nr,
			       v = (sq - (double)nr * m * m) / (double)(nr - 1);

			sd = v > 0 ? sqrt(v) : 0;
		}
		if (k < 0 && is_mixed_meta(r)) {
			/* FWDs of a transfer and a metadata operation, or of two metadata
			 * operations: VDbench has no std or max of the requested operations
			 * (a read and a write FWD have them, observed) */
			num(f, (double)o->n / d, 4);
			fprintf(f, "n/a n/a ");
			num(f, mean(o), 4);
			fprintf(f, "n/a n/a ");
			num(f, (double)(s->read_bytes + s->write_bytes) / d / 1048576.0, 4);
			num(f, (double)s->read_bytes / d / 1048576.0, 4);
			num(f, (double)s->write_bytes / d / 1048576.0, 4);
		} else if (k < 0) {
			op_cols(f, o, d, sd, mx);
			num(f, (double)(s->read_bytes + s->write_bytes) / d / 1048576.0, 4);
			num(f, (double)s->read_bytes / d / 1048576.0, 4);
			num(f, (double)s->write_bytes / d / 1048576.0, 4);
		} else {
			op_cols(f, o, d, sd, mx);
		}
	}
	fprintf(f, "1 n/a ");
	num(f, cpu, 4);
	num(f, cpu - cpu_sys, 4);
	num(f, cpu_sys, 4);
	if (isnan(cpu))
		fprintf(f, "NaN NaN \n");
	else
		fprintf(f, "0 0 \n");
	fflush(f);
}
