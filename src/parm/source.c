/* Reading parameter files as VDbench 5.04.07 does (tests/parm/FINDINGS.md §2, §12, §13):
 * comment lines, trimming of blanks and tabs, everything after the first blank ignored (a tab is
 * not a blank), eof, include=, $name / !name substitution, $host replication and trailing-comma
 * joins. The result is a list of logical lines whose every byte knows its file, line and
 * column. */
#include "source.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reading state shared by the files of one execution. */
struct reader {
	struct parm_source *src;
	const struct parm_input *in;
	struct parm_err *err;
	struct parm_logical cur; /* the logical line being joined */
	size_t cur_cap;
	bool is_joining;
	int depth;		     /* include nesting */
	struct parm_loc include_loc; /* the include= line of the file being included */
	bool is_file;		     /* reading a file (not text given in memory) */
	char **host_labels;
	size_t nr_host_labels;
};

static int source_add_line(struct parm_source *src, const char *file, uint32_t lineno,
			   const char *text, size_t len, size_t *idx)
{
	struct parm_line *l;

	if (src->nr_lines == src->cap_lines) {
		size_t cap = src->cap_lines ? src->cap_lines * 2 : 64;
		struct parm_line *n = realloc(src->lines, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		src->lines = n;
		src->cap_lines = cap;
	}
	l = &src->lines[src->nr_lines];
	l->text = strndup(text, len);
	if (!l->text)
		return -ENOMEM;
	l->file = file;
	l->lineno = lineno;
	*idx = src->nr_lines++;
	return 0;
}

static struct parm_loc line_loc(const struct parm_source *src, size_t idx, uint32_t col)
{
	struct parm_loc loc = {
		.file = src->lines[idx].file,
		.text = src->lines[idx].text,
		.line = src->lines[idx].lineno,
		.col = col,
	};
	return loc;
}

struct parm_loc parm_source_loc(const struct parm_source *src, const struct parm_logical *lg,
				size_t pos)
{
	if (!lg->len)
		return line_loc(src, 0, 1);
	if (pos >= lg->len) {
		struct parm_loc loc =
			line_loc(src, lg->line_idx[lg->len - 1], lg->col[lg->len - 1]);

		loc.col++;
		return loc;
	}
	return line_loc(src, lg->line_idx[pos], lg->col[pos]);
}

static int logical_put(struct reader *r, const struct parm_line_buf *b, size_t line_idx)
{
	struct parm_logical *lg = &r->cur;
	size_t need = lg->len + b->len + 1;

	if (need > r->cur_cap) {
		size_t cap = need * 2;
		char *t = realloc(lg->text, cap);
		uint32_t *li, *co;

		if (!t)
			return -ENOMEM;
		lg->text = t;
		li = realloc(lg->line_idx, cap * sizeof(*li));
		if (!li)
			return -ENOMEM;
		lg->line_idx = li;
		co = realloc(lg->col, cap * sizeof(*co));
		if (!co)
			return -ENOMEM;
		lg->col = co;
		r->cur_cap = cap;
	}
	memcpy(lg->text + lg->len, b->text, b->len);
	memcpy(lg->col + lg->len, b->col, b->len * sizeof(*lg->col));
	for (size_t i = 0; i < b->len; i++)
		lg->line_idx[lg->len + i] = (uint32_t)line_idx;
	lg->len += b->len;
	lg->text[lg->len] = '\0';
	return 0;
}

static int logical_close(struct reader *r)
{
	struct parm_source *src = r->src;

	r->is_joining = false;
	if (!r->cur.len)
		return 0;
	if (src->nr_logicals == src->cap_logicals) {
		size_t cap = src->cap_logicals ? src->cap_logicals * 2 : 64;
		struct parm_logical *n = realloc(src->logicals, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		src->logicals = n;
		src->cap_logicals = cap;
	}
	src->logicals[src->nr_logicals++] = r->cur;
	memset(&r->cur, 0, sizeof(r->cur));
	r->cur_cap = 0;
	return 0;
}

/* Lines are trimmed of blanks and tabs; only a blank ends the content ([012], [021]). */
static bool is_trim(char c)
{
	return c == ' ' || c == '\t';
}

static int read_file(struct reader *r, const char *path, const struct parm_loc *from);

/* include=NAME (the whole rest of the trimmed line, blanks included: [146]). */
static int do_include(struct reader *r, const struct parm_line_buf *b, size_t start,
		      size_t line_idx)
{
	struct parm_source *src = r->src;
	const char *name = b->text + start + strlen("include=");
	struct parm_loc loc = line_loc(src, line_idx, b->col[start]);
	char path[PATH_MAX], tried[2 * PATH_MAX + 64];
	int ret;

	if (r->depth > 0)
		return parm_errf(r->err, &r->include_loc,
				 "%s:%u: include=%s inside an included file; include= cannot be "
				 "nested",
				 loc.file, loc.line, name);
	if (!*name)
		return parm_errf(r->err, &loc, "include= needs a file name");
	if (r->in->fileops)
		ret = r->in->fileops->find(r->in->fileops->ctx, name, src->lines[line_idx].file,
					   path, sizeof(path), tried, sizeof(tried));
	else
		ret = parm_include_find(name, src->lines[line_idx].file, path, sizeof(path), tried,
					sizeof(tried));
	if (ret == -ENOENT)
		return parm_errf(r->err, &loc, "include=%s: file not found; looked for %s", name,
				 tried);
	if (ret)
		return parm_errf(r->err, &loc, "include=%s: file name too long", name);
	r->depth++;
	r->include_loc = loc;
	ret = read_file(r, path, &loc);
	r->depth--;
	if (!ret && src->listing_f) /* the including file by the name it was given */
		fprintf(src->listing_f, "\n* Continuing with original file: %s\n\n", loc.file);
	return ret;
}

/* A $name or !name left after substitution directly after '=' ([160], [161]); elsewhere it
 * stays literal ([156]). */
static int check_leftover(struct reader *r, const struct parm_line_buf *b, size_t start, size_t end,
			  size_t line_idx)
{
	for (size_t i = start; i + 1 < end; i++) {
		struct parm_loc loc;
		size_t n = i + 2;

		if (b->text[i] != '=' || (b->text[i + 1] != '$' && b->text[i + 1] != '!'))
			continue;
		/* the name alone: $th of threads=$th,openflags=o_direct */
		while (n < end && (isalnum((unsigned char)b->text[n]) || b->text[n] == '_'))
			n++;
		loc = line_loc(r->src, line_idx, b->col[i + 1]);
		return parm_errf(r->err, &loc,
				 "unknown variable substitution request: %.*s; expected "
				 "%.*s=value on the command line",
				 (int)(n - i - 1), b->text + i + 1, (int)(n - i - 2),
				 b->text + i + 2);
	}
	return 0;
}

/* One physical line after substitution: trim, cut at the first blank, include, join. */
static int take_content(struct reader *r, struct parm_line_buf *b, size_t line_idx)
{
	size_t start = 0, end, len = b->len;
	bool in_quote = false;
	int ret;

	while (start < len && is_trim(b->text[start]))
		start++;
	while (len > start && is_trim(b->text[len - 1]))
		len--;
	if (!strncmp(b->text + start, "include=", 8)) {
		b->text[len] = '\0';
		ret = logical_close(r);
		return ret ? ret : do_include(r, b, start, line_idx);
	}
	for (end = start; end < len; end++) {
		if (b->text[end] == '"')
			in_quote = !in_quote;
		else if (!in_quote && b->text[end] == ' ')
			break;
	}
	if (end == start)
		return 0;
	ret = check_leftover(r, b, start, end, line_idx);
	if (!ret) {
		struct parm_line_buf part = {
			.text = b->text + start,
			.col = b->col + start,
			.len = end - start,
		};
		ret = logical_put(r, &part, line_idx);
	}
	if (ret)
		return ret;
	if (b->text[end - 1] == ',') {
		r->is_joining = true;
		return 0;
	}
	return logical_close(r);
}

static bool is_comment(const char *text)
{
	while (is_trim(*text))
		text++;
	return !*text || *text == '*' || *text == '#' || *text == '/';
}

static void listing_line(struct reader *r, const char *text)
{
	if (r->src->listing_f)
		fprintf(r->src->listing_f, "%s\n", text);
}

/* HD labels seen so far, for $host replication (reference §1.5). */
static int note_host_label(struct reader *r, const char *text)
{
	const char *p = text;
	size_t n;
	char **labels;

	while (is_trim(*p))
		p++;
	if (strncasecmp(p, "hd=", 3))
		return 0;
	p += 3;
	for (n = 0; p[n] && p[n] != ',' && p[n] != ' '; n++)
		;
	if (!n || (n == 7 && !strncasecmp(p, "default", 7)))
		return 0;
	labels = realloc(r->host_labels, (r->nr_host_labels + 1) * sizeof(*labels));
	if (!labels)
		return -ENOMEM;
	r->host_labels = labels;
	labels[r->nr_host_labels] = strndup(p, n);
	if (!labels[r->nr_host_labels])
		return -ENOMEM;
	r->nr_host_labels++;
	return 0;
}

static int process_one(struct reader *r, const char *text, size_t line_idx, const char *host,
		       int host_nr)
{
	struct parm_line_buf b = { 0 };
	bool did = false;
	int ret;

	ret = parm_subst_line(text, host, host_nr, r->in->vars, r->in->nr_vars, &b, &did);
	if (!ret && did && r->src->listing_f)
		fprintf(r->src->listing_f, "    variable substitution: %s\n", b.text ? b.text : "");
	if (!ret && b.len)
		ret = take_content(r, &b, line_idx);
	parm_line_buf_fini(&b);
	return ret;
}

/* Returns 1 when the line was "eof". */
static int process_line(struct reader *r, size_t line_idx)
{
	const char *text = r->src->lines[line_idx].text;
	const char *p = text;
	int ret;

	listing_line(r, text);
	if (is_comment(text))
		return 0;
	while (is_trim(*p))
		p++;
	if (!strncasecmp(p, "eof", 3))
		return 1;
	ret = note_host_label(r, text);
	if (ret)
		return ret;
	if (!parm_has_host_token(text))
		return process_one(r, text, line_idx, NULL, 0);
	if (!r->nr_host_labels)
		return process_one(r, text, line_idx, "localhost", 0);
	for (size_t h = 0; h < r->nr_host_labels; h++) {
		ret = process_one(r, text, line_idx, r->host_labels[h], (int)h);
		if (ret)
			return ret;
	}
	return 0;
}

static const char *source_keep_name(struct parm_source *src, const char *path)
{
	char **files = realloc(src->files, (src->nr_files + 1) * sizeof(*files));

	if (!files)
		return NULL;
	src->files = files;
	files[src->nr_files] = strdup(path);
	if (!files[src->nr_files])
		return NULL;
	return files[src->nr_files++];
}

/* parmfile.html's heading of a file: its absolute name as Java's getAbsolutePath() makes it
 * (the current directory, '/', the name as given: /w/./x.vdb), "include file" for an
 * include=, as VDbench 5.04.07 writes them. */
static void listing_header(struct reader *r, const char *file)
{
	char cwd[PATH_MAX];
	bool is_rel = r->is_file && file[0] != '/' && getcwd(cwd, sizeof(cwd));

	if (r->src->listing_f)
		fprintf(r->src->listing_f, "\n* Contents of %s file: %s%s%s\n\n",
			r->depth ? "include" : "parameter", is_rel ? cwd : "", is_rel ? "/" : "",
			file);
}

/* Splits text into physical lines and processes them in order. */
static int read_text(struct reader *r, const char *file, const char *text, size_t len)
{
	size_t pos = 0;
	uint32_t lineno = 0;

	listing_header(r, file);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		size_t idx;
		int ret;

		if (n && text[pos + n - 1] == '\r')
			n--;
		if (memchr(text + pos, '\0', n)) {
			/* VDbench refuses such a file; cutting the line there would drop its
			 * rest without a word */
			size_t at = strnlen(text + pos, n);
			struct parm_loc loc;

			ret = source_add_line(r->src, file, ++lineno, text + pos, at, &idx);
			if (ret < 0)
				return ret;
			loc = line_loc(r->src, idx, (uint32_t)at + 1);
			return parm_errf(r->err, &loc,
					 "a NUL byte in the line; expected text (a parameter file "
					 "is text: is this the right file?)");
		}
		ret = source_add_line(r->src, file, ++lineno, text + pos, n, &idx);
		/* VDbench refuses it too ("Unknown keyword: \ufeffsd"), naming an invisible
		 * character */
		if (!ret && pos == 0 && n >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
			struct parm_loc loc = line_loc(r->src, idx, 1);

			return parm_errf(
				r->err, &loc,
				"the file starts with a UTF-8 byte-order mark (BOM); expected "
				"plain text: save it without the BOM");
		}
		if (!ret)
			ret = process_line(r, idx);
		if (ret < 0)
			return ret;
		if (ret == 1)
			break;
		pos += (nl ? (size_t)(nl - (text + pos)) + 1 : len - pos);
	}
	return 0;
}

#define MAX_FILE_BYTES (64u << 20) /* a parameter file is text; this is a mistake */

/* Whole file in memory. Regular files and pipes only: include=/dev/zero would never end. */
int parm_file_read(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	int ret = 0;

	if (!f)
		return -errno;
	if (fstat(fileno(f), &st) || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)))
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	while (!ret) {
		size_t got;

		if (n + 4096 > cap) {
			char *b = cap < MAX_FILE_BYTES ? realloc(buf, cap ? cap * 2 : 65536) : NULL;

			if (!b) {
				ret = cap < MAX_FILE_BYTES ? -ENOMEM : -EFBIG;
				break;
			}
			buf = b;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (!ret && ferror(f))
		ret = -EIO;
	fclose(f);
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int read_file(struct reader *r, const char *path, const struct parm_loc *from)
{
	const char *name = source_keep_name(r->src, path);
	char *text = NULL;
	size_t len = 0;
	int ret;

	if (!name)
		return -ENOMEM;
	if (r->in->fileops)
		ret = r->in->fileops->read(r->in->fileops->ctx, path, &text, &len);
	else
		ret = parm_file_read(path, &text, &len);
	if (ret < 0) {
		const char *why = ret == -EINVAL ? "not a regular file" : strerror(-ret);

		if (from)
			parm_errf(r->err, from, "include=%s: cannot read: %s", path, why);
		else
			parm_errf(r->err, NULL, "%s: cannot read: %s", path, why);
		return ret == -EINVAL ? -EIO : ret;
	}
	r->is_file = true;
	ret = read_text(r, name, text, len);
	free(text);
	return ret;
}

static int check_unused(struct reader *r)
{
	for (size_t v = 0; v < r->in->nr_vars; v++) {
		const struct parm_var *var = &r->in->vars[v];

		if (var->is_used)
			continue;
		return parm_errf(r->err, NULL,
				 "unused parameter substitution: %s=%s; no $%s or !%s in the "
				 "parameter files (comment lines are not substituted)",
				 var->name, var->value, var->name, var->name);
	}
	return 0;
}

static void reader_fini(struct reader *r)
{
	free(r->cur.text);
	free(r->cur.line_idx);
	free(r->cur.col);
	for (size_t i = 0; i < r->nr_host_labels; i++)
		free(r->host_labels[i]);
	free(r->host_labels);
}

int parm_source_read(const struct parm_input *in, const char *name, const char *text, size_t len,
		     struct parm_source **out, struct parm_err *err)
{
	struct reader r = { .in = in, .err = err };
	int ret = 0;

	r.src = calloc(1, sizeof(*r.src));
	*out = r.src;
	if (!r.src)
		return -ENOMEM;
	r.src->listing_f = open_memstream(&r.src->listing, &r.src->listing_len);
	if (!r.src->listing_f)
		return -ENOMEM;
	for (size_t v = 0; v < in->nr_vars; v++)
		in->vars[v].is_used = false;
	if (text) {
		const char *kept = source_keep_name(r.src, name);

		ret = kept ? read_text(&r, kept, text, len) : -ENOMEM;
	}
	for (size_t i = 0; !ret && i < in->nr_files; i++)
		ret = read_file(&r, in->files[i], NULL);
	if (!ret)
		ret = logical_close(&r);
	fclose(r.src->listing_f);
	r.src->listing_f = NULL;
	if (!ret)
		ret = check_unused(&r);
	reader_fini(&r);
	if (ret == -ENOMEM)
		parm_errf(err, NULL, "out of memory reading the parameter files");
	return ret;
}

const char *parm_source_listing(const struct parm_source *src)
{
	return src && src->listing ? src->listing : "";
}

void parm_source_free(struct parm_source *src)
{
	if (!src)
		return;
	if (src->listing_f)
		fclose(src->listing_f);
	free(src->listing);
	for (size_t i = 0; i < src->nr_files; i++)
		free(src->files[i]);
	free(src->files);
	for (size_t i = 0; i < src->nr_lines; i++)
		free(src->lines[i].text);
	free(src->lines);
	for (size_t i = 0; i < src->nr_logicals; i++) {
		free(src->logicals[i].text);
		free(src->logicals[i].line_idx);
		free(src->logicals[i].col);
	}
	free(src->logicals);
	free(src);
}
