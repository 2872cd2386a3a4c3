/* localhost-0.stdout.html's file-system lines, as VDbench 5.04.07's slave writes them
 * (observed on fresh, formatted, emptied and restarted anchors): each run's anchor set-up
 * before its threads start, its task count after its start, and at its end the format's
 * messages, the Miscellaneous statistics and the control file lines. The slave JVM's own
 * lines (heap, garbage collector, task synchronisation) have no counterpart here. */
#include "fs_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ioramp/plan.h"

void fs_slave_line(FILE *f, const char *fmt, ...)
{
	char tod[16];
	va_list ap;

	plan_time_of_day(tod);
	fprintf(f, "%s %s ", tod, tod); /* master and slave clock: one here */
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

void fs_slave_blank(FILE *f)
{
	char tod[16];

	plan_time_of_day(tod);
	fprintf(f, "%s \n", tod);
}

void fs_slave_banner(FILE *f, const char *text)
{
	char stars[64];
	size_t n = strlen(text) < sizeof(stars) - 1 ? strlen(text) : sizeof(stars) - 1;

	memset(stars, '*', n);
	stars[n] = '\0';
	fs_slave_line(f, "%s", text);
	fs_slave_line(f, "%s", stars);
	fs_slave_blank(f);
	fs_slave_blank(f);
}

uint32_t fs_run_threads(const struct fs_run *r)
{
	uint32_t n = 0;

	if (r->kind == FS_RUN_FORMAT) /* trees in turn, each with the format's threads */
		return FS_FORMAT_THREADS * (uint32_t)r->nr_fsds;
	for (size_t i = 0; i < r->nr_fwds; i++)
		n += r->fwds[i].threads_per_fsd * (uint32_t)r->fwds[i].nr_fsd;
	return n;
}

/* Whether a run's FWDs create or delete files: VDbench then clears the control file's
 * counts at the start ("No deletes and creates. Control file not cleared." otherwise). */
static bool run_clears(const struct fs_run *r)
{
	if (r->kind == FS_RUN_FORMAT)
		return true;
	for (size_t i = 0; i < r->nr_fwds; i++)
		if (r->fwds[i].op == FS_OP_CREATE || r->fwds[i].op == FS_OP_DELETE)
			return true;
	return false;
}

/* Whether a format run deletes the trees first (not format=restart). */
static bool run_deletes(const struct fs_run *r)
{
	return r->kind == FS_RUN_FORMAT &&
	       (!(r->format & FS_FMT_RESTART) || (r->format & FS_FMT_CLEAN));
}

/* "Completed control file": the tree's directories and files (planned/existing), then its
 * planned and existing bytes and, at the end of a run, the files the run opened and their
 * bytes (observed: 4/32k for a tree the run read, 0/0 for one it only did getattr on, 1/0
 * after creating one empty file); is_fresh: the format deleted the tree. */
static void control_line(FILE *f, const struct fs_tree *t, bool is_fresh, bool is_end)
{
	const char *when = is_end ? "end" : "start";
	uint64_t dirs = 0, files = 0, total = 0, full = 0, used = 0, used_bytes = 0;
	char a[32], b[32], w[32];

	for (uint64_t d = 0; !is_fresh && d < t->nr_dirs; d++)
		dirs += t->dir_state[d] != 0;
	for (uint64_t i = 0; i < t->nr_files; i++) {
		unsigned char s = t->file_state[i] & ~FS_FILE_BUSY;
		uint64_t size = fs_file_size(t->fsd, i);

		total += size;
		files += !is_fresh && s != FS_FILE_NONE;
		full += !is_fresh && s == FS_FILE_FULL ? size : 0;
		if (is_end && t->file_opened[i] && s != FS_FILE_NONE) {
			used++;
			used_bytes += s == FS_FILE_FULL ? size : 0;
		}
	}
	fs_slave_line(f, "Writing control file for anchor=%s at %s of run.", t->fsd->anchor, when);
	fs_slave_line(f,
		      "Completed control file for anchor=%s at %s of run.  dirs: %llu/%llu "
		      "files: %llu/%llu sizes: %s/%s/%llu/%s",
		      t->fsd->anchor, when, (unsigned long long)t->nr_dirs,
		      (unsigned long long)dirs, (unsigned long long)t->nr_files,
		      (unsigned long long)files, rep_fmt_ctl_size(total, a, sizeof(a)),
		      rep_fmt_ctl_size(full, b, sizeof(b)), (unsigned long long)used,
		      rep_fmt_ctl_size(used_bytes, w, sizeof(w)));
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One FSD's initializeFileAnchor block; its tree as scanned, before the run. */
static void anchor_block(FILE *f, const struct fs_run *r, const struct fs_tree *t)
{
	const char *anchor = t->fsd->anchor;
	bool is_fresh = run_deletes(r);
	double t0 = mono_s();
	uint64_t total = 0, dirs = 0, files = 0;
	char path[4200], a[32], n[32];

	fs_slave_line(f, "Starting initializeFileAnchor for rd=%s For loops: %s anchor=%s", r->name,
		      r->kind == FS_RUN_FORMAT ? "None" : r->for_loops, t->fsd->name);
	snprintf(path, sizeof(path), "%s/vdb_control.file", anchor);
	if (!is_fresh && access(path, F_OK) == 0) {
		fs_slave_line(f, "Reading control file for anchor=%s", anchor);
		fs_slave_line(f, "Completed reading control file.");
	}
	for (uint64_t i = 0; i < t->nr_files; i++)
		total += fs_file_size(t->fsd, i);
	fs_slave_line(f, "Completed the creation of the directory list for %s: %llu directories.",
		      anchor, (unsigned long long)t->nr_dirs);
	/* VDbench groups the count ("Generated 1,000 file names"), not the directories' below */
	fs_slave_line(f, "Generated %s file names; total anchor size: %s (%s)",
		      rep_fmt_group((double)t->nr_files, 0, n, sizeof(n)),
		      rep_fmt_ctl_size(total, a, sizeof(a)),
		      rep_fmt_group((double)total, 0, path, sizeof(path)));
	if (run_clears(r))
		control_line(f, t, is_fresh, false);
	else
		fs_slave_line(f, "No deletes and creates. Control file not cleared.");
	if (!is_fresh) {
		for (uint64_t d = 0; d < t->nr_dirs; d++)
			dirs += t->dir_state[d] != 0;
		for (uint64_t i = 0; i < t->nr_files; i++)
			files += (t->file_state[i] & ~FS_FILE_BUSY) != FS_FILE_NONE;
		fs_slave_line(f,
			      "During anchor creation for anchor=%s there were %llu directories "
			      "and %llu files",
			      anchor, (unsigned long long)dirs, (unsigned long long)files);
	}
	fs_slave_line(f, "Completed initializeFileAnchor for %s: %.2f", t->fsd->name,
		      mono_s() - t0);
}

void fs_slave_setup(FILE *f, const struct fs_run *r, const struct fs_tree *trees)
{
	for (size_t d = 0; run_deletes(r) && d < r->nr_fsds; d++)
		fs_slave_line(f, "Deleting old file structure.");
	/* FSD by FSD, once for each FWD on it (a format: once): the first builds the anchor */
	for (size_t d = 0; d < r->nr_fsds; d++) {
		bool is_built = false;

		for (size_t i = 0; i < r->nr_fwds; i++) {
			if (!fs_fwd_on_fsd(&r->fwds[i], d))
				continue;
			if (!is_built) {
				anchor_block(f, r, &trees[d]);
				is_built = true;
			} else {
				fs_slave_line(f,
					      "Starting initializeFileAnchor for rd=%s For loops: "
					      "%s anchor=%s",
					      r->name, r->for_loops, r->fsds[d].name);
				fs_slave_line(f, "Reusing existing FileAnchor structure.");
				fs_slave_line(f, "Completed initializeFileAnchor for %s: 0.00",
					      r->fsds[d].name);
			}
			if (r->kind == FS_RUN_FORMAT)
				break;
		}
	}
}

void fs_slave_tasks(FILE *f, const struct fs_run *r)
{
	fs_slave_line(f, "task_run_all(): %u tasks", fs_run_threads(r) + 1);
}

/* Whether the format made every directory and every file it makes (totalsize=: its set). */
static void format_done(const struct fs_tree *t, bool *has_dirs, bool *has_files)
{
	unsigned char *in = malloc(t->nr_files ? t->nr_files : 1);
	uint64_t n = 0;

	*has_dirs = *has_files = true;
	for (uint64_t k = 0; k < t->nr_dirs; k++)
		*has_dirs &= t->dir_state[k] != 0;
	if (!in || fs_tree_totalsize_files(t, in, &n)) {
		*has_files = false;
		free(in);
		return;
	}
	for (uint64_t k = 0; k < t->nr_files; k++)
		*has_files &= !in[k] || (t->file_state[k] & ~FS_FILE_BUSY) == FS_FILE_FULL;
	free(in);
}

void fs_slave_end(FILE *f, const struct fs_run *r, const struct fs_tree *trees,
		  const struct fs_stats *all)
{
	size_t *order = fs_anchor_order(r->fsds, r->nr_fsds);
	char line[256];

	for (size_t d = 0; r->kind == FS_RUN_FORMAT && d < r->nr_fsds; d++) {
		const struct fs_tree *t = &trees[d];
		bool has_dirs, has_files;

		format_done(t, &has_dirs, &has_files);
		if (has_dirs)
			fs_slave_line(f, "Message to master: anchor=%s mkdir complete.",
				      t->fsd->anchor);
		if (has_dirs && has_files && !(r->format & FS_FMT_DIRS))
			fs_slave_line(f, "Message to master: anchor=%s create complete.",
				      t->fsd->anchor);
	}
	if (fs_misc_any(all)) {
		fs_slave_line(f, "%s", "");
		fs_slave_line(f, "Miscellaneous statistics:");
		for (int i = 0; i < FS_MISC_NR; i++)
			if (fs_misc_line(all, i, 0, line, sizeof(line)))
				fs_slave_line(f, "%s", line);
		fs_slave_line(f, "%s", "");
	} else {
		fs_slave_line(f, "Miscellaneous statistics: All counters are zero");
	}
	/* in VDbench's anchor order (observed in three of four runs of two anchors) */
	for (size_t d = 0; d < r->nr_fsds; d++) {
		const struct fs_tree *t = &trees[order ? order[d] : d];

		if (!t->fsd->is_shared) /* no control file: other hosts use the tree */
			control_line(f, t, false, true);
	}
	free(order);
}
