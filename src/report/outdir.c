/* The output directory, chosen and created as VDbench does for -o (reference §7): reuse of an
 * existing directory (the reports ioramp wrote there deleted, after outdir_clean.c found
 * nothing else in their way; other files untouched), "name+" for the next
 * free name001..name999, "name.tod" for a time-stamped name. Before anything is deleted the
 * directory is probed (a file written, synced and removed; room left), so that a directory
 * the reports cannot be written to fails before the run and keeps its earlier results. */
#include "ioramp/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

enum {
	PLUS_MAX = 999,
	PROBE_BYTES = 64 * 1024,      /* a probe file this large must fit... */
	MIN_FREE_BYTES = 1024 * 1024, /* ...and this much must be left for the reports */
};

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* mkdir -p: creates path and missing parents. Returns 0 or -errno. */
static int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST) {
			int ret = -errno;

			*p = '/';
			return ret;
		}
		*p = '/';
	}
	if (mkdir(path, 0777) && errno != EEXIST)
		return -errno;
	return 0;
}

/* Whether the reports can be written in dir: a probe file is created, filled, synced and
 * removed, and enough room must be left. Returns 0, or -ENOTDIR, -EACCES, -EROFS, -ENOSPC,
 * -EDQUOT or another -errno of the probe. Nothing in dir is touched otherwise. */
static int probe_dir(const char *dir)
{
	static const char zeros[4096];
	char path[4200];
	struct statvfs sv;
	int fd, ret = 0;

	if (snprintf(path, sizeof(path), "%s/.ioramp-probe.%d", dir, (int)getpid()) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	for (size_t done = 0; !ret && done < PROBE_BYTES; done += sizeof(zeros))
		if (write(fd, zeros, sizeof(zeros)) != (ssize_t)sizeof(zeros))
			ret = errno ? -errno : -ENOSPC;
	if (!ret && fsync(fd) && errno != EINVAL)
		ret = -errno;
	close(fd);
	unlink(path);
	/* root may use the blocks reserved for it, others only what is available */
	if (!ret && statvfs(dir, &sv) == 0 && sv.f_blocks &&
	    (uint64_t)(geteuid() ? sv.f_bavail : sv.f_bfree) * sv.f_frsize < MIN_FREE_BYTES)
		ret = -ENOSPC;
	return ret;
}

/* Creates dir (and its parents) and probes it; a directory made here is removed again when
 * the probe fails. */
static int make_probed(char *dir)
{
	struct stat st;
	bool is_new = stat(dir, &st) != 0;
	int ret = make_dirs(dir);

	if (!ret)
		ret = probe_dir(dir);
	if (ret && is_new)
		rmdir(dir);
	return ret;
}

static int set_out(char *out, size_t len, const char *fmt, const char *base, const char *tail)
{
	int n = snprintf(out, len, fmt, base, tail);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int next_plus(const char *base, char *out, size_t len)
{
	struct stat st;

	for (int i = 1; i <= PLUS_MAX; i++) {
		char num[8];
		int ret;

		snprintf(num, sizeof(num), "%03d", i);
		ret = set_out(out, len, "%s%s", base, num);
		if (ret)
			return ret;
		if (stat(out, &st) && errno == ENOENT) {
			ret = make_probed(out);
			return ret ? ret : rep_outdir_lock(out);
		}
	}
	return -EEXIST;
}

int rep_outdir_create(const char *spec, uint64_t tod_ns, char *out, size_t len,
		      struct rep_outdir_err *e)
{
	struct rep_outdir_err none;
	char base[4096], stamp[32];
	time_t sec = (time_t)(tod_ns / 1000000000u);
	struct stat st;
	struct tm tm;
	bool is_old;
	int ret;

	if (!e)
		e = &none;
	memset(e, 0, sizeof(*e));
	if (!spec || !spec[0])
		spec = "output";
	if (snprintf(base, sizeof(base), "%s", spec) >= (int)sizeof(base))
		return -ENAMETOOLONG;
	if (ends_with(base, "+") && strlen(base) > 1) {
		base[strlen(base) - 1] = '\0';
		return next_plus(base, out, len);
	}
	if (ends_with(base, ".tod") && strlen(base) > 4) {
		base[strlen(base) - 4] = '\0';
		localtime_r(&sec, &tm);
		strftime(stamp, sizeof(stamp), ".%y%m%d.%H%M%S", &tm);
		ret = set_out(out, len, "%s%s", base, stamp);
		ret = ret ? ret : make_probed(out);
		return ret ? ret : rep_outdir_lock(out);
	}
	ret = set_out(out, len, "%s%s", base, "");
	if (ret)
		return ret;
	is_old = !stat(out, &st);
	if (is_old && !S_ISDIR(st.st_mode))
		return -ENOTDIR;
	ret = is_old ? rep_outdir_lock(out) : 0;
	if (!ret && is_old)
		ret = rep_outdir_check(out, e->file, sizeof(e->file));
	if (!ret)
		ret = make_probed(out);
	if (!ret && !is_old)
		ret = rep_outdir_lock(out);
	if (ret || !is_old)
		return ret;
	ret = rep_outdir_clean(out, e->file, sizeof(e->file));
	e->is_deleting = ret != 0;
	return ret;
}

void rep_outdir_perror(FILE *f, const char *prog, const char *spec, const char *dir, int ret,
		       const struct rep_outdir_err *e)
{
	struct stat st;

	if (!spec || !spec[0])
		spec = "output";
	if (ret == -EBUSY) {
		fprintf(f,
			"%s: error: -o %s: %s is in use: another ioramp is writing its reports "
			"there now; wait for it to end or choose another -o (nothing was run or "
			"deleted)\n",
			prog, spec, dir);
		return;
	}
	if (ret == -ENOTEMPTY && e && e->file[0]) {
		char path[4400];

		snprintf(path, sizeof(path), "%s/%s", dir, e->file);
		fprintf(f,
			"%s: error: -o %s: %s is in the way: %s ioramp did not write, under a "
			"name ioramp writes (*.html, results.json, curves.csv); move it or choose "
			"another -o (nothing was run or deleted)\n",
			prog, spec, path,
			lstat(path, &st) || S_ISREG(st.st_mode) ? "a file"
			: S_ISDIR(st.st_mode)			? "a directory"
								: "an entry");
	} else if (e && e->is_deleting) {
		fprintf(f,
			"%s: error: -o %s: cannot delete the earlier report %s/%s: %s (nothing was "
			"run; earlier reports there may already be deleted)\n",
			prog, spec, dir, e->file, strerror(-ret));
	} else {
		fprintf(f,
			"%s: error: -o %s: cannot write the reports there: %s; expected a writable "
			"directory with 1 MiB free (nothing was run or deleted)\n",
			prog, spec, strerror(-ret));
	}
}
