/* Reusing an existing output directory: only the files ioramp itself wrote there are removed.
 * A name ioramp may write (*.html, results.json, curves.csv, and the .tmp of one) belongs to
 * ioramp when it is a regular file that is empty or begins as ioramp's files begin (VDbench's
 * "<title>Vdbench " pages included: VDbench would delete them itself); anything else under
 * such a name (a user's index.html, a directory called x.html, a symbolic link) is in the way
 * and the whole directory is refused before anything is deleted. Other names are not touched. */
#include "ioramp/report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	SIGNATURE_BYTES = 1024, /* every signature lies in a file's first kilobyte */
};

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* Whether ioramp (or VDbench, for its pages) writes files of this name in -o. */
static bool is_report_name(const char *name)
{
	char base[NAME_MAX + 1];
	size_t n = strlen(name);

	if (n > NAME_MAX || name[0] == '.')
		return false;
	memcpy(base, name, n + 1);
	if (ends_with(base, ".tmp")) /* results.json.tmp, report.html.tmp: a rewrite cut short */
		base[n - 4] = '\0';
	return (ends_with(base, ".html") && strlen(base) > 5) || !strcmp(base, "results.json") ||
	       !strcmp(base, "curves.csv");
}

/* Whether head (n bytes, the start of a file) is how one of ioramp's reports begins. */
static bool has_signature(const char *head, size_t n)
{
	static const char *const prefixes[] = {
		"<title>Vdbench ", /* every text page (and VDbench's own) */
		"curve,curve_name,",
	};
	static const char *const marks[] = {
		"<title>ioramp ", /* file-system pages, report.html, the suite page */
		"\"schema\": \"ioramp-results/", /* results.json */
		"\"tool\": \"ioramp\"",		 /* file-system results.json */
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (n >= strlen(prefixes[i]) && !memcmp(head, prefixes[i], strlen(prefixes[i])))
			return true;
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (memmem(head, n, marks[i], strlen(marks[i])))
			return true;
	return false;
}

/* Whether name in dfd is a file ioramp wrote: regular, and empty or signed. */
static bool is_ours(int dfd, const char *name)
{
	char head[SIGNATURE_BYTES];
	struct stat st;
	ssize_t n;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
		return false;
	if (!st.st_size)
		return true; /* created, killed before its first line: nothing to lose */
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return false;
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	return n > 0 && has_signature(head, (size_t)n);
}

/* One pass over dir: with is_delete false, stops at the first report name that is not ioramp's
 * (its name to in_the_way, -ENOTEMPTY); with is_delete true, removes every one. */
static int walk(const char *dir, bool is_delete, char *in_the_way, size_t len)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		if (!is_report_name(de->d_name))
			continue;
		if (!is_delete && !is_ours(dirfd(d), de->d_name)) {
			snprintf(in_the_way, len, "%s", de->d_name);
			ret = -ENOTEMPTY;
		} else if (is_delete && unlinkat(dirfd(d), de->d_name, 0) && errno != ENOENT) {
			ret = -errno;
			snprintf(in_the_way, len, "%s", de->d_name);
		}
	}
	closedir(d);
	return ret;
}

int rep_outdir_check(const char *dir, char *in_the_way, size_t len)
{
	return walk(dir, false, in_the_way, len);
}

int rep_outdir_clean(const char *dir, char *failed, size_t len)
{
	return walk(dir, true, failed, len);
}
