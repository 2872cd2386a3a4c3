/* libFuzzer target for trace profile: the first byte picks the format and the action as for
 * fuzz_trace, the second the most WDs a device may have; the rest is the trace, written to a
 * memory file and profiled (its three passes, the streams, the model, the parameter text).
 * Any crash, sanitizer report or leak is a bug: malformed input must only ever give -errno. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ioramp/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_opts opts = { 0 };
	struct trace_err err;
	char path[64];
	const char *paths[] = { path };
	struct trace_profile_cfg cfg = { .paths = paths, .nr_paths = 1, .opts = &opts };
	FILE *out;
	int fd;

	if (size < 2)
		return 0;
	opts.format = (enum trace_format)(data[0] % TRACE_FMT_NR);
	opts.action = (enum trace_action)((data[0] >> 4) % TRACE_ACT_NR);
	opts.skip_bad = data[0] & 0x80;
	cfg.max_wds = data[1] % 80;
	fd = memfd_create("fuzz_profile", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data + 2, size - 2) == (ssize_t)(size - 2)) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		out = fopen("/dev/null", "w");
		if (out) {
			trace_profile_write(&cfg, out, &err);
			fclose(out);
		}
	}
	close(fd);
	return 0;
}
