/* Private to src/fs: the anchor tree's names, the shared file states and the counters. */
#ifndef IORAMP_FS_INT_H
#define IORAMP_FS_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "ioramp/fs.h"
#include "ioramp/report.h"
#include "ioramp/stats.h"

/* Per-operation counts of one interval (or a run's total): done, response time sum/sq/max. */
struct fs_opstat {
	uint64_t n;
	double resp_sum_ms;
	double resp_sq_ms;
	double resp_max_ms;
};

/* VDbench's "Miscellaneous statistics" counters, in the order it prints them (observed on 5.04.07
 * over 60 runs: READ_OPENS before WRITE_OPENS, the deletes after DIRECTORY_CREATES and before
 * WRITE_OPENS; then the attempts that found nothing to do, in name order with FILE_BUSY and
 * GET_ATTR among them; FILE_CLOSES last). */
enum fs_misc {
	FS_MISC_FILE_CREATES,
	FS_MISC_DIRECTORY_CREATES,
	FS_MISC_FILE_DELETES,
	FS_MISC_DIRECTORY_DELETES,
	FS_MISC_READ_OPENS,
	FS_MISC_WRITE_OPENS,
	FS_MISC_DIR_BUSY_MKDIR,	     /* mkdir found the directory made meanwhile (EEXIST) */
	FS_MISC_DIR_DOES_NOT_EXIST,  /* rmdir found no directory to remove */
	FS_MISC_DIR_EXISTS,	     /* mkdir found every directory there */
	FS_MISC_DIR_STILL_HAS_CHILD, /* rmdir found only directories holding directories */
	FS_MISC_DIR_STILL_HAS_FILES, /* rmdir found only directories holding files */
	FS_MISC_FILE_BUSY,
	FS_MISC_FILE_MAY_NOT_EXIST, /* a create found its file there while a delete runs */
	FS_MISC_FILE_MUST_EXIST,    /* an operation on a file found none there */
	FS_MISC_GET_ATTR,
	FS_MISC_MISSING_PARENT, /* mkdir, create or write found only places without a parent */
	FS_MISC_FILE_CLOSES,
	FS_MISC_NR,
};

struct fs_stats {
	struct fs_opstat op[FS_OP_NR];
	struct fs_opstat reqstd; /* the requested operations (each FWD's operation) */
	uint64_t read_bytes;
	uint64_t write_bytes;
	uint64_t misc[FS_MISC_NR];
};

void fs_stats_add(struct fs_stats *to, const struct fs_stats *from);
void fs_opstat_note(struct fs_opstat *s, double ms);
/* Whether any Miscellaneous statistics counter is not zero. */
bool fs_misc_any(const struct fs_stats *s);
/* One operation op that was due at due_ns (its arrival; 0: not paced), issued at issue_ns and
 * done at now_ns, into st; a requested one also into lat (response: from when it was due) and
 * svc (service: from its issue). st's means are service times, as VDbench's resp columns
 * (reference 9.10): a late arrival's wait is in lat alone. */
void fs_stats_note(struct fs_stats *st, struct stats_hist *lat, struct stats_hist *svc,
		   enum fs_op op, bool is_reqstd, const uint64_t times_ns[3]);

/* The FWDs' skew control (skew.c): per FWD of a run, the operations its threads started,
 * how many of its threads still run, and its share of the run's operations (0: none). */
struct fs_skew_fwd {
	atomic_uint_fast64_t nr_ops;
	atomic_uint nr_live;
	double share;
};

struct fs_skew {
	struct fs_skew_fwd *fwds;
	size_t nr;
};

/* FWD i's fraction of run r's operations: skew= where given, the rest evenly over the
 * others. */
double fs_fwd_share(const struct fs_run *r, size_t i);
/* Whether some FWD of r has skew= (VDbench then reports requested against observed). */
bool fs_run_has_skew(const struct fs_run *r);

/* shares[0..nr): each FWD's fraction of the operations. Returns 0 or -1 (out of memory). */
int fs_skew_init(struct fs_skew *k, const double *shares, size_t nr);
void fs_skew_fini(struct fs_skew *k);
/* A thread of FWD i starts (before its thread runs) or ends, or it finds nothing to work on
 * (not merely busy) for now: the others do not wait for a FWD none of whose threads runs. */
void fs_skew_join(struct fs_skew *k, size_t i);
void fs_skew_leave(struct fs_skew *k, size_t i);
/* Whether FWD i started more than its share of the operations of the FWDs whose threads
 * still run (by more than a few). */
bool fs_skew_is_ahead(const struct fs_skew *k, size_t i);
/* Before a thread of FWD i picks a file or directory (holding none): waits while the FWD is
 * ahead, or until stop. */
void fs_skew_wait(struct fs_skew *k, size_t i, const atomic_bool *stop);
/* Before each of FWD i's requested operations: waits while it is ahead, at most max_wait_ns
 * (0: not at all), then counts the operation and returns true; false (not counted) when it is
 * still ahead: the thread then lets its file go, which the FWDs behind may be waiting for. */
bool fs_skew_take(struct fs_skew *k, size_t i, const atomic_bool *stop, uint64_t max_wait_ns);

/* One anchor's tree as the engine sees it: the layout and what exists now. */
struct fs_tree {
	const struct parm_fsd *fsd; /* as run: depth=0 is depth=1 (as_run) */
	struct parm_fsd as_run;	    /* depth=0: VDbench 5.04.07 lays out width= directories */
	int32_t depth_written;	    /* depth= as written, for vdb_control.file */
	uint64_t nr_dirs;
	uint64_t nr_leaves;
	uint64_t nr_files;
	pthread_mutex_t lock;
	unsigned char *file_state;  /* FS_FILE_* per file */
	unsigned char *dir_state;   /* 1: exists, per directory (breadth order) */
	unsigned char *file_opened; /* 1: opened (read, written, created) in this run */
	unsigned char *file_once;   /* 1: taken by a fileselect=once FWD in this run; under lock */
};

enum {
	FS_FILE_NONE,
	FS_FILE_EMPTY,
	FS_FILE_FULL,
	FS_FILE_BUSY = 0x80
};

int fs_tree_init(struct fs_tree *t, const struct parm_fsd *fsd);
void fs_tree_fini(struct fs_tree *t);
/* Path of directory d (0-based over every level, level 1 first) and of file f. */
/* Directory d's parent directory, -1 for one of level 1. */
int64_t fs_tree_dir_parent(const struct fs_tree *t, uint64_t d);
/* Whether directory d holds no directory and no file that exists now (rmdir can remove it);
 * under t->lock. */
bool fs_tree_dir_is_empty(const struct fs_tree *t, uint64_t d);
/* Whether directory d holds a directory of the next level. */
bool fs_tree_dir_has_child(const struct fs_tree *t, uint64_t d);
void fs_tree_dir_path(const struct fs_tree *t, uint64_t d, char *buf, size_t len);
void fs_tree_file_path(const struct fs_tree *t, uint64_t f, char *buf, size_t len);
/* The directory (index as above) that holds file f. */
uint64_t fs_tree_file_dir(const struct fs_tree *t, uint64_t f);

/* The format's threads on each anchor, as VDbench's (observed: "Started 8 threads for
 * fwd=format,fsd=F" whatever the FWDs' threads=). */
#define FS_FORMAT_THREADS 8

/* The format pass: cleans what ioramp created under the anchor, then mkdir, create and write
 * every file; format=clean only cleans. Its notices go to con (the console; stdout: NULL). Counts into *st under lock (the run's main thread
 * reads it each interval); the writes are the requested operations. Returns 0, -EINTR when *stop was
 * set (the files written so far stay full; format=restart goes on from there) or -errno
 * (message printed). */
int fs_format(struct fs_tree *t, unsigned int format, struct fs_stats *st, pthread_mutex_t *lock,
	      struct stats_hist *lat, struct stats_hist *svc, FILE *con,
	      const volatile sig_atomic_t *stop);
/* Creates the anchor when it does not exist and its parent does ("Created anchor directory"
 * on con, stdout when NULL); is_quiet: no error message (the format says it later). */
int fs_make_anchor(const char *anchor, FILE *con, bool is_quiet);
/* "Created totalsize=... using N of M files for anchor=..." before each run, as VDbench. */
void fs_totalsize_say(const struct fs_tree *t, FILE *con);
/* Reads an existing tree's state from the disk (format=no). */
void fs_tree_scan(struct fs_tree *t);
/* format=(no,complete): every directory and file as the format makes them (files up to
 * totalsize=), without looking. */
void fs_tree_assume_complete(struct fs_tree *t);
/* The files the format makes: in[f] = 1 for each (all of them without totalsize=; with it
 * the files VDbench picks, in its order, until they reach the total); *nr_in how many. */
int fs_tree_totalsize_files(const struct fs_tree *t, unsigned char *in, uint64_t *nr_in);
/* Writes vdb_control.file into the anchor (control.c), as VDbench writes it. */
void fs_tree_write_control(const struct fs_tree *t);
/* Its text for when (Java's Date text) and pid, to f: VDbench reads it on format=no and
 * aborts on a file without its checksum. Returns 0 or -errno. */
int fs_control_print(FILE *f, const struct fs_tree *t, const char *when, int pid);

/* anchors.html (anchors.c): opened with the plan's run list, one block per run. */
/* results.json (json.c), streamed run by run. */
/* A run's point on its curve, for results.json's "curves" (the runs' index in "runs"). */
struct fs_json_point {
	size_t run;
	char *name;
	double pct;	    /* NaN for the max run */
	double target_iops; /* NaN for the max run */
	double iops;
	double mbs;
	double resp_ms;
	bool is_target_met;
	enum rep_limit limited_by;
};

struct fs_json_curve {
	char *rd;
	char *for_loops;
	struct fs_json_point max;
	struct fs_json_point *points;
	size_t nr_points;
};

struct fs_json {
	FILE *f;
	char path[4200]; /* removed again when it cannot be written whole */
	size_t nr_runs;
	size_t nr_iv;
	/* the run being written: how its rate was chosen, its target */
	enum plan_rate rate_kind;
	double pct, target;
	const char *name;
	struct fs_json_curve *curves; /* fwdrate=curve: each max run and its points */
	size_t nr_curves;
};

int fs_json_open(struct fs_json *j, const char *dir);
void fs_json_run_start(struct fs_json *j, const struct fs_run *r, double rate);
void fs_json_interval(struct fs_json *j, const struct fs_stats *s, double secs);
/* The average (NULL: none, "average": null), then whether the run met its target within 2%
 * back (fs_run_validity), as raw runs have them. */
void fs_json_run_end(struct fs_json *j, const struct fs_stats *total, double secs,
		     bool is_interrupted, bool is_target_met, enum rep_limit limited_by);
int fs_json_close(struct fs_json *j, int status);

/* A run's validity as raw runs judge it (curves.c): met when iops reached 98% of target
 * (NaN or 0: no target); missed, limited by the generator when ioramp's CPU time was near
 * all the cores its threads could use, else by the file system ("device"). */
void fs_run_validity(const struct fs_run *r, double iops, double target, double cpu_pct,
		     bool *is_met, enum rep_limit *limited_by);

/* The views of an execution (views.c): the total, each FSD's and each FWD's page and
 * histogram ("format" is the FWD of the format runs). */
enum fs_view_kind {
	FS_VIEW_TOTAL,
	FS_VIEW_FSD,
	FS_VIEW_FWD,
};

struct fs_view {
	enum fs_view_kind kind;
	const char *name;
	FILE *page;	       /* <name>.html; the total's: summary.html (the console besides) */
	FILE *histf;	       /* <name>.histogram.html, histogram.html */
	struct fs_stats iv;    /* this interval, filled by the run */
	struct fs_stats avg;   /* the counted intervals */
	struct fs_stats all;   /* every interval (Miscellaneous statistics) */
	struct fs_stats *hist; /* the counted intervals, for std and max */
	size_t nr_hist, cap_hist;
	struct stats_hist *lat; /* requested operations of the counted intervals: response */
	struct stats_hist *svc; /* and service times */
};

struct fs_views {
	struct fs_view *views; /* [0]: the total */
	/* localhost.html and localhost-0.html: the total's run blocks as summary.html has them
	 * (NULL: none) */
	FILE *mirror[2];
	size_t nr;
	unsigned int cols; /* console columns (fs_console_cols) */
	struct stats_vdb_buckets buckets;
	const struct fs_run *run;
	size_t run_idx;
	char start_tod[16];
	char start_text[1200];
};

int fs_views_open(struct fs_views *v, const char *dir, const struct fs_plan *p);
size_t fs_views_fsd(const struct fs_views *v, const char *fsd_name);
/* NULL: the format runs' view */
size_t fs_views_fwd(const struct fs_views *v, const char *fwd_name);
/* Anchor and heading on every page; the accumulators emptied. */
void fs_views_run_start(struct fs_views *v, const struct fs_run *r, size_t run_idx, const char *tod,
			const char *text);
/* Each view's iv as one line (the total's on con), then counted or not. */
void fs_views_interval(struct fs_views *v, FILE *con, const char *label, double secs, double cpu,
		       double sys, bool is_counted);
/* avg, std and max lines (label "avg_2-3"), each histogram's section. */
void fs_views_run_end(struct fs_views *v, FILE *con, const char *label, double cpu, double sys);
int fs_views_close(struct fs_views *v);

/* One FWD's skew in a run's average (skew.c): requested and observed share of the requested
 * operations, in percent. */
struct fs_skew_row {
	size_t view; /* its FWD view */
	const char *name;
	double ops_per_sec;
	double requested_pct;
	double actual_pct;
};

/* rows (r->nr_fwds at most): one per FWD view, in r's order. Returns how many. */
size_t fs_skew_observed(const struct fs_run *r, const struct fs_views *v, struct fs_skew_row *rows);
/* abort_failed_skew=N after a work run with skew= given: a FWD whose observed share is off
 * its requested by more than N points ends the execution, as VDbench ends it (its words on
 * con, where and why on stderr). Returns 0, -ECANCELED (ended) or -ENOMEM. */
int fs_skew_abort(const struct fs_run *r, const struct fs_views *v, const struct parm_config *cfg,
		  FILE *con);

/* The curves of the execution (curves.c). */
struct fs_curves {
	struct rep_fs_curve *curves;
	size_t nr;
};

/* Keeps a curve run's figures (the total view's average and histograms); other runs: none.
 * target: the point's rate; cpu_pct: ioramp's CPU use over the counted intervals. */
int fs_curves_run_end(struct fs_curves *cs, const struct fs_run *r, const struct fs_views *v,
		      double target, double cpu_pct);
/* curves.csv, report.html in outdir and each curve's block on stdout. */
int fs_curves_write(const struct fs_curves *cs, const char *outdir, int status);
void fs_curves_free(struct fs_curves *cs);

/* The output directory of an fs run (outdir.c): con tees to stdout, summary and logfile. */
/* swat.c: swat_mon.bin, VDbench's figures for its Swat tool (one record per interval). */
struct fs_swat {
	FILE *f;
	bool has_names; /* the class's column names are written (once, before the first data) */
};

/* Creates dir/swat_mon.bin with its header; returns 0 or -errno. */
int fs_swat_open(struct fs_swat *s, const char *dir);
/* One interval of secs seconds (not an average). */
void fs_swat_interval(struct fs_swat *sw, const struct fs_run *r, const struct fs_stats *s,
		      double secs, uint64_t xfer_bytes);
/* Closes it; returns 0 or -EIO when something was not written. Accepts a closed one. */
int fs_swat_close(struct fs_swat *s);

struct fs_out {
	char dir[4096];
	FILE *con;
	FILE *summary;
	FILE *logfile;
	FILE *totals;
	struct fs_json json;
	FILE *flat;
	struct fs_swat swat; /* swat_mon.bin */
	struct fs_views views;
	bool has_totals_header;
	bool has_logfile_links;
	uint64_t slave_start_ns; /* the slave's name stamp, once said (fs_out_console_slaves) */
	/* the rest of VDbench's directory (vdbfiles.c) */
	const struct fs_plan *plan;
	FILE *status;	/* status.html */
	FILE *host;	/* localhost.html */
	FILE *slave;	/* localhost-0.html */
	FILE *slavelog; /* localhost-0.stdout.html */
	FILE *skew;	/* skew.html */
};

/* slavelog.c: localhost-0.stdout.html's lines. A line stamped twice (master and slave
 * clock, as VDbench's), a blank stamped once, the banner ("End of run" and its stars). */
void fs_slave_line(FILE *f, const char *fmt, ...) IORAMP_PRINTF(2, 3);
void fs_slave_blank(FILE *f);
void fs_slave_banner(FILE *f, const char *text);
/* The threads a run starts: its FWDs' threads_per_fsd on each FSD; a format's
 * FS_FORMAT_THREADS on each. */
uint32_t fs_run_threads(const struct fs_run *r);
/* Before the run's threads start: each FSD's initializeFileAnchor block (its tree as scanned). */
void fs_slave_setup(FILE *f, const struct fs_run *r, const struct fs_tree *trees);
/* After the run's start line: its task count. */
void fs_slave_tasks(FILE *f, const struct fs_run *r);
/* After the run: a format's messages, the Miscellaneous statistics (all: the whole run's),
 * each FSD's control file line. */
void fs_slave_end(FILE *f, const struct fs_run *r, const struct fs_tree *trees,
		  const struct fs_stats *all);

/* VDbench's "Link to Run Definitions:" block of the plan's runs (outdir.c; the format's
 * for-loops are "None"). */
void fs_run_links(FILE *f, const struct fs_plan *p);

/* vdbfiles.c: errorlog, status, parmscan, config, var_adm_msgs, the host and slave pages, the
 * slave log and skew.html; open after the summary (the host pages mirror its run blocks). */
int fs_vdbfiles_open(struct fs_out *o, const struct fs_plan *p);
/* A run's start: status.html's event, the slave log's set-up (trees: as scanned before the
 * run), skew.html's anchor. */
void fs_vdbfiles_run_start(struct fs_out *o, size_t run_idx, const struct fs_run *r,
			   const struct fs_tree *trees, const char *tod, const char *text);
/* After interval iv (1-based) of r: status.html's "Warmup done" after the last excluded. */
void fs_vdbfiles_interval(struct fs_out *o, const struct fs_run *r, uint64_t iv);
/* After r's average: status events, the slave log's end (trees and all: the run's trees and
 * counts), skew.html's tables. */
void fs_vdbfiles_run_end(struct fs_out *o, const struct fs_run *r, const struct fs_tree *trees,
			 const struct fs_stats *all);
int fs_vdbfiles_close(struct fs_out *o, int status);

/* A run's start: "Starting RD=..." on the console, its anchor in logfile.html. */
void fs_out_run_start(struct fs_out *o, size_t run_idx, const struct fs_run *r,
		      const struct fs_tree *trees, const char *tod, const char *text);
/* totals.html's block of a run: its anchor, the heading once, the avg line. */
void fs_out_totals(struct fs_out *o, const char *label, double secs, double cpu, double sys);

/* flatfile.html (flat.c): hist/nr are the counted intervals of an average row, else NULL. */
FILE *fs_flat_open(const char *dir);
/* The transfer size a row shows: the first FWD's xfersize= (0 for a range), a format's mean
 * transfer. */
uint64_t fs_flat_xfer(const struct fs_run *r, const struct fs_stats *s);

void fs_flat_row(FILE *f, const struct fs_run *r, const char *label, double reqrate,
		 const struct fs_stats *s, double secs, double cpu, double cpu_sys,
		 const struct fs_stats *hist, size_t nr);

int fs_out_open(struct fs_out *o, const char *spec, const struct fs_plan *p, int argc,
		char *const *argv);
/* logfile.html: the run links once, before the first run's notices; each run's setup lines
 * (one per FWD and FSD), before its notices. */
void fs_out_logfile_links(struct fs_out *o);
/* VDbench's slave started, on the console: after the anchors' sizes, before any anchor is
 * made (observed), "Starting slave: ..." and "All slaves are now connected". */
void fs_out_console_slaves(struct fs_out *o);
void fs_out_logfile_setup(struct fs_out *o, const struct fs_run *r);
int fs_out_close(struct fs_out *o, int status);

FILE *fs_anchors_open(const char *outdir, const struct fs_plan *p);
/* The anchor column's width: the longest anchor and four blanks (observed). */
int fs_anchors_width(const struct parm_fs *fs);
/* Each tree's line: defined size, totalsize= part, working set, existing, opened. */
void fs_anchors_status(FILE *f, int width, const struct fs_tree *trees, size_t nr);
/* A run's block, at its end: its anchor, then its trees' status. */
/* The order VDbench lists a run's anchors in (anchors.html's run blocks, "Created anchor
 * directory"): a Java HashMap of 16 buckets keyed by each anchor as written (observed with
 * VDbench 5.04.07 on absolute anchors: seven and six anchors in one run, every position as
 * the hash puts it; a trailing '/' on the key puts them elsewhere). A malloc'ed array of
 * indexes into fsds, or NULL. */
size_t *fs_anchor_order(const struct parm_fsd *fsds, size_t nr);
void fs_anchors_run(FILE *f, int width, size_t run_idx, const struct fs_run *r, const char *tod,
		    const char *text, const struct fs_tree *trees);
void fs_anchors_close(FILE *f);

/* The console lines (VDbench's file-system layout). cols: the metadata operations that get
 * columns (bit 1 << enum fs_op): those the execution can do, as VDbench shows them. */
enum {
	FS_COLS_REQSTD_STD = 1u << 31, /* the std and max lines show ReqstdOps */
};
unsigned int fs_console_cols(const struct fs_plan *p);
/* cols for run r: FS_COLS_REQSTD_STD when its FWDs request one operation. */
unsigned int fs_console_run_cols(unsigned int cols, const struct fs_run *r);
void fs_console_header(FILE *f, unsigned int cols);
/* The same without the blank line above it. */
void fs_console_header_lines(FILE *f, unsigned int cols);
/* secs 0: an average over no interval, its rates NaN as VDbench prints them. */
void fs_console_line(FILE *f, unsigned int cols, const char *label, const struct fs_stats *s,
		     double secs, double cpu_total, double cpu_sys);
/* The std_ and max_ lines over the counted intervals iv[0..nr) (each secs long); the max
 * line's responses over the whole run, all. */
void fs_console_stdmax(FILE *f, unsigned int cols, const char *range, const struct fs_stats *iv,
		       const struct fs_stats *all, size_t nr, double secs);
void fs_console_misc(FILE *f, const struct fs_stats *s, double secs);
/* VDbench's boxes after a work run's average lines, on the console (and logfile.html) and
 * summary.html (rep_fs_run_warnings): with skew= given, the last FWD more than a point off
 * its share (VDbench named fwd2 of two at -1.17 and +1.17, fwd1 of two at -1.11 and +1.11:
 * its choice is not known); the machine's CPU, mcpu; the rate of requested operations over
 * csecs. */
void fs_console_warnings(struct fs_out *out, const struct fs_run *r, const struct fs_views *v,
			 double csecs, double mcpu);
/* Counter i's line of that block into buf, thousands with commas as VDbench's; secs > 0 adds
 * the per-second column (the console's; the slave log has none). false: the counter is 0,
 * not printed. */
bool fs_misc_line(const struct fs_stats *s, int i, double secs, char *buf, size_t len);

#endif /* IORAMP_FS_INT_H */
