/* Data validation for a whole execution (reference §12): the options, the checks of the plan
 * (key block = the smallest transfer on an SD, every size a multiple of it), the maps and
 * journals of the SDs, the recovery pass of -jr/-jro, the errors of each run to the observers,
 * and the totals and checkpoints at the end. Main thread; never on the I/O path. */
#include "exec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* ---- options ------------------------------------------------------------------------------ */

typedef int word_fn(struct dv_opts *o, const char *word, char *err, size_t errlen);

/* validate=word or validate=(word,word,...), and likewise journal=. */
static int opts_value(struct dv_opts *o, const struct parm_val *v, word_fn *fn,
		      struct parm_err *err)
{
	char msg[256];

	if (v->kind == PARM_VAL_LIST) {
		for (size_t i = 0; i < v->nr_items; i++) {
			const struct parm_val *it = &v->items[i];

			if (it->kind == PARM_VAL_LIST || fn(o, it->text, msg, sizeof(msg)))
				return parm_errf(err, &it->loc, "%s",
						 it->kind == PARM_VAL_LIST ? "a list in a list"
									   : msg);
		}
		return 0;
	}
	if (fn(o, v->text, msg, sizeof(msg)))
		return parm_errf(err, &v->loc, "%s", msg);
	return 0;
}

int eng_dv_opts(const struct eng_exec *x, struct dv_opts *o, struct parm_err *err)
{
	const struct parm_kwset *g = &x->plan->cfg->general.set;
	const struct dv_opts *cli = &x->opts->dv;
	int ret = 0;

	memset(o, 0, sizeof(*o));
	if (g->val[PARM_KW_VALIDATE])
		ret = opts_value(o, g->val[PARM_KW_VALIDATE], dv_opts_validate_word, err);
	if (!ret && g->val[PARM_KW_JOURNAL])
		ret = opts_value(o, g->val[PARM_KW_JOURNAL], dv_opts_journal_word, err);
	if (ret)
		return ret;
	o->is_on |= cli->is_on;
	o->is_reread |= cli->is_reread;
	o->is_no_preread |= cli->is_no_preread;
	o->is_journal |= cli->is_journal;
	o->is_recover |= cli->is_recover;
	o->is_recover_only |= cli->is_recover_only;
	o->is_noflush |= cli->is_noflush;
	o->is_ignore_pending |= cli->is_ignore_pending;
	o->is_time |= cli->is_time;
	o->is_maponly |= cli->is_maponly;
	return 0;
}

/* ---- the plan ------------------------------------------------------------------------------ */

/* The sizes a workload can transfer in a run, as multiples to check: each fixed or listed
 * size; for a range, its align= (every size drawn is a multiple of it). */
static size_t wd_units(const struct plan_run *r, const struct parm_wd *wd, uint64_t *out,
		       size_t max)
{
	const struct parm_xfer *x = &wd->xfer;
	size_t n = 0;

	if (r->ovr.has_xfersize) {
		out[n++] = r->ovr.xfersize_bytes;
	} else if (x->kind == PARM_XFER_RANGE) {
		out[n++] = x->align_bytes;
	} else {
		for (size_t i = 0; i < x->nr && n < max; i++)
			out[n++] = x->sizes_bytes[i];
	}
	return n;
}

/* The smallest unit run r transfers on sd; UINT64_MAX when it does not use sd. */
static uint64_t run_min_unit(const struct plan_run *r, size_t s)
{
	uint64_t min = UINT64_MAX, u[GEN_XFER_MAX_SIZES];

	for (size_t w = 0; w < r->nr_wds; w++) {
		size_t n = plan_run_wd_uses_sd(r, w, s)
				   ? wd_units(r, r->wds[w], u, IORAMP_ARRAY_SIZE(u))
				   : 0;

		for (size_t k = 0; k < n; k++)
			if (u[k] && u[k] < min)
				min = u[k];
	}
	return min;
}

/* The first workload of r on sd with a unit that is not a multiple of kb (*unit); NULL. */
static const struct parm_wd *run_bad_unit(const struct plan_run *r, size_t s, uint64_t kb,
					  uint64_t *unit)
{
	uint64_t u[GEN_XFER_MAX_SIZES];

	for (size_t w = 0; w < r->nr_wds; w++) {
		size_t n = plan_run_wd_uses_sd(r, w, s)
				   ? wd_units(r, r->wds[w], u, IORAMP_ARRAY_SIZE(u))
				   : 0;

		for (size_t k = 0; k < n; k++) {
			if (u[k] % kb) {
				*unit = u[k];
				return r->wds[w];
			}
		}
	}
	return NULL;
}

/* The key block of sd: the smallest unit any run transfers on it; every unit a multiple. */
static int key_block(const struct plan *plan, size_t s, uint32_t *out, struct parm_err *err)
{
	const struct parm_sd *sd = &plan->cfg->sds[s];
	uint64_t kb = UINT64_MAX, unit = 0;

	for (size_t i = 0; i < plan->nr_runs; i++) {
		uint64_t min = run_min_unit(&plan->runs[i], s);

		if (min < kb)
			kb = min;
	}
	if (kb == UINT64_MAX)
		kb = 4096; /* no workload on it: never used */
	if (kb % DV_SECTOR_BYTES || kb > UINT32_MAX)
		return parm_errf(err, &sd->loc,
				 "sd=%s: key block of %" PRIu64 " bytes (the smallest xfersize); "
				 "expected a multiple of 512 with data validation",
				 sd->name, kb);
	for (size_t i = 0; i < plan->nr_runs; i++) {
		const struct parm_wd *wd = run_bad_unit(&plan->runs[i], s, kb, &unit);

		if (wd)
			return parm_errf(
				err, &wd->loc,
				"wd=%s: xfersize %" PRIu64 " is not a multiple of %" PRIu64
				", the key block of sd=%s (its smallest xfersize); expected "
				"every xfersize on an SD to be a multiple of the smallest "
				"with data validation",
				wd->name, unit, kb, sd->name);
	}
	*out = (uint32_t)kb;
	return 0;
}

static bool plan_uses_sd(const struct plan *plan, size_t s)
{
	for (size_t i = 0; i < plan->nr_runs; i++)
		for (size_t w = 0; w < plan->runs[i].nr_wds; w++)
			if (plan_run_wd_uses_sd(&plan->runs[i], w, s))
				return true;
	return false;
}

/* align= must keep every I/O on key block boundaries. */
static int check_align(const struct parm_sd *sd, uint32_t kb, struct parm_err *err)
{
	const struct parm_val *v = sd->set.val[PARM_KW_ALIGN];

	if (v && sd->align_bytes % kb)
		return parm_errf(err, &v->loc,
				 "sd=%s: align=%" PRIu64 " is not a multiple of the key block "
				 "(%u bytes, the smallest xfersize); expected a multiple with "
				 "data validation",
				 sd->name, sd->align_bytes, kb);
	return 0;
}

int eng_dv_check(const struct eng_exec *x, struct parm_err *err)
{
	const struct parm_config *cfg = x->plan->cfg;

	if (!x->dv_opts.is_on)
		return 0;
	const struct parm_val *eng = cfg->general.set.val[PARM_KW_ENGINE];

	if (x->engine && (!strcmp(x->engine, "null") || x->is_model))
		return parm_errf(err,
				 x->opts->engine ? NULL
				 : eng		 ? &eng->loc
						 : NULL,
				 "data validation needs an engine that reads and writes; "
				 "engine=%s does no I/O",
				 x->is_model ? "model" : "null");
	for (size_t i = 0; i < cfg->nr_rds; i++)
		if (cfg->rds[i].trace)
			return parm_errf(err, &cfg->rds[i].loc,
					 "rd=%s: not supported yet: trace replay with data "
					 "validation",
					 cfg->rds[i].name);
	for (size_t s = 0; s < cfg->nr_sds; s++) {
		const struct parm_sd *sd = &cfg->sds[s];
		const struct parm_val *v = sd->set.val[PARM_KW_OFFSET];
		uint32_t kb;
		int ret;

		if (!plan_uses_sd(x->plan, s))
			continue;
		if (strlen(sd->name) > DV_NAME_BYTES)
			return parm_errf(err, &sd->loc,
					 "sd=%s: name longer than 8 characters; expected at most "
					 "8 with data validation (it is written into every sector)",
					 sd->name);
		if (v) /* VDbench refuses it too: key blocks are counted from byte 0 */
			return parm_errf(err, &v->loc,
					 "sd=%s: offset= cannot be used with data validation",
					 sd->name);
		ret = key_block(x->plan, s, &kb, err);
		if (!ret)
			ret = check_align(sd, kb, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- set-up -------------------------------------------------------------------------------- */

static uint64_t random_salt(const struct eng_exec *x)
{
	uint64_t v = 0;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v))
		return v;
	return eng_clock_tod_ns(&x->clock) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid() << 32;
}

static int sd_setup(struct eng_exec *x, size_t s, struct parm_err *err)
{
	const struct parm_sd *sd = &x->plan->cfg->sds[s];
	const struct parm_val *jdir = sd->set.val[PARM_KW_JOURNAL];
	struct eng_dv_sd *d = &x->dv->sds[s];
	const struct eng_target *t = &x->targets[s];
	uint64_t size = sd->size_bytes ? sd->size_bytes : t->size_bytes;
	char msg[1024];
	uint32_t kb = 0;
	int ret;

	if (sd->size_bytes && t->size_bytes && t->size_bytes < size)
		size = t->size_bytes;
	ret = key_block(x->plan, s, &kb, err); /* eng_dv_check() found it sound */
	if (ret)
		return ret;
	d->is_used = true;
	d->name = sd->name;
	d->lun = sd->lun;
	if (dv_map_init(&d->map, size, kb, random_salt(x)))
		return parm_errf(err, &sd->loc, "sd=%s: out of memory for the key map", sd->name);
	if (x->dv->opts.is_time) { /* 8 bytes a key block, as VDbench's -vt costs */
		d->good_ms = calloc(d->map.nr_blocks ? d->map.nr_blocks : 1, sizeof(*d->good_ms));
		if (!d->good_ms)
			return parm_errf(err, &sd->loc,
					 "sd=%s: out of memory for the times of validate=time",
					 sd->name);
	}
	dv_id_init(&d->id, sd->name, (uint32_t)getpid());
	d->jcfg = (struct dv_journal_cfg){
		.dir = jdir ? jdir->text : ".",
		.sd_name = sd->name,
		.is_flush = !x->dv->opts.is_noflush,
		.is_maponly = x->dv->opts.is_maponly,
		.max_bytes = x->dv->opts.journal_max_bytes,
		.owner = d->id.owner,
	};
	if (x->dv->opts.is_recover) {
		ret = dv_journal_load(&d->jcfg, &d->map, &d->rec, msg, sizeof(msg));
		if (ret)
			return parm_errf(err, &sd->loc, "sd=%s: -jr: %s", sd->name, msg);
		d->id.owner = d->jcfg.owner = d->rec.owner; /* the blocks carry the first owner */
	} else if (x->dv->opts.is_journal) {
		ret = dv_journal_write(&d->jnl, &d->jcfg, &d->map, msg, sizeof(msg));
		if (ret)
			return parm_errf(err, jdir ? &jdir->loc : &sd->loc, "sd=%s: journal: %s",
					 sd->name, msg);
	}
	return 0;
}

int eng_dv_new(struct eng_exec *x, struct parm_err *err)
{
	const struct parm_config *cfg = x->plan->cfg;
	struct eng_dv *dv;
	int ret;

	x->dv = NULL;
	if (!x->dv_opts.is_on)
		return 0;
	dv = aligned_alloc(IORAMP_CACHELINE, sizeof(*dv));
	if (!dv)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	memset(dv, 0, sizeof(*dv));
	atomic_init(&dv->nr_errors, 0);
	dv->opts = x->dv_opts;
	dv->nr_sds = cfg->nr_sds;
	dv->max_errors = cfg->general.data_errors ? cfg->general.data_errors : 1;
	dv->sds = calloc(cfg->nr_sds ? cfg->nr_sds : 1, sizeof(*dv->sds));
	x->dv = dv;
	if (!dv->sds)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	for (size_t s = 0; s < cfg->nr_sds; s++) {
		if (!x->needs[s].is_used)
			continue;
		ret = sd_setup(x, s, err);
		if (ret)
			return ret;
	}
	return 0;
}

void eng_dv_free(struct eng_dv *dv)
{
	if (!dv)
		return;
	for (size_t s = 0; dv->sds && s < dv->nr_sds; s++) {
		dv_journal_close(dv->sds[s].jnl);
		dv_map_fini(&dv->sds[s].map);
		free(dv->sds[s].rec.pending);
		free(dv->sds[s].good_ms);
	}
	free(dv->sds);
	free(dv);
}

/* ---- reporting ----------------------------------------------------------------------------- */

/* One error to the observers; good_ms: the block's last good I/O (-vt), 0 none. */
static void report(struct eng_exec *x, const struct eng_dv_sd *d, const char *op, uint64_t off,
		   uint64_t size, uint64_t tod_ns, uint64_t good_ms, const struct dv_mismatch *m)
{
	struct rep_dv_error e = {
		.sd = d->name,
		.lun = d->lun,
		.op = op,
		.lba_bytes = off,
		.size_bytes = size,
		.tod_ns = tod_ns,
		.m = m,
		.has_good_time = d->good_ms != NULL,
		.good_tod_ms = good_ms,
	};

	rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_DV_ERROR, .dv_error = &e });
	x->dv->nr_reported++;
}

static const char *phase_name(enum eng_dv_phase p)
{
	switch (p) {
	case ENG_DV_PREREAD:
		return "pre-read";
	case ENG_DV_REREAD:
		return "re-read";
	default:
		return "read";
	}
}

/* journal=max=N: how often each journal was cleared in the run (its workers are done). */
static void journal_clears(struct eng_exec *x)
{
	for (size_t s = 0; s < x->dv->nr_sds; s++) {
		struct eng_dv_sd *d = &x->dv->sds[s];
		uint64_t n = dv_journal_nr_clears(d->jnl);

		if (n <= d->nr_clears_told)
			continue;
		rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_JOURNAL_CLEARED,
							    .sd = d->name,
							    .dir = d->jcfg.dir,
							    .nr_bytes = d->jcfg.max_bytes,
							    .nr_known = n - d->nr_clears_told });
		d->nr_clears_told = n;
	}
}

int eng_dv_run_end(struct eng_exec *x, const struct eng_run *r, struct eng_worker *w,
		   uint32_t nr_workers, int status)
{
	if (!r->dv)
		return status;
	journal_clears(x);
	for (uint32_t i = 0; i < nr_workers; i++) {
		if (w[i].fatal)
			x->dv->is_unsafe = true; /* I/O may still be in flight: keep the journal */
		for (uint32_t k = 0; k < w[i].nr_dv_errors_kept; k++) {
			const struct eng_dv_error *e = &w[i].dv_errors[k];
			const struct eng_dv_sd *d = r->sds[e->run_sd].dv;

			report(x, d, phase_name(e->phase), e->offset_bytes, e->size_bytes,
			       e->tod_ns, e->good_ms, &e->m);
		}
		if (w[i].dv_fatal) {
			rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_JOURNAL_FAILED,
								    .err = -w[i].dv_fatal });
			status = ENG_FAILED;
		}
	}
	if (atomic_load_explicit(&x->dv->nr_errors, memory_order_relaxed) &&
	    status != ENG_INTERRUPTED)
		status = ENG_FAILED; /* VDbench aborts at the end of a run with errors */
	return status;
}

/* ---- recovery ------------------------------------------------------------------------------ */

struct recover_ctx {
	struct eng_exec *x;
	const struct eng_dv_sd *d;
};

static bool recover_error(void *ctx, const struct dv_mismatch *m)
{
	struct recover_ctx *c = ctx;
	struct eng_dv *dv = c->x->dv;
	uint64_t n = atomic_fetch_add_explicit(&dv->nr_errors, 1, memory_order_relaxed) + 1;

	report(c->x, c->d, "recovery", m->block_offset_bytes, m->block_bytes,
	       eng_clock_tod_ns(&c->x->clock), 0, m);
	return n < dv->max_errors;
}

static int recover_sd(struct eng_exec *x, size_t s, struct parm_err *err)
{
	struct eng_dv_sd *d = &x->dv->sds[s];
	struct recover_ctx ctx = { x, d };
	struct dv_validate_result res;
	uint64_t nr_errors_before = d->nr_errors;

	rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_RECOVERY_START, .sd = d->name });
	if (d->rec.is_from_backup)
		rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_RECOVERY_BACKUP,
							    .sd = d->name,
							    .dir = d->jcfg.dir });
	rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_RECOVERY_MAP,
						    .sd = d->name,
						    .nr_known = dv_map_nr_known(&d->map) });
	rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_RECOVERY_APPLIED,
						    .nr_before = d->rec.nr_before,
						    .nr_after = d->rec.nr_after });
	rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_RECOVERY_DONE, .sd = d->name });
	unsigned int flags = (x->dv->opts.is_ignore_pending ? DV_VALIDATE_IGNORE_PENDING : 0) |
			     (x->dv->opts.is_skip_read_all ? DV_VALIDATE_PENDING_ONLY : 0);

	if (dv_validate_all(x->targets[s].fd, &d->map, &d->id, d->rec.pending, d->rec.nr_pending,
			    flags, recover_error, &ctx, &res))
		return parm_errf(err, NULL, "out of memory"), ENG_FAILED;
	d->nr_validated += res.nr_validated;
	d->nr_errors = nr_errors_before + res.nr_errors;
	rep_set_event(x->reps, &(struct rep_event){
				       .kind = REP_EV_RECOVERY_RESULT,
				       .sd = d->name,
				       .nr_validated = res.nr_validated,
				       .nr_errors = res.nr_errors,
				       .nr_pending = d->rec.nr_pending,
				       .nr_torn = res.nr_torn,
			       });
	if (res.io_error) {
		parm_errf(err, NULL,
			  "sd=%s: lun=%s: read at %" PRIu64 " failed during recovery: %s", d->name,
			  d->lun, res.io_error_offset_bytes, strerror(-res.io_error));
		return ENG_FAILED;
	}
	return ENG_OK;
}

/* A new journal (a checkpoint) for every SD: the map holds everything so far. */
static int checkpoint(struct eng_exec *x, struct parm_err *err)
{
	for (size_t s = 0; s < x->dv->nr_sds; s++) {
		struct eng_dv_sd *d = &x->dv->sds[s];
		char msg[1024];

		if (!d->is_used || (!d->jnl && !x->dv->opts.is_recover))
			continue;
		if (dv_journal_write(&d->jnl, &d->jcfg, &d->map, msg, sizeof(msg))) {
			parm_errf(err, NULL, "sd=%s: journal: %s", d->name, msg);
			return ENG_FAILED;
		}
	}
	return ENG_OK;
}

int eng_dv_begin(struct eng_exec *x, struct parm_err *err)
{
	struct eng_dv *dv = x->dv;
	int status = ENG_OK;

	if (!dv)
		return ENG_OK;
	for (size_t s = 0; s < dv->nr_sds; s++) {
		const struct eng_dv_sd *d = &dv->sds[s];

		if (!d->is_used)
			continue;
		rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_DV_MAP,
							    .sd = d->name,
							    .nr_blocks = d->map.nr_blocks,
							    .block_bytes = d->map.block_bytes });
		if (d->jnl)
			rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_JOURNAL_CREATED,
								    .sd = d->name,
								    .dir = d->jcfg.dir });
	}
	if (!dv->opts.is_recover)
		return ENG_OK;
	dv->is_recovered = true;
	for (size_t s = 0; status == ENG_OK && s < dv->nr_sds; s++) {
		if (!dv->sds[s].is_used)
			continue;
		status = recover_sd(x, s, err);
		if (status == ENG_OK &&
		    atomic_load_explicit(&dv->nr_errors, memory_order_relaxed) >= dv->max_errors)
			break;
	}
	if (status == ENG_OK && atomic_load_explicit(&dv->nr_errors, memory_order_relaxed))
		status = ENG_FAILED; /* no workload runs over data found bad */
	if (checkpoint(x, err) != ENG_OK)
		status = ENG_FAILED;
	return status;
}

int eng_dv_formatted(struct eng_exec *x, struct parm_err *err)
{
	bool is_changed = false;

	if (!x->dv)
		return ENG_OK;
	for (size_t s = 0; s < x->dv->nr_sds; s++) {
		struct eng_dv_sd *d = &x->dv->sds[s];

		if (!d->is_used || !x->needs[s].is_format)
			continue;
		for (uint64_t b = x->needs[s].format_from_bytes / d->map.block_bytes;
		     b < d->map.nr_blocks; b++) {
			is_changed |= d->map.keys[b] != 0;
			d->map.keys[b] = 0;
		}
	}
	return is_changed ? checkpoint(x, err) : ENG_OK;
}

/* ---- end ----------------------------------------------------------------------------------- */

int eng_dv_end(struct eng_exec *x, int status)
{
	struct eng_dv *dv = x->dv;
	struct rep_dv_summary sum = { 0 };
	struct parm_err err;

	if (!dv)
		return status;
	for (size_t s = 0; s < dv->nr_sds; s++) {
		sum.nr_validated += dv->sds[s].nr_validated;
		sum.nr_errors += dv->sds[s].nr_errors;
	}
	sum.is_journal = dv->opts.is_journal;
	sum.is_recovered = dv->is_recovered;
	if (!dv->is_unsafe && checkpoint(x, &err) != ENG_OK) {
		rep_set_event(x->reps,
			      &(struct rep_event){ .kind = REP_EV_ERROR, .text = err.msg });
		status = ENG_FAILED;
	}
	rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_DV_TOTALS,
						    .nr_validated = sum.nr_validated,
						    .nr_errors = sum.nr_errors });
	for (size_t s = 0; s < dv->nr_sds; s++) {
		const struct eng_dv_sd *d = &dv->sds[s];
		uint64_t lost = atomic_load_explicit(&d->nr_lost, memory_order_relaxed);

		if (lost)
			rep_set_event(x->reps,
				      &(struct rep_event){ .kind = REP_EV_DV_COVERAGE,
							   .sd = d->name,
							   .nr_errors = lost,
							   .nr_known = dv_map_nr_known(&d->map),
							   .nr_blocks = d->map.nr_blocks });
	}
	rep_set_event(x->reps,
		      &(struct rep_event){ .kind = REP_EV_DV_SUMMARY, .dv_summary = &sum });
	if (sum.nr_errors > dv->nr_reported)
		rep_set_event(x->reps,
			      &(struct rep_event){ .kind = REP_EV_DV_UNLISTED,
						   .nr_errors = sum.nr_errors - dv->nr_reported,
						   .nr_kept = ENG_DV_ERR_RING });
	if (sum.nr_errors + x->nr_io_errors)
		rep_set_event(x->reps,
			      &(struct rep_event){ .kind = REP_EV_ERROR_TOTAL,
						   .nr_errors = sum.nr_errors + x->nr_io_errors,
						   .is_boxed = true });
	if (sum.nr_errors)
		return status == ENG_INTERRUPTED ? status : ENG_FAILED;
	if (status == ENG_OK && !sum.nr_validated && !dv->opts.is_recover_only) {
		rep_set_event(x->reps, &(struct rep_event){ .kind = REP_EV_DV_NOTHING });
		return ENG_FAILED; /* VDbench aborts such a run (reference §12.1) */
	}
	return status;
}
