/* Hand-written field scanning for the text trace readers: unsigned integers, decimal
 * numbers in a power-of-ten unit turned into integer nanoseconds, separators and words.
 * No sscanf and no locale: these run once or more per line of multi-gigabyte traces. */
#ifndef IORAMP_TRACE_SCAN_H
#define IORAMP_TRACE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Skips spaces and tabs. */
static inline const char *trace_scan_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* After blanks, reads decimal digits into *out and advances *pp past them. Returns 0, or
 * -EINVAL when there is no digit or the value overflows (nothing consumed then). */
int trace_scan_u64(const char **pp, uint64_t *out);

/* Same, limited to 32 bits. */
int trace_scan_u32(const char **pp, uint32_t *out);

/* After blanks, reads a non-negative decimal number ("12", "0.000184", "1.5e-3") expressed
 * in units of unit_ns (a power of ten: 1000000000 for seconds, 100 for FILETIME ticks) and
 * stores it in integer nanoseconds, truncating below 1 ns. Returns 0 or -EINVAL. */
int trace_scan_dec_ns(const char **pp, uint64_t unit_ns, uint64_t *out_ns);

/* After blanks, expects sep and the blanks after it. Returns 0 or -EINVAL. */
int trace_scan_sep(const char **pp, char sep);

/* After blanks, the next word: up to a blank, sep (if not 0) or the end. Returns its start
 * with *len set (0 at the end of the line) and advances *pp past it, not past sep. */
const char *trace_scan_word(const char **pp, char sep, size_t *len);

/* The line's last n words, their starts in w and lengths in len, in order (the last one in
 * w[n - 1]); returns how many it has, up to n (then in w[0..]). */
int trace_scan_last_words(const char *line, int n, const char **w, size_t *len);

/* True when only blanks remain. */
bool trace_scan_is_end(const char *p);

/* True when word[0, len) equals lit, ignoring ASCII case. */
bool trace_scan_word_is(const char *word, size_t len, const char *lit);

#endif /* IORAMP_TRACE_SCAN_H */
