/* From logical lines to definitions (reference §1.1): a keyword belongs to the latest
 * definition until another type keyword starts one; the order General, HD, RG, SD, WD, RD is
 * what makes sd= inside a WD a parameter rather than a new SD. xxx=default definitions are
 * cloned into every later definition of their type. */
#include "build.h"
#include "keywords.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct builder {
	struct parm_config *cfg;
	struct parm_raw raw;
	struct parm_err *err;
	enum parm_section sec;
	struct parm_kwset *cur;	 /* where keywords go now */
	struct parm_loc cur_loc; /* the definition's type keyword */
	const char *cur_name;
	struct parm_kwset defaults[PARM_SEC_NR];
	uint32_t seq;
};

/* Words that start a definition, and the sections from which they do. A type keyword seen
 * later than its section is a parameter of the current definition (sd= in a WD or RD). */
struct starter {
	const char *word;
	enum parm_section sec;
	unsigned int from; /* sections in which the word starts a new definition */
};

#define FROM(s) (1u << (s))
static const struct starter starters[] = {
	{ "hd", PARM_SEC_HD, FROM(PARM_SEC_GENERAL) | FROM(PARM_SEC_HD) },
	{ "host", PARM_SEC_HD, FROM(PARM_SEC_GENERAL) | FROM(PARM_SEC_HD) },
	{ "rg", PARM_SEC_RG, FROM(PARM_SEC_GENERAL) | FROM(PARM_SEC_HD) | FROM(PARM_SEC_RG) },
	{ "sd", PARM_SEC_SD,
	  FROM(PARM_SEC_GENERAL) | FROM(PARM_SEC_HD) | FROM(PARM_SEC_RG) | FROM(PARM_SEC_SD) },
	{ "wd", PARM_SEC_WD,
	  FROM(PARM_SEC_GENERAL) | FROM(PARM_SEC_HD) | FROM(PARM_SEC_RG) | FROM(PARM_SEC_SD) |
		  FROM(PARM_SEC_WD) },
	{ "rd", PARM_SEC_RD, ~0u },
};

static const char *const fs_words[] = { "fsd", "fwd", "fwdrate", "anchor" };

static const struct starter *find_starter(const char *key, enum parm_section sec)
{
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(starters); i++)
		if (!strcasecmp(key, starters[i].word) && (starters[i].from & FROM(sec)))
			return &starters[i];
	return NULL;
}

int parm_grow(void **arr, size_t nr, size_t elem)
{
	void *n;

	if (nr && (nr & (nr - 1)))
		return 0; /* room left from the last doubling */
	n = realloc(*arr, (nr ? 2 * nr : 4) * elem);
	if (!n)
		return -ENOMEM;
	*arr = n;
	return 0;
}

static int raw_add(struct builder *b, struct parm_raw_def **out)
{
	struct parm_raw *raw = &b->raw;

	if (raw->nr_defs == raw->cap_defs) {
		size_t cap = raw->cap_defs ? raw->cap_defs * 2 : 16;
		struct parm_raw_def *n = realloc(raw->defs, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		raw->defs = n;
		raw->cap_defs = cap;
	}
	*out = &raw->defs[raw->nr_defs++];
	memset(*out, 0, sizeof(**out));
	return 0;
}

/* sd=NAME starts a definition; sd=default edits the defaults of later SDs. */
static int start_def(struct builder *b, const struct starter *st, const struct parm_item *it)
{
	struct parm_raw_def *def;
	int ret;

	if (it->val.kind != PARM_VAL_WORD || !it->val.text[0])
		return parm_errf(b->err, &it->val.loc, "%s= needs a single name; expected %s=name",
				 st->word, st->word);
	b->sec = st->sec;
	b->cur_loc = it->val.loc;
	if (!strcasecmp(it->val.text, "default")) {
		b->cur = &b->defaults[st->sec];
		b->cur_name = "default";
		return 0;
	}
	ret = raw_add(b, &def);
	if (ret)
		return ret;
	def->sec = st->sec;
	def->name = strdup(it->val.text);
	if (!def->name)
		return -ENOMEM;
	def->loc = it->val.loc;
	def->set = b->defaults[st->sec];
	if (st->sec == PARM_SEC_RD)
		def->wd_default = b->defaults[PARM_SEC_WD];
	b->cur = &def->set;
	b->cur_name = def->name;
	return 0;
}

static int unknown_keyword(struct builder *b, const struct parm_item *it, int why)
{
	int other = parm_kw_other_section(b->sec, it->key);
	const char *here = parm_section_name(b->sec);

	if (why == -EINVAL)
		return parm_errf(b->err, &it->key_loc,
				 "keyword '%s' is too short; expected at "
				 "least two letters",
				 it->key);
	if (b->sec == PARM_SEC_GENERAL)
		return parm_errf(b->err, &it->key_loc,
				 "unknown keyword: %s; expected a general "
				 "parameter or a definition (hd=, sd=, wd=, rd=)",
				 it->key);
	if (other >= 0 && other < (int)b->sec)
		return parm_errf(b->err, &it->key_loc,
				 "unknown keyword: %s in %s=%s; %s is a%s %s "
				 "parameter and definitions must come in the order General, HD, "
				 "SD, WD, RD",
				 it->key, here, b->cur_name, it->key,
				 other == PARM_SEC_GENERAL ? "" : "n", parm_section_name(other));
	return parm_errf(
		b->err, &it->key_loc,
		"unknown keyword: %s in %s=%s; expected a%s %s "
		"parameter",
		it->key, here, b->cur_name,
		b->sec == PARM_SEC_HD || b->sec == PARM_SEC_RG || b->sec == PARM_SEC_SD ? "n" : "",
		here);
}

static int take_item(struct builder *b, const struct parm_item *it)
{
	const struct starter *st = find_starter(it->key, b->sec);
	int kw;

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(fs_words); i++)
		if (!strcasecmp(it->key, fs_words[i]))
			return parm_errf(b->err, &it->key_loc,
					 "file-system mode (%s=) is not "
					 "supported; ioramp runs raw I/O workloads (sd=, wd=, rd=)",
					 fs_words[i]);
	if (st)
		return start_def(b, st, it);
	kw = parm_kw_lookup(b->sec, it->key);
	if (kw < 0)
		return unknown_keyword(b, it, kw);
	b->cur->val[kw] = &it->val;
	b->cur->seq[kw] = ++b->seq;
	/* writepct/wrpct and rdpct are one setting: the later one wins */
	if (kw == PARM_KW_WRPCT)
		b->cur->val[PARM_KW_RDPCT] = NULL;
	else if (kw == PARM_KW_RDPCT && b->sec == PARM_SEC_WD)
		b->cur->val[PARM_KW_WRPCT] = NULL;
	return 0;
}

static int keep_items(struct parm_raw *raw, struct parm_item *items, size_t nr)
{
	struct parm_item **blocks =
		realloc(raw->item_blocks, (raw->nr_blocks + 1) * sizeof(*blocks));
	size_t *counts;

	if (!blocks)
		return -ENOMEM;
	raw->item_blocks = blocks;
	counts = realloc(raw->nr_items, (raw->nr_blocks + 1) * sizeof(*counts));
	if (!counts)
		return -ENOMEM;
	raw->nr_items = counts;
	blocks[raw->nr_blocks] = items;
	counts[raw->nr_blocks++] = nr;
	return 0;
}

static int build_defs(struct builder *b, const struct parm_source *src)
{
	b->sec = PARM_SEC_GENERAL;
	b->cur = &b->cfg->general.set;
	b->cur_name = "";
	for (size_t l = 0; l < src->nr_logicals; l++) {
		struct parm_item *items;
		int nr = parm_lex(src, &src->logicals[l], &items, b->err);

		if (nr < 0)
			return nr;
		if (keep_items(&b->raw, items, (size_t)nr)) {
			parm_items_free(items, (size_t)nr);
			return -ENOMEM;
		}
		for (int i = 0; i < nr; i++) {
			int ret = take_item(b, &items[i]);

			if (ret)
				return ret;
		}
	}
	return 0;
}

static int apply_all(struct builder *b)
{
	struct parm_config *cfg = b->cfg;
	int ret = parm_apply_general(cfg, &cfg->general.set, b->err);

	/* what a one-line RD without wd= clones when no RD says otherwise */
	if (!ret) {
		struct parm_raw_def wdd = { .sec = PARM_SEC_WD, .set = b->defaults[PARM_SEC_WD] };

		ret = parm_apply_wd(cfg, &wdd, &cfg->wd_default, b->err);
	}
	for (size_t i = 0; !ret && i < b->raw.nr_defs; i++) {
		const struct parm_raw_def *def = &b->raw.defs[i];

		switch (def->sec) {
		case PARM_SEC_HD:
			ret = parm_apply_hd(cfg, def, b->err);
			break;
		case PARM_SEC_SD:
			ret = parm_apply_sd(cfg, def, b->err);
			break;
		case PARM_SEC_WD: {
			if (parm_grow((void **)&cfg->wds, cfg->nr_wds, sizeof(*cfg->wds)))
				return -ENOMEM;
			memset(&cfg->wds[cfg->nr_wds], 0, sizeof(cfg->wds[0]));
			ret = parm_apply_wd(cfg, def, &cfg->wds[cfg->nr_wds], b->err);
			cfg->nr_wds++;
			break;
		}
		case PARM_SEC_RD:
			ret = parm_apply_rd(cfg, def, b->err);
			break;
		default: /* RG: kept as written; replay groups are not run */
			break;
		}
	}
	return ret;
}

static void raw_fini(struct parm_raw *raw)
{
	for (size_t i = 0; i < raw->nr_defs; i++)
		free(raw->defs[i].name);
	free(raw->defs);
	memset(&raw->defs, 0, sizeof(raw->defs));
}

static int config_build(struct parm_config *cfg, struct parm_err *err)
{
	struct builder b = { .cfg = cfg, .err = err };
	int ret;

	ret = build_defs(&b, cfg->src);
	if (!ret && !b.raw.nr_defs)
		ret = parm_errf(err, NULL, "no sd=, wd= or rd= definitions in the parameter files");
	if (!ret)
		ret = apply_all(&b);
	/* the items stay: every kwset points into them */
	cfg->items = b.raw.item_blocks;
	cfg->nr_items = b.raw.nr_items;
	cfg->nr_item_blocks = b.raw.nr_blocks;
	raw_fini(&b.raw);
	if (ret == -ENOMEM)
		parm_errf(err, NULL, "out of memory");
	return ret;
}

static int config_read(const struct parm_input *in, const char *name, const char *text, size_t len,
		       struct parm_config **out, struct parm_source **keep, struct parm_err *err)
{
	struct parm_config *cfg;
	struct parm_source *src = NULL;
	int ret;

	*out = NULL;
	*keep = NULL;
	memset(err, 0, sizeof(*err));
	ret = parm_source_read(in, name, text, len, &src, err);
	*keep = src;
	if (ret)
		return ret;
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	cfg->src = src;
	cfg->overrides = in->overrides;
	ret = config_build(cfg, err);
	if (ret) {
		cfg->src = NULL; /* the caller keeps it to print err */
		parm_config_free(cfg);
		return ret;
	}
	*keep = NULL;
	*out = cfg;
	return 0;
}

int parm_config_read(const struct parm_input *in, struct parm_config **out,
		     struct parm_source **keep, struct parm_err *err)
{
	return config_read(in, NULL, NULL, 0, out, keep, err);
}

int parm_config_read_text(const char *name, const char *text, size_t len,
			  const struct parm_input *in, struct parm_config **out,
			  struct parm_source **keep, struct parm_err *err)
{
	return config_read(in, name, text, len, out, keep, err);
}

void parm_config_free(struct parm_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->general.histogram_us);
	free(cfg->general.engine);
	for (size_t i = 0; i < cfg->nr_hds; i++) {
		free(cfg->hds[i].name);
		free(cfg->hds[i].system);
	}
	free(cfg->hds);
	for (size_t i = 0; i < cfg->nr_sds; i++)
		parm_sd_fini(&cfg->sds[i]);
	free(cfg->sds);
	for (size_t i = 0; i < cfg->nr_wds; i++)
		parm_wd_fini(&cfg->wds[i]);
	free(cfg->wds);
	parm_wd_fini(&cfg->wd_default);
	for (size_t i = 0; i < cfg->nr_rds; i++)
		parm_rd_fini(&cfg->rds[i]);
	free(cfg->rds);
	for (size_t i = 0; i < cfg->nr_item_blocks; i++)
		parm_items_free(cfg->items[i], cfg->nr_items[i]);
	free(cfg->items);
	free(cfg->nr_items);
	parm_source_free(cfg->src);
	free(cfg);
}
