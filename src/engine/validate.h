/* Private to src/engine: data validation as the engine drives it (reference §12). The
 * execution's maps and journals (validate_exec.c) and the worker's side of every I/O of an SD
 * under validation (validate.c): one I/O per key block, a pre-read before a write, the write's
 * data and journal records, the re-read, and the checks. Without validation none of this runs:
 * the worker's payload stage is another one. */
#ifndef IORAMP_ENGINE_VALIDATE_H
#define IORAMP_ENGINE_VALIDATE_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ioramp/compiler.h"
#include "ioramp/dv.h"

struct eng_exec;
struct eng_run;
struct eng_slot;
struct eng_wsd;
struct eng_worker;
struct eng_pending;
struct parm_err;

enum {
	ENG_DV_ERR_RING = 64, /* validation errors a worker keeps for the controller to report */
};

/* What an I/O slot is doing for validation (eng_slot.dv_phase). */
enum eng_dv_phase {
	ENG_DV_NONE,	/* validation off on this SD */
	ENG_DV_READ,	/* a workload read: known blocks are checked */
	ENG_DV_PREREAD, /* the read before a write: checked, then the write goes */
	ENG_DV_WRITE,	/* the write itself: keys and journal records at completion */
	ENG_DV_REREAD,	/* -vr: the read after the write */
};

/* One SD under validation, for the whole execution. The worker that owns the SD in a run is
 * the only writer during that run; the main thread between runs. */
struct eng_dv_sd {
	bool is_used;
	const char *name;
	const char *lun;
	struct dv_map map;
	struct dv_id id;
	struct dv_journal *jnl; /* NULL without journaling */
	struct dv_journal_cfg jcfg;
	struct dv_recovered rec;  /* -jr/-jro: what the journal said */
	uint64_t *good_ms;	  /* -vt: per key block, the last good read or write (ms since
				   * 1970, 0 none); NULL without -vt */
	uint64_t nr_validated;	  /* key blocks read and compared */
	uint64_t nr_errors;	  /* key blocks found in error */
	uint64_t nr_clears_told;  /* journal=max=: the journal's clears already reported */
	_Atomic uint64_t nr_lost; /* failed writes: their blocks' keys are lost (coverage) */
};

struct eng_dv {
	struct dv_opts opts;
	struct eng_dv_sd *sds; /* per config SD */
	size_t nr_sds;
	uint64_t max_errors; /* data_errors= */
	bool is_unsafe;	     /* a worker could not drain: the journals stay as they are */
	bool is_recovered;
	uint64_t nr_reported; /* errors handed to the observers */
	/* key blocks in error over every worker; none is recorded past max_errors */
	alignas(IORAMP_CACHELINE) _Atomic uint64_t nr_errors;
};

/* A validation error a worker keeps for the controller. */
struct eng_dv_error {
	uint32_t run_sd;
	enum eng_dv_phase phase;
	uint64_t offset_bytes;
	uint32_t size_bytes;
	uint64_t tod_ns;
	uint64_t good_ms; /* -vt: the block's last good read or write before; 0 none */
	struct dv_mismatch m;
};

/* The extra reads validation added to one interval's counts (completed and recorded as reads
 * there): they are in the interval's rate, as VDbench counts them, but not among the I/Os the
 * schedule asked for (the target verdict, collect.c). */
struct eng_dv_count {
	uint64_t nr_prereads; /* a known block read before its write */
	uint64_t nr_rereads;  /* -vr: the read after a write */
};

/* ---- execution (validate_exec.c), main thread ----------------------------------------------- */

/* The options of the command line merged with validate= and journal=. Returns 0 or -EINVAL
 * with err at the value. */
int eng_dv_opts(const struct eng_exec *x, struct dv_opts *o, struct parm_err *err);

/* With validation on (x->dv_opts), before anything is opened or created: key block sizes (every
 * xfersize a multiple of the smallest on its SD), align=, no offset=, SD names of 8 characters
 * at most, an engine that does I/O, no trace replay. Returns 0 or -EINVAL with err filled. */
int eng_dv_check(const struct eng_exec *x, struct parm_err *err);

/* With validation on: sets up every used SD's map and loads (-jr) or creates (-j) its journal.
 * Sets x->dv (NULL when off). Returns 0 or -errno with err filled. After the targets opened. */
int eng_dv_new(struct eng_exec *x, struct parm_err *err);
void eng_dv_free(struct eng_dv *dv);

/* Start of the execution: the map notes, and with -jr/-jro the recovery pass (errors to the
 * observers), then new journals. Returns an eng_status. */
int eng_dv_begin(struct eng_exec *x, struct parm_err *err);

/* After the format pass: the blocks it wrote are unknown again (with a journal, a checkpoint
 * makes that durable). Returns an eng_status. */
int eng_dv_formatted(struct eng_exec *x, struct parm_err *err);

/* After a run: the workers' validation errors to the observers. Returns ENG_FAILED when the
 * execution has found any, else status. */
int eng_dv_run_end(struct eng_exec *x, const struct eng_run *r, struct eng_worker *w,
		   uint32_t nr_workers, int status);

/* End of the execution: journals checkpointed, the totals printed and handed to the
 * observers, a run that validated nothing failed (as VDbench). Returns the final status. */
int eng_dv_end(struct eng_exec *x, int status);

/* ---- worker (validate.c): the hot path, owning worker only ------------------------------------ */

/* Sizes the worker's validation state (slot queue). Returns 0 or -ENOMEM. */
int eng_dv_worker_init(struct eng_worker *w);
void eng_dv_worker_fini(struct eng_worker *w);

/* The worker's side of every I/O is its payload stage, eng_payload_validate (engine_int.h). */

#endif /* IORAMP_ENGINE_VALIDATE_H */
