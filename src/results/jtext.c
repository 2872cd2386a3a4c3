/* Text from the user or from the data (names, paths, command lines, headers read back from a
 * device) as a JSON string. jansson refuses bytes that are not UTF-8, and one refused string
 * used to cost the whole document; here every byte that does not start a valid UTF-8 sequence
 * becomes U+FFFD, so the document is always written and shows where the name was not text. */
#include "parts.h"

#include <stdlib.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0 when none starts there:
 * no overlong forms, no surrogates, nothing past U+10FFFF, no NUL. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned int cp, min;

	if (s[0] == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, cp = s[0] & 0x1f, min = 0x80;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, cp = s[0] & 0x0f, min = 0x800;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, cp = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

json_t *rep_json_textn(const char *text, size_t n)
{
	static const char bad[] = "\xef\xbf\xbd"; /* U+FFFD */
	const unsigned char *s = (const unsigned char *)text;
	char *out;
	size_t o = 0;
	json_t *j;

	if (!text)
		return json_string("");
	out = malloc(3 * n + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(s + i, n - i);

		if (len) {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
		} else {
			memcpy(out + o, bad, 3);
			o += 3;
			i++;
		}
	}
	j = json_stringn(out, o);
	free(out);
	return j;
}

json_t *rep_json_text(const char *text)
{
	return rep_json_textn(text, text ? strlen(text) : 0);
}
