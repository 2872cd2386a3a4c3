/* Block I/O traces: one reader per trace format behind one interface, the fio iolog v3 writer
 * (ioramp's recording format), streaming statistics and the VDbench profile deriver.
 * Everything streams in bounded memory: a reader keeps one buffer (and one record per per-CPU
 * blktrace file), the statistics keep counters, capped maps and a capped interval set. */
#ifndef IORAMP_TRACE_H
#define IORAMP_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/compiler.h"

/* ---- records ---------------------------------------------------------------------------- */

enum trace_op {
	TRACE_OP_READ,
	TRACE_OP_WRITE,
	TRACE_OP_FLUSH,	  /* no data: cache flush / sync */
	TRACE_OP_DISCARD, /* trim, unmap, secure erase */
	TRACE_OP_NR,
};

/* One I/O, normalised at parse time. time_ns is the trace's own clock in ns: relative to the
 * trace start for most formats, absolute for MSR (since 1601), Alibaba and Tencent (Unix
 * epoch); consumers only use differences. offset_bytes is kept as read (MSR's 3584-byte
 * partition shift included): realignment is the replayer's job. dev is the format's device:
 * blkparse/blktrace major<<20|minor, SPC ASU, MSR host index<<16|disk number (hosts in order
 * of appearance), Alibaba device_id, Tencent VolumeID, DiskSim devno, fio file index in order
 * of appearance, 0 when the format has none. */
struct trace_rec {
	uint64_t time_ns;
	uint64_t offset_bytes;
	uint64_t latency_ns; /* completion minus issue; 0 when unknown */
	uint32_t size_bytes;
	uint32_t dev;
	uint8_t op; /* enum trace_op */
};

/* ---- formats ---------------------------------------------------------------------------- */

enum trace_format {
	TRACE_FMT_AUTO, /* detect from the content (magic, first lines) */
	TRACE_FMT_BLKPARSE,
	TRACE_FMT_BLKTRACE,
	TRACE_FMT_MSR,
	TRACE_FMT_SPC,
	TRACE_FMT_FIO2,
	TRACE_FMT_FIO3, /* also ioramp's recording format */
	TRACE_FMT_DISKSIM,
	TRACE_FMT_MQSIM,
	TRACE_FMT_BLKREPLAY,
	TRACE_FMT_ALIBABA,
	TRACE_FMT_TENCENT,
	TRACE_FMT_VSCSI,
	TRACE_FMT_VSCSI_CSV, /* the same as libCacheSim's CSV: version,time,op,size,lbn */
	TRACE_FMT_FTRACE,    /* the blk tracer and block tracepoints as ftrace prints them */
	TRACE_FMT_SYSTOR,    /* Systor '17 VDI (Fujitsu) */
	TRACE_FMT_FIU,	     /* FIU homes, mail, web-vm */
	TRACE_FMT_ETW,	     /* Microsoft server traces: Windows event tracing's text dump */
	TRACE_FMT_BIOSNOOP,  /* bcc's and libbpf-tools' biosnoop output */
	TRACE_FMT_NR,
};

/* Which blkparse/blktrace event becomes a record. AUTO looks at the first 20000 events and
 * keeps Q when there is any, else D, else C. */
enum trace_action {
	TRACE_ACT_AUTO,
	TRACE_ACT_QUEUE,    /* Q: arrival at the block layer, best for replay timing */
	TRACE_ACT_ISSUE,    /* D: sent to the device, best for the device-level size mix */
	TRACE_ACT_COMPLETE, /* C: completion */
	TRACE_ACT_NR,
};

/* The format's name as --format spells it ("blkparse", "msr", ...); "?" when out of range. */
const char *trace_format_name(enum trace_format fmt);

/* Parses a --format name (also "auto" and the alias "ioramp" for fio3). Returns 0 with *out
 * set, or -EINVAL. */
int trace_format_parse(const char *name, enum trace_format *out);

/* One line listing every --format name, for usage texts. */
const char *trace_format_names(void);

/* True when dev numbers of this format are major<<20|minor (printed "maj,min"). */
bool trace_format_has_majmin(enum trace_format fmt);

/* "Q", "D", "C" or "auto"; and the reverse (also accepts "queue", "issue", "complete"). */
const char *trace_action_name(enum trace_action act);
int trace_action_parse(const char *name, enum trace_action *out);

/* ---- errors ----------------------------------------------------------------------------- */

/* Where and why a trace was rejected. A text format names the line ("file:LINE: error: msg"),
 * a binary one the byte offset of the record ("file+OFFSET: error: msg"). line and offset are
 * 0 when the failure has no position (cannot open, unknown format). */
struct trace_err {
	char file[256];
	uint64_t line;
	uint64_t offset_bytes;
	bool is_binary;
	char msg[256];
};

/* Prints the error as one line on f. */
void trace_err_print(const struct trace_err *err, FILE *f);

/* ---- readers ---------------------------------------------------------------------------- */

struct trace_opts {
	enum trace_format format; /* TRACE_FMT_AUTO to detect */
	enum trace_action action; /* blkparse and blktrace only */
	bool skip_bad;		  /* text formats: count and skip malformed lines, don't fail */
};

struct trace_reader;

/* Opens path (plain or gzip, detected by zlib) and selects the format: opts->format, or the
 * content's when AUTO. A path "x.blktrace.N" (or "x" / "x.blktrace" when "x.blktrace.0"
 * exists) opens every per-CPU file x.blktrace.0, .1, ... and merges them by time. opts may be
 * NULL (auto, auto, no skipping). Returns 0 with *out set (free with trace_reader_close()),
 * or -errno with *err filled: -ENOENT and friends from open, -EINVAL for an unknown format. */
int trace_reader_open(struct trace_reader **out, const char *path, const struct trace_opts *opts,
		      struct trace_err *err);

/* Same over a memory buffer, which must outlive the reader; name appears in errors. Per-CPU
 * merging does not apply. Used by the fuzz target and unit tests. */
int trace_reader_open_mem(struct trace_reader **out, const char *name, const void *data, size_t len,
			  const struct trace_opts *opts, struct trace_err *err);

/* Reads the next record. Returns 1 with *rec filled, 0 at the end, or -errno: -EINVAL for a
 * malformed line or record (unless skip_bad), -EIO for a read or decompression failure,
 * -ENOMEM. After a failure trace_reader_err() says where; the reader stays unusable. */
int trace_reader_next(struct trace_reader *r, struct trace_rec *rec);

const struct trace_err *trace_reader_err(const struct trace_reader *r);
enum trace_format trace_reader_format(const struct trace_reader *r);

/* The action in use (resolved from AUTO at open); TRACE_ACT_AUTO for other formats. */
enum trace_action trace_reader_action(const struct trace_reader *r);

/* Why the reader ended before the end of the file, keeping the records before ("FILE+OFF:
 * warning: truncated record ...; the records before it are kept": a blktrace cut in a record,
 * a gzip file cut inside its stream under skip_bad), or NULL. */
const char *trace_reader_warning(const struct trace_reader *r);

/* Malformed lines skipped so far under skip_bad. */
uint64_t trace_reader_nr_skipped(const struct trace_reader *r);

/* Reads and writes of 0 bytes passed over so far: they move no data and have no extent, so
 * no figure counts them and no replay issues them (blkparse "W 1008 + 0", an Alibaba length
 * of 0). empty_line is the line of the first (0 for binary formats). */
uint64_t trace_reader_nr_empty(const struct trace_reader *r, uint64_t *empty_line);

/* The reader's notes on stream (malformed lines skipped, reads and writes of 0 bytes passed
 * over, an early end), one "FILE[:LINE]: warning: ..." line each; nothing when there are none. */
void trace_reader_print_notes(const struct trace_reader *r, FILE *f);

/* Frees the reader; accepts NULL. */
void trace_reader_close(struct trace_reader *r);

/* ---- writer: fio iolog v3, ioramp's --record format ------------------------------------- */

/* Writes "fio version 3 iolog", then "TIME FILE add" and "TIME FILE open" per file, one line
 * "TIME FILE read|write|trim|sync OFFSET LENGTH" per I/O and "TIME FILE close" per file at
 * close. TIME is in microseconds since the start of the run, as fio writes and replays it
 * (fio's write_iolog uses utime_since_now(); read_iolog sleeps the microsecond difference
 * between consecutive lines). fio --read_iolog replays the result. Not for the I/O hot path:
 * it uses stdio (with a 1 MiB buffer). */
struct trace_writer;

/* Creates path (truncates). Returns 0 or -errno with *err filled. */
int trace_writer_open(struct trace_writer **out, const char *path, struct trace_err *err);

/* Declares a file or device at time_ns (relative to the run start) and writes its add and
 * open lines. Returns its index (0, 1, ...: what trace_writer_add() expects in rec->dev), or
 * -errno. A name must not contain blanks (fio splits lines on blanks): -EINVAL. */
int trace_writer_file(struct trace_writer *w, const char *name, uint64_t time_ns);

/* Writes one I/O; rec->time_ns is relative to the run start, rec->dev a file index from
 * trace_writer_file(). Returns 0 or -errno (-EINVAL for an unknown file index). */
int trace_writer_add(struct trace_writer *w, const struct trace_rec *rec);

/* Writes the close lines at the latest time written, flushes and frees the writer. Returns 0
 * or the first write error as -errno. Accepts NULL. */
int trace_writer_close(struct trace_writer *w);

/* ---- statistics ------------------------------------------------------------------------- */

enum {
	TRACE_NR_SIZE_BUCKETS = 32, /* bucket k counts sizes in [2^k, 2^(k+1)); 0 in bucket 0 */
	TRACE_NR_TOP_SIZES = 8,
	TRACE_NR_HOT = 5, /* hottest 1, 5, 10, 20, 25 % of the regions touched */
};

/* The hot-band percentages of trace_figs.hot_pct, in order. */
extern const unsigned int trace_hot_pcts[TRACE_NR_HOT];

struct trace_stat_opts {
	uint64_t region_bytes; /* hot-band granularity; default 1 MiB */
	uint64_t near_bytes;   /* "near" sequential tolerance; default 128 KiB */
	size_t max_extents;    /* per device in memory, more go to temporary files; default 1M */
	size_t max_regions;    /* per device, before regions are coarsened; default 4M */
	bool has_dev_filter;   /* keep only records of dev_filter */
	uint32_t dev_filter;
};

struct trace_size_count {
	uint32_t size_bytes;
	uint64_t nr;
};

/* Every figure of one device, or of the whole trace (is_total). Only reads and writes
 * ("data I/Os") enter the figures; flushes and discards are counted and otherwise ignored.
 * Definitions:
 * - sequential: a data I/O whose offset equals the end (offset + size) of the previous data
 *   I/O on the same device, whatever the ops; near: |offset - that end| <= near_bytes. The
 *   first I/O of a device counts as neither. seq_by_op is the same test against the previous
 *   I/O of the same op on the device (what the profile splits streams by).
 * - footprint: distinct bytes touched (union of [offset, offset + size)); footprint_4k_bytes:
 *   distinct 4 KiB blocks touched times 4096. Exact however many disjoint extents a device
 *   has (past max_extents they wait in temporary files); only when no temporary file can be
 *   made are extents rounded outward to a growing power-of-two grain (footprint_grain_bytes,
 *   is_footprint_exact false), which can only overstate, by less than a grain per extent.
 * - hot bands: I/Os are counted in the region_bytes region of their offset, per device;
 *   hot_pct[i] is the share of data I/Os in the ceil(trace_hot_pcts[i] % x nr_regions)
 *   busiest regions. Past max_regions regions the grain doubles (region_bytes grows).
 * - inter-arrival: gaps between consecutive data I/Os in trace order (a gap going back in
 *   time counts as 0 and is counted in nr_time_backwards); median from a log-linear
 *   histogram (16 steps per power of two, within 6 %). burstiness is Goh and Barabasi's
 *   B = (CV - 1) / (CV + 1): 0 for Poisson arrivals, towards 1 for bursts separated by idle
 *   gaps, -1 for a metronome. When every time is a whole second (is_time_whole_s) the gaps
 *   inside a second are unknown: median, CV and burstiness say nothing. peak_iops_1s is the busiest whole second (0 if under 1 s).
 * - latency: of the data I/Os whose record carries one (MSR, VSCSI, and blkparse or blktrace
 *   completions paired with their issue), completion minus issue: mean and maximum exact,
 *   percentiles from the same histogram as the gaps (within 6 %).
 * - MB/s uses MB = 10^6 bytes; mean sizes are in bytes. */
struct trace_figs {
	uint32_t dev;
	bool is_total;
	uint64_t nr_ios; /* reads + writes */
	uint64_t nr_by_op[TRACE_OP_NR];
	uint64_t bytes_by_op[TRACE_OP_NR];
	uint64_t first_ns, last_ns, duration_ns;
	double iops, mb_per_s;
	double read_pct, read_bytes_pct;
	double mean_size_bytes, mean_read_bytes, mean_write_bytes;
	uint64_t size_hist[TRACE_NR_SIZE_BUCKETS];
	struct trace_size_count top_sizes[TRACE_NR_TOP_SIZES];
	unsigned int nr_top_sizes;
	uint64_t nr_seq, nr_near, nr_seq_by_op[2];
	double seq_pct, near_pct, seq_read_pct, seq_write_pct;
	uint64_t footprint_bytes, footprint_4k_bytes, footprint_grain_bytes;
	bool is_footprint_exact;
	uint64_t max_end_bytes; /* highest offset + size seen: the span of the device */
	uint64_t region_bytes, nr_regions;
	double hot_pct[TRACE_NR_HOT];
	double ia_mean_ns, ia_median_ns, ia_cv, burstiness, peak_iops_1s;
	uint64_t nr_time_backwards;
	bool is_time_whole_s; /* every time a whole second (Tencent, vscsicsv): no sub-second gaps */
	uint64_t nr_latencies; /* data I/Os with a latency */
	double lat_mean_ns, lat_p50_ns, lat_p99_ns, lat_p999_ns;
	uint64_t lat_max_ns;
	uint64_t nr_other_sizes; /* I/Os whose size did not fit the exact size table */
};

struct trace_stat;

/* opts may be NULL for the defaults. Returns 0 with *out set, or -ENOMEM. */
int trace_stat_new(struct trace_stat **out, const struct trace_stat_opts *opts);

/* Accounts one record. Returns 0 or -ENOMEM. */
int trace_stat_add(struct trace_stat *s, const struct trace_rec *rec);

/* Devices seen, in order of first appearance. */
size_t trace_stat_nr_devs(const struct trace_stat *s);

/* Computes the figures of device dev_idx (< trace_stat_nr_devs()), or of the whole trace
 * when dev_idx is SIZE_MAX. May be called any time, again after more trace_stat_add() calls.
 * Returns 0, -ERANGE for a bad index, or -ENOMEM. */
int trace_stat_figs(struct trace_stat *s, size_t dev_idx, struct trace_figs *out);

/* Frees; accepts NULL. */
void trace_stat_free(struct trace_stat *s);

/* Reads every record of r into s. Returns the count of records, or the reader's -errno. */
int64_t trace_stat_read(struct trace_stat *s, struct trace_reader *r);

/* Writes "device 259,0" or "device 3" (or "total") into buf. */
void trace_figs_name(const struct trace_figs *f, bool is_majmin, char *buf, size_t len);

/* Prints the figures as the indented text block of "ioramp trace stat". */
void trace_figs_print(const struct trace_figs *f, bool is_majmin, FILE *out);

/* The figures as a jansson object (json_t *, returned as void * so this header needs no
 * jansson); NULL on -ENOMEM. The caller owns the reference. */
void *trace_figs_json(const struct trace_figs *f, bool is_majmin);

/* ---- fidelity: the figures a synthesized stream must reproduce of its trace ------------- */

/* Defined in man/ioramp.1 (FIDELITY FIGURES); reads and writes only:
 * - records; rate: records over the time from the first to the last record;
 * - read %; mean read size and mean write size (bytes);
 * - size mix: top sizes; two mixes differ by half the L1 distance of their size
 *   distributions, in points (exact sizes);
 * - sequential %: I/Os that start where one of the last 16 I/Os on their device ended;
 * - footprint: bytes in the union of the ranges touched, per device, summed (exact);
 * - hot 10 % share: I/Os in the ceil(10 %) busiest 1 MiB regions touched, over all devices;
 * - per-second CV: standard deviation over mean of the I/O counts of the whole seconds from
 *   the first record (n/a under two whole seconds). */
enum trace_fid_fig {
	TRACE_FID_RECORDS,
	TRACE_FID_RATE,
	TRACE_FID_READ_PCT,
	TRACE_FID_READ_SIZE,
	TRACE_FID_WRITE_SIZE,
	TRACE_FID_SIZE_MIX,
	TRACE_FID_SEQ_PCT,
	TRACE_FID_FOOTPRINT,
	TRACE_FID_HOT10,
	TRACE_FID_SEC_CV,
	TRACE_FID_NR,
};

enum {
	TRACE_FID_TOP_SIZES = 8,
};

struct trace_fid_figs {
	uint64_t nr_ios, nr_reads, nr_writes;
	size_t nr_devs;
	double duration_s, rate_iops, read_pct;
	double mean_read_bytes, mean_write_bytes;
	double sd_read_bytes, sd_write_bytes; /* standard deviations of the sizes */
	struct trace_size_count top_sizes[TRACE_FID_TOP_SIZES];
	unsigned int nr_top_sizes;
	double seq_pct;
	uint64_t footprint_bytes;
	bool is_footprint_exact;
	double hot10_pct;
	uint64_t nr_regions;
	bool is_region_folded; /* past 8M regions on a device they double (not exact then) */
	double sec_cv;
	bool has_sec_cv;
	uint64_t nr_seconds;
};

/* One row of a fidelity table: A (the trace) against B (synthesized, or a second trace). */
struct trace_fid_row {
	const char *name; /* "read %" */
	const char *key;  /* "read_pct" */
	double a, b;
	double difference; /* b - a in points, or (b - a) / a when is_relative */
	double tolerance;  /* points, or a fraction when is_relative */
	bool is_relative;
	bool is_distance; /* size mix: difference is a distance, a and b are 0 and it */
	bool is_judged;	  /* false: n/a (no whole seconds, no I/O of that op) */
	bool is_ok;	  /* within tolerance, or not judged */
	char a_text[64], b_text[64];
};

struct trace_fid;

/* Returns 0 with *out set (free with trace_fid_free()), or -ENOMEM. */
int trace_fid_new(struct trace_fid **out);

/* Accounts one record (flushes and discards are ignored). Returns 0, -ENOMEM or -EIO. */
int trace_fid_add(struct trace_fid *f, const struct trace_rec *rec);

/* Reads every record of r (of device dev only when has_dev). Returns the number of records
 * kept, or -errno (the reader's, or -ENOMEM). */
int64_t trace_fid_read(struct trace_fid *f, struct trace_reader *r, bool has_dev, uint32_t dev);

/* The figures so far. Returns 0, -ENOMEM or -EIO. */
int trace_fid_figs(struct trace_fid *f, struct trace_fid_figs *out);

/* Fills rows[TRACE_FID_NR] comparing a (the reference) with b, with the tolerances of the
 * fidelity targets: records and rate 2 %, read % 1 point, mean sizes 3 %, size mix 5 points,
 * sequential % 3 points, footprint 10 %, hot 10 % share 5 points, per-second CV 25 %.
 * Returns 0, -ENOMEM or -EIO. */
int trace_fid_compare(struct trace_fid *a, struct trace_fid *b, struct trace_fid_row *rows);

/* Whether every judged row is within its tolerance. */
bool trace_fid_rows_ok(const struct trace_fid_row *rows);

/* The table as text: figure, head_a, head_b, difference, tolerance, ok. */
void trace_fid_print(const struct trace_fid_row *rows, const char *head_a, const char *head_b,
		     FILE *out);

/* The rows as a jansson array (json_t *), values under key_a and key_b; NULL on -ENOMEM. */
void *trace_fid_json(const struct trace_fid_row *rows, const char *key_a, const char *key_b);

/* One device's I/Os, footprint and hot 10 % share (of its own regions). Returns 0 (zeros for
 * a device never seen), -ENOMEM or -EIO. */
int trace_fid_dev_space(struct trace_fid *f, uint32_t dev, uint64_t *nr_ios,
			uint64_t *footprint_bytes, double *hot10_pct);

void trace_fid_free(struct trace_fid *f);

/* ---- profile: a VDbench parameter file reproducing a trace ------------------------------ */

/* What to profile: the traces (several are taken as one workload, each from its own first
 * record, their devices kept apart), the reader options, one device only (has_dev), and the
 * most WDs per device (0: 64). */
struct trace_profile_cfg {
	const char *const *paths;
	size_t nr_paths;
	const struct trace_opts *opts; /* NULL: auto, auto, no skipping */
	bool has_dev;
	uint32_t dev;
	unsigned int max_wds;
};

/* A profile in the making (man/ioramp.1, TRACE PROFILES): reads the traces three times and
 * models every traced device as one SD ("sd=sd,count=(N,1),lun=$lun,size=...": run with
 * lun=/dev/nvme%dn1) with one random WD per op and class of 1 MiB regions (its own sizes,
 * range, seekpct and skew), one swept WD per long interleaved stream, and RDs giving every
 * second of the trace its rate with distribution=variable. Each device's regions are packed by a factor kappa, chosen by the
 * model so that the footprint and the hot 10 % share come out as traced; a caller that can
 * synthesize the profile may correct it (trace_profile_set_kappa()). Returns 0 with *out set
 * (free with trace_profile_free()), or -errno with *err filled by the failing reader
 * (-ENODATA when the traces hold no data I/O). */
struct trace_profile;
int trace_profile_new(struct trace_profile **out, const struct trace_profile_cfg *cfg,
		      struct trace_err *err);

/* The SDs (traced devices), in the order of the SD numbers. */
size_t trace_profile_nr_devs(const struct trace_profile *p);

/* What device dev (an SD number) must come out with: its I/Os, footprint, hot 10 % share. */
void trace_profile_dev_target(const struct trace_profile *p, size_t dev, uint64_t *nr_ios,
			      uint64_t *footprint_bytes, double *hot10_pct);

double trace_profile_kappa(const struct trace_profile *p, size_t dev);

/* Lays device dev out again with packing kappa (> 0), its seekpct values with it. */
void trace_profile_set_kappa(struct trace_profile *p, size_t dev, double kappa);

/* Writes the parameter file: plain VDbench 5.04.07, a comment before every SD and WD saying
 * which trace figures it stands for. Its SDs number the devices as the fidelity figures of
 * trace_profile_fid() do. */
void trace_profile_emit(struct trace_profile *p, FILE *out);

/* The traces' fidelity figures, devices numbered as the SDs, each file on its own clock;
 * owned by p. */
struct trace_fid *trace_profile_fid(struct trace_profile *p);

/* The readers' warnings (malformed lines skipped, early ends), one line each; "" if none. */
const char *trace_profile_warnings(const struct trace_profile *p);

/* Seconds from the first record to the last (each file from its own first). */
double trace_profile_duration_s(const struct trace_profile *p);

/* Accepts NULL. */
void trace_profile_free(struct trace_profile *p);

/* trace_profile_new(), then trace_profile_emit() with the model's own packing. */
int trace_profile_write(const struct trace_profile_cfg *cfg, FILE *out, struct trace_err *err);

#endif /* IORAMP_TRACE_H */
