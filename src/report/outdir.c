/* The output directory, chosen and created as VDbench does for -o (reference §7): reuse of an
 * existing directory (its .html files deleted, nothing else touched), "name+" for the next
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

/* Deletes the regular *.html files of an existing directory. */
static int clean_html(const char *path)
{
	char file[4096];
	struct dirent *de;
	DIR *d = opendir(path);
	int ret = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!ends_with(de->d_name, ".html"))
			continue;
		if (snprintf(file, sizeof(file), "%s/%s", path, de->d_name) >= (int)sizeof(file))
			continue;
		if (unlink(file) && errno != ENOENT && !ret)
			ret = -errno;
	}
	closedir(d);
	return ret;
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
		if (stat(out, &st) && errno == ENOENT)
			return make_probed(out);
	}
	return -EEXIST;
}

int rep_outdir_create(const char *spec, uint64_t tod_ns, char *out, size_t len)
{
	char base[4096], stamp[32];
	time_t sec = (time_t)(tod_ns / 1000000000u);
	struct stat st;
	struct tm tm;
	bool is_old;
	int ret;

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
		return ret ? ret : make_probed(out);
	}
	ret = set_out(out, len, "%s%s", base, "");
	if (ret)
		return ret;
	is_old = !stat(out, &st);
	if (is_old && !S_ISDIR(st.st_mode))
		return -ENOTDIR;
	ret = make_probed(out);
	return ret || !is_old ? ret : clean_html(out);
}
