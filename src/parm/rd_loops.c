/* An RD's for-loops (tests/parm/FINDINGS.md §1.2): forxfersize= ... forcompression= and their
 * short forms, nested in the order they were last written (a loop given again moves innermost),
 * numbers (words as VDbench reads them: parm_val_loop_numbers). The checks VDbench -s makes
 * on loop values: transfer sizes a multiple of 512 after clipping to 2^31-1 ([082], [083]), a
 * sane thread count ([084]), compression above 0 ([233]). compression=P is kept as the ratio
 * 100/P, as VDbench converts it. */
#include "build.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOOP_THREADS 100000.0
#define MAX_XFER_BYTES	 2147483647.0 /* VDbench clips to an int before its 512 check */

static bool is_loop_kw(int kw)
{
	return kw >= PARM_KW_FORCOMPRATIO && kw <= PARM_KW_FORXFERSIZE;
}

static enum parm_unit loop_unit(enum parm_kw kw)
{
	return kw == PARM_KW_FORXFERSIZE || kw == PARM_KW_FORHITAREA ? PARM_UNIT_BYTES
								     : PARM_UNIT_PLAIN;
}

static int check_value(const struct parm_rd *rd, struct parm_loop *lp, size_t i,
		       struct parm_err *err)
{
	struct parm_num *n = &lp->vals[i];
	double v = parm_num_signed(n);

	switch (lp->kw) {
	case PARM_KW_FORXFERSIZE:
		if (fmod(fmin(v, MAX_XFER_BYTES), 512.0) != 0)
			return parm_errf(err, &lp->loc,
					 "rd=%s: xfersize %.0f is not a multiple of 512 bytes; "
					 "expected 512, 4k, 1.5k, ...",
					 rd->name, fmin(v, MAX_XFER_BYTES));
		return 0;
	case PARM_KW_FORTHREADS:
		if (v > MAX_LOOP_THREADS)
			return parm_errf(err, &lp->loc,
					 "rd=%s: threads=%.0f; expected at most %.0f", rd->name, v,
					 MAX_LOOP_THREADS);
		return 0;
	case PARM_KW_FORCOMPRESSION:
		if (v == 0)
			return parm_errf(
				err, &lp->loc,
				"rd=%s: compression=0 has no compression ratio; expected a "
				"percentage above 0 (or forcompratio=)",
				rd->name);
		n->value = 100.0 / v; /* the ratio VDbench uses and shows as comp= */
		n->is_pct = false;
		return 0;
	default:
		return 0;
	}
}

static int add_loop(struct parm_rd *rd, enum parm_kw kw, const struct parm_val *v,
		    struct parm_err *err)
{
	struct parm_loop *loops = realloc(rd->loops, (rd->nr_loops + 1) * sizeof(*loops));
	struct parm_loop *lp;
	int nr, ret = 0;

	if (!loops)
		return -ENOMEM;
	rd->loops = loops;
	lp = &loops[rd->nr_loops++];
	memset(lp, 0, sizeof(*lp));
	lp->kw = kw;
	lp->loc = v->loc;
	nr = parm_val_loop_numbers(v, loop_unit(kw), parm_kw_name(kw), &lp->vals, err);
	if (nr < 0)
		return nr;
	lp->nr = (size_t)nr;
	if (!nr)
		return parm_errf(err, &v->loc, "rd=%s: %s=%s has no values; expected numbers",
				 rd->name, parm_kw_name(kw), v->text);
	for (size_t i = 0; !ret && i < lp->nr; i++)
		ret = check_value(rd, lp, i, err);
	return ret;
}

int parm_rd_loops(struct parm_rd *rd, const struct parm_kwset *set, struct parm_err *err)
{
	for (;;) {
		int next = -1;
		uint32_t last = rd->nr_loops ? set->seq[rd->loops[rd->nr_loops - 1].kw] : 0;
		int ret;

		for (int kw = 0; kw < PARM_KW_NR; kw++)
			if (is_loop_kw(kw) && set->val[kw] && set->seq[kw] > last &&
			    (next < 0 || set->seq[kw] < set->seq[next]))
				next = kw;
		if (next < 0)
			return 0;
		ret = add_loop(rd, (enum parm_kw)next, set->val[next], err);
		if (ret)
			return ret;
	}
}

bool parm_kw_is_loop(enum parm_kw kw)
{
	return is_loop_kw(kw);
}
