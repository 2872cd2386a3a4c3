/* Private to src/parm: file-system definitions as written, before fsd_apply.c types them. */
#ifndef IORAMP_PARM_FSD_INT_H
#define IORAMP_PARM_FSD_INT_H

#include "ioramp/parm.h"

enum { FS_SEC_FSD, FS_SEC_FWD, FS_SEC_RD, FS_SEC_NR };

#define FS_MAX_KW 32

/* A definition's keywords (canonical names) and their values, in the order last written. */
struct fs_kwset {
	const char *keys[FS_MAX_KW];
	const struct parm_val *vals[FS_MAX_KW];
	uint32_t seq[FS_MAX_KW];
	size_t nr;
	uint32_t next_seq;
};

const struct parm_val *fs_kwset_get(const struct fs_kwset *s, const char *key);

struct fs_raw_def {
	int sec;
	const char *name; /* points into the lexed items */
	struct parm_loc loc;
	struct fs_kwset set;
};

struct fs_raw {
	struct fs_raw_def *defs;
	size_t nr_defs;
	struct fs_kwset defaults[FS_SEC_NR];
	int sec;
	struct fs_kwset *cur;
	const char *cur_name;
};

#endif /* IORAMP_PARM_FSD_INT_H */
