/* Workload definitions (reference §5) into struct parm_wd: the I/O mix (rdpct, xfersize,
 * seekpct), where it goes (sd=, range, hotband) and how fast (skew, iorate). Values are checked
 * as VDbench 5.04.07 checks them with -s (tests/parm/FINDINGS.md §8): percentages above 100 and
 * transfer sizes that are not a multiple of 512 pass here and are refused before a real run. */
#include "build.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void parm_wd_fini(struct parm_wd *wd)
{
	free(wd->name);
	parm_names_free(wd->sd_names, wd->nr_sd_names);
	free(wd->sd_idx);
	parm_xfer_fini(&wd->xfer);
	free(wd->host);
	memset(wd, 0, sizeof(*wd));
}

/* A non-empty prefix of word, in its case. */
static bool is_prefix_of(const char *s, const char *word)
{
	size_t len = strlen(s);

	return len && !strncmp(s, word, len);
}

/* seekpct=N as VDbench 5.04.07 runs it (observed): above 100 every I/O is random (150 runs as
 * 100), and any negative value is eof (-5 and -0.5 stop at the end of the SD as -1 does). */
static int seek_number(struct parm_wd *wd, const struct parm_val *v, struct parm_err *err)
{
	size_t len = strlen(v->text);
	int ret;

	if (len && isalpha((unsigned char)v->text[len - 1])) /* "Invalid contents": 1k [observed] */
		return parm_errf(
			err, &v->loc,
			"invalid seekpct=%s; expected a plain number (no k, m or h), random, "
			"seq, seqnz, eof or (poisson,n)",
			v->text);
	ret = parm_get_double(v, PARM_UNIT_PLAIN, -1e18, 1e18, "seekpct", &wd->seekpct, err);

	if (!ret && wd->seekpct < 0) {
		wd->seek = PARM_SEEK_EOF;
		wd->seekpct = 0;
	}
	if (!ret && wd->seekpct > 100)
		wd->seekpct = 100;
	return ret;
}

/* seekpct=n, random, seq, sequential, seqnz, eof (-1), (poisson,n) ([090], [091]), read as
 * VDbench 5.04.07 reads them (observed, [286]): random by any prefix (r, ran), anything starting
 * seq (seqn, sequentialx) sequential unless it starts seqnz, eof in any case; the others in lower
 * case only (Random, SEQ are refused). */
static int seek_word(struct parm_wd *wd, const struct parm_val *v, struct parm_err *err)
{
	const char *w = v->text;

	if (is_prefix_of(w, "random")) {
		wd->seekpct = 100;
	} else if (!strncmp(w, "seqnz", 5)) {
		wd->seek = PARM_SEEK_SEQNZ;
		wd->seekpct = 0;
	} else if (!strncmp(w, "seq", 3)) {
		wd->seekpct = 0;
	} else if (!strcasecmp(w, "eof") || !strcmp(w, "-1")) {
		wd->seek = PARM_SEEK_EOF;
		wd->seekpct = 0;
	} else if (parm_num_looks_numeric(w)) {
		return seek_number(wd, v, err);
	} else {
		return parm_errf(
			err, &v->loc,
			"invalid seekpct=%s; expected a percentage, random, seq, seqnz, eof "
			"or (poisson,n)",
			w);
	}
	return 0;
}

static int set_seekpct(struct parm_wd *wd, const struct parm_val *v, struct parm_err *err)
{
	wd->seek = PARM_SEEK_PCT;
	if (v->kind == PARM_VAL_LIST && v->nr_items == 2 &&
	    is_prefix_of(v->items[0].text, "poisson")) { /* (p,5), (poi,5) [286] */
		wd->seek = PARM_SEEK_POISSON;
		return parm_get_double(&v->items[1], PARM_UNIT_PLAIN, 1e-9, 1e18, "seekpct",
				       &wd->seekpct, err);
	}
	if (v->kind != PARM_VAL_WORD)
		return parm_errf(
			err, &v->loc,
			"invalid seekpct=%s; expected a percentage, random, seq, seqnz, eof "
			"or (poisson,n)",
			v->text);
	return seek_word(wd, v, err);
}

/* streams=n, n taken whole (2.7 is 2, as VDbench's); fewer than two is refused, as VDbench
 * 5.04.07 refuses streams=1 and 1.5 even with -s ("'streams=' parameter must specific a
 * minimum of two streams"). */
static int set_streams(struct parm_wd *wd, const struct parm_val *v, struct parm_err *err)
{
	int ret = parm_get_u32(v, 1, 1u << 20, "streams", &wd->streams, err);

	if (!ret && wd->streams < 2)
		return parm_errf(err, &v->loc, "streams=%s: expected at least two streams",
				 v->text);
	return ret;
}

/* stride=(min,max): numbers only, two of them ([046], [259]). */
static int set_stride(struct parm_wd *wd, const struct parm_val *v, struct parm_err *err)
{
	struct parm_num *n = NULL;
	int nr = parm_val_numbers(v, PARM_UNIT_BYTES, "stride", &n, err);
	double lo, hi;

	if (nr < 0)
		return nr;
	lo = nr >= 1 ? n[0].value : 0;
	hi = nr >= 2 ? n[1].value : 0;
	free(n);
	if (nr != 2)
		return parm_errf(err, &v->loc,
				 "invalid stride=%s; expected two values: "
				 "stride=(min,max)",
				 v->text);
	if (!(lo >= 0 && hi >= lo && hi < 1e18))
		return parm_errf(err, &v->loc, "invalid stride=%s; expected 0 <= min <= max",
				 v->text);
	wd->stride_min_bytes = (uint64_t)lo;
	wd->stride_max_bytes = (uint64_t)hi;
	return 0;
}

/* host=label or host=(a,b): the hosts the workload runs on; wd->host keeps the first. */
static int set_host(struct parm_wd *wd, const struct parm_val *v, struct parm_err *err)
{
	const char **words = NULL;
	int n = parm_val_words(v, &words, err);

	if (n <= 0) {
		free(words);
		return n < 0 ? n
			     : parm_errf(err, &v->loc, "host=() names no host; expected a label");
	}
	free(wd->host);
	wd->host = strdup(words[0]);
	free(words);
	return wd->host ? 0 : -ENOMEM;
}

/* The percentages VDbench -s does not range-check ([254]); a run refuses them. */
static int set_pct(const struct parm_val *v, const char *what, double *out, struct parm_err *err)
{
	return parm_get_double(v, PARM_UNIT_PLAIN, -1e18, 1e18, what, out, err);
}

static int xfer_default(struct parm_xfer *x)
{
	x->kind = PARM_XFER_FIXED;
	x->nr = 1;
	x->sizes_bytes = malloc(sizeof(*x->sizes_bytes));
	if (!x->sizes_bytes)
		return -ENOMEM;
	x->sizes_bytes[0] = 4096;
	return 0;
}

/* xfersize=0 or -4k: -s lists it, VDbench's run fails ("max_xfersize still zero", observed). */
static int set_xfer(struct parm_wd *wd, const struct parm_val *v, struct parm_err *err)
{
	int ret = parm_get_wd_xfer(v, &wd->xfer, err);

	if (ret != -ERANGE)
		return ret;
	parm_keep_run_err(&wd->has_run_err, &wd->run_err, ret, err);
	return xfer_default(&wd->xfer);
}

/* priority=N: 0 is refused ("Workload priority may not be zero"); a negative one -s lists and
 * VDbench's run refuses ("Workload priorities must be defined in numeric sequence starting at
 * 1", observed), so it is kept for the run, as a priority above 1000 no other WD can have. */
static int set_priority(struct parm_wd *wd, const struct parm_val *v, struct parm_err *err)
{
	double d;
	int ret = parm_get_double(v, PARM_UNIT_PLAIN, -1e6, 1e18, "priority", &d, err);

	if (ret || d >= 0)
		return ret ? ret : parm_get_u32(v, 1, 1000, "priority", &wd->priority, err);
	wd->priority = 1000 + (uint32_t)ceil(-d);
	parm_errf(err, &v->loc,
		  "invalid priority=%s; expected a value from 1 to 1000 (VDbench -s lists it, its "
		  "run refuses it)",
		  v->text);
	return parm_keep_run_err(&wd->has_run_err, &wd->run_err, -ERANGE, err);
}

static int wd_one(struct parm_wd *wd, enum parm_kw kw, const struct parm_val *v,
		  struct parm_err *err)
{
	double d;
	int ret;

	switch (kw) {
	case PARM_KW_SD:
		return parm_get_names(v, "sd", &wd->sd_names, &wd->nr_sd_names, err);
	case PARM_KW_RDPCT:
		return set_pct(v, "rdpct", &wd->rdpct, err);
	case PARM_KW_WRPCT:
		ret = set_pct(v, "wrpct", &d, err);
		wd->rdpct = 100 - d;
		return ret;
	case PARM_KW_XFERSIZE:
		parm_xfer_fini(&wd->xfer);
		return set_xfer(wd, v, err);
	case PARM_KW_SEEKPCT:
		return set_seekpct(wd, v, err);
	case PARM_KW_SKEW:
		/* any value: VDbench checks the RD's total, and -s lists skew=120 beside a WD
		 * without skew= (plan_check_runnable() refuses it before a run) */
		return set_pct(v, "skew", &wd->skew, err);
	case PARM_KW_IORATE: /* the one list VDbench refuses in a WD */
		if (v->kind == PARM_VAL_LIST && v->nr_items > 1)
			return parm_errf(
				err, &v->loc,
				"wd iorate=%s: a workload's iorate= has one value; expected "
				"iorate=N (a list of rates goes on the RD)",
				v->text);
		if (v->kind == PARM_VAL_WORD && !strcasecmp(v->text, "max")) { /* -s lists it */
			parm_errf(err, &v->loc,
				  "wd=%s: a workload's iorate=max cannot run in ioramp (VDbench -s "
				  "lists it); expected a number",
				  wd->name ? wd->name : "default");
			return parm_keep_run_err(&wd->has_run_err, &wd->run_err, -ERANGE, err);
		}
		return parm_get_double(v, PARM_UNIT_PLAIN, 0.000001, 1e12, "iorate", &wd->iorate,
				       err);
	case PARM_KW_PRIORITY:
		return set_priority(wd, v, err);
	case PARM_KW_RANGE:
		return parm_get_range(v, "range", &wd->range, err);
	case PARM_KW_HOTBAND:
		return parm_get_range(v, "hotband", &wd->hotband, err);
	case PARM_KW_RHPCT:
		return set_pct(v, "rhpct", &wd->rhpct, err);
	case PARM_KW_WHPCT:
		return set_pct(v, "whpct", &wd->whpct, err);
	case PARM_KW_STRIDE:
		return set_stride(wd, v, err);
	case PARM_KW_STREAMS:
		return set_streams(wd, v, err);
	case PARM_KW_THREADS:
		return parm_get_u32(v, 1, 1u << 20, "threads", &wd->threads, err);
	case PARM_KW_OPENFLAGS: /* any word passes -s; VDbench's run refuses it */
		return parm_keep_run_err(&wd->has_run_err, &wd->run_err,
					 parm_get_openflags(v, &wd->openflags, err), err);
	case PARM_KW_HOST:
		return set_host(wd, v, err);
	default:
		return 0;
	}
}

static int wd_check(const struct parm_config *cfg, const struct parm_wd *wd, struct parm_err *err)
{
	const struct parm_kwset *s = &wd->set;

	if (parm_kwset_has(s, PARM_KW_IORATE) && parm_kwset_has(s, PARM_KW_SKEW))
		return parm_errf(err, &s->val[PARM_KW_SKEW]->loc,
				 "wd=%s: skew= and iorate= are mutually exclusive; expected one of "
				 "them",
				 wd->name);
	if (parm_kwset_has(s, PARM_KW_THREADS) && !cfg->general.concatenatesds)
		return parm_errf(err, &s->val[PARM_KW_THREADS]->loc,
				 "wd=%s: a workload threads= needs concatenatesds=yes; expected "
				 "threads= on the SD or the RD",
				 wd->name);
	return 0;
}

/* xfersize=(min,max,align) needs align= of the same value on each of its SDs ([088]). */
static int check_xfer_align(const struct parm_config *cfg, const struct parm_wd *wd,
			    struct parm_err *err)
{
	if (wd->xfer.kind != PARM_XFER_RANGE)
		return 0;
	for (size_t i = 0; i < wd->nr_sd; i++) {
		const struct parm_sd *sd = &cfg->sds[wd->sd_idx[i]];

		if (sd->align_bytes != wd->xfer.align_bytes)
			return parm_errf(err, &wd->set.val[PARM_KW_XFERSIZE]->loc,
					 "wd=%s: xfersize=(min,max,align) needs align=%llu on "
					 "sd=%s,lun=%s as well",
					 wd->name, (unsigned long long)wd->xfer.align_bytes,
					 sd->name, sd->lun);
	}
	return 0;
}

static int wd_defaults(struct parm_wd *wd, const struct parm_raw_def *def)
{
	wd->set = def->set;
	wd->loc = def->loc;
	wd->rdpct = 100;
	wd->seekpct = 100;
	wd->range.hi = 100;
	if (def->name && !(wd->name = strdup(def->name)))
		return -ENOMEM;
	return xfer_default(&wd->xfer);
}

/* Keeps an error of ret (-EINVAL) in wd->use_err for when an RD runs the WD; others pass. */
static int defer_err(struct parm_wd *wd, int ret, const struct parm_err *err)
{
	if (ret != -EINVAL)
		return ret;
	if (!wd->has_use_err) {
		wd->has_use_err = true;
		wd->use_err = *err;
	}
	return 0;
}

/* What VDbench checks only for a WD an RD runs: iorate= with priority=, its SDs found, and
 * xfersize=(min,max,align) with the SDs' align=. */
static int wd_use_checks(const struct parm_config *cfg, struct parm_wd *wd,
			 const struct parm_val *sdv, struct parm_err *err)
{
	const struct parm_kwset *s = &wd->set;
	char owner[160];
	int nr;

	if (wd->name && parm_kwset_has(s, PARM_KW_IORATE) && !parm_kwset_has(s, PARM_KW_PRIORITY))
		defer_err(wd,
			  parm_errf(err, &s->val[PARM_KW_IORATE]->loc,
				    "wd=%s: a workload iorate= also needs priority=", wd->name),
			  err);
	if (!sdv)
		return 0;
	snprintf(owner, sizeof(owner), "wd=%s", wd->name ? wd->name : "default");
	nr = parm_sd_resolve(cfg, sdv, owner, &wd->sd_idx, err);
	if (nr < 0)
		return defer_err(wd, nr, err);
	wd->nr_sd = (size_t)nr;
	return defer_err(wd, check_xfer_align(cfg, wd, err), err);
}

int parm_apply_wd(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_wd *wd,
		  struct parm_err *err)
{
	const struct parm_val *sdv = def->set.val[PARM_KW_SD];
	int ret = wd_defaults(wd, def);

	for (int kw = 0; kw < PARM_KW_NR && !ret; kw++)
		if (def->set.val[kw])
			ret = wd_one(wd, (enum parm_kw)kw, def->set.val[kw], err);
	if (!ret && def->name)
		ret = wd_check(cfg, wd, err);
	if (!ret && def->name && parm_wd_find(cfg, def->name) >= 0)
		ret = parm_errf(err, &def->loc, "a WD can only be defined once: wd=%s", def->name);
	return ret ? ret : wd_use_checks(cfg, wd, sdv, err);
}
