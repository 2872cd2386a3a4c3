/* Field scanning for the text trace readers; see scan.h. */
#include "scan.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int trace_scan_u64(const char **pp, uint64_t *out)
{
	const char *p = trace_scan_blanks(*pp);
	uint64_t v = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*out = v;
	*pp = p;
	return 0;
}

int trace_scan_u32(const char **pp, uint32_t *out)
{
	const char *p = *pp;
	uint64_t v;

	if (trace_scan_u64(&p, &v) < 0 || v > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	*pp = p;
	return 0;
}

/* The rare "1.5e-3" spelling: strtod over the whole number. */
static int scan_exp_ns(const char **pp, uint64_t unit_ns, uint64_t *out_ns)
{
	const char *p = trace_scan_blanks(*pp);
	char *end;
	double v = strtod(p, &end);

	if (end == p || !isfinite(v) || v < 0)
		return -EINVAL;
	v *= (double)unit_ns;
	if (v >= 18446744073709551615.0)
		return -EINVAL;
	*out_ns = (uint64_t)v;
	*pp = end;
	return 0;
}

int trace_scan_dec_ns(const char **pp, uint64_t unit_ns, uint64_t *out_ns)
{
	const char *p = trace_scan_blanks(*pp);
	uint64_t ip = 0, ns, step = unit_ns;
	bool has_digit = *p >= '0' && *p <= '9';

	if (has_digit && trace_scan_u64(&p, &ip) < 0)
		return -EINVAL;
	if (ip > UINT64_MAX / unit_ns)
		return -EINVAL;
	ns = ip * unit_ns;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			has_digit = true;
			step /= 10; /* exact for power-of-ten units; 0 once below 1 ns */
			ns += (uint64_t)(*p - '0') * step;
		}
	}
	if (!has_digit)
		return -EINVAL;
	if (*p == 'e' || *p == 'E')
		return scan_exp_ns(pp, unit_ns, out_ns);
	if (ns < ip * unit_ns) /* the fraction carried past 2^64 */
		return -EINVAL;
	*out_ns = ns;
	*pp = p;
	return 0;
}

int trace_scan_sep(const char **pp, char sep)
{
	const char *p = trace_scan_blanks(*pp);

	if (*p != sep)
		return -EINVAL;
	*pp = trace_scan_blanks(p + 1);
	return 0;
}

const char *trace_scan_word(const char **pp, char sep, size_t *len)
{
	const char *p = trace_scan_blanks(*pp);
	const char *start = p;

	while (*p && *p != ' ' && *p != '\t' && (!sep || *p != sep))
		p++;
	*len = (size_t)(p - start);
	*pp = p;
	return start;
}

int trace_scan_last_words(const char *line, int n, const char **w, size_t *len)
{
	const char *p = line + strlen(line);
	int k = 0;

	while (k < n) {
		const char *end;

		while (p > line && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\r'))
			p--;
		if (p == line)
			break;
		end = p;
		while (p > line && p[-1] != ' ' && p[-1] != '\t')
			p--;
		w[n - 1 - k] = p;
		len[n - 1 - k] = (size_t)(end - p);
		k++;
	}
	if (k < n) { /* shift what was found to the front */
		memmove(w, w + n - k, (size_t)k * sizeof(*w));
		memmove(len, len + n - k, (size_t)k * sizeof(*len));
	}
	return k;
}

bool trace_scan_is_end(const char *p)
{
	return *trace_scan_blanks(p) == '\0';
}

bool trace_scan_word_is(const char *word, size_t len, const char *lit)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char a = word[i], b = lit[i];

		if (b == '\0')
			return false;
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return false;
	}
	return lit[len] == '\0';
}
