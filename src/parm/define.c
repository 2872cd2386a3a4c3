/* From lexed items to definitions as written (tests/parm/FINDINGS.md §3, §4): a keyword belongs
 * to the latest definition until another type keyword starts one; the order General, HD, RG, SD,
 * WD, RD is what makes sd= inside a WD a parameter rather than a new SD. xxx=default definitions
 * are cloned into every later definition of their type. The checks that depend on how a keyword
 * was written (given twice, abbreviated) are made here. */
#include "build.h"
#include "keywords.h"

#include "ioramp/fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct builder {
	struct parm_config *cfg;
	struct parm_raw *raw;
	struct parm_err *err;
	enum parm_section sec;
	struct parm_kwset *cur;	      /* where keywords go now */
	struct parm_raw_def *cur_def; /* the definition being written; NULL for xxx=default */
	const char *cur_name;
	uint32_t seq;
	uint32_t def_seq; /* seq when the current definition started */
	uint32_t nr_luns; /* lun= and host= of the current SD ([053]) */
	uint32_t nr_hosts;
	bool is_fs; /* from the first fsd= or fwd= on: file-system mode (fsd.c) */
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

static const char *const fs_words[] = { "fsd", "fwd", "anchor" };

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

static int raw_add(struct parm_raw *raw, struct parm_raw_def **out)
{
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

/* Names become report file names, the longest "<name>.histogram.html": 255 bytes (NAME_MAX)
 * less that suffix. VDbench has no limit and fails when it writes the report. */
#define PARM_MAX_NAME 240

/* sd=NAME starts a definition; sd=default edits the defaults of later SDs. */
static int start_def(struct builder *b, const struct starter *st, const struct parm_item *it)
{
	struct parm_raw_def *def;
	int ret;

	if (it->val.kind != PARM_VAL_WORD || !it->val.text[0])
		return parm_errf(b->err, &it->val.loc, "%s= needs a single name; expected %s=name",
				 st->word, st->word);
	if (strlen(it->val.text) > PARM_MAX_NAME)
		return parm_errf(b->err, &it->val.loc,
				 "%s= name of %zu characters; expected at most %d (it names the "
				 "report files <name>.html)",
				 st->word, strlen(it->val.text), PARM_MAX_NAME);
	b->sec = st->sec;
	if (!strcmp(st->word, "host")) /* VDbench prints a deprecation notice ([063]) */
		b->cfg->has_host_alias = true;
	b->def_seq = b->seq;
	b->nr_luns = 0;
	b->nr_hosts = 0;
	b->cur_def = NULL;
	if (!strcasecmp(it->val.text, "default")) {
		b->cur = &b->raw->defaults[st->sec];
		b->cur_name = "default";
		return 0;
	}
	ret = raw_add(b->raw, &def);
	if (ret)
		return ret;
	def->sec = st->sec;
	def->name = strdup(it->val.text);
	if (!def->name)
		return -ENOMEM;
	def->loc = it->val.loc;
	def->set = b->raw->defaults[st->sec];
	if (st->sec == PARM_SEC_RD)
		def->wd_default = b->raw->defaults[PARM_SEC_WD];
	b->cur = &def->set;
	b->cur_def = def;
	b->cur_name = def->name;
	return 0;
}

static const char *article(enum parm_section sec)
{
	return sec == PARM_SEC_GENERAL || sec == PARM_SEC_WD ? "a" : "an"; /* an hd, a wd */
}

/* "; did you mean threads= (an sd parameter)?" or "" when no keyword is close. */
static const char *did_you_mean(const struct builder *b, const char *key, char *buf, size_t len)
{
	int other;
	const char *kw = parm_kw_suggest(b->sec, key, &other);

	if (!kw)
		return "";
	if (other >= 0 && !strcasecmp(kw, key))
		snprintf(buf, len, "; %s= is %s %s parameter", kw,
			 article((enum parm_section)other),
			 parm_section_name((enum parm_section)other));
	else if (other >= 0)
		snprintf(buf, len, "; did you mean %s= (%s %s parameter)?", kw,
			 article((enum parm_section)other),
			 parm_section_name((enum parm_section)other));
	else if (b->sec == PARM_SEC_WD && !strcmp(kw, "threads"))
		snprintf(buf, len,
			 "; did you mean threads=? It belongs to the SD (a WD takes it only "
			 "with concatenatesds=yes)");
	else
		snprintf(buf, len, "; did you mean %s=?", kw);
	return buf;
}

static int unknown_keyword(struct builder *b, const struct parm_item *it, int why)
{
	char hint[160];
	int other = parm_kw_other_section(b->sec, it->key);
	const char *full = parm_kw_full_only(b->sec, it->key);
	const char *here = parm_section_name(b->sec);

	if (why == -EINVAL)
		return parm_errf(b->err, &it->key_loc,
				 "keyword '%s' is too short; expected at least two letters",
				 it->key);
	if (!strncasecmp(it->key, "inc", 3) && !strncasecmp("include", it->key, strlen(it->key)))
		return parm_errf(b->err, &it->key_loc,
				 "unknown keyword: %s; include=file must be written in lower case "
				 "and in full at the start of a line",
				 it->key);
	if (full || !strncasecmp(it->key, "dedup", 5))
		return parm_errf(b->err, &it->key_loc,
				 "unknown keyword: %s; %s= is accepted only written in full",
				 it->key, full ? full : "each dedup...");
	if (other >= 0 && other < (int)b->sec)
		return parm_errf(b->err, &it->key_loc,
				 "unknown keyword: %s in %s=%s; %s is %s %s parameter and "
				 "definitions must come in the order General, HD, SD, WD, RD",
				 it->key, here, b->cur_name, it->key,
				 article((enum parm_section)other),
				 parm_section_name((enum parm_section)other));
	if (b->sec == PARM_SEC_GENERAL)
		return parm_errf(
			b->err, &it->key_loc,
			"unknown keyword: %s; expected a general parameter or a definition "
			"(hd=, sd=, wd=, rd=)%s",
			it->key, did_you_mean(b, it->key, hint, sizeof(hint)));
	return parm_errf(b->err, &it->key_loc,
			 "unknown keyword: %s in %s=%s; expected %s %s parameter%s", it->key, here,
			 b->cur_name, article(b->sec), here,
			 did_you_mean(b, it->key, hint, sizeof(hint)));
}

static int fs_keyword(struct builder *b, const struct parm_item *it)
{
	return parm_errf(b->err, &it->key_loc,
			 "%s= is a file-system mode (fsd/fwd) parameter; ioramp runs raw I/O "
			 "workloads (sd=, wd=, rd= with iorate=)",
			 it->key);
}

static bool is_own(const struct builder *b, enum parm_kw kw)
{
	return b->cur->val[kw] && b->cur->seq[kw] > b->def_seq;
}

/* Keeps an SD's host= and lun= values in order, for its host/lun pairs. */
static int note_host_lun(struct builder *b, enum parm_kw kw, const struct parm_item *it)
{
	struct parm_raw_def *def = b->cur_def;

	if (!def || (kw != PARM_KW_HOST && kw != PARM_KW_LUN))
		return 0;
	if (parm_grow((void **)&def->hl, def->nr_hl, sizeof(*def->hl)))
		return -ENOMEM;
	def->hl[def->nr_hl++] =
		(struct parm_raw_hl){ .val = &it->val, .is_lun = kw == PARM_KW_LUN };
	return 0;
}

/* lun= and host= of an SD come in pairs when there is more than one lun= ([053]). */
static int check_sd_item(struct builder *b, enum parm_kw kw, const struct parm_item *it)
{
	int ret = note_host_lun(b, kw, it);

	if (ret)
		return ret;
	if (kw == PARM_KW_HOST)
		b->nr_hosts++;
	if (kw != PARM_KW_LUN)
		return 0;
	if (b->cur == &b->raw->defaults[PARM_SEC_SD])
		return parm_errf(b->err, &it->key_loc,
				 "lun= is not allowed on sd=default; expected it on each sd=name");
	if (++b->nr_luns > 1 && b->nr_luns > b->nr_hosts)
		return parm_errf(b->err, &it->key_loc,
				 "sd=%s has a second lun=; expected one lun=, or host= and lun= "
				 "in pairs",
				 b->cur_name);
	return 0;
}

/* An abbreviated histogram= reads its values as numbers ([058]). */
static int check_histogram(struct builder *b, const struct parm_item *it)
{
	const struct parm_val *v = &it->val;
	size_t nr = v->kind == PARM_VAL_LIST ? v->nr_items : 1;

	for (size_t i = 0; i < nr; i++) {
		const struct parm_val *w = v->kind == PARM_VAL_LIST ? &v->items[i] : v;
		struct parm_num n;

		if (parm_num_parse(w->text, PARM_UNIT_PLAIN, &n))
			return parm_errf(
				b->err, &w->loc,
				"%s= is histogram= abbreviated, which reads its values as "
				"numbers: '%s'; write histogram= in full for (default,100u,...)",
				it->key, w->text);
	}
	return 0;
}

/* An abbreviated iorate= reads its list as VDbench 5.04.07 reads a list it does not know
 * ([290]): a list that starts with a number takes numbers only; one that starts with max or
 * curve is that word alone, the numbers after it dropped; two words fail. iorate= in full takes
 * (max,100) as two runs. */
static int abbrev_iorate(struct builder *b, struct parm_item *it)
{
	struct parm_val *v = &it->val, first;
	bool is_word = !parm_num_looks_numeric(v->items[0].text);

	for (size_t i = 1; i < v->nr_items; i++)
		if (!parm_num_looks_numeric(v->items[i].text))
			return parm_errf(b->err, &v->loc,
					 is_word ? "%s=%s: %s= is iorate= abbreviated, which takes "
						   "one word; expected iorate=%s in full"
						 : "%s=%s: %s= is iorate= abbreviated, which mixes no "
						   "numbers and words; expected iorate=%s in full",
					 it->key, v->text, it->key, v->text);
	if (!is_word)
		return 0;
	first = v->items[0];
	memset(&v->items[0], 0, sizeof(v->items[0]));
	parm_val_fini(v);
	*v = first;
	return 0;
}

static int check_item(struct builder *b, const struct parm_kw_match *m, struct parm_item *it)
{
	if (m->kw == PARM_KW_OPERATION || m->kw == PARM_KW_FWDRATE)
		return fs_keyword(b, it);
	if (b->sec == PARM_SEC_SD)
		return check_sd_item(b, m->kw, it);
	if (b->sec == PARM_SEC_GENERAL && m->kw == PARM_KW_HISTOGRAM && m->is_abbrev)
		return check_histogram(b, it);
	if (b->sec != PARM_SEC_RD)
		return 0;
	if (m->kw == PARM_KW_IORATE && m->is_abbrev && it->val.kind == PARM_VAL_LIST &&
	    it->val.nr_items)
		return abbrev_iorate(b, it);
	if (m->kw == PARM_KW_WD && is_own(b, PARM_KW_WD))
		return parm_errf(
			b->err, &it->key_loc,
			"rd=%s: wd= may be given only once per RD; expected one wd= listing "
			"the workloads: wd=(w1,w2,w3)",
			b->cur_name);
	if ((m->flags & PARM_KWF_SINGLE) && it->val.kind == PARM_VAL_LIST)
		return parm_errf(
			b->err, &it->val.loc,
			"rd=%s: %s= takes a single value; expected forseekpct=%s for a loop",
			b->cur_name, it->key, it->val.text);
	return 0;
}

/* Stores the value; settings that are one loop or one mix replace each other. */
static void store(struct builder *b, enum parm_kw kw, const struct parm_item *it)
{
	struct parm_kwset *s = b->cur;

	s->val[kw] = &it->val;
	s->seq[kw] = ++b->seq;
	if (kw == PARM_KW_WRPCT) /* writepct/wrpct and rdpct: the later one wins */
		s->val[PARM_KW_RDPCT] = NULL;
	else if (kw == PARM_KW_RDPCT && b->sec == PARM_SEC_WD)
		s->val[PARM_KW_WRPCT] = NULL;
	if (b->sec != PARM_SEC_RD)
		return;
	if (kw == PARM_KW_FORCOMPRATIO) /* one "comp" loop ([224]) */
		s->val[PARM_KW_FORCOMPRESSION] = NULL;
	else if (kw == PARM_KW_FORCOMPRESSION)
		s->val[PARM_KW_FORCOMPRATIO] = NULL;
	else if (kw == PARM_KW_IORATE && it->val.kind == PARM_VAL_LIST && it->val.nr_items >= 2)
		s->val[PARM_KW_IORATE_LIST] = &it->val; /* the loop; the last iorate= is shown */
}

static int take_item(struct builder *b, struct parm_item *it)
{
	const struct starter *st = find_starter(it->key, b->sec);
	struct parm_kw_match m;
	int ret;

	if (!b->is_fs && parm_fs_starts(it->key)) {
		if (b->sec > PARM_SEC_HD)
			return parm_errf(b->err, &it->key_loc,
					 "%s= after raw I/O definitions; ioramp does not mix raw "
					 "I/O (sd=, wd=) and file-system (fsd=, fwd=) definitions",
					 it->key);
		b->is_fs = true;
	}
	if (b->is_fs)
		return parm_fs_take(b->cfg, it, b->err);
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(fs_words); i++)
		if (!strcasecmp(it->key, fs_words[i]))
			return fs_keyword(b, it);
	if (st)
		return start_def(b, st, it);
	ret = parm_kw_match(b->sec, it->key, &m);
	if (ret)
		return unknown_keyword(b, it, ret);
	ret = check_item(b, &m, it);
	if (!ret)
		store(b, m.kw, it);
	return ret;
}

static int keep_items(struct parm_raw *raw, struct parm_item *items, size_t nr)
{
	if (parm_grow((void **)&raw->nr_items, raw->nr_blocks, sizeof(*raw->nr_items)) ||
	    parm_grow((void **)&raw->item_blocks, raw->nr_blocks, sizeof(*raw->item_blocks)))
		return -ENOMEM;
	raw->item_blocks[raw->nr_blocks] = items;
	raw->nr_items[raw->nr_blocks++] = nr;
	return 0;
}

int parm_define(struct parm_config *cfg, const struct parm_source *src, struct parm_raw *raw,
		struct parm_err *err)
{
	struct builder b = { .cfg = cfg, .raw = raw, .err = err, .sec = PARM_SEC_GENERAL };

	b.cur = &cfg->general.set;
	b.cur_name = "";
	for (size_t l = 0; l < src->nr_logicals; l++) {
		struct parm_item *items;
		int nr = parm_lex(src, &src->logicals[l], &items, err);

		if (nr < 0)
			return nr;
		if (keep_items(raw, items, (size_t)nr)) {
			parm_items_free(items, (size_t)nr);
			return -ENOMEM;
		}
		for (int i = 0; i < nr; i++) {
			int ret = take_item(&b, &items[i]);

			if (ret)
				return ret;
		}
	}
	return 0;
}
