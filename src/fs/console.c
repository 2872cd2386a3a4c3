/* The file-system console as VDbench 5.04.07 prints it (observed): the two heading lines,
 * one line per interval and the avg line with the same columns, and the "Miscellaneous
 * statistics" block with each counter's total and rate. */
#include "fs_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void fs_opstat_note(struct fs_opstat *s, double ms)
{
	s->n++;
	s->resp_sum_ms += ms;
	s->resp_sq_ms += ms * ms;
	if (ms > s->resp_max_ms)
		s->resp_max_ms = ms;
}

void fs_stats_note(struct fs_stats *st, struct stats_hist *lat, struct stats_hist *svc,
		   enum fs_op op, bool is_reqstd, const uint64_t times_ns[3])
{
	uint64_t due = times_ns[0], issue = times_ns[1], now = times_ns[2];
	uint64_t svc_ns = now - (issue > due ? issue : due);

	fs_opstat_note(&st->op[op], (double)svc_ns / 1e6);
	if (!is_reqstd)
		return;
	fs_opstat_note(&st->reqstd, (double)svc_ns / 1e6);
	stats_hist_add(lat, now - (due ? due : issue));
	stats_hist_add(svc, svc_ns);
}

static void opstat_add(struct fs_opstat *to, const struct fs_opstat *from)
{
	to->n += from->n;
	to->resp_sum_ms += from->resp_sum_ms;
	to->resp_sq_ms += from->resp_sq_ms;
	if (from->resp_max_ms > to->resp_max_ms)
		to->resp_max_ms = from->resp_max_ms;
}

void fs_stats_add(struct fs_stats *to, const struct fs_stats *from)
{
	for (int i = 0; i < FS_OP_NR; i++)
		opstat_add(&to->op[i], &from->op[i]);
	opstat_add(&to->reqstd, &from->reqstd);
	to->read_bytes += from->read_bytes;
	to->write_bytes += from->write_bytes;
	for (int i = 0; i < FS_MISC_NR; i++)
		to->misc[i] += from->misc[i];
}

static void tod(char buf[16])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	snprintf(buf, 16, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (int)(ts.tv_nsec / 1000000));
}

/* The metadata operations that can have console columns, in VDbench's order. */
static const enum fs_op meta_ops[] = { FS_OP_MKDIR,  FS_OP_RMDIR,  FS_OP_CREATE,  FS_OP_OPEN,
				       FS_OP_CLOSE,  FS_OP_DELETE, FS_OP_GETATTR, FS_OP_SETATTR,
				       FS_OP_ACCESS, FS_OP_COPY,   FS_OP_MOVE };

static bool has_col(unsigned int cols, enum fs_op op)
{
	return cols & (1u << op);
}

unsigned int fs_console_cols(const struct fs_plan *p)
{
	unsigned int cols = 0;

	for (size_t i = 0; i < p->nr_runs; i++) {
		const struct fs_run *r = &p->runs[i];

		if (r->kind == FS_RUN_FORMAT)
			cols |= 1u << FS_OP_MKDIR | 1u << FS_OP_RMDIR | 1u << FS_OP_CREATE |
				1u << FS_OP_OPEN | 1u << FS_OP_CLOSE | 1u << FS_OP_DELETE;
		for (size_t j = 0; r->kind == FS_RUN_WORK && j < r->nr_fwds; j++) {
			enum fs_op op = r->fwds[j].op;

			if (op == FS_OP_READ || op == FS_OP_WRITE)
				cols |= 1u << FS_OP_OPEN | 1u << FS_OP_CLOSE;
			else
				cols |= 1u << op;
		}
	}
	return cols;
}

unsigned int fs_console_run_cols(unsigned int cols, const struct fs_run *r)
{
	/* VDbench leaves the ReqstdOps std and max blank in a run whose requested operations
	 * differ (a read and a getattr FWD, observed) */
	for (size_t j = 1; r->kind == FS_RUN_WORK && j < r->nr_fwds; j++)
		if (r->fwds[j].op != r->fwds[0].op)
			return cols & ~FS_COLS_REQSTD_STD;
	return cols | FS_COLS_REQSTD_STD;
}

void fs_console_header(FILE *f, unsigned int cols)
{
	fputc('\n', f);
	fs_console_header_lines(f, cols);
}

void fs_console_header_lines(FILE *f, unsigned int cols)
{
	char date[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%b %d, %Y", &tm);
	fprintf(f,
		"%s ..Interval.. .ReqstdOps... ...cpu%%...  read ....read..... "
		"....write.... ..mb/sec... mb/sec .xfer..",
		date);
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(meta_ops); i++) {
		const char *n = fs_op_name(meta_ops[i]);
		int len = (int)strlen(n), left = (12 - len) / 2;

		if (has_col(cols, meta_ops[i]))
			fprintf(f, " %.*s%s%.*s", left, "......", n, 12 - len - left, "......");
	}
	fprintf(f,
		"\n                            rate   resp total  sys   pct   rate   resp   rate "
		"  resp  read write  total    size");
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(meta_ops); i++)
		if (has_col(cols, meta_ops[i]))
			fprintf(f, "  rate   resp");
	fputc('\n', f);
}

/* " %w.pf", or " NaN" as Java prints a rate over no time. */
/* A figure in w columns: decimals dropped while it is wider (VDbench 5.04.07, observed:
 * "165075" for a rate of %6.1f, "644.8" for MB/s of %5.2f, "41269" for an open rate of %5.1f). */
static void fnum(FILE *f, int w, int prec, double v)
{
	if (isnan(v)) {
		fprintf(f, " NaN");
		return;
	}
	while (prec > 0 && snprintf(NULL, 0, "%.*f", prec, v) > w)
		prec--;
	fprintf(f, " %*.*f", w, prec, v);
}

static double resp(const struct fs_opstat *s)
{
	return s->n ? s->resp_sum_ms / (double)s->n : 0;
}

void fs_console_line(FILE *f, unsigned int cols, const char *label, const struct fs_stats *s,
		     double secs, double cpu_total, double cpu_sys)
{
	const struct fs_opstat *rd = &s->op[FS_OP_READ], *wr = &s->op[FS_OP_WRITE];
	uint64_t rw = rd->n + wr->n;
	double mb = 1024.0 * 1024.0;
	char t[16];

	/* an average over no interval (a format done within its first one): NaN rates */
	if (secs <= 0)
		secs = 0;
	tod(t);
	fprintf(f, "%s%13s", t, label);
	fnum(f, 6, 1, (double)s->reqstd.n / secs);
	fnum(f, 6, 3, resp(&s->reqstd));
	fnum(f, 5, 1, cpu_total);
	/* sys: three figures in four columns, "9.36" but "12.6" (observed) */
	fnum(f, 4, !isnan(cpu_sys) && cpu_sys >= 9.995 ? 1 : 2, cpu_sys);
	fprintf(f, " %5.1f", rw ? 100.0 * (double)rd->n / (double)rw : 0.0);
	fnum(f, 6, 1, (double)rd->n / secs);
	fnum(f, 6, 3, resp(rd));
	fnum(f, 6, 1, (double)wr->n / secs);
	fnum(f, 6, 3, resp(wr));
	fnum(f, 5, 2, (double)s->read_bytes / mb / secs);
	fnum(f, 5, 2, (double)s->write_bytes / mb / secs);
	fnum(f, 6, 2, (double)(s->read_bytes + s->write_bytes) / mb / secs);
	fprintf(f, " %7llu",
		rw ? (unsigned long long)((s->read_bytes + s->write_bytes) / rw) : 0ull);
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(meta_ops); i++) {
		if (!has_col(cols, meta_ops[i]))
			continue;
		fnum(f, 5, 1, (double)s->op[meta_ops[i]].n / secs);
		fnum(f, 6, 3, resp(&s->op[meta_ops[i]]));
	}
	fputc('\n', f);
}

bool fs_misc_line(const struct fs_stats *s, int i, double secs, char *buf, size_t len)
{
	static const struct {
		const char *name;
		const char *what;
	} misc[FS_MISC_NR] = {
		[FS_MISC_FILE_CREATES] = { "FILE_CREATES", "Files created:" },
		[FS_MISC_DIRECTORY_CREATES] = { "DIRECTORY_CREATES", "Directories created:" },
		[FS_MISC_WRITE_OPENS] = { "WRITE_OPENS", "Files opened for write activity:" },
		[FS_MISC_READ_OPENS] = { "READ_OPENS", "Files opened for read activity:" },
		[FS_MISC_FILE_DELETES] = { "FILE_DELETES", "Files deleted:" },
		[FS_MISC_DIRECTORY_DELETES] = { "DIRECTORY_DELETES", "Directories deleted:" },
		[FS_MISC_FILE_BUSY] = { "FILE_BUSY", "File busy:" },
		[FS_MISC_FILE_MAY_NOT_EXIST] = { "FILE_MAY_NOT_EXIST",
						 "File may not exist (yet):" },
		[FS_MISC_DIR_BUSY_MKDIR] = { "DIR_BUSY_MKDIR", "Directory busy (mkdir):" },
		[FS_MISC_DIR_DOES_NOT_EXIST] = { "DIR_DOES_NOT_EXIST",
						 "Directory does not exist (rmdir):" },
		[FS_MISC_DIR_EXISTS] = { "DIR_EXISTS", "Directory may not exist (yet):" },
		[FS_MISC_DIR_STILL_HAS_CHILD] = { "DIR_STILL_HAS_CHILD",
						  "Directory still has a child directory:" },
		[FS_MISC_DIR_STILL_HAS_FILES] = { "DIR_STILL_HAS_FILES",
						  "Directory still has files:" },
		[FS_MISC_FILE_MUST_EXIST] = { "FILE_MUST_EXIST", "File does not exist (yet):" },
		[FS_MISC_MISSING_PARENT] = { "MISSING_PARENT",
					     "Parent directory does not exist (yet):" },
		[FS_MISC_GET_ATTR] = { "GET_ATTR", "Getattr requests:" },
		[FS_MISC_FILE_CLOSES] = { "FILE_CLOSES", "Close requests:" },
	};
	char n[32], rate[32];

	if (i < 0 || i >= FS_MISC_NR || !s->misc[i])
		return false;
	rep_fmt_group((double)s->misc[i], 0, n, sizeof(n));
	if (secs > 0)
		snprintf(buf, len, "%-20s%-40s%11s%11s/sec", misc[i].name, misc[i].what, n,
			 rep_fmt_group((double)llround((double)s->misc[i] / secs), 0, rate,
				       sizeof(rate)));
	else
		snprintf(buf, len, "%-20s%-40s%11s", misc[i].name, misc[i].what, n);
	return true;
}

bool fs_misc_any(const struct fs_stats *s)
{
	for (int i = 0; i < FS_MISC_NR; i++)
		if (s->misc[i])
			return true;
	return false;
}

void fs_console_misc(FILE *f, const struct fs_stats *s, double secs)
{
	char t[16], line[256];

	if (secs <= 0)
		secs = 1;
	tod(t);
	if (!fs_misc_any(s)) { /* one line, no blank ones (VDbench 5.04.07, observed) */
		fprintf(f, "%s Miscellaneous statistics: All counters are zero\n", t);
		return;
	}
	fprintf(f, "%s \n%s Miscellaneous statistics:\n", t, t);
	fprintf(f,
		"%s (These statistics do not include activity between the last reported "
		"interval and shutdown.)\n",
		t);
	for (int i = 0; i < FS_MISC_NR; i++)
		if (fs_misc_line(s, i, secs, line, sizeof(line)))
			fprintf(f, "%s %s\n", t, line);
	fprintf(f, "%s \n", t);
}

/* One column pair of the std_ or max_ line: blank when the operation never ran. The max
 * line's response is the run's longest, warmup included (`all`): VDbench's format max_ line
 * shows the one mkdir of interval 1 as a response with a blank rate (observed). */
static void stdmax_pair(FILE *f, const struct fs_opstat *iv, const struct fs_opstat *all, size_t nr,
			size_t op_off, double secs, bool is_max, int rate_w)
{
	double sum = 0, sq = 0, mx = 0, n = 0, rsum = 0, rsq = 0, rmax = 0;

	if (!iv)
		nr = 0; /* a column left blank */
	for (size_t i = 0; i < nr; i++) {
		const struct fs_opstat *s =
			(const struct fs_opstat *)((const char *)&iv[0] + i * op_off);
		double rate = (double)s->n / secs;

		sum += rate;
		sq += rate * rate;
		if (rate > mx)
			mx = rate;
		n += (double)s->n;
		rsum += s->resp_sum_ms;
		rsq += s->resp_sq_ms;
		if (s->resp_max_ms > rmax)
			rmax = s->resp_max_ms;
	}
	if (is_max && all && all->resp_max_ms > rmax)
		rmax = all->resp_max_ms;
	if (!n && is_max && iv && rmax > 0) {
		fprintf(f, " %*s %6.3f", rate_w, "", rmax);
		return;
	}
	if (!n) {
		fprintf(f, " %*s %6s", rate_w, "", "");
		return;
	}
	if (!is_max && nr < 2) { /* VDbench leaves the rate's std of one interval blank */
		fprintf(f, " %*s %6.3f", rate_w, "",
			sqrt(fmax(0, rsq / n - (rsum / n) * (rsum / n))));
		return;
	}
	if (is_max) {
		fnum(f, rate_w, 1, mx);
		fnum(f, 6, 3, rmax);
	} else {
		double m = sum / (double)nr, rm = rsum / n;
		double sd =
			nr > 1 ? sqrt(fmax(0, (sq - (double)nr * m * m) / (double)(nr - 1))) : 0;

		/* a rate that never changed has no std: blank, as VDbench (observed) */
		if (sd == 0)
			fprintf(f, " %*s %6.3f", rate_w, "", sqrt(fmax(0, rsq / n - rm * rm)));
		else
			fprintf(f, " %*.1f %6.3f", rate_w, sd, sqrt(fmax(0, rsq / n - rm * rm)));
	}
}

void fs_console_stdmax(FILE *f, unsigned int cols, const char *range, const struct fs_stats *iv,
		       const struct fs_stats *all, size_t nr, double secs)
{
	size_t off = sizeof(struct fs_stats);
	char t[16], label[64];

	if (secs <= 0)
		secs = 1;
	for (int is_max = 0; is_max < 2; is_max++) {
		tod(t);
		snprintf(label, sizeof(label), "%s_%s", is_max ? "max" : "std", range);
		fprintf(f, "%s%13s", t, label);
		stdmax_pair(f, nr && (cols & FS_COLS_REQSTD_STD) ? &iv[0].reqstd : NULL,
			    &all->reqstd, nr, off, secs, is_max, 6);
		fprintf(f, " %5s %4s %5s", "", "", "");
		stdmax_pair(f, nr ? &iv[0].op[FS_OP_READ] : NULL, &all->op[FS_OP_READ], nr, off,
			    secs, is_max, 6);
		stdmax_pair(f, nr ? &iv[0].op[FS_OP_WRITE] : NULL, &all->op[FS_OP_WRITE], nr, off,
			    secs, is_max, 6);
		fprintf(f, " %5s %5s %6s %7s", "", "", "", "");
		for (size_t i = 0; i < IORAMP_ARRAY_SIZE(meta_ops); i++)
			if (has_col(cols, meta_ops[i]))
				stdmax_pair(f, nr ? &iv[0].op[meta_ops[i]] : NULL,
					    &all->op[meta_ops[i]], nr, off, secs, is_max, 5);
		fputc('\n', f);
	}
}

void fs_console_warnings(struct fs_out *out, const struct fs_run *r, const struct fs_views *v,
			 double csecs, double mcpu)
{
	struct fs_skew_row *rows = calloc(r->nr_fwds ? r->nr_fwds : 1, sizeof(*rows));
	size_t n = rows && fs_run_has_skew(r) ? fs_skew_observed(r, v, rows) : 0;
	struct rep_fs_warnings w = {
		.rd = r->name,
		.cpu_pct = mcpu,
		.ops_per_sec = csecs > 0 ? (double)v->views[0].avg.reqstd.n / csecs : 0,
		.ios_per_jvm = out->plan->cfg->general.ios_per_jvm,
	};

	for (size_t i = 0; i < n; i++) {
		double delta = rows[i].actual_pct - rows[i].requested_pct;

		if (fabs(delta) > 1.0) {
			w.skew_fwd = rows[i].name;
			w.skew_delta = delta;
		}
	}
	rep_fs_run_warnings(out->con, &w, true);
	if (out->summary)
		rep_fs_run_warnings(out->summary, &w, false);
	free(rows);
}
