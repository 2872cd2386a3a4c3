/* Running a file-system plan: per run, the trees of its FSDs; a format run formats them; a
 * work run starts each FWD's threads, each doing its operation with real system calls in an
 * open loop at its share of fwdrate= (the next start is due at a fixed step whatever the
 * last one took; max: back to back), and the main thread prints one console line per
 * interval, the avg line and the Miscellaneous statistics. */
#include "fs_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A FWD's arrivals at its share of fwdrate=: arrival k is due at start + (k + 1) x step. */
struct fs_sched {
	atomic_uint_fast64_t next;
	uint64_t start_ns;
	double step_ns;
};

struct fs_worker {
	pthread_t tid;
	const struct parm_fwd *fwd; /* NULL: the format thread */
	struct fs_tree *trees;	    /* all of the run's trees */
	size_t nr_trees;
	size_t tree;		/* its own: one of its FWD's FSDs, as VDbench binds it */
	size_t view_fwd;	/* its FWD's view */
	struct fs_sched *sched; /* its FWD's schedule; NULL: max */
	struct fs_skew *skew;	/* several FWDs: their skew control (skew.c); or NULL */
	size_t skew_fwd;	/* its FWD's index there */
	bool is_live;		/* counted in its FWD's fs_skew_fwd.nr_live */
	bool must_let_go;	/* pace(): ahead of its share too long, holding its file */
	bool saw_busy;		/* pick_file() skipped a busy file */
	uint64_t rng;
	atomic_bool *stop;
	pthread_mutex_t lock;
	/* since the last interval, per tree; under lock */
	struct fs_stats *st;
	struct stats_hist *lat; /* requested operations' response times (from when due) */
	struct stats_hist *svc; /* and service times (from the issue) */
	uint64_t issue_ns;	/* when the last paced operation was issued */
	uint64_t next_file;
	atomic_uint_fast64_t *seq;    /* fileselect=sequential: its FWD's place on its FSD */
	uint32_t share_idx, share_nr; /* its place among its FWD's threads on its FSD */
	char *buf;
	/* the format thread */
	const struct fs_run *run;
	volatile sig_atomic_t fmt_stop; /* set by the main thread: a signal or format=limited */
	int format_ret;
	atomic_bool is_done;
	/* a thread that found nothing left, with no thread of the run making more: ended, as
	 * VDbench ends it; full: an rmdir's directories all hold files; said: the console said so */
	atomic_bool is_exhausted;
	bool is_full;
	bool is_once_done; /* fileselect=once: every file of its tree was taken */
	bool is_said;
	FILE *con; /* the format thread's notices: the console (and logfile.html) */
	/* failed reads and writes, under lock: how many, and the first's place and errno */
	uint64_t nr_io_errors;
	struct fs_io_error {
		char path[4096];
		uint64_t offset_bytes, size_bytes;
		int err;
		bool is_read;
	} first_error;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t rnd(struct fs_worker *w)
{
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return w->rng;
}

/* How long a read or write waits for its FWD's skew holding its file before it closes it. */
#define SKEW_HOLD_NS 1000000ull

/* Waits until the next start is due (open loop); returns the due time. */
static uint64_t pace(struct fs_worker *w, uint64_t *due)
{
	uint64_t now = mono_ns();
	struct fs_sched *s = w->sched;

	/* several FWDs keep their skew, paced (VDbench's: fwdrate=3000000 beyond the rate two
	 * FWDs reach, 20% and 80% asked for, did 19.99% and 80.01%) or at max; a read or write
	 * that waited long holding its file lets it go instead (do_rw) */
	if (w->skew) {
		bool is_rw = w->fwd->op == FS_OP_READ || w->fwd->op == FS_OP_WRITE;

		if (!fs_skew_take(w->skew, w->skew_fwd, w->stop, is_rw ? SKEW_HOLD_NS : 0)) {
			w->must_let_go = true;
			return now;
		}
		now = mono_ns();
	}
	w->issue_ns = now;
	if (!s)
		return now;
	/* the FWD's arrivals, shared by its threads: one that has no file to work on takes
	 * none, the others take them, so fwdrate= holds with more threads than files (as
	 * VDbench's: 16 threads on 12 files kept 100 a second, ioramp's own per thread 72) */
	*due = s->start_ns + (uint64_t)((double)(atomic_fetch_add(&s->next, 1) + 1) * s->step_ns);
	while (now < *due && !atomic_load(w->stop)) {
		uint64_t left = *due - now;
		struct timespec ts = { (time_t)(left / 1000000000ull),
				       (long)(left % 1000000000ull) };

		if (left > 50000000ull)
			ts = (struct timespec){ 0, 50000000 };
		nanosleep(&ts, NULL);
		now = mono_ns();
	}
	w->issue_ns = now;
	return *due;
}

static void note(struct fs_worker *w, const struct fs_tree *t, enum fs_op op, uint64_t t0,
		 bool is_reqstd)
{
	/* t0: when it was due, or when an unpaced operation began (after the last issue) */
	const uint64_t times_ns[3] = { t0, w->issue_ns > t0 ? w->issue_ns : t0, mono_ns() };
	size_t k = (size_t)(t - w->trees);

	pthread_mutex_lock(&w->lock);
	fs_stats_note(&w->st[k], &w->lat[k], &w->svc[k], op, is_reqstd, times_ns);
	pthread_mutex_unlock(&w->lock);
}

static void misc(struct fs_worker *w, const struct fs_tree *t, enum fs_misc m)
{
	pthread_mutex_lock(&w->lock);
	w->st[t - w->trees].misc[m]++;
	pthread_mutex_unlock(&w->lock);
}

static bool run_has_op(const struct fs_run *r, enum fs_op op)
{
	for (size_t i = 0; i < r->nr_fwds; i++)
		if (r->fwds[i].op == op)
			return true;
	return false;
}

/* A file in state want (NONE, FULL: FULL or EMPTY), marked busy; -1 when none. A create that
 * picks files there while a delete of the run may take them away counts FILE_MAY_NOT_EXIST,
 * once a pick as VDbench once an attempt (observed on 5.04.07: create and delete FWDs at 100/s
 * each on 50 files of 16k counted 1,720 in 3 s beside 274 creates, its thread sleeping between
 * attempts as ioramp's waits 1 ms after a pick found none; a create alone on a full tree counts
 * nothing). */
static int64_t pick_file(struct fs_worker *w, struct fs_tree **tp, bool want_exists)
{
	struct fs_tree *t = &w->trees[w->tree];
	uint64_t n = t->nr_files;

	*tp = t;
	if (!n)
		return -1;
	/* shared=yes: the FWD's threads split the files, thread k taking k, k+n... (as VDbench
	 * splits a shared FSD's files; no thread then finds another's file busy) */
	uint64_t stride = t->fsd->is_shared ? w->share_nr : 1;
	uint64_t first = t->fsd->is_shared ? w->share_idx : 0;
	uint64_t m = first < n ? (n - first + stride - 1) / stride : 0;
	bool is_there = false; /* a create found a file there */

	w->saw_busy = false;
	/* fileselect=once: VDbench 5.04.07 ends the FWD once it took every file ("Reached
	 * 'fileselect=once' for anchor A"; its run ended after one interval of two, observed) */
	w->is_once_done = false;
	pthread_mutex_lock(&t->lock);
	for (uint64_t tries = 0; tries < m; tries++) {
		/* sequential: the FWD's threads on the FSD take the next file in turn, so none
		 * finds another's busy (VDbench 5.04.07: 4 threads, no FILE_BUSY; ioramp's own
		 * place per thread counted 97 in 3 s) */
		uint64_t j = !w->fwd->is_select_seq ? rnd(w) % m
			     : stride == 1	    ? atomic_fetch_add(w->seq, 1) % m
						    : (w->next_file++) % m;
		uint64_t i, k = 0;
		unsigned char s;

		/* fileselect=once: the next file not taken yet, from the one drawn */
		while (w->fwd->is_select_once && k < m &&
		       t->file_once[first + (j + k) % m * stride])
			k++;
		if (k == m) {
			w->is_once_done = true;
			break;
		}
		i = first + (j + k) % m * stride;
		s = t->file_state[i];
		if (s & FS_FILE_BUSY) {
			misc(w, t, FS_MISC_FILE_BUSY);
			w->saw_busy = true;
			continue;
		}
		is_there |= !want_exists && s != FS_FILE_NONE;
		if ((s != FS_FILE_NONE) == want_exists &&
		    (want_exists || t->dir_state[fs_tree_file_dir(t, i)] || !t->fsd->depth)) {
			t->file_state[i] |= FS_FILE_BUSY;
			if (w->fwd->is_select_once)
				t->file_once[i] = 1;
			pthread_mutex_unlock(&t->lock);
			if (is_there && run_has_op(w->run, FS_OP_DELETE))
				misc(w, t, FS_MISC_FILE_MAY_NOT_EXIST);
			return (int64_t)i;
		}
	}
	pthread_mutex_unlock(&t->lock);
	if (is_there && run_has_op(w->run, FS_OP_DELETE))
		misc(w, t, FS_MISC_FILE_MAY_NOT_EXIST);
	return -1;
}

static void release(struct fs_tree *t, uint64_t i, unsigned char state)
{
	pthread_mutex_lock(&t->lock);
	t->file_state[i] = state;
	pthread_mutex_unlock(&t->lock);
}

static uint64_t xfer_of(struct fs_worker *w)
{
	const struct parm_xfer *x = &w->fwd->xfer;
	double u = (double)(rnd(w) % 10000) / 100.0, acc = 0;

	if (x->kind == PARM_XFER_RANGE)
		return x->min_bytes;
	for (size_t i = 0; x->nr > 1 && i < x->nr; i++) {
		acc += x->pcts[i];
		if (u < acc)
			return x->sizes_bytes[i];
	}
	return x->sizes_bytes[0];
}

/* A failed read or write: counted, the first kept for the run's end (VDbench 5.04.07 logs
 * each and ends the execution: "Vdbench terminating due to Data Validation or I/O errors"). */
static void io_error(struct fs_worker *w, const char *path, bool is_read, uint64_t off,
		     uint64_t size, int err)
{
	pthread_mutex_lock(&w->lock);
	if (!w->nr_io_errors++) {
		snprintf(w->first_error.path, sizeof(w->first_error.path), "%s", path);
		w->first_error.offset_bytes = off;
		w->first_error.size_bytes = size;
		w->first_error.err = err;
		w->first_error.is_read = is_read;
	}
	pthread_mutex_unlock(&w->lock);
}

/* read/write: open, then sequential blocks to the end or stopafter random blocks, close. */
static int do_rw(struct fs_worker *w, uint64_t *due)
{
	const struct parm_fwd *f = w->fwd;
	struct fs_tree *t;
	int64_t i = pick_file(w, &t, true);
	char path[4096];
	uint64_t size, t0, off = 0, n = 0, moved = 0, limit, pct_bytes;
	int fd;

	if (i < 0)
		return -ENOENT;
	size = fs_file_size(t->fsd, (uint64_t)i);
	fs_tree_file_path(t, (uint64_t)i, path, sizeof(path));
	t0 = mono_ns();
	fd = open(path, (f->op == FS_OP_WRITE || f->rdpct >= 0 ? O_RDWR : O_RDONLY) |
				(int)f->openflags.flags | (int)t->fsd->openflags.flags);
	if (fd < 0) {
		/* gone (another FWD deleted it) is no error; O_DIRECT refused, EISDIR are */
		if (errno != ENOENT)
			io_error(w, path, f->op != FS_OP_WRITE, 0, 0, errno);
		else
			misc(w, t, FS_MISC_FILE_MUST_EXIST);
		release(t, (uint64_t)i, FS_FILE_NONE);
		return 0;
	}
	note(w, t, FS_OP_OPEN, t0, f->op == FS_OP_OPEN);
	misc(w, t, f->op == FS_OP_WRITE ? FS_MISC_WRITE_OPENS : FS_MISC_READ_OPENS);
	t->file_opened[i] = 1; /* the file is busy: this thread alone writes its byte */
	/* random I/O stops after stopafter= blocks, by default once it moved the file's size in
	 * bytes (VDbench 5.04.07: a 16k file takes four 4k reads, a 10k file three, a 4k one one);
	 * stopafter=N% once it moved N% of it (50% of a 64k file: eight 4k reads, observed) */
	limit = f->stopafter ? f->stopafter : UINT64_MAX;
	pct_bytes = f->stopafter_pct > 0 ? (uint64_t)((double)size * f->stopafter_pct / 100)
					 : UINT64_MAX;
	while (!atomic_load(w->stop) && n < limit && moved < pct_bytes &&
	       !(f->is_random && !f->stopafter && !f->stopafter_pct && moved >= size)) {
		uint64_t xs = xfer_of(w), start;
		bool is_read = f->rdpct >= 0 ? (double)(rnd(w) % 10000) < f->rdpct * 100
					     : f->op == FS_OP_READ;
		ssize_t r;

		if (xs > size)
			xs = size;
		if (!xs)
			break;
		if (f->is_random)
			off = (rnd(w) % (size / xs)) * xs;
		else if (off + xs > size)
			break;
		start = pace(w, due);
		if (atomic_load(w->stop) || w->must_let_go)
			break;
		r = is_read ? pread(fd, w->buf, xs, (off_t)off)
			    : pwrite(fd, w->buf, xs, (off_t)off);
		if (r < 0)
			io_error(w, path, is_read, off, xs, errno);
		if (r <= 0)
			break;
		note(w, t, is_read ? FS_OP_READ : FS_OP_WRITE, start, true);
		pthread_mutex_lock(&w->lock);
		if (is_read)
			w->st[t - w->trees].read_bytes += (uint64_t)r;
		else
			w->st[t - w->trees].write_bytes += (uint64_t)r;
		pthread_mutex_unlock(&w->lock);
		if (!f->is_random)
			off += xs;
		moved += (uint64_t)r;
		n++;
		if (!f->is_random && off >= size)
			break;
	}
	t0 = mono_ns();
	close(fd);
	note(w, t, FS_OP_CLOSE, t0, f->op == FS_OP_CLOSE);
	misc(w, t, FS_MISC_FILE_CLOSES);
	release(t, (uint64_t)i, FS_FILE_FULL);
	return 0;
}

/* A directory mkdir can make (its parent exists) or rmdir can remove (nothing in it), from a
 * random start; -1 when none. Under t->lock. */
static int64_t pick_dir(struct fs_worker *w, struct fs_tree *t, bool is_mkdir)
{
	for (uint64_t k = 0, r = rnd(w); k < t->nr_dirs; k++) {
		uint64_t d = (r + k) % t->nr_dirs;
		int64_t up = fs_tree_dir_parent(t, d);

		if (is_mkdir && !t->dir_state[d] && (up < 0 || t->dir_state[up]))
			return (int64_t)d;
		if (!is_mkdir && t->dir_state[d] && fs_tree_dir_is_empty(t, d))
			return (int64_t)d;
	}
	return -1;
}

/* Why a mkdir or rmdir failed, in VDbench's counters. */
static void dir_failed(struct fs_worker *w, struct fs_tree *t, uint64_t d, bool is_mkdir, int err)
{
	bool has_child;

	if (is_mkdir && (err == EEXIST || err == ENOENT)) {
		misc(w, t, err == EEXIST ? FS_MISC_DIR_BUSY_MKDIR : FS_MISC_MISSING_PARENT);
	} else if (!is_mkdir && err == ENOENT) {
		misc(w, t, FS_MISC_DIR_DOES_NOT_EXIST);
	} else if (!is_mkdir && (err == ENOTEMPTY || err == EEXIST)) {
		pthread_mutex_lock(&t->lock);
		has_child = fs_tree_dir_has_child(t, d);
		pthread_mutex_unlock(&t->lock);
		misc(w, t, has_child ? FS_MISC_DIR_STILL_HAS_CHILD : FS_MISC_DIR_STILL_HAS_FILES);
	}
}

/* mkdir or rmdir of a directory that can take it: an arrival is spent only on one (a
 * failing mkdir under a missing parent took one for nothing: 12 directories at fwdrate=20
 * took 3 s, VDbench's 0.6 s), and the tree's lock is not held while the arrival is due. */
static int do_dir(struct fs_worker *w, uint64_t *due)
{
	struct fs_tree *t = &w->trees[w->tree];
	bool is_mkdir = w->fwd->op == FS_OP_MKDIR;
	char path[4096];
	uint64_t t0;
	int64_t d;
	int r;

	pthread_mutex_lock(&t->lock);
	d = pick_dir(w, t, is_mkdir);
	pthread_mutex_unlock(&t->lock);
	if (d < 0)
		return -ENOENT;
	fs_tree_dir_path(t, (uint64_t)d, path, sizeof(path));
	t0 = pace(w, due);
	if (atomic_load(w->stop))
		return 0;
	r = is_mkdir ? mkdir(path, 0755) : rmdir(path);
	if (r) { /* another thread's on the same directory first */
		dir_failed(w, t, (uint64_t)d, is_mkdir, errno);
		return 0;
	}
	pthread_mutex_lock(&t->lock);
	t->dir_state[d] = is_mkdir;
	pthread_mutex_unlock(&t->lock);
	note(w, t, w->fwd->op, t0, true);
	misc(w, t, is_mkdir ? FS_MISC_DIRECTORY_CREATES : FS_MISC_DIRECTORY_DELETES);
	return 0;
}

/* One metadata operation on a file or directory (the requested one). */
static int do_meta(struct fs_worker *w, uint64_t *due)
{
	const struct parm_fwd *f = w->fwd;
	enum fs_op op = f->op;
	struct fs_tree *t;
	char path[4096], other[4200];
	uint64_t t0;
	int64_t i;
	int fd, r = 0;

	if (op == FS_OP_MKDIR || op == FS_OP_RMDIR)
		return do_dir(w, due);
	i = pick_file(w, &t, op != FS_OP_CREATE);
	if (i < 0)
		return -ENOENT;
	fs_tree_file_path(t, (uint64_t)i, path, sizeof(path));
	t0 = pace(w, due);
	switch (op) {
	case FS_OP_CREATE:
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd >= 0) {
			/* VDbench counts a create's open and close too (observed on 5.04.07:
			 * FILE_CREATES, WRITE_OPENS and FILE_CLOSES all 274) */
			note(w, t, op, t0, true);
			misc(w, t, FS_MISC_FILE_CREATES);
			misc(w, t, FS_MISC_WRITE_OPENS);
			misc(w, t, FS_MISC_FILE_CLOSES);
			close(fd);
			release(t, (uint64_t)i, FS_FILE_EMPTY);
			return 0;
		}
		if (errno == ENOENT) { /* its directory went away meanwhile */
			misc(w, t, FS_MISC_MISSING_PARENT);
			release(t, (uint64_t)i, FS_FILE_NONE);
			return 0;
		}
		release(t, (uint64_t)i, FS_FILE_EMPTY);
		return 0;
	case FS_OP_DELETE:
		r = unlink(path);
		if (!r) {
			note(w, t, op, t0, true);
			misc(w, t, FS_MISC_FILE_DELETES);
		} else if (errno == ENOENT) {
			misc(w, t, FS_MISC_FILE_MUST_EXIST);
		}
		release(t, (uint64_t)i, FS_FILE_NONE);
		return 0;
	case FS_OP_GETATTR: {
		struct stat sb;

		r = stat(path, &sb);
		if (!r)
			misc(w, t, FS_MISC_GET_ATTR);
		break;
	}
	case FS_OP_SETATTR:
		r = chmod(path, 0644);
		break;
	case FS_OP_ACCESS:
		r = access(path, R_OK);
		break;
	case FS_OP_OPEN:
	case FS_OP_CLOSE:
		fd = open(path, O_RDONLY);
		r = fd < 0 ? -1 : 0;
		if (fd < 0 && errno == ENOENT)
			misc(w, t, FS_MISC_FILE_MUST_EXIST);
		if (fd >= 0) {
			note(w, t, FS_OP_OPEN, t0, op == FS_OP_OPEN);
			t0 = mono_ns();
			close(fd);
			note(w, t, FS_OP_CLOSE, t0, op == FS_OP_CLOSE);
		}
		release(t, (uint64_t)i, t->file_state[i] & ~FS_FILE_BUSY);
		return 0;
	case FS_OP_COPY:
	case FS_OP_MOVE: {
		struct fs_tree *t2;
		int64_t j = pick_file(w, &t2, false);

		if (j < 0) {
			release(t, (uint64_t)i, t->file_state[i] & ~FS_FILE_BUSY);
			return -ENOENT;
		}
		fs_tree_file_path(t2, (uint64_t)j, other, sizeof(other));
		if (op == FS_OP_MOVE) {
			r = rename(path, other);
			release(t, (uint64_t)i, r ? FS_FILE_FULL : FS_FILE_NONE);
			release(t2, (uint64_t)j, r ? FS_FILE_NONE : FS_FILE_FULL);
		} else {
			int in = open(path, O_RDONLY), out = open(other, O_CREAT | O_WRONLY, 0644);
			ssize_t n;

			r = in < 0 || out < 0 ? -1 : 0;
			while (!r && (n = read(in, w->buf, 65536)) > 0)
				r = write(out, w->buf, (size_t)n) == n ? 0 : -1;
			if (in >= 0)
				close(in);
			if (out >= 0)
				close(out);
			release(t, (uint64_t)i, FS_FILE_FULL);
			release(t2, (uint64_t)j, r ? FS_FILE_NONE : FS_FILE_FULL);
		}
		if (!r)
			note(w, t, op, t0, true);
		return 0;
	}
	default:
		break;
	}
	if (!r)
		note(w, t, op, t0, true);
	else if (errno == ENOENT)
		misc(w, t, FS_MISC_FILE_MUST_EXIST);
	release(t, (uint64_t)i, t->file_state[i] & ~FS_FILE_BUSY);
	return 0;
}

/* Whether a thread has nothing left to do for good (VDbench 5.04.07 ends each, observed): a
 * delete, read, getattr, setattr or access thread when no file of its FSD exists and no thread
 * of the run creates (or writes) one; an rmdir thread when no directory exists and none makes
 * one, or when every one holds something and no thread deletes (or moves) a file; a create
 * (mkdir) thread when every one exists and none deletes (removes) one. */
static bool is_nothing_left(struct fs_worker *w)
{
	enum fs_op op = w->fwd->op;
	bool is_dirs = op == FS_OP_RMDIR || op == FS_OP_MKDIR, any = false;
	bool is_make = op == FS_OP_CREATE || op == FS_OP_MKDIR;
	bool is_use = op == FS_OP_DELETE || op == FS_OP_READ || op == FS_OP_GETATTR ||
		      op == FS_OP_SETATTR || op == FS_OP_ACCESS;
	struct fs_tree *t = &w->trees[w->tree];
	enum fs_op other = is_use		? FS_OP_CREATE
			   : op == FS_OP_CREATE ? FS_OP_DELETE
			   : op == FS_OP_RMDIR	? FS_OP_MKDIR
						: FS_OP_RMDIR;

	if ((!is_use && !is_dirs && !is_make) || run_has_op(w->run, other) ||
	    (is_use && run_has_op(w->run, FS_OP_WRITE)))
		return false;
	pthread_mutex_lock(&t->lock);
	for (uint64_t i = 0; !any && is_dirs && i < t->nr_dirs; i++)
		any = is_make ? !t->dir_state[i] : t->dir_state[i];
	for (uint64_t i = 0; !any && !is_dirs && i < t->nr_files; i++)
		any = is_make ? !(t->file_state[i] & ~FS_FILE_BUSY)
			      : t->file_state[i] != FS_FILE_NONE;
	pthread_mutex_unlock(&t->lock);
	/* an rmdir that found no empty directory: files only go with a delete or a move */
	w->is_full = any && op == FS_OP_RMDIR && !run_has_op(w->run, FS_OP_DELETE) &&
		     !run_has_op(w->run, FS_OP_MOVE);
	return !any || w->is_full;
}

/* An operation that found nothing to work on, counted as VDbench counts its attempt: a file
 * operation that found no file (FILE_MUST_EXIST; all of them busy was FILE_BUSY already); a
 * create, mkdir or write (VDbench's makes a missing file) whose only places lack their parent
 * (MISSING_PARENT); a mkdir that found every directory (DIR_EXISTS); an rmdir that found none
 * (DIR_DOES_NOT_EXIST), or only ones holding files (DIR_STILL_HAS_FILES, as VDbench on a
 * formatted tree) or directories. A create that found every file there counts nothing
 * (observed). VDbench ends such a thread after an attempt or two; ioramp's retries each
 * millisecond while other threads may change the tree, and counts each. */
static void nothing_found(struct fs_worker *w)
{
	enum fs_op op = w->fwd->op;
	struct fs_tree *t = &w->trees[w->tree];
	bool is_orphan = false, is_any = false, has_files = false;
	enum fs_misc m = FS_MISC_NR;

	pthread_mutex_lock(&t->lock);
	if (op == FS_OP_MKDIR || op == FS_OP_RMDIR) {
		for (uint64_t d = 0; d < t->nr_dirs; d++) {
			int64_t up = fs_tree_dir_parent(t, d);

			is_orphan |= !t->dir_state[d] && up >= 0 && !t->dir_state[up];
			is_any |= t->dir_state[d] != 0;
			has_files |= t->dir_state[d] && !fs_tree_dir_has_child(t, d) &&
				     !fs_tree_dir_is_empty(t, d);
		}
		if (op == FS_OP_MKDIR)
			m = is_orphan ? FS_MISC_MISSING_PARENT : FS_MISC_DIR_EXISTS;
		else
			m = !is_any	? FS_MISC_DIR_DOES_NOT_EXIST
			    : has_files ? FS_MISC_DIR_STILL_HAS_FILES
					: FS_MISC_DIR_STILL_HAS_CHILD;
	} else {
		for (uint64_t i = 0; i < t->nr_files; i++) {
			bool is_there = (t->file_state[i] & ~FS_FILE_BUSY) != FS_FILE_NONE;

			is_any |= is_there;
			is_orphan |=
				!is_there && t->fsd->depth && !t->dir_state[fs_tree_file_dir(t, i)];
		}
		/* VDbench's write of a missing file makes it, so it counts the missing parent */
		if (op == FS_OP_CREATE || (op == FS_OP_WRITE && !is_any))
			m = is_orphan ? FS_MISC_MISSING_PARENT : FS_MISC_NR;
		else
			m = is_any ? FS_MISC_NR : FS_MISC_FILE_MUST_EXIST;
	}
	pthread_mutex_unlock(&t->lock);
	if (m != FS_MISC_NR)
		misc(w, t, m);
}

/* Whether w counts among its FWD's running threads for the skew: not while it found nothing
 * to work on (a thread that found only busy files does: their holders may wait for it). */
static void skew_live(struct fs_worker *w, bool is_live)
{
	if (!w->skew || w->is_live == is_live)
		return;
	if (is_live)
		fs_skew_join(w->skew, w->skew_fwd);
	else
		fs_skew_leave(w->skew, w->skew_fwd);
	w->is_live = is_live;
}

static void *worker_main(void *arg)
{
	struct fs_worker *w = arg;
	uint64_t due = mono_ns();
	unsigned int idle = 0;

	while (!atomic_load(w->stop)) {
		bool is_rw = w->fwd->op == FS_OP_READ || w->fwd->op == FS_OP_WRITE;
		int r;

		if (w->skew) /* holding no file: wait while its FWD is ahead */
			fs_skew_wait(w->skew, w->skew_fwd, w->stop);
		w->must_let_go = false;
		r = is_rw ? do_rw(w, &due) : do_meta(w, &due);
		if (r == -ENOENT && !w->is_once_done)
			nothing_found(w);
		if (r == -ENOENT && (w->is_once_done || is_nothing_left(w))) {
			atomic_store(&w->is_exhausted, true);
			break;
		}
		skew_live(w, r != -ENOENT || w->saw_busy);
		if (r == -ENOENT) {
			/* nothing to work on (everything deleted, all busy): VDbench ends such
			 * threads; this one waits a little in case others change the tree */
			if (++idle > 1000)
				break;
			usleep(1000);
			due = mono_ns();
		} else {
			idle = 0;
		}
	}
	skew_live(w, false); /* the others no longer wait for it */
	return NULL;
}

static double cpu_s(double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return *sys + (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
}

/* Whether a signal asked the execution to stop. */
static bool is_stopped(const volatile sig_atomic_t *sig)
{
	return sig && *sig;
}

/* The format run's thread: each tree formatted in turn, its control file written. */
static void *format_main(void *arg)
{
	struct fs_worker *w = arg;

	for (size_t k = 0; !w->format_ret && k < w->nr_trees; k++) {
		w->format_ret = fs_format(&w->trees[k], w->run->format, &w->st[k], &w->lock,
					  &w->lat[k], &w->svc[k], w->con, &w->fmt_stop);
		/* a stopped format leaves what it made, described (format=restart goes on) */
		if (!w->format_ret || w->format_ret == -EINTR)
			fs_tree_write_control(&w->trees[k]);
	}
	atomic_store(&w->is_done, true);
	return NULL;
}

/* What one run needs while it runs. */
struct fs_running {
	const struct fs_run *r;
	struct fs_tree *trees;
	struct fs_worker *ws;
	size_t nr_ws;
	struct fs_sched *sched;	   /* per FWD copy */
	struct fs_skew skew;	   /* several FWDs; else nr 0 */
	atomic_uint_fast64_t *seq; /* per FWD and FSD: fileselect=sequential's next file */
	size_t *view_fsd;	   /* per tree: its FSD's view */
	atomic_bool stop;
};

/* The run's failed reads and writes after its average: the first, with its file, offset,
 * size and error, and how many; -EIO when there were any (the execution fails, exit 1). */
static int io_errors_say(const struct fs_running *x, FILE *con)
{
	const struct fs_io_error *e = NULL;
	uint64_t n = 0;
	char tod[16];

	for (size_t i = 0; i < x->nr_ws; i++) {
		if (x->ws[i].nr_io_errors && !e)
			e = &x->ws[i].first_error;
		n += x->ws[i].nr_io_errors;
	}
	if (!n)
		return 0;
	plan_time_of_day(tod);
	fprintf(con,
		"%s I/O error: op: %s file: %s offset: %" PRIu64 " xfer: %" PRIu64 " errno: %s\n"
		"%s Total I/O error count: %" PRIu64 "\n"
		"%s ioramp terminating due to I/O errors\n",
		tod, e->is_read ? "read" : "write", e->path, e->offset_bytes, e->size_bytes,
		strerror(e->err), tod, n, tod);
	fflush(con);
	return -EIO;
}

/* Several FWDs: each one's share of the operations (fs_fwd_share), kept (fs_skew_take). */
static int skew_init(struct fs_running *x)
{
	double *shares = calloc(x->r->nr_fwds, sizeof(*shares));
	int ret;

	if (!shares)
		return -1;
	for (size_t i = 0; i < x->r->nr_fwds; i++)
		shares[i] = fs_fwd_share(x->r, i);
	ret = fs_skew_init(&x->skew, shares, x->r->nr_fwds);
	free(shares);
	return ret;
}

static int workers_make(struct fs_running *x, struct fs_views *v, double rate)
{
	const struct fs_run *r = x->r;
	size_t nr = 0;

	x->view_fsd = calloc(r->nr_fsds ? r->nr_fsds : 1, sizeof(*x->view_fsd));
	x->sched = calloc(r->nr_fwds ? r->nr_fwds : 1, sizeof(*x->sched));
	x->seq = calloc(r->nr_fwds * r->nr_fsds + 1, sizeof(*x->seq));
	if (!x->sched || !x->seq)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_fwds * r->nr_fsds; i++)
		atomic_init(&x->seq[i], 0);
	for (size_t i = 0; rate > 0 && r->kind == FS_RUN_WORK && i < r->nr_fwds; i++) {
		double fr = rate * fs_fwd_share(r, i);

		atomic_init(&x->sched[i].next, 0);
		x->sched[i].start_ns = mono_ns();
		x->sched[i].step_ns = fr > 0 ? 1e9 / fr : 0;
	}
	if (r->kind == FS_RUN_WORK && r->nr_fwds > 1 && skew_init(x))
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_fsds && x->view_fsd; i++)
		x->view_fsd[i] = fs_views_fsd(v, r->fsds[i].name);
	for (size_t i = 0; r->kind == FS_RUN_WORK && i < r->nr_fwds; i++)
		nr += (size_t)r->fwds[i].threads_per_fsd * r->fwds[i].nr_fsd;
	if (r->kind == FS_RUN_FORMAT)
		nr = 1;
	x->ws = calloc(nr ? nr : 1, sizeof(*x->ws));
	if (!x->ws || !x->view_fsd)
		return -ENOMEM;
	x->nr_ws = nr;
	for (size_t n = 0; n < nr; n++) {
		struct fs_worker *w = &x->ws[n];

		w->trees = x->trees;
		w->nr_trees = r->nr_fsds;
		w->stop = &x->stop;
		w->rng = 0x9e3779b97f4a7c15ull * (n + 1);
		w->run = r;
		pthread_mutex_init(&w->lock, NULL);
		w->st = calloc(r->nr_fsds ? r->nr_fsds : 1, sizeof(*w->st));
		w->lat = calloc(r->nr_fsds ? r->nr_fsds : 1, sizeof(*w->lat));
		w->svc = calloc(r->nr_fsds ? r->nr_fsds : 1, sizeof(*w->svc));
		if (!w->st || !w->lat || !w->svc)
			return -ENOMEM;
		w->view_fwd = fs_views_fwd(v, NULL);
	}
	/* each FSD's threads of each FWD on it, bound to it (VDbench's "Started N threads for
	 * fwd=F,fsd=D" order: FSD by FSD) */
	for (size_t d = 0, n = 0; r->kind == FS_RUN_WORK && d < r->nr_fsds; d++)
		for (size_t i = 0; i < r->nr_fwds; i++) {
			const struct parm_fwd *f = &r->fwds[i];

			for (uint32_t k = 0; fs_fwd_on_fsd(f, d) && k < f->threads_per_fsd;
			     k++, n++) {
				struct fs_worker *w = &x->ws[n];

				w->fwd = f;
				w->tree = d;
				w->view_fwd = fs_views_fwd(v, f->name);
				w->sched = x->sched[i].step_ns > 0 ? &x->sched[i] : NULL;
				if (x->skew.nr) {
					w->skew = &x->skew;
					w->skew_fwd = i;
					skew_live(w, true);
				}
				w->next_file = k;
				w->seq = &x->seq[i * r->nr_fsds + d];
				w->share_idx = k;
				w->share_nr = f->threads_per_fsd;
				if (posix_memalign((void **)&w->buf, 4096, 1 << 20))
					return -ENOMEM;
				memset(w->buf, 0x5a, 1 << 20);
			}
		}
	return 0;
}

static void workers_free(struct fs_running *x)
{
	for (size_t i = 0; x->ws && i < x->nr_ws; i++) {
		pthread_mutex_destroy(&x->ws[i].lock);
		free(x->ws[i].buf);
		free(x->ws[i].st);
		free(x->ws[i].lat);
		free(x->ws[i].svc);
	}
	free(x->ws);
	free(x->sched);
	fs_skew_fini(&x->skew);
	free((void *)x->seq);
	x->seq = NULL;
	free(x->view_fsd);
}

/* Moves every worker's counters of the interval into the views (total, FSD, FWD). */
static void collect(struct fs_running *x, struct fs_views *v, bool is_counted)
{
	for (size_t i = 0; i < x->nr_ws; i++) {
		struct fs_worker *w = &x->ws[i];

		pthread_mutex_lock(&w->lock);
		for (size_t k = 0; k < x->r->nr_fsds; k++) {
			size_t to[3] = { 0, x->view_fsd[k], w->view_fwd };

			for (size_t j = 0; j < 3; j++) {
				fs_stats_add(&v->views[to[j]].iv, &w->st[k]);
				if (is_counted) {
					stats_hist_merge(v->views[to[j]].lat, &w->lat[k]);
					stats_hist_merge(v->views[to[j]].svc, &w->svc[k]);
				}
			}
			memset(&w->st[k], 0, sizeof(w->st[k]));
			stats_hist_reset(&w->lat[k]);
			stats_hist_reset(&w->svc[k]);
		}
		pthread_mutex_unlock(&w->lock);
	}
}

static bool format_failed(const struct fs_running *x)
{
	return x->r->kind == FS_RUN_FORMAT && atomic_load(&x->ws[0].is_done) &&
	       x->ws[0].format_ret && x->ws[0].format_ret != -EINTR;
}

/* The machine's CPU use since *prev (NaN without /proc/stat), as VDbench's cpu% columns:
 * the whole machine's, not ioramp's own (reference 10.1); *prev moves on. */
static void machine_cpu(struct stats_cpu_sample *prev, bool *has, double *used, double *sys)
{
	struct stats_cpu_sample now;
	struct stats_cpu_pct p;

	*used = *sys = NAN;
	if (!*has || stats_cpu_read(NULL, &now)) {
		*has = false;
		return;
	}
	if (!stats_cpu_diff(prev, &now, &p)) {
		*used = p.used_pct;
		*sys = p.sys_pct;
	}
	*prev = now;
}

static double pct_of(double cpu_s, double secs)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	return 100.0 * cpu_s / secs / (double)(ncpu > 0 ? ncpu : 1);
}

/* The lines that say why thread w ended (VDbench's words by operation, observed); *nr of
 * them. */
static const char *const *exhausted_text(const struct fs_worker *w, size_t *nr)
{
	static const char *const files[] = {
		"Vdbench is trying to delete a file, but no files are available, and no",
		"threads are currently active creating new files.",
	};
	static const char *const reads[] = {
		"Vdbench is trying to read from a file, but no files are available, and no",
		"threads are currently active creating new files",
	};
	static const char *const getattrs[] = {
		"Vdbench is trying to get attributes for a file, but there are no files",
		"available, and there are no threads currently active that can create new files.",
	};
	static const char *const setattrs[] = {
		"Vdbench is trying to change attributes for a file, but there are no files",
		"available, and there are no threads currently active that can create new files.",
	};
	static const char *const dirs[] = {
		"Vdbench is trying to delete a directory, but the directory that we are",
		"trying to delete does not exist, and there are no threads currently",
		"active that create new directories.",
	};
	static const char *const full_dirs[] = {
		"Vdbench is trying to delete a directory, but the directory that we are",
		"trying to delete is not empty, and there are no threads currently",
		"active that can delete those files.",
	};
	static const char *const creates[] = {
		"Vdbench is trying to create a new file, but all files already exist, ",
		"and no threads are currently active deleting files",
	};
	static const char *const mkdirs[] = {
		"Vdbench is trying to create a new directory, but all directories",
		"already exist and no threads are currently active deleting directories.",
	};

	*nr = 2;
	switch (w->fwd->op) {
	case FS_OP_MKDIR:
		return mkdirs;
	case FS_OP_CREATE:
		return creates;
	case FS_OP_RMDIR:
		*nr = 3;
		return w->is_full ? full_dirs : dirs;
	case FS_OP_READ:
		return reads;
	case FS_OP_GETATTR:
	case FS_OP_ACCESS: /* VDbench says get attributes for access too */
		return getattrs;
	case FS_OP_SETATTR:
		return setattrs;
	default:
		return files;
	}
}

/* The threads that ended with nothing left: the console says so once per FWD and anchor, in
 * VDbench's words (observed); returns how many have ended. */
static size_t exhausted_say(struct fs_running *x, FILE *con, FILE *slavelog)
{
	size_t n = 0;

	for (size_t i = 0; i < x->nr_ws; i++) {
		struct fs_worker *w = &x->ws[i];
		bool is_dirs, is_first = true;
		const char *const *text, *op, *anchor = w->trees[w->tree].fsd->anchor;
		size_t nr;
		char tod[16], how[128];

		if (!atomic_load(&w->is_exhausted))
			continue;
		n++;
		if (w->is_said)
			continue;
		for (size_t k = 0; k < i; k++)
			if (x->ws[k].fwd == w->fwd && x->ws[k].tree == w->tree && x->ws[k].is_said)
				is_first = false;
		w->is_said = true;
		if (!is_first)
			continue;
		if (w->is_once_done) {
			plan_time_of_day(tod);
			fprintf(con, "%s localhost-0: Reached 'fileselect=once' for anchor %s\n",
				tod, anchor);
			if (slavelog)
				fs_slave_line(slavelog, "Reached 'fileselect=once' for anchor %s",
					      anchor);
			continue;
		}
		/* an rmdir of full directories names canWeGetMoreFiles (observed) */
		is_dirs = (w->fwd->op == FS_OP_RMDIR && !w->is_full) || w->fwd->op == FS_OP_MKDIR;
		text = exhausted_text(w, &nr);
		op = fs_op_name(w->fwd->op);
		/* the console, logfile.html and the slave's log name the method (observed) */
		snprintf(how, sizeof(how),
			 "FwgThread.canWeGetMore%s(): Shutting down threads for "
			 "operation=%s",
			 is_dirs ? "Directories" : "Files", op);
		plan_time_of_day(tod);
		fprintf(con, "%s \n%s Message from slave localhost-0: \n%s Anchor: %s\n", tod, tod,
			tod, anchor);
		for (size_t k = 0; k < nr; k++)
			fprintf(con, "%s %s\n", tod, text[k]);
		fprintf(con, "%s %s\n%s \n", tod, how, tod);
		/* the slave's log: the message, then as it sent it to the console (observed) */
		for (int pass = 0; slavelog && pass < 2; pass++) {
			const char *pre = pass ? "sendMessageToConsole: " : "";

			fs_slave_line(slavelog, "%sAnchor: %s", pre, anchor);
			for (size_t k = 0; k < nr; k++)
				fs_slave_line(slavelog, "%s%s", pre, text[k]);
			fs_slave_line(slavelog, "%s%s", pre, how);
			fs_slave_line(slavelog, "%s", pre);
		}
	}
	return n;
}

/* One run: its threads (the FWDs' or the format's), one line per interval on every view
 * until the elapsed time is over or, for a format run, the format is done; then the avg,
 * std and max lines, the flatfile's and results.json's rows, totals.html and the
 * Miscellaneous statistics. */
static int run_one(struct fs_running *x, double rate, struct fs_out *out,
		   const volatile sig_atomic_t *sig, struct fs_stats *total_out, double *cpu_out)
{
	const struct fs_run *r = x->r;
	struct fs_views *v = &out->views;
	bool is_format = r->kind == FS_RUN_FORMAT;
	uint64_t next = mono_ns();
	double c0_sys, c0 = cpu_s(&c0_sys);
	/* a format runs until done, format=limited no longer than elapsed= */
	uint64_t nr_int = is_format && !(r->format & FS_FMT_LIMITED)
				  ? UINT64_MAX
				  : (r->elapsed_s + r->warmup_s) / r->interval_s;
	uint64_t warm_int = r->warmup_s / r->interval_s;
	uint64_t done = 0; /* intervals completed */
	size_t counted = 0, nr_exhausted = 0;
	double cpu_sum = 0, secs = (double)r->interval_s;
	double m_sum = 0, m_sys_sum = 0; /* the machine's, for the reports */
	struct stats_cpu_sample m0;
	bool has_m = !stats_cpu_read(NULL, &m0);
	int ret = workers_make(x, v, rate);

	if (ret)
		return ret;
	if (is_format)
		x->ws[0].con = out->con;
	for (size_t i = 0; i < x->nr_ws; i++)
		pthread_create(&x->ws[i].tid, NULL, is_format ? format_main : worker_main,
			       &x->ws[i]);
	for (uint64_t iv = 1; iv <= nr_int; iv++) {
		double sys, c, m, m_sys;
		char label[48];
		uint64_t now;
		bool is_counted;

		next += r->interval_s * 1000000000ull;
		while (!is_stopped(sig) && !format_failed(x) && (now = mono_ns()) < next) {
			uint64_t left = next - now;
			struct timespec ts = { (time_t)(left / 1000000000ull),
					       (long)(left % 1000000000ull) };

			if (is_format && left > 20000000ull)
				ts = (struct timespec){
					0, 20000000
				};	      /* a failed format ends at once */
			nanosleep(&ts, NULL); /* a signal ends it early: checked above */
		}
		if (is_stopped(sig) || format_failed(x))
			break; /* as raw runs: the average covers the completed intervals */
		done = iv;
		nr_exhausted = is_format ? 0 : exhausted_say(x, out->con, out->slavelog);
		/* VDbench's avg leaves out the first interval, or the warmup ones */
		is_counted = iv > (warm_int ? warm_int : 1) || nr_int == 1;
		collect(x, v, is_counted);
		c = cpu_s(&sys);
		machine_cpu(&m0, &has_m, &m, &m_sys);
		snprintf(label, sizeof(label), "%llu", (unsigned long long)iv);
		if (!is_format) /* results.json holds the work runs */
			fs_json_interval(&out->json, &v->views[0].iv, secs);
		fs_flat_row(out->flat, r, label, rate, &v->views[0].iv, secs, m, m_sys, NULL, 0);
		fs_swat_interval(&out->swat, r, &v->views[0].iv, secs,
				 fs_flat_xfer(r, &v->views[0].iv));
		if (iv == 1) { /* after the format's notices, as VDbench */
			/* the blank line above it on the console only: logfile.html has it
			 * under the run's anchor line, above the format's notices (observed) */
			fflush(out->con);
			fputc('\n', stdout);
			fs_console_header_lines(out->con, v->cols);
		}
		fs_views_interval(v, out->con, label, secs, m, m_sys, is_counted);
		fs_vdbfiles_interval(out, r, iv);
		if (is_counted) {
			cpu_sum += pct_of(c - c0, secs);
			m_sum += m;
			m_sys_sum += m_sys;
			counted++;
		}
		c0 = c;
		fflush(out->con);
		if (is_format && atomic_load(&x->ws[0].is_done))
			break;
		if (x->nr_ws && nr_exhausted == x->nr_ws)
			break; /* every thread ended: nothing left to delete, as VDbench */
	}
	atomic_store(&x->stop, true);
	if (is_format)
		x->ws[0].fmt_stop = 1;
	for (size_t i = 0; i < x->nr_ws; i++)
		pthread_join(x->ws[i].tid, NULL);
	if (is_format)
		ret = x->ws[0].format_ret;
	if (is_format && ret == -EINTR && !is_stopped(sig)) {
		char tod[16];

		plan_time_of_day(tod); /* format=limited: elapsed= is over */
		fprintf(out->con,
			"%s format=limited: the format of rd=%s stopped after %llu seconds\n", tod,
			r->name, (unsigned long long)r->elapsed_s);
		ret = 0;
	}
	if (ret && ret != -EINTR) {
		workers_free(x);
		return ret; /* the format's message says why; no average of a failed format */
	}
	{
		const struct fs_view *tv = &v->views[0];
		char label[48], flabel[64];
		double csecs = (double)counted * secs;
		/* no counted interval (a format done in its first): NaN, as VDbench */
		double cpu = counted ? cpu_sum / (double)counted : NAN;
		double mcpu = counted ? m_sum / (double)counted : NAN;
		double msys = counted ? m_sys_sum / (double)counted : NAN;

		/* interrupted before an interval was averaged: no avg_ lines (VDbench prints none
		 * after Ctrl-C; a run's empty average still prints, with NaN, as VDbench's) */
		bool has_avg = counted || !is_stopped(sig);

		snprintf(label, sizeof(label), "avg_%llu-%llu",
			 (unsigned long long)(done - counted + 1), (unsigned long long)done);
		if (has_avg)
			fs_views_run_end(v, out->con, label, mcpu, msys);
		if (has_avg && !is_format)
			fs_console_warnings(out, r, v, csecs, mcpu);
		if (!is_format) {
			bool is_met = false;
			enum rep_limit lim = REP_LIMIT_NONE;

			if (has_avg)
				fs_run_validity(r, csecs > 0 ? (double)tv->avg.reqstd.n / csecs : 0,
						rate > 0 ? rate : NAN, cpu, &is_met, &lim);
			fs_json_run_end(&out->json, has_avg ? &tv->avg : NULL, csecs, done < nr_int,
					is_met, lim);
		}
		snprintf(flabel, sizeof(flabel), " %s", label);
		if (has_avg) {
			fs_flat_row(out->flat, r, flabel, rate, &tv->avg, csecs, mcpu, msys,
				    tv->hist, tv->nr_hist);
			fs_out_totals(out, label, csecs, mcpu, msys);
		}
		fs_vdbfiles_run_end(out, r, x->trees, &tv->all);
		fs_console_misc(out->con, &tv->all, (double)done * secs);
		*total_out = tv->avg;
		*cpu_out = cpu;
		if (!ret)
			ret = io_errors_say(x, out->con);
	}
	workers_free(x);
	return ret;
}

/* logfile.html's first lines of an execution: "Creating anchor for A,fsd=F" for every FSD
 * (observed). */
static void log_anchors(struct fs_out *o, const struct fs_plan *p)
{
	char tod[16];

	if (!o->logfile)
		return;
	fflush(o->con);
	for (size_t i = 0; i < p->cfg->fs->nr_fsds; i++) {
		plan_time_of_day(tod);
		fprintf(o->logfile, "%s Creating anchor for %s,fsd=%s\n", tod,
			p->cfg->fs->fsds[i].anchor, p->cfg->fs->fsds[i].name);
	}
	fflush(o->logfile);
}

/* logfile.html's lines, before the "Anchor size:" ones, on the FSDs each RD formats
 * (observed: for each RD with a format "R fsd to format: F" and "R format on host:
 * localhost" for each FSD it formats). */
static void log_format_plan(struct fs_out *o, const struct fs_plan *p)
{
	static const char prefix[] = "format_for_";
	const char *prev = NULL;
	char tod[16];

	if (!o->logfile)
		return;
	fflush(o->con);
	for (size_t ri = 0; ri < p->nr_runs; ri++) {
		const struct fs_run *r = &p->runs[ri];
		const char *rd = r->name;

		if (r->kind != FS_RUN_FORMAT)
			continue;
		if (!strncmp(rd, prefix, sizeof(prefix) - 1))
			rd += sizeof(prefix) - 1;
		if (prev && !strcmp(prev, rd))
			continue; /* the same RD's next for-loop value */
		prev = rd;
		for (size_t i = 0; i < r->nr_fsds; i++) {
			plan_time_of_day(tod);
			fprintf(o->logfile,
				"%s %s fsd to format: %s\n%s %s format on host: localhost\n", tod,
				rd, r->fsds[i].name, tod, rd);
		}
	}
	fflush(o->logfile);
}

/* jvms= asks VDbench for more slaves, each writing its localhost-N.html and .stdout.html and
 * taking whole FSDs (observed with hd=default,jvms=2: fsd2's format on localhost-1; by default
 * one slave, whatever the FSDs and threads, as its guide says). ioramp runs every FSD in this
 * one process: localhost-0's pages hold them all, and it says so. */
static void jvms_note(FILE *con, const struct parm_config *cfg)
{
	bool has = cfg->has_default_jvms;

	for (size_t i = 0; i < cfg->nr_hds; i++)
		has |= parm_kwset_has(&cfg->hds[i].set, PARM_KW_JVMS);
	if (has)
		fprintf(con,
			"ioramp: note: jvms= has no effect in file-system mode: one process runs "
			"every FSD, reported as slave localhost-0 (no localhost-1.html)\n");
}

/* The anchors a format needs, made in VDbench's anchor order (fs_anchor_order). */
static void make_anchors(const struct fs_run *r, FILE *con)
{
	size_t *order = fs_anchor_order(r->fsds, r->nr_fsds);

	for (size_t i = 0; i < r->nr_fsds; i++)
		fs_make_anchor(r->fsds[order ? order[i] : i].anchor, con, true);
	free(order);
}

/* anchors.html's first block: every anchor as it is before the first run (a format). */
static void anchors_start(FILE *anchors, const struct parm_fs *fs)
{
	struct fs_tree *t = calloc(fs->nr_fsds ? fs->nr_fsds : 1, sizeof(*t));
	size_t ok = 0;

	for (; t && ok < fs->nr_fsds && !fs_tree_init(&t[ok], &fs->fsds[ok]); ok++)
		fs_tree_scan(&t[ok]);
	if (t && ok == fs->nr_fsds)
		fs_anchors_status(anchors, fs_anchors_width(fs), t, ok);
	for (size_t i = 0; t && i < ok; i++)
		fs_tree_fini(&t[i]);
	free(t);
}

/* loop= or -l: the passes over the runs, N or until a time (plan_loop_count). */
struct fs_loop {
	uint64_t nr_passes, until_ns;
};

/* Whether run number k (over every pass) goes: within its pass, or a next pass is due. */
static bool is_next_run(const struct fs_plan *p, size_t k, const struct fs_loop *l)
{
	if (!p->nr_runs)
		return false;
	if (k % p->nr_runs)
		return true;
	return k / p->nr_runs < l->nr_passes && (!l->until_ns || mono_ns() < l->until_ns);
}

int fs_exec_plan(const struct fs_plan *p, const struct fs_exec_opts *o)
{
	struct fs_loop loop;
	uint64_t for_ns;
	double max_seen = 0;
	int ret = 0;
	struct fs_out out;
	struct fs_curves curves = { 0 };
	FILE *anchors;

	ret = fs_out_open(&out, o->outdir, p, o->argc, o->argv);
	if (ret)
		return ret;
	loop.nr_passes = plan_loop_count(p->cfg, &for_ns);
	loop.until_ns = for_ns ? mono_ns() + for_ns : 0;
	anchors = fs_anchors_open(out.dir, p);
	if (!anchors) {
		fs_out_close(&out, 1);
		return -EIO;
	}
	log_anchors(&out, p);
	fs_thread_notes(out.con, p); /* on the console and in logfile.html */
	log_format_plan(&out, p);
	jvms_note(out.con, p->cfg);
	ret = fs_anchor_lines(p, out.con);
	if (ret) {
		fs_anchors_close(anchors);
		fs_out_close(&out, 1);
		return ret;
	}
	fs_out_console_slaves(&out);
	/* VDbench writes that block when the execution starts with a format (observed: with
	 * format=yes or only, not before a format=no run on an existing tree) */
	if (p->nr_runs && p->runs[0].kind == FS_RUN_FORMAT)
		anchors_start(anchors, p->cfg->fs);
	for (size_t k = 0; !ret && !is_stopped(o->stop_signal) && is_next_run(p, k, &loop); k++) {
		size_t ri = k % p->nr_runs; /* k: the run's number over every pass of loop= */
		const struct fs_run *r = &p->runs[ri];
		struct fs_running x = { .r = r };
		struct fs_stats st = { 0 };
		double cpu = 0;
		size_t ok = 0;
		char tod[16], text[1200], warm[32];
		double rate = r->rate == PLAN_RATE_FIXED ? r->rate_ops : 0;

		x.trees = calloc(r->nr_fsds ? r->nr_fsds : 1, sizeof(*x.trees));
		if (!x.trees) {
			ret = -ENOMEM;
			break;
		}
		for (; !ret && ok < r->nr_fsds; ok++)
			ret = fs_tree_init(&x.trees[ok], &r->fsds[ok]);
		if (r->rate == PLAN_RATE_CURVE_POINT)
			rate = plan_curve_target(max_seen, r->pct);
		/* "elapsed=6 warmup=2;" as -s lists it (VDbench 5.04.07, observed) */
		warm[0] = '\0';
		if (r->warmup_s)
			snprintf(warm, sizeof(warm), " warmup=%llu",
				 (unsigned long long)r->warmup_s);
		if (r->kind == FS_RUN_FORMAT)
			snprintf(text, sizeof(text), "Starting RD=%s", r->name);
		else if (rate > 0)
			snprintf(text, sizeof(text),
				 "Starting RD=%s; elapsed=%llu%s; fwdrate=%.0f; For loops: %s",
				 r->name, (unsigned long long)r->elapsed_s, warm,
				 r->rate == PLAN_RATE_FIXED ? r->rate_shown : rate, r->for_loops);
		else
			snprintf(text, sizeof(text),
				 "Starting RD=%s; elapsed=%llu%s; fwdrate=%s. For loops: %s",
				 r->name, (unsigned long long)r->elapsed_s, warm,
				 r->rate == PLAN_RATE_CURVE_MAX ? "curve" : "max", r->for_loops);
		if (!ret) {
			/* format=(no,complete): taken as formatted, no directory searches */
			for (size_t i = 0; i < r->nr_fsds; i++)
				if (r->kind == FS_RUN_WORK && (r->format & FS_FMT_COMPLETE))
					fs_tree_assume_complete(&x.trees[i]);
				else
					fs_tree_scan(&x.trees[i]);
			/* as VDbench: the anchors a format needs made before its start, and each
			 * run's totalsize= notice before it starts */
			if (r->kind == FS_RUN_FORMAT)
				make_anchors(r, out.con);
			fs_out_logfile_links(&out);
			fs_out_logfile_setup(&out, r);
			for (size_t i = 0; i < r->nr_fsds; i++)
				fs_totalsize_say(&x.trees[i], out.con);

			plan_time_of_day(tod);
			fs_out_run_start(&out, k, r, x.trees, tod, text);
			fs_views_run_start(&out.views, r, k, tod, text);
			if (r->kind == FS_RUN_WORK)
				fs_json_run_start(&out.json, r, rate);
			ret = run_one(&x, rate, &out, o->stop_signal, &st, &cpu);
			if (!ret && !is_stopped(o->stop_signal))
				ret = fs_curves_run_end(&curves, r, &out.views, rate, cpu);
			if (!ret && !is_stopped(o->stop_signal))
				ret = fs_skew_abort(r, &out.views, p->cfg, out.con);
		}
		if (!ret || ret == -EINTR)
			fs_anchors_run(anchors, fs_anchors_width(p->cfg->fs), k, r, tod, text,
				       x.trees);
		if (!ret && r->kind == FS_RUN_WORK) {
			if (r->rate == PLAN_RATE_CURVE_MAX || r->rate == PLAN_RATE_MAX)
				/* the base of the points: the counted intervals' rate */
				max_seen = (double)st.reqstd.n /
					   (double)(out.views.views[0].nr_hist
							    ? out.views.views[0].nr_hist *
								      r->interval_s
							    : 1);
			for (size_t i = 0; i < r->nr_fsds; i++)
				fs_tree_write_control(&x.trees[i]);
		}
		for (size_t i = 0; i < ok; i++)
			fs_tree_fini(&x.trees[i]);
		free(x.trees);
		fflush(out.con);
	}
	if (ret == -EINTR && is_stopped(o->stop_signal))
		ret = 0; /* a format stopped by the signal: reported as interrupted, not failed */
	fs_anchors_close(anchors);
	{
		int status = ret ? 1 : is_stopped(o->stop_signal) ? 128 + *o->stop_signal : 0;
		int closed = curves.nr ? fs_curves_write(&curves, out.dir, status) : 0;

		fs_curves_free(&curves);
		if (closed && !ret)
			status = 1;
		closed = fs_out_close(&out, status) ? -EIO : closed;

		return ret ? ret : closed;
	}
}
