/* Numbers as VDbench's Java prints them. Java's Formatter rounds the shortest decimal string
 * that identifies a double half-up, so it differs from C's printf (which rounds the exact
 * binary value half-even) whenever that string ends in 5 at the rounding position:
 * %.2f of 0.125 is "0.13" in Java and "0.12" in C, of 1.005 "1.01" and "1.00". */
#include "vdbtext.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	DIGITS_MAX = 400, /* 309 integer digits of DBL_MAX plus any precision we print */
};

/* The shortest digits that read back as x (x finite, > 0): digits[] without a point, *nr of
 * them, *pos the count of digits before the decimal point (may be <= 0 or > *nr). */
static void shortest_digits(double x, char *digits, int *nr, int *pos)
{
	char tmp[40];
	char *e;
	int n = 0;

	for (int p = 1; p <= 17; p++) {
		snprintf(tmp, sizeof(tmp), "%.*e", p - 1, x);
		if (strtod(tmp, NULL) == x)
			break;
	}
	for (const char *c = tmp; *c && *c != 'e'; c++)
		if (*c >= '0' && *c <= '9')
			digits[n++] = *c;
	e = strchr(tmp, 'e');
	*pos = (int)strtol(e + 1, NULL, 10) + 1;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	*nr = n;
}

/* Keeps the first keep digits (keep < nr), rounding half-up on digits[keep]. Returns 1 when
 * the carry ran out of the top (digits now "1000..." one longer), else 0. */
static int round_half_up(char *digits, int keep)
{
	if (digits[keep] < '5')
		return 0;
	for (int i = keep - 1; i >= 0; i--) {
		if (digits[i] < '9') {
			digits[i]++;
			return 0;
		}
		digits[i] = '0';
	}
	memmove(digits + 1, digits, (size_t)keep);
	digits[0] = '1';
	return 1;
}

/* printf's %.<prec>f of x (> 0) into out when it is Java's text, the common case, for about
 * a tenth of the exact search's cost (the reports print hundreds of numbers an interval). When
 * x's ulp is under a unit of decimal prec + 1, at most one decimal of prec + 1 places reads back
 * as x, so the shortest form of x ends in a 5 there (the one case where the two roundings
 * differ) only if printf's prec + 1 places do too; and with no such midpoint within half an ulp,
 * the shortest form and x round alike. Returns false where that does not hold: the exact search
 * decides. */
static bool fixed_fast(double x, int prec, char *out, size_t len)
{
	char tmp[64]; /* tmp[0]: room for a carry out of the top digit */
	bool is_carry;
	int n;

	if (!(x > 0) || x >= 0x1p53 || prec > 17 ||
	    !(ldexp(1.0, ilogb(x) - 52) < pow(10.0, -(prec + 1))))
		return false;
	n = snprintf(tmp + 1, sizeof(tmp) - 1, "%.*f", prec + 1, x);
	if (n <= 0 || (size_t)n >= sizeof(tmp) - 1 || tmp[n] == '5')
		return false;
	/* printf's prec places: the last one dropped and rounded in, a carry running left over
	 * the point (a 5 there is no midpoint of x: its rounding and x's agree) */
	is_carry = tmp[n] > '5';
	tmp[n--] = '\0';
	if (tmp[n] == '.')
		tmp[n--] = '\0';
	tmp[0] = '0';
	for (int i = n; is_carry && i >= 0; i--) {
		if (tmp[i] == '.')
			continue;
		is_carry = tmp[i] == '9';
		tmp[i] = is_carry ? '0' : (char)(tmp[i] + 1);
	}
	snprintf(out, len, "%s", tmp[0] == '1' ? tmp : tmp + 1);
	return true;
}

/* The fixed-point text of |x| with prec decimals into out (DIGITS_MAX + prec + 3 bytes) by the
 * shortest form's digits. */
static void fixed_exact(double x, int prec, char *out)
{
	char d[DIGITS_MAX + 2] = { 0 };
	int nr = 0, pos = 1, keep, o = 0;

	if (x != 0)
		shortest_digits(x, d, &nr, &pos);
	else
		d[0] = '0', nr = 1;
	keep = pos + prec;
	if (keep < 0) {
		nr = 0;
	} else if (keep < nr) {
		pos += round_half_up(d, keep);
		nr = pos + prec; /* a carry out of d[0] leaves "1" one place higher */
	}
	/* Integer part, then prec fraction digits; missing digits are zeros. */
	for (int i = 0; i < (pos > 0 ? pos : 1); i++)
		out[o++] = (pos > 0 && i < nr) ? d[i] : '0';
	if (prec > 0)
		out[o++] = '.';
	for (int i = 0; i < prec; i++) {
		int idx = pos + i;

		out[o++] = (idx >= 0 && idx < nr) ? d[idx] : '0';
	}
	out[o] = '\0';
}

/* The text of |x| (finite) with prec decimals (at most 40) into out (DIGITS_MAX + 64 bytes). */
static void fixed_text(double x, int prec, char *out, bool is_exact)
{
	if (is_exact || !fixed_fast(x, prec, out, DIGITS_MAX + 63))
		fixed_exact(x, prec, out);
}

static char *jfmt(char *buf, size_t len, int width, int prec, double x, bool is_exact)
{
	char text[DIGITS_MAX + 64];

	if (prec < 0)
		prec = 0;
	if (prec > 40)
		prec = 40;
	if (isnan(x)) {
		snprintf(text, sizeof(text), "NaN");
	} else if (isinf(x)) {
		snprintf(text, sizeof(text), "%sInfinity", x < 0 ? "-" : "");
	} else {
		text[0] = '-';
		fixed_text(fabs(x), prec, text + (signbit(x) ? 1 : 0), is_exact);
	}
	snprintf(buf, len, "%*s", width, text);
	return buf;
}

char *rep_jfmt(char *buf, size_t len, int width, int prec, double x)
{
	return jfmt(buf, len, width, prec, x, false);
}

char *rep_jfmt_exact(char *buf, size_t len, int width, int prec, double x)
{
	return jfmt(buf, len, width, prec, x, true);
}

char *rep_jflat(char *buf, size_t len, double x)
{
	return rep_jflat_prec(buf, len, 4, x);
}

char *rep_jflat_prec(char *buf, size_t len, int prec, double x)
{
	char *dot, *end;

	rep_jfmt(buf, len, 0, prec, x);
	dot = strchr(buf, '.');
	if (!dot)
		return buf;
	end = buf + strlen(buf) - 1;
	while (end > dot && *end == '0')
		*end-- = '\0';
	if (end == dot)
		*end = '\0';
	return buf;
}

char *rep_jgroup(char *buf, size_t len, uint64_t n)
{
	char digits[24], out[32];
	int nr = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)n), o = 0;

	for (int i = 0; i < nr; i++) {
		if (i && (nr - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	snprintf(buf, len, "%s", out);
	return buf;
}
