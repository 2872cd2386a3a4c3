/* "Did you mean": the closest of a set of names to a mistyped word, shared by the keyword,
 * subcommand and library-profile errors. Optimal string alignment distance (a swap of two
 * neighbours counts one, so thraeds is one from threads), case-insensitive. */
#include "ioramp/parm.h"

#include <ctype.h>
#include <string.h>

enum {
	SUGGEST_MAX_LEN = 64
};

size_t parm_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return la > lb ? la : lb; /* no name is that long: as far as can be */
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			size_t best = d[i - 1][j - 1] + (ca != cb);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *parm_suggest(const char *word, const char *const *names, size_t nr)
{
	size_t len = strlen(word), limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	const char *best = NULL;
	size_t best_d = limit + 1;

	for (size_t i = 0; i < nr; i++) {
		size_t d;

		if (!names[i] || !strcasecmp(word, names[i]))
			continue;
		d = parm_edit_distance(word, names[i]);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	return best;
}
