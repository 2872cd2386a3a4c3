/* The output directory, chosen and created as VDbench does for -o (reference §7): reuse of an
 * existing directory (its .html files deleted, nothing else touched), "name+" for the next
 * free name001..name999, "name.tod" for a time-stamped name. */
#include "ioramp/report.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
	PLUS_MAX = 999,
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
			return make_dirs(out);
	}
	return -EEXIST;
}

int rep_outdir_create(const char *spec, uint64_t tod_ns, char *out, size_t len)
{
	char base[4096], stamp[32];
	time_t sec = (time_t)(tod_ns / 1000000000u);
	struct stat st;
	struct tm tm;
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
		return ret ? ret : make_dirs(out);
	}
	ret = set_out(out, len, "%s%s", base, "");
	if (ret)
		return ret;
	if (!stat(out, &st))
		return S_ISDIR(st.st_mode) ? clean_html(out) : -ENOTDIR;
	return make_dirs(out);
}
