/* Trace format detection from content: binary magic first, then the first lines of text,
 * where every text format scores the lines it recognises and the best score wins. */
#include "reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	DETECT_BYTES = 64 * 1024,
	DETECT_LINES = 200,
};

static const struct trace_fmt *detect_binary(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < trace_nr_fmts; i++)
		if (trace_fmts[i]->probe_bin && trace_fmts[i]->probe_bin(p, n))
			return trace_fmts[i];
	return NULL;
}

/* Scores every text format on the lines of text (NUL-terminated, modified in place). */
static const struct trace_fmt *detect_text(char *text)
{
	unsigned int score[32] = { 0 }, nr_lines = 0, best = 0;
	const struct trace_fmt *winner = NULL;
	char *line = text;

	while (line && *line && nr_lines < DETECT_LINES) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (nl && nl > line && nl[-1] == '\r') /* CRLF lines probe as LF ones */
			nl[-1] = '\0';
		for (size_t i = 0; i < trace_nr_fmts && i < IORAMP_ARRAY_SIZE(score); i++) {
			const struct trace_fmt *f = trace_fmts[i];

			if (!f->probe_line || !f->probe_line(line))
				continue;
			/* an iolog says what it is on its first line, and only there */
			if (nr_lines == 0 && (f == &trace_fmt_fio2 || f == &trace_fmt_fio3))
				return f;
			score[i]++;
		}
		nr_lines++;
		line = nl ? nl + 1 : NULL;
	}
	for (size_t i = 0; i < trace_nr_fmts && i < IORAMP_ARRAY_SIZE(score); i++) {
		if (score[i] > best) {
			best = score[i];
			winner = trace_fmts[i];
		}
	}
	return winner;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Integer arrival times are MQSim nanoseconds unless the median gap between the first
 * records' times is under 100: 100 ns apart would be 10 million I/Os per second, so such
 * times are DiskSim's whole milliseconds. text holds the NUL-separated lines of
 * detect_text(), len bytes. */
static const struct trace_fmt *mqsim_or_disksim(const char *text, size_t len)
{
	uint64_t t[DETECT_LINES], gaps[DETECT_LINES];
	size_t n = 0, nr_gaps = 0;

	for (const char *line = text; line < text + len && n < DETECT_LINES;
	     line += strlen(line) + 1) {
		char *end;
		unsigned long long v = strtoull(line, &end, 10);

		if (end != line && (*end == ' ' || *end == '\t'))
			t[n++] = v;
	}
	for (size_t i = 1; i < n; i++)
		if (t[i] >= t[i - 1])
			gaps[nr_gaps++] = t[i] - t[i - 1];
	if (!nr_gaps)
		return &trace_fmt_mqsim;
	qsort(gaps, nr_gaps, sizeof(*gaps), cmp_u64);
	return gaps[nr_gaps / 2] < 100 ? &trace_fmt_disksim : &trace_fmt_mqsim;
}

const struct trace_fmt *trace_detect(struct trace_input *in, struct trace_err *err)
{
	const struct trace_fmt *f;
	const unsigned char *p;
	int64_t n = trace_input_peek(in, &p, DETECT_BYTES);
	char *text;

	if (n < 0) {
		snprintf(err->msg, sizeof(err->msg),
			 "read error (truncated or corrupt gzip data?)");
		return NULL;
	}
	if (n == 0 && in->is_truncated) { /* a gzip file cut before its first byte of data */
		snprintf(err->msg, sizeof(err->msg),
			 "the file ends inside its gzip data (truncated) before any data; expected "
			 "a whole gzip file");
		return NULL;
	}
	if (n == 0) {
		snprintf(err->msg, sizeof(err->msg), "empty trace; cannot detect its format");
		return NULL;
	}
	f = detect_binary(p, (size_t)n);
	if (f)
		return f;
	text = malloc((size_t)n + 1);
	if (!text) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	memcpy(text, p, (size_t)n);
	text[n] = '\0';
	if (n == DETECT_BYTES && memrchr(text, '\n', (size_t)n)) /* drop a cut last line */
		*(char *)memrchr(text, '\n', (size_t)n) = '\0';
	f = memchr(p, '\0', (size_t)n) ? NULL : detect_text(text);
	if (f == &trace_fmt_mqsim)
		f = mqsim_or_disksim(text, (size_t)n);
	free(text);
	if (!f)
		snprintf(err->msg, sizeof(err->msg),
			 "unknown trace format; use --format with one of: %s",
			 trace_format_names());
	return f;
}
