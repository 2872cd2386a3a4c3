/* General and HD parameters (reference §2, §3) into struct parm_general and struct parm_hd.
 * Keywords ioramp does not act on are still checked as VDbench 5.04.07 checks them
 * (tests/parm/FINDINGS.md §8) so a typo fails at once. */
#include "build.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/dv.h"

/* histogram=(default,b1,b2,...): bucket bounds with u/m/s units, microseconds by default. */
static int histogram_bound(const struct parm_val *v, uint64_t *out_us, struct parm_err *err)
{
	const char *t = v->text;
	size_t n = strlen(t);
	double scale = 1.0;
	char num[64];
	struct parm_num x;

	if (n && (t[n - 1] == 'u' || t[n - 1] == 'U')) {
		n--;
	} else if (n && (t[n - 1] == 'm' || t[n - 1] == 'M')) {
		scale = 1000.0;
		n--;
	} else if (n && (t[n - 1] == 's' || t[n - 1] == 'S')) {
		scale = 1e6;
		n--;
	}
	if (!n || n >= sizeof(num))
		return parm_errf(err, &v->loc,
				 "invalid histogram bound '%s'; expected a time such "
				 "as 100u, 1m or 2s",
				 t);
	memcpy(num, t, n);
	num[n] = '\0';
	if (parm_num_parse(num, PARM_UNIT_PLAIN, &x) || x.is_pct || x.value <= 0)
		return parm_errf(err, &v->loc,
				 "invalid histogram bound '%s'; expected a time such "
				 "as 100u, 1m or 2s",
				 t);
	*out_us = (uint64_t)(x.value * scale);
	return 0;
}

static int set_histogram(struct parm_general *g, const struct parm_val *v, struct parm_err *err)
{
	size_t first = 0, nr;

	if (v->kind != PARM_VAL_LIST || v->nr_items < 2 || strcasecmp(v->items[0].text, "default"))
		return parm_errf(err, &v->loc, "invalid histogram=%s; expected (default,bound,...)",
				 v->text);
	first = 1;
	nr = v->nr_items - first;
	if (nr > 64)
		return parm_errf(err, &v->loc, "histogram=%s has %zu buckets; expected at most 64",
				 v->text, nr);
	g->histogram_us = calloc(nr, sizeof(*g->histogram_us));
	if (!g->histogram_us)
		return -ENOMEM;
	g->nr_histogram = 0;
	for (size_t i = 0; i < nr; i++) {
		uint64_t *b = &g->histogram_us[g->nr_histogram];
		int ret = histogram_bound(&v->items[first + i], b, err);

		if (ret)
			return ret;
		/* a bound not above the one kept before is dropped: VDbench 5.04.07 runs
		 * (default,1m,100u) with the buckets 0-1ms and 1ms-max (observed) */
		if (!g->nr_histogram || *b > b[-1])
			g->nr_histogram++;
	}
	return 0;
}

/* engine=model[:...] keeps its options for the engine to check (at this value's place): in a
 * file they are a list, engine=(model:PRESET,units=8), since a comma ends a keyword. */
static int set_model(struct parm_general *g, const struct parm_val *v, struct parm_err *err)
{
	size_t nr = v->kind == PARM_VAL_LIST ? v->nr_items : 1, len = 0;
	char *text;

	for (size_t i = 0; i < nr; i++)
		len += strlen(v->kind == PARM_VAL_LIST ? v->items[i].text : v->text) + 1;
	text = calloc(1, len ? len : 1);
	if (!text)
		return parm_errf(err, &v->loc, "out of memory");
	for (size_t i = 0; i < nr; i++) {
		if (i)
			strcat(text, ",");
		strcat(text, v->kind == PARM_VAL_LIST ? v->items[i].text : v->text);
	}
	g->engine = text;
	return 0;
}

static bool is_model(const char *w)
{
	return !strncmp(w, "model", 5) && (!w[5] || w[5] == ':');
}

static int set_engine(struct parm_general *g, const struct parm_val *v, struct parm_err *err)
{
	static const char *const engines[] = { "uring", "aio", "sync", "null" };
	const char *w = NULL;
	int ret;

	if (v->kind == PARM_VAL_LIST && v->nr_items && is_model(v->items[0].text))
		return set_model(g, v, err);
	ret = parm_get_word(v, "engine", &w, err);
	if (ret)
		return ret;
	if (is_model(w))
		return set_model(g, v, err);
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(engines); i++) {
		if (!strcasecmp(w, engines[i])) {
			g->engine = strdup(engines[i]);
			return g->engine ? 0 : -ENOMEM;
		}
	}
	return parm_errf(err, &v->loc,
			 "invalid engine=%s; expected uring, aio, sync, null or "
			 "model[:PRESET][,OPTION=VALUE...]",
			 w);
}

/* report=host_detail, slave_detail, no_sd_detail, no_fsd_detail, or a list of them ([262]). */
static int set_report(struct parm_general *g, const struct parm_val *v, struct parm_err *err)
{
	static const char *const words[] = { "host_detail", "slave_detail", "no_sd_detail",
					     "no_fsd_detail" };
	size_t nr = v->kind == PARM_VAL_LIST ? v->nr_items : 1;

	for (size_t i = 0; i < nr; i++) {
		const struct parm_val *w = v->kind == PARM_VAL_LIST ? &v->items[i] : v;
		bool is_known = false;

		for (size_t k = 0; k < IORAMP_ARRAY_SIZE(words); k++)
			is_known |= !strcasecmp(w->text, words[k]);
		if (!strcasecmp(w->text, "no_sd_detail"))
			g->is_no_sd_detail = true;
		else if (!strncasecmp(w->text, "host_", 5) || !strncasecmp(w->text, "slave_", 6))
			g->host_detail = g->host_detail ? g->host_detail : w;
		if (!strcasecmp(w->text, "host_detail"))
			g->is_host_detail = true;
		else if (!strcasecmp(w->text, "slave_detail"))
			g->is_slave_detail = true;
		if (!is_known)
			return parm_errf(err, &w->loc,
					 "invalid report=%s; expected host_detail, slave_detail, "
					 "no_sd_detail or no_fsd_detail",
					 w->text);
	}
	return 0;
}

/* timeout=secs, (secs,abort|secs2|script) or report: the first value is numeric ([261]).
 * Seconds, abort and secs2 are kept; a script or report leaves timeout_s 0 (the engine refuses
 * them). */
static int set_timeout(struct parm_general *g, const struct parm_val *v, struct parm_err *err)
{
	const struct parm_val *first = v->kind == PARM_VAL_LIST && v->nr_items ? &v->items[0] : v;
	const struct parm_val *second =
		v->kind == PARM_VAL_LIST && v->nr_items > 1 ? &v->items[1] : NULL;
	struct parm_num n, n2;

	if (first->kind == PARM_VAL_WORD && !parm_num_parse(first->text, PARM_UNIT_PLAIN, &n)) {
		if (!(n.value > 0) || n.is_pct)
			return parm_errf(err, &first->loc,
					 "invalid timeout=%s; expected a number of seconds above 0",
					 v->text);
		if (!second) {
			g->timeout_s = n.value;
		} else if (second->kind == PARM_VAL_WORD && !strcasecmp(second->text, "abort")) {
			g->timeout_s = g->timeout_abort_s = n.value;
		} else if (second->kind == PARM_VAL_WORD &&
			   !parm_num_parse(second->text, PARM_UNIT_PLAIN, &n2)) {
			g->timeout_s = n.value;
			g->timeout_abort_s = n2.value;
		}
		return 0;
	}
	if (v->kind == PARM_VAL_WORD && !strcasecmp(v->text, "report"))
		return 0;
	return parm_errf(err, &first->loc,
			 "invalid timeout=%s; the first value must be a number of seconds: "
			 "timeout=(60,abort)",
			 v->text);
}

/* dedupsets=n or n%: sets of duplicate blocks, at least one. */
static int set_dedupsets(struct parm_general *g, const struct parm_val *v, struct parm_err *err)
{
	struct parm_num n;

	if (v->kind != PARM_VAL_WORD || parm_num_parse(v->text, PARM_UNIT_PLAIN, &n) ||
	    !(n.value > 0) || (n.is_pct && n.value > 100) || (!n.is_pct && n.value < 1))
		return parm_errf(err, &v->loc,
				 "invalid dedupsets=%s; expected a number of sets or a percentage "
				 "of the dedup units: dedupsets=5%% or dedupsets=1000",
				 v->text);
	g->dedupsets = n;
	return 0;
}

static int set_dedupflipflop(struct parm_general *g, const struct parm_val *v, struct parm_err *err)
{
	static const char *const names[] = { "no", "yes", "hot" };

	for (size_t i = 0; v->kind == PARM_VAL_WORD && i < IORAMP_ARRAY_SIZE(names); i++) {
		if (!strcasecmp(v->text, names[i])) {
			g->dedupflipflop = (enum parm_flipflop)i;
			return 0;
		}
	}
	return parm_errf(err, &v->loc, "invalid dedupflipflop=%s; expected no, yes or hot",
			 v->text);
}

/* A compression ratio below 1 makes VDbench -s fail ([293], [294]). */
static int check_compratio(const struct parm_val *v, const char *kw, double ratio,
			   struct parm_err *err)
{
	if (ratio >= 1)
		return 0;
	return parm_errf(err, &v->loc,
			 "%s=%s makes a compression ratio of %.2f; expected a ratio of 1 or more "
			 "(compratio=1 or more, compression=100 or less)",
			 kw, v->text, ratio);
}

typedef int dv_word_fn(struct dv_opts *o, const char *word, char *err, size_t errlen);

/* validate= and journal= words as VDbench 5.04.07 -s accepts them, cut short as far as it
 * allows (observed; case matters: Yes is refused). The words' table is data validation's
 * (dv_opts_validate_word(), dv_opts_journal_word()), so -s and a run accept the same ones. */
static int check_dv_words(const struct parm_val *v, dv_word_fn *fn, struct parm_err *err)
{
	size_t nr = v->kind == PARM_VAL_LIST ? v->nr_items : 1;
	struct dv_opts o = { 0 };
	char msg[256];

	for (size_t i = 0; i < nr; i++) {
		const struct parm_val *w = v->kind == PARM_VAL_LIST ? &v->items[i] : v;

		if (w->kind == PARM_VAL_LIST)
			return parm_errf(err, &w->loc, "a list inside a list; expected words");
		if (fn(&o, w->text, msg, sizeof(msg)))
			return parm_errf(err, &w->loc, "%s", msg);
	}
	return 0;
}

static int general_one(struct parm_general *g, enum parm_kw kw, const struct parm_val *v,
		       struct parm_err *err)
{
	double d;
	int ret;

	switch (kw) {
	case PARM_KW_COMPRATIO: /* above 25 not checked by VDbench -s ([254]), below 1 is */
		ret = parm_get_double(v, PARM_UNIT_PLAIN, 0, 1e12, "compratio", &g->compratio, err);
		return ret ? ret : check_compratio(v, "compratio", g->compratio, err);
	case PARM_KW_COMPRESSION: /* VDbench converts it to compratio=100/pct ([065], [223]) */
		ret = parm_get_double(v, PARM_UNIT_PLAIN, 1e-9, 1e12, "compression", &d, err);
		if (!ret)
			g->compression_ratio = 100.0 / d;
		if (!ret && !parm_kwset_has(&g->set, PARM_KW_COMPRATIO))
			g->compratio = 100.0 / d;
		return ret ? ret : check_compratio(v, "compression", 100.0 / d, err);
	case PARM_KW_DEDUPRATIO: /* below 1 VDbench fails with a Java format error */
		return parm_get_double(v, PARM_UNIT_PLAIN, 1, 1e9, "dedupratio", &g->dedupratio,
				       err);
	case PARM_KW_DEDUPUNIT:
		ret = parm_get_u64(v, PARM_UNIT_BYTES, 512, 1ull << 30, "dedupunit",
				   &g->dedupunit_bytes, err);
		if (!ret && g->dedupunit_bytes % 512)
			return parm_errf(err, &v->loc,
					 "invalid dedupunit=%s; expected a multiple of 512 bytes",
					 v->text);
		return ret;
	case PARM_KW_DEDUPSETS:
		return set_dedupsets(g, v, err);
	case PARM_KW_DEDUPFLIPFLOP:
		return set_dedupflipflop(g, v, err);
	case PARM_KW_REPORT:
		return set_report(g, v, err);
	case PARM_KW_JOURNAL:
		return check_dv_words(v, dv_opts_journal_word, err);
	case PARM_KW_VALIDATE:
		return check_dv_words(v, dv_opts_validate_word, err);
	case PARM_KW_TIMEOUT:
		return set_timeout(g, v, err);
	case PARM_KW_DATA_ERRORS:
		if (v->kind == PARM_VAL_WORD &&
		    parm_num_parse(v->text, PARM_UNIT_PLAIN, &(struct parm_num){ 0 }))
			return 0; /* a command or "remove" */
		if (v->kind == PARM_VAL_LIST)
			return 0;
		return parm_get_u32(v, 0, UINT32_MAX, "data_errors", &g->data_errors, err);
	case PARM_KW_CONCATENATESDS:
		return parm_get_yesno(v, "concatenatesds", &g->concatenatesds, err);
	case PARM_KW_FORMATSDS:
		return parm_get_yesno(v, "formatsds", &g->formatsds, err);
	case PARM_KW_FORMATXFERSIZE:
		return parm_get_u64(v, PARM_UNIT_BYTES, 512, 1ull << 30, "formatxfersize",
				    &g->formatxfersize_bytes, err);
	case PARM_KW_HISTOGRAM:
		return set_histogram(g, v, err);
	case PARM_KW_SHOWLBA: /* VDbench: a value starting with y is yes, anything else no */
		g->is_showlba =
			v->kind == PARM_VAL_WORD && (v->text[0] == 'y' || v->text[0] == 'Y');
		return 0;
	case PARM_KW_ENGINE:
		return set_engine(g, v, err);
	case PARM_KW_IOS_PER_JVM:
		return parm_get_double(v, PARM_UNIT_PLAIN, 0, 1e12, parm_kw_name(kw),
				       &g->ios_per_jvm, err);
	case PARM_KW_PORT:
	case PARM_KW_ABORT_FAILED_SKEW:
		return parm_get_double(v, PARM_UNIT_PLAIN, 0, 1e12, parm_kw_name(kw), &d, err);
	default:
		return 0; /* kept in the kwset as written */
	}
}

/* Settings that exclude or need each other ([257], [258]). */
static int general_pairs(const struct parm_kwset *set, struct parm_err *err)
{
	const struct parm_val *pattern = set->val[PARM_KW_PATTERN];

	if (pattern && set->val[PARM_KW_VALIDATE])
		return parm_errf(err, &pattern->loc,
				 "validate= and pattern= are mutually exclusive; expected one of "
				 "them");
	if (pattern && (set->val[PARM_KW_COMPRATIO] || set->val[PARM_KW_COMPRESSION]))
		return parm_errf(err, &pattern->loc,
				 "compratio= and pattern= are mutually exclusive; expected one of "
				 "them");
	if (set->val[PARM_KW_DEDUPRATIO] && !set->val[PARM_KW_DEDUPUNIT])
		return parm_errf(err, &set->val[PARM_KW_DEDUPRATIO]->loc,
				 "dedupratio= without dedupunit=; expected dedupunit=n as well");
	return 0;
}

int parm_apply_general(struct parm_config *cfg, const struct parm_kwset *set, struct parm_err *err)
{
	struct parm_general *g = &cfg->general;
	int ret = general_pairs(set, err);

	if (ret)
		return ret;

	g->compratio = 1;
	g->dedupratio = 1;
	g->dedupsets = (struct parm_num){ 5, true };
	g->data_errors = 50;
	g->formatxfersize_bytes = 128 * 1024;
	for (int kw = 0; kw < PARM_KW_NR; kw++) {
		if (!set->val[kw])
			continue;
		ret = general_one(g, (enum parm_kw)kw, set->val[kw], err);
		if (ret)
			return ret;
	}
	return 0;
}

/* mount="special [options] mountpoint" needs at least two blank-separated fields ([247]). */
static int check_mount(const struct parm_val *v, struct parm_err *err)
{
	const char *p = v->text;
	int fields = 0;

	while (*p) {
		while (*p == ' ')
			p++;
		if (*p)
			fields++;
		while (*p && *p != ' ')
			p++;
	}
	if (v->kind != PARM_VAL_WORD || fields < 2)
		return parm_errf(err, &v->loc,
				 "invalid mount=%s; expected \"special [options] mountpoint\" "
				 "(at least two blank-separated fields)",
				 v->text);
	return 0;
}

int parm_check_hd_set(const struct parm_kwset *set, struct parm_err *err)
{
	const struct parm_val *v = set->val[PARM_KW_SHELL];
	const char *w = NULL;
	uint32_t n;
	int ret = 0;

	if (v) {
		ret = parm_get_word(v, "shell", &w, err);
		if (!ret && strcasecmp(w, "rsh") && strcasecmp(w, "ssh") &&
		    strcasecmp(w, "vdbench"))
			ret = parm_errf(err, &v->loc,
					"invalid shell=%s; expected rsh, ssh or vdbench", w);
	}
	if (!ret && (v = set->val[PARM_KW_MOUNT]))
		ret = check_mount(v, err);
	if (!ret && (v = set->val[PARM_KW_JVMS]))
		ret = parm_get_u32(v, 1, 64, "jvms", &n, err);
	if (!ret && (v = set->val[PARM_KW_CLIENTS]))
		ret = parm_get_u32(v, 1, 10000, "clients", &n, err);
	return ret;
}

int parm_apply_hd(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_err *err)
{
	struct parm_hd *hd;
	const struct parm_val *v;
	int ret = parm_check_hd_set(&def->set, err);

	if (ret)
		return ret;
	/* VDbench 5.04.07 refuses a second hd= of a name, if with an odd message ("An SD can only
	 * be defined once", observed) */
	for (size_t i = 0; i < cfg->nr_hds; i++)
		if (!strcmp(cfg->hds[i].name, def->name))
			return parm_errf(err, &def->loc,
					 "hd=%s is defined twice (first on line %u); expected each "
					 "hd= name once",
					 def->name, cfg->hds[i].loc.line);
	if (parm_grow((void **)&cfg->hds, cfg->nr_hds, sizeof(*cfg->hds)))
		return -ENOMEM;
	hd = &cfg->hds[cfg->nr_hds++];
	memset(hd, 0, sizeof(*hd));
	hd->set = def->set;
	hd->loc = def->loc;
	hd->name = strdup(def->name);
	if (!hd->name)
		return -ENOMEM;
	if ((v = def->set.val[PARM_KW_SYSTEM])) {
		const char *w = NULL;

		ret = parm_get_word(v, "system", &w, err);
		if (!ret && !(hd->system = strdup(w)))
			ret = -ENOMEM;
	}
	if (!ret && (v = def->set.val[PARM_KW_JVMS]))
		ret = parm_get_u32(v, 1, 64, "jvms", &hd->jvms, err);
	if (!ret && (v = def->set.val[PARM_KW_CLIENTS]))
		ret = parm_get_u32(v, 1, 10000, "clients", &hd->clients, err);
	return ret;
}
