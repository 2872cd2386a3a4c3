/* Private to src/cli: the runs of a plan synthesized one I/O at a time (trace synth writes
 * them, trace profile --check measures them). */
#ifndef IORAMP_CLI_SYNTH_H
#define IORAMP_CLI_SYNTH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/synth.h"

struct plan;
struct parm_err;

struct cli_synth_opts {
	uint64_t seed;
	uint64_t duration_ns; /* 0: every run for its warmup= + elapsed= */
	bool is_all_runs;     /* every run of the plan back to back; else the first */
};

/* Called for every I/O in scheduled order; time_ns counts from the first run's start.
 * Returns 0, or -errno to stop. */
typedef int cli_synth_emit_fn(void *ctx, const struct eng_synth_io *io);

/* Synthesizes the runs o asks for into emit. Returns the number of I/Os, -EINVAL with *err
 * filled (a run that cannot be synthesized), or emit's -errno. */
int64_t cli_synth_plan(const struct plan *plan, const struct cli_synth_opts *o,
		       cli_synth_emit_fn *emit, void *ctx, struct parm_err *err);

struct trace_profile_cfg;

/* `ioramp trace profile [--check]` (trace_check.c): the profile of cfg's traces, each device's
 * packing calibrated by synthesizing it, written to profile_out (when not NULL); with is_check
 * synthesized again with seed and the fidelity table printed (text or JSON). Returns 0 (with
 * is_check: every figure within its tolerance), 1 otherwise or on failure. */
int cli_trace_profile(const struct trace_profile_cfg *cfg, FILE *profile_out, bool is_check,
		      uint64_t seed, bool is_json);

/* `ioramp trace synth`. Returns an exit code. */
int cli_trace_synth(int argc, char **argv);

#endif /* IORAMP_CLI_SYNTH_H */
