/* libFuzzer target for the trace readers: the first byte picks the format (auto-detection
 * or one format, text or binary) and the action, the rest is the trace, read from memory
 * to the end while the statistics take every record. Any crash, sanitizer report or leak
 * is a bug: malformed input must only ever give -errno. */
#include <stddef.h>
#include <stdint.h>

#include "ioramp/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_opts opts = { 0 };
	struct trace_reader *r;
	struct trace_stat *s;
	struct trace_err err;
	struct trace_figs f;
	struct trace_rec rec;
	int nr = 0;

	if (size < 1)
		return 0;
	opts.format = (enum trace_format)(data[0] % TRACE_FMT_NR);
	opts.action = (enum trace_action)((data[0] >> 4) % TRACE_ACT_NR);
	opts.skip_bad = data[0] & 0x80;
	if (trace_reader_open_mem(&r, "fuzz", data + 1, size - 1, &opts, &err) < 0)
		return 0;
	if (trace_stat_new(&s, NULL) < 0) {
		trace_reader_close(r);
		return 0;
	}
	while (nr++ < 100000 && trace_reader_next(r, &rec) == 1)
		trace_stat_add(s, &rec);
	for (size_t i = 0; i < trace_stat_nr_devs(s) && i < 4; i++)
		trace_stat_figs(s, i, &f);
	trace_stat_figs(s, SIZE_MAX, &f);
	trace_stat_free(s);
	trace_reader_close(r);
	return 0;
}
