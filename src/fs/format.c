/* The format pass: an anchor is created only inside a directory that exists; what a previous
 * format left (vdb.*.dir directories, vdb_f*.file files, vdb_control.file) is removed, and
 * nothing else; then every directory is made, every file created and written to its size. */
#include "fs_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The notices are the slave's, "localhost-0: " first, as VDbench prints its slave's lines. */

/* The counters go to *st under the lock the run's main thread reads them with. */
struct fmt_sink {
	struct fs_stats *st;
	pthread_mutex_t *lock;
	struct stats_hist *lat, *svc; /* the writes' response (and service: the same) times */
};

static void sink_op(struct fmt_sink *k, enum fs_op op, double ms, enum fs_misc m, uint64_t bytes)
{
	pthread_mutex_lock(k->lock);
	if (op != FS_OP_NR) {
		fs_opstat_note(&k->st->op[op], ms);
		if (op == FS_OP_WRITE) { /* the format's requested operations */
			uint64_t ns = ms > 0 ? (uint64_t)(ms * 1e6) : 0;

			fs_opstat_note(&k->st->reqstd, ms);
			/* the format's histograms, as VDbench has them (observed) */
			if (k->lat)
				stats_hist_add(k->lat, ns);
			if (k->svc)
				stats_hist_add(k->svc, ns);
		}
	}
	if (m != FS_MISC_NR)
		k->st->misc[m]++;
	k->st->write_bytes += bytes;
	pthread_mutex_unlock(k->lock);
}

/* "  30.0k", "   1.5g" as the totalsize= notice prints them (observed). */
static void size_text(uint64_t b, char *buf, size_t len)
{
	if (b < 1024ull * 1024)
		snprintf(buf, len, "%6.1fk", (double)b / 1024);
	else if (b < 1024ull * 1024 * 1024)
		snprintf(buf, len, "%6.1fm", (double)b / 1024 / 1024);
	else
		snprintf(buf, len, "%6.1fg", (double)b / 1024 / 1024 / 1024);
}

static bool is_ours(const char *name, bool is_dir)
{
	if (is_dir)
		return !fnmatch("vdb.*.dir", name, 0);
	return !fnmatch("vdb_f*.file", name, 0) || !strcmp(name, "vdb_control.file");
}

/* Removes our entries under dir; a directory of ours goes only once empty of everything. */
static int clean_dir(const char *dir, struct fmt_sink *st)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		char path[4096];
		struct stat sb;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &sb))
			continue;
		if (S_ISDIR(sb.st_mode) && is_ours(e->d_name, true)) {
			ret = clean_dir(path, st);
			if (!ret && !rmdir(path))
				sink_op(st, FS_OP_NR, 0, FS_MISC_DIRECTORY_DELETES, 0);
		} else if (S_ISREG(sb.st_mode) && is_ours(e->d_name, false)) {
			if (!unlink(path) && strcmp(e->d_name, "vdb_control.file"))
				sink_op(st, FS_OP_NR, 0, FS_MISC_FILE_DELETES, 0);
		}
		if (ret)
			break;
	}
	closedir(d);
	return ret;
}

/* The anchor exists afterwards, or its parent did not (the safety rule). */
int fs_make_anchor(const char *anchor, FILE *con, bool is_quiet)
{
	char parent[4096];
	struct stat sb;
	char tod[16];

	if (!stat(anchor, &sb))
		return S_ISDIR(sb.st_mode) ? 0 : -ENOTDIR;
	snprintf(parent, sizeof(parent), "%s", anchor);
	if (stat(dirname(parent), &sb) || !S_ISDIR(sb.st_mode)) {
		if (is_quiet)
			return -ENOENT;
		fprintf(stderr,
			"ioramp: anchor=%s: its parent directory does not exist; ioramp creates an "
			"anchor only inside an existing directory\n",
			anchor);
		return -ENOENT;
	}
	if (mkdir(anchor, 0755)) {
		int err = errno;

		if (!is_quiet)
			fprintf(stderr, "ioramp: anchor=%s: mkdir: %s\n", anchor, strerror(err));
		return -err;
	}
	plan_time_of_day(tod);
	fprintf(con ? con : stdout, "%s localhost-0: Created anchor directory: %s\n", tod, anchor);
	return 0;
}

void fs_totalsize_say(const struct fs_tree *t, FILE *con)
{
	uint64_t made = 0;
	unsigned char *in;
	char sz[32], tod[16];

	if (!t->fsd->totalsize_bytes)
		return;
	in = malloc(t->nr_files ? t->nr_files : 1);
	if (!in)
		return;
	fs_tree_totalsize_files(t, in, &made);
	free(in);
	size_text(t->fsd->totalsize_bytes, sz, sizeof(sz));
	plan_time_of_day(tod);
	fprintf(con,
		"%s localhost-0: Created totalsize=%s using %12" PRIu64 " of %12" PRIu64
		" files for anchor=%s\n",
		tod, sz, made, t->nr_files, t->fsd->anchor);
}

static int write_file(const char *path, uint64_t size, uint32_t oflags, struct fmt_sink *st)
{
	static const size_t chunk = 128 * 1024; /* VDbench formats with xfersize=128k */
	char *buf;
	uint64_t done = 0;
	int fd;
	double t0 = now_ms();

	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | (int)oflags, 0644);
	if (fd < 0)
		return -errno;
	t0 = now_ms() - t0;
	sink_op(st, FS_OP_CREATE, t0, FS_MISC_FILE_CREATES, 0);
	sink_op(st, FS_OP_OPEN, t0, FS_MISC_WRITE_OPENS, 0); /* the create's open */
	if (posix_memalign((void **)&buf, 4096, chunk)) {
		close(fd);
		return -ENOMEM;
	}
	memset(buf, 0x5a, chunk);
	while (done < size) {
		size_t n = size - done < chunk ? (size_t)(size - done) : chunk;
		ssize_t w;

		t0 = now_ms();
		w = write(fd, buf, n);
		if (w <= 0) {
			free(buf);
			close(fd);
			return w < 0 ? -errno : -EIO;
		}
		sink_op(st, FS_OP_WRITE, now_ms() - t0, FS_MISC_NR, (uint64_t)w);
		done += (uint64_t)w;
	}
	free(buf);
	t0 = now_ms();
	close(fd);
	sink_op(st, FS_OP_CLOSE, now_ms() - t0, FS_MISC_FILE_CLOSES, 0);
	return 0;
}

/* One of the format's threads on a tree: files first, first + FS_FORMAT_THREADS, ... */
struct fmt_part {
	pthread_t tid;
	struct fs_tree *t;
	const unsigned char *in; /* the files the format makes */
	struct fmt_sink *st;
	const volatile sig_atomic_t *stop;
	atomic_bool *failed; /* a thread's error stops the others */
	uint64_t first;
	int ret;
};

static void *format_part(void *arg)
{
	struct fmt_part *p = arg;
	struct fs_tree *t = p->t;
	char path[4096];

	for (uint64_t f = p->first; f < t->nr_files; f += FS_FORMAT_THREADS) {
		if ((p->stop && *p->stop) || atomic_load(p->failed)) {
			p->ret = -EINTR;
			return NULL;
		}
		if (!p->in[f] || t->file_state[f] == FS_FILE_FULL)
			continue;
		fs_tree_file_path(t, f, path, sizeof(path));
		p->ret = write_file(path, fs_file_size(t->fsd, f), 0, p->st);
		t->file_opened[f] = 1; /* anchors.html's "Opened" */
		if (p->ret) {
			atomic_store(p->failed, true);
			fprintf(stderr, "ioramp: create %s: %s\n", path, strerror(-p->ret));
			return NULL;
		}
		t->file_state[f] = FS_FILE_FULL; /* each thread its own files: no lock */
	}
	return NULL;
}

/* Creates and writes the tree's files with FS_FORMAT_THREADS threads, as VDbench's format
 * ("Started 8 threads for fwd=format"): 0, -EINTR when stopped, or the first error. */
static int format_files(struct fs_tree *t, const unsigned char *in, struct fmt_sink *st,
			const volatile sig_atomic_t *stop)
{
	struct fmt_part parts[FS_FORMAT_THREADS];
	atomic_bool failed = false;
	size_t started = 0;
	int ret = 0;

	for (; started < FS_FORMAT_THREADS; started++) {
		parts[started] = (struct fmt_part){ .t = t,
						    .in = in,
						    .st = st,
						    .stop = stop,
						    .failed = &failed,
						    .first = started };
		int err = pthread_create(&parts[started].tid, NULL, format_part, &parts[started]);

		if (err) {
			atomic_store(&failed, true);
			fprintf(stderr, "ioramp: anchor=%s: cannot start a format thread: %s\n",
				t->fsd->anchor, strerror(err));
			ret = -err;
			break;
		}
	}
	for (size_t k = 0; k < started; k++) {
		pthread_join(parts[k].tid, NULL);
		if (parts[k].ret && (!ret || ret == -EINTR))
			ret = parts[k].ret; /* an error before a stop */
	}
	return ret;
}

int fs_format(struct fs_tree *t, unsigned int format, struct fs_stats *stats, pthread_mutex_t *lock,
	      struct stats_hist *lat, struct stats_hist *svc, FILE *con,
	      const volatile sig_atomic_t *stop)
{
	struct fmt_sink sink = { stats, lock, lat, svc }, *st = &sink;
	uint64_t made = 0;
	unsigned char *in;
	char path[4096], tod[16];
	int ret = fs_make_anchor(t->fsd->anchor, con, false);

	if (ret)
		return ret;
	if (!(format & FS_FMT_RESTART) || (format & FS_FMT_CLEAN)) {
		ret = clean_dir(t->fsd->anchor, st);
		if (ret) {
			fprintf(stderr, "ioramp: anchor=%s: cleaning: %s\n", t->fsd->anchor,
				strerror(-ret));
			return ret;
		}
		memset(t->dir_state, 0, t->nr_dirs ? t->nr_dirs : 1);
		memset(t->file_state, 0, t->nr_files ? t->nr_files : 1);
	} else {
		fs_tree_scan(t);
	}
	if (format & FS_FMT_CLEAN)
		return 0;
	for (uint64_t d = 0; d < t->nr_dirs; d++) {
		double t0 = now_ms();

		if (t->dir_state[d])
			continue;
		fs_tree_dir_path(t, d, path, sizeof(path));
		if (mkdir(path, 0755) && errno != EEXIST) {
			fprintf(stderr, "ioramp: mkdir %s: %s\n", path, strerror(errno));
			return -errno;
		}
		sink_op(st, FS_OP_MKDIR, now_ms() - t0, FS_MISC_DIRECTORY_CREATES, 0);
		t->dir_state[d] = 1;
	}
	plan_time_of_day(tod);
	fprintf(con ? con : stdout, "%s localhost-0: anchor=%s mkdir complete.\n", tod,
		t->fsd->anchor);
	if (format & FS_FMT_DIRS)
		return 0;
	/* totalsize=: the files VDbench picks until their bytes reach it */
	in = malloc(t->nr_files ? t->nr_files : 1);
	if (!in)
		return -ENOMEM;
	fs_tree_totalsize_files(t, in, &made);
	ret = format_files(t, in, st, stop);
	free(in);
	if (ret)
		return ret;
	plan_time_of_day(tod);
	fprintf(con ? con : stdout, "%s localhost-0: anchor=%s create complete.\n", tod,
		t->fsd->anchor);
	return 0;
}
