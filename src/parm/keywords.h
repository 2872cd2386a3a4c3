/* Private to src/parm: keyword tables beyond what parm.h exports. */
#ifndef IORAMP_PARM_KEYWORDS_H
#define IORAMP_PARM_KEYWORDS_H

#include "ioramp/parm.h"

/* A section other than sec that knows the keyword (for "wrong order" hints), or -ENOENT. */
int parm_kw_other_section(enum parm_section sec, const char *written);

/* "general", "sd", "wd", ... */
const char *parm_section_name(enum parm_section sec);

#endif /* IORAMP_PARM_KEYWORDS_H */
