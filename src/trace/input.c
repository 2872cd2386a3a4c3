/* Buffered byte input for the trace readers: zlib's gzread over files (plain or gzip) or a
 * copy of a memory buffer, one big buffer compacted as it is consumed. */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t input_cap(const struct trace_input *in)
{
	return in->cap;
}

int trace_input_open_file(struct trace_input *in, const char *path, size_t buf_bytes)
{
	struct stat st;
	int fd;

	memset(in, 0, sizeof(*in));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	in->cap = buf_bytes < TRACE_INPUT_BUF_BYTES ? buf_bytes : TRACE_INPUT_BUF_BYTES;
	in->buf = malloc(in->cap + 1); /* + 1: room for a final line's NUL */
	if (!in->buf) {
		close(fd);
		return -ENOMEM;
	}
	in->gz = gzdopen(fd, "rb");
	if (!in->gz) {
		close(fd);
		free(in->buf);
		in->buf = NULL;
		return -ENOMEM;
	}
	gzbuffer(in->gz, 256 * 1024);
	return 0;
}

int trace_input_open_mem(struct trace_input *in, const void *data, size_t len)
{
	memset(in, 0, sizeof(*in));
	in->mem = data;
	in->mem_len = len;
	in->cap = len;
	in->buf = malloc(len + 1);
	if (!in->buf)
		return -ENOMEM;
	return trace_input_rewind(in);
}

/* Moves the unread bytes to the front and reads more behind them. Returns the count read
 * (0 at the end of the source) or -EIO. */
static int input_fill(struct trace_input *in)
{
	size_t room;
	int n;

	if (in->start) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->start = 0;
	}
	room = input_cap(in) - in->end;
	if (in->is_eof || !room)
		return 0; /* a memory input is all in the buffer from the start */
	n = gzread(in->gz, in->buf + in->end, (unsigned int)room);
	if (n <= 0) {
		int errnum;

		/* zlib ends a cut gzip stream as if it were complete, or fails, with Z_BUF_ERROR:
		 * the end, flagged, so that the reader can tell it from the real one */
		gzerror(in->gz, &errnum);
		if (errnum == Z_BUF_ERROR) {
			in->is_truncated = true;
			in->is_eof = true;
			return 0;
		}
		if (n < 0)
			return -EIO;
		in->is_eof = true;
	}
	in->end += (size_t)n;
	return n;
}

static void input_take_line(struct trace_input *in, size_t nl, char **line, size_t *len)
{
	size_t n = nl - in->start;
	char *s = (char *)in->buf + in->start;

	in->buf[nl] = '\0';
	if (n && s[n - 1] == '\r')
		s[--n] = '\0';
	*line = s;
	*len = n;
}

int trace_input_line(struct trace_input *in, char **line, size_t *len)
{
	size_t scanned = 0;

	for (;;) {
		size_t avail = in->end - in->start;
		unsigned char *nl = memchr(in->buf + in->start + scanned, '\n', avail - scanned);
		int ret;

		if (nl) {
			size_t at = (size_t)(nl - in->buf);

			input_take_line(in, at, line, len);
			in->pos_bytes += at + 1 - in->start;
			in->start = at + 1;
			return 1;
		}
		scanned = avail;
		if (in->is_eof && in->start == in->end)
			return 0;
		if (in->is_eof && in->is_truncated) { /* a line cut by the end of a cut file */
			in->start = in->end;
			return 0;
		}
		if (in->is_eof) { /* a last line without '\n' */
			size_t at = in->end;

			input_take_line(in, at, line, len);
			in->pos_bytes += at - in->start;
			in->start = in->end;
			return 1;
		}
		if (in->start == 0 && in->end == input_cap(in))
			return -E2BIG;
		ret = input_fill(in);
		if (ret < 0)
			return ret;
	}
}

int64_t trace_input_peek(struct trace_input *in, const unsigned char **p, size_t want)
{
	if (want > input_cap(in))
		want = input_cap(in);
	while (in->end - in->start < want && !in->is_eof) {
		int ret = input_fill(in);

		if (ret < 0)
			return ret;
	}
	*p = in->buf + in->start;
	return (int64_t)(in->end - in->start < want ? in->end - in->start : want);
}

int trace_input_skip(struct trace_input *in, uint64_t n)
{
	while (n) {
		size_t avail = in->end - in->start;
		size_t take = n < avail ? (size_t)n : avail;
		int ret;

		in->start += take;
		in->pos_bytes += take;
		n -= take;
		if (!n)
			break;
		ret = input_fill(in);
		if (ret < 0)
			return ret;
		if (ret == 0 && in->start == in->end)
			return -ENODATA;
	}
	return 0;
}

int trace_input_rewind(struct trace_input *in)
{
	in->start = in->end = 0;
	in->pos_bytes = 0;
	in->is_eof = false;
	in->is_truncated = false;
	if (in->gz)
		return gzrewind(in->gz) < 0 ? -EIO : 0;
	/* Lines were NUL-terminated in place: copy the source again. */
	if (in->mem_len)
		memcpy(in->buf, in->mem, in->mem_len);
	in->end = in->mem_len;
	in->is_eof = true;
	return 0;
}

void trace_input_close(struct trace_input *in)
{
	if (in->gz)
		gzclose(in->gz);
	free(in->buf);
	memset(in, 0, sizeof(*in));
}
