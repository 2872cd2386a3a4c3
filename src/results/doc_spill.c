/* A results document's intervals kept on disk: each interval is one compact JSON line in an
 * unnamed file (in the output directory when it can hold one, else the temporary directory),
 * not a tree in memory, so an execution of any length holds the same memory. results.json
 * splices the lines back in when written; the report's charts read them back one at a time.
 * The file has no name, so it vanishes with the process however that ends. */
#include "parts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A run's intervals: lines [start, end) of the file, contiguous since runs follow each other. */
struct spill_run {
	off_t start;
	off_t end;
	size_t nr;
};

struct rep_doc_spill {
	int fd;
	off_t size;
	struct spill_run *runs; /* by run index; runs without intervals stay zero */
	size_t nr_runs;
};

static int unnamed_file(const char *dir)
{
	int fd = dir ? open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600) : -1;
	FILE *f;

	if (fd >= 0)
		return fd;
	f = tmpfile(); /* no directory, or a file system without O_TMPFILE */
	if (!f)
		return -1;
	fd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 0);
	fclose(f);
	return fd;
}

int rep_doc_spill_open(const char *dir, struct rep_doc_spill **out)
{
	struct rep_doc_spill *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->fd = unnamed_file(dir);
	if (s->fd < 0) {
		int ret = -errno;

		free(s);
		return ret;
	}
	*out = s;
	return 0;
}

void rep_doc_spill_close(struct rep_doc_spill *s)
{
	if (!s)
		return;
	close(s->fd);
	free(s->runs);
	free(s);
}

static struct spill_run *run_slot(struct rep_doc_spill *s, size_t run_idx)
{
	if (run_idx >= s->nr_runs) {
		size_t nr = run_idx + 16;
		struct spill_run *runs = realloc(s->runs, nr * sizeof(*runs));

		if (!runs)
			return NULL;
		memset(runs + s->nr_runs, 0, (nr - s->nr_runs) * sizeof(*runs));
		s->runs = runs;
		s->nr_runs = nr;
	}
	return &s->runs[run_idx];
}

int rep_doc_spill_add(struct rep_doc_spill *s, size_t run_idx, const json_t *iv)
{
	struct spill_run *r = run_slot(s, run_idx);
	char *text;
	size_t len;
	int ret;

	if (!r)
		return -ENOMEM;
	if (r->nr && r->end != s->size)
		return -EINVAL; /* another run's intervals came in between */
	text = json_dumps(iv, JSON_COMPACT | JSON_REAL_PRECISION(10));
	if (!text)
		return -ENOMEM;
	len = strlen(text);
	text[len++] = '\n'; /* over the terminating NUL: the line is written by length */
	ret = dv_write_full(s->fd, text, len, (uint64_t)s->size);
	free(text);
	if (ret)
		return ret; /* a partial line is overwritten by the next one */
	if (!r->nr)
		r->start = s->size;
	s->size += (off_t)len;
	r->end = s->size;
	r->nr++;
	return 0;
}

size_t rep_doc_spill_count(const struct rep_doc_spill *s, size_t run_idx)
{
	return run_idx < s->nr_runs ? s->runs[run_idx].nr : 0;
}

/* Reads lines of [at, end) of a file through a buffer that grows to the longest line. */
struct line_reader {
	int fd;
	off_t at, end;
	char *buf;
	size_t cap, pos, fill;
};

/* The next line (newline included) in *line, its length returned; 0 at the end; -errno. */
static ssize_t next_line(struct line_reader *lr, const char **line)
{
	for (;;) {
		char *nl = lr->fill > lr->pos ? memchr(lr->buf + lr->pos, '\n', lr->fill - lr->pos)
					      : NULL;
		size_t want, got;
		int ret;

		if (nl) {
			size_t len = (size_t)(nl - (lr->buf + lr->pos)) + 1;

			*line = lr->buf + lr->pos;
			lr->pos += len;
			return (ssize_t)len;
		}
		if (lr->at >= lr->end)
			return lr->fill > lr->pos ? -EIO : 0; /* a line without its newline */
		if (lr->fill > lr->pos)
			memmove(lr->buf, lr->buf + lr->pos, lr->fill - lr->pos);
		lr->fill -= lr->pos;
		lr->pos = 0;
		if (lr->fill == lr->cap) {
			size_t cap = lr->cap ? 2 * lr->cap : 64 * 1024;
			char *buf = realloc(lr->buf, cap);

			if (!buf)
				return -ENOMEM;
			lr->buf = buf;
			lr->cap = cap;
		}
		want = lr->cap - lr->fill;
		if ((off_t)want > lr->end - lr->at)
			want = (size_t)(lr->end - lr->at);
		ret = dv_read_full(lr->fd, (uint8_t *)lr->buf + lr->fill, want, (uint64_t)lr->at,
				   &got);
		if (ret || !got)
			return ret ? ret : -EIO;
		lr->fill += got;
		lr->at += (off_t)got;
	}
}

/* Calls fn with every line of run run_idx, newline included; stops at the first non-zero
 * return. Returns 0, fn's return or -errno. */
static int each_line(const struct rep_doc_spill *s, size_t run_idx,
		     int (*fn)(const char *line, size_t len, void *arg), void *arg)
{
	struct line_reader lr = { .fd = s->fd };
	const char *line = NULL;
	ssize_t len = 0;
	int ret = 0;

	if (run_idx >= s->nr_runs || !s->runs[run_idx].nr)
		return 0;
	lr.at = s->runs[run_idx].start;
	lr.end = s->runs[run_idx].end;
	while (!ret && (len = next_line(&lr, &line)) > 0)
		ret = fn(line, (size_t)len, arg);
	free(lr.buf);
	return ret ? ret : (int)len;
}

struct each_iv {
	rep_doc_iv_fn *fn;
	void *arg;
};

static int parse_line(const char *line, size_t len, void *arg)
{
	struct each_iv *e = arg;
	json_t *iv = json_loadb(line, len, 0, NULL);

	if (!iv)
		return -EIO;
	e->fn(iv, e->arg);
	json_decref(iv);
	return 0;
}

int rep_doc_spill_each(const struct rep_doc_spill *s, size_t run_idx, rep_doc_iv_fn *fn, void *arg)
{
	struct each_iv e = { fn, arg };

	return each_line(s, run_idx, parse_line, &e);
}

struct array_out {
	FILE *f;
	int indent;
	size_t nr_left;
};

static int copy_line(const char *line, size_t len, void *arg)
{
	struct array_out *o = arg;

	fprintf(o->f, "%*s", o->indent, "");
	fwrite(line, 1, len - 1, o->f);
	fputs(--o->nr_left ? ",\n" : "\n", o->f);
	return ferror(o->f) ? -EIO : 0;
}

int rep_doc_spill_write(const struct rep_doc_spill *s, size_t run_idx, int indent, FILE *f)
{
	struct array_out o = { f, indent + 1, rep_doc_spill_count(s, run_idx) };
	int ret;

	if (!o.nr_left) {
		fputs("[]", f);
		return ferror(f) ? -EIO : 0;
	}
	fputs("[\n", f);
	ret = each_line(s, run_idx, copy_line, &o);
	fprintf(f, "%*s]", indent, "");
	return ret ? ret : ferror(f) ? -EIO : 0;
}

static int copy_raw(const char *line, size_t len, void *arg)
{
	struct array_out *o = arg;

	fwrite(line, 1, len - 1, o->f);
	if (--o->nr_left)
		fputc(',', o->f);
	return ferror(o->f) ? -EIO : 0;
}

int rep_doc_spill_copy(const struct rep_doc_spill *s, size_t run_idx, FILE *f)
{
	struct array_out o = { f, 0, rep_doc_spill_count(s, run_idx) };
	int ret = each_line(s, run_idx, copy_raw, &o);

	return ret ? ret : ferror(f) ? -EIO : 0;
}
