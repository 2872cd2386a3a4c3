/* libFuzzer target for reading another tool's results (ioramp report and compare of a VDbench
 * output directory): bytes as a flatfile.html, read into a results document with its runs,
 * for-loops, curves and IOPS at latency. Malformed text must give -EINVAL, never a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ioramp/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	char err[512];
	json_t *doc = NULL;
	FILE *f;

	if (size > 1 << 20)
		return 0;
	if (!path[0]) {
		int fd;

		snprintf(path, sizeof(path), "/tmp/ioramp-fuzz-flatdoc-XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
	}
	f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	if (rep_doc_load_flat(path, &doc, err, sizeof(err)) == 0)
		json_decref(doc);
	return 0;
}
