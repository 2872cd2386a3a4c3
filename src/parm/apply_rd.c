/* Run definitions (reference §6) into struct parm_rd: which workloads and SDs (wd=, sd= with
 * single, range and setsofN), how fast (rd_rates.c), how long (elapsed, interval, warmup, pause
 * as whole seconds, checked by the planner) and the for-loops (rd_loops.c). */
#include "build.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_SECONDS 9e18

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
	free(rd->trace_format);
	free(rd->trace_action);
	if (rd->own_wd) {
		parm_wd_fini(rd->own_wd);
		free(rd->own_wd);
	}
	memset(rd, 0, sizeof(*rd));
}

/* Whether v holds no number: curve=abc, curve=() and curve=(max) are points to no one; VDbench
 * 5.04.07 then runs the max run alone (observed). */
static bool has_no_number(const struct parm_val *v)
{
	if (v->kind == PARM_VAL_WORD)
		return !parm_num_looks_numeric(v->text);
	for (size_t i = 0; i < v->nr_items; i++)
		if (parm_num_looks_numeric(v->items[i].text))
			return false;
	return true;
}

static int set_curve(struct parm_rd *rd, const struct parm_val *v, struct parm_err *err)
{
	struct parm_num *n = NULL;
	int nr;

	free(rd->curve_pcts);
	rd->curve_pcts = NULL;
	rd->nr_curve_pcts = 0;
	rd->has_curve = true;
	if (has_no_number(v))
		return 0;
	nr = parm_val_numbers(v, PARM_UNIT_PLAIN, "curve", &n, err);
	if (nr <= 0)
		return nr;
	rd->curve_pcts = calloc((size_t)nr, sizeof(*rd->curve_pcts));
	for (int i = 0; rd->curve_pcts && i < nr; i++)
		rd->curve_pcts[i] = parm_num_signed(&n[i]);
	free(n);
	if (!rd->curve_pcts)
		return -ENOMEM;
	rd->nr_curve_pcts = (size_t)nr;
	return 0;
}

/* Whole seconds, truncated; negative values reach the planner's checks ([180], [191]). */
static int set_time(const struct parm_val *v, const char *what, int64_t *out, struct parm_err *err)
{
	double d;
	int ret = parm_get_double(v, PARM_UNIT_TIME, -MAX_SECONDS, MAX_SECONDS, what, &d, err);

	if (!ret)
		*out = (int64_t)trunc(d);
	return ret;
}

/* sd=single, sd=range, sd=setsofN or SD names (FINDINGS §1.3). */
static int set_sd(struct parm_rd *rd, const struct parm_val *v, struct parm_err *err)
{
	const char *t = v->text;

	rd->sd_mode = PARM_SD_LIST;
	if (v->kind == PARM_VAL_WORD && !strcasecmp(t, "single"))
		rd->sd_mode = PARM_SD_SINGLE;
	else if (v->kind == PARM_VAL_WORD && !strcasecmp(t, "range"))
		rd->sd_mode = PARM_SD_RANGE;
	else if (v->kind == PARM_VAL_WORD && !strncasecmp(t, "setsof", 6) &&
		 isdigit((unsigned char)t[6])) {
		char *end;
		unsigned long n = strtoul(t + 6, &end, 10);

		if (*end || n < 1 || n > PARM_MAX_DEFS)
			return parm_errf(err, &v->loc, "invalid sd=%s; expected setsofN, N from 1",
					 t);
		rd->sd_mode = PARM_SD_SETS;
		rd->sd_set_size = (uint32_t)n;
	}
	return parm_get_names(v, "sd", &rd->sd_names, &rd->nr_sd_names, err);
}

static int set_iorate(struct parm_rd *rd, const struct parm_kwset *set, struct parm_err *err)
{
	const struct parm_val *shown = set->val[PARM_KW_IORATE];
	const struct parm_val *list = set->val[PARM_KW_IORATE_LIST];
	struct parm_rate *r = NULL;
	int nr;

	if (!shown)
		return 0;
	nr = parm_rd_rates(shown, &r, err);
	if (nr < 0)
		return nr;
	rd->has_iorate = nr > 0;
	if (nr > 0)
		rd->shown_rate = r[0];
	if (list && list != shown) {
		free(r);
		r = NULL;
		nr = parm_rd_rates(list, &r, err);
		if (nr < 0)
			return nr;
	}
	rd->rates = r;
	rd->nr_rates = (size_t)nr;
	return 0;
}

static int rd_word(const struct parm_val *v, const char *what, char **out, struct parm_err *err)
{
	const char *w = NULL;
	int ret = parm_get_word(v, what, &w, err);

	if (!ret && !(*out = strdup(w)))
		ret = -ENOMEM;
	return ret;
}

/* One option of trace=(FILE,option,...): format=NAME, action=Q|D|C or skipbad, as VDbench's
 * replay=(FILE,split=DIR,...) takes its options. The engine checks the names. */
static int trace_option(struct parm_rd *rd, const struct parm_val *v, struct parm_err *err)
{
	const char *t = v->text;
	char **slot = NULL;

	if (v->kind == PARM_VAL_LIST)
		return parm_errf(err, &v->loc,
				 "trace= option %s; expected format=NAME, "
				 "action=Q|D|C or skipbad",
				 t);
	if (!strcasecmp(t, "skipbad") || !strcasecmp(t, "skip_bad")) {
		rd->is_trace_skip_bad = true;
		return 0;
	}
	if (!strncasecmp(t, "format=", 7))
		slot = &rd->trace_format;
	else if (!strncasecmp(t, "action=", 7))
		slot = &rd->trace_action;
	if (!slot || !t[7])
		return parm_errf(err, &v->loc,
				 "unknown trace= option %s; expected format=NAME, action=Q|D|C or "
				 "skipbad",
				 t);
	free(*slot);
	*slot = strdup(t + 7);
	return *slot ? 0 : -ENOMEM;
}

static int set_trace(struct parm_rd *rd, const struct parm_val *v, struct parm_err *err)
{
	int ret;

	if (v->kind != PARM_VAL_LIST)
		return rd_word(v, "trace", &rd->trace, err);
	if (!v->nr_items)
		return parm_errf(err, &v->loc, "trace=(): expected trace=(FILE,option...)");
	ret = rd_word(&v->items[0], "trace", &rd->trace, err);
	for (size_t i = 1; !ret && i < v->nr_items; i++)
		ret = trace_option(rd, &v->items[i], err);
	return ret;
}

static int rd_one(struct parm_rd *rd, enum parm_kw kw, const struct parm_val *v,
		  struct parm_err *err)
{
	int ret;

	switch (kw) {
	case PARM_KW_WD:
		return parm_get_names(v, "wd", &rd->wd_names, &rd->nr_wd_names, err);
	case PARM_KW_SD:
		return set_sd(rd, v, err);
	case PARM_KW_CURVE:
		return set_curve(rd, v, err);
	case PARM_KW_STOPCURVE:
		return parm_get_double(v, PARM_UNIT_PLAIN, -1e18, 1e18, "stopcurve",
				       &rd->stopcurve_ms, err);
	case PARM_KW_ELAPSED:
		return set_time(v, "elapsed", &rd->elapsed_s, err);
	case PARM_KW_INTERVAL:
		return set_time(v, "interval", &rd->interval_s, err);
	case PARM_KW_WARMUP:
		return set_time(v, "warmup", &rd->warmup_s, err);
	case PARM_KW_PAUSE:
		return set_time(v, "pause", &rd->pause_s, err);
	case PARM_KW_MAXDATA: /* maxdata=50%: -s lists it, VDbench runs it, meaning unobserved */
		ret = parm_get_double(v, PARM_UNIT_BYTES, 0, 1e30, "maxdata", &rd->maxdata, err);
		if (ret && v->kind == PARM_VAL_WORD && strchr(v->text, '%') &&
		    parm_num_looks_numeric(v->text)) {
			parm_errf(err, &v->loc,
				  "maxdata=%s: a percentage cannot run in ioramp (VDbench -s lists "
				  "it); expected bytes or a count",
				  v->text);
			ret = parm_keep_run_err(&rd->has_run_err, &rd->run_err, -ERANGE, err);
		}
		return ret;
	case PARM_KW_MAXDATAREAD:
		return parm_get_double(v, PARM_UNIT_BYTES, 0, 1e30, "maxdataread", &rd->maxdataread,
				       err);
	case PARM_KW_MAXDATAWRITTEN:
		return parm_get_double(v, PARM_UNIT_BYTES, 0, 1e30, "maxdatawritten",
				       &rd->maxdatawritten, err);
	case PARM_KW_DISTRIBUTION:
		return parm_rd_distribution(rd, v, err);
	case PARM_KW_OPENFLAGS: /* any word passes -s; VDbench's run refuses it */
		return parm_keep_run_err(&rd->has_run_err, &rd->run_err,
					 parm_get_openflags(v, &rd->openflags, err), err);
	case PARM_KW_REPLAY: /* VDbench's replay=(file,...): a trace ioramp reads */
		if (rd->set.val[PARM_KW_TRACE])
			return 0;
		v = v->kind == PARM_VAL_LIST && v->nr_items ? &v->items[0] : v;
		return rd_word(v, "replay", &rd->trace, err);
	case PARM_KW_TRACE:
		free(rd->trace); /* trace= wins over replay= */
		rd->trace = NULL;
		return set_trace(rd, v, err);
	default:
		return 0;
	}
}

/* sd= without wd=: the RD runs a clone of the wd=default written before it ([130]). */
static int own_wd(struct parm_config *cfg, struct parm_rd *rd, const struct parm_raw_def *def,
		  struct parm_err *err)
{
	struct parm_raw_def wdd = { .sec = PARM_SEC_WD, .set = def->wd_default };
	int ret;

	rd->own_wd = calloc(1, sizeof(*rd->own_wd));
	if (!rd->own_wd)
		return -ENOMEM;
	wdd.set.val[PARM_KW_SD] = rd->sd_mode == PARM_SD_LIST ? def->set.val[PARM_KW_SD] : NULL;
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
	char owner[160];
	int nr;

	if (!wdv && !sdv)
		return parm_errf(err, &def->loc,
				 "no wd= parameter for rd=%s; expected wd=name, or sd=name to run "
				 "the wd=default",
				 rd->name);
	snprintf(owner, sizeof(owner), "rd=%s", rd->name);
	if (wdv) {
		nr = parm_wd_resolve(cfg, wdv, owner, &rd->wd_idx, err);
		if (nr < 0)
			return nr;
		rd->nr_wd = (size_t)nr;
	}
	if (sdv && rd->sd_mode == PARM_SD_LIST) {
		nr = parm_sd_resolve(cfg, sdv, owner, &rd->sd_idx, err);
		if (nr < 0)
			return nr;
		rd->nr_sd = (size_t)nr;
	}
	return wdv ? 0 : own_wd(cfg, rd, def, err);
}

static int rd_add(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_rd **out,
		  struct parm_err *err)
{
	struct parm_rd *rd;

	if (cfg->nr_rds >= PARM_MAX_DEFS)
		return parm_errf(err, &def->loc, "more than %d run definitions", PARM_MAX_DEFS);
	for (size_t i = 0; i < cfg->nr_rds; i++)
		if (!strcmp(cfg->rds[i].name, def->name))
			return parm_errf(err, &def->loc,
					 "an RD can only be defined once: rd=%s; expected another "
					 "name",
					 def->name);
	if (parm_grow((void **)&cfg->rds, cfg->nr_rds, sizeof(*cfg->rds)))
		return -ENOMEM;
	rd = &cfg->rds[cfg->nr_rds++];
	memset(rd, 0, sizeof(*rd));
	rd->set = def->set;
	rd->loc = def->loc;
	rd->elapsed_s = 30;
	rd->interval_s = 1;
	rd->name = strdup(def->name);
	*out = rd;
	return rd->name ? 0 : -ENOMEM;
}

int parm_apply_rd(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_err *err)
{
	struct parm_rd *rd = NULL;
	int ret = rd_add(cfg, def, &rd, err);

	for (int kw = 0; kw < PARM_KW_NR && !ret; kw++)
		if (def->set.val[kw] && !parm_kw_is_loop((enum parm_kw)kw))
			ret = rd_one(rd, (enum parm_kw)kw, def->set.val[kw], err);
	if (!ret)
		ret = set_iorate(rd, &def->set, err);
	if (!ret)
		ret = parm_rd_check_variable(rd, err);
	if (!ret)
		ret = parm_rd_loops(rd, &def->set, err);
	if (!ret)
		ret = rd_resolve(cfg, rd, def, err);
	return ret;
}
