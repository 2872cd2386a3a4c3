/* Anchor trees as VDbench 5.04.07 lays them out (observed): directories vdb.L_I.dir, L the
 * level and I the 1-based position under the parent; files only in the deepest directories,
 * named vdb_fNNNN.file and numbered from zero across the tree, leaf k holding files
 * k*files.. with the level-1 position varying fastest; distribution=all puts files= in every
 * directory instead, numbered in the same directory order. */
#include "fs_int.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint64_t upow(uint64_t b, uint32_t e)
{
	uint64_t r = 1;

	while (e--)
		r *= b;
	return r;
}

int fs_tree_init(struct fs_tree *t, const struct parm_fsd *fsd)
{
	struct fs_tree_size sz;

	memset(t, 0, sizeof(*t));
	t->fsd = fsd;
	t->depth_written = fsd->depth_negative ? fsd->depth_negative : (int32_t)fsd->depth;
	/* depth=0 lays out as depth=1 (VDbench 5.04.07, observed: depth=0,width=3,files=6
	 * made vdb.1_1.dir to vdb.1_3.dir with 6 files each, though -s counts no directory) */
	if (!fsd->depth) {
		t->as_run = *fsd;
		t->as_run.depth = 1;
		t->as_run.depth_negative = 0; /* depth=-1 lays out as depth=0 */
		t->fsd = fsd = &t->as_run;
	}
	fs_tree_size(fsd, &sz);
	t->nr_dirs = sz.dirs;
	t->nr_leaves = fsd->depth ? upow(fsd->width, fsd->depth) : 1;
	t->nr_files = sz.files;
	t->file_state = calloc(t->nr_files ? t->nr_files : 1, 1);
	t->file_opened = calloc(t->nr_files ? t->nr_files : 1, 1);
	t->file_once = calloc(t->nr_files ? t->nr_files : 1, 1);
	t->dir_state = calloc(t->nr_dirs ? t->nr_dirs : 1, 1);
	if (!t->file_state || !t->dir_state || !t->file_opened || !t->file_once)
		return -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	return 0;
}

void fs_tree_fini(struct fs_tree *t)
{
	free(t->file_state);
	free(t->file_opened);
	free(t->file_once);
	free(t->dir_state);
	if (t->fsd)
		pthread_mutex_destroy(&t->lock);
	memset(t, 0, sizeof(*t));
}

/* Directory d: its level (1-based) and the positions of it and its parents. */
static uint32_t dir_level(const struct fs_tree *t, uint64_t d, uint64_t *pos_in_level)
{
	uint64_t n = t->fsd->width;
	uint32_t l = 1;

	while (d >= n) {
		d -= n;
		n *= t->fsd->width;
		l++;
	}
	*pos_in_level = d;
	return l;
}

/* Path of the directory at level l whose position in that level is pos: the digits of pos in
 * base width, level 1 least significant (the leaf order observed). */
static void level_path(const struct fs_tree *t, uint32_t l, uint64_t pos, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "%s", t->fsd->anchor);

	for (uint32_t i = 1; i <= l && o < len; i++) {
		uint64_t digit = pos % t->fsd->width;

		pos /= t->fsd->width;
		o += (size_t)snprintf(buf + o, len - o, "/vdb.%u_%" PRIu64 ".dir", i, digit + 1);
	}
}

void fs_tree_dir_path(const struct fs_tree *t, uint64_t d, char *buf, size_t len)
{
	uint64_t pos;
	uint32_t l = dir_level(t, d, &pos);

	/* positions of a level are numbered with level 1 varying fastest; a dir at level l
	 * has the digits of its parents below it */
	level_path(t, l, pos, buf, len);
}

/* Index of the first directory of level l. */
static uint64_t level_first(const struct fs_tree *t, uint32_t l)
{
	uint64_t first = 0;

	for (uint32_t i = 1; i < l; i++)
		first += upow(t->fsd->width, i);
	return first;
}

int64_t fs_tree_dir_parent(const struct fs_tree *t, uint64_t d)
{
	uint64_t pos;
	uint32_t l = dir_level(t, d, &pos);

	/* the parent's digits are the lower ones (level 1 least significant) */
	return l == 1 ? -1 : (int64_t)(level_first(t, l - 1) + pos % upow(t->fsd->width, l - 1));
}

/* Whether directory d holds files (the deepest level, or every one with distribution=all). */
static bool has_files(const struct fs_tree *t, uint32_t l)
{
	return (t->fsd->is_dist_all && t->fsd->depth) || l == t->fsd->depth;
}

bool fs_tree_dir_has_child(const struct fs_tree *t, uint64_t d)
{
	uint64_t pos, w = t->fsd->width;
	uint32_t l = dir_level(t, d, &pos);

	if (l < t->fsd->depth)
		for (uint64_t k = 0; k < w; k++)
			if (t->dir_state[level_first(t, l + 1) + pos + k * upow(w, l)])
				return true;
	return false;
}

bool fs_tree_dir_is_empty(const struct fs_tree *t, uint64_t d)
{
	uint64_t pos, first_file;
	uint32_t l = dir_level(t, d, &pos);

	if (fs_tree_dir_has_child(t, d))
		return false;
	if (!has_files(t, l))
		return true;
	first_file = ((t->fsd->is_dist_all && t->fsd->depth) ? d : pos) * t->fsd->files;
	for (uint64_t f = first_file; f < first_file + t->fsd->files && f < t->nr_files; f++)
		if ((t->file_state[f] & ~FS_FILE_BUSY) != FS_FILE_NONE)
			return false;
	return true;
}

/* distribution=all: every directory holds files, numbered in directory order (level 1 first,
 * as fs_tree_dir_path numbers them), files= each (observed). */
static bool is_all(const struct fs_tree *t)
{
	return t->fsd->is_dist_all && t->fsd->depth;
}

uint64_t fs_tree_file_dir(const struct fs_tree *t, uint64_t f)
{
	uint64_t leaf = t->fsd->files ? f / t->fsd->files : 0;

	if (is_all(t))
		return leaf;
	return level_first(t, t->fsd->depth) + leaf;
}

void fs_tree_file_path(const struct fs_tree *t, uint64_t f, char *buf, size_t len)
{
	size_t o;

	if (!t->fsd->depth) {
		snprintf(buf, len, "%s/vdb_f%04" PRIu64 ".file", t->fsd->anchor, f);
		return;
	}
	if (is_all(t))
		fs_tree_dir_path(t, fs_tree_file_dir(t, f), buf, len);
	else
		level_path(t, t->fsd->depth, t->fsd->files ? f / t->fsd->files : 0, buf, len);
	o = strlen(buf);
	snprintf(buf + o, len - o, "/vdb_f%04" PRIu64 ".file", f);
}

void fs_tree_scan(struct fs_tree *t)
{
	char path[4096];
	struct stat st;

	for (uint64_t d = 0; d < t->nr_dirs; d++) {
		fs_tree_dir_path(t, d, path, sizeof(path));
		t->dir_state[d] = !stat(path, &st) && S_ISDIR(st.st_mode);
	}
	for (uint64_t f = 0; f < t->nr_files; f++) {
		fs_tree_file_path(t, f, path, sizeof(path));
		if (stat(path, &st))
			t->file_state[f] = FS_FILE_NONE;
		else
			t->file_state[f] = (uint64_t)st.st_size >= fs_file_size(t->fsd, f)
						   ? FS_FILE_FULL
						   : FS_FILE_EMPTY;
	}
}

/* java.util.Random: the 48-bit generator, next(bits), nextDouble(). */
struct java_random {
	uint64_t seed;
};

static uint32_t java_next(struct java_random *r, int bits)
{
	r->seed = (r->seed * 0x5DEECE66Dull + 0xBull) & ((1ull << 48) - 1);
	return (uint32_t)(r->seed >> (48 - bits));
}

static double java_next_double(struct java_random *r)
{
	uint64_t hi = java_next(r, 26), lo = java_next(r, 27);

	return (double)((hi << 27) + lo) * (1.0 / (double)(1ull << 53));
}

int fs_tree_totalsize_files(const struct fs_tree *t, unsigned char *in, uint64_t *nr_in)
{
	const uint64_t n = t->nr_files, total = t->fsd->totalsize_bytes;
	struct java_random r = { (0 ^ 0x5DEECE66Dull) & ((1ull << 48) - 1) }; /* new Random(0) */
	uint64_t bytes = 0, made = 0;

	if (!total) {
		memset(in, 1, n ? n : 1);
		*nr_in = n;
		return 0;
	}
	memset(in, 0, n ? n : 1);
	/* VDbench 5.04.07 (observed on trees of 10 and 20 files, one size and two): file
	 * (int)(nextDouble() * files) of a new Random(0), those already taken drawn again,
	 * until the files taken reach totalsize= */
	while (made < n && bytes < total) {
		uint64_t k = (uint64_t)(java_next_double(&r) * (double)n);

		if (k >= n || in[k])
			continue;
		in[k] = 1;
		made++;
		bytes += fs_file_size(t->fsd, k);
	}
	*nr_in = made;
	return 0;
}

void fs_tree_assume_complete(struct fs_tree *t)
{
	uint64_t made;

	memset(t->dir_state, 1, t->nr_dirs ? t->nr_dirs : 1);
	/* the files the format makes, in file_state itself first (1 = made) */
	fs_tree_totalsize_files(t, t->file_state, &made);
	for (uint64_t f = 0; f < t->nr_files; f++)
		t->file_state[f] = t->file_state[f] ? FS_FILE_FULL : FS_FILE_NONE;
}
