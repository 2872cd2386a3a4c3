/* A list where VDbench takes one number (rdpct=(50,70) in a WD, elapsed=(4,6) in an RD): it
 * runs with the first value without a word, and so does ioramp (parm_get_double()), but says
 * so, since the list was most likely meant as a for-loop. Likewise iorate=(curve,...), where the
 * rest is ignored, a curve= without a number, which leaves the curve's max run alone, and
 * histogram= bounds not above the one before, which are dropped. */
#include "cli.h"

#include <stdio.h>

#include "ioramp/parm.h"

static const enum parm_kw sd_single[] = { PARM_KW_THREADS, PARM_KW_SIZE, PARM_KW_OFFSET,
					  PARM_KW_ALIGN, PARM_KW_HITAREA };
static const enum parm_kw wd_single[] = { PARM_KW_RDPCT, PARM_KW_RHPCT, PARM_KW_WHPCT, PARM_KW_SKEW,
					  PARM_KW_PRIORITY };
static const enum parm_kw rd_single[] = { PARM_KW_ELAPSED, PARM_KW_INTERVAL, PARM_KW_WARMUP,
					  PARM_KW_PAUSE, PARM_KW_MAXDATA };

static void note_set(const struct parm_kwset *set, const enum parm_kw *kws, size_t nr, FILE *f)
{
	for (size_t i = 0; i < nr; i++) {
		const struct parm_val *v = set->val[kws[i]];
		char msg[256];

		if (!v || v->kind != PARM_VAL_LIST || v->nr_items < 2)
			continue;
		snprintf(msg, sizeof(msg),
			 "%s=%s takes one value: VDbench uses the first, %s, and so does ioramp "
			 "(a run per value is a for-loop on the RD)",
			 parm_kw_name(kws[i]), v->text, v->items[0].text);
		parm_warn_print(&v->loc, msg, f);
	}
}

static void note_curve(const struct parm_rd *rd, FILE *f)
{
	const struct parm_val *io = rd->set.val[PARM_KW_IORATE];
	const struct parm_val *cv = rd->set.val[PARM_KW_CURVE];
	char msg[256];

	if (io && io->kind == PARM_VAL_LIST && io->nr_items > 1 && rd->nr_rates == 1 &&
	    rd->rates[0].kind == PARM_RATE_CURVE) {
		snprintf(msg, sizeof(msg),
			 "iorate=%s runs a curve: VDbench ignores the values after curve, and so "
			 "does ioramp (the points go in curve=)",
			 io->text);
		parm_warn_print(&io->loc, msg, f);
	}
	if (cv && rd->has_curve && !rd->nr_curve_pcts) {
		snprintf(msg, sizeof(msg),
			 "curve=%s holds no number: VDbench runs the curve's max run alone, and so "
			 "does ioramp",
			 cv->text);
		parm_warn_print(&cv->loc, msg, f);
	}
}

static void note_histogram(const struct parm_general *g, FILE *f)
{
	const struct parm_val *v = g->set.val[PARM_KW_HISTOGRAM];
	char msg[256];

	if (!v || v->kind != PARM_VAL_LIST || g->nr_histogram + 1 >= v->nr_items)
		return;
	snprintf(msg, sizeof(msg),
		 "histogram=%s: a bound not above the one before is dropped, by VDbench and by "
		 "ioramp (%zu buckets kept)",
		 v->text, g->nr_histogram + 1);
	parm_warn_print(&v->loc, msg, f);
}

void cli_note_first_values(const struct parm_config *cfg, FILE *f)
{
	note_histogram(&cfg->general, f);
	for (size_t i = 0; i < cfg->nr_sds; i++)
		note_set(&cfg->sds[i].set, sd_single, IORAMP_ARRAY_SIZE(sd_single), f);
	for (size_t i = 0; i < cfg->nr_wds; i++)
		note_set(&cfg->wds[i].set, wd_single, IORAMP_ARRAY_SIZE(wd_single), f);
	for (size_t i = 0; i < cfg->nr_rds; i++) {
		note_set(&cfg->rds[i].set, rd_single, IORAMP_ARRAY_SIZE(rd_single), f);
		note_curve(&cfg->rds[i], f);
	}
}
