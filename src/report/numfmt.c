/* Numbers for people, shared by the console block, curves.csv and report.html: thousands
 * separators, latencies with a precision that suits their size, k/M suffixes for axes. No
 * locale: output is the same everywhere. */
#include "doc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *rep_fmt_group(double v, int decimals, char *buf, size_t len)
{
	char digits[64], *dot;
	size_t nr_int, o = 0, start;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	snprintf(digits, sizeof(digits), "%.*f", decimals, v);
	start = digits[0] == '-';
	dot = strchr(digits, '.');
	nr_int = (dot ? (size_t)(dot - digits) : strlen(digits)) - start;
	for (size_t i = 0; digits[i] && o + 2 < len; i++) {
		size_t pos = i - start; /* position among the integer digits */

		if (i > start && pos < nr_int && (nr_int - pos) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

const char *rep_fmt_ctl_size(uint64_t b, char *buf, size_t len)
{
	static const char units[] = "kmgt";
	int u = -1;
	double v = (double)b;

	while (u < 3 && v >= 1024) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)b);
	else if (b % (1ull << (10 * (u + 1))) == 0)
		snprintf(buf, len, "%.0f%c", v, units[u]);
	else
		snprintf(buf, len, "%.3f%c", v, units[u]);
	return buf;
}

const char *rep_fmt_lat_us(double us, char *buf, size_t len)
{
	int decimals = us < 10 ? 2 : us < 1000 ? 1 : 0;

	return rep_fmt_group(us, decimals, buf, len);
}

const char *rep_fmt_si(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (a >= 1e9)
		snprintf(buf, len, "%gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (a >= 1e3)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
	return buf;
}
