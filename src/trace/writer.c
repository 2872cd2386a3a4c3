/* The fio iolog v3 writer: ioramp's recording format, which fio --read_iolog replays.
 * Lines are formatted by hand (two digits per table look-up) into a 4 MiB buffer written out
 * in one piece when full, so that trace synth writes millions of lines per second; times are
 * written in whole microseconds, the unit fio writes and replays v3 timestamps in. */
#include "ioramp/trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	WRITER_BUF_BYTES = 4 << 20,
	WRITER_MAX_LINE = 4096 + 64, /* a name (PATH_MAX) plus time, action, offset, length */
	WRITER_MAX_FILES = 65536,
};

struct trace_writer {
	FILE *f;
	char *buf;
	size_t len; /* bytes of buf not written yet */
	char **names;
	size_t *name_lens;
	size_t nr_names, cap_names;
	uint64_t last_us; /* latest time written, for the close lines */
	int err;	  /* first write error, -errno */
};

static const char *const writer_ops[TRACE_OP_NR] = {
	[TRACE_OP_READ] = "read",
	[TRACE_OP_WRITE] = "write",
	[TRACE_OP_FLUSH] = "sync", /* fio parses "sync" with an offset and length of 0 */
	[TRACE_OP_DISCARD] = "trim",
};

int trace_writer_open(struct trace_writer **out, const char *path, struct trace_err *err)
{
	struct trace_writer *w = calloc(1, sizeof(*w));
	int ret;

	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", path);
	if (!w || !(w->buf = malloc(WRITER_BUF_BYTES))) {
		ret = -ENOMEM;
		goto err_free;
	}
	w->f = fopen(path, "w");
	if (!w->f) {
		ret = -errno;
		snprintf(err->msg, sizeof(err->msg), "cannot create: %s", strerror(errno));
		goto err_free;
	}
	w->len = (size_t)(stpcpy(w->buf, "fio version 3 iolog\n") - w->buf);
	*out = w;
	return 0;

err_free:
	if (ret == -ENOMEM)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	if (w)
		free(w->buf);
	free(w);
	return ret;
}

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
				     "25262728293031323334353637383940414243444546474849"
				     "50515253545556575859606162636465666768697071727374"
				     "75767778798081828384858687888990919293949596979899";

/* Writes v in decimal at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[24];
	char *t = tmp + sizeof(tmp);
	size_t n;

	while (v >= 100) {
		unsigned int d = (unsigned int)(v % 100) * 2;

		v /= 100;
		*--t = digit_pairs[d + 1];
		*--t = digit_pairs[d];
	}
	if (v >= 10) {
		*--t = digit_pairs[v * 2 + 1];
		*--t = digit_pairs[v * 2];
	} else {
		*--t = (char)('0' + v);
	}
	n = (size_t)(tmp + sizeof(tmp) - t);
	memcpy(p, t, n);
	return p + n;
}

/* Writes out the buffer; a failure is kept for trace_writer_close(). */
static void writer_flush(struct trace_writer *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len && !w->err)
		w->err = -EIO;
	w->len = 0;
}

static void writer_line(struct trace_writer *w, uint64_t us, size_t file, const char *act,
			const struct trace_rec *rec)
{
	char *p;

	if (w->len > WRITER_BUF_BYTES - WRITER_MAX_LINE)
		writer_flush(w);
	p = put_u64(w->buf + w->len, us);
	*p++ = ' ';
	memcpy(p, w->names[file], w->name_lens[file]);
	p += w->name_lens[file];
	*p++ = ' ';
	p = stpcpy(p, act);
	if (rec) {
		*p++ = ' ';
		p = put_u64(p, rec->op == TRACE_OP_FLUSH ? 0 : rec->offset_bytes);
		*p++ = ' ';
		p = put_u64(p, rec->op == TRACE_OP_FLUSH ? 0 : rec->size_bytes);
	}
	*p++ = '\n';
	w->len = (size_t)(p - w->buf);
}

int trace_writer_file(struct trace_writer *w, const char *name, uint64_t time_ns)
{
	uint64_t us = time_ns / 1000;
	size_t *lens;
	char **names;
	int idx;

	if (!*name || strpbrk(name, " \t\r\n") || strlen(name) > WRITER_MAX_LINE - 64)
		return -EINVAL;
	if (w->nr_names == WRITER_MAX_FILES)
		return -E2BIG;
	if (w->nr_names == w->cap_names) {
		size_t cap = w->cap_names ? 2 * w->cap_names : 4;

		names = realloc(w->names, cap * sizeof(*names));
		if (!names)
			return -ENOMEM;
		w->names = names;
		lens = realloc(w->name_lens, cap * sizeof(*lens));
		if (!lens)
			return -ENOMEM;
		w->name_lens = lens;
		w->cap_names = cap;
	}
	w->names[w->nr_names] = strdup(name);
	if (!w->names[w->nr_names])
		return -ENOMEM;
	w->name_lens[w->nr_names] = strlen(name);
	idx = (int)w->nr_names++;
	writer_line(w, us, (size_t)idx, "add", NULL);
	writer_line(w, us, (size_t)idx, "open", NULL);
	if (us > w->last_us)
		w->last_us = us;
	return w->err ? w->err : idx;
}

int trace_writer_add(struct trace_writer *w, const struct trace_rec *rec)
{
	uint64_t us = rec->time_ns / 1000;

	if (rec->dev >= w->nr_names || rec->op >= TRACE_OP_NR)
		return -EINVAL;
	writer_line(w, us, rec->dev, writer_ops[rec->op], rec);
	if (us > w->last_us)
		w->last_us = us;
	return w->err;
}

int trace_writer_close(struct trace_writer *w)
{
	int ret;

	if (!w)
		return 0;
	for (size_t i = 0; i < w->nr_names; i++)
		writer_line(w, w->last_us, i, "close", NULL);
	writer_flush(w);
	for (size_t i = 0; i < w->nr_names; i++)
		free(w->names[i]);
	ret = w->err;
	if (fclose(w->f) != 0 && !ret)
		ret = -EIO;
	free(w->names);
	free(w->name_lens);
	free(w->buf);
	free(w);
	return ret;
}
