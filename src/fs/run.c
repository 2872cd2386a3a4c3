/* Running a file-system plan: per run, the trees of its FSDs; a format run formats them; a
 * work run starts each FWD's threads, each doing its operation with real system calls in an
 * open loop at its share of fwdrate= (the next start is due at a fixed step whatever the
 * last one took; max: back to back), and the main thread prints one console line per
 * interval, the avg line and the Miscellaneous statistics. */
#include "fs_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct fs_worker {
	pthread_t tid;
	const struct parm_fwd *fwd;
	struct fs_tree *trees; /* all of the run's trees; fwd->fsd_idx picks */
	double step_ns;	       /* 0: max */
	uint64_t rng;
	atomic_bool *stop;
	pthread_mutex_t lock;
	struct fs_stats st; /* since the last interval; under lock */
	uint64_t next_file;
	char *buf;
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

/* Waits until the next start is due (open loop); returns the due time. */
static uint64_t pace(struct fs_worker *w, uint64_t *due)
{
	uint64_t now = mono_ns();

	if (!w->step_ns)
		return now;
	*due += (uint64_t)w->step_ns;
	while (now < *due && !atomic_load(w->stop)) {
		uint64_t left = *due - now;
		struct timespec ts = { (time_t)(left / 1000000000ull),
				       (long)(left % 1000000000ull) };

		if (left > 50000000ull)
			ts = (struct timespec){ 0, 50000000 };
		nanosleep(&ts, NULL);
		now = mono_ns();
	}
	return *due;
}

static void note(struct fs_worker *w, enum fs_op op, uint64_t t0, bool is_reqstd)
{
	double ms = (double)(mono_ns() - t0) / 1e6;

	pthread_mutex_lock(&w->lock);
	fs_opstat_note(&w->st.op[op], ms);
	if (is_reqstd)
		fs_opstat_note(&w->st.reqstd, ms);
	pthread_mutex_unlock(&w->lock);
}

static void misc(struct fs_worker *w, enum fs_misc m)
{
	pthread_mutex_lock(&w->lock);
	w->st.misc[m]++;
	pthread_mutex_unlock(&w->lock);
}

/* A file in state want (NONE, FULL: FULL or EMPTY), marked busy; -1 when none. */
static int64_t pick_file(struct fs_worker *w, struct fs_tree **tp, bool want_exists)
{
	const struct parm_fwd *f = w->fwd;
	struct fs_tree *t = &w->trees[f->fsd_idx[rnd(w) % f->nr_fsd]];
	uint64_t n = t->nr_files;

	*tp = t;
	if (!n)
		return -1;
	pthread_mutex_lock(&t->lock);
	for (uint64_t tries = 0; tries < n; tries++) {
		uint64_t i = f->is_select_seq ? (w->next_file++) % n : rnd(w) % n;
		unsigned char s = t->file_state[i];

		if (s & FS_FILE_BUSY) {
			misc(w, FS_MISC_FILE_BUSY);
			continue;
		}
		if ((s != FS_FILE_NONE) == want_exists &&
		    (want_exists || t->dir_state[fs_tree_file_dir(t, i)] || !t->fsd->depth)) {
			t->file_state[i] |= FS_FILE_BUSY;
			pthread_mutex_unlock(&t->lock);
			return (int64_t)i;
		}
	}
	pthread_mutex_unlock(&t->lock);
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

/* read/write: open, then sequential blocks to the end or stopafter random blocks, close. */
static int do_rw(struct fs_worker *w, uint64_t *due)
{
	const struct parm_fwd *f = w->fwd;
	struct fs_tree *t;
	int64_t i = pick_file(w, &t, true);
	char path[4096];
	uint64_t size, t0, off = 0, n = 0, limit;
	int fd;

	if (i < 0)
		return -ENOENT;
	size = fs_file_size(t->fsd, (uint64_t)i);
	fs_tree_file_path(t, (uint64_t)i, path, sizeof(path));
	t0 = mono_ns();
	fd = open(path, (f->op == FS_OP_WRITE || f->rdpct >= 0 ? O_RDWR : O_RDONLY) |
				(int)f->openflags.flags | (int)t->fsd->openflags.flags);
	if (fd < 0) {
		release(t, (uint64_t)i, FS_FILE_NONE);
		return 0;
	}
	note(w, FS_OP_OPEN, t0, f->op == FS_OP_OPEN);
	misc(w, f->op == FS_OP_WRITE ? FS_MISC_WRITE_OPENS : FS_MISC_READ_OPENS);
	/* random I/O stops after stopafter= blocks, by default a file's size of them */
	limit = f->stopafter ? f->stopafter : UINT64_MAX;
	if (f->is_random && !f->stopafter)
		limit = size / (w->fwd->xfer.nr ? w->fwd->xfer.sizes_bytes[0] : 4096) + 1;
	while (!atomic_load(w->stop) && n < limit) {
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
		if (atomic_load(w->stop))
			break;
		r = is_read ? pread(fd, w->buf, xs, (off_t)off)
			    : pwrite(fd, w->buf, xs, (off_t)off);
		if (r <= 0)
			break;
		note(w, is_read ? FS_OP_READ : FS_OP_WRITE, start, true);
		pthread_mutex_lock(&w->lock);
		if (is_read)
			w->st.read_bytes += (uint64_t)r;
		else
			w->st.write_bytes += (uint64_t)r;
		pthread_mutex_unlock(&w->lock);
		if (!f->is_random)
			off += xs;
		n++;
		if (!f->is_random && off >= size)
			break;
	}
	t0 = mono_ns();
	close(fd);
	note(w, FS_OP_CLOSE, t0, f->op == FS_OP_CLOSE);
	misc(w, FS_MISC_FILE_CLOSES);
	release(t, (uint64_t)i, FS_FILE_FULL);
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

	if (op == FS_OP_MKDIR || op == FS_OP_RMDIR) {
		t = &w->trees[f->fsd_idx[rnd(w) % f->nr_fsd]];
		pthread_mutex_lock(&t->lock);
		for (uint64_t k = 0; k < t->nr_dirs; k++) {
			uint64_t d = (rnd(w) + k) % t->nr_dirs;
			bool has = t->dir_state[d];

			if ((op == FS_OP_MKDIR) != has) {
				fs_tree_dir_path(t, d, path, sizeof(path));
				t0 = pace(w, due);
				r = op == FS_OP_MKDIR ? mkdir(path, 0755) : rmdir(path);
				if (!r) {
					t->dir_state[d] = op == FS_OP_MKDIR;
					note(w, op, t0, true);
					misc(w, op == FS_OP_MKDIR ? FS_MISC_DIRECTORY_CREATES
								  : FS_MISC_DIRECTORY_DELETES);
					pthread_mutex_unlock(&t->lock);
					return 0;
				}
			}
		}
		pthread_mutex_unlock(&t->lock);
		return -ENOENT;
	}
	i = pick_file(w, &t, op != FS_OP_CREATE);
	if (i < 0)
		return -ENOENT;
	fs_tree_file_path(t, (uint64_t)i, path, sizeof(path));
	t0 = pace(w, due);
	switch (op) {
	case FS_OP_CREATE:
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd >= 0) {
			note(w, op, t0, true);
			misc(w, FS_MISC_FILE_CREATES);
			close(fd);
			release(t, (uint64_t)i, FS_FILE_EMPTY);
			return 0;
		}
		release(t, (uint64_t)i, FS_FILE_EMPTY);
		return 0;
	case FS_OP_DELETE:
		r = unlink(path);
		if (!r) {
			note(w, op, t0, true);
			misc(w, FS_MISC_FILE_DELETES);
		}
		release(t, (uint64_t)i, FS_FILE_NONE);
		return 0;
	case FS_OP_GETATTR: {
		struct stat sb;

		r = stat(path, &sb);
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
		if (fd >= 0) {
			note(w, FS_OP_OPEN, t0, op == FS_OP_OPEN);
			t0 = mono_ns();
			close(fd);
			note(w, FS_OP_CLOSE, t0, op == FS_OP_CLOSE);
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
			note(w, op, t0, true);
		return 0;
	}
	default:
		break;
	}
	if (!r)
		note(w, op, t0, true);
	release(t, (uint64_t)i, t->file_state[i] & ~FS_FILE_BUSY);
	return 0;
}

static void *worker_main(void *arg)
{
	struct fs_worker *w = arg;
	uint64_t due = mono_ns();
	unsigned int idle = 0;

	while (!atomic_load(w->stop)) {
		bool is_rw = w->fwd->op == FS_OP_READ || w->fwd->op == FS_OP_WRITE;
		int r = is_rw ? do_rw(w, &due) : do_meta(w, &due);

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
	return NULL;
}

static double cpu_s(double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return *sys + (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
}

/* A run's rate per thread: fwdrate split over the FWDs (by skew= where given), then over
 * their threads. */
static double thread_rate(const struct fs_run *r, const struct parm_fwd *f, double total)
{
	double skewed = 0;
	size_t unskewed = 0;

	for (size_t i = 0; i < r->nr_fwds; i++) {
		skewed += r->fwds[i].skew;
		unskewed += r->fwds[i].skew == 0;
	}
	if (f->skew > 0)
		return total * f->skew / 100.0 / f->threads;
	return unskewed ? total * (100 - skewed) / 100.0 / (double)unskewed / f->threads : 0;
}

/* The FWDs' own pages: each distinct FWD name (operations= splits one FWD in several). */
static bool first_of_name(const struct fs_run *r, size_t j)
{
	for (size_t k = 0; k < j; k++)
		if (!strcmp(r->fwds[k].name, r->fwds[j].name))
			return false;
	return true;
}

static void fwd_pages_start(const struct fs_run *r, struct fs_out *out)
{
	for (size_t j = 0; j < r->nr_fwds; j++) {
		FILE *f = first_of_name(r, j) ? fs_out_page(out, r->fwds[j].name) : NULL;

		if (!f)
			continue;
		fprintf(f, "\nRD=%s; For loops: %s\n", r->name, r->for_loops);
		fs_console_header(f);
	}
}

static void fwd_pages_line(const struct fs_run *r, struct fs_out *out, const char *label,
			   const struct fs_stats *per, double secs, double pct, double pct_sys)
{
	for (size_t j = 0; j < r->nr_fwds; j++) {
		struct fs_stats sum = { 0 };
		FILE *f = first_of_name(r, j) ? fs_out_page(out, r->fwds[j].name) : NULL;

		if (!f)
			continue;
		for (size_t k = j; k < r->nr_fwds; k++)
			if (!strcmp(r->fwds[k].name, r->fwds[j].name))
				fs_stats_add(&sum, &per[k]);
		fs_console_line(f, label, &sum, secs, pct, pct_sys);
		fflush(f);
	}
}

/* Whether a signal asked the execution to stop. */
static bool is_stopped(const volatile sig_atomic_t *sig)
{
	return sig && *sig;
}

static int run_work(const struct fs_run *r, struct fs_tree *trees, double rate,
		    struct fs_stats *total_out, FILE *con, FILE *totals, struct fs_json *json,
		    FILE *flat, struct fs_out *out, const volatile sig_atomic_t *sig)
{
	size_t nr = 0;
	struct fs_worker *ws;
	atomic_bool stop = false;
	struct fs_stats total = { 0 };
	uint64_t start = mono_ns(), next;
	double c0_sys, c0 = cpu_s(&c0_sys);
	uint64_t nr_int = (r->elapsed_s + r->warmup_s) / r->interval_s;
	uint64_t warm_int = r->warmup_s / r->interval_s;
	uint64_t counted = 0, done = 0; /* intervals counted in the average, and completed */
	double cpu_sum = 0, sys_sum = 0;
	struct fs_stats *hist = calloc(nr_int ? nr_int : 1, sizeof(*hist));
	/* per FWD (r->fwds index): this interval and the counted total, for <fwd>.html */
	struct fs_stats *fiv = calloc(r->nr_fwds ? r->nr_fwds : 1, sizeof(*fiv));
	struct fs_stats *ftot = calloc(r->nr_fwds ? r->nr_fwds : 1, sizeof(*ftot));

	for (size_t i = 0; i < r->nr_fwds; i++)
		nr += r->fwds[i].threads;
	ws = calloc(nr, sizeof(*ws));
	if (!ws || !hist || !fiv || !ftot) {
		free(ws);
		free(hist);
		free(fiv);
		free(ftot);
		return -ENOMEM;
	}
	nr = 0;
	for (size_t i = 0; i < r->nr_fwds; i++)
		for (uint32_t k = 0; k < r->fwds[i].threads; k++, nr++) {
			struct fs_worker *w = &ws[nr];
			double tr = rate > 0 ? thread_rate(r, &r->fwds[i], rate) : 0;

			w->fwd = &r->fwds[i];
			w->trees = trees;
			w->step_ns = tr > 0 ? 1e9 / tr : 0;
			w->rng = 0x9e3779b97f4a7c15ull * (nr + 1);
			w->stop = &stop;
			w->next_file = k;
			pthread_mutex_init(&w->lock, NULL);
			if (posix_memalign((void **)&w->buf, 4096, 1 << 20))
				w->buf = NULL;
			else
				memset(w->buf, 0x5a, 1 << 20);
		}
	fs_console_header(con);
	fwd_pages_start(r, out);
	for (size_t i = 0; i < nr; i++)
		if (ws[i].buf)
			pthread_create(&ws[i].tid, NULL, worker_main, &ws[i]);
	next = start;
	for (uint64_t iv = 1; iv <= nr_int; iv++) {
		struct fs_stats s = { 0 };
		double sys, c = cpu_s(&sys);
		char label[48];
		uint64_t now;

		next += r->interval_s * 1000000000ull;
		while (!is_stopped(sig) && (now = mono_ns()) < next) {
			uint64_t left = next - now;
			struct timespec ts = { (time_t)(left / 1000000000ull),
					       (long)(left % 1000000000ull) };

			nanosleep(&ts, NULL); /* a signal ends it early: checked above */
		}
		if (is_stopped(sig))
			break; /* as raw runs: the average covers the completed intervals */
		done = iv;
		for (size_t i = 0; i < nr; i++) {
			pthread_mutex_lock(&ws[i].lock);
			fs_stats_add(&s, &ws[i].st);
			fs_stats_add(&fiv[ws[i].fwd - r->fwds], &ws[i].st);
			memset(&ws[i].st, 0, sizeof(ws[i].st));
			pthread_mutex_unlock(&ws[i].lock);
		}
		c = cpu_s(&sys);
		snprintf(label, sizeof(label), "%llu", (unsigned long long)iv);
		{
			double secs = (double)r->interval_s;
			long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
			double pct = 100.0 * (c - c0) / secs / (double)(ncpu > 0 ? ncpu : 1);
			double pct_sys =
				100.0 * (sys - c0_sys) / secs / (double)(ncpu > 0 ? ncpu : 1);

			fs_console_line(con, label, &s, secs, pct, pct_sys);
			fs_json_interval(json, &s, secs);
			fwd_pages_line(r, out, label, fiv, secs, pct, pct_sys);
			fs_flat_row(flat, r, label, rate, &s, secs, pct, pct_sys, NULL, 0);
			if (iv > (warm_int ? warm_int : 1) || nr_int == 1) {
				cpu_sum += pct;
				sys_sum += pct_sys;
			}
		}
		c0 = c;
		c0_sys = sys;
		/* VDbench's avg leaves out the first interval, or the warmup ones */
		if (iv > (warm_int ? warm_int : 1) || nr_int == 1) {
			fs_stats_add(&total, &s);
			hist[counted++] = s;
			for (size_t j = 0; j < r->nr_fwds; j++)
				fs_stats_add(&ftot[j], &fiv[j]);
		}
		memset(fiv, 0, r->nr_fwds * sizeof(*fiv));
		fflush(con);
	}
	atomic_store(&stop, true);
	for (size_t i = 0; i < nr; i++)
		if (ws[i].buf)
			pthread_join(ws[i].tid, NULL);
	{
		char label[48];
		uint64_t first = done - counted + 1;

		snprintf(label, sizeof(label), "avg_%llu-%llu", (unsigned long long)first,
			 (unsigned long long)done);
		fs_console_line(con, label, &total, (double)(counted * r->interval_s),
				counted ? cpu_sum / (double)counted : 0,
				counted ? sys_sum / (double)counted : 0);
		fs_json_run_end(json, &total, (double)(counted * r->interval_s), done < nr_int);
		fwd_pages_line(r, out, label, ftot, (double)(counted * r->interval_s),
			       counted ? cpu_sum / (double)counted : 0,
			       counted ? sys_sum / (double)counted : 0);
		{
			char flabel[64];

			snprintf(flabel, sizeof(flabel), " %s", label);
			fs_flat_row(flat, r, flabel, rate, &total,
				    (double)(counted * r->interval_s),
				    counted ? cpu_sum / (double)counted : 0,
				    counted ? sys_sum / (double)counted : 0, hist, counted);
		}
		fs_console_stdmax(con, label + 4, hist, counted, (double)r->interval_s);
		/* totals.html: each run's heading and average line, as the raw totals */
		fprintf(totals, "Run %s; For loops: %s\n", r->name, r->for_loops);
		fs_console_header(totals);
		fs_console_line(totals, label, &total, (double)(counted * r->interval_s),
				counted ? cpu_sum / (double)counted : 0,
				counted ? sys_sum / (double)counted : 0);
		fputc('\n', totals);
		fs_console_misc(con, &total, (double)(counted * r->interval_s));
	}
	for (size_t i = 0; i < nr; i++) {
		pthread_mutex_destroy(&ws[i].lock);
		free(ws[i].buf);
	}
	free(ws);
	free(hist);
	free(fiv);
	free(ftot);
	*total_out = total;
	return 0;
}

int fs_exec_plan(const struct fs_plan *p, const struct fs_exec_opts *o)
{
	double max_seen = 0;
	int ret = 0;
	struct fs_out out;
	FILE *anchors;

	ret = fs_out_open(&out, o->outdir, p);
	if (ret)
		return ret;
	anchors = fs_anchors_open(out.dir, p);
	if (!anchors) {
		fs_out_close(&out, 1);
		return -EIO;
	}
	for (size_t i = 0; i < p->cfg->fs->nr_fsds; i++) {
		char line[4200], tod[16];

		fs_anchor_size_line(&p->cfg->fs->fsds[i], line, sizeof(line));
		plan_time_of_day(tod);
		fprintf(out.con, "%s %s\n", tod, line);
	}
	for (size_t ri = 0; !ret && !is_stopped(o->stop_signal) && ri < p->nr_runs; ri++) {
		const struct fs_run *r = &p->runs[ri];
		struct fs_tree *trees = calloc(r->nr_fsds ? r->nr_fsds : 1, sizeof(*trees));
		struct fs_stats st = { 0 };
		size_t ok = 0;
		char tod[16];

		if (!trees) {
			ret = -ENOMEM;
			break;
		}
		for (; !ret && ok < r->nr_fsds; ok++)
			ret = fs_tree_init(&trees[ok], &r->fsds[ok]);
		if (!ret && r->kind == FS_RUN_FORMAT) {
			for (size_t i = 0; i < r->nr_fsds; i++)
				fs_tree_scan(&trees[i]);
			fs_anchors_run(anchors, r, trees);
			plan_time_of_day(tod);
			fprintf(out.con, "%s Starting RD=%s\n", tod, r->name);
			for (size_t i = 0; !ret && i < r->nr_fsds; i++) {
				ret = fs_format(&trees[i], r->format, &st, o->stop_signal);
				if (!ret)
					fs_tree_write_control(&trees[i]);
			}
			if (!ret)
				fs_console_misc(out.con, &st, 1);
		} else if (!ret) {
			double rate = r->rate == PLAN_RATE_FIXED ? r->rate_ops : 0;

			if (r->rate == PLAN_RATE_CURVE_POINT)
				rate = plan_curve_target(max_seen, r->pct);
			plan_time_of_day(tod);
			fprintf(out.con, "%s Starting RD=%s; elapsed=%llu; fwdrate=", tod, r->name,
				(unsigned long long)r->elapsed_s);
			if (rate > 0)
				fprintf(out.con, "%.0f; For loops: %s\n", rate, r->for_loops);
			else
				fprintf(out.con, "max. For loops: %s\n", r->for_loops);
			for (size_t i = 0; i < r->nr_fsds; i++)
				fs_tree_scan(&trees[i]);
			fs_anchors_run(anchors, r, trees);
			fs_json_run_start(&out.json, r, rate);
			ret = run_work(r, trees, rate, &st, out.con, out.totals, &out.json,
				       out.flat, &out, o->stop_signal);
			if (r->rate == PLAN_RATE_CURVE_MAX || r->rate == PLAN_RATE_MAX)
				max_seen = st.reqstd.n / (double)(r->elapsed_s ? r->elapsed_s : 1);
			for (size_t i = 0; i < r->nr_fsds; i++)
				fs_tree_write_control(&trees[i]);
		}
		for (size_t i = 0; i < ok; i++)
			fs_tree_fini(&trees[i]);
		free(trees);
		fflush(out.con);
	}
	if (ret == -EINTR && is_stopped(o->stop_signal))
		ret = 0; /* a format stopped by the signal: reported as interrupted, not failed */
	fs_anchors_close(anchors);
	{
		int status = ret ? 1 : is_stopped(o->stop_signal) ? 128 + *o->stop_signal : 0;
		int closed = fs_out_close(&out, status);

		return ret ? ret : closed;
	}
}
