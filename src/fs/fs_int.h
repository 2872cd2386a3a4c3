/* Private to src/fs: the anchor tree's names, the shared file states and the counters. */
#ifndef IORAMP_FS_INT_H
#define IORAMP_FS_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "ioramp/fs.h"

/* Per-operation counts of one interval (or a run's total): done, response time sum/sq/max. */
struct fs_opstat {
	uint64_t n;
	double resp_sum_ms;
	double resp_sq_ms;
	double resp_max_ms;
};

/* VDbench's "Miscellaneous statistics" counters. */
enum fs_misc {
	FS_MISC_FILE_CREATES,
	FS_MISC_DIRECTORY_CREATES,
	FS_MISC_WRITE_OPENS,
	FS_MISC_READ_OPENS,
	FS_MISC_FILE_DELETES,
	FS_MISC_DIRECTORY_DELETES,
	FS_MISC_FILE_BUSY,
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

/* One anchor's tree as the engine sees it: the layout and what exists now. */
struct fs_tree {
	const struct parm_fsd *fsd;
	uint64_t nr_dirs;
	uint64_t nr_leaves;
	uint64_t nr_files;
	pthread_mutex_t lock;
	unsigned char *file_state; /* FS_FILE_* per file */
	unsigned char *dir_state;  /* 1: exists, per directory (breadth order) */
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
void fs_tree_dir_path(const struct fs_tree *t, uint64_t d, char *buf, size_t len);
void fs_tree_file_path(const struct fs_tree *t, uint64_t f, char *buf, size_t len);
/* The directory (index as above) that holds file f. */
uint64_t fs_tree_file_dir(const struct fs_tree *t, uint64_t f);

/* The format pass: cleans what ioramp created under the anchor, then mkdir, create and write
 * every file; format=clean only cleans. Counts into *st. Returns 0, -EINTR when *stop was
 * set (the files written so far stay full; format=restart goes on from there) or -errno
 * (message printed). */
int fs_format(struct fs_tree *t, unsigned int format, struct fs_stats *st,
	      const volatile sig_atomic_t *stop);
/* Reads an existing tree's state from the disk (format=no). */
void fs_tree_scan(struct fs_tree *t);
/* Writes vdb_control.file into the anchor. */
void fs_tree_write_control(const struct fs_tree *t);

/* anchors.html (anchors.c): opened with the plan's run list, one block per run. */
/* results.json (json.c), streamed run by run. */
struct fs_json {
	FILE *f;
	char path[4200]; /* removed again when it cannot be written whole */
	size_t nr_runs;
	size_t nr_iv;
};

int fs_json_open(struct fs_json *j, const char *dir);
void fs_json_run_start(struct fs_json *j, const struct fs_run *r, double rate);
void fs_json_interval(struct fs_json *j, const struct fs_stats *s, double secs);
void fs_json_run_end(struct fs_json *j, const struct fs_stats *total, double secs,
		     bool is_interrupted);
int fs_json_close(struct fs_json *j, int status);

/* The output directory of an fs run (outdir.c): con tees to stdout, summary and logfile. */
struct fs_out {
	char dir[4096];
	FILE *con;
	FILE *summary;
	FILE *logfile;
	FILE *totals;
	struct fs_json json;
	FILE *flat;
	/* fwd reports (<fwd name>.html), opened at a FWD's first run */
	char *page_name[64];
	FILE *page[64];
	size_t nr_pages;
};

/* The report page of a FWD, opened on first use; NULL past 64 names or on error. */
FILE *fs_out_page(struct fs_out *o, const char *name);

/* flatfile.html (flat.c): hist/nr are the counted intervals of an average row, else NULL. */
FILE *fs_flat_open(const char *dir);
void fs_flat_row(FILE *f, const struct fs_run *r, const char *label, double reqrate,
		 const struct fs_stats *s, double secs, double cpu, double cpu_sys,
		 const struct fs_stats *hist, size_t nr);

int fs_out_open(struct fs_out *o, const char *spec, const struct fs_plan *p);
int fs_out_close(struct fs_out *o, int status);

FILE *fs_anchors_open(const char *outdir, const struct fs_plan *p);
void fs_anchors_run(FILE *f, const struct fs_run *r, const struct fs_tree *trees);
void fs_anchors_close(FILE *f);

/* The console lines (VDbench's file-system layout). */
void fs_console_header(FILE *f);
void fs_console_line(FILE *f, const char *label, const struct fs_stats *s, double secs,
		     double cpu_total, double cpu_sys);
/* The std_ and max_ lines over the counted intervals iv[0..nr) (each secs long). */
void fs_console_stdmax(FILE *f, const char *range, const struct fs_stats *iv, size_t nr,
		       double secs);
void fs_console_misc(FILE *f, const struct fs_stats *s, double secs);

#endif /* IORAMP_FS_INT_H */
