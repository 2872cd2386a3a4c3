/* Unit tests of the VDbench-compatible observers of src/report/: one synthetic execution
 * (SD_format, then three runs of two RDs over two SDs and two WDs, a warmup, a message and an
 * I/O error, fixed counter banks) drives every observer into a temporary directory; each file
 * is compared with its golden copy in tests/data/report/golden/ after masking the times of
 * day that come from the real clock. IORAMP_UPDATE_GOLDEN=1 rewrites the golden files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/report.h"

enum {
	NR_SDS = 2,
	NR_WDS = 2,
	NR_PAIRS = 3,
	MAX_INTERVALS = 8,
};

static const uint64_t base_tod_ns = 1796025853ull * 1000000000ull; /* 11/30/2026 08:04:13 UTC */
static const uint64_t sec_ns = 1000000000ull;

static const char parm_text[] = "sd=sd1,lun=/tmp/ioramp-none/f1,size=20m,threads=2\n"
				"sd=sd2,lun=/tmp/ioramp-none/f2,size=30m,threads=3\n"
				"wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=70,skew=60\n"
				"wd=wd2,sd=sd2,xfersize=8k,rdpct=30,seekpct=0\n"
				"rd=rd1,wd=*,iorate=200,elapsed=3,interval=1,warmup=2\n"
				"rd=rd2,wd=*,iorate=max,elapsed=2,interval=1,forxfersize=(4k,8k)\n";

static const char *const golden_files[] = {
	"console.txt",
	"summary.html",
	"totals.html",
	"logfile.html",
	"parmfile.html",
	"flatfile.html",
	"histogram.html",
	"sd1.histogram.html",
	"sd2.histogram.html",
	"wd1.histogram.html",
	"wd2.histogram.html",
	"sd1.html",
	"sd2.html",
	"wd1.html",
	"wd2.html",
	"skew.html",
	"errorlog.html",
	"status.html",
	"parmscan.html",
	"localhost.html",
	"localhost-0.html",
	"localhost-0.stdout.html",
	"localhost.var_adm_msgs.html",
};

/* The (WD, SD) pairs of the config and their I/O per interval. */
static const struct {
	int wd, sd;
	uint32_t reads, writes;
} pairs[NR_PAIRS] = {
	{ 0, 0, 21, 9 },
	{ 0, 1, 20, 8 },
	{ 1, 1, 16, 32 },
};

struct fixture {
	char repo[4096];
	char tmp[256];
	struct parm_config *cfg;
	struct parm_source *keep;
	struct plan *plan;
	struct stats_vdb_buckets buckets;
	struct rep_exec x;
	struct rep_set set;
	FILE *console;
	/* Banks of the current interval and the running averages, on the heap (80 KiB each). */
	struct stats_bank *pair_b, *sd_b, *wd_b, *total_b;
	struct stats_bank *avg_sd, *avg_wd, *avg_total;
};

static const char *const sd_names[NR_SDS] = { "sd1", "sd2" };
static const char *const sd_luns[NR_SDS] = { "/tmp/ioramp-none/f1", "/tmp/ioramp-none/f2" };
static const uint64_t sd_sizes[NR_SDS] = { 20u << 20, 30u << 20 };
static const uint32_t sd_threads[NR_SDS] = { 2, 3 };
static const char *const wd_names[NR_WDS] = { "wd1", "wd2" };
static char *const exec_argv[] = { "ioramp", "-f", "parm.vdb", "-o", "out", NULL };

/* A fixed spread of service times: mostly 15-195 us, every 17th 1.5 ms longer, every 101st
 * 25 ms longer. */
static uint64_t svc_ns(uint32_t i, uint32_t salt)
{
	uint64_t v = 15000 + (uint64_t)((i * 7919u + salt * 104729u) % 181u) * 1000;

	if (i % 17 == 0)
		v += 1500000;
	if ((i + salt) % 101 == 0)
		v += 25000000;
	return v;
}

static void bank_fill(struct stats_bank *b, uint64_t t0, uint32_t reads, uint32_t writes,
		      uint64_t size, uint32_t salt)
{
	stats_bank_start(b, 0, t0);
	stats_bank_inflight_add(b, 2, t0);
	for (uint32_t i = 0; i < reads; i++) {
		uint64_t ns = svc_ns(i, salt);

		stats_bank_record(b, STATS_OP_READ, size, ns, ns + 2000);
	}
	for (uint32_t i = 0; i < writes; i++) {
		uint64_t ns = svc_ns(i + 1000, salt + 7);

		stats_bank_record(b, STATS_OP_WRITE, size, ns, ns + 3000);
	}
	stats_bank_inflight_add(b, -2, t0 + sec_ns / 4);
	stats_bank_finish(b, t0 + sec_ns);
}

static void run_init(struct fixture *fx, struct rep_run *r, size_t idx, uint64_t start_ns)
{
	const struct plan_run *run = &fx->plan->runs[idx];

	memset(r, 0, sizeof(*r));
	r->run = run;
	r->name = run->name;
	r->run_idx = idx;
	plan_rate_text(run, 0, r->rate_text, sizeof(r->rate_text));
	r->req_iops = run->rate_iops;
	r->for_loops = run->for_loops;
	r->elapsed_s = run->elapsed_s;
	r->interval_s = run->interval_s;
	r->warmup_s = run->warmup_s;
	r->nr_warmup_intervals = run->warmup_s ? (uint32_t)(run->warmup_s / run->interval_s) : 1;
	r->nr_sds = NR_SDS;
	r->sd_names = sd_names;
	r->sd_luns = sd_luns;
	r->sd_size_bytes = sd_sizes;
	r->sd_threads = sd_threads;
	r->nr_wds = NR_WDS;
	r->wd_names = wd_names;
	r->wd_skew_pct = run->skews;
	r->params.has_xfersize = run->ovr.has_xfersize;
	r->params.xfersize_bytes = run->ovr.xfersize_bytes;
	r->params.has_rhpct = r->params.has_whpct = true;
	r->params.compratio = 1;
	r->params.lunsize_bytes = sd_sizes[0] + sd_sizes[1];
	r->start_tod_ns = start_ns;
}

/* Fills the banks of interval k (1-based) of a run whose transfer size is xfer (0: the WDs'). */
static void interval_banks(struct fixture *fx, uint32_t k, uint64_t t0, uint64_t xfer)
{
	memset(fx->sd_b, 0, NR_SDS * sizeof(*fx->sd_b));
	memset(fx->wd_b, 0, NR_WDS * sizeof(*fx->wd_b));
	memset(fx->total_b, 0, sizeof(*fx->total_b));
	for (int p = 0; p < NR_PAIRS; p++) {
		uint64_t size = xfer ? xfer : pairs[p].wd ? 8192 : 4096;

		bank_fill(&fx->pair_b[p], t0, pairs[p].reads + k, pairs[p].writes + 2 * k, size,
			  k * 3 + (uint32_t)p);
		stats_bank_merge(&fx->sd_b[pairs[p].sd], &fx->pair_b[p]);
		stats_bank_merge(&fx->wd_b[pairs[p].wd], &fx->pair_b[p]);
		stats_bank_merge(fx->total_b, &fx->pair_b[p]);
	}
}

static void avg_add(struct fixture *fx)
{
	for (int i = 0; i < NR_SDS; i++)
		stats_bank_merge(&fx->avg_sd[i], &fx->sd_b[i]);
	for (int i = 0; i < NR_WDS; i++)
		stats_bank_merge(&fx->avg_wd[i], &fx->wd_b[i]);
	stats_bank_merge(fx->avg_total, fx->total_b);
}

static void avg_reset(struct fixture *fx)
{
	memset(fx->avg_sd, 0, NR_SDS * sizeof(*fx->avg_sd));
	memset(fx->avg_wd, 0, NR_WDS * sizeof(*fx->avg_wd));
	memset(fx->avg_total, 0, sizeof(*fx->avg_total));
}

static struct stats_cpu_pct cpu_of(uint32_t k, double bias)
{
	struct stats_cpu_pct c = {
		.user_pct = 40 + 3.25 * k + bias,
		.sys_pct = 15.5 + k,
		.wait_pct = 1.5,
	};

	c.used_pct = c.user_pct + c.sys_pct;
	c.idle_pct = 100 - c.used_pct - c.wait_pct;
	return c;
}

/* Runs plan run idx with nr intervals; returns its end time. */
static uint64_t drive_run(struct fixture *fx, size_t idx, uint64_t start_ns, double cpu_bias)
{
	const struct plan_run *run = &fx->plan->runs[idx];
	uint32_t nr = (uint32_t)((run->warmup_s + run->elapsed_s) / run->interval_s), n_avg = 0;
	struct rep_sample s = { 0 }, avg = { 0 };
	struct stats_cpu_pct cpu_sum = { 0 };
	struct rep_run_end e = { 0 };
	struct rep_run r;

	run_init(fx, &r, idx, start_ns);
	avg_reset(fx);
	assert_int_equal(rep_set_run_start(&fx->set, &r), 0);
	for (uint32_t k = 1; k <= nr; k++) {
		uint64_t t0 = start_ns + (k - 1) * sec_ns;

		interval_banks(fx, k, t0, run->ovr.has_xfersize ? run->ovr.xfersize_bytes : 0);
		snprintf(s.label, sizeof(s.label), "%u", k);
		s.nr = k;
		s.is_warmup = k <= r.nr_warmup_intervals;
		s.tod_ns = t0 + sec_ns + 12000000;
		s.elapsed_ns = sec_ns;
		s.nr_intervals = 1;
		s.total = fx->total_b;
		s.sd = fx->sd_b;
		s.wd = fx->wd_b;
		s.has_cpu = true;
		s.cpu = cpu_of(k, cpu_bias);
		assert_int_equal(rep_set_interval(&fx->set, &r, &s), 0);
		if (s.is_warmup)
			continue;
		avg_add(fx);
		n_avg++;
		cpu_sum.user_pct += s.cpu.user_pct, cpu_sum.sys_pct += s.cpu.sys_pct;
		cpu_sum.used_pct += s.cpu.used_pct, cpu_sum.wait_pct += s.cpu.wait_pct;
		cpu_sum.idle_pct += s.cpu.idle_pct;
	}
	snprintf(avg.label, sizeof(avg.label), "avg_%u-%u", r.nr_warmup_intervals + 1, nr);
	avg.is_avg = true;
	avg.tod_ns = s.tod_ns + 4000000;
	avg.elapsed_ns = n_avg * sec_ns;
	avg.nr_intervals = n_avg;
	avg.total = fx->avg_total;
	avg.sd = fx->avg_sd;
	avg.wd = fx->avg_wd;
	avg.has_cpu = true;
	avg.cpu.user_pct = cpu_sum.user_pct / n_avg, avg.cpu.sys_pct = cpu_sum.sys_pct / n_avg;
	avg.cpu.used_pct = cpu_sum.used_pct / n_avg, avg.cpu.wait_pct = cpu_sum.wait_pct / n_avg;
	avg.cpu.idle_pct = cpu_sum.idle_pct / n_avg;
	e.avg = &avg;
	e.observed_iops =
		(double)(fx->avg_total->op[0].nr_ios + fx->avg_total->op[1].nr_ios) / n_avg;
	assert_int_equal(rep_set_run_end(&fx->set, &r, &e), 0);
	return start_ns + nr * sec_ns;
}

/* The SD_format run: one interval of sequential 128k writes, then VDbench's avg_2-1 over no
 * interval (zero banks, NaN CPU). */
static uint64_t drive_format(struct fixture *fx, uint64_t start_ns)
{
	static const char *const names[NR_SDS] = { "sd1", "sd2" };
	struct rep_run r = { .name = "SD_format", .run_idx = (size_t)-1 };
	struct rep_sample s = { .label = "1", .nr = 1, .is_warmup = true, .nr_intervals = 1 };
	struct rep_sample avg = { .label = "avg_2-1", .is_avg = true };
	struct rep_run_end e = { .avg = &avg };

	snprintf(r.rate_text, sizeof(r.rate_text), "Uncontrolled MAX");
	r.for_loops = "threads=2 iorate=max";
	r.interval_s = 1;
	r.nr_warmup_intervals = 1;
	r.nr_sds = NR_SDS;
	r.sd_names = names;
	r.start_tod_ns = start_ns;
	r.params.has_xfersize = r.params.has_threads = r.params.has_rdpct = true;
	r.params.has_rhpct = r.params.has_whpct = true;
	r.params.xfersize_bytes = 131072, r.params.threads = 2;
	r.params.compratio = 1;
	r.params.lunsize_bytes = sd_sizes[0] + sd_sizes[1];
	assert_int_equal(rep_set_run_start(&fx->set, &r), 0);
	memset(fx->sd_b, 0, NR_SDS * sizeof(*fx->sd_b));
	memset(fx->total_b, 0, sizeof(*fx->total_b));
	for (int i = 0; i < NR_SDS; i++) {
		stats_bank_start(&fx->sd_b[i], 0, start_ns);
		for (uint32_t k = 0; k < 160 + 80 * (uint32_t)i; k++)
			stats_bank_record(&fx->sd_b[i], STATS_OP_WRITE, 131072, 90000 + k * 100,
					  90000 + k * 100);
		stats_bank_finish(&fx->sd_b[i], start_ns + sec_ns);
		stats_bank_merge(fx->total_b, &fx->sd_b[i]);
	}
	s.tod_ns = start_ns + sec_ns + 86000000;
	s.elapsed_ns = sec_ns;
	s.total = fx->total_b, s.sd = fx->sd_b;
	s.has_cpu = true;
	s.cpu = cpu_of(1, 0);
	assert_int_equal(rep_set_interval(&fx->set, &r, &s), 0);
	avg_reset(fx);
	avg.tod_ns = s.tod_ns + 12000000;
	avg.total = fx->avg_total, avg.sd = fx->avg_sd;
	avg.has_cpu = true;
	avg.cpu.user_pct = avg.cpu.sys_pct = avg.cpu.used_pct = NAN;
	avg.cpu.wait_pct = avg.cpu.idle_pct = NAN;
	assert_int_equal(rep_set_run_end(&fx->set, &r, &e), 0);
	return start_ns + 2 * sec_ns;
}

static void exec_init(struct fixture *fx)
{
	struct rep_exec *x = &fx->x;

	stats_vdb_default(&fx->buckets);
	x->cfg = fx->cfg;
	x->plan = fx->plan;
	x->outdir = "out";
	x->console = fx->console;
	x->argc = 5;
	x->argv = exec_argv;
	x->start_tod_ns = base_tod_ns;
	x->seed = 1;
	x->engine = "null";
	x->mb_bytes = 1048576;
	x->vdb_buckets = &fx->buckets;
	x->sd_format_loops = "threads=2 iorate=max";
}

/* The whole execution, into fx->tmp. */
static void execute(struct fixture *fx)
{
	struct rep_io_error err = {
		.sd = "sd2",
		.lun = "/tmp/ioramp-none/f2",
		.op = STATS_OP_WRITE,
		.lba_bytes = 45056,
		.size_bytes = 8192,
		.err = 28, /* ENOSPC */
		.tod_ns = base_tod_ns + 5 * sec_ns,
	};
	uint64_t t = base_tod_ns + 2 * sec_ns;

	assert_int_equal(mkdir("out", 0777), 0);
	fx->console = fopen("console.txt", "w");
	assert_non_null(fx->console);
	exec_init(fx);
	assert_int_equal(rep_set_add(&fx->set, &rep_console), 0);
	assert_int_equal(rep_set_add_vdbench(&fx->set), 0);
	assert_int_equal(rep_set_open(&fx->set, &fx->x), 0);
	t = drive_format(fx, t) + sec_ns;
	rep_set_messagef(&fx->set, "Vdbench will attempt to expand a disk file");
	rep_set_io_error(&fx->set, &err);
	t = drive_run(fx, 0, t, 15) + 2 * sec_ns;
	t = drive_run(fx, 1, t, 0) + sec_ns;
	drive_run(fx, 2, t, 0);
	assert_int_equal(rep_set_close(&fx->set, 0), 0);
	fclose(fx->console);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct parm_input in = { 0 };
	struct parm_err err;

	if (!fx || !getcwd(fx->repo, sizeof(fx->repo)))
		return -1;
	setenv("TZ", "UTC", 1);
	tzset();
	if (parm_config_read_text("parm.vdb", parm_text, strlen(parm_text), &in, &fx->cfg,
				  &fx->keep, &err) ||
	    plan_build(fx->cfg, &fx->plan, &err) || fx->plan->nr_runs != 3)
		return -1;
	fx->pair_b = calloc(NR_PAIRS, sizeof(*fx->pair_b));
	fx->sd_b = calloc(NR_SDS, sizeof(*fx->sd_b));
	fx->wd_b = calloc(NR_WDS, sizeof(*fx->wd_b));
	fx->total_b = calloc(1, sizeof(*fx->total_b));
	fx->avg_sd = calloc(NR_SDS, sizeof(*fx->avg_sd));
	fx->avg_wd = calloc(NR_WDS, sizeof(*fx->avg_wd));
	fx->avg_total = calloc(1, sizeof(*fx->avg_total));
	snprintf(fx->tmp, sizeof(fx->tmp), "/tmp/ioramp-report-XXXXXX");
	if (!fx->pair_b || !fx->sd_b || !fx->wd_b || !fx->total_b || !fx->avg_sd || !fx->avg_wd ||
	    !fx->avg_total || !mkdtemp(fx->tmp) || chdir(fx->tmp))
		return -1;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[512];

	if (chdir(fx->repo))
		return -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->tmp);
	if (system(cmd))
		return -1;
	plan_free(fx->plan);
	parm_config_free(fx->cfg);
	parm_source_free(fx->keep);
	free(fx->pair_b), free(fx->sd_b), free(fx->wd_b), free(fx->total_b);
	free(fx->avg_sd), free(fx->avg_wd), free(fx->avg_total);
	free(fx);
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	*len = 0;
	for (;;) {
		if (*len + 4096 + 1 > cap) {
			char *bigger = realloc(buf, cap = 2 * cap + 8192);

			assert_non_null(bigger);
			buf = bigger;
		}
		size_t n = fread(buf + *len, 1, 4096, f);

		*len += n;
		if (n < 4096)
			break;
	}
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

static bool digits_at(const char *p, const char *shape)
{
	for (; *shape; p++, shape++)
		if (*shape == 'd' ? !isdigit((unsigned char)*p) : *p != *shape)
			return false;
	return true;
}

/* The slaves' lines name this process and its start: "Starting slave: PROG SlaveJvm ... -n
 * localhost-10-YYMMDD-HH.MM.SS.mmm", "(pid PID) connected to master PID". */
static void mask_slave(char *p)
{
	static const char start[] = "Starting slave: ", sep[] = " SlaveJvm";
	char *end;

	if (!strncmp(p, start, strlen(start)) && (end = strstr(p, sep))) {
		p += strlen(start);
		memcpy(p, "PROG", 4);
		memmove(p + 4, end, strlen(end) + 1);
	}
	if (digits_at(p, "dddddd-dd.dd.dd.ddd"))
		memcpy(p, "YYMMDD-HH.MM.SS.mmm", 19);
	if (!strncmp(p, "(pid ", 5) || !strncmp(p, "master ", 7)) { /* "(pid PID)": any width */
		char *num = strchr(p, ' ') + 1;
		size_t n = strspn(num, " 0123456789");

		if (n) {
			num[0] = 'P';
			memmove(num + 1, num + n, strlen(num + n) + 1);
		}
	}
}

/* Replaces, in place, the times of day "dd:dd:dd.ddd" by "HH:MM:SS.mmm" (some come from the
 * real clock), with stamps the status stamps "dd/dd/dddd-dd:dd:dd", the temporary directory by
 * "TMP" and what the slaves' lines say of this process, so files written at different times
 * compare equal. */
static void mask(char *text, const char *tmp, bool with_stamps)
{
	size_t tlen = strlen(tmp);

	for (char *p = text; *p; p++) {
		mask_slave(p);
		if (digits_at(p, "dd:dd:dd.ddd"))
			memcpy(p, "HH:MM:SS.mmm", 12);
		if (with_stamps && digits_at(p, "dd/dd/dddd-dd:dd:dd"))
			memcpy(p, "MM/DD/YYYY-HH:MM:SS", 19);
		if (!strncmp(p, tmp, tlen)) {
			memcpy(p, "TMP", 3);
			memmove(p + 3, p + tlen, strlen(p + tlen) + 1);
		}
	}
}

/* Compares file got_path with tests/data/report/golden/<golden>.expected. */
static void compare_file(struct fixture *fx, const char *got_path, const char *golden)
{
	const char *name = strrchr(got_path, '/') ? strrchr(got_path, '/') + 1 : got_path;
	char want_path[8192];
	char *got, *want;
	size_t got_len, want_len;

	snprintf(want_path, sizeof(want_path), "%s/tests/data/report/golden/%s.expected", fx->repo,
		 golden);
	got = slurp(got_path, &got_len);
	assert_non_null(got);
	mask(got, fx->tmp, !strcmp(name, "status.html"));
	if (getenv("IORAMP_UPDATE_GOLDEN")) {
		FILE *f = fopen(want_path, "w");

		assert_non_null(f);
		fputs(got, f);
		fclose(f);
	}
	want = slurp(want_path, &want_len);
	if (!want)
		fail_msg("%s: golden file missing", want_path);
	if (strcmp(got, want)) {
		size_t i = 0, line = 1;

		while (got[i] && got[i] == want[i])
			line += got[i++] == '\n';
		fail_msg("%s differs from %s at line %zu", name, want_path, line);
	}
	free(got);
	free(want);
}

static void test_exec_files_match_golden(void **state)
{
	struct fixture *fx = *state;
	char path[512];

	execute(fx);
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(golden_files); i++) {
		snprintf(path, sizeof(path), "%s%s",
			 strcmp(golden_files[i], "console.txt") ? "out/" : "", golden_files[i]);
		compare_file(fx, path, golden_files[i]);
	}
}

/* histogram=(100u,1m,10m): four buckets, the last up to max (reference §10.3). */
static void test_histogram_with_user_buckets(void **state)
{
	static const uint64_t bounds_ns[] = { 100000, 1000000, 10000000 };
	struct fixture *fx = *state;

	exec_init(fx); /* VDbench's defaults, replaced below */
	assert_int_equal(stats_vdb_init(&fx->buckets, bounds_ns, 3), 0);
	fx->x.outdir = "custom";
	fx->x.sd_format_loops = NULL;
	assert_int_equal(mkdir("custom", 0777), 0);
	assert_int_equal(rep_set_add(&fx->set, &rep_histogram), 0);
	assert_int_equal(rep_set_open(&fx->set, &fx->x), 0);
	drive_run(fx, 0, base_tod_ns, 0);
	assert_int_equal(rep_set_close(&fx->set, 0), 0);
	compare_file(fx, "custom/histogram.html", "custom_histogram.html");
	compare_file(fx, "custom/wd2.histogram.html", "custom_wd2.histogram.html");
}

/* An interrupted execution leaves every file complete up to its last event. */
static void test_exec_files_are_flushed_before_close(void **state)
{
	struct fixture *fx = *state;
	size_t len;
	char *text;

	rep_set_add(&fx->set, &rep_summary);
	rep_set_add(&fx->set, &rep_flatfile);
	exec_init(fx);
	fx->x.outdir = "out2";
	fx->x.console = NULL;
	assert_int_equal(mkdir("out2", 0777), 0);
	assert_int_equal(rep_set_open(&fx->set, &fx->x), 0);
	drive_run(fx, 0, base_tod_ns, 0);
	text = slurp("out2/flatfile.html", &len);
	assert_non_null(text);
	assert_non_null(strstr(text, "rd1  avg_3-5 200 "));
	free(text);
	text = slurp("out2/summary.html", &len);
	assert_non_null(strstr(text, "     avg_3-5"));
	free(text);
	assert_int_equal(rep_set_close(&fx->set, 130), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exec_files_match_golden, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_files_are_flushed_before_close, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_histogram_with_user_buckets, setup, teardown),
	};

	return cmocka_run_group_tests_name("report_vdb", tests, NULL, NULL);
}
