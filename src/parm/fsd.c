/* File-system mode as written: from the first fsd= or fwd= on, every keyword belongs to an
 * fsd=, fwd= or rd= definition (VDbench's order FSD, FWD, RD); xxx=default is cloned into
 * every later definition of its type. The values are typed in fsd_apply.c. */
#include "build.h"
#include "fsd_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/fs.h"

/* The keywords of each fs section (VDbench's spellings and the aliases its guide gives). */
static const char *const fsd_words[] = {
	"anchor",	  "count",     "depth",	    "width",   "files",	       "sizes",
	"size",		  "filesizes", "openflags", "shared",  "distribution", "totalsize",
	"workingsetsize", "wss",       "mask",	    "journal",
};
static const char *const fwd_words[] = {
	"fsd",	   "operation", "operations", "fileio",	   "fileselect", "xfersize", "xfersizes",
	"threads", "skew",	"rdpct",      "stopafter", "openflags",	 "host",
};
static const char *const rd_words[] = {
	"fwd",		 "fwdrate",	"format",     "operation", "operations",
	"elapsed",	 "interval",	"warmup",     "pause",	   "curve",
	"foroperations", "fordepth",	"forwidth",   "forfiles",  "forsizes",
	"fortotal",	 "forxfersize", "forthreads", "forrdpct",  "maxdata",
};

bool parm_fs_starts(const char *key)
{
	return !strcasecmp(key, "fsd") || !strcasecmp(key, "fwd");
}

static struct fs_raw *raw_get(struct parm_config *cfg)
{
	if (!cfg->fs) {
		cfg->fs = calloc(1, sizeof(*cfg->fs));
		if (!cfg->fs)
			return NULL;
	}
	if (!cfg->fs->raw)
		cfg->fs->raw = calloc(1, sizeof(struct fs_raw));
	return cfg->fs->raw;
}

/* Keyword prefixes of two characters or more, first match in this order (VDbench 5.04.07
 * takes them: anch, dep, fil, xfers, thr, fwdr, elap, interv, forth observed; fo and for are
 * forxfersize, op and ope operation, tests/parm/FINDINGS.md section 4); maxdata exact only. */
static const char *const fsd_prefix[] = {
	"anchor",	"count",     "depth",	       "width",	    "files",
	"sizes",	"size",	     "filesizes",      "openflags", "shared",
	"distribution", "totalsize", "workingsetsize", "mask",	    "journal",
};
static const char *const fwd_prefix[] = {
	"fsd",	   "operation", "operations", "fileio",	   "fileselect", "xfersize",
	"threads", "skew",	"rdpct",      "stopafter", "openflags",	 "host",
};
static const char *const rd_prefix[] = {
	"fwd",		 "fwdrate",  "forxfersize", "forthreads", "forrdpct",
	"foroperations", "fordepth", "forwidth",    "forfiles",	  "forsizes",
	"fortotal",	 "format",   "operation",   "operations", "elapsed",
	"interval",	 "warmup",   "pause",	    "curve",
};

/* Each section's keywords, exact and by prefix. */
static const struct {
	const char *const *words, *const *prefix;
	size_t nr, nr_prefix;
} tables[FS_SEC_NR] = {
	[FS_SEC_FSD] = { fsd_words, fsd_prefix, IORAMP_ARRAY_SIZE(fsd_words),
			 IORAMP_ARRAY_SIZE(fsd_prefix) },
	[FS_SEC_FWD] = { fwd_words, fwd_prefix, IORAMP_ARRAY_SIZE(fwd_words),
			 IORAMP_ARRAY_SIZE(fwd_prefix) },
	[FS_SEC_RD] = { rd_words, rd_prefix, IORAMP_ARRAY_SIZE(rd_words),
			IORAMP_ARRAY_SIZE(rd_prefix) },
};

static const char *known(int sec, const char *key)
{
	size_t len = strlen(key);

	for (size_t i = 0; i < tables[sec].nr; i++)
		if (!strcasecmp(key, tables[sec].words[i]))
			return tables[sec].words[i];
	for (size_t i = 0; len >= 2 && i < tables[sec].nr_prefix; i++)
		if (!strncasecmp(key, tables[sec].prefix[i], len))
			return tables[sec].prefix[i];
	return NULL;
}

/* The canonical key: aliases folded so that a later value replaces an earlier one. */
static const char *canonical(const char *k)
{
	if (!strcmp(k, "size") || !strcmp(k, "filesizes"))
		return "sizes";
	if (!strcmp(k, "operations") || !strcmp(k, "xfersizes") || !strcmp(k, "wss"))
		return !strcmp(k, "operations") ? "operation"
		       : !strcmp(k, "wss")	? "workingsetsize"
						: "xfersize";
	return k;
}

static int set_put(struct fs_kwset *s, const char *key, const struct parm_val *v)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->keys[i], key)) {
			s->vals[i] = v;
			s->seq[i] = s->next_seq++;
			return 0;
		}
	if (s->nr == FS_MAX_KW)
		return -ENOMEM;
	s->keys[s->nr] = key;
	s->vals[s->nr] = v;
	s->seq[s->nr++] = s->next_seq++;
	return 0;
}

const struct parm_val *fs_kwset_get(const struct fs_kwset *s, const char *key)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->keys[i], key))
			return s->vals[i];
	return NULL;
}

static int start_def(struct parm_config *cfg, struct fs_raw *raw, int sec,
		     const struct parm_item *it, struct parm_err *err)
{
	struct fs_raw_def *d;

	(void)cfg;
	if (it->val.kind != PARM_VAL_WORD || !it->val.text[0])
		return parm_errf(err, &it->val.loc, "%s= needs a single name; expected %s=name",
				 it->key, it->key);
	if (sec < raw->sec)
		return parm_errf(err, &it->key_loc,
				 "%s=%s after a later definition; expected the order fsd=, fwd=, "
				 "rd=",
				 it->key, it->val.text);
	raw->sec = sec;
	if (!strcasecmp(it->val.text, "default")) {
		raw->cur = &raw->defaults[sec];
		raw->cur_name = "default";
		return 0;
	}
	if (parm_grow((void **)&raw->defs, raw->nr_defs, sizeof(*raw->defs)))
		return -ENOMEM;
	d = &raw->defs[raw->nr_defs++];
	memset(d, 0, sizeof(*d));
	d->sec = sec;
	d->name = it->val.text;
	d->loc = it->val.loc;
	d->set = raw->defaults[sec];
	raw->cur = &d->set;
	raw->cur_name = d->name;
	return 0;
}

int parm_fs_take(struct parm_config *cfg, const struct parm_item *it, struct parm_err *err)
{
	struct fs_raw *raw = raw_get(cfg);
	const char *k;
	int sec = -1;

	if (!raw)
		return -ENOMEM;
	if (!strcasecmp(it->key, "fsd") && raw->sec <= FS_SEC_FSD)
		sec = FS_SEC_FSD;
	else if (!strcasecmp(it->key, "fwd") && raw->sec <= FS_SEC_FWD)
		sec = FS_SEC_FWD;
	else if (!strcasecmp(it->key, "rd"))
		sec = FS_SEC_RD;
	if (sec >= 0)
		return start_def(cfg, raw, sec, it, err);
	if (!raw->cur)
		return parm_errf(err, &it->key_loc, "%s= before any fsd=, fwd= or rd=", it->key);
	if (!strcasecmp(it->key, "sd") || !strcasecmp(it->key, "wd"))
		return parm_errf(err, &it->key_loc,
				 "%s= in file-system mode; ioramp does not mix raw I/O (sd=, wd=) "
				 "and file-system (fsd=, fwd=) definitions in one execution",
				 it->key);
	k = known(raw->sec, it->key);
	if (!k)
		return parm_errf(
			err, &it->key_loc, "unknown keyword: %s in %s=%s; expected %s", it->key,
			raw->sec == FS_SEC_FSD	 ? "fsd"
			: raw->sec == FS_SEC_FWD ? "fwd"
						 : "rd",
			raw->cur_name,
			raw->sec == FS_SEC_FSD
				? "an fsd parameter (anchor, depth, width, files, sizes, "
				  "openflags, shared, count, distribution)"
			: raw->sec == FS_SEC_FWD
				? "an fwd parameter (fsd, operation, fileio, fileselect, "
				  "xfersize, threads, skew, rdpct, stopafter)"
				: "an rd parameter of file-system mode (fwd, fwdrate, "
				  "format, operations, elapsed, interval, warmup, for...)");
	/* VDbench 5.04.07 refuses it: "'format=' parameter is not allowed for rd=default" */
	if (raw->cur == &raw->defaults[FS_SEC_RD] && !strcmp(canonical(k), "format"))
		return parm_errf(err, &it->key_loc,
				 "format= is not allowed in rd=default; expected it on each rd= "
				 "that formats");
	if (set_put(raw->cur, canonical(k), &it->val))
		return parm_errf(err, &it->key_loc, "too many keywords in %s=%s", it->key,
				 raw->cur_name);
	return 0;
}
