/* anchors.html in the output directory: VDbench's "Anchor status report" layout (observed):
 * the heading and the run links, each anchor's status before the first run, then under each
 * run's anchor the status its run left: the tree's defined size, the totalsize= part of it,
 * the working set (not used: zeros), what exists and the files the run opened. */
#include "fs_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/report.h"

/* "0", "132.0k", "1.5m" as VDbench prints bytes there. */
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

int fs_anchors_width(const struct parm_fs *fs)
{
	size_t w = 0;

	for (size_t i = 0; i < fs->nr_fsds; i++)
		if (strlen(fs->fsds[i].anchor) > w)
			w = strlen(fs->fsds[i].anchor);
	return (int)w + 4; /* observed: the longest anchor and four blanks */
}

FILE *fs_anchors_open(const char *outdir, const struct fs_plan *p)
{
	int w = fs_anchors_width(p->cfg->fs);

	struct rep_run_link *links = calloc(p->nr_runs ? p->nr_runs : 1, sizeof(*links));
	FILE *f = links ? rep_html_page_open(outdir, "anchors.html") : NULL;

	if (!f) {
		fprintf(stderr, "ioramp: %s/anchors.html: %s\n", outdir, strerror(errno));
		free(links);
		return NULL;
	}
	fprintf(f, "Anchor status report\n\n(This report will not contain useful info when the "
		   "'shared=yes' FSD parameter is used)\n\n");
	fprintf(f,
		"%*s......Anchor size....    ......Total size.....    ......Workingset.....    "
		"....Existing ........    ...Opened...             \n",
		w, "");
	fprintf(f, "%*s", w, "");
	for (int g = 0; g < 4; g++)
		fprintf(f, "%sfiles     dirs  bytes", g ? "    " : "");
	fprintf(f, "    files  bytes\n\n\n");
	for (size_t i = 0; i < p->nr_runs; i++)
		links[i] = (struct rep_run_link){
			p->runs[i].name,
			p->runs[i].kind == FS_RUN_FORMAT ? "None" : p->runs[i].for_loops, i
		};
	rep_html_links(f, links, p->nr_runs);
	fputc('\n', f);
	free(links);
	return f;
}

static void group(FILE *f, uint64_t files, uint64_t dirs, uint64_t bytes, bool is_first)
{
	char b[32];

	size_text(bytes, b, sizeof(b));
	fprintf(f, "%s%5" PRIu64 " %8" PRIu64 " %6s", is_first ? "" : "    ", files, dirs, b);
}

void fs_anchors_status(FILE *f, int width, const struct fs_tree *trees, size_t nr)
{
	for (size_t i = 0; f && i < nr; i++) {
		const struct fs_tree *t = &trees[i];
		struct fs_tree_size sz;
		uint64_t ef = 0, ed = 0, eb = 0, of = 0, ob = 0, tf = 0, tb = 0, nr_in = 0;
		unsigned char *in =
			t->fsd->totalsize_bytes ? malloc(t->nr_files ? t->nr_files : 1) : NULL;
		char b[32];

		/* totalsize=: the part of the tree the format makes (VDbench's pick) */
		if (in)
			fs_tree_totalsize_files(t, in, &nr_in);
		fs_tree_size(t->fsd, &sz);
		for (uint64_t d = 0; d < t->nr_dirs; d++)
			ed += t->dir_state[d] != 0;
		for (uint64_t k = 0; k < t->nr_files; k++) {
			uint64_t size = fs_file_size(t->fsd, k);

			if ((t->file_state[k] & ~FS_FILE_BUSY) != FS_FILE_NONE) {
				ef++;
				eb += size;
			}
			if (t->file_opened && t->file_opened[k]) {
				of++;
				ob += size;
			}
			if (in && in[k]) {
				tf++;
				tb += size;
			}
		}
		free(in);
		fprintf(f, "%-*s", width, t->fsd->anchor);
		group(f, sz.files, sz.dirs, sz.bytes, true);
		group(f, tf, tf ? sz.dirs : 0, tb, false);
		group(f, 0, 0, 0, false);
		group(f, ef, ed, eb, false);
		size_text(ob, b, sizeof(b));
		fprintf(f, "    %5" PRIu64 " %6s\n", of, b);
	}
	if (f)
		fflush(f);
}

size_t *fs_anchor_order(const struct parm_fsd *fsds, size_t nr)
{
	const char **keys = calloc(nr ? nr : 1, sizeof(*keys));
	size_t *order = NULL;

	if (!keys)
		return NULL;
	for (size_t i = 0; i < nr; i++)
		keys[i] = fsds[i].anchor;
	order = rep_java_hash_order(keys, nr, 16);
	free(keys);
	return order;
}

void fs_anchors_run(FILE *f, int width, size_t run_idx, const struct fs_run *r, const char *tod,
		    const char *text, const struct fs_tree *trees)
{
	size_t *order;

	if (!f)
		return;
	fputc('\n', f);
	rep_html_anchor_line(f, r->name, run_idx, tod, text);
	fputc('\n', f);
	order = fs_anchor_order(r->fsds, r->nr_fsds);
	for (size_t i = 0; i < r->nr_fsds; i++)
		fs_anchors_status(f, width, &trees[order ? order[i] : i], 1);
	free(order);
}

void fs_anchors_close(FILE *f)
{
	if (f)
		fclose(f);
}
