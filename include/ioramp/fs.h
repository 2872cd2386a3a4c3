/* File-system mode (VDbench fsd=/fwd=): the typed definitions the parameter reader fills
 * (src/parm/fsd*.c), the runs the planner makes of them (src/plan/fwd*.c) and the engine that
 * lays out anchor trees and runs the operations on them (src/fs/). */
#ifndef IORAMP_FS_H
#define IORAMP_FS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/parm.h"
#include "ioramp/plan.h"

/* The operations of operation=, in the order VDbench's console shows their columns after
 * read and write (mkdir rmdir create open close delete), then the rest. */
enum fs_op {
	FS_OP_READ,
	FS_OP_WRITE,
	FS_OP_MKDIR,
	FS_OP_RMDIR,
	FS_OP_CREATE,
	FS_OP_OPEN,
	FS_OP_CLOSE,
	FS_OP_DELETE,
	FS_OP_GETATTR,
	FS_OP_SETATTR,
	FS_OP_ACCESS,
	FS_OP_COPY,
	FS_OP_MOVE,
	FS_OP_NR,
};

/* VDbench's name of an operation ("read", "getattr"). */
const char *fs_op_name(enum fs_op op);
/* The operation a word names (any case), or -ENOENT. */
int fs_op_lookup(const char *word);

/* fsd=: an anchor and the tree under it. */
struct parm_fsd {
	char *name;
	struct parm_loc loc;
	char *anchor;
	struct parm_loc anchor_loc;
	uint32_t depth;
	/* depth= below zero as written (depth is 0 then): laid out as depth=0, counted no files
	 * by -s, written in vdb_control.file (VDbench 5.04.07, observed); 0: not below zero */
	int32_t depth_negative;
	uint32_t width;
	uint32_t files;
	struct parm_xfer sizes; /* FIXED or DIST (size,pct,...) */
	bool is_dist_all;	/* distribution=all: files in every directory */
	struct parm_openflags openflags;
	/* openflags= VDbench's -s takes and its run refuses (fs_plan_check_run): the error
	 * kept for then; NULL: none */
	struct parm_err *openflags_err;
	bool is_shared;
	uint64_t totalsize_bytes; /* 0: every file */
	struct parm_loc totalsize_loc;
	uint64_t workingsetsize_bytes; /* 0: not given; checked against the tree only */
	struct parm_loc workingsetsize_loc;
};

/* fwd=: one operation on some FSDs. */
struct parm_fwd {
	char *name;
	struct parm_loc loc;
	size_t *fsd_idx;
	size_t nr_fsd;
	enum fs_op op;	     /* default read */
	bool is_random;	     /* fileio=random (default sequential) */
	bool is_shared_io;   /* fileio=(random,shared) */
	bool is_seq_delete;  /* fileio=(sequential,delete) */
	bool is_select_seq;  /* fileselect=sequential (the default) */
	bool is_select_once; /* fileselect=(x,once): each file once a run, then the FWD ends */
	/* fileselect=(poisson,n): VDbench's -s takes it; fs_plan_check_run refuses to run it,
	 * its selection not being known */
	bool is_select_poisson;
	struct parm_loc fileselect_loc;
	struct parm_xfer xfer; /* default 4k; xfersize=0 is refused by fs_plan_check_run */
	struct parm_loc xfersize_loc;
	int32_t threads; /* default 1; 0 or less runs one (VDbench 5.04.07) */
	/* a run's copy: the threads each of its FSDs gets, VDbench's split of threads= over
	 * the FSDs and operations= (fs_plan_build); 0 in the configuration */
	uint32_t threads_per_fsd;
	double skew; /* 0: not given; outside 0..100 refused by fs_plan_check_run */
	struct parm_loc skew_loc;
	double rdpct;		   /* -1: not given (pure op) */
	struct parm_loc rdpct_loc; /* where rdpct= was written, if it was */
	uint64_t stopafter;	   /* random I/O: ops per open; 0: size/xfer */
	double stopafter_pct; /* stopafter=N%: until N% of the file's size moved; 0: not given */
	struct parm_openflags openflags;
	struct parm_err *openflags_err; /* as parm_fsd's */
};

/* format= of an RD, as bits. */
enum {
	FS_FMT_YES = 1 << 0,
	FS_FMT_ONLY = 1 << 1,
	FS_FMT_RESTART = 1 << 2,
	FS_FMT_CLEAN = 1 << 3,
	FS_FMT_ONCE = 1 << 4,
	FS_FMT_DIRS = 1 << 5,
	FS_FMT_LIMITED = 1 << 6,
	FS_FMT_COMPLETE = 1 << 7,
};

/* One for-loop of an fs RD, in the order written. */
enum fs_loop_kind {
	FS_LOOP_XFERSIZE,
	FS_LOOP_THREADS,
	FS_LOOP_RDPCT,
	FS_LOOP_OPERATION,
	FS_LOOP_DEPTH,
	FS_LOOP_WIDTH,
	FS_LOOP_FILES,
	FS_LOOP_SIZES,
	FS_LOOP_TOTAL,
};

struct parm_fs_loop {
	enum fs_loop_kind kind;
	size_t nr;
	double *vals; /* OPERATION: enum fs_op */
};

struct parm_frd {
	char *name;
	struct parm_loc loc;
	size_t *fwd_idx;
	size_t nr_fwd;
	struct parm_rate *rates; /* fwdrate=: FIXED, MAX or CURVE; default max... as VDbench */
	size_t nr_rates;
	bool has_rate;
	unsigned int format; /* FS_FMT_* (0: no) */
	int *ops;	     /* operations=: overrides every FWD's operation; NULL: none */
	size_t nr_ops;
	struct parm_loc ops_loc;
	double *curve_pcts;
	size_t nr_curve_pcts;
	int64_t elapsed_s;
	int64_t interval_s;
	int64_t warmup_s;
	int64_t pause_s;
	bool has_warmup;
	bool is_interval_auto; /* interval=0: min(elapsed/2, 60), with VDbench's notice */
	struct parm_fs_loop *loops;
	size_t nr_loops;
};

struct parm_fs {
	struct parm_fsd *fsds;
	size_t nr_fsds;
	struct parm_fwd *fwds;
	size_t nr_fwds;
	struct parm_frd *rds;
	size_t nr_rds;
	void *raw; /* the definitions as written, until parm_fs_finish() */
};

/* ---- reading (src/parm/fsd.c, fsd_apply.c) ---- */

/* Whether key starts file-system mode (fsd= or fwd=). */
bool parm_fs_starts(const char *key);

/* One lexed item of the file-system part of the files (from the first fsd= or fwd= on). */
struct parm_item;
int parm_fs_take(struct parm_config *cfg, const struct parm_item *it, struct parm_err *err);

/* Types every fs definition once all are read. Returns 0 or -EINVAL with *err. */
int parm_fs_finish(struct parm_config *cfg, struct parm_err *err);
void parm_fs_free(struct parm_fs *fs);

/* ---- planning (src/plan/fwd_plan.c, fwd_list.c) ---- */

enum fs_run_kind {
	FS_RUN_FORMAT, /* format_for_rdN */
	FS_RUN_WORK,
};

/* One run of the plan; the loop values it uses are resolved into copies of the FSDs/FWDs. */
struct fs_run {
	enum fs_run_kind kind;
	size_t rd_idx;
	char *name;	     /* "format_for_rd1", "rd1", "rd1_(10%)" */
	enum plan_rate rate; /* FIXED, MAX, CURVE_MAX, CURVE_POINT */
	double rate_ops;
	double rate_shown; /* FIXED: fwdrate= as listed; -N for fwdrate=-N or N%, run at N * 100
			    * operations a second (VDbench 5.04.07: -1 ran 118, -5 ran 500, -100
			    * ran 9,942 of a max of 35,137, observed) */
	double pct;
	int base_run;
	unsigned int format; /* FORMAT: the RD's format= bits */
	uint64_t elapsed_s;
	uint64_t interval_s;
	uint64_t warmup_s;
	char *for_loops; /* "None" or "fwdrate=100 xfersize=4k" */
	/* the run's copies, loop values applied */
	struct parm_fsd *fsds; /* every FSD the run's FWDs use, in config order */
	size_t nr_fsds;
	struct parm_fwd *fwds; /* one per (FWD, operation): operations= splits a FWD */
	size_t nr_fwds;	       /* fwds[i].fsd_idx index fsds */
};

struct fs_plan {
	struct fs_run *runs;
	size_t nr_runs;
	const struct parm_config *cfg;
};

/* Expands cfg->fs into runs as VDbench orders them: for each fwdrate (outermost), each loop
 * value in the order written; a format run before each work run when format= asks (once:
 * only before the first), curves as a max run and one run per point. */
int fs_plan_build(const struct parm_config *cfg, struct fs_plan **out, struct parm_err *err);
void fs_plan_free(struct fs_plan *p);
/* Before anything is written: each FSD's anchor= is a directory, or a new name inside an
 * existing one (the safety rule: ioramp creates an anchor, never its parents); else a
 * located error. */
int fs_plan_check_anchors(const struct fs_plan *p, struct parm_err *err);
/* Before anything is written, what VDbench 5.04.07's -s lists and its run refuses (so -s
 * here takes it too): FWDs' skew= that does not add up to 100, width=0 (no files),
 * xfersize=0 on a read or write, an unknown openflags=. 0 or a located -EINVAL. */
int fs_plan_check_run(const struct fs_plan *p, struct parm_err *err);
/* VDbench's note for each RD's FWD whose threads= does not split evenly over its FSDs and
 * operations (fs_fwd_threads_split), the explanation after the first (observed: threads=3
 * and threads=5 on two FSDs): at -s and before the runs, as VDbench prints it; before them
 * the "'interval=' not specified" line of each RD with interval=0. */
void fs_thread_notes(FILE *f, const struct fs_plan *p);
/* Whether a run's FWD copy works on the run's FSD fsd (an index of its fsds). */
bool fs_fwd_on_fsd(const struct parm_fwd *w, size_t fsd);
/* false when run r's FWD copy i repeats an earlier copy's FWD (operations=); else its
 * threads= in *requested and the threads all its copies start (threads_per_fsd on each
 * FSD) in *used: they differ where VDbench notes "Mismatch between threads requested". */
bool fs_fwd_threads_split(const struct fs_run *r, size_t i, int32_t *requested, uint32_t *used);

/* The -s listing: "Anchor size:" per anchor, "Simulating RD=" per run, the total. */
int fs_plan_print_simulation(const struct fs_plan *p, FILE *f);

/* The tree of one FSD: its counts and the bytes its files take. */
struct fs_tree_size {
	uint64_t dirs;
	uint64_t files;
	uint64_t bytes;
};
void fs_tree_size(const struct parm_fsd *fsd, struct fs_tree_size *out);

/* The size of file number file_no (0-based, VDbench's numbering) of fsd: sizes= as VDbench
 * 5.04.07 assigns them (its (file_no+1)-th draw of java.util.Random(0).nextInt(100) against
 * the percentages in order), the same on every run. */
uint64_t fs_file_size(const struct parm_fsd *fsd, uint64_t file_no);

/* The "Anchor size:" line after the time of day. */
void fs_anchor_size_line(const struct parm_fsd *fsd, char *buf, size_t len);
/* With two FSDs defined or more (nr_defined), "Estimated totals for all N anchors: ..." of
 * the nr given (true), else false: VDbench 5.04.07 counts every FSD and adds up those its RDs
 * use (observed: "for all 2 anchors" with one anchor's figures). */
bool fs_anchor_totals_line(const struct parm_fsd *const *fsds, size_t nr, size_t nr_defined,
			   char *buf, size_t len);
/* The "Anchor size:" line of each FSD an RD uses, with the values of its first run, then the
 * totals line: VDbench 5.04.07 lists no FSD that no RD uses (observed). 0 or -ENOMEM. */
int fs_anchor_lines(const struct fs_plan *p, FILE *f);

/* ---- running (src/fs/) ---- */

struct fs_exec_opts {
	const char *outdir;
	uint64_t seed;
	/* the command line, for logfile.html's "input argument scanned" lines; 0 and NULL:
	 * none */
	int argc;
	char *const *argv;
	bool is_quiet;
	/* Set by a signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE): the run ends at its last whole
	 * interval, no later run starts, and every report is written with the signal's exit
	 * status; NULL: never stopped. */
	const volatile sig_atomic_t *stop_signal;
};

/* Runs every run of the plan on real directories. Returns 0 (also when a signal stopped it:
 * see stop_signal), or an errno-style negative with a message on stderr (an anchor whose
 * parent does not exist, a failed format, a report that could not be written). */
int fs_exec_plan(const struct fs_plan *p, const struct fs_exec_opts *o);

#endif /* IORAMP_FS_H */
