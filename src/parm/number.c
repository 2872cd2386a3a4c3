/* Numbers as VDbench 5.04.07 reads them (tests/parm/FINDINGS.md §5): decimals with an optional
 * sign and exponent, k/m/g/t (kb/mb/gb/tb) suffixes, h for hours on any number, m for minutes on
 * time values, a trailing % for a percentage. No hex, no s suffix, no inf or nan. */
#include "ioramp/parm.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double suffix_scale(char s, enum parm_unit unit)
{
	switch (tolower((unsigned char)s)) {
	case 'k':
		return 1024.0;
	case 'm':
		return unit == PARM_UNIT_TIME ? 60.0 : 1024.0 * 1024;
	case 'g':
		return 1024.0 * 1024 * 1024;
	case 't':
		return 1024.0 * 1024 * 1024 * 1024;
	case 'h':
		return 3600.0;
	default:
		return 0.0;
	}
}

/* Length of the decimal part: [+-]digits[.digits][e[+-]digits], at least one digit. */
static size_t decimal_len(const char *s)
{
	size_t i = 0, digits = 0;

	if (s[i] == '+' || s[i] == '-')
		i++;
	for (; isdigit((unsigned char)s[i]); i++)
		digits++;
	if (s[i] == '.')
		for (i++; isdigit((unsigned char)s[i]); i++)
			digits++;
	if (!digits)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t e = i + 1;

		if (s[e] == '+' || s[e] == '-')
			e++;
		if (isdigit((unsigned char)s[e])) {
			while (isdigit((unsigned char)s[e]))
				e++;
			i = e;
		}
	}
	return i;
}

int parm_num_parse(const char *text, enum parm_unit unit, struct parm_num *out)
{
	size_t n = text ? decimal_len(text) : 0;
	const char *end;
	double v, scale = 1.0;

	if (!n || n > 64)
		return -EINVAL;
	v = strtod(text, NULL);
	end = text + n;
	out->is_pct = false;
	if (*end && *end != '%') {
		scale = suffix_scale(*end, unit);
		if (scale == 0.0)
			return -EINVAL;
		if (tolower((unsigned char)*end++) != 'h' && tolower((unsigned char)*end) == 'b')
			end++; /* kb, mb, gb, tb */
	}
	if (*end == '%') {
		out->is_pct = true;
		end++;
	}
	if (*end)
		return -EINVAL;
	out->value = v * scale;
	return isfinite(out->value) ? 0 : -EINVAL;
}

bool parm_num_looks_numeric(const char *text)
{
	return text && decimal_len(text) > 0;
}
