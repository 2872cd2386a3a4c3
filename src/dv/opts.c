/* The data validation options of the command line and of validate= and journal= (reference §2,
 * §7): -v, -vr, -vw; -j, -jr, -jro, -jn, -jri, letters combining as in VDbench. Options this
 * implementation does not have (-vt, -jm, skip_read_all, max=) are refused by name. */
#include "ioramp/dv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int opts_errf(char *err, size_t errlen, const char *what, const char *expected)
{
	snprintf(err, errlen, "%s; expected %s", what, expected);
	return -EINVAL;
}

int dv_opts_cli(struct dv_opts *o, const char *arg, char *err, size_t errlen)
{
	char what[128];

	if (arg[0] != '-' || (arg[1] != 'v' && arg[1] != 'j'))
		return opts_errf(err, errlen, "not a validation option", "-v or -j");
	o->is_on = true;
	o->is_journal |= arg[1] == 'j';
	for (const char *c = arg + 2; *c; c++) {
		bool is_ok = true;

		if (arg[1] == 'v' && *c == 'r')
			o->is_reread = true;
		else if (arg[1] == 'v' && *c == 'w')
			o->is_no_preread = true;
		else if (arg[1] == 'j' && *c == 'r')
			o->is_recover = true;
		else if (arg[1] == 'j' && *c == 'o')
			o->is_recover = o->is_recover_only = true;
		else if (arg[1] == 'j' && *c == 'n')
			o->is_noflush = true;
		else if (arg[1] == 'j' && *c == 'i')
			o->is_ignore_pending = true;
		else
			is_ok = false;
		if (!is_ok) {
			snprintf(what, sizeof(what), "%s: '%c' is not supported", arg, *c);
			return opts_errf(err, errlen, what,
					 arg[1] == 'v' ? "-v, -vr or -vw"
						       : "-j, -jr, -jro, -jn or -jri");
		}
	}
	return 0;
}

int dv_opts_validate_word(struct dv_opts *o, const char *word, char *err, size_t errlen)
{
	char what[128];

	if (!strcmp(word, "yes") || !strcmp(word, "y")) {
		o->is_on = true;
	} else if (!strcmp(word, "no") || !strcmp(word, "n")) {
		*o = (struct dv_opts){ 0 };
	} else if (!strcmp(word, "read_after_write")) {
		o->is_on = o->is_reread = true;
	} else if (!strcmp(word, "no_preread")) {
		o->is_on = o->is_no_preread = true;
	} else {
		snprintf(what, sizeof(what), "validate=%s is not supported", word);
		return opts_errf(err, errlen, what, "yes, no, read_after_write or no_preread");
	}
	return 0;
}

int dv_opts_journal_word(struct dv_opts *o, const char *word, char *err, size_t errlen)
{
	char what[128];

	if (!strcmp(word, "yes") || !strcmp(word, "y")) {
		o->is_on = o->is_journal = true;
	} else if (!strcmp(word, "no") || !strcmp(word, "n")) {
		o->is_journal = o->is_recover = o->is_recover_only = false;
	} else if (!strcmp(word, "recover")) {
		o->is_on = o->is_journal = o->is_recover = true;
	} else if (!strcmp(word, "only") || !strcmp(word, "recover_only")) {
		o->is_on = o->is_journal = o->is_recover = o->is_recover_only = true;
	} else if (!strcmp(word, "noflush")) {
		o->is_on = o->is_journal = o->is_noflush = true;
	} else if (!strcmp(word, "ignore_pending")) {
		o->is_on = o->is_journal = o->is_ignore_pending = true;
	} else {
		snprintf(what, sizeof(what), "journal=%s is not supported", word);
		return opts_errf(err, errlen, what,
				 "yes, no, recover, only, noflush or ignore_pending");
	}
	return 0;
}
