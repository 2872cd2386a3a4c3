/* For-loop values: applying one to a run's overrides, and the "For loops:" text VDbench prints
 * (sizes as 4k or 1.500k, percentages and counts as whole numbers, compratio as comp=). */
#include "plan_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plan_loop_apply(struct plan_overrides *ovr, const struct parm_loop *lp, size_t i)
{
	double v = lp->vals[i].value;

	switch (lp->kw) {
	case PARM_KW_FORXFERSIZE:
		ovr->has_xfersize = true;
		ovr->xfersize_bytes = (uint64_t)v;
		break;
	case PARM_KW_FORTHREADS:
		ovr->has_threads = true;
		ovr->threads = (uint32_t)v;
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
		ovr->hitarea_bytes = (uint64_t)v;
		break;
	case PARM_KW_FORCOMPRATIO:
		ovr->has_compratio = true;
		ovr->compratio = v;
		break;
	case PARM_KW_FORCOMPRESSION:
		/* compression= is a percentage of zeros; VDbench turns it into a ratio */
		ovr->has_compratio = true;
		ovr->compratio = v >= 100 ? 25 : 100.0 / (100.0 - v);
		break;
	default:
		break;
	}
}

void plan_size_text(double bytes, char *buf, size_t len)
{
	static const struct {
		double scale;
		char suffix;
	} units[] = { { 1024.0 * 1024 * 1024 * 1024, 't' },
		      { 1024.0 * 1024 * 1024, 'g' },
		      { 1024.0 * 1024, 'm' },
		      { 1024.0, 'k' } };

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(units); i++) {
		double x = bytes / units[i].scale;

		if (x < 1)
			continue;
		if (x == floor(x))
			snprintf(buf, len, "%.0f%c", x, units[i].suffix);
		else
			snprintf(buf, len, "%.3f%c", x, units[i].suffix);
		return;
	}
	snprintf(buf, len, "%.0f", floor(bytes));
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
		return "comp";
	case PARM_KW_FORCOMPRESSION:
		return "compression";
	default:
		return "?";
	}
}

static void loop_value_text(const struct parm_loop *lp, size_t i, char *buf, size_t len)
{
	double v = lp->vals[i].value;

	if (lp->kw == PARM_KW_FORXFERSIZE || lp->kw == PARM_KW_FORHITAREA)
		plan_size_text(v, buf, len);
	else
		snprintf(buf, len, "%lld", (long long)v);
}

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
		snprintf(buf, len, "%lld%%", (long long)r->value);
		break;
	default:
		snprintf(buf, len, "%lld", (long long)r->value);
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
	char val[64];

	if (!f)
		return NULL;
	for (size_t l = 0; l < rd->nr_loops; l++) {
		loop_value_text(&rd->loops[l], b->loop_pos[l], val, sizeof(val));
		fprintf(f, "%s%s=%s", any ? " " : "", loop_label(rd->loops[l].kw), val);
		any = true;
	}
	if (rd->nr_rates > 1) {
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
