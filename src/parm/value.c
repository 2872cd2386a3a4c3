/* Turning one keyword's value into a typed field, with the error that points at it. */
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A limit as the user writes it: 1048576, not 1.04858e+06. */
static const char *limit_text(double v, char *buf, size_t len)
{
	if (v == trunc(v) && fabs(v) < 1e19)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%g", v);
	return buf;
}

int parm_get_double(const struct parm_val *v, enum parm_unit unit, double min, double max,
		    const char *what, double *out, struct parm_err *err)
{
	char lo[32], hi[32];
	struct parm_num n;

	/* VDbench 5.04.07 runs a list with its first value (rdpct=(50,70) read 50%; elapsed=(4,6)
	 * lists elapsed=4): so does ioramp, and cli_note_first_values() warns of them */
	if (v->kind == PARM_VAL_LIST && v->nr_items && v->items[0].kind == PARM_VAL_WORD)
		v = &v->items[0];
	if (v->kind != PARM_VAL_WORD)
		return parm_errf(err, &v->loc, "%s=%s: expected a single number, not a list", what,
				 v->text);
	if (parm_num_parse(v->text, unit, &n) || n.is_pct)
		return parm_errf(err, &v->loc, "invalid %s=%s; expected a number", what, v->text);
	if (n.value < min || n.value > max)
		return parm_errf(err, &v->loc, "invalid %s=%s; expected a value from %s to %s",
				 what, v->text, limit_text(min, lo, sizeof(lo)),
				 limit_text(max, hi, sizeof(hi)));
	*out = n.value;
	return 0;
}

int parm_get_u64(const struct parm_val *v, enum parm_unit unit, uint64_t min, uint64_t max,
		 const char *what, uint64_t *out, struct parm_err *err)
{
	double d;
	int ret = parm_get_double(v, unit, (double)min, (double)max, what, &d, err);

	if (ret)
		return ret;
	*out = (uint64_t)d;
	return 0;
}

int parm_get_u32(const struct parm_val *v, uint32_t min, uint32_t max, const char *what,
		 uint32_t *out, struct parm_err *err)
{
	uint64_t n;
	int ret = parm_get_u64(v, PARM_UNIT_PLAIN, min, max, what, &n, err);

	if (!ret)
		*out = (uint32_t)n;
	return ret;
}

int parm_get_word(const struct parm_val *v, const char *what, const char **out,
		  struct parm_err *err)
{
	if (v->kind != PARM_VAL_WORD)
		return parm_errf(err, &v->loc, "%s=%s: expected a single value, not a list", what,
				 v->text);
	*out = v->text;
	return 0;
}

int parm_get_yesno(const struct parm_val *v, const char *what, bool *out, struct parm_err *err)
{
	const char *w = NULL;
	int ret = parm_get_word(v, what, &w, err);

	if (ret)
		return ret;
	if (!strcasecmp(w, "yes") || !strcasecmp(w, "y"))
		*out = true;
	else if (!strcasecmp(w, "no") || !strcasecmp(w, "n"))
		*out = false;
	else
		return parm_errf(err, &v->loc, "invalid %s=%s; expected yes or no", what, w);
	return 0;
}

int parm_get_range(const struct parm_val *v, const char *what, struct parm_range *out,
		   struct parm_err *err)
{
	struct parm_num *n = NULL;
	int nr = parm_val_numbers(v, PARM_UNIT_BYTES, what, &n, err);

	if (nr < 0)
		return nr;
	if (nr < 2) {
		free(n);
		return parm_errf(err, &v->loc, "invalid %s=%s; expected (low,high)", what, v->text);
	}
	/* more values: the first two; low not below high is refused before a run
	 * (plan_check_runnable()), as VDbench 5.04.07 runs them and -s lists them (observed) */
	out->lo = n[0].value;
	out->hi = n[1].value;
	free(n);
	return 0;
}

static int openflag_word(const struct parm_val *w, struct parm_openflags *out, struct parm_err *err)
{
	const char *t = w->text;

	if (!strcasecmp(t, "o_direct") || !strcasecmp(t, "directio")) {
		out->flags |= O_DIRECT;
	} else if (!strcasecmp(t, "o_sync") || !strcasecmp(t, "o_dsync") ||
		   !strcasecmp(t, "o_rsync")) {
		out->flags |= O_DSYNC; /* all three are O_DSYNC on Linux (reference §13.5) */
	} else if (!strcasecmp(t, "fsync")) {
		out->has_fsync = true;
	} else if (!strncasecmp(t, "0x", 2) && t[2]) {
		char *end;
		unsigned long bits = strtoul(t + 2, &end, 16);

		if (*end || bits > UINT32_MAX)
			return parm_errf(err, &w->loc, "invalid openflags=%s; expected hex bits",
					 t);
		/* the engine opens with these alone: any other bit would be dropped unseen */
		if (bits & ~(unsigned long)(O_DIRECT | O_DSYNC))
			return parm_errf(err, &w->loc,
					 "openflags=%s: bits 0x%lx are not supported; expected "
					 "bits of O_DIRECT (0x%x) and O_DSYNC (0x%x), or o_direct, "
					 "o_sync, fsync",
					 t, bits & ~(unsigned long)(O_DIRECT | O_DSYNC), O_DIRECT,
					 O_DSYNC);
		out->flags |= (uint32_t)bits;
	} else if (!strcasecmp(t, "clear_cache") || !strcasecmp(t, "none")) {
		/* Solaris-only in VDbench; nothing to do on Linux */
	} else { /* -ERANGE: VDbench -s lists any word, its run refuses it (observed) */
		return parm_errf(err, &w->loc,
				 "invalid openflags=%s; expected o_direct, directio, "
				 "o_sync, o_dsync, o_rsync, fsync or 0x...",
				 t),
		       -ERANGE;
	}
	return 0;
}

int parm_get_openflags(const struct parm_val *v, struct parm_openflags *out, struct parm_err *err)
{
	memset(out, 0, sizeof(*out));
	if (v->kind == PARM_VAL_WORD)
		return openflag_word(v, out, err);
	for (size_t i = 0; i < v->nr_items; i++) {
		int ret;

		if (v->items[i].kind != PARM_VAL_WORD)
			return parm_errf(err, &v->items[i].loc, "nested list in openflags=");
		ret = openflag_word(&v->items[i], out, err);
		if (ret)
			return ret;
	}
	return 0;
}

void parm_names_free(char **names, size_t nr)
{
	if (!names)
		return;
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

int parm_get_names(const struct parm_val *v, const char *what, char ***out, size_t *nr,
		   struct parm_err *err)
{
	const char **words;
	char **names;
	int n = parm_val_words(v, &words, err);

	if (n < 0)
		return n;
	names = calloc((size_t)n + 1, sizeof(*names));
	if (!names) {
		free(words);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		if (!words[i][0]) {
			parm_names_free(names, (size_t)i);
			free(words);
			return parm_errf(err, &v->loc, "%s=%s: empty name", what, v->text);
		}
		names[i] = strdup(words[i]);
		if (!names[i]) {
			parm_names_free(names, (size_t)i);
			free(words);
			return -ENOMEM;
		}
	}
	free(words);
	*out = names;
	*nr = (size_t)n;
	return 0;
}

void parm_xfer_fini(struct parm_xfer *x)
{
	free(x->sizes_bytes);
	free(x->pcts);
	memset(x, 0, sizeof(*x));
}

/* A transfer size as written; the multiple of 512 is checked before a run, not by -s ([085]). */
/* -ERANGE: a WD's run refuses it, -s lists it (parm_get_wd_xfer()). */
static int xfer_size_ok(const struct parm_val *v, double size, struct parm_err *err)
{
	if (!(size > 0 && size <= 1024.0 * 1024 * 1024))
		return parm_errf(err, &v->loc, "invalid xfersize=%s; expected sizes from 1 to 1g",
				 v->text),
		       -ERANGE;
	return 0;
}

/* A WD's (size,pct,...) as VDbench 5.04.07 -s checks it (observed): every size a multiple of
 * 512, though a single xfersize= need not be ([085]), and percentages whose total rounds to 100
 * (99.5 and 100.49 pass, 99.49 is "99"). A file-system FWD's total must be 100 and its sizes
 * may be anything. */
static int xfer_raw_dist(const struct parm_val *v, const struct parm_xfer *x, double total,
			 struct parm_err *err)
{
	for (size_t i = 0; i < x->nr; i++)
		if (x->sizes_bytes[i] % 512)
			return parm_errf(
				err, &v->loc,
				"xfersize=%s: %llu is not a multiple of 512 bytes; expected "
				"sizes such as 512, 4k or 1.5k in a distribution",
				v->text, (unsigned long long)x->sizes_bytes[i]);
	if (floor(total + 0.5) != 100)
		return parm_errf(err, &v->loc,
				 "xfersize=%s: the percentages add up to %g; expected 100 (within "
				 "rounding)",
				 v->text, total);
	return 0;
}

/* (size,pct,...) adding up to 100 ([086]). */
static int xfer_dist(const struct parm_val *v, const struct parm_num *n, int nr, bool is_raw,
		     struct parm_xfer *out, struct parm_err *err)
{
	double total = 0;
	size_t pairs = (size_t)nr / 2;

	if (nr % 2)
		return parm_errf(err, &v->loc,
				 "invalid xfersize=%s; expected (size,pct,size,pct...) pairs or "
				 "(min,max,align)",
				 v->text);
	out->kind = PARM_XFER_DIST;
	out->sizes_bytes = calloc(pairs, sizeof(*out->sizes_bytes));
	out->pcts = calloc(pairs, sizeof(*out->pcts));
	if (!out->sizes_bytes || !out->pcts)
		return -ENOMEM;
	out->nr = pairs;
	for (size_t i = 0; i < pairs; i++) {
		int ret = xfer_size_ok(v, n[2 * i].value, err);

		if (ret)
			return ret;
		out->sizes_bytes[i] = (uint64_t)n[2 * i].value;
		out->pcts[i] = n[2 * i + 1].value;
		if (!(out->pcts[i] >= 0 && out->pcts[i] <= 100))
			return parm_errf(err, &v->loc,
					 "invalid xfersize=%s; expected percentages from 0 to 100",
					 v->text);
		total += out->pcts[i];
	}
	if (is_raw)
		return xfer_raw_dist(v, out, total, err);
	if (fabs(total - 100.0) > 0.0001)
		return parm_errf(err, &v->loc,
				 "xfersize=%s: the percentages add up to %g; expected 100", v->text,
				 total);
	return 0;
}

/* (min,max,align) ([087]: min above max is refused). */
static int xfer_range(const struct parm_val *v, const struct parm_num *n, struct parm_xfer *out,
		      struct parm_err *err)
{
	int ret;

	out->kind = PARM_XFER_RANGE;
	ret = xfer_size_ok(v, n[0].value, err);
	if (!ret)
		ret = xfer_size_ok(v, n[1].value, err);
	if (!ret)
		ret = xfer_size_ok(v, n[2].value, err);
	if (ret)
		return ret;
	out->min_bytes = (uint64_t)n[0].value;
	out->max_bytes = (uint64_t)n[1].value;
	out->align_bytes = (uint64_t)n[2].value;
	if (out->min_bytes > out->max_bytes)
		return parm_errf(
			err, &v->loc,
			"invalid xfersize=%s; expected (min,max,align) with min <= max, or "
			"(size,pct,...) pairs",
			v->text);
	return 0;
}

static int get_xfer(const struct parm_val *v, bool is_raw, struct parm_xfer *out,
		    struct parm_err *err)
{
	struct parm_num *n = NULL;
	int nr, ret;

	memset(out, 0, sizeof(*out));
	nr = parm_val_numbers(v, PARM_UNIT_BYTES, "xfersize", &n, err);
	if (nr < 0)
		return nr;
	if (nr == 1) {
		out->kind = PARM_XFER_FIXED;
		out->nr = 1;
		out->sizes_bytes = malloc(sizeof(*out->sizes_bytes));
		ret = out->sizes_bytes ? xfer_size_ok(v, n[0].value, err) : -ENOMEM;
		if (!ret)
			out->sizes_bytes[0] = (uint64_t)n[0].value;
	} else if (nr == 3) {
		ret = xfer_range(v, n, out, err);
	} else if (nr == 0) {
		ret = parm_errf(err, &v->loc, "xfersize=%s has no values; expected a size",
				v->text);
	} else {
		ret = xfer_dist(v, n, nr, is_raw, out, err);
	}
	free(n);
	if (ret)
		parm_xfer_fini(out);
	return ret;
}

int parm_get_xfer(const struct parm_val *v, struct parm_xfer *out, struct parm_err *err)
{
	int ret = get_xfer(v, false, out, err);

	return ret == -ERANGE ? -EINVAL : ret;
}

int parm_get_wd_xfer(const struct parm_val *v, struct parm_xfer *out, struct parm_err *err)
{
	return get_xfer(v, true, out, err);
}

int parm_keep_run_err(bool *has, struct parm_err *keep, int ret, const struct parm_err *err)
{
	if (ret != -ERANGE)
		return ret;
	if (!*has) {
		*has = true;
		*keep = *err;
	}
	return 0;
}
