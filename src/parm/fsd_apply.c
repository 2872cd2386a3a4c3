/* Typing the file-system definitions (fsd=, fwd=, rd= with fwd=) read by fsd.c: defaults as
 * VDbench's guide gives them, count= replication, fsd=/fwd= name lists with wildcards, and
 * the RD's rates, format= words and for-loops. */
#include "build.h"
#include "fsd_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ioramp/fs.h"

static const char *const op_names[FS_OP_NR] = {
	[FS_OP_READ] = "read",	     [FS_OP_WRITE] = "write",	[FS_OP_MKDIR] = "mkdir",
	[FS_OP_RMDIR] = "rmdir",     [FS_OP_CREATE] = "create", [FS_OP_OPEN] = "open",
	[FS_OP_CLOSE] = "close",     [FS_OP_DELETE] = "delete", [FS_OP_GETATTR] = "getattr",
	[FS_OP_SETATTR] = "setattr", [FS_OP_ACCESS] = "access", [FS_OP_COPY] = "copy",
	[FS_OP_MOVE] = "move",
};

const char *fs_op_name(enum fs_op op)
{
	return op < FS_OP_NR ? op_names[op] : "?";
}

int fs_op_lookup(const char *word)
{
	size_t len = strlen(word);

	for (int i = 0; i < FS_OP_NR; i++)
		if (!strcasecmp(word, op_names[i]))
			return i;
	/* a prefix names the first operation it starts (VDbench 5.04.07 runs operation=get) */
	for (int i = 0; len && i < FS_OP_NR; i++)
		if (!strncasecmp(word, op_names[i], len))
			return i;
	return -ENOENT;
}

static int get_ops(const struct parm_val *v, const char *what, int **out, size_t *nr,
		   struct parm_err *err)
{
	const char **w = NULL;
	int n = parm_val_words(v, &w, err);
	int *ops;

	if (n < 0)
		return n;
	ops = calloc(n ? (size_t)n : 1, sizeof(*ops));
	if (!ops) {
		free(w);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		ops[i] = fs_op_lookup(w[i]);
		if (ops[i] < 0) {
			int ret =
				parm_errf(err, &v->loc,
					  "invalid %s=%s: '%s' is not an operation; expected "
					  "read, write, create, delete, mkdir, rmdir, open, close, "
					  "getattr, setattr, access, copy or move",
					  what, v->text, w[i]);

			free(w);
			free(ops);
			return ret;
		}
	}
	free(w);
	*out = ops;
	*nr = (size_t)n;
	return 0;
}

/* sizes=: one size, (size,pct,...) pairs adding up to 100, or (average,0): a DIST of one
 * size at 0% (fs_file_size() draws each file's size around it). */
static int get_sizes(const struct parm_val *v, struct parm_xfer *out, struct parm_err *err)
{
	struct parm_num *n = NULL;
	int nr = parm_val_numbers(v, PARM_UNIT_BYTES, "sizes", &n, err);
	double total = 0;

	if (nr < 0)
		return nr;
	memset(out, 0, sizeof(*out));
	if (nr == 2 && !n[1].value && n[0].value > 0 && !n[0].is_pct) {
		uint64_t avg_bytes = (uint64_t)n[0].value;

		free(n);
		out->kind = PARM_XFER_DIST;
		out->nr = 1;
		out->sizes_bytes = calloc(1, sizeof(*out->sizes_bytes));
		out->pcts = calloc(1, sizeof(*out->pcts));
		if (!out->sizes_bytes || !out->pcts)
			return -ENOMEM;
		out->sizes_bytes[0] = avg_bytes;
		return 0;
	}
	if (nr == 0 || (nr > 1 && nr % 2)) {
		free(n);
		return parm_errf(err, &v->loc,
				 "invalid sizes=%s; expected one file size or (size,pct,...) pairs "
				 "whose percentages add up to 100",
				 v->text);
	}
	out->kind = nr == 1 ? PARM_XFER_FIXED : PARM_XFER_DIST;
	out->nr = nr == 1 ? 1 : (size_t)nr / 2;
	out->sizes_bytes = calloc(out->nr, sizeof(*out->sizes_bytes));
	out->pcts = calloc(out->nr, sizeof(*out->pcts));
	if (!out->sizes_bytes || !out->pcts) {
		free(n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < out->nr; i++) {
		double sz = n[nr == 1 ? 0 : 2 * i].value;

		if (sz < 0 || n[i].is_pct) {
			free(n);
			return parm_errf(err, &v->loc, "invalid sizes=%s; expected sizes >= 0",
					 v->text);
		}
		out->sizes_bytes[i] = (uint64_t)sz;
		out->pcts[i] = nr == 1 ? 100 : n[2 * i + 1].value;
		total += out->pcts[i];
	}
	free(n);
	if (fabs(total - 100) > 0.0001)
		return parm_errf(err, &v->loc,
				 "sizes=%s: the percentages add up to %g; expected 100", v->text,
				 total);
	return 0;
}

/* openflags=: an unknown word is listed by VDbench 5.04.07's -s and aborts its run
 * ("Invalid 'openflags=' parameter for Linux: o_bogus", observed), so its error waits in
 * *later for fs_plan_check_run(). Returns 0 or -ENOMEM. */
static int openflags_later(const struct parm_val *v, struct parm_openflags *out,
			   struct parm_err **later)
{
	struct parm_err e;

	if (!parm_get_openflags(v, out, &e))
		return 0;
	*later = malloc(sizeof(**later));
	if (!*later)
		return -ENOMEM;
	**later = e;
	return 0;
}

static int get_u32(const struct fs_kwset *s, const char *key, uint32_t min, uint32_t max,
		   uint32_t *out, struct parm_err *err)
{
	const struct parm_val *v = fs_kwset_get(s, key);

	return v ? parm_get_u32(v, min, max, key, out, err) : 0;
}

static int apply_fsd_one(struct parm_fsd *f, const struct fs_raw_def *d, const char *name,
			 const char *anchor_suffix, struct parm_err *err)
{
	const struct parm_val *v;
	int ret = 0;

	f->name = strdup(name);
	f->loc = d->loc;
	/* VDbench 5.04.07's defaults (observed: fsd=fsd1,anchor=A alone is one directory of
	 * ten 4k files) */
	f->depth = 1;
	f->width = 1;
	f->files = 10;
	if (!f->name)
		return -ENOMEM;
	v = fs_kwset_get(&d->set, "anchor");
	if (!v || v->kind != PARM_VAL_WORD || !v->text[0])
		return parm_errf(err, v ? &v->loc : &d->loc,
				 "fsd=%s has no anchor=; expected anchor=/a/directory", name);
	f->anchor_loc = v->loc;
	if (asprintf(&f->anchor, "%s%s", v->text, anchor_suffix) < 0)
		return -ENOMEM;
	if (!ret && (v = fs_kwset_get(&d->set, "depth"))) {
		double dv;

		/* depth=-1 runs as depth=0 and -s counts it no files; width=0 lists, and its run
		 * aborts "No files available for this slave" (VDbench 5.04.07, observed) */
		ret = parm_get_double(v, PARM_UNIT_PLAIN, -1000000, 64, "depth", &dv, err);
		f->depth_negative = dv < 0 ? (int32_t)dv : 0;
		f->depth = dv < 0 ? 0 : (uint32_t)dv;
	}
	if (!ret)
		ret = get_u32(&d->set, "width", 0, 1000000, &f->width, err);
	if (!ret)
		ret = get_u32(&d->set, "files", 1, UINT32_MAX, &f->files, err);
	v = fs_kwset_get(&d->set, "sizes");
	if (!ret && !v) {
		f->sizes.kind = PARM_XFER_FIXED;
		f->sizes.nr = 1;
		f->sizes.sizes_bytes = calloc(1, sizeof(*f->sizes.sizes_bytes));
		f->sizes.pcts = calloc(1, sizeof(*f->sizes.pcts));
		if (!f->sizes.sizes_bytes || !f->sizes.pcts)
			return -ENOMEM;
		f->sizes.sizes_bytes[0] = 4096;
		f->sizes.pcts[0] = 100;
	} else if (!ret) {
		ret = get_sizes(v, &f->sizes, err);
	}
	if (!ret && (v = fs_kwset_get(&d->set, "openflags")))
		ret = openflags_later(v, &f->openflags, &f->openflags_err);
	if (!ret && (v = fs_kwset_get(&d->set, "shared"))) {
		const char *sw = NULL;

		/* anything but yes is a private tree (VDbench 5.04.07 runs shared=maybe with
		 * format=yes, which it refuses for a shared FSD) */
		ret = parm_get_word(v, "shared", &sw, err);
		f->is_shared = !ret && (!strcasecmp(sw, "yes") || !strcasecmp(sw, "y"));
	}
	if (!ret && (v = fs_kwset_get(&d->set, "totalsize"))) {
		ret = parm_get_u64(v, PARM_UNIT_BYTES, 0, UINT64_MAX / 2, "totalsize",
				   &f->totalsize_bytes, err);
		f->totalsize_loc = v->loc;
	}
	if (!ret && (v = fs_kwset_get(&d->set, "workingsetsize"))) {
		ret = parm_get_u64(v, PARM_UNIT_BYTES, 0, UINT64_MAX / 2, "workingsetsize",
				   &f->workingsetsize_bytes, err);
		f->workingsetsize_loc = v->loc;
	}
	if (!ret && (v = fs_kwset_get(&d->set, "distribution"))) {
		if (v->kind == PARM_VAL_WORD && !strcasecmp(v->text, "all"))
			f->is_dist_all = true;
		else if (v->kind != PARM_VAL_WORD || strcasecmp(v->text, "bottom"))
			ret = parm_errf(err, &v->loc,
					"invalid distribution=%s in fsd=%s; expected bottom or all",
					v->text, name);
	}
	return ret;
}

static int fsd_add(struct parm_fs *fs, struct parm_fsd **out)
{
	if (parm_grow((void **)&fs->fsds, fs->nr_fsds, sizeof(*fs->fsds)))
		return -ENOMEM;
	*out = &fs->fsds[fs->nr_fsds++];
	memset(*out, 0, sizeof(**out));
	return 0;
}

/* count=(first,n): fsdN.. with anchorN.. ([guide 1.28.3]). */
static int apply_fsd(struct parm_fs *fs, const struct fs_raw_def *d, struct parm_err *err)
{
	const struct parm_val *cv = fs_kwset_get(&d->set, "count");
	struct parm_fsd *f;
	int ret;

	if (cv) {
		struct parm_num *n = NULL;
		int nr = parm_val_numbers(cv, PARM_UNIT_PLAIN, "count", &n, err);

		if (nr < 0)
			return nr;
		if (nr != 2 || n[0].value < 0 || n[1].value < 1 || n[1].value > PARM_MAX_DEFS) {
			free(n);
			return parm_errf(err, &cv->loc,
					 "invalid count=%s; expected (first,how many)", cv->text);
		}
		for (uint64_t i = 0; i < (uint64_t)n[1].value; i++) {
			char name[256], sfx[32];

			snprintf(sfx, sizeof(sfx), "%llu", (unsigned long long)(n[0].value + i));
			snprintf(name, sizeof(name), "%s%s", d->name, sfx);
			ret = fsd_add(fs, &f);
			if (!ret)
				ret = apply_fsd_one(f, d, name, sfx, err);
			if (ret) {
				free(n);
				return ret;
			}
		}
		free(n);
		return 0;
	}
	ret = fsd_add(fs, &f);
	return ret ? ret : apply_fsd_one(f, d, d->name, "", err);
}

/* Names, a trailing '*' wildcard or '*' alone, against the names given. A name given twice
 * counts once, unless is_each_kept: VDbench 5.04.07 runs a FWD's fsd=(fsd1,fsd1) once but an
 * RD's fwd=(fwd1,fwd1) twice, fwd=(fwd*,fwd1) with fwd1 twice (observed: one "slv=" line and
 * thread set per occurrence). */
static int resolve(const struct parm_val *v, const char *what, const char *owner,
		   const char *(*name_of)(const struct parm_fs *, size_t), size_t nr_all,
		   const struct parm_fs *fs, bool is_each_kept, size_t **out, size_t *nr,
		   struct parm_err *err)
{
	const char **w = NULL;
	int n = parm_val_words(v, &w, err);
	size_t *idx;
	size_t k = 0;

	if (n < 0)
		return n;
	idx = calloc(nr_all && n ? nr_all * (size_t)n : 1, sizeof(*idx));
	if (!idx) {
		free(w);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		size_t len = strlen(w[i]);
		bool is_wild = len && w[i][len - 1] == '*';
		bool is_hit = false;

		for (size_t j = 0; j < nr_all; j++) {
			const char *nm = name_of(fs, j);
			bool hit =
				is_wild ? !strncasecmp(nm, w[i], len - 1) : !strcasecmp(nm, w[i]);
			bool dup = false;

			for (size_t q = 0; q < k && !is_each_kept; q++)
				dup |= idx[q] == j;
			is_hit |= hit;
			if (hit && !dup)
				idx[k++] = j;
		}
		if (!is_hit) {
			int ret = parm_errf(err, &v->loc,
					    "%s: %s=%s names no %s; expected the "
					    "name of an %s= defined before",
					    owner, what, w[i], what, what);
			free(w);
			free(idx);
			return ret;
		}
	}
	free(w);
	*out = idx;
	*nr = k;
	return 0;
}

static const char *fsd_name(const struct parm_fs *fs, size_t i)
{
	return fs->fsds[i].name;
}

static const char *fwd_name(const struct parm_fs *fs, size_t i)
{
	return fs->fwds[i].name;
}

/* fileio=random|sequential|sequentialnz, then shared after random or delete after sequential.
 * VDbench 5.04.07 refuses any other first or second word ("Invalid 'fileio' parameter
 * contents: delete" for (random,delete), shared for (sequential,shared), random for
 * (random,random)) and takes a third word without a word of complaint, (random,shared,delete)
 * and (seq,delete,shared) run as their first two (observed). */
static int fileio_words(struct parm_fwd *w, const struct parm_val *v, struct parm_err *err)
{
	const char **words = NULL;
	int n = parm_val_words(v, &words, err);
	const char *bad = NULL;

	if (n < 0)
		return n;
	for (int i = 0; !bad && i < n && i < 2; i++) {
		size_t len = strlen(words[i]);

		/* "ran" is random (VDbench 5.04.07 runs fileio=ran) */
		if (!i && len >= 2 && !strncasecmp(words[i], "random", len))
			w->is_random = true;
		else if (!i && !strncasecmp(words[i], "seq", 3))
			w->is_random = false;
		else if (i && w->is_random && !strcasecmp(words[i], "shared"))
			w->is_shared_io = true;
		else if (i && !w->is_random && !strcasecmp(words[i], "delete"))
			w->is_seq_delete = true;
		else
			bad = words[i];
	}
	if (bad) {
		int ret = parm_errf(err, &v->loc,
				    "invalid fileio=%s: '%s'; expected random, sequential, "
				    "(random,shared) or (sequential,delete)",
				    v->text, bad);

		free(words);
		return ret;
	}
	free(words);
	return 0;
}

/* fileselect=random|sequential|sequentialnz, once, poisson with its number, in any order
 * ((once,random) and (poisson,3,once) too); VDbench 5.04.07 refuses any other word
 * ("Invalid 'fileselect' parameter contents: twice") and sequentialnz with once
 * ("'fileselect=(seqnz,once)' may not be used together."), observed. */
static int fileselect_words(struct parm_fwd *w, const struct parm_val *v, struct parm_err *err)
{
	const char **words = NULL;
	int n = parm_val_words(v, &words, err);
	bool is_nz = false;
	const char *bad = NULL;

	if (n < 0)
		return n;
	for (int i = 0; !bad && i < n; i++) {
		char *end = NULL;

		if (!strcasecmp(words[i], "random")) {
			w->is_select_seq = false;
		} else if (!strncasecmp(words[i], "seq", 3)) {
			w->is_select_seq = true;
			is_nz |= !strcasecmp(words[i], "seqnz") ||
				 !strcasecmp(words[i], "sequentialnz");
		} else if (!strcasecmp(words[i], "once")) {
			w->is_select_once = true;
		} else if (!strcasecmp(words[i], "poisson")) {
			w->is_select_poisson = true;
		} else if (i && w->is_select_poisson && words[i][0]) {
			(void)strtod(words[i], &end);
			if (*end)
				bad = words[i];
		} else {
			bad = words[i];
		}
	}
	free(words);
	w->fileselect_loc = v->loc;
	if (bad)
		return parm_errf(err, &v->loc,
				 "invalid fileselect=%s: '%s'; expected random, sequential, "
				 "sequentialnz or (poisson,n), with once or not",
				 v->text, bad);
	if (is_nz && w->is_select_once)
		return parm_errf(err, &v->loc,
				 "fileselect=%s: sequentialnz and once may not be used together; "
				 "expected (sequential,once)",
				 v->text);
	return 0;
}

static int stopafter_pct(struct parm_fwd *w, const struct parm_val *v, struct parm_err *err)
{
	char *end = NULL;
	double pct = strtod(v->text, &end);

	if (end != v->text + strlen(v->text) - 1 || pct < 0 || pct > 1e9)
		return parm_errf(err, &v->loc,
				 "invalid stopafter=%s; expected a count of blocks or a percentage "
				 "of the file's size",
				 v->text);
	w->stopafter_pct = pct;
	return 0;
}

static int apply_fwd(struct parm_fs *fs, const struct fs_raw_def *d, struct parm_err *err)
{
	struct parm_fwd *w;
	const struct parm_val *v;
	char owner[300];
	int ret = 0;

	if (parm_grow((void **)&fs->fwds, fs->nr_fwds, sizeof(*fs->fwds)))
		return -ENOMEM;
	w = &fs->fwds[fs->nr_fwds++];
	memset(w, 0, sizeof(*w));
	w->name = strdup(d->name);
	w->loc = d->loc;
	w->threads = 1;
	w->rdpct = -1;
	w->op = FS_OP_READ;
	if (!w->name)
		return -ENOMEM;
	snprintf(owner, sizeof(owner), "fwd=%s", d->name);
	v = fs_kwset_get(&d->set, "fsd");
	if (!v)
		return parm_errf(err, &d->loc, "fwd=%s has no fsd=; expected fsd=name", d->name);
	ret = resolve(v, "fsd", owner, fsd_name, fs->nr_fsds, fs, false, &w->fsd_idx, &w->nr_fsd,
		      err);
	if (!ret && (v = fs_kwset_get(&d->set, "operation"))) {
		int *ops = NULL;
		size_t nr = 0;

		ret = get_ops(v, "operation", &ops, &nr, err);
		if (!ret && nr != 1)
			ret = parm_errf(err, &v->loc,
					"fwd=%s: operation=%s; expected one operation per fwd= "
					"(rd= operations= takes a list)",
					d->name, v->text);
		if (!ret)
			w->op = (enum fs_op)ops[0];
		free(ops);
	}
	if (!ret && (v = fs_kwset_get(&d->set, "fileio")))
		ret = fileio_words(w, v, err);
	/* sequential unless fileselect=random: VDbench 5.04.07 without fileselect= read (and
	 * wrote) files 0, 1, 2, ... in order, with fileselect=random in no order (observed by
	 * the files' access times) */
	w->is_select_seq = true;
	if (!ret && (v = fs_kwset_get(&d->set, "fileselect")))
		ret = fileselect_words(w, v, err);
	v = ret ? NULL : fs_kwset_get(&d->set, "xfersize");
	/* xfersize=0 lists (VDbench 5.04.07's -s) and is refused when a run reads or writes
	 * with it (its run dies in OpRead) */
	if (v && !(v->kind == PARM_VAL_WORD && !strcmp(v->text, "0"))) {
		ret = parm_get_xfer(v, &w->xfer, err);
	} else if (!ret) {
		w->xfer.kind = PARM_XFER_FIXED;
		w->xfer.nr = 1;
		w->xfer.sizes_bytes = malloc(sizeof(uint64_t));
		if (!w->xfer.sizes_bytes)
			return -ENOMEM;
		w->xfer.sizes_bytes[0] = v ? 0 : 4096;
	}
	if (v)
		w->xfersize_loc = v->loc;
	if (!ret && (v = fs_kwset_get(&d->set, "threads"))) {
		double t;

		/* threads=0 and threads=-1 run one, with the mismatch note "requested (-1) and
		 * used (1)" (VDbench 5.04.07, observed) */
		ret = parm_get_double(v, PARM_UNIT_PLAIN, -100000, 100000, "threads", &t, err);
		w->threads = (int32_t)t;
	}
	if (!ret && (v = fs_kwset_get(&d->set, "skew"))) {
		/* VDbench 5.04.07's -s takes skew=110 and skew=-5 */
		ret = parm_get_double(v, PARM_UNIT_PLAIN, -1e9, 1e9, "skew", &w->skew, err);
		w->skew_loc = v->loc;
	}
	if (!ret && (v = fs_kwset_get(&d->set, "rdpct"))) {
		/* above 100 reads only, as VDbench runs rdpct=150 (observed: read pct 100.0); a
		 * negative one is none, as VDbench 5.04.07 takes rdpct=-1 and rdpct=-5 beside
		 * fileio=sequential, which refuses any other rdpct= */
		ret = parm_get_double(v, PARM_UNIT_PLAIN, -1e9, 1e9, "rdpct", &w->rdpct, err);
		if (w->rdpct > 100)
			w->rdpct = 100;
		if (w->rdpct < 0)
			w->rdpct = -1;
		w->rdpct_loc = v->loc;
	}
	if (!ret && (v = fs_kwset_get(&d->set, "stopafter"))) {
		double neg = 0;
		size_t len = v->text ? strlen(v->text) : 0;

		/* a negative one is the default (VDbench 5.04.07 runs stopafter=-1); N% stops at
		 * N% of the file's size (observed: 50% of a 64k file is eight 4k reads) */
		if (v->text && v->text[0] == '-')
			ret = parm_get_double(v, PARM_UNIT_PLAIN, -1e18, 0, "stopafter", &neg, err);
		else if (v->kind == PARM_VAL_WORD && len > 1 && v->text[len - 1] == '%')
			ret = stopafter_pct(w, v, err);
		else
			ret = parm_get_u64(v, PARM_UNIT_PLAIN, 0, UINT64_MAX / 2, "stopafter",
					   &w->stopafter, err);
	}
	if (!ret && (v = fs_kwset_get(&d->set, "openflags")))
		ret = openflags_later(v, &w->openflags, &w->openflags_err);
	return ret;
}

static int format_words(struct parm_frd *r, const struct parm_val *v, struct parm_err *err)
{
	/* is_prefix: any start of the word will do (VDbench 5.04.07 takes y, ye, n, d, di, dir,
	 * dire, and refuses o, on, onl, r, res, c, cl, li, lim, com, dirs, observed) */
	static const struct {
		const char *w;
		unsigned int bit;
		bool is_prefix;
	} fmt[] = {
		{ "yes", FS_FMT_YES, true },
		{ "no", 0, true },
		{ "only", FS_FMT_ONLY, false },
		{ "restart", FS_FMT_RESTART, false },
		{ "clean", FS_FMT_CLEAN, false },
		{ "once", FS_FMT_ONCE, false },
		{ "directories", FS_FMT_DIRS, true },
		{ "limited", FS_FMT_LIMITED, false },
		{ "complete", FS_FMT_COMPLETE, false },
	};
	const char **words = NULL;
	int n = parm_val_words(v, &words, err);
	int ret = 0;
	bool has_no = false;

	for (int i = 0; !ret && i < n; i++) {
		size_t j = 0;
		size_t len = strlen(words[i]);

		/* lower case only: VDbench 5.04.07 refuses format=YES ("Invalid contents of
		 * 'format=' parameter: YES") */
		while (j < IORAMP_ARRAY_SIZE(fmt) &&
		       !(len && (!strcmp(words[i], fmt[j].w) ||
				 (fmt[j].is_prefix && !strncmp(words[i], fmt[j].w, len)))))
			j++;
		if (j == IORAMP_ARRAY_SIZE(fmt))
			ret = parm_errf(err, &v->loc,
					"invalid format=%s: '%s'; expected yes, no, only, restart, "
					"clean, once, directories, limited or complete",
					v->text, words[i]);
		else
			r->format |= fmt[j].bit;
		has_no |= j < IORAMP_ARRAY_SIZE(fmt) && !fmt[j].bit;
	}
	free(words);
	/* no in the list: no format, the other words but complete left unused (VDbench 5.04.07
	 * lists and runs format=(no,only), (no,clean), (no,restart), (no,yes), (only,no) as the
	 * work run alone, observed) */
	if (has_no)
		r->format &= FS_FMT_COMPLETE;
	/* VDbench 5.04.07 refuses both (observed) */
	if (!ret && (r->format & FS_FMT_COMPLETE) && !has_no && !(r->format & ~FS_FMT_COMPLETE))
		ret = parm_errf(err, &v->loc,
				"format=%s: complete says a format is already done; expected "
				"format=(no,complete)",
				v->text);
	if (!ret && (r->format & FS_FMT_LIMITED) && !(r->format & FS_FMT_ONLY))
		ret = parm_errf(err, &v->loc,
				"format=%s: limited stops a format run at elapsed=, which only a "
				"format run alone can do; expected format=(only,limited)",
				v->text);
	if (!ret && (r->format & FS_FMT_COMPLETE) && (r->format & ~FS_FMT_COMPLETE))
		ret = parm_errf(err, &v->loc,
				"format=%s: complete may only be used alone "
				"(format=no); expected format=complete",
				v->text);
	return n < 0 ? n : ret;
}

static int set_time(const struct parm_val *v, const char *what, int64_t min, int64_t *out,
		    struct parm_err *err)
{
	double d;
	int ret = parm_get_double(v, PARM_UNIT_TIME, (double)min, 1e9, what, &d, err);

	if (!ret)
		*out = (int64_t)d;
	return ret;
}

static const struct {
	const char *key;
	enum fs_loop_kind kind;
	enum parm_unit unit;
} loop_keys[] = {
	{ "forxfersize", FS_LOOP_XFERSIZE, PARM_UNIT_BYTES },
	{ "forthreads", FS_LOOP_THREADS, PARM_UNIT_PLAIN },
	{ "forrdpct", FS_LOOP_RDPCT, PARM_UNIT_PLAIN },
	{ "foroperations", FS_LOOP_OPERATION, PARM_UNIT_PLAIN },
	{ "fordepth", FS_LOOP_DEPTH, PARM_UNIT_PLAIN },
	{ "forwidth", FS_LOOP_WIDTH, PARM_UNIT_PLAIN },
	{ "forfiles", FS_LOOP_FILES, PARM_UNIT_PLAIN },
	{ "forsizes", FS_LOOP_SIZES, PARM_UNIT_BYTES },
	{ "fortotal", FS_LOOP_TOTAL, PARM_UNIT_BYTES },
};

/* The for-loops in the order written (seq of each key). */
static int rd_loops(struct parm_frd *r, const struct fs_kwset *s, struct parm_err *err)
{
	size_t order[FS_MAX_KW], n = 0;

	for (size_t i = 0; i < s->nr; i++)
		for (size_t j = 0; j < IORAMP_ARRAY_SIZE(loop_keys); j++)
			if (!strcmp(s->keys[i], loop_keys[j].key))
				order[n++] = i;
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && s->seq[order[b]] < s->seq[order[b - 1]]; b--) {
			size_t t = order[b];

			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	r->loops = calloc(n ? n : 1, sizeof(*r->loops));
	if (!r->loops)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct parm_val *v = s->vals[order[i]];
		struct parm_fs_loop *l = &r->loops[r->nr_loops++];
		size_t j = 0;
		int ret;

		while (strcmp(s->keys[order[i]], loop_keys[j].key))
			j++;
		l->kind = loop_keys[j].kind;
		if (l->kind == FS_LOOP_OPERATION) {
			int *ops = NULL;

			ret = get_ops(v, "foroperations", &ops, &l->nr, err);
			if (ret)
				return ret;
			l->vals = calloc(l->nr ? l->nr : 1, sizeof(double));
			for (size_t q = 0; l->vals && q < l->nr; q++)
				l->vals[q] = ops[q];
			free(ops);
			if (!l->vals)
				return -ENOMEM;
			continue;
		}
		{
			struct parm_num *nums = NULL;
			int nr = parm_val_numbers(v, loop_keys[j].unit, loop_keys[j].key, &nums,
						  err);

			if (nr < 0)
				return nr;
			if (nr == 0) {
				free(nums);
				return parm_errf(err, &v->loc, "%s=%s has no values",
						 loop_keys[j].key, v->text);
			}
			l->vals = calloc((size_t)nr, sizeof(double));
			if (!l->vals) {
				free(nums);
				return -ENOMEM;
			}
			for (int q = 0; q < nr; q++) {
				if (nums[q].is_pct || nums[q].value < 0) {
					free(nums);
					return parm_errf(err, &v->loc,
							 "invalid %s=%s; expected values >= 0",
							 loop_keys[j].key, v->text);
				}
				l->vals[q] = nums[q].value;
			}
			l->nr = (size_t)nr;
			free(nums);
		}
	}
	return 0;
}

/* fwdrate=(curve,...): VDbench 5.04.07 runs (curve,10) and (curve,10,20) as fwdrate=curve
 * with curve='s points, and refuses a word after curve ((curve,max), (curve,curve): "Exception
 * during reading of input parameter file(s)"), observed. */
static int rate_curve_list(struct parm_frd *r, const struct parm_val *v, struct parm_err *err)
{
	for (size_t i = 1; i < v->nr_items; i++) {
		char *end = NULL;

		if (v->items[i].kind == PARM_VAL_WORD && v->items[i].text[0])
			(void)strtod(v->items[i].text, &end);
		if (!end || *end)
			return parm_errf(err, &v->items[i].loc,
					 "invalid fwdrate=%s: '%s' after curve; expected "
					 "fwdrate=curve and the points in curve=",
					 v->text, v->items[i].text);
	}
	r->rates = calloc(1, sizeof(*r->rates));
	if (!r->rates)
		return -ENOMEM;
	r->rates[0].kind = PARM_RATE_CURVE;
	r->nr_rates = 1;
	r->has_rate = true;
	return 0;
}

static int apply_rd(struct parm_fs *fs, const struct fs_raw_def *d, struct parm_err *err)
{
	static const double default_curve[] = { 10, 50, 70, 80, 90, 100 };
	struct parm_frd *r;
	const struct parm_val *v;
	char owner[300];
	int ret = 0, n;

	if (parm_grow((void **)&fs->rds, fs->nr_rds, sizeof(*fs->rds)))
		return -ENOMEM;
	r = &fs->rds[fs->nr_rds++];
	memset(r, 0, sizeof(*r));
	r->name = strdup(d->name);
	r->loc = d->loc;
	r->elapsed_s = 30;
	r->interval_s = 1;
	if (!r->name)
		return -ENOMEM;
	snprintf(owner, sizeof(owner), "rd=%s", d->name);
	v = fs_kwset_get(&d->set, "fwd");
	if (!v)
		return parm_errf(err, &d->loc,
				 "rd=%s has no fwd=; in file-system mode every rd= names its "
				 "workloads: fwd=name or fwd=(a,b) or fwd=*",
				 d->name);
	ret = resolve(v, "fwd", owner, fwd_name, fs->nr_fwds, fs, true, &r->fwd_idx, &r->nr_fwd,
		      err);
	v = ret ? NULL : fs_kwset_get(&d->set, "fwdrate");
	if (v && v->kind == PARM_VAL_LIST && v->nr_items && v->items[0].kind == PARM_VAL_WORD &&
	    !strcasecmp(v->items[0].text, "max")) {
		/* VDbench 5.04.07 (observed): a list that opens with max is max alone, whatever
		 * follows ((max,-5), (max,100,200), (max,curve): -s lists one run, fwdrate=max) */
		r->rates = calloc(1, sizeof(*r->rates));
		if (!r->rates)
			return -ENOMEM;
		r->rates[0].kind = PARM_RATE_MAX;
		r->nr_rates = 1;
		r->has_rate = true;
		v = NULL;
	}
	if (v && v->kind == PARM_VAL_LIST && v->nr_items && v->items[0].kind == PARM_VAL_WORD &&
	    !strcasecmp(v->items[0].text, "curve")) {
		ret = rate_curve_list(r, v, err);
		if (ret)
			return ret;
		v = NULL;
	}
	if (v) {
		n = parm_rd_rates(v, &r->rates, err);
		if (n < 0)
			return n;
		r->nr_rates = (size_t)n;
		r->has_rate = true;
		/* VDbench 5.04.07: "Mix of alpha and numeric values not allowed: (fwdrate) max"
		 * (iorate= takes (10,max), fwdrate= does not) */
		for (size_t i = 1; i < r->nr_rates; i++)
			if ((r->rates[i].kind == PARM_RATE_MAX) !=
			    (r->rates[0].kind == PARM_RATE_MAX))
				return parm_errf(err, &v->loc,
						 "mix of alpha and numeric values not allowed in "
						 "fwdrate=%s; expected numbers only, or max alone",
						 v->text);
		/* fwdrate=0 alone is none: VDbench 5.04.07 says "No fwdrate= specified" (0.0
		 * too, format=only too), and runs (0,10) and (10,0) */
		if (r->nr_rates == 1 && r->rates[0].kind == PARM_RATE_FIXED && !r->rates[0].value)
			r->has_rate = false;
	}
	if (!ret && !r->has_rate) { /* refused once every rd= is read (parm_fs_finish) */
		free(r->rates);
		r->rates = calloc(1, sizeof(*r->rates));
		if (!r->rates)
			return -ENOMEM;
		r->rates[0].kind = PARM_RATE_MAX;
		r->nr_rates = 1;
	}
	if (!ret && (v = fs_kwset_get(&d->set, "format")))
		ret = format_words(r, v, err);
	if (!ret && (v = fs_kwset_get(&d->set, "operation"))) {
		const struct parm_val *fv = fs_kwset_get(&d->set, "foroperations");

		r->ops_loc = v->loc;
		ret = get_ops(v, "operations", &r->ops, &r->nr_ops, err);
		/* VDbench 5.04.07: "rd=rd1: 'operations' and 'foroperations' parameters are
		 * mutually exclusive" */
		if (!ret && fv)
			ret = parm_errf(err, &fv->loc,
					"rd=%s: operations= and foroperations= are mutually "
					"exclusive; expected one of them",
					d->name);
	}
	if (!ret && (v = fs_kwset_get(&d->set, "elapsed")))
		ret = set_time(v, "elapsed", 1, &r->elapsed_s, err);
	if (!ret && (v = fs_kwset_get(&d->set, "interval"))) {
		/* interval=0 is min(elapsed/2, 60), as VDbench 5.04.07 sets it ("'interval=' not
		 * specified. Setting to 2 seconds." for elapsed=4) */
		ret = set_time(v, "interval", 0, &r->interval_s, err);
		r->is_interval_auto = !ret && !r->interval_s;
		if (r->is_interval_auto)
			r->interval_s = r->elapsed_s / 2 > 60 ? 60
					: r->elapsed_s / 2    ? r->elapsed_s / 2
							      : 1;
	}
	if (!ret && (v = fs_kwset_get(&d->set, "warmup"))) {
		ret = set_time(v, "warmup", 0, &r->warmup_s, err);
		r->has_warmup = true;
		if (!ret && r->warmup_s % r->interval_s)
			ret = parm_errf(err, &v->loc,
					"rd=%s: warmup=%lld is not a multiple of interval=%lld; "
					"expected whole intervals",
					d->name, (long long)r->warmup_s, (long long)r->interval_s);
	}
	if (!ret && (v = fs_kwset_get(&d->set, "pause")))
		ret = set_time(v, "pause", 0, &r->pause_s, err);
	if (!ret && (v = fs_kwset_get(&d->set, "curve"))) {
		struct parm_num *nums = NULL;

		n = parm_val_numbers(v, PARM_UNIT_PLAIN, "curve", &nums, err);
		if (n < 0)
			return n;
		r->curve_pcts = calloc(n ? (size_t)n : 1, sizeof(double));
		for (int i = 0; r->curve_pcts && i < n; i++)
			r->curve_pcts[i] = nums[i].value;
		r->nr_curve_pcts = (size_t)n;
		free(nums);
	} else if (!ret) {
		r->curve_pcts = malloc(sizeof(default_curve));
		if (r->curve_pcts)
			memcpy(r->curve_pcts, default_curve, sizeof(default_curve));
		r->nr_curve_pcts = IORAMP_ARRAY_SIZE(default_curve);
	}
	if (!r->curve_pcts)
		return ret ? ret : -ENOMEM;
	/* VDbench 5.04.07, as raw runs, in this order: "'elapsed=' time value must be at
	 * least twice the 'interval=' value" (elapsed=1,interval=1 and elapsed=1,interval=5
	 * too), then "'elapsed=5' must be multiple of 'interval=2'." */
	if (!ret && r->elapsed_s < 2 * r->interval_s)
		ret = parm_errf(err, &d->loc,
				"rd=%s: 'elapsed=%lld' must be at least twice 'interval=%lld'",
				d->name, (long long)r->elapsed_s, (long long)r->interval_s);
	if (!ret && r->elapsed_s % r->interval_s)
		ret = parm_errf(err, &d->loc,
				"rd=%s: 'elapsed=%lld' must be a multiple of 'interval=%lld'",
				d->name, (long long)r->elapsed_s, (long long)r->interval_s);
	if (!ret)
		ret = rd_loops(r, &d->set, err);
	/* VDbench 5.04.07: "'format=once' can only be used with 'forxxx=' parameters"; a
	 * fwdrate= list counts, operations= and fwdrate=curve do not (observed) */
	if (!ret && (r->format & FS_FMT_ONCE) && !r->nr_loops && r->nr_rates < 2)
		ret = parm_errf(
			err, &fs_kwset_get(&d->set, "format")->loc,
			"rd=%s: format=once can only be used with forxxx= parameters; "
			"expected a for-loop (forthreads=, forxfersize=, ...) or a fwdrate= "
			"list",
			d->name);
	return ret;
}

/* A name defined twice, as VDbench 5.04.07 refuses it: "Duplicate fsd name: fsd1" and
 * "Duplicate FWD name: fwd1" whatever the case (fsd1 and FSD1), "Duplicate RD names not
 * allowed: rd1" only in the same case (rd1 and RD1 run both), observed. */
static int check_duplicates(const struct parm_fs *fs, struct parm_err *err)
{
	for (size_t i = 0; i < fs->nr_fsds; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcasecmp(fs->fsds[i].name, fs->fsds[j].name))
				return parm_errf(err, &fs->fsds[i].loc,
						 "fsd=%s is defined twice; expected a new name",
						 fs->fsds[i].name);
	for (size_t i = 0; i < fs->nr_fwds; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcasecmp(fs->fwds[i].name, fs->fwds[j].name))
				return parm_errf(err, &fs->fwds[i].loc,
						 "fwd=%s is defined twice; expected a new name",
						 fs->fwds[i].name);
	for (size_t i = 0; i < fs->nr_rds; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(fs->rds[i].name, fs->rds[j].name))
				return parm_errf(err, &fs->rds[i].loc,
						 "rd=%s is defined twice; expected a new name",
						 fs->rds[i].name);
	return 0;
}

/* rdpct= as VDbench 5.04.07 takes it in each RD's FWDs (a FWD no RD runs is not looked at),
 * in its order: beside operations= only one operation, read or write ("When using 'rdpct='
 * you may only request 'operation=read' or 'operation=write', and then only one of these.");
 * then only with fileio=random ("'fileio=sequential' and 'rdpct=' are mutually exclusive.",
 * for (sequential,delete) "'rdpct=' and 'delete' parameters are mutually exclusive"),
 * whatever the operation. forrdpct= is not rdpct=: it runs with fileio=sequential. */
static int check_rdpct(const struct parm_fs *fs, const struct parm_frd *r, struct parm_err *err)
{
	for (size_t i = 0; i < r->nr_fwd; i++) {
		const struct parm_fwd *w = &fs->fwds[r->fwd_idx[i]];

		if (w->rdpct < 0)
			continue;
		if (r->nr_ops &&
		    (r->nr_ops > 1 || (r->ops[0] != FS_OP_READ && r->ops[0] != FS_OP_WRITE)))
			return parm_errf(err, &r->ops_loc,
					 "rd=%s: fwd=%s has rdpct=; expected operations=read or "
					 "operations=write, only one of them, beside rdpct=",
					 r->name, w->name);
		if (!w->is_random)
			return parm_errf(err, &w->rdpct_loc,
					 "fwd=%s: 'fileio=%s' and 'rdpct=' are mutually exclusive; "
					 "expected fileio=random beside rdpct=",
					 w->name,
					 w->is_seq_delete ? "(sequential,delete)" : "sequential");
	}
	return 0;
}

int parm_fs_finish(struct parm_config *cfg, struct parm_err *err)
{
	struct parm_fs *fs = cfg->fs;
	struct fs_raw *raw = fs->raw;
	int ret = 0;

	for (int sec = FS_SEC_FSD; !ret && sec < FS_SEC_NR; sec++)
		for (size_t i = 0; !ret && i < raw->nr_defs; i++) {
			const struct fs_raw_def *d = &raw->defs[i];

			if (d->sec != sec)
				continue;
			ret = sec == FS_SEC_FSD	  ? apply_fsd(fs, d, err)
			      : sec == FS_SEC_FWD ? apply_fwd(fs, d, err)
						  : apply_rd(fs, d, err);
		}
	/* -co, -cy, -cn: format=only, yes or no in every RD, whatever it says */
	for (size_t i = 0; !ret && cfg->overrides.fs_format && i < fs->nr_rds; i++)
		fs->rds[i].format = !strcmp(cfg->overrides.fs_format, "only")  ? FS_FMT_ONLY
				    : !strcmp(cfg->overrides.fs_format, "yes") ? FS_FMT_YES
									       : 0;
	/* VDbench 5.04.07 refuses it after reading every RD, a format=only one too: "No
	 * fwdrate= specified for rd=" */
	for (size_t i = 0; !ret && i < fs->nr_rds; i++)
		if (!fs->rds[i].has_rate)
			ret = parm_errf(
				err, &fs->rds[i].loc,
				"rd=%s has no fwdrate=; expected fwdrate=max, a rate or curve "
				"(a format=only rd too)",
				fs->rds[i].name);
	if (!ret && !fs->nr_fsds)
		ret = parm_errf(err, NULL,
				"file-system mode without fsd=; expected "
				"fsd=name,anchor=/dir,... before the fwd=");
	if (!ret && !fs->nr_rds)
		ret = parm_errf(err, NULL,
				"no run definition in the parameter files; expected at "
				"least one rd=name,fwd=...,fwdrate=...");
	if (!ret)
		ret = check_duplicates(fs, err);
	for (size_t i = 0; !ret && i < fs->nr_rds; i++)
		ret = check_rdpct(fs, &fs->rds[i], err);
	free(raw->defs);
	free(raw);
	fs->raw = NULL;
	if (ret == -ENOMEM)
		parm_errf(err, NULL, "out of memory");
	return ret;
}

void parm_fs_free(struct parm_fs *fs)
{
	if (!fs)
		return;
	if (fs->raw) {
		free(((struct fs_raw *)fs->raw)->defs);
		free(fs->raw);
	}
	for (size_t i = 0; i < fs->nr_fsds; i++) {
		free(fs->fsds[i].name);
		free(fs->fsds[i].anchor);
		free(fs->fsds[i].openflags_err);
		parm_xfer_fini(&fs->fsds[i].sizes);
	}
	free(fs->fsds);
	for (size_t i = 0; i < fs->nr_fwds; i++) {
		free(fs->fwds[i].name);
		free(fs->fwds[i].fsd_idx);
		free(fs->fwds[i].openflags_err);
		parm_xfer_fini(&fs->fwds[i].xfer);
	}
	free(fs->fwds);
	for (size_t i = 0; i < fs->nr_rds; i++) {
		struct parm_frd *r = &fs->rds[i];

		free(r->name);
		free(r->fwd_idx);
		free(r->rates);
		free(r->ops);
		free(r->curve_pcts);
		for (size_t l = 0; l < r->nr_loops; l++)
			free(r->loops[l].vals);
		free(r->loops);
	}
	free(fs->rds);
	free(fs);
}
