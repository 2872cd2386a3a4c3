/* Private to src/parm: definitions as written (keyword sets) before they become typed structs,
 * and the helpers that turn values into typed fields. */
#ifndef IORAMP_PARM_BUILD_H
#define IORAMP_PARM_BUILD_H

#include "lexer.h"

/* An SD's host= or lun= value in the order written (host/lun pairs, [053]). */
struct parm_raw_hl {
	const struct parm_val *val;
	bool is_lun;
};

/* A definition as written: its type keyword, name and the keywords it (or its default) set. */
struct parm_raw_def {
	enum parm_section sec;
	char *name;
	struct parm_loc loc; /* of the name */
	struct parm_kwset set;
	struct parm_kwset wd_default; /* RD only: wd=default when the RD was written */
	struct parm_raw_hl *hl;	      /* SD only: its own host= and lun= values, in order */
	size_t nr_hl;
};

struct parm_raw {
	struct parm_raw_def *defs;
	size_t nr_defs;
	size_t cap_defs;
	struct parm_kwset defaults[PARM_SEC_NR]; /* xxx=default as at the end of the files */
	struct parm_item **item_blocks; /* every lexed item, kept alive for the parm_val pointers */
	size_t *nr_items;
	size_t nr_blocks;
};

/* Lexes every logical line of src and files its items into definitions (define.c). Returns 0
 * or -EINVAL with *err; raw keeps what was built either way. */
int parm_define(struct parm_config *cfg, const struct parm_source *src, struct parm_raw *raw,
		struct parm_err *err);

/* Turns the raw definitions into the typed config; each returns 0 or -EINVAL with *err. */
int parm_apply_general(struct parm_config *cfg, const struct parm_kwset *set, struct parm_err *err);
int parm_apply_hd(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_err *err);
/* The values of an HD keyword set, hd=default's included. */
int parm_check_hd_set(const struct parm_kwset *set, struct parm_err *err);
/* SDs: every sd= definition with count= replication, then VDbench's SD order (apply_sd.c). */
int parm_apply_sds(struct parm_config *cfg, const struct parm_raw *raw, struct parm_err *err);
int parm_apply_wd(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_wd *wd,
		  struct parm_err *err);
int parm_apply_rd(struct parm_config *cfg, const struct parm_raw_def *def, struct parm_err *err);

/* Checks between definitions once all are typed (check.c): host= references, mount=,
 * concatenatesds= and WD threads=, validate= with pattern=. */
int parm_check_config(const struct parm_config *cfg, struct parm_err *err);

/* RD pieces (rd_rates.c, rd_loops.c). */
int parm_rd_rates(const struct parm_val *v, struct parm_rate **out, struct parm_err *err);
int parm_rd_distribution(struct parm_rd *rd, const struct parm_val *v, struct parm_err *err);
int parm_rd_check_variable(const struct parm_rd *rd, struct parm_err *err);
int parm_rd_loops(struct parm_rd *rd, const struct parm_kwset *set, struct parm_err *err);
bool parm_kw_is_loop(enum parm_kw kw);

void parm_sd_fini(struct parm_sd *sd);
void parm_wd_fini(struct parm_wd *wd);
void parm_rd_fini(struct parm_rd *rd);

/* Makes room for element nr of *arr (nr elements in use), doubling when nr is a power of two
 * so that appending n definitions costs O(n). Returns 0 or -ENOMEM. */
int parm_grow(void **arr, size_t nr, size_t elem);

#define PARM_MAX_DEFS 16384 /* sd, wd or rd definitions after count= replication */

/* ---- value helpers (value.c) ---- */

/* One number in [min, max]; what names the keyword in the message. */
int parm_get_double(const struct parm_val *v, enum parm_unit unit, double min, double max,
		    const char *what, double *out, struct parm_err *err);
int parm_get_u64(const struct parm_val *v, enum parm_unit unit, uint64_t min, uint64_t max,
		 const char *what, uint64_t *out, struct parm_err *err);
int parm_get_u32(const struct parm_val *v, uint32_t min, uint32_t max, const char *what,
		 uint32_t *out, struct parm_err *err);
/* A single word (not a list). */
int parm_get_word(const struct parm_val *v, const char *what, const char **out,
		  struct parm_err *err);
/* yes/no (and y/n). */
int parm_get_yesno(const struct parm_val *v, const char *what, bool *out, struct parm_err *err);
/* (lo,hi) for range= and hotband=. */
int parm_get_range(const struct parm_val *v, const char *what, struct parm_range *out,
		   struct parm_err *err);
/* openflags=o_direct, (o_direct,fsync), 0x...; -ERANGE (err filled) for a word it does not
 * know, which VDbench -s lists and its run refuses (parm_keep_run_err()). */
int parm_get_openflags(const struct parm_val *v, struct parm_openflags *out, struct parm_err *err);
/* A word or a list of words, strdup'ed into a new array. */
int parm_get_names(const struct parm_val *v, const char *what, char ***out, size_t *nr,
		   struct parm_err *err);
void parm_names_free(char **names, size_t nr);
/* xfersize=: size, (size,pct,...) or (min,max,align). */
/* Keeps the error of ret -ERANGE (a value VDbench -s lists and its run refuses) in *keep for a
 * run to report (struct parm_sd.run_err), the first one only, and returns 0; any other ret
 * passes. */
int parm_keep_run_err(bool *has, struct parm_err *keep, int ret, const struct parm_err *err);
int parm_get_xfer(const struct parm_val *v, struct parm_xfer *out, struct parm_err *err);
/* A WD's xfersize=: as parm_get_xfer(), with VDbench's raw-mode checks of a distribution (its
 * sizes multiples of 512, its total rounding to 100); -ERANGE (err filled) for a size of 0 or
 * less, which -s lists and a run refuses. */
int parm_get_wd_xfer(const struct parm_val *v, struct parm_xfer *out, struct parm_err *err);
void parm_xfer_fini(struct parm_xfer *x);

#endif /* IORAMP_PARM_BUILD_H */
