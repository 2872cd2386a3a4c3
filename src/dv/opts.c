/* The data validation options of the command line and of validate= and journal= (reference §2,
 * §7): -v, -vr, -vw, -vt; -j, -jr, -jro, -jn, -jm, -jri, letters combining as in VDbench, and
 * the words of validate= and journal= with the abbreviations VDbench 5.04.07 -s accepts
 * (observed: a word may be cut short, some only to a few letters, some not at all). */
#include "ioramp/dv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int opts_errf(char *err, size_t errlen, const char *what, const char *expected)
{
	snprintf(err, errlen, "%s; expected %s", what, expected);
	return -EINVAL;
}

static bool cli_letter(struct dv_opts *o, char kind, char c)
{
	if (kind == 'v' && c == 'r')
		o->is_reread = true;
	else if (kind == 'v' && c == 'w')
		o->is_no_preread = true;
	else if (kind == 'v' && c == 't')
		o->is_time = true;
	else if (kind == 'j' && c == 'r')
		o->is_recover = true;
	else if (kind == 'j' && c == 'o')
		o->is_recover = o->is_recover_only = true;
	else if (kind == 'j' && c == 'n')
		o->is_noflush = true;
	else if (kind == 'j' && c == 'i')
		o->is_ignore_pending = true;
	else if (kind == 'j' && c == 'm')
		o->is_maponly = true;
	else
		return false;
	return true;
}

int dv_opts_cli(struct dv_opts *o, const char *arg, char *err, size_t errlen)
{
	char what[128];

	if (arg[0] != '-' || (arg[1] != 'v' && arg[1] != 'j'))
		return opts_errf(err, errlen, "not a validation option", "-v or -j");
	o->is_on = true;
	o->is_journal |= arg[1] == 'j';
	for (const char *c = arg + 2; *c; c++) {
		if (cli_letter(o, arg[1], *c))
			continue;
		snprintf(what, sizeof(what), "%s: '%c' is not supported", arg, *c);
		return opts_errf(err, errlen, what,
				 arg[1] == 'v' ? "-v, -vr, -vw or -vt"
					       : "-j, -jr, -jro, -jn, -jm or -jri");
	}
	return 0;
}

/* Whether word is full cut to min letters or more (VDbench compares the start of the word). */
static bool is_abbrev(const char *word, const char *full, size_t min)
{
	size_t n = strlen(word);

	return n >= min && n <= strlen(full) && !strncmp(word, full, n);
}

/* A number: VDbench -s accepts one among the words of validate= and journal= and it changes
 * nothing (observed: validate=1, validate=-1, validate=1.5, journal=5). */
static bool is_number(const char *word)
{
	char *end;

	if (!*word)
		return false;
	(void)strtod(word, &end);
	return !*end;
}

int dv_opts_validate_word(struct dv_opts *o, const char *word, char *err, size_t errlen)
{
	char what[128];

	if (is_abbrev(word, "yes", 1)) {
		o->is_on = true;
	} else if (is_abbrev(word, "no", 1)) {
		*o = (struct dv_opts){ 0 };
	} else if (is_abbrev(word, "no_preread", 3)) {
		o->is_on = o->is_no_preread = true;
	} else if (is_abbrev(word, "read_after_write", 1)) { /* the guide's validate=read */
		o->is_on = o->is_reread = true;
	} else if (is_abbrev(word, "reportdedupsets", 3) || !strcmp(word, "time")) {
		o->is_on = o->is_time = true;
	} else if (is_abbrev(word, "xfersize", 1) || is_abbrev(word, "ignore_zero_reads", 1)) {
		o->is_on = true; /* VDbench -s takes them; its guide says nothing of what they do */
	} else if (is_number(word)) {
	} else if (!strcmp(word, "continue")) {
		snprintf(what, sizeof(what),
			 "validate=continue is no longer supported (removed in VDbench 5.04)");
		return opts_errf(err, errlen, what,
				 "yes, no, read_after_write, no_preread, time or reportdedupsets");
	} else {
		snprintf(what, sizeof(what), "validate=%s is not a validate= word", word);
		return opts_errf(err, errlen, what,
				 "yes, no, read_after_write, no_preread, time, reportdedupsets, "
				 "xfersize or ignore_zero_reads");
	}
	return 0;
}

/* max=N: N bytes, a whole number with an optional k, m, g or t (VDbench -s refuses max=1.5 and
 * max= ; max=-1 it accepts: no limit). */
static int journal_max(struct dv_opts *o, const char *num)
{
	char *end;
	long long n = strtoll(num, &end, 10);
	const char *units = "kmgt";
	const char *u = *end ? strchr(units, *end) : NULL;

	if (end == num || (*end && (!u || end[1])))
		return -EINVAL;
	if (n <= 0) {
		o->journal_max_bytes = 0;
		return 0;
	}
	o->journal_max_bytes = (uint64_t)n << (u ? 10 * (u - units + 1) : 0);
	return 0;
}

int dv_opts_journal_word(struct dv_opts *o, const char *word, char *err, size_t errlen)
{
	char what[160];

	if (is_abbrev(word, "yes", 1)) {
		o->is_on = o->is_journal = true;
	} else if (is_abbrev(word, "no", 1)) {
		o->is_journal = o->is_recover = o->is_recover_only = false;
	} else if (is_abbrev(word, "noflush", 3)) {
		o->is_on = o->is_journal = o->is_noflush = true;
	} else if (is_abbrev(word, "recover", 1)) {
		o->is_on = o->is_journal = o->is_recover = true;
	} else if (!strcmp(word, "only")) {
		o->is_on = o->is_journal = o->is_recover = o->is_recover_only = true;
	} else if (!strcmp(word, "maponly")) {
		o->is_on = o->is_journal = o->is_maponly = true;
	} else if (is_abbrev(word, "ignore_pending", 1)) {
		o->is_on = o->is_journal = o->is_ignore_pending = true;
	} else if (is_abbrev(word, "skip_read_all", 1)) {
		o->is_on = o->is_journal = o->is_skip_read_all = true;
	} else if (!strncmp(word, "max=", 4)) {
		if (journal_max(o, word + 4)) {
			snprintf(what, sizeof(what), "invalid journal=%s", word);
			return opts_errf(err, errlen, what,
					 "max=N, N a whole number of bytes with an optional k, m, "
					 "g or t");
		}
		o->is_on = o->is_journal = true;
	} else if (!is_number(word)) {
		snprintf(what, sizeof(what), "journal=%s is not a journal= word", word);
		return opts_errf(err, errlen, what,
				 "yes, no, recover, only, noflush, maponly, skip_read_all, "
				 "ignore_pending or max=N");
	}
	return 0;
}
