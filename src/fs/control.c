/* vdb_control.file as VDbench 5.04.07 writes it (observed), so VDbench can run format=no on a
 * tree ioramp laid out: it refuses one without its checksum line ("No checksum found in
 * control file"). ioramp itself never reads it: it looks at the tree. */
#include "fs_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A line into f, its bytes (without the newline) into the checksum. */
IORAMP_PRINTF(3, 4)
static void line(FILE *f, uint64_t *sum, const char *fmt, ...)
{
	char buf[4352];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = (int)sizeof(buf) - 1;
	for (int i = 0; i < n; i++)
		*sum += (unsigned char)buf[i];
	fprintf(f, "%s\n", buf);
}

static char file_char(unsigned char s)
{
	s &= (unsigned char)~FS_FILE_BUSY;
	return s == FS_FILE_FULL ? 'f' : s == FS_FILE_EMPTY ? '0' : 'n';
}

/* A file's entry as VDbench compares them: its state and its size now. */
static uint64_t file_key(const struct fs_tree *t, uint64_t i)
{
	char c = file_char(t->file_state[i]);

	return c == 'f' ? fs_file_size(t->fsd, i) << 8 | (uint64_t)c : (uint64_t)c;
}

/* VDbench's file status list: the first file, then "= N" for N more like the one written
 * last, the last file always on its own line (observed: six full files of one size are
 * "f", "= 4", "f"; a 4k then three 8k files "f", "f", "= 1", "f"). */
static void file_status(FILE *f, uint64_t *sum, const struct fs_tree *t)
{
	uint64_t n = t->nr_files, same = 0, prev;

	line(f, sum, "file status %" PRIu64, n);
	if (!n)
		return;
	prev = file_key(t, 0);
	line(f, sum, "%c", file_char(t->file_state[0]));
	for (uint64_t i = 1; i + 1 < n; i++) {
		uint64_t k = file_key(t, i);

		if (k == prev) {
			same++;
			continue;
		}
		if (same)
			line(f, sum, "= %" PRIu64, same);
		line(f, sum, "%c", file_char(t->file_state[i]));
		prev = k;
		same = 0;
	}
	if (same)
		line(f, sum, "= %" PRIu64, same);
	if (n > 1)
		line(f, sum, "%c", file_char(t->file_state[n - 1]));
}

int fs_control_print(FILE *f, const struct fs_tree *t, const char *when, int pid)
{
	const struct parm_fsd *fsd = t->fsd;
	uint64_t sum = 0;

	line(f, &sum, "when  end %s anchor=%s pid=%d", when, fsd->anchor, pid);
	line(f, &sum, "depth %d", t->depth_written);
	line(f, &sum, "width %u", fsd->width);
	line(f, &sum, "files %u", fsd->files);
	line(f, &sum, "dist  %s", fsd->is_dist_all ? "all" : "bottom");
	/* one size: its line alone; pairs and (average,0): size and percentage (observed) */
	for (size_t i = 0; i < fsd->sizes.nr; i++) {
		line(f, &sum, "size  %" PRIu64, fsd->sizes.sizes_bytes[i]);
		if (fsd->sizes.nr > 1 || (fsd->sizes.pcts && !fsd->sizes.pcts[0]))
			line(f, &sum, "size  %.0f", fsd->sizes.pcts[i]);
	}
	line(f, &sum, "directory status %" PRIu64, t->nr_dirs);
	for (uint64_t d = 0; d < t->nr_dirs; d++)
		line(f, &sum, "%c", t->dir_state[d] ? 'y' : 'n');
	file_status(f, &sum, t);
	/* the sum of every byte above but the newlines (observed on four trees) */
	fprintf(f, "checksum: %" PRIu64 " \n", sum);
	return ferror(f) ? -EIO : 0;
}

void fs_tree_write_control(const struct fs_tree *t)
{
	char path[4096], when[64];
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;

	if (t->fsd->is_shared)
		return; /* other hosts use the tree: VDbench keeps no control file then */
	snprintf(path, sizeof(path), "%s/vdb_control.file", t->fsd->anchor);
	f = fopen(path, "w");
	if (!f)
		return;
	/* Java's Date.toString(): "Sun Dec 06 14:48:48 UTC 2026" */
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a %b %d %H:%M:%S %Z %Y", &tm);
	fs_control_print(f, t, when, (int)getpid());
	fclose(f);
}
