/* trace synth: the I/O stream one run of a plan would issue, drawn by the engine's own
 * generators with the engine's own seeds, stream numbers and rate split, on the scheduled
 * arrival times, without opening any lun and without reading the clock. SD sizes come from
 * size=. The same plan, run and seed give the same stream, equal to what the engine issues
 * (its --record holds the scheduled times). */
#ifndef IORAMP_SYNTH_H
#define IORAMP_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct plan;
struct parm_err;

/* One scheduled I/O. time_ns is relative to the run's start. */
struct eng_synth_io {
	uint64_t time_ns;
	uint64_t offset_bytes;
	uint32_t size_bytes;
	uint32_t sd; /* index into plan->cfg->sds */
	bool is_write;
};

struct eng_synth;

/*
 * Prepares run run_idx of plan with seed. Refuses, with *err at the place in the text: an SD
 * the run uses without size= (no lun is opened, so its size is unknown); a run without a
 * schedule (iorate=max, the max run of a curve, a curve point or relative rate, whose target
 * depends on an observed rate); a trace= replay. Returns 0 with *out set, -EINVAL with *err,
 * or -ENOMEM. Free with eng_synth_free().
 */
int eng_synth_new(struct eng_synth **out, const struct plan *plan, size_t run_idx, uint64_t seed,
		  struct parm_err *err);

/* The next I/O in scheduled order (equal times: in generator order). Returns 1 with *io
 * filled, or 0 once no generator has anything left (every one at the end of a seekpct=eof
 * range, or a schedule that never releases anything). Not thread-safe per object. */
int eng_synth_next(struct eng_synth *s, struct eng_synth_io *io);

/* Seconds the run lasts: warmup= plus elapsed=. */
uint64_t eng_synth_run_seconds(const struct eng_synth *s);

/* Accepts NULL. */
void eng_synth_free(struct eng_synth *s);

#endif /* IORAMP_SYNTH_H */
