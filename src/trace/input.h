/* Buffered byte input shared by the trace readers: a gzip or plain file through zlib, or a
 * memory buffer, read in big chunks and handed out as lines (text formats) or exact byte
 * counts (binary formats). Memory stays at one buffer whatever the trace size. */
#ifndef IORAMP_TRACE_INPUT_H
#define IORAMP_TRACE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <zlib.h>

enum {
	TRACE_INPUT_BUF_BYTES = 1 << 20, /* also the longest line accepted */
};

struct trace_input {
	gzFile gz;		  /* NULL for a memory input */
	const unsigned char *mem; /* memory input */
	size_t mem_len;
	size_t cap; /* buffer size, not counting the byte kept for a final NUL */
	unsigned char *buf;
	size_t start, end;  /* unread bytes are buf[start, end) */
	uint64_t pos_bytes; /* stream offset of buf[start] (decompressed) */
	bool is_eof;	    /* the source has nothing more; buf may still hold bytes */
	bool is_truncated;  /* the end came inside a gzip stream (is_eof too): a cut file */
};

/* Opens path for reading (gzip is detected by zlib; plain files pass through) with a buffer
 * of buf_bytes (at most TRACE_INPUT_BUF_BYTES; also the longest line accepted). Returns 0 or
 * -errno (-ENOMEM included). */
int trace_input_open_file(struct trace_input *in, const char *path, size_t buf_bytes);

/* Reads from data[0, len), which must outlive the input. Returns 0 or -ENOMEM. */
int trace_input_open_mem(struct trace_input *in, const void *data, size_t len);

/* Next line without its '\n' (and '\r'), NUL-terminated in the buffer, valid until the next
 * call. Returns 1, 0 at the end (is_truncated tells a cut gzip file, its bytes before the cut
 * handed out), -E2BIG for a line longer than the buffer, -EIO. */
int trace_input_line(struct trace_input *in, char **line, size_t *len);

/* Makes up to want bytes readable without consuming them; *p points at them. Returns the
 * count available (less than want only at the end of the stream) or -EIO. */
int64_t trace_input_peek(struct trace_input *in, const unsigned char **p, size_t want);

/* Consumes n bytes (after a peek, or skipping a payload). Returns 0, or -ENODATA when the
 * stream ends first, or -EIO. */
int trace_input_skip(struct trace_input *in, uint64_t n);

/* Back to the first byte. Returns 0 or -EIO. */
int trace_input_rewind(struct trace_input *in);

/* Releases everything; accepts a zeroed or closed input. */
void trace_input_close(struct trace_input *in);

#endif /* IORAMP_TRACE_INPUT_H */
