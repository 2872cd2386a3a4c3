/* The fio iolog v3 writer: ioramp's recording format, which fio --read_iolog replays.
 * Lines are formatted by hand into a 1 MiB stdio buffer; times are written in whole
 * microseconds, the unit fio writes and replays v3 timestamps in. */
#include "ioramp/trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	WRITER_BUF_BYTES = 1 << 20,
	WRITER_MAX_FILES = 65536,
};

struct trace_writer {
	FILE *f;
	char *buf;
	char **names;
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
	setvbuf(w->f, w->buf, _IOFBF, WRITER_BUF_BYTES);
	fputs("fio version 3 iolog\n", w->f);
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

/* Writes v in decimal at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		*p++ = tmp[--n];
	return p;
}

static void writer_line(struct trace_writer *w, uint64_t us, const char *name, const char *act,
			const struct trace_rec *rec)
{
	char line[64];
	char *p = put_u64(line, us);

	*p++ = ' ';
	if (fwrite(line, 1, (size_t)(p - line), w->f) != (size_t)(p - line) ||
	    fputs(name, w->f) < 0)
		goto err;
	p = line;
	*p++ = ' ';
	p = stpcpy(p, act);
	if (rec) {
		*p++ = ' ';
		p = put_u64(p, rec->op == TRACE_OP_FLUSH ? 0 : rec->offset_bytes);
		*p++ = ' ';
		p = put_u64(p, rec->op == TRACE_OP_FLUSH ? 0 : rec->size_bytes);
	}
	*p++ = '\n';
	if (fwrite(line, 1, (size_t)(p - line), w->f) == (size_t)(p - line))
		return;
err:
	if (!w->err)
		w->err = -EIO;
}

int trace_writer_file(struct trace_writer *w, const char *name, uint64_t time_ns)
{
	uint64_t us = time_ns / 1000;
	char **names;
	int idx;

	if (!*name || strpbrk(name, " \t\r\n"))
		return -EINVAL;
	if (w->nr_names == WRITER_MAX_FILES)
		return -E2BIG;
	if (w->nr_names == w->cap_names) {
		size_t cap = w->cap_names ? 2 * w->cap_names : 4;

		names = realloc(w->names, cap * sizeof(*names));
		if (!names)
			return -ENOMEM;
		w->names = names;
		w->cap_names = cap;
	}
	w->names[w->nr_names] = strdup(name);
	if (!w->names[w->nr_names])
		return -ENOMEM;
	idx = (int)w->nr_names++;
	writer_line(w, us, name, "add", NULL);
	writer_line(w, us, name, "open", NULL);
	if (us > w->last_us)
		w->last_us = us;
	return w->err ? w->err : idx;
}

int trace_writer_add(struct trace_writer *w, const struct trace_rec *rec)
{
	uint64_t us = rec->time_ns / 1000;

	if (rec->dev >= w->nr_names || rec->op >= TRACE_OP_NR)
		return -EINVAL;
	writer_line(w, us, w->names[rec->dev], writer_ops[rec->op], rec);
	if (us > w->last_us)
		w->last_us = us;
	return w->err;
}

int trace_writer_close(struct trace_writer *w)
{
	int ret;

	if (!w)
		return 0;
	for (size_t i = 0; i < w->nr_names; i++) {
		writer_line(w, w->last_us, w->names[i], "close", NULL);
		free(w->names[i]);
	}
	ret = w->err;
	if (fclose(w->f) != 0 && !ret)
		ret = -EIO;
	free(w->names);
	free(w->buf);
	free(w);
	return ret;
}
