/* The file-system -s listing, as VDbench 5.04.07 prints it: one "Anchor size:" line per anchor,
 * "Simulating RD=" per run (format runs by name alone; "fwdrate=max." and "fwdrate=curve." end
 * in a period, numbers in a semicolon), then the total of the work runs' seconds. Also the
 * tree sizes and the file sizes the format pass creates (VDbench's draw per file number, so
 * -s and the engine agree). */
#include "plan_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/fs.h"

/* VDbench 5.04.07 gives file k of an FSD (numbered from zero) the size its (k+1)-th draw of
 * java.util.Random(0).nextInt(100) falls in, the sizes= percentages taken in order
 * (observed on whole trees: the sizes and their counts are VDbench's). Java's generator is
 * the 48-bit LCG below; jumping k+1 steps ahead keeps this a pure function of k. nextInt
 * redraws in a one-in-45-million case (a draw above the last whole hundred of 2^31), which
 * this does not follow. */
enum {
	JAVA_LCG_MUL = 0x5DEECE66DLL,
	JAVA_LCG_ADD = 0xB,
};

/* The 31 bits of the (k+1)-th next(31) of java.util.Random(0). */
static uint64_t java_next31(uint64_t k)
{
	const uint64_t mask = (1ull << 48) - 1;
	uint64_t state = (0 ^ (uint64_t)JAVA_LCG_MUL) & mask; /* new Random(0) */
	uint64_t mul = JAVA_LCG_MUL, add = JAVA_LCG_ADD, acc_mul = 1, acc_add = 0;

	/* (mul, add) applied k+1 times, by squaring: state' = acc_mul * state + acc_add */
	for (uint64_t n = k + 1; n; n >>= 1) {
		if (n & 1) {
			acc_mul = (acc_mul * mul) & mask;
			acc_add = (acc_add * mul + add) & mask;
		}
		add = ((mul + 1) * add) & mask;
		mul = (mul * mul) & mask;
	}
	state = (acc_mul * state + acc_add) & mask;
	return state >> 17;
}

static uint64_t java_draw(uint64_t k)
{
	return java_next31(k) % 100; /* nextInt(100) */
}

/* sizes=(avg,0): file k is avg/2 plus the (k+1)-th nextInt(avg) of java.util.Random(0),
 * rounded to the nearest step: 1k below an average of 100k, 10k below 1m, 100k below 10m,
 * 1m from there (VDbench 5.04.07, observed: every file of (8k,0), (100k,0) and (1m,0) trees,
 * 4k to 12k by 1k, 50k to 150k by 10k, 500k to 1500k by 100k; -s's bytes of 28 averages
 * from 100 bytes to 1g agree, but for 9m to 15m, where VDbench's differ by about 1%, a rule
 * not found). nextInt of a power of two takes the high bits; of another number the
 * remainder, without its one-in-a-billion redraw. */
static uint64_t avg_size(uint64_t avg_bytes, uint64_t k)
{
	uint64_t r = java_next31(k), bytes, step;

	if (avg_bytes > INT32_MAX)
		avg_bytes = INT32_MAX; /* Java's nextInt takes an int */
	r = avg_bytes & (avg_bytes - 1) ? r % avg_bytes : (avg_bytes * r) >> 31;
	bytes = avg_bytes / 2 + r;
	step = avg_bytes < 100 * 1024	      ? 1024
	       : avg_bytes < 1024 * 1024      ? 10 * 1024
	       : avg_bytes < 10 * 1024 * 1024 ? 100 * 1024
					      : 1024 * 1024;
	return (bytes + step / 2) / step * step;
}

uint64_t fs_file_size(const struct parm_fsd *fsd, uint64_t file_no)
{
	const struct parm_xfer *s = &fsd->sizes;
	double u, acc = 0;

	if (s->nr == 1 && s->pcts && !s->pcts[0])
		return avg_size(s->sizes_bytes[0], file_no);
	if (s->nr <= 1)
		return s->nr ? s->sizes_bytes[0] : 0;
	u = (double)java_draw(file_no);
	for (size_t i = 0; i < s->nr; i++) {
		acc += s->pcts[i];
		if (u < acc)
			return s->sizes_bytes[i];
	}
	return s->sizes_bytes[s->nr - 1];
}

static uint64_t upow(uint64_t b, uint32_t e)
{
	uint64_t r = 1;

	while (e--)
		r *= b;
	return r;
}

void fs_tree_size(const struct parm_fsd *fsd, struct fs_tree_size *out)
{
	uint64_t leaves = upow(fsd->width, fsd->depth);

	out->dirs = 0;
	for (uint32_t l = 1; l <= fsd->depth; l++)
		out->dirs += upow(fsd->width, l);
	out->files = (uint64_t)fsd->files * (fsd->is_dist_all && fsd->depth ? out->dirs : leaves);
	out->bytes = 0;
	/* the whole tree, also with totalsize= (VDbench's -s; the format stops at the total);
	 * depth=0's bytes are those of the width= directories it lays out (VDbench 5.04.07's -s,
	 * observed: "dirs: 0; files: 6; bytes: 73728" for width=3 of 4k files) */
	for (uint64_t f = 0; f < (fsd->depth ? out->files : out->files * fsd->width); f++)
		out->bytes += fs_file_size(fsd, f);
	/* depth=-1: the bytes of depth=0, no files (VDbench 5.04.07's -s, observed: "dirs: 0;
	 * files: 0; bytes: 61440" for width=3,files=5 of 4k) */
	if (fsd->depth_negative)
		out->files = 0;
}

/* 135168 as "135,168". */
static void commas(uint64_t v, char *buf, size_t len)
{
	char raw[32], out[48];
	size_t n, o = 0;

	snprintf(raw, sizeof(raw), "%" PRIu64, v);
	n = strlen(raw);
	for (size_t i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = raw[i];
	}
	out[o] = 0;
	snprintf(buf, len, "%s", out);
}

/* Bytes as the anchor lines print them: "49152", "132.000k" (observed). */
static void bytes_text(uint64_t b, char *bytes, size_t len)
{
	/* VDbench 5.04.07 (observed on -s): bytes below 100,000, then k below 1m, m below 1g,
	 * g below 1t (99999 -> 99999, 100000 -> 97.656k, 1m -> 1.000m, 1000g -> 1000.000g) */
	if (b < 100000)
		snprintf(bytes, len, "%" PRIu64, b);
	else if (b < 1024ull * 1024)
		snprintf(bytes, len, "%.3fk", (double)b / 1024);
	else if (b < 1024ull * 1024 * 1024)
		snprintf(bytes, len, "%.3fm", (double)b / 1024 / 1024);
	else if (b < 1024ull * 1024 * 1024 * 1024)
		snprintf(bytes, len, "%.3fg", (double)b / 1024 / 1024 / 1024);
	else
		snprintf(bytes, len, "%.3ft", (double)b / 1024 / 1024 / 1024 / 1024);
}

bool fs_anchor_totals_line(const struct parm_fsd *const *fsds, size_t nr, size_t nr_defined,
			   char *buf, size_t len)
{
	struct fs_tree_size sum = { 0 }, t;
	char bytes[48];

	if (nr_defined < 2)
		return false;
	for (size_t i = 0; i < nr; i++) {
		fs_tree_size(fsds[i], &t);
		sum.dirs += t.dirs;
		sum.files += t.files;
		sum.bytes += t.bytes;
	}
	bytes_text(sum.bytes, bytes, sizeof(bytes));
	snprintf(buf, len,
		 "Estimated totals for all %zu anchors: dirs: %" PRIu64 "; files: %" PRIu64
		 "; bytes: %s ",
		 nr_defined, sum.dirs, sum.files, bytes);
	return true;
}

void fs_anchor_size_line(const struct parm_fsd *fsd, char *buf, size_t len)
{
	struct fs_tree_size t;
	char bytes[48], c[48], dirs[32], files[32];

	fs_tree_size(fsd, &t);
	bytes_text(t.bytes, bytes, sizeof(bytes));
	commas(t.bytes, c, sizeof(c));
	commas(t.dirs, dirs, sizeof(dirs)); /* "files:        1,000" (observed) */
	commas(t.files, files, sizeof(files));
	snprintf(buf, len, "Anchor size: anchor=%s: dirs: %12s; files: %12s; bytes: %10s (%s)",
		 fsd->anchor, dirs, files, bytes, c);
}

static void print_run(const struct fs_run *r, FILE *f)
{
	char tod[16];

	plan_time_of_day(tod);
	if (r->kind == FS_RUN_FORMAT) {
		fprintf(f, "%s Simulating RD=%s\n", tod, r->name);
		return;
	}
	fprintf(f, "%s Simulating RD=%s; elapsed=%llu", tod, r->name,
		(unsigned long long)r->elapsed_s);
	if (r->warmup_s)
		fprintf(f, " warmup=%llu", (unsigned long long)r->warmup_s);
	if (r->rate == PLAN_RATE_FIXED)
		fprintf(f, "; fwdrate=%.0f;", r->rate_shown);
	else
		fprintf(f, "; fwdrate=%s.", r->rate == PLAN_RATE_MAX ? "max" : "curve");
	fprintf(f, " For loops: %s\n", r->for_loops);
}

void fs_thread_notes(FILE *con, const struct fs_plan *p)
{
	bool is_first = true;
	char t[16];

	/* first, VDbench's interval=0 line, once per RD (observed before the anchor lines) */
	for (size_t i = 0; i < p->cfg->fs->nr_rds; i++) {
		const struct parm_frd *rd = &p->cfg->fs->rds[i];

		if (!rd->is_interval_auto)
			continue;
		plan_time_of_day(t);
		fprintf(con,
			"%s 'interval=' not specified. Setting to %lld seconds. ( "
			"'min(elapsed/2,60)' )\n",
			t, (long long)rd->interval_s);
	}

	for (size_t ri = 0; ri < p->nr_runs; ri++) {
		const struct fs_run *r = &p->runs[ri];
		const char *rd = p->cfg->fs->rds[r->rd_idx].name;
		bool is_seen = r->kind != FS_RUN_WORK;
		int32_t want;
		uint32_t used;

		for (size_t k = 0; k < ri; k++) /* an RD's first work run: its loops repeat it */
			is_seen |= p->runs[k].kind == FS_RUN_WORK && p->runs[k].rd_idx == r->rd_idx;
		for (size_t i = 0; !is_seen && i < r->nr_fwds; i++) {
			if (!fs_fwd_threads_split(r, i, &want, &used) || want == (int32_t)used)
				continue;
			plan_time_of_day(t);
			fprintf(con,
				"%s \n%s Note: fwd=%s,threads=%d,...\n%s Note: rd=%s,fwd=%s,... \n"
				"%s Note: Mismatch between threads requested (%d) and used (%u)\n",
				t, t, r->fwds[i].name, want, t, rd, r->fwds[i].name, t, want, used);
			if (!is_first)
				continue;
			is_first = false;
			fprintf(con,
				"%s \n%s Note: Requesting threads across multiple fsds, operations, "
				"slaves or hosts \n%s       may result in fractions of threads. \n"
				"%s       There will be a minimum of one thread for each fsd, "
				"operation, \n%s       slave or host, or integer truncation of the "
				"resulting thread count.\n%s       Contact the author of Vdbench if "
				"there are unexplained differences.\n%s \n%s       Use general "
				"parameter 'fwd_thread_adjust=no' to cause Vdbench to abort instead. "
				"\n%s \n",
				t, t, t, t, t, t, t, t, t);
		}
	}
	fflush(con);
}

int fs_anchor_lines(const struct fs_plan *p, FILE *f)
{
	const struct parm_fs *fs = p->cfg->fs;
	char tod[16], line[4200];
	size_t nr = 0;
	const struct parm_fsd **shown = calloc(fs->nr_fsds ? fs->nr_fsds : 1, sizeof(*shown));

	if (!shown)
		return -ENOMEM;
	for (size_t i = 0; i < fs->nr_fsds; i++) {
		const struct parm_fsd *fsd = NULL;

		/* with the values of the first run that uses it (fordepth= and the like) */
		for (size_t r = 0; !fsd && r < p->nr_runs; r++)
			for (size_t k = 0; k < p->runs[r].nr_fsds; k++)
				if (p->runs[r].fsds[k].name == fs->fsds[i].name)
					fsd = &p->runs[r].fsds[k];
		if (!fsd)
			continue;
		shown[nr++] = fsd;
		fs_anchor_size_line(fsd, line, sizeof(line));
		plan_time_of_day(tod);
		fprintf(f, "%s %s\n", tod, line);
	}
	if (fs_anchor_totals_line(shown, nr, fs->nr_fsds, line, sizeof(line))) {
		plan_time_of_day(tod);
		fprintf(f, "%s %s\n", tod, line);
	}
	free(shown);
	return 0;
}

int fs_plan_print_simulation(const struct fs_plan *p, FILE *f)
{
	uint64_t total_s = 0;
	int ret;

	fs_thread_notes(f, p);
	ret = fs_anchor_lines(p, f);
	if (ret)
		return ret;
	for (size_t i = 0; i < p->nr_runs; i++) {
		print_run(&p->runs[i], f);
		/* a format=(only,limited) run's elapsed= too (VDbench 5.04.07: "total elapsed
		 * time 4 seconds" for elapsed=4, observed) */
		if (p->runs[i].kind == FS_RUN_WORK || (p->runs[i].format & FS_FMT_LIMITED))
			total_s += p->runs[i].elapsed_s + p->runs[i].warmup_s;
	}
	plan_print_total(f, p->nr_runs, total_s);
	return 0;
}
