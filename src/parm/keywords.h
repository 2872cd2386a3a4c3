/* Private to src/parm: keyword tables beyond what parm.h exports. */
#ifndef IORAMP_PARM_KEYWORDS_H
#define IORAMP_PARM_KEYWORDS_H

#include <stdbool.h>

#include "ioramp/parm.h"

enum {
	PARM_KWF_EXACT = 1u << 0,  /* VDbench accepts the keyword only written in full */
	PARM_KWF_SINGLE = 1u << 1, /* one value, not a list (RD seekpct=) */
};

/* What a written keyword resolved to in a section. */
struct parm_kw_match {
	enum parm_kw kw;
	unsigned int flags; /* PARM_KWF_* */
	bool is_abbrev;	    /* written shorter than the keyword */
};

/* Resolves a written keyword in a section. Returns 0, -ENOENT (unknown) or -EINVAL (a
 * single letter). */
int parm_kw_match(enum parm_section sec, const char *written, struct parm_kw_match *out);

/* A section other than sec that has the keyword written in full (for "wrong order" hints), or
 * -ENOENT. */
int parm_kw_other_section(enum parm_section sec, const char *written);

/* The keyword of sec, accepted only in full, that written abbreviates (for hints), or NULL. */
const char *parm_kw_full_only(enum parm_section sec, const char *written);

/* The keyword closest to a mistyped one ("did you mean"), of sec or, when closer, of another
 * section (then *other_sec is that section, else -1); NULL when none is close. */
const char *parm_kw_suggest(enum parm_section sec, const char *written, int *other_sec);

/* "general", "sd", "wd", ... */
const char *parm_section_name(enum parm_section sec);

#endif /* IORAMP_PARM_KEYWORDS_H */
