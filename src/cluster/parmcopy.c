/* The parameter text under MPI: rank 0 reads the files and keeps every include= lookup and
 * every file's text in order; the other ranks get that record (clu_comm_bcast) and answer the
 * same questions from it, so every rank parses exactly what rank 0 parsed, whether or not the
 * files exist on its machine. */
#include "ioramp/cluster.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum entry_kind {
	ENTRY_FIND,
	ENTRY_READ,
};

struct clu_parm_entry {
	enum entry_kind kind;
	int32_t ret;
	char *text; /* FIND: the path found; READ: the file's text */
	size_t len;
	char *tried; /* FIND: where it looked (when not found) */
};

static const char magic[8] = "IORPARM1";

static struct clu_parm_entry *entry_new(struct clu_parmcopy *pc)
{
	struct clu_parm_entry *n;

	if (!(pc->nr & (pc->nr - 1)) || !pc->nr) { /* grows at 0, 1, 2, 4, ...: doubling */
		n = realloc(pc->e, (pc->nr ? 2 * pc->nr : 4) * sizeof(*n));
		if (!n)
			return NULL;
		pc->e = n;
	}
	n = &pc->e[pc->nr++];
	memset(n, 0, sizeof(*n));
	return n;
}

static struct clu_parm_entry *entry_next(struct clu_parmcopy *pc, enum entry_kind kind)
{
	if (pc->next >= pc->nr || pc->e[pc->next].kind != kind)
		return NULL;
	return &pc->e[pc->next++];
}

static int copy_out(const char *from, size_t len, char *to, size_t cap)
{
	if (len >= cap)
		return -ENAMETOOLONG;
	memcpy(to, from, len);
	to[len] = '\0';
	return 0;
}

static int op_find(void *ctx, const char *name, const char *from_file, char *path, size_t len,
		   char *tried, size_t tried_len)
{
	struct clu_parmcopy *pc = ctx;
	struct clu_parm_entry *e;
	int ret;

	if (pc->is_replay) {
		e = entry_next(pc, ENTRY_FIND);
		if (!e)
			return -ENOENT;
		if (e->tried)
			copy_out(e->tried, strlen(e->tried), tried, tried_len);
		return e->ret ? e->ret : copy_out(e->text, e->len, path, len);
	}
	ret = parm_include_find(name, from_file, path, len, tried, tried_len);
	e = entry_new(pc);
	if (!e)
		return -ENOMEM;
	e->kind = ENTRY_FIND;
	e->ret = ret;
	e->text = strdup(ret ? "" : path);
	e->len = strlen(e->text ? e->text : "");
	e->tried = ret == -ENOENT ? strdup(tried) : NULL;
	return e->text ? ret : -ENOMEM;
}

static int op_read(void *ctx, const char *path, char **text, size_t *len)
{
	struct clu_parmcopy *pc = ctx;
	struct clu_parm_entry *e;
	int ret;

	if (pc->is_replay) {
		e = entry_next(pc, ENTRY_READ);
		if (!e)
			return -ENOENT;
		if (e->ret)
			return e->ret;
		*text = malloc(e->len ? e->len : 1);
		if (!*text)
			return -ENOMEM;
		memcpy(*text, e->text, e->len);
		*len = e->len;
		return 0;
	}
	ret = parm_file_read(path, text, len);
	e = entry_new(pc);
	if (!e)
		return -ENOMEM;
	e->kind = ENTRY_READ;
	e->ret = ret;
	if (!ret) {
		e->text = malloc(*len ? *len : 1);
		if (!e->text)
			return -ENOMEM;
		memcpy(e->text, *text, *len);
		e->len = *len;
	}
	return ret;
}

static void ops_set(struct clu_parmcopy *pc)
{
	pc->ops = (struct parm_fileops){ .find = op_find, .read = op_read, .ctx = pc };
}

void clu_parmcopy_record(struct clu_parmcopy *pc)
{
	memset(pc, 0, sizeof(*pc));
	ops_set(pc);
}

/* ---- the wire form: magic, seed, count, then per entry kind, ret, text, tried ---- */

struct wbuf {
	char *p;
	size_t len;
	size_t cap;
};

static int put(struct wbuf *w, const void *src, size_t n)
{
	if (w->len + n > w->cap) {
		size_t cap = (w->len + n) * 2;
		char *p = realloc(w->p, cap);

		if (!p)
			return -ENOMEM;
		w->p = p;
		w->cap = cap;
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
	return 0;
}

static int put_str(struct wbuf *w, const char *s, size_t n)
{
	uint64_t len = s ? n : UINT64_MAX;

	return put(w, &len, sizeof(len)) || (s && put(w, s, n)) ? -ENOMEM : 0;
}

int clu_parmcopy_pack(const struct clu_parmcopy *pc, uint64_t seed, void **buf, size_t *len)
{
	struct wbuf w = { 0 };
	uint64_t nr = pc->nr;
	int ret = put(&w, magic, sizeof(magic)) || put(&w, &seed, sizeof(seed)) ||
		  put(&w, &nr, sizeof(nr));

	for (size_t i = 0; !ret && i < pc->nr; i++) {
		const struct clu_parm_entry *e = &pc->e[i];
		int32_t k = (int32_t)e->kind;

		ret = put(&w, &k, sizeof(k)) || put(&w, &e->ret, sizeof(e->ret)) ||
		      put_str(&w, e->text, e->len) ||
		      put_str(&w, e->tried, e->tried ? strlen(e->tried) : 0);
	}
	if (ret) {
		free(w.p);
		return -ENOMEM;
	}
	*buf = w.p;
	*len = w.len;
	return 0;
}

struct rbuf {
	const char *p;
	size_t len;
	size_t pos;
};

static int get(struct rbuf *r, void *dst, size_t n)
{
	if (r->len - r->pos < n)
		return -EINVAL;
	memcpy(dst, r->p + r->pos, n);
	r->pos += n;
	return 0;
}

static int get_str(struct rbuf *r, char **out, size_t *len)
{
	uint64_t n;

	*out = NULL;
	if (get(r, &n, sizeof(n)))
		return -EINVAL;
	if (n == UINT64_MAX)
		return 0;
	if (n > r->len - r->pos)
		return -EINVAL;
	*out = malloc(n + 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, r->p + r->pos, n);
	(*out)[n] = '\0';
	r->pos += n;
	if (len)
		*len = n;
	return 0;
}

int clu_parmcopy_replay(struct clu_parmcopy *pc, const void *buf, size_t len, uint64_t *seed)
{
	struct rbuf r = { .p = buf, .len = len };
	char m[sizeof(magic)];
	uint64_t nr;
	int ret;

	memset(pc, 0, sizeof(*pc));
	pc->is_replay = true;
	ops_set(pc);
	if (get(&r, m, sizeof(m)) || memcmp(m, magic, sizeof(m)) || get(&r, seed, sizeof(*seed)) ||
	    get(&r, &nr, sizeof(nr)) || nr > len)
		return -EINVAL;
	for (uint64_t i = 0; i < nr; i++) {
		struct clu_parm_entry *e = entry_new(pc);
		int32_t k;

		if (!e)
			return -ENOMEM;
		if (get(&r, &k, sizeof(k)) || get(&r, &e->ret, sizeof(e->ret)) ||
		    (k != ENTRY_FIND && k != ENTRY_READ))
			return -EINVAL;
		e->kind = (enum entry_kind)k;
		ret = get_str(&r, &e->text, &e->len);
		if (!ret)
			ret = get_str(&r, &e->tried, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

void clu_parmcopy_fini(struct clu_parmcopy *pc)
{
	for (size_t i = 0; i < pc->nr; i++) {
		free(pc->e[i].text);
		free(pc->e[i].tried);
	}
	free(pc->e);
	memset(pc, 0, sizeof(*pc));
}
