/* pattern=/file (VDbench 5.04.07 guide 1.10.4, observed): every write carries the file's data
 * from its first byte on, repeated, with no stamp. VDbench reads the file as 4-byte integers
 * and writes them in the machine's order: "ABCD" lands as "DCBA" on x86, and a tail shorter
 * than 4 bytes (a newline) is dropped (38 bytes written as 36). */
#include "exec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PATTERN_MAX_BYTES = 16 << 20 };

static void swap_words(char *buf, size_t len)
{
	for (size_t i = 0; i + 4 <= len; i += 4) {
		char a = buf[i], b = buf[i + 1];

		buf[i] = buf[i + 3];
		buf[i + 1] = buf[i + 2];
		buf[i + 2] = b;
		buf[i + 3] = a;
	}
}

int eng_pattern_load(const struct parm_config *cfg, char **out, size_t *out_len,
		     struct parm_err *err)
{
	const struct parm_val *v = cfg->general.set.val[PARM_KW_PATTERN];
	FILE *f;
	char *buf;
	size_t len;

	*out = NULL;
	*out_len = 0;
	if (!v)
		return 0;
	f = fopen(v->text, "rb");
	if (!f)
		return parm_errf(err, &v->loc, "pattern=%s: %s; expected a readable file", v->text,
				 strerror(errno));
	buf = malloc(PATTERN_MAX_BYTES);
	len = buf ? fread(buf, 1, PATTERN_MAX_BYTES, f) : 0;
	fclose(f);
	if (!buf)
		return parm_errf(err, &v->loc, "out of memory reading pattern=%s", v->text);
	len -= len % 4;
	if (!len) {
		free(buf);
		return parm_errf(err, &v->loc,
				 "pattern=%s holds less than 4 bytes; expected a file of at least 4 "
				 "bytes (VDbench uses it 4 bytes at a time)",
				 v->text);
	}
	swap_words(buf, len);
	*out = buf;
	*out_len = len;
	return 0;
}

void eng_pattern_fill(void *dst, size_t bytes, const char *pat, size_t len)
{
	char *d = dst;

	for (size_t at = 0; at < bytes; at += len)
		memcpy(d + at, pat, bytes - at < len ? bytes - at : len);
}
