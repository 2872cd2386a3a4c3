/* The workload library: found through $IORAMP_WORKLOADS, next to the binary or under the
 * installed data directory; its profiles are the NAME.vdb files there, and `-f NAME` reads one
 * when no file NAME exists. */
#include "library.h"

#include "ioramp/parm.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Copies the candidate into buf when it is a directory. */
static int take_dir(const char *path, char *buf, size_t len)
{
	if (!is_dir(path))
		return -ENOENT;
	if ((size_t)snprintf(buf, len, "%s", path) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static bool ends_with_build(const char *dir, size_t len)
{
	return len >= 6 && !strncmp(dir + len - 6, "/build", 6);
}

/* workloads/ beside the running binary, or for build/ioramp and build/san/ioramp the source
 * tree's (the directory that holds build/). */
static int exe_dir_library(char *buf, size_t len)
{
	char exe[PATH_MAX], cand[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	size_t dir_len;

	if (n <= 0)
		return -ENOENT;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	snprintf(cand, sizeof(cand), "%s/workloads", exe);
	if (!take_dir(cand, buf, len))
		return 0;
	dir_len = strlen(exe);
	if (!ends_with_build(exe, dir_len)) {
		slash = strrchr(exe, '/');
		dir_len = slash ? (size_t)(slash - exe) : 0;
		if (!ends_with_build(exe, dir_len))
			return -ENOENT;
	}
	snprintf(cand, sizeof(cand), "%.*s/workloads", (int)(dir_len - 6), exe);
	return take_dir(cand, buf, len);
}

int cli_library_dir(char *buf, size_t len)
{
	const char *env = getenv("IORAMP_WORKLOADS");

	if (env && *env && !take_dir(env, buf, len))
		return 0;
	if (!exe_dir_library(buf, len))
		return 0;
	return take_dir(IORAMP_DATADIR "/workloads", buf, len);
}

bool cli_library_is_name(const char *arg)
{
	size_t len = strlen(arg);

	return len && !strchr(arg, '/') && !(len >= 4 && !strcmp(arg + len - 4, ".vdb"));
}

int cli_library_find(const char *name, char *buf, size_t len)
{
	char dir[PATH_MAX];
	int ret = cli_library_dir(dir, sizeof(dir));

	if (ret)
		return ret;
	if ((size_t)snprintf(buf, len, "%s/%s.vdb", dir, name) >= len)
		return -ENAMETOOLONG;
	return is_file(buf) ? 0 : -ENOENT;
}

int cli_library_resolve(const char *arg, char **out)
{
	char path[PATH_MAX];

	*out = NULL;
	if (!cli_library_is_name(arg) || access(arg, F_OK) == 0)
		return 0;
	if (cli_library_find(arg, path, sizeof(path)))
		return 0; /* the parser reports the missing file as it always does */
	*out = strdup(path);
	return *out ? 0 : -ENOMEM;
}

bool cli_library_suggest(const char *name, char *buf, size_t len)
{
	char dir[PATH_MAX];
	char **names = NULL;
	const char *near = NULL;
	int nr;

	if (!cli_library_is_name(name) || cli_library_dir(dir, sizeof(dir)))
		return false;
	nr = cli_library_names(dir, &names);
	if (nr > 0)
		near = parm_suggest(name, (const char *const *)names, (size_t)nr);
	if (near)
		snprintf(buf, len, "%s", near);
	cli_library_names_free(names, nr);
	return near != NULL;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void cli_library_names_free(char **names, int nr)
{
	for (int i = 0; names && i < nr; i++)
		free(names[i]);
	free(names);
}

int cli_library_names(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = NULL;
	int nr = 0;

	*names = NULL;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char **n;

		if (len <= 4 || strcmp(e->d_name + len - 4, ".vdb") || e->d_name[0] == '.')
			continue;
		n = realloc(list, (size_t)(nr + 1) * sizeof(*n));
		if (!n)
			goto err_nomem;
		list = n;
		list[nr] = strndup(e->d_name, len - 4);
		if (!list[nr])
			goto err_nomem;
		nr++;
	}
	closedir(d);
	if (nr)
		qsort(list, (size_t)nr, sizeof(*list), cmp_names);
	*names = list;
	return nr;

err_nomem:
	closedir(d);
	cli_library_names_free(list, nr);
	return -ENOMEM;
}

/* The first comment paragraph of f, its lines joined by single blanks. */
static void read_paragraph(FILE *f, char *buf, size_t len)
{
	char line[1024];
	size_t o = 0;

	buf[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		if (*p != '*')
			break;
		p += strspn(p + 1, " \t") + 1;
		end = p + strcspn(p, "\r\n");
		*end = '\0';
		if (!*p)
			break;
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? " " : "", p);
	}
}

/* Cuts text at its first sentence's end, and at the library's ", as named in" clause. */
static void first_sentence(char *text)
{
	char *p = text, *named = strstr(text, ", as named in ");

	if (named)
		*named = '\0';
	while ((p = strchr(p, '.'))) {
		if (p[1] == '\0' || p[1] == ' ') {
			*p = '\0';
			return;
		}
		p++;
	}
}

/* Skips "sql.vdb - " (any file name ending in .vdb), the way the library's headers open. */
static const char *skip_file_name(const char *p)
{
	size_t word = strcspn(p, " \t");

	if (word > 4 && !strncmp(p + word - 4, ".vdb", 4) && !strncmp(p + word, " - ", 3))
		return p + word + 3;
	return p;
}

int cli_library_info(const char *path, const char *name, struct cli_profile_info *info)
{
	char para[2048];
	FILE *f = fopen(path, "r");
	char *p, *q;

	if (!f)
		return -errno;
	read_paragraph(f, para, sizeof(para));
	fclose(f);
	snprintf(info->title, sizeof(info->title), "%s", name);
	p = para + (skip_file_name(para) - para);
	if (*p == '"' && (q = strchr(p + 1, '"')) && q[1] == ':') {
		snprintf(info->title, sizeof(info->title), "%.*s", (int)(q - p - 1), p + 1);
		p = q + 2 + strspn(q + 2, " ");
	}
	first_sentence(p);
	snprintf(info->desc, sizeof(info->desc), "%s", p);
	return 0;
}
