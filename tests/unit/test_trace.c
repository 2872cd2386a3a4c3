/* Trace readers: every format's file in traces/ read back against the rule that generated
 * it, format detection, gzip, per-CPU merging, the Q/D/C choice, and malformed input
 * rejected with the file and line (or byte offset) or skipped under skip_bad. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka.h needs the headers above first */
#include <cmocka.h>

#include "ioramp/trace.h"
#include "trace_rule.h"

#define US		 1000ull
#define MSR_BASE_TICKS	 128166372000000000ull
#define ALIBABA_BASE_US	 1577836800000000ull
#define TENCENT_BASE_S	 1538352000ull
#define SYSTOR_BASE_S	 1456135200ull
#define VSCSI_CSV_BASE_S 5633898ull

enum time_kind {
	T_REL,	     /* t_us in ns */
	T_MSR,	     /* FILETIME ticks x 100 */
	T_ALIBABA,   /* epoch us */
	T_TENCENT,   /* epoch seconds */
	T_SYSTOR,    /* epoch seconds with nine decimals */
	T_VSCSI_CSV, /* whole seconds */
	T_ISSUE,     /* blk D: Q + 400 ns */
	T_COMPLETE   /* blk C: D + latency, which the reader gives back by pairing C with D */
};

struct fmt_case {
	const char *name;
	const char *path;
	enum trace_format format;
	enum trace_action action;
	unsigned int nr_devs;
	uint32_t dev_ids[2];
	enum time_kind time;
	uint64_t offset_shift;
	bool has_latency;
	bool has_blk_extras; /* flushes and discards */
};

#define BLK_DEVS                             \
	{                                    \
		8u << 20 | 16, 8u << 20 | 32 \
	}

static const struct fmt_case cases[] = {
	{ "msr", "traces/msr.csv", TRACE_FMT_MSR, 0, 2, { 0, 1 }, T_MSR, 3584, true, false },
	{ "msr_gz", "traces/msr.csv.gz", TRACE_FMT_MSR, 0, 2, { 0, 1 }, T_MSR, 3584, true, false },
	{ "spc", "traces/spc.spc", TRACE_FMT_SPC, 0, 2, { 0, 1 }, T_REL, 0, false, false },
	{ "alibaba",
	  "traces/alibaba.csv",
	  TRACE_FMT_ALIBABA,
	  0,
	  2,
	  { 0, 1 },
	  T_ALIBABA,
	  0,
	  false,
	  false },
	{ "tencent",
	  "traces/tencent.csv",
	  TRACE_FMT_TENCENT,
	  0,
	  2,
	  { 1000, 1001 },
	  T_TENCENT,
	  0,
	  false,
	  false },
	{ "disksim",
	  "traces/disksim.trace",
	  TRACE_FMT_DISKSIM,
	  0,
	  2,
	  { 0, 1 },
	  T_REL,
	  0,
	  false,
	  false },
	{ "mqsim", "traces/mqsim.trace", TRACE_FMT_MQSIM, 0, 2, { 0, 1 }, T_REL, 0, false, false },
	{ "blkreplay",
	  "traces/blkreplay.load",
	  TRACE_FMT_BLKREPLAY,
	  0,
	  1,
	  { 0 },
	  T_REL,
	  0,
	  false,
	  false },
	{ "blkreplay_gz",
	  "traces/blkreplay.load.gz",
	  TRACE_FMT_BLKREPLAY,
	  0,
	  1,
	  { 0 },
	  T_REL,
	  0,
	  false,
	  false },
	{ "fio2", "traces/fio2.iolog", TRACE_FMT_FIO2, 0, 2, { 0, 1 }, T_REL, 0, false, false },
	{ "fio3", "traces/fio3.iolog", TRACE_FMT_FIO3, 0, 2, { 0, 1 }, T_REL, 0, false, false },
	{ "vscsi", "traces/vscsi.bin", TRACE_FMT_VSCSI, 0, 1, { 0 }, T_REL, 0, false, false },
	{ "vscsi_csv",
	  "traces/vscsi.csv",
	  TRACE_FMT_VSCSI_CSV,
	  0,
	  1,
	  { 0 },
	  T_VSCSI_CSV,
	  0,
	  false,
	  false },
	{ "blkparse_q", "traces/blkparse.txt", TRACE_FMT_BLKPARSE, TRACE_ACT_QUEUE, 2, BLK_DEVS,
	  T_REL, 0, false, true },
	{ "blkparse_d", "traces/blkparse.txt", TRACE_FMT_BLKPARSE, TRACE_ACT_ISSUE, 2, BLK_DEVS,
	  T_ISSUE, 0, false, true },
	{ "blkparse_c_gz", "traces/blkparse.txt.gz", TRACE_FMT_BLKPARSE, TRACE_ACT_COMPLETE, 2,
	  BLK_DEVS, T_COMPLETE, 0, true, true },
	{ "systor",
	  "traces/systor.csv",
	  TRACE_FMT_SYSTOR,
	  0,
	  2,
	  { 0, 4 },
	  T_SYSTOR,
	  0,
	  true,
	  false },
	{ "fiu", "traces/fiu.trace", TRACE_FMT_FIU, 0, 2, BLK_DEVS, T_REL, 0, false, false },
	{ "etw", "traces/etw.csv", TRACE_FMT_ETW, 0, 2, { 0, 1 }, T_REL, 0, true, false },
	{ "biosnoop",
	  "traces/biosnoop.txt",
	  TRACE_FMT_BIOSNOOP,
	  0,
	  2,
	  { 0, 1 },
	  T_REL,
	  0,
	  true,
	  false },
	{ "ftrace_blk_q", "traces/ftrace-blk.txt", TRACE_FMT_FTRACE, TRACE_ACT_QUEUE, 2, BLK_DEVS,
	  T_REL, 0, false, true },
	{ "ftrace_blk_c", "traces/ftrace-blk.txt", TRACE_FMT_FTRACE, TRACE_ACT_COMPLETE, 2,
	  BLK_DEVS, T_COMPLETE, 0, true, true },
	{ "ftrace_events_q", "traces/ftrace-events.txt", TRACE_FMT_FTRACE, TRACE_ACT_QUEUE, 2,
	  BLK_DEVS, T_REL, 0, false, true },
	{ "ftrace_events_d", "traces/ftrace-events.txt", TRACE_FMT_FTRACE, TRACE_ACT_ISSUE, 2,
	  BLK_DEVS, T_ISSUE, 0, false, true },
	{ "ftrace_events_c", "traces/ftrace-events.txt", TRACE_FMT_FTRACE, TRACE_ACT_COMPLETE, 2,
	  BLK_DEVS, T_COMPLETE, 0, true, true },
	{ "blktrace_q", "traces/blktrace.bin", TRACE_FMT_BLKTRACE, TRACE_ACT_QUEUE, 2, BLK_DEVS,
	  T_REL, 0, false, true },
	{ "blktrace_c_gz", "traces/blktrace.bin.gz", TRACE_FMT_BLKTRACE, TRACE_ACT_COMPLETE, 2,
	  BLK_DEVS, T_COMPLETE, 0, true, true },
	{ "blktrace_be_d", "traces/blktrace-be.bin", TRACE_FMT_BLKTRACE, TRACE_ACT_ISSUE, 2,
	  BLK_DEVS, T_ISSUE, 0, false, true },
	{ "blktrace_percpu", "traces/percpu.blktrace.1", TRACE_FMT_BLKTRACE, TRACE_ACT_QUEUE, 2,
	  BLK_DEVS, T_REL, 0, false, true },
	{ "blktrace_percpu_base", "traces/percpu", TRACE_FMT_BLKTRACE, TRACE_ACT_COMPLETE, 2,
	  BLK_DEVS, T_COMPLETE, 0, true, true },
};

static uint64_t expected_time_ns(const struct fmt_case *c, const struct rule_rec *r)
{
	switch (c->time) {
	case T_MSR:
		return (MSR_BASE_TICKS + r->t_us * 10) * 100;
	case T_ALIBABA:
		return (ALIBABA_BASE_US + r->t_us) * US;
	case T_TENCENT:
		return (TENCENT_BASE_S + r->t_us / 1000000) * 1000000000ull;
	case T_VSCSI_CSV:
		return (VSCSI_CSV_BASE_S + r->t_us / 1000000) * 1000000000ull;
	case T_SYSTOR:
		return SYSTOR_BASE_S * 1000000000ull + r->t_us * US;
	case T_ISSUE:
		return r->t_us * US + 400;
	case T_COMPLETE:
		return r->t_us * US + 400 + r->lat_ns;
	default:
		return r->t_us * US;
	}
}

static void check_rec(const struct fmt_case *c, const struct rule_rec *want,
		      const struct trace_rec *got)
{
	assert_int_equal(got->op, want->op);
	assert_int_equal(got->dev, c->dev_ids[want->dev]);
	assert_int_equal(got->size_bytes, want->size_bytes);
	assert_int_equal(got->offset_bytes, want->offset_bytes + c->offset_shift);
	assert_int_equal(got->time_ns, expected_time_ns(c, want));
	assert_int_equal(got->latency_ns, c->has_latency ? want->lat_ns / 100 * 100 : 0);
}

/* Reads the case's file with its format given, then detected: the same records, in the
 * rule's order, plus the blk traces' flushes and discards. */
static void read_case(const struct fmt_case *c, enum trace_format format)
{
	struct trace_opts opts = { .format = format, .action = c->action };
	struct rule_rec want[RULE_N];
	struct trace_reader *r;
	struct trace_err err;
	struct trace_rec rec;
	unsigned int i = 0, nr_flush = 0, nr_discard = 0;
	int ret;

	rule_records(c->nr_devs, want);
	ret = trace_reader_open(&r, c->path, &opts, &err);
	if (ret < 0)
		trace_err_print(&err, stderr);
	assert_int_equal(ret, 0);
	assert_int_equal(trace_reader_format(r), c->format);
	while ((ret = trace_reader_next(r, &rec)) == 1) {
		if (rec.op == TRACE_OP_FLUSH || rec.op == TRACE_OP_DISCARD) {
			nr_flush += rec.op == TRACE_OP_FLUSH;
			nr_discard += rec.op == TRACE_OP_DISCARD;
			continue;
		}
		assert_true(i < RULE_N);
		check_rec(c, &want[i++], &rec);
	}
	assert_int_equal(ret, 0);
	assert_int_equal(i, RULE_N);
	assert_int_equal(nr_flush, c->has_blk_extras ? RULE_NR_FLUSHES : 0);
	assert_int_equal(nr_discard, c->has_blk_extras ? RULE_NR_DISCARDS : 0);
	assert_int_equal(trace_reader_nr_skipped(r), 0);
	trace_reader_close(r);
}

static void test_reader_matches_rule(void **state)
{
	const struct fmt_case *c = *state;

	read_case(c, c->format);
	read_case(c, TRACE_FMT_AUTO);
}

/* Opens text in memory with format; returns the reader (asserting success). */
static struct trace_reader *open_text(const char *text, enum trace_format format, bool skip_bad)
{
	struct trace_opts opts = { .format = format, .skip_bad = skip_bad };
	struct trace_reader *r;
	struct trace_err err;
	int ret = trace_reader_open_mem(&r, "mem.trace", text, strlen(text), &opts, &err);

	if (ret < 0)
		trace_err_print(&err, stderr);
	assert_int_equal(ret, 0);
	return r;
}

/* Reads until the end or an error; returns the last trace_reader_next() result and the
 * count of records. */
static int drain(struct trace_reader *r, unsigned int *nr)
{
	struct trace_rec rec;
	int ret;

	*nr = 0;
	while ((ret = trace_reader_next(r, &rec)) == 1)
		(*nr)++;
	return ret;
}

/* The printed error of a reader that failed. */
static void err_text(const struct trace_err *err, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	assert_non_null(f);
	trace_err_print(err, f);
	fclose(f);
}

struct bad_case {
	enum trace_format format;
	const char *good;
	const char *bad;
	const char *msg; /* expected error message */
};

static const struct bad_case bad_cases[] = {
	{ TRACE_FMT_MSR, "128166372000000000,h,0,Read,0,4096,10",
	  "128166372000000000,h,0,Read,abc,4096,10",
	  "bad Offset 'abc'; expected an unsigned integer" },
	{ TRACE_FMT_MSR, "128166372000000000,h,0,Write,0,4096,10",
	  "128166372000000000,h,0,Erase,0,4096,10", "bad Type 'Erase'; expected Read or Write" },
	{ TRACE_FMT_SPC, "0,1,4096,r,0.5", "0,1,4096,x,0.5", "bad Opcode 'x'; expected r or w" },
	{ TRACE_FMT_ALIBABA, "3,R,0,4096,1", "3,R,0,4096",
	  "line ends after length; expected device_id,opcode,offset,length,timestamp" },
	{ TRACE_FMT_TENCENT, "1,0,8,0,5", "1,0,8,2,5",
	  "bad IOType '2'; expected 0 (read) or 1 (write)" },
	{ TRACE_FMT_DISKSIM, "1.5 0 8 8 1", "1.5 0 8 8",
	  "missing flags; expected an unsigned integer (layout: arrival_ms devno blkno nblocks "
	  "flags)" },
	{ TRACE_FMT_MQSIM, "15 0 8 8 1", "15 0 8 8 1 9",
	  "unexpected '9' after flags; expected the end of the line" },
	{ TRACE_FMT_BLKREPLAY, "0.1 ; 8 ; 8 ; W ; 0.0 ; 0.0", "0.1 ; 8 ; 8 ; z ; 0.0 ; 0.0",
	  "bad op 'z'; expected R, W or other RWBS letters" },
	{ TRACE_FMT_FIO3, "10 /dev/x read 0 4096", "11 /dev/x frob 0 4096",
	  "bad action 'frob'; expected add, open, close, read, write, trim, sync or datasync" },
	{ TRACE_FMT_FIO2, "/dev/x write 0 4096", "/dev/x write 0 4k",
	  "bad length '4k'; expected an unsigned 32-bit integer" },
	{ TRACE_FMT_BLKPARSE, "  8,0  1  1  0.000000100  12  Q  R 8 + 8 [x]",
	  "  8,0  1  2  0.000000200  12  Q  R [x]",
	  "bad sector '[x]'; expected 'sector + count' after the RWBS field" },
	{ TRACE_FMT_BLKPARSE, "  8,0  1  1  0.000000100  12  Q  R 8 + 8 [x]",
	  "  8,0  1  2  0.0000002x0  12  Q  R 8 + 8 [x]",
	  "bad time '0.0000002x0'; expected a non-negative number" },
	{ TRACE_FMT_FTRACE, "fio-12 [001] d..1. 0.000000100: 8,0 Q R 8 + 8 [x]",
	  "fio-12 [001] d..1. 0.000000200: 8,0 Q R [x]",
	  "bad sector '[x]'; expected 'sector + count' after the RWBS field" },
	{ TRACE_FMT_FTRACE,
	  "fio 12 [001] 0.000000100: block:block_rq_issue: 8,0 R 4096 () 8 + 8 [x]",
	  "fio 12 [001] 0.000000200: block:block_rq_issue: 8.0 R 4096 () 8 + 8 [x]",
	  "bad major '8.0'; expected an unsigned 32-bit integer" },
	{ TRACE_FMT_VSCSI_CSV, "1,5633898,2a,512,42932745", "1,5633898,2g,512,42932746",
	  "bad op '2g'; expected a SCSI opcode in hexadecimal (28, 2a)" },
	{ TRACE_FMT_VSCSI_CSV, "1,5633898,28,512,42932745", "3,5633898,28,512,42932746",
	  "bad version '3'; expected 1 or 2" },
	{ TRACE_FMT_SYSTOR, "1456135200.000001000,0.000050000,W,0,0,4096",
	  "1456135200.000002000,0.000050000,X,0,0,4096", "bad IOType 'X'; expected R, W or blank" },
	{ TRACE_FMT_FIU, "1000 7 a b 8 8 R 8 0 d41d8cd98f00b204e9800998ecf8427e",
	  "2000 7 a b 8 8 Q 8 0 d41d8cd98f00b204e9800998ecf8427e", "bad op 'Q'; expected R or W" },
	{ TRACE_FMT_ETW, "DiskRead, 100, a.exe (1), 2, 0x1, 0x1000, 0x1000, 5, 0, 0x0, 4, 0",
	  "DiskRead, 200, a.exe (1), 2, 0x1, 4096, 0x1000, 5, 0, 0x0, 4, 0",
	  "bad ByteOffset '4096'; expected a hexadecimal number (0x...)" },
	{ TRACE_FMT_BIOSNOOP,
	  "0.000100    fio            7      sda     R 8          4096       0.05",
	  "0.000200    fio            7      sda     R 8          4k         0.05",
	  "bad BYTES '4k'; expected an unsigned integer" },
};

/* A bad line after a good one: the reader stops at line 2 with the expected message; under
 * skip_bad the same text gives both good lines and one skip. */
static void test_reader_rejects_bad_line(void **state)
{
	const struct bad_case *c = *state;
	char text[512], want[512], got[512];
	struct trace_reader *r;
	unsigned int nr;

	snprintf(text, sizeof(text), "%s\n%s\n%s\n", c->good, c->bad, c->good);
	r = open_text(text, c->format, false);
	assert_int_equal(drain(r, &nr), -EINVAL);
	assert_int_equal(nr, 1);
	assert_int_equal(trace_reader_err(r)->line, 2);
	assert_string_equal(trace_reader_err(r)->msg, c->msg);
	err_text(trace_reader_err(r), got, sizeof(got));
	snprintf(want, sizeof(want), "mem.trace:2: error: %s\n", c->msg);
	assert_string_equal(got, want);
	assert_int_equal(trace_reader_next(r, &(struct trace_rec){ 0 }),
			 -EINVAL); /* stays failed */
	trace_reader_close(r);

	r = open_text(text, c->format, true);
	assert_int_equal(drain(r, &nr), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(trace_reader_nr_skipped(r), 1);
	trace_reader_close(r);
}

static void *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* A blktrace stream cut inside its 4th record (the records before kept, a warning), then with
 * the 5th record's magic broken (an error): both give the byte offset of the record. */
static void test_reader_blktrace_errors_give_offsets(void **state)
{
	struct trace_opts opts = { .format = TRACE_FMT_BLKTRACE, .action = TRACE_ACT_QUEUE };
	size_t len, at[6], pos = 0;
	unsigned char *buf = read_file("traces/blktrace.bin", &len);
	struct trace_reader *r;
	struct trace_err err;
	char got[512];
	unsigned int nr;

	(void)state;
	for (int i = 0; i < 6; i++) { /* record starts: 48 bytes + pdu_len */
		uint16_t pdu;

		at[i] = pos;
		memcpy(&pdu, buf + pos + 46, 2);
		pos += 48 + pdu;
	}
	assert_int_equal(trace_reader_open_mem(&r, "t.bin", buf, at[3] + 20, &opts, &err), 0);
	assert_int_equal(drain(r, &nr), 0); /* the records before the cut are kept */
	snprintf(got, sizeof(got), "t.bin+%zu: warning: truncated record (20 of 48 bytes)", at[3]);
	assert_non_null(trace_reader_warning(r));
	assert_non_null(strstr(trace_reader_warning(r), got));
	trace_reader_close(r);

	buf[at[4] + 3] ^= 0xff; /* the "e" of the little-endian magic 0x65617407 */
	assert_int_equal(trace_reader_open_mem(&r, "t.bin", buf, len, &opts, &err), 0);
	assert_int_equal(drain(r, &nr), -EINVAL);
	assert_int_equal(trace_reader_err(r)->offset_bytes, at[4]);
	assert_non_null(strstr(trace_reader_err(r)->msg, "bad magic"));
	trace_reader_close(r);
	free(buf);
}

/* "blktrace -o -" interleaves CPUs in chunks: the records come out in time order anyway. */
static void test_reader_blktrace_sorts_chunks(void **state)
{
	struct trace_opts opts = { .format = TRACE_FMT_BLKTRACE, .action = TRACE_ACT_QUEUE };
	size_t len, pos = 0, out_len = 0, at[2][4096], nr[2] = { 0, 0 }, next[2] = { 0, 0 };
	unsigned char *buf = read_file("traces/blktrace.bin", &len), *out = malloc(len);
	struct trace_reader *r;
	struct trace_err err;
	struct trace_rec rec;
	uint64_t last_ns = 0;
	unsigned int n = 0;

	(void)state;
	assert_non_null(out);
	while (pos < len) { /* record starts, by CPU */
		uint32_t cpu;
		uint16_t pdu;

		memcpy(&cpu, buf + pos + 40, 4);
		memcpy(&pdu, buf + pos + 46, 2);
		at[cpu][nr[cpu]++] = pos;
		pos += 48 + pdu;
	}
	while (next[0] < nr[0] || next[1] < nr[1]) /* 64-record chunks, CPU 1 first */
		for (int cpu = 1; cpu >= 0; cpu--)
			for (int k = 0; k < 64 && next[cpu] < nr[cpu]; k++) {
				size_t from = at[cpu][next[cpu]++];
				uint16_t pdu;

				memcpy(&pdu, buf + from + 46, 2);
				memcpy(out + out_len, buf + from, 48u + pdu);
				out_len += 48u + pdu;
			}
	assert_int_equal(out_len, len);
	assert_int_equal(trace_reader_open_mem(&r, "chunks", out, out_len, &opts, &err), 0);
	while (trace_reader_next(r, &rec) == 1) {
		assert_true(rec.time_ns >= last_ns);
		last_ns = rec.time_ns;
		n++;
	}
	assert_int_equal(n, RULE_N + RULE_NR_FLUSHES + RULE_NR_DISCARDS);
	trace_reader_close(r);
	free(out);
	free(buf);
}

static void test_reader_vscsi_truncated(void **state)
{
	size_t len;
	unsigned char *buf = read_file("traces/vscsi.bin", &len);
	struct trace_reader *r;
	struct trace_err err;
	unsigned int nr;

	(void)state;
	assert_int_equal(trace_reader_open_mem(&r, "v.bin", buf, 32 * 5 + 7, NULL, &err), 0);
	assert_int_equal(trace_reader_format(r), TRACE_FMT_VSCSI);
	assert_int_equal(drain(r, &nr), -EINVAL);
	assert_int_equal(nr, 5);
	assert_int_equal(trace_reader_err(r)->offset_bytes, 160);
	trace_reader_close(r);
	free(buf);
}

static void test_reader_open_errors(void **state)
{
	struct trace_reader *r = NULL;
	struct trace_err err;
	char got[512];

	(void)state;
	assert_int_equal(trace_reader_open(&r, "traces/no-such-file", NULL, &err), -ENOENT);
	err_text(&err, got, sizeof(got));
	assert_string_equal(got, "traces/no-such-file: error: cannot open: No such file or "
				 "directory\n");
	assert_int_equal(trace_reader_open_mem(&r, "e", "", 0, NULL, &err), -EINVAL);
	assert_string_equal(err.msg, "empty trace; cannot detect its format");
	assert_int_equal(trace_reader_open_mem(&r, "h", "hello world\n", 12, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unknown trace format; use --format with one of:"));
	assert_null(r);
}

/* Without --action, Q wins when present; a trace of D and C events gives D. */
static void test_reader_picks_action(void **state)
{
	static const char dc[] = "  8,0  0  1  0.000001000  9  D  W 8 + 8 [a]\n"
				 "  8,0  0  2  0.000002000  0  C  W 8 + 8 [0]\n"
				 "  8,0  0  3  0.000003000  9  D  R 16 + 8 [a]\n";
	struct trace_reader *r;
	struct trace_err err;
	unsigned int nr;

	(void)state;
	assert_int_equal(trace_reader_open(&r, "traces/blkparse.txt", NULL, &err), 0);
	assert_int_equal(trace_reader_action(r), TRACE_ACT_QUEUE);
	assert_int_equal(drain(r, &nr), 0);
	assert_int_equal(nr, RULE_N + RULE_NR_FLUSHES + RULE_NR_DISCARDS);
	trace_reader_close(r);
	assert_int_equal(trace_reader_open(&r, "traces/percpu.blktrace.0", NULL, &err), 0);
	assert_int_equal(trace_reader_action(r), TRACE_ACT_QUEUE);
	trace_reader_close(r);
	r = open_text(dc, TRACE_FMT_AUTO, false);
	assert_int_equal(trace_reader_format(r), TRACE_FMT_BLKPARSE);
	assert_int_equal(trace_reader_action(r), TRACE_ACT_ISSUE);
	assert_int_equal(drain(r, &nr), 0);
	assert_int_equal(nr, 2);
	trace_reader_close(r);
}

/* trace-cmd report's layout (no flags, times in us) among other events: detected, D picked
 * (no Q), other events and headers skipped; with C, the latency from the issue. */
static void test_reader_ftrace_trace_cmd(void **state)
{
	static const char text[] =
		"cpus=2\n"
		"             fio-8484  [001]  46693.275235: block_rq_issue:       7,0 R 8192 () "
		"189728 + 16 [fio]\n"
		"             fio-8484  [001]  46693.275290: sched_switch:         prev_comm=fio "
		"prev_pid=8484 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0\n"
		"          <idle>-0     [001]  46693.275400: block_rq_complete:    7,0 R () 189728 "
		"+ 16 [0]\n";
	struct trace_opts opts = { .action = TRACE_ACT_COMPLETE };
	struct trace_reader *r;
	struct trace_err err;
	struct trace_rec rec;

	(void)state;
	r = open_text(text, TRACE_FMT_AUTO, false);
	assert_int_equal(trace_reader_format(r), TRACE_FMT_FTRACE);
	assert_int_equal(trace_reader_action(r), TRACE_ACT_ISSUE);
	assert_int_equal(trace_reader_next(r, &rec), 1);
	assert_int_equal(rec.time_ns, 46693275235000ull);
	assert_int_equal(rec.dev, 7u << 20);
	assert_int_equal(rec.offset_bytes, 189728ull * 512);
	assert_int_equal(rec.size_bytes, 8192);
	assert_int_equal(rec.op, TRACE_OP_READ);
	assert_int_equal(trace_reader_next(r, &rec), 0);
	trace_reader_close(r);
	assert_int_equal(trace_reader_open_mem(&r, "mem.trace", text, strlen(text), &opts, &err),
			 0);
	assert_int_equal(trace_reader_next(r, &rec), 1);
	assert_int_equal(rec.time_ns, 46693275400000ull);
	assert_int_equal(rec.latency_ns, 165000);
	assert_int_equal(trace_reader_next(r, &rec), 0);
	trace_reader_close(r);
}

/* An ETW dump without its header (the columns by default, newer xperf's CPU column told from
 * IrpPtr), a DiskFlush a flush, other events passed over; issue time = TimeStamp - Elapsed. */
static void test_reader_etw_without_header(void **state)
{
	static const char text[] =
		"DiskReadInit, 90, a.exe (1), 2, 0xffff0001\n"
		"DiskRead, 100, a.exe (1), 2, 0xffff0001, 0x2000, 0x1000, 10, 3, 0x0, 8, 0, O, "
		"0x1, \"C:\\x, y\"\n"
		"DiskWrite, 300, a.exe (1), 2, 1, 0xffff0002, 0x4000, 0x2000, 20, 3, 0x0, 8, 0, O, "
		"0x1, \"C:\\x\"\n"
		"DiskFlush, 400, System (4), 8, 1, 0xffff0003, 30, 3, 0x0, 25, 0\n";
	struct trace_reader *r = open_text(text, TRACE_FMT_AUTO, false);
	struct trace_rec rec;

	(void)state;
	assert_int_equal(trace_reader_format(r), TRACE_FMT_ETW);
	assert_int_equal(trace_reader_next(r, &rec), 1);
	assert_int_equal(rec.op, TRACE_OP_READ);
	assert_int_equal(rec.time_ns, 90000);
	assert_int_equal(rec.offset_bytes, 0x2000);
	assert_int_equal(rec.size_bytes, 0x1000);
	assert_int_equal(rec.dev, 3);
	assert_int_equal(rec.latency_ns, 10000);
	assert_int_equal(trace_reader_next(r, &rec), 1); /* with the CPU column */
	assert_int_equal(rec.op, TRACE_OP_WRITE);
	assert_int_equal(rec.time_ns, 280000);
	assert_int_equal(rec.offset_bytes, 0x4000);
	assert_int_equal(rec.size_bytes, 0x2000);
	assert_int_equal(trace_reader_next(r, &rec), 1);
	assert_int_equal(rec.op, TRACE_OP_FLUSH);
	assert_int_equal(rec.time_ns, 370000);
	assert_int_equal(rec.dev, 3);
	assert_int_equal(trace_reader_next(r, &rec), 0);
	trace_reader_close(r);
}

/* biosnoop -Q: the arrival is TIME - LAT - QUE; a T of N (no data) is passed over. */
static void test_reader_biosnoop_queue(void **state)
{
	static const char text[] =
		"TIME(s)     COMM           PID    DISK    T SECTOR     BYTES  QUE(ms) LAT(ms)\n"
		"0.000000    kworker/u72:1  13379  nvme1n1 W 1142400    4096      0.01    0.55\n"
		"5.332998    xfsaild/nvme1n 1061   nvme1n1 N 0          0         0.00    0.01\n"
		"5.333044    xfsaild/nvme1n 1061   nvme0n1 R 2349728    16384     0.02    0.64\n";
	struct trace_reader *r = open_text(text, TRACE_FMT_AUTO, false);
	struct trace_rec rec;

	(void)state;
	assert_int_equal(trace_reader_format(r), TRACE_FMT_BIOSNOOP);
	assert_int_equal(trace_reader_next(r, &rec), 1);
	assert_int_equal(rec.op, TRACE_OP_WRITE);
	assert_int_equal(rec.time_ns, 0); /* before the first completion: clamped */
	assert_int_equal(rec.latency_ns, 550000);
	assert_int_equal(rec.offset_bytes, 1142400ull * 512);
	assert_int_equal(trace_reader_next(r, &rec), 1);
	assert_int_equal(rec.op, TRACE_OP_READ);
	assert_int_equal(rec.dev, 1); /* the second disk seen */
	assert_int_equal(rec.time_ns, 5333044000ull - 640000 - 20000);
	assert_int_equal(rec.size_bytes, 16384);
	assert_int_equal(trace_reader_next(r, &rec), 0);
	trace_reader_close(r);
}

/* A forced format reads what detection would not choose: DiskSim's text as MQSim (ns). */
static void test_reader_format_override(void **state)
{
	struct trace_opts opts = { .format = TRACE_FMT_MQSIM };
	struct trace_reader *r;
	struct trace_err err;
	struct trace_rec rec;

	(void)state;
	r = open_text("1100 1 8 16 1\n", TRACE_FMT_AUTO, false);
	assert_int_equal(trace_reader_format(r), TRACE_FMT_MQSIM);
	trace_reader_close(r);
	assert_int_equal(trace_reader_open(&r, "traces/disksim.trace", &opts, &err), -0);
	assert_int_equal(trace_reader_next(r, &rec), 1);
	assert_int_equal(trace_reader_next(r, &rec), 1);
	assert_int_equal(rec.time_ns, 1); /* "1.100" read as nanoseconds */
	trace_reader_close(r);
}

static void test_format_names(void **state)
{
	enum trace_format f;
	enum trace_action a;

	(void)state;
	for (int i = 0; i < TRACE_FMT_NR; i++) {
		assert_int_equal(trace_format_parse(trace_format_name((enum trace_format)i), &f),
				 0);
		assert_int_equal(f, i);
	}
	assert_int_equal(trace_format_parse("ioramp", &f), 0);
	assert_int_equal(f, TRACE_FMT_FIO3);
	assert_int_equal(trace_format_parse("csv", &f), -EINVAL);
	assert_int_equal(trace_action_parse("d", &a), 0);
	assert_int_equal(a, TRACE_ACT_ISSUE);
	assert_int_equal(trace_action_parse("complete", &a), 0);
	assert_int_equal(a, TRACE_ACT_COMPLETE);
	assert_int_equal(trace_action_parse("X", &a), -EINVAL);
}

int main(void)
{
	struct CMUnitTest tests[IORAMP_ARRAY_SIZE(cases) + IORAMP_ARRAY_SIZE(bad_cases) + 11];
	static char names[IORAMP_ARRAY_SIZE(cases) + IORAMP_ARRAY_SIZE(bad_cases)][64];
	size_t n = 0;

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(cases); i++, n++) {
		snprintf(names[n], sizeof(names[n]), "test_reader_%s_matches_rule", cases[i].name);
		tests[n] = (struct CMUnitTest){ names[n], test_reader_matches_rule, NULL, NULL,
						(void *)&cases[i] };
	}
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(bad_cases); i++, n++) {
		snprintf(names[n], sizeof(names[n]), "test_reader_%s_rejects_bad_line_%zu",
			 trace_format_name(bad_cases[i].format), i);
		tests[n] = (struct CMUnitTest){ names[n], test_reader_rejects_bad_line, NULL, NULL,
						(void *)&bad_cases[i] };
	}
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reader_blktrace_errors_give_offsets);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reader_blktrace_sorts_chunks);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reader_vscsi_truncated);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reader_open_errors);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reader_picks_action);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reader_ftrace_trace_cmd);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reader_etw_without_header);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reader_biosnoop_queue);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_reader_format_override);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_format_names);
	return _cmocka_run_group_tests("trace", tests, n, NULL, NULL);
}
