/* Where include=NAME is looked for (tests/parm/FINDINGS.md §12): an absolute name as given; a
 * relative one first against the current directory, then against the parent of the including
 * file's directory (not that directory itself). */
#include "source.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The parent of the directory holding file, without a trailing '/'. */
static int parent_dir(const char *file, char *out, size_t len)
{
	const char *slash = strrchr(file, '/');
	char dir[PATH_MAX], real[PATH_MAX];
	char *last;
	int n;

	if (!slash)
		n = snprintf(dir, sizeof(dir), ".");
	else if (slash == file)
		n = snprintf(dir, sizeof(dir), "/");
	else
		n = snprintf(dir, sizeof(dir), "%.*s", (int)(slash - file), file);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return -ENAMETOOLONG;
	if (!realpath(dir, real)) {
		n = snprintf(out, len, "%s/..", dir);
		return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
	}
	last = strrchr(real, '/');
	if (last && last != real)
		*last = '\0';
	else if (last)
		last[1] = '\0';
	n = snprintf(out, len, "%s", real);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int parm_include_find(const char *name, const char *from_file, char *path, size_t len, char *tried,
		      size_t tried_len)
{
	char parent[PATH_MAX], cwd[PATH_MAX];
	int n;

	if (name[0] == '/' || !access(name, R_OK)) {
		n = snprintf(path, len, "%s", name);
		return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
	}
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	if (!parent_dir(from_file, parent, sizeof(parent))) {
		n = snprintf(path, len, "%s%s%s", parent, strcmp(parent, "/") ? "/" : "", name);
		if (n >= 0 && (size_t)n < len && !access(path, R_OK))
			return 0;
	} else {
		snprintf(parent, sizeof(parent), "?");
	}
	snprintf(tried, tried_len, "%s/%s and %s/%s", cwd, name, parent, name);
	return -ENOENT;
}
