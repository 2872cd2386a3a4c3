/* The workload library: every parameter file in workloads/ read as ioramp reads it, then each
 * workload's generator driven with a fixed seed; the read %, transfer-size mix, random %,
 * replica share, skews and threads must match the table below, which workloads/README.md
 * states too. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs the headers above first */
#include <cmocka.h>

#include "ioramp/compiler.h"
#include "ioramp/gen.h"
#include "ioramp/parm.h"

enum {
	NR_DRAWS = 1000000,	   /* per profile row, split over its workloads by skew */
	MIN_DRAWS_PER_WD = 100000, /* so that a 1% workload is still measured closely */
	MAX_WDS = 6,
	MAX_SIZES = 5,
	NR_DRIVES = 8,
	SEED = 20240601,
};

/* A 1 TiB drive: 10^6 sequential 128K I/Os fit in its 25% without wrapping. */
#define DRIVE_BYTES   (UINT64_C(1) << 40)
#define TOLERANCE_PCT 1.0
#define NOT_STATED    (-1.0)
#define README	      "workloads/README.md"

struct wl_wd {
	const char *name;
	double skew_pct;
};

struct wl_size {
	uint64_t size_bytes;
	double pct;
};

/* One row of the README's profile table. */
struct wl_row {
	const char *label; /* the row's first cell */
	const char *file;
	const char *rd; /* the run whose threads the row states */
	struct wl_wd wds[MAX_WDS];
	double read_pct;
	double random_pct;
	double replica_read_pct; /* reads in the first 1% of the drive, or NOT_STATED */
	uint32_t threads;
	struct wl_size sizes[MAX_SIZES];
};

/* A table: one profile per row, as in the README. */
/* clang-format off */
#define K(n) ((uint64_t)(n) * 1024)

#define VDI_FC(nm, rdp, th, s4, s8, s32, s64)                                                  \
	{ "vdi-fc-" nm ".vdb", "vdi-fc-" nm ".vdb", "vdi-fc-" nm, { { "reads", rdp },          \
	  { "writes", 100 - (rdp) } }, rdp, 80, 4, th,                                         \
	  { { K(4), s4 }, { K(8), s8 }, { K(32), s32 }, { K(64), s64 } } }
#define VDI_LC(nm, rdp, rep, th, s4, s8, s32, s64)                                             \
	{ "vdi-lc-" nm ".vdb", "vdi-lc-" nm ".vdb", "vdi-lc-" nm,                              \
	  { { "replica", (rdp) * (rep) / 100.0 }, { "deltard", (rdp) * (100 - (rep)) / 100.0 }, \
	    { "delta1", (100 - (rdp)) / 4.0 }, { "delta2", (100 - (rdp)) / 4.0 },              \
	    { "delta3", (100 - (rdp)) / 4.0 }, { "delta4", (100 - (rdp)) / 4.0 } },            \
	  rdp, 80, rep, th, { { K(4), s4 }, { K(8), s8 }, { K(32), s32 }, { K(64), s64 } } }

static const struct wl_row rows[] = {
	{ "corner-4k-randread.vdb", "corner-4k-randread.vdb", "4k-randread", { { "randread", 100 } },
	  100, 100, NOT_STATED, 128, { { K(4), 100 } } },
	{ "corner-4k-randwrite.vdb", "corner-4k-randwrite.vdb", "4k-randwrite",
	  { { "randwrite", 100 } }, 0, 100, NOT_STATED, 64, { { K(4), 100 } } },
	{ "corner-64k-seqread.vdb", "corner-64k-seqread.vdb", "64k-seqread", { { "seqread", 100 } },
	  100, 0, NOT_STATED, 16, { { K(64), 100 } } },
	{ "corner-64k-seqwrite.vdb", "corner-64k-seqwrite.vdb", "64k-seqwrite",
	  { { "seqwrite", 100 } }, 0, 0, NOT_STATED, 8, { { K(64), 100 } } },
	{ "sql.vdb", "sql.vdb", "sql", { { "sql", 100 } }, 97, 100, NOT_STATED, 32, { { K(8), 100 } } },
	{ "sql-90-10.vdb", "sql-90-10.vdb", "sql-90-10", { { "sql", 100 } }, 90, 100, NOT_STATED, 32,
	  { { K(8), 100 } } },
	{ "sql-80-20.vdb", "sql-80-20.vdb", "sql-80-20", { { "sql", 100 } }, 80, 100, NOT_STATED, 32,
	  { { K(8), 100 } } },
	{ "oracle.vdb", "oracle.vdb", "oracle", { { "data", 99 }, { "redo", 1 } }, 79.21, 99.001,
	  NOT_STATED, 32, { { K(8), 99 }, { K(64), 1 } } },
	{ "oracle-90-10.vdb", "oracle-90-10.vdb", "oracle-90-10", { { "oracle", 100 } }, 90, 100,
	  NOT_STATED, 22, { { K(8), 100 } } },
	{ "oracle-80-20.vdb", "oracle-80-20.vdb", "oracle-80-20", { { "oracle", 100 } }, 80, 100,
	  NOT_STATED, 22, { { K(8), 100 } } },
	VDI_FC("boot", 88, 32, 53, 20.6, 17.6, 8.8),
	VDI_FC("initial-login", 50, 27, 42.5, 17.5, 17.5, 22.5),
	VDI_FC("monday-login", 30, 13, 55.5, 20, 21.5, 3),
	VDI_LC("boot", 88, 95, 32, 53, 20.6, 17.6, 8.8),
	VDI_LC("initial-login", 50, 90, 27, 42.5, 17.5, 17.5, 22.5),
	VDI_LC("monday-login", 30, 75, 13, 55.5, 20, 21.5, 3),
	{ "precondition.vdb fill", "precondition.vdb", "fill1", { { "fill", 100 } }, 0, 0,
	  NOT_STATED, 16, { { K(128), 100 } } },
	{ "precondition.vdb steady", "precondition.vdb", "steady", { { "steady", 100 } }, 0, 100,
	  NOT_STATED, 64, { { K(4), 100 } } },
	{ "qd-sweep-4k-randread.vdb", "qd-sweep-4k-randread.vdb", "qd-sweep-4k-randread",
	  { { "randread", 100 } }, 100, 100, NOT_STATED, 256, { { K(4), 100 } } },
	{ "qd-sweep-128k-seqwrite.vdb", "qd-sweep-128k-seqwrite.vdb", "qd-sweep-128k-seqwrite",
	  { { "seqwrite", 100 } }, 0, 0, NOT_STATED, 256, { { K(128), 100 } } },
	{ "qd-sweep-128k-seqread.vdb", "qd-sweep-128k-seqread.vdb", "qd-sweep-128k-seqread",
	  { { "seqread", 100 } }, 100, 0, NOT_STATED, 256, { { K(128), 100 } } },
	{ "qd-sweep-64k-randread.vdb", "qd-sweep-64k-randread.vdb", "qd-sweep-64k-randread",
	  { { "randread", 100 } }, 100, 100, NOT_STATED, 256, { { K(64), 100 } } },
	{ "qd-sweep-16k-randread.vdb", "qd-sweep-16k-randread.vdb", "qd-sweep-16k-randread",
	  { { "randread", 100 } }, 100, 100, NOT_STATED, 256, { { K(16), 100 } } },
	/* The pressure tests: one row per WD, each at its own rate (no skew). */
	{ "write-pressure-8k.vdb reads", "write-pressure-8k.vdb", "write-pressure-8k",
	  { { "reads", 100 } }, 100, 100, NOT_STATED, 64, { { K(8), 100 } } },
	{ "write-pressure-8k.vdb writes", "write-pressure-8k.vdb", "write-pressure-8k",
	  { { "writes", 100 } }, 0, 100, NOT_STATED, 64, { { K(8), 100 } } },
	{ "write-pressure-16k.vdb reads", "write-pressure-16k.vdb", "write-pressure-16k",
	  { { "reads", 100 } }, 100, 100, NOT_STATED, 64, { { K(16), 100 } } },
	{ "write-pressure-16k.vdb writes", "write-pressure-16k.vdb", "write-pressure-16k",
	  { { "writes", 100 } }, 0, 100, NOT_STATED, 64, { { K(16), 100 } } },
	{ "noisy-neighbor.vdb reads", "noisy-neighbor.vdb", "noisy-neighbor",
	  { { "reads", 100 } }, 100, 100, NOT_STATED, 32, { { K(4), 100 } } },
	{ "noisy-neighbor.vdb writes", "noisy-neighbor.vdb", "noisy-neighbor",
	  { { "writes", 100 } }, 0, 100, NOT_STATED, 32, { { K(8), 100 } } },
};
/* clang-format on */

/* What one workload's draws showed, in % of its I/Os (replica: % of its reads). */
struct wl_stats {
	double read_pct;
	double random_pct;
	double replica_read_pct;
	uint64_t size_bytes[GEN_XFER_MAX_SIZES];
	double size_pct[GEN_XFER_MAX_SIZES];
	size_t nr_sizes;
};

static struct parm_config *read_file(const char *file, const char *lun)
{
	char path[256];
	const char *files[] = { path };
	struct parm_var var = { "lun", lun, false };
	struct parm_input in = { .files = files, .nr_files = 1, .vars = &var, .nr_vars = 1 };
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct parm_err err;
	int ret;

	snprintf(path, sizeof(path), "workloads/%s", file);
	ret = parm_config_read(&in, &cfg, &keep, &err);
	if (ret)
		print_error("%s:%u:%u: %s\n", path, err.loc.line, err.loc.col, err.msg);
	parm_source_free(keep);
	assert_int_equal(ret, 0);
	return cfg;
}

static void xfer_from_parm(const struct parm_xfer *x, struct gen_xfer_cfg *out)
{
	memset(out, 0, sizeof(*out));
	assert_true(x->kind == PARM_XFER_FIXED || x->kind == PARM_XFER_DIST);
	assert_true(x->nr <= GEN_XFER_MAX_SIZES);
	out->kind = x->kind == PARM_XFER_FIXED ? GEN_XFER_FIXED : GEN_XFER_DIST;
	out->nr_sizes = (uint32_t)x->nr;
	for (size_t i = 0; i < x->nr; i++) {
		out->size_bytes[i] = x->sizes_bytes[i];
		out->pct[i] = x->kind == PARM_XFER_FIXED ? 100 : x->pcts[i];
	}
}

static enum gen_seek seek_from_parm(enum parm_seek s)
{
	switch (s) {
	case PARM_SEEK_SEQNZ:
		return GEN_SEEK_SEQNZ;
	case PARM_SEEK_EOF:
		return GEN_SEEK_EOF;
	case PARM_SEEK_POISSON:
		return GEN_SEEK_POISSON;
	default:
		return GEN_SEEK_PCT;
	}
}

/* A workload on one drive the way the engine builds it: the WD's range, else the SD's. */
static void wg_cfg(const struct parm_wd *wd, const struct parm_sd *sd, struct gen_wg_cfg *g)
{
	const struct parm_range *rg =
		parm_kwset_has(&wd->set, PARM_KW_RANGE) ? &wd->range : &sd->range;

	memset(g, 0, sizeof(*g));
	g->rdpct = wd->rdpct;
	xfer_from_parm(&wd->xfer, &g->xfer);
	g->seek = seek_from_parm(wd->seek);
	g->seekpct = wd->seekpct;
	g->poisson_lambda = wd->seekpct > 0 ? wd->seekpct : 1;
	g->sd_size_bytes = DRIVE_BYTES;
	assert_int_equal(gen_range_resolve(rg->lo, rg->hi, DRIVE_BYTES,
					   gen_xfer_max_bytes(&g->xfer), &g->range),
			 0);
	g->align_bytes = sd->align_bytes;
	g->hitarea_bytes = sd->hitarea_bytes;
	g->is_hotband = parm_kwset_has(&wd->set, PARM_KW_HOTBAND);
	g->is_raw_device = true;
}

static size_t size_slot(struct wl_stats *st, uint64_t size_bytes)
{
	size_t i;

	for (i = 0; i < st->nr_sizes; i++)
		if (st->size_bytes[i] == size_bytes)
			return i;
	assert_true(i < GEN_XFER_MAX_SIZES);
	st->size_bytes[st->nr_sizes++] = size_bytes;
	return i;
}

/* Draws nr I/Os; random = not starting where the previous I/O of the generator ended. */
static void wd_measure(const struct gen_wg_cfg *cfg, uint64_t stream, uint32_t nr,
		       struct wl_stats *st)
{
	uint64_t replica_end = DRIVE_BYTES / 100, prev_end = 0;
	uint32_t n = 0, reads = 0, randoms = 0, replica_reads = 0;
	struct gen_wg g;
	struct gen_io io;

	memset(st, 0, sizeof(*st));
	assert_int_equal(gen_wg_init(&g, cfg, SEED, stream), 0);
	for (; n < nr && gen_wg_next(&g, &io) == 0; n++) {
		reads += !io.is_write;
		replica_reads += !io.is_write && io.offset_bytes < replica_end;
		randoms += n > 0 && io.offset_bytes != prev_end;
		prev_end = io.offset_bytes + io.size_bytes;
		st->size_pct[size_slot(st, io.size_bytes)] += 1;
	}
	assert_int_equal(n, nr);
	st->read_pct = 100.0 * reads / n;
	st->random_pct = 100.0 * randoms / (n - 1);
	st->replica_read_pct = reads ? 100.0 * replica_reads / reads : 0;
	for (size_t i = 0; i < st->nr_sizes; i++)
		st->size_pct[i] = 100.0 * st->size_pct[i] / n;
}

static double stats_size_pct(const struct wl_stats *st, uint64_t size_bytes)
{
	for (size_t i = 0; i < st->nr_sizes; i++)
		if (st->size_bytes[i] == size_bytes)
			return st->size_pct[i];
	return 0;
}

static size_t row_nr_wds(const struct wl_row *row)
{
	size_t n = 0;

	while (n < MAX_WDS && row->wds[n].name)
		n++;
	return n;
}

static size_t row_nr_sizes(const struct wl_row *row)
{
	size_t n = 0;

	while (n < MAX_SIZES && row->sizes[n].size_bytes)
		n++;
	return n;
}

static const struct parm_rd *find_rd(const struct parm_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nr_rds; i++)
		if (!strcmp(cfg->rds[i].name, name))
			return &cfg->rds[i];
	fail_msg("no rd=%s", name);
	return NULL;
}

/* The threads the row's run uses: its threads= loop (a QD sweep: its deepest), else the
 * SDs'. */
static uint32_t rd_threads(const struct parm_config *cfg, const struct parm_rd *rd)
{
	for (size_t i = 0; i < rd->nr_loops; i++)
		if (rd->loops[i].kw == PARM_KW_FORTHREADS) {
			double most = 0;

			for (size_t v = 0; v < rd->loops[i].nr; v++)
				most = fmax(most, rd->loops[i].vals[v].value);
			return (uint32_t)most;
		}
	return cfg->sds[0].threads;
}

/* The drive layout every file shares: sd0..sd7, the first 25% of each, O_DIRECT, the row's
 * threads on every drive (or on the run). */
static void check_drives(const struct parm_config *cfg, const struct wl_row *row)
{
	const struct parm_rd *rd = find_rd(cfg, row->rd);

	/* the noisy neighbour's six namespaces, else the library's eight drives */
	assert_int_equal(cfg->nr_sds, strcmp(row->file, "noisy-neighbor.vdb") ? NR_DRIVES : 6);
	for (size_t i = 0; i < cfg->nr_sds; i++) {
		char name[32], lun[48];

		snprintf(name, sizeof(name), "sd%zu", i);
		snprintf(lun, sizeof(lun), "/tmp/wl/drive%zu", i);
		assert_string_equal(cfg->sds[i].name, name);
		assert_string_equal(cfg->sds[i].lun, lun);
		assert_true(cfg->sds[i].range.lo == 0 && cfg->sds[i].range.hi == 25);
		assert_true(cfg->sds[i].openflags.flags & O_DIRECT);
		assert_int_equal(cfg->sds[i].threads, cfg->sds[0].threads);
	}
	assert_int_equal(rd_threads(cfg, rd), row->threads);
}

/* Every profile but the precondition: a curve from 10% to 120% in 10% steps, 60 s warmup,
 * 300 s measured, 5 s intervals. */
static void check_curve(const struct parm_config *cfg, const struct wl_row *row)
{
	const struct parm_rd *rd = find_rd(cfg, row->rd);

	assert_int_equal(cfg->nr_rds, 1);
	assert_int_equal(rd->nr_rates, 1);
	assert_int_equal(rd->rates[0].kind, PARM_RATE_CURVE);
	assert_int_equal(rd->nr_curve_pcts, 12);
	for (size_t i = 0; i < rd->nr_curve_pcts; i++)
		assert_true(rd->curve_pcts[i] == 10.0 * (double)(i + 1));
	assert_int_equal(rd->warmup_s, 60);
	assert_int_equal(rd->elapsed_s, 300);
	assert_int_equal(rd->interval_s, 5);
	assert_int_equal(rd->nr_wd, row_nr_wds(row));
}

/* A QD sweep: one uncontrolled run per depth 1, 2, 4 ... 256, the library's times. */
static void check_qd_sweep(const struct parm_config *cfg, const struct wl_row *row)
{
	const struct parm_rd *rd = find_rd(cfg, row->rd);

	assert_int_equal(cfg->nr_rds, 1);
	assert_int_equal(rd->nr_rates, 1);
	assert_int_equal(rd->rates[0].kind, PARM_RATE_MAX);
	assert_int_equal(rd->nr_loops, 1);
	assert_int_equal(rd->loops[0].kw, PARM_KW_FORTHREADS);
	assert_int_equal(rd->loops[0].nr, 9);
	for (size_t i = 0; i < rd->loops[0].nr; i++)
		assert_true(rd->loops[0].vals[i].value == (double)(1u << i));
	assert_int_equal(rd->warmup_s, 60);
	assert_int_equal(rd->elapsed_s, 300);
	assert_int_equal(rd->interval_s, 5);
}

/* A pressure test: a fixed-rate read WD (priority 1) beside a write WD (priority 2) whose
 * rate the RD's iorate= list steps: the reads' rate plus 1 ... 7 times w_step; the library's
 * times. */
static void check_pressure(const struct parm_config *cfg, const struct wl_row *row, double reads,
			   double w_step)
{
	const struct parm_rd *rd = find_rd(cfg, row->rd);
	const struct parm_wd *r = &cfg->wds[parm_wd_find(cfg, "reads")];
	const struct parm_wd *w = &cfg->wds[parm_wd_find(cfg, "writes")];

	assert_int_equal(cfg->nr_rds, 1);
	assert_int_equal(rd->nr_wd, 2);
	assert_true(r->iorate == reads && r->priority == 1);
	assert_true(w->iorate == 0 && w->priority == 2);
	assert_int_equal(rd->nr_rates, 7);
	for (size_t i = 0; i < rd->nr_rates; i++) {
		assert_int_equal(rd->rates[i].kind, PARM_RATE_FIXED);
		assert_true(rd->rates[i].value == reads + w_step * (double)(i + 1));
	}
	assert_int_equal(rd->warmup_s, 60);
	assert_int_equal(rd->elapsed_s, 300);
	assert_int_equal(rd->interval_s, 5);
}

static void assert_near(const char *what, const char *label, double got, double want)
{
	if (fabs(got - want) > TOLERANCE_PCT)
		fail_msg("%s: %s is %.3f%%, the table says %.3f%%", label, what, got, want);
}

/* The row's workloads, drawn in proportion to their skews (at least MIN_DRAWS_PER_WD
 * each) and combined weighted by skew, against the row's figures. */
static void test_workloads_mix(void **state)
{
	const struct wl_row *row = *state;
	struct parm_config *cfg = read_file(row->file, "/tmp/wl/drive%d");
	size_t nr_wds = row_nr_wds(row), nr_sizes = row_nr_sizes(row);
	double read = 0, rnd = 0, replica = 0, reads_w = 0, size_pct[MAX_SIZES] = { 0 };

	check_drives(cfg, row);
	if (!strncmp(row->file, "qd-sweep-", 9))
		check_qd_sweep(cfg, row);
	else if (!strcmp(row->file, "write-pressure-8k.vdb"))
		check_pressure(cfg, row, 102400, 102400); /* 8 x 100 MB/s of 8 KiB */
	else if (!strcmp(row->file, "write-pressure-16k.vdb"))
		check_pressure(cfg, row, 51200, 51200); /* 8 x 100 MB/s of 16 KiB */
	else if (!strcmp(row->file, "noisy-neighbor.vdb"))
		check_pressure(cfg, row, 30000, 38400); /* 3 x 100 MB/s of 8 KiB */
	else if (strcmp(row->file, "precondition.vdb"))
		check_curve(cfg, row);
	for (size_t w = 0; w < nr_wds; w++) {
		int idx = parm_wd_find(cfg, row->wds[w].name);
		const struct parm_wd *wd = &cfg->wds[idx];
		double skew = parm_kwset_has(&wd->set, PARM_KW_SKEW) ? wd->skew : 100;
		uint32_t nr = (uint32_t)(NR_DRAWS * skew / 100);
		struct gen_wg_cfg g;
		struct wl_stats st;

		assert_true(idx >= 0);
		assert_true(fabs(skew - row->wds[w].skew_pct) < 1e-9);
		wg_cfg(wd, &cfg->sds[0], &g);
		wd_measure(&g, w, nr > MIN_DRAWS_PER_WD ? nr : MIN_DRAWS_PER_WD, &st);
		read += skew * st.read_pct / 100;
		rnd += skew * st.random_pct / 100;
		replica += skew * st.read_pct / 100 * st.replica_read_pct / 100;
		reads_w += skew * st.read_pct / 100;
		for (size_t s = 0; s < nr_sizes; s++)
			size_pct[s] += skew * stats_size_pct(&st, row->sizes[s].size_bytes) / 100;
	}
	assert_near("read", row->label, read, row->read_pct);
	assert_near("random", row->label, rnd, row->random_pct);
	if (row->replica_read_pct != NOT_STATED)
		assert_near("replica share of reads", row->label, 100 * replica / reads_w,
			    row->replica_read_pct);
	for (size_t s = 0; s < nr_sizes; s++) {
		char what[32];

		snprintf(what, sizeof(what), "%lluK",
			 (unsigned long long)row->sizes[s].size_bytes / 1024);
		assert_near(what, row->label, size_pct[s], row->sizes[s].pct);
	}
	parm_config_free(cfg);
}

/* The figures as the README prints them: at most two decimals, no trailing zeros. */
static void fmt_pct(char *buf, size_t len, double v)
{
	char *end;

	snprintf(buf, len, "%.2f", v);
	end = buf + strlen(buf) - 1;
	while (*end == '0')
		*end-- = '\0';
	if (*end == '.')
		*end = '\0';
}

static void row_cells(const struct wl_row *row, char cells[6][160])
{
	char v[16];

	cells[0][0] = cells[3][0] = '\0';
	for (size_t w = 0; w < row_nr_wds(row); w++) {
		fmt_pct(v, sizeof(v), row->wds[w].skew_pct);
		snprintf(cells[0] + strlen(cells[0]), 160 - strlen(cells[0]), "%s%s %s",
			 w ? ", " : "", row->wds[w].name, v);
	}
	fmt_pct(cells[1], 160, row->read_pct);
	fmt_pct(cells[2], 160, row->random_pct);
	for (size_t s = 0; s < row_nr_sizes(row); s++) {
		fmt_pct(v, sizeof(v), row->sizes[s].pct);
		snprintf(cells[3] + strlen(cells[3]), 160 - strlen(cells[3]), "%s%lluK %s",
			 s ? ", " : "", (unsigned long long)row->sizes[s].size_bytes / 1024, v);
	}
	if (row->replica_read_pct == NOT_STATED)
		snprintf(cells[4], 160, "-");
	else
		fmt_pct(cells[4], 160, row->replica_read_pct);
	snprintf(cells[5], 160, "%u", row->threads);
}

static char *read_readme(void)
{
	FILE *f = fopen(README, "r");
	char *text = calloc(1, 1 << 20);
	size_t n;

	assert_non_null(f);
	assert_non_null(text);
	n = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	assert_true(n > 0 && n < (1 << 20) - 1);
	return text;
}

/* Every row of the table appears in the README as "| label | wds | read | random | sizes |
 * replica | threads |" (more cells may follow). */
static void test_workloads_readme_table(void **state)
{
	char *text = read_readme();

	(void)state;
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(rows); i++) {
		char cells[6][160], want[1024];

		row_cells(&rows[i], cells);
		snprintf(want, sizeof(want), "\n| %s | %s | %s | %s | %s | %s | %s |",
			 rows[i].label, cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]);
		if (!strstr(text, want))
			fail_msg("%s lacks the row%s", README, want);
	}
	free(text);
}

/* Every .vdb file in workloads/ has a row: a new profile cannot skip this test. */
static void test_workloads_every_file_has_a_row(void **state)
{
	DIR *d = opendir("workloads");
	struct dirent *e;
	size_t nr_files = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		bool found = false;

		if (len < 5 || strcmp(e->d_name + len - 4, ".vdb"))
			continue;
		nr_files++;
		for (size_t i = 0; i < IORAMP_ARRAY_SIZE(rows); i++)
			found |= !strcmp(rows[i].file, e->d_name);
		if (!found)
			fail_msg("workloads/%s has no row in test_workloads.c", e->d_name);
	}
	closedir(d);
	/* precondition has two rows, and each pressure test one per WD */
	assert_int_equal(nr_files, IORAMP_ARRAY_SIZE(rows) - 4);
}

/* The README's ways to pick the drives: a %d mask numbered from 0, ",count=(1,8)" appended
 * to start at 1, ",size=1g" appended for files. */
static void test_workloads_lun_forms(void **state)
{
	struct parm_config *cfg;

	(void)state;
	cfg = read_file("sql.vdb", "/dev/nvme%dn1,count=(1,8)");
	assert_int_equal(cfg->nr_sds, NR_DRIVES);
	assert_string_equal(cfg->sds[0].name, "sd1");
	assert_string_equal(cfg->sds[0].lun, "/dev/nvme1n1");
	assert_string_equal(cfg->sds[7].lun, "/dev/nvme8n1");
	assert_int_equal(cfg->sds[7].size_bytes, 0);
	parm_config_free(cfg);

	cfg = read_file("sql.vdb", "/tmp/demo/drive%d,size=1g");
	assert_int_equal(cfg->nr_sds, NR_DRIVES);
	assert_string_equal(cfg->sds[7].lun, "/tmp/demo/drive7");
	for (size_t i = 0; i < cfg->nr_sds; i++)
		assert_int_equal(cfg->sds[i].size_bytes, UINT64_C(1) << 30);
	parm_config_free(cfg);
}

int main(void)
{
	struct CMUnitTest tests[IORAMP_ARRAY_SIZE(rows) + 3];
	static char names[IORAMP_ARRAY_SIZE(rows)][80];
	size_t n = 0;

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(rows); i++, n++) {
		snprintf(names[n], sizeof(names[n]), "test_workloads_mix %s", rows[i].label);
		tests[n] = (struct CMUnitTest){ names[n], test_workloads_mix, NULL, NULL,
						(void *)&rows[i] };
	}
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_workloads_readme_table);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_workloads_every_file_has_a_row);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_workloads_lun_forms);
	return _cmocka_run_group_tests("workloads", tests, n, NULL, NULL);
}
