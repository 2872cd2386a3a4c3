/* Run definitions (reference §6) into struct parm_rd: which workloads, how fast (iorate,
 * curve), how long (elapsed, interval, warmup, pause) and the for-loops in the order written. */
#include "build.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void parm_rd_fini(struct parm_rd *rd)
{
	free(rd->name);
	parm_names_free(rd->wd_names, rd->nr_wd_names);
	parm_names_free(rd->sd_names, rd->nr_sd_names);
	free(rd->wd_idx);
	free(rd->sd_idx);
	free(rd->rates);
	free(rd->curve_pcts);
	for (size_t i = 0; i < rd->nr_loops; i++)
		free(rd->loops[i].vals);
	free(rd->loops);
	free(rd->trace);
	if (rd->own_wd) {
		parm_wd_fini(rd->own_wd);
		free(rd->own_wd);
	}
	memset(rd, 0, sizeof(*rd));
}

static int rate_word(const struct parm_val *v, struct parm_rate *r, struct parm_err *err)
{
	struct parm_num n;

	if (v->kind != PARM_VAL_WORD)
		return parm_errf(err, &v->loc,
				 "invalid iorate=%s; expected a number, max, curve "
				 "or a percentage",
				 v->text);
	if (!strcasecmp(v->text, "max")) {
		r->kind = PARM_RATE_MAX;
	} else if (!strcasecmp(v->text, "curve")) {
		r->kind = PARM_RATE_CURVE;
	} else if (!parm_num_parse(v->text, PARM_UNIT_PLAIN, &n) && n.value >= 0) {
		r->kind = n.is_pct ? PARM_RATE_REL : PARM_RATE_FIXED;
		r->value = n.value;
	} else {
		return parm_errf(err, &v->loc,
				 "invalid iorate=%s; expected a number, max, curve "
				 "or a percentage",
				 v->text);
	}
	return 0;
}

/* iorate=n, (n,n,...), (lo-hi,step), max, curve, 50%, (max,50%). */
static int set_iorate(struct parm_rd *rd, const struct parm_val *v, struct parm_err *err)
{
	struct parm_num *n;
	size_t nr = v->kind == PARM_VAL_LIST ? v->nr_items : 1;
	int ret;

	if (v->kind == PARM_VAL_LIST && nr == 2 && v->items[0].kind == PARM_VAL_WORD &&
	    strchr(v->items[0].text + 1, '-')) {
		int k = parm_val_numbers(v, PARM_UNIT_PLAIN, &n, err);

		if (k < 0)
			return k;
		rd->rates = calloc((size_t)k, sizeof(*rd->rates));
		if (!rd->rates) {
			free(n);
			return -ENOMEM;
		}
		for (int i = 0; i < k; i++)
			rd->rates[i] = (struct parm_rate){ PARM_RATE_FIXED, n[i].value };
		rd->nr_rates = (size_t)k;
		free(n);
		return 0;
	}
	rd->rates = calloc(nr, sizeof(*rd->rates));
	if (!rd->rates)
		return -ENOMEM;
	rd->nr_rates = nr;
	for (size_t i = 0; i < nr; i++) {
		ret = rate_word(v->kind == PARM_VAL_LIST ? &v->items[i] : v, &rd->rates[i], err);
		if (ret)
			return ret;
	}
	return 0;
}

static int set_curve(struct parm_rd *rd, const struct parm_val *v, struct parm_err *err)
{
	struct parm_num *n;
	int nr = parm_val_numbers(v, PARM_UNIT_PLAIN, &n, err);

	if (nr < 0)
		return nr;
	rd->curve_pcts = calloc((size_t)nr, sizeof(*rd->curve_pcts));
	if (!rd->curve_pcts) {
		free(n);
		return -ENOMEM;
	}
	for (int i = 0; i < nr; i++) {
		if (n[i].value <= 0) {
			free(n);
			return parm_errf(err, &v->loc,
					 "invalid curve=%s; expected percentages above "
					 "zero",
					 v->text);
		}
		rd->curve_pcts[i] = n[i].value;
	}
	rd->nr_curve_pcts = (size_t)nr;
	free(n);
	return 0;
}

static int set_distribution(struct parm_rd *rd, const struct parm_val *v, struct parm_err *err)
{
	const char **w;
	int nr = parm_val_words(v, &w, err);

	if (nr < 0)
		return nr;
	for (int i = 0; i < nr; i++) {
		if (!strncasecmp(w[i], "exponential", strlen(w[i])) && strlen(w[i]) >= 1)
			rd->distribution = PARM_DIST_EXPONENTIAL;
		else if (!strncasecmp(w[i], "uniform", strlen(w[i])))
			rd->distribution = PARM_DIST_UNIFORM;
		else if (!strncasecmp(w[i], "deterministic", strlen(w[i])))
			rd->distribution = PARM_DIST_DETERMINISTIC;
		else if (!strcasecmp(w[i], "variable"))
			rd->is_variable = true;
		else if (!strcasecmp(w[i], "spike"))
			rd->is_spike = true;
		else {
			struct parm_loc loc = v->kind == PARM_VAL_LIST ? v->items[i].loc : v->loc;

			int ret = parm_errf(err, &loc,
					    "invalid distribution=%s; expected exponential, "
					    "uniform or deterministic, optionally with variable or "
					    "spike",
					    w[i]);

			free(w);
			return ret;
		}
	}
	free(w);
	return 0;
}

static bool is_loop_kw(enum parm_kw kw)
{
	return kw >= PARM_KW_FORCOMPRATIO && kw <= PARM_KW_FORXFERSIZE;
}

static enum parm_unit loop_unit(enum parm_kw kw)
{
	return kw == PARM_KW_FORXFERSIZE || kw == PARM_KW_FORHITAREA ? PARM_UNIT_BYTES
								     : PARM_UNIT_PLAIN;
}

/* forseekpct also takes the words VDbench maps to numbers (reference §6: -1 = eof). */
static int seek_words(const struct parm_val *v, struct parm_loop *lp, struct parm_err *err)
{
	const char **w;
	int nr = parm_val_words(v, &w, err);

	if (nr < 0)
		return nr;
	lp->vals = calloc((size_t)nr, sizeof(*lp->vals));
	if (!lp->vals) {
		free(w);
		return -ENOMEM;
	}
	for (int i = 0; i < nr; i++) {
		if (!strcasecmp(w[i], "random") || !strcasecmp(w[i], "r"))
			lp->vals[i].value = 100;
		else if (!strcasecmp(w[i], "seq") || !strcasecmp(w[i], "sequential"))
			lp->vals[i].value = 0;
		else if (!strcasecmp(w[i], "eof"))
			lp->vals[i].value = -1;
		else {
			free(w);
			return parm_errf(err, &v->loc,
					 "invalid forseekpct=%s; expected numbers or "
					 "random, seq, eof",
					 v->text);
		}
	}
	lp->nr = (size_t)nr;
	free(w);
	return 0;
}

static bool first_is_word(const struct parm_val *v)
{
	const struct parm_val *first = v->kind == PARM_VAL_LIST && v->nr_items ? &v->items[0] : v;
	struct parm_num n;

	return first->kind == PARM_VAL_WORD && parm_num_parse(first->text, PARM_UNIT_PLAIN, &n);
}

static int add_loop(struct parm_rd *rd, enum parm_kw kw, const struct parm_val *v,
		    struct parm_err *err)
{
	struct parm_loop *loops = realloc(rd->loops, (rd->nr_loops + 1) * sizeof(*loops));
	struct parm_loop *lp;
	int nr;

	if (!loops)
		return -ENOMEM;
	rd->loops = loops;
	lp = &loops[rd->nr_loops++];
	memset(lp, 0, sizeof(*lp));
	lp->kw = kw;
	lp->loc = v->loc;
	if (kw == PARM_KW_FORSEEKPCT && first_is_word(v))
		return seek_words(v, lp, err);
	nr = parm_val_numbers(v, loop_unit(kw), &lp->vals, err);
	if (nr < 0)
		return nr;
	lp->nr = (size_t)nr;
	return 0;
}

/* The for-loops nest in the order they were written: sort the loop keywords by sequence. */
static int collect_loops(struct parm_rd *rd, const struct parm_kwset *set, struct parm_err *err)
{
	for (;;) {
		int next = -1;
		uint32_t last = rd->nr_loops ? set->seq[rd->loops[rd->nr_loops - 1].kw] : 0;
		int ret;

		for (int kw = PARM_KW_FORCOMPRATIO; kw <= PARM_KW_FORXFERSIZE; kw++)
			if (set->val[kw] && set->seq[kw] > last &&
			    (next < 0 || set->seq[kw] < set->seq[next]))
				next = kw;
		if (next < 0)
			return 0;
		ret = add_loop(rd, (enum parm_kw)next, set->val[next], err);
		if (ret)
			return ret;
	}
}

static int set_time(const struct parm_val *v, const char *what, uint64_t min, uint64_t *out,
		    struct parm_err *err)
{
	return parm_get_u64(v, PARM_UNIT_TIME, min, 100ull * 365 * 86400, what, out, err);
}

static int rd_one(struct parm_rd *rd, enum parm_kw kw, const struct parm_val *v,
		  struct parm_err *err)
{
	switch (kw) {
	case PARM_KW_WD:
		return parm_get_names(v, "wd", &rd->wd_names, &rd->nr_wd_names, err);
	case PARM_KW_SD:
		return parm_get_names(v, "sd", &rd->sd_names, &rd->nr_sd_names, err);
	case PARM_KW_IORATE:
		return set_iorate(rd, v, err);
	case PARM_KW_CURVE:
		return set_curve(rd, v, err);
	case PARM_KW_STOPCURVE:
		return parm_get_double(v, PARM_UNIT_PLAIN, 0, 1e12, "stopcurve", &rd->stopcurve_ms,
				       err);
	case PARM_KW_ELAPSED:
		return set_time(v, "elapsed", 1, &rd->elapsed_s, err);
	case PARM_KW_INTERVAL:
		return set_time(v, "interval", 1, &rd->interval_s, err);
	case PARM_KW_WARMUP:
		return set_time(v, "warmup", 0, &rd->warmup_s, err);
	case PARM_KW_PAUSE:
		return set_time(v, "pause", 0, &rd->pause_s, err);
	case PARM_KW_MAXDATA:
		return parm_get_double(v, PARM_UNIT_BYTES, 0, 1e30, "maxdata", &rd->maxdata, err);
	case PARM_KW_MAXDATAREAD:
		return parm_get_double(v, PARM_UNIT_BYTES, 0, 1e30, "maxdataread", &rd->maxdataread,
				       err);
	case PARM_KW_MAXDATAWRITTEN:
		return parm_get_double(v, PARM_UNIT_BYTES, 0, 1e30, "maxdatawritten",
				       &rd->maxdatawritten, err);
	case PARM_KW_DISTRIBUTION:
		return set_distribution(rd, v, err);
	case PARM_KW_OPENFLAGS:
		return parm_get_openflags(v, &rd->openflags, err);
	case PARM_KW_REPLAY: /* VDbench's replay=(file,...): a trace ioramp reads */
		if (rd->set.val[PARM_KW_TRACE])
			return 0;
		v = v->kind == PARM_VAL_LIST && v->nr_items ? &v->items[0] : v;
		/* fall through */
	case PARM_KW_TRACE: {
		const char *w = NULL;
		int ret = parm_get_word(v, "trace", &w, err);

		if (!ret && !(rd->trace = strdup(w)))
			ret = -ENOMEM;
		return ret;
	}
	default:
		return 0;
	}
}

/* sd= without wd=: the RD runs a clone of the wd=default written before it. */
static int own_wd(struct parm_config *cfg, struct parm_rd *rd, const struct parm_raw_def *def,
		  struct parm_err *err)
{
	struct parm_raw_def wdd = { .sec = PARM_SEC_WD, .set = def->wd_default };
	int ret;

	rd->own_wd = calloc(1, sizeof(*rd->own_wd));
	if (!rd->own_wd)
		return -ENOMEM;
	wdd.set.val[PARM_KW_SD] = def->set.val[PARM_KW_SD];
	ret = parm_apply_wd(cfg, &wdd, rd->own_wd, err);
	if (ret)
		return ret;
	rd->own_wd->name = strdup(def->name);
	return rd->own_wd->name ? 0 : -ENOMEM;
}

static int rd_resolve(struct parm_config *cfg, struct parm_rd *rd, const struct parm_raw_def *def,
		      struct parm_err *err)
{
	const struct parm_val *wdv = def->set.val[PARM_KW_WD];
	const struct parm_val *sdv = def->set.val[PARM_KW_SD];
	int nr;

	if (!wdv && !sdv)
		return parm_errf(err, &def->loc,
				 "no 'wd=' parameter specified for rd=%s; expected "
				 "wd=name or sd=name",
				 rd->name);
	if (wdv) {
		nr = parm_wd_resolve(cfg, rd->wd_names, rd->nr_wd_names, &wdv->loc, &rd->wd_idx,
				     err);
		if (nr < 0)
			return nr;
		rd->nr_wd = (size_t)nr;
	}
	if (sdv) {
		nr = parm_sd_resolve(cfg, rd->sd_names, rd->nr_sd_names, &sdv->loc, &rd->sd_idx,
				     err);
		if (nr < 0)
			return nr;
		rd->nr_sd = (size_t)nr;
	}
	return wdv ? 0 : own_wd(cfg, rd, def, err);
}

int parm_apply_rd(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_err *err)
{
	struct parm_rd *rd;
	int ret = 0;

	if (cfg->nr_rds >= PARM_MAX_DEFS)
		return parm_errf(err, &def->loc, "more than %d run definitions", PARM_MAX_DEFS);
	if (parm_grow((void **)&cfg->rds, cfg->nr_rds, sizeof(*cfg->rds)))
		return -ENOMEM;
	rd = &cfg->rds[cfg->nr_rds++];
	memset(rd, 0, sizeof(*rd));
	rd->set = def->set;
	rd->loc = def->loc;
	rd->elapsed_s = 30;
	rd->interval_s = 1;
	rd->name = strdup(def->name);
	if (!rd->name)
		return -ENOMEM;
	for (int kw = 0; kw < PARM_KW_NR && !ret; kw++)
		if (def->set.val[kw] && !is_loop_kw((enum parm_kw)kw))
			ret = rd_one(rd, (enum parm_kw)kw, def->set.val[kw], err);
	if (!ret)
		ret = collect_loops(rd, &def->set, err);
	if (!ret)
		ret = rd_resolve(cfg, rd, def, err);
	return ret;
}
