/* anchors.html in the output directory: VDbench's "Anchor status report" layout (observed),
 * one block per run with each anchor's defined size and what exists when the run starts. */
#include "fs_int.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

static void size_text(uint64_t b, char *buf, size_t len)
{
	if (b < 1024)
		snprintf(buf, len, "%" PRIu64, b);
	else if (b < 1024ull * 1024)
		snprintf(buf, len, "%.1fk", (double)b / 1024);
	else if (b < 1024ull * 1024 * 1024)
		snprintf(buf, len, "%.1fm", (double)b / 1024 / 1024);
	else
		snprintf(buf, len, "%.1fg", (double)b / 1024 / 1024 / 1024);
}

FILE *fs_anchors_open(const char *outdir, const struct fs_plan *p)
{
	char path[4096];
	FILE *f;

	if (mkdir(outdir, 0755) && errno != EEXIST) {
		fprintf(stderr, "ioramp: -o %s: %s\n", outdir, strerror(errno));
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/anchors.html", outdir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "ioramp: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	fprintf(f, "<html><head><title>ioramp %s/anchors.html</title></head><body>\n<pre>\n",
		outdir);
	fprintf(f, "Anchor status report\n\n");
	fprintf(f, "%33s......Anchor size....    ....Existing ........\n", "");
	fprintf(f, "%33sfiles     dirs  bytes    files     dirs  bytes\n\n\n", "");
	fprintf(f, "Link to Run Definitions:");
	for (size_t i = 0; i < p->nr_runs; i++)
		fprintf(f, "%*s%s For loops: %s\n", i ? 33 : 9, "", p->runs[i].name,
			p->runs[i].kind == FS_RUN_FORMAT ? "None" : p->runs[i].for_loops);
	return f;
}

void fs_anchors_run(FILE *f, const struct fs_run *r, const struct fs_tree *trees)
{
	char tod[16];

	if (!f)
		return;
	plan_time_of_day(tod);
	fprintf(f, "\n%s Starting RD=%s\n\n", tod, r->name);
	for (size_t i = 0; i < r->nr_fsds; i++) {
		const struct fs_tree *t = &trees[i];
		struct fs_tree_size sz;
		uint64_t ef = 0, ed = 0, eb = 0;
		char b1[32], b2[32];

		fs_tree_size(t->fsd, &sz);
		for (uint64_t d = 0; d < t->nr_dirs; d++)
			ed += t->dir_state[d] != 0;
		for (uint64_t k = 0; k < t->nr_files; k++)
			if ((t->file_state[k] & ~FS_FILE_BUSY) != FS_FILE_NONE) {
				ef++;
				eb += fs_file_size(t->fsd, k);
			}
		size_text(sz.bytes, b1, sizeof(b1));
		size_text(eb, b2, sizeof(b2));
		fprintf(f, "%-30s %8" PRIu64 " %8" PRIu64 " %6s %8" PRIu64 " %8" PRIu64 " %6s\n",
			t->fsd->anchor, sz.files, sz.dirs, b1, ef, ed, b2);
	}
	fflush(f);
}

void fs_anchors_close(FILE *f)
{
	if (f) {
		fprintf(f, "</pre></body></html>\n");
		fclose(f);
	}
}
