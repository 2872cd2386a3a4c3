/* For-loop values: applying one to a run's overrides, and the "For loops:" text VDbench prints
 * (tests/parm/FINDINGS.md §1.2): one formatter for every loop but iorate, sizes in k/m/g/t/p with
 * Java's half-up rounding of the shortest decimal, negative values as N%, compression as comp=. */
#include "plan_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENGINE_THREADS 1000000.0

/* Loop values the engine can use; plan_check_runnable() refuses the others before a run. */
static uint64_t engine_bytes(double v)
{
	return v > 0 ? (uint64_t)fmin(v, 9e18) : 0;
}

void plan_loop_apply(struct plan_overrides *ovr, const struct parm_loop *lp, size_t i)
{
	double v = parm_num_signed(&lp->vals[i]);

	switch (lp->kw) {
	case PARM_KW_FORXFERSIZE:
		ovr->has_xfersize = true;
		ovr->xfersize_bytes = engine_bytes(v);
		break;
	case PARM_KW_FORTHREADS: /* VDbench raises a count below 1 to 1 ([073], [229]) */
		ovr->has_threads = true;
		ovr->threads = v >= 1 ? (uint32_t)fmin(v, MAX_ENGINE_THREADS) : 1;
		ovr->is_threads_raised = v >= 0 && v < 1; /* no notice for a negative one [074] */
		break;
	case PARM_KW_FORRDPCT:
		ovr->has_rdpct = true;
		ovr->rdpct = v;
		break;
	case PARM_KW_FORRHPCT:
		ovr->has_rhpct = true;
		ovr->rhpct = v;
		break;
	case PARM_KW_FORWHPCT:
		ovr->has_whpct = true;
		ovr->whpct = v;
		break;
	case PARM_KW_FORSEEKPCT:
		ovr->has_seekpct = true;
		ovr->seekpct = v;
		break;
	case PARM_KW_FORHITAREA:
		ovr->has_hitarea = true;
		ovr->hitarea_bytes = engine_bytes(v);
		break;
	case PARM_KW_FORCOMPRATIO:
	case PARM_KW_FORCOMPRESSION: /* already the ratio 100/pct */
		ovr->has_compratio = true;
		ovr->compratio = v;
		break;
	default:
		break;
	}
}

/* x (>= 1) with three decimals as Java's %.3f prints it: the shortest decimal that reads back
 * as x, rounded half-up ("1.0005" -> "1.001" where C prints 1.000), ".000" dropped. */
static void java_3f(double x, char *buf, size_t len)
{
	char sci[40], digits[40];
	int exp10, k, nr = 0;
	long long n = 0;

	if (x >= 1e12) {
		snprintf(buf, len, "%.3f", x);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(sci, sizeof(sci), "%.*e", prec - 1, x);
		if (strtod(sci, NULL) == x)
			break;
	}
	for (const char *p = sci; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			digits[nr++] = *p;
	exp10 = atoi(strchr(sci, 'e') + 1);
	k = exp10 + 1 + 3; /* digits up to the third decimal */
	for (int i = 0; i < k; i++)
		n = n * 10 + (i < nr ? digits[i] - '0' : 0);
	if (k < nr && digits[k] >= '5')
		n++;
	if (n % 1000)
		snprintf(buf, len, "%lld.%03lld", n / 1000, n % 1000);
	else
		snprintf(buf, len, "%lld", n / 1000);
}

void plan_loop_value_text(double v, char *buf, size_t len)
{
	static const char units[] = "kmgtp";
	double scale = 1024.0;
	char num[64];
	size_t u = 0;

	if (v < 0) {
		snprintf(buf, len, "%.0f%%", trunc(-v));
		return;
	}
	if (v < 1024) {
		snprintf(buf, len, "%.0f", trunc(v));
		return;
	}
	while (u + 1 < sizeof(units) - 1 && v >= scale * 1024.0) {
		scale *= 1024.0;
		u++;
	}
	java_3f(v / scale, num, sizeof(num));
	snprintf(buf, len, "%s%c", num, units[u]);
}

static const char *loop_label(enum parm_kw kw)
{
	switch (kw) {
	case PARM_KW_FORXFERSIZE:
		return "xfersize";
	case PARM_KW_FORTHREADS:
		return "threads";
	case PARM_KW_FORRDPCT:
		return "rdpct";
	case PARM_KW_FORRHPCT:
		return "rhpct";
	case PARM_KW_FORWHPCT:
		return "whpct";
	case PARM_KW_FORSEEKPCT:
		return "seekpct";
	case PARM_KW_FORHITAREA:
		return "hitarea";
	case PARM_KW_FORCOMPRATIO:
	case PARM_KW_FORCOMPRESSION:
		return "comp";
	default:
		return "?";
	}
}

/* iorate items: whole numbers without units, N% for relative rates ([069], [194], [197]). */
static void rate_value_text(const struct parm_rate *r, char *buf, size_t len)
{
	switch (r->kind) {
	case PARM_RATE_MAX:
		snprintf(buf, len, "max");
		break;
	case PARM_RATE_CURVE:
		snprintf(buf, len, "curve");
		break;
	case PARM_RATE_REL:
		snprintf(buf, len, "%.0f%%", trunc(r->value));
		break;
	default:
		snprintf(buf, len, "%.0f", trunc(r->value));
		break;
	}
}

char *plan_for_loops_text(const struct plan_builder *b)
{
	const struct parm_rd *rd = b->rd;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool any = false;
	char val[400];

	if (!f)
		return NULL;
	for (size_t l = 0; l < rd->nr_loops; l++) {
		plan_loop_value_text(parm_num_signed(&rd->loops[l].vals[b->loop_pos[l]]), val,
				     sizeof(val));
		fprintf(f, "%s%s=%s", any ? " " : "", loop_label(rd->loops[l].kw), val);
		any = true;
	}
	if (rd->nr_rates > 1 && !rd->is_variable && !rd->is_spike) {
		rate_value_text(&rd->rates[b->rate_idx], val, sizeof(val));
		fprintf(f, "%siorate=%s", any ? " " : "", val);
		any = true;
	}
	if (!any)
		fputs("None", f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}
