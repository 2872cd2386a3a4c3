/* VDbench's warning boxes after a run (reference §9.2, §9.8): the workload skew warning with
 * its list of possible reasons, the processor utilization warning and the one for too many
 * I/Os per slave, and the text of an I/O error line. The wording is VDbench's, since wrappers
 * search for it. */
#include "vdbtext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
	BOX_LINE_MAX = 256,
};

static void emit_stars(size_t nr, rep_emit_fn *emit, void *ctx)
{
	char line[BOX_LINE_MAX + 8];

	if (nr > sizeof(line) - 1)
		nr = sizeof(line) - 1;
	memset(line, '*', nr);
	line[nr] = '\0';
	emit(ctx, line);
}

void rep_box(const char *const *lines, size_t nr, rep_emit_fn *emit, void *ctx)
{
	char line[BOX_LINE_MAX + 8];
	size_t width = 0;

	for (size_t i = 0; i < nr; i++)
		if (strlen(lines[i]) > width)
			width = strlen(lines[i]);
	if (width > BOX_LINE_MAX)
		width = BOX_LINE_MAX;
	emit(ctx, "*");
	emit_stars(width + 4, emit, ctx);
	for (size_t i = 0; i < nr; i++) {
		snprintf(line, sizeof(line), "* %-*.*s *", (int)width, (int)width, lines[i]);
		emit(ctx, line);
	}
	emit_stars(width + 4, emit, ctx);
	emit(ctx, "*");
}

static const char *const skew_reasons[] = {
	"Possible reasons for workload skew being out of sync:",
	"",
	"- Elapsed time too short.",
	"  Each SD should have done at least 2000 i/o's. Adding 'warmup=nn' may help this.",
	"  For SD concatenation this is the ONLY acceptable reason. Contact me at the Oracle "
	"Vdbench Forum if the differences are too big.",
	"",
	"- A mix of seekpct=seq and random workloads.",
	"  Sequential workloads may run on only ONE slave, but random workloads",
	"  may run on multiple slaves. Workload skew depends on ALL workloads",
	"  running on all slaves. Force slave count to just one. (hd=default,jvms=1)",
	"",
	"- Not enough threads available to guarantee that all workloads can run",
	"  on all slaves.",
	"",
	"- There may be more, can't think (of any) right now. :-)",
	"",
	"You may use 'abort_failed_skew=nn' for Vdbench to abort after skew failures. See "
	"documentation.",
	"",
};

/* The first WD whose observed share of the I/O is more than 1% from the requested one, or -1;
 * *delta gets the difference (requested - observed). */
static int skew_off_wd(const struct rep_run *r, const struct rep_sample *avg, double *delta)
{
	uint64_t total = 0;

	for (size_t i = 0; i < r->nr_wds; i++)
		total += avg->wd[i].op[STATS_OP_READ].nr_ios + avg->wd[i].op[STATS_OP_WRITE].nr_ios;
	if (!total || !r->wd_skew_pct)
		return -1;
	for (size_t i = 0; i < r->nr_wds; i++) {
		uint64_t n =
			avg->wd[i].op[STATS_OP_READ].nr_ios + avg->wd[i].op[STATS_OP_WRITE].nr_ios;
		double d = r->wd_skew_pct[i] - (double)n * 100.0 / (double)total;

		if (fabs(d) > 1.0) {
			*delta = d;
			return (int)i;
		}
	}
	return -1;
}

static void skew_warning(const struct rep_run *r, const struct rep_run_end *e, bool with_reasons,
			 rep_emit_fn *emit, void *ctx)
{
	char text[BOX_LINE_MAX], num[32];
	const char *line = text;
	double delta = 0;
	int wd;

	if (!rep_run_has_skew(r) || !e->avg || !e->avg->wd)
		return;
	wd = skew_off_wd(r, e->avg, &delta);
	if (wd < 0)
		return;
	snprintf(text, sizeof(text),
		 "Observed Workload skew for wd=%s delta greater than 1%% (%s). See skew.html for "
		 "details",
		 r->wd_names[wd], rep_jfmt(num, sizeof(num), 0, 2, fabs(delta)));
	rep_box(&line, 1, emit, ctx);
	if (with_reasons)
		rep_box(skew_reasons, IORAMP_ARRAY_SIZE(skew_reasons), emit, ctx);
}

static uint64_t bank_ios(const struct stats_bank *b)
{
	return b->op[STATS_OP_READ].nr_ios + b->op[STATS_OP_WRITE].nr_ios;
}

/* The slaves that did I/O in the run's average: of many hosts, or of one host's JVMs. */
static uint32_t active_slaves(const struct rep_exec *x, const struct rep_sample *avg)
{
	uint32_t n = 0;

	if (avg->slave && x->nr_slaves) {
		for (size_t k = 0; k < x->nr_slaves; k++)
			n += bank_ios(&avg->slave[k]) > 0;
	} else if (avg->jvm && rep_nr_jvms(x) > 1) {
		for (uint32_t k = 0; k < rep_nr_jvms(x); k++)
			n += bank_ios(&avg->jvm[k]) > 0;
	}
	return n ? n : 1;
}

/* VDbench 5.04.07 (observed with ios_per_jvm=1000 and 100): after the CPU box, when the run's
 * average rate over the slaves that did I/O is above ios_per_jvm= (100,000 unless given),
 * this box with that rate truncated ("(171)" for 514.67 on three slaves). */
static void rate_box(const char *rd, double per, uint32_t nr, double ios_per_jvm, rep_emit_fn *emit,
		     void *ctx)
{
	double limit = ios_per_jvm > 0 ? ios_per_jvm : REP_VDB_IOS_PER_JVM;
	char first[BOX_LINE_MAX], last[BOX_LINE_MAX], a[32], b[32];
	const char *lines[] = {
		first,
		"You may need to adjust your total slave count.",
		"",
		"See 'jvms=' in documentation for raw (SD/WD) workloads).",
		"See 'host=' and/or 'clients=' in documentation for file system (FSD/FWD) workloads).",
		"",
		last,
	};

	if (!(per > limit))
		return;
	snprintf(first, sizeof(first),
		 "Warning: total amount of i/o per second per slave (%s) greater than %s.",
		 rep_jgroup(a, sizeof(a), (uint64_t)per),
		 rep_jgroup(b, sizeof(b), (uint64_t)limit));
	snprintf(last, sizeof(last), "rd=%s actively used %u slaves.", rd, nr);
	rep_box(lines, IORAMP_ARRAY_SIZE(lines), emit, ctx);
}

static void jvm_warning(const struct rep_exec *x, const struct rep_run *r,
			const struct rep_sample *avg, rep_emit_fn *emit, void *ctx)
{
	uint32_t nr = active_slaves(x, avg);

	if (!avg->elapsed_ns || !avg->total)
		return;
	rate_box(r->name, (double)bank_ios(avg->total) * 1e9 / (double)avg->elapsed_ns / nr, nr,
		 x->cfg ? x->cfg->general.ios_per_jvm : 0, emit, ctx);
}

/* The processor utilization box, above 80% of the machine. */
static void cpu_box(const char *host, double used_pct, rep_emit_fn *emit, void *ctx)
{
	char first[BOX_LINE_MAX], num[32];
	const char *lines[3] = {
		first,
		"Any processor utilization over 80% could mean that your system",
		"does not have enough cycles to run the highest rate possible.",
	};

	if (!(used_pct > 80.0))
		return;
	snprintf(first, sizeof(first), "Warning for host=%s: average processor utilization %s%% ",
		 host ? host : "localhost", rep_jfmt(num, sizeof(num), 0, 1, used_pct));
	rep_box(lines, IORAMP_ARRAY_SIZE(lines), emit, ctx);
}

void rep_run_warnings(const struct rep_exec *x, const struct rep_run *r,
		      const struct rep_run_end *e, bool with_reasons, rep_emit_fn *emit, void *ctx)
{
	skew_warning(r, e, with_reasons, emit, ctx);
	if (!e->avg)
		return;
	if (e->avg->has_cpu)
		cpu_box(x->host, e->avg->cpu.used_pct, emit, ctx);
	jvm_warning(x, r, e->avg, emit, ctx);
}

/* The file-system run's list (VDbench 5.04.07, observed: FSDs and operations, not SDs). */
static const char *const fs_skew_reasons[] = {
	"Possible reasons for workload skew being out of sync:",
	"",
	"- Elapsed time too short.",
	"  Each FSD should have done at least 2000 operations. Adding 'warmup=nn' may help this.",
	"",
	"- Not enough threads available to guarantee that all workloads can run on all slaves.",
	"",
	"- There may be more, can't think (of any) right now. :-)",
	"  Contact me at the Oracle Vdbench Forum if the differences are out of line.",
	"",
	"You may use 'abort_failed_skew=nn' for Vdbench to abort after skew failures. See "
	"documentation.",
	"",
};

static void emit_file(void *ctx, const char *line)
{
	char tod[REP_TOD_LEN];
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	rep_fmt_tod(tod, (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
	fprintf(ctx, "%s %s\n", tod, line);
}

void rep_fs_run_warnings(FILE *f, const struct rep_fs_warnings *w, bool with_reasons)
{
	if (w->skew_fwd) {
		char text[BOX_LINE_MAX], num[32];
		const char *line = text;

		snprintf(text, sizeof(text),
			 "Observed Workload skew for fwd=%s delta greater than 1%% (%s). See "
			 "skew.html for details",
			 w->skew_fwd, rep_jfmt(num, sizeof(num), 0, 2, fabs(w->skew_delta)));
		rep_box(&line, 1, emit_file, f);
		if (with_reasons)
			rep_box(fs_skew_reasons, IORAMP_ARRAY_SIZE(fs_skew_reasons), emit_file, f);
	}
	cpu_box(w->host, w->cpu_pct, emit_file, f);
	rate_box(w->rd, w->ops_per_sec, 1, w->ios_per_jvm, emit_file, f);
	fflush(f);
}

void rep_io_error_text(char *buf, size_t len, const struct rep_exec *x,
		       const struct rep_io_error *e)
{
	const char *name = strerrorname_np(e->err);
	char tod[REP_TOD_LEN], errname[24], why[96];

	if (!name) {
		snprintf(errname, sizeof(errname), "%d", e->err);
		name = errname;
	}
	if (e->is_short)
		snprintf(why, sizeof(why), "short transfer: %llu of %llu bytes",
			 (unsigned long long)e->transferred_bytes,
			 (unsigned long long)e->size_bytes);
	else
		snprintf(why, sizeof(why), "%s", strerror(e->err));
	rep_fmt_tod(tod, e->tod_ns);
	snprintf(buf, len,
		 "%s-0: %s op: %-6s lun: %-30s lba: %12llu 0x%08llX xfer: %8llu errno: %s: '%s' ",
		 x->host ? x->host : "localhost", tod, e->op == STATS_OP_READ ? "read" : "write",
		 e->lun ? e->lun : "", (unsigned long long)e->lba_bytes,
		 (unsigned long long)e->lba_bytes, (unsigned long long)e->size_bytes, name, why);
}
