/* Private to src/engine: modelled drives (--engine model[:PRESET][,OPTION=VALUE...]). Each SD is
 * a drive of `units` parallel service units fed by one FIFO queue, with an optional write
 * cache, simulated in virtual time (clock.h): no lun is opened and nothing is read or written,
 * so every figure of such a run is the model's, never a measurement.
 *
 * Service time of one I/O of size bytes on a unit, mean in ns:
 *
 *     mean = op_us * 1000 + max(0, size - 4096) * 1000 / op_mbps
 *
 * (op_us: read_us or write_us, the service of a 4 KiB I/O; op_mbps: read_mbps or write_mbps,
 * one unit's bandwidth in MB/s of 10^6 bytes), drawn exponential around the mean (dist=exp,
 * the default) or exactly the mean (dist=fixed). An I/O starts on the first unit free, in
 * arrival order, so a drive is an M/G/c FIFO queue; it completes at start + service.
 *
 * The write cache (cache_mb > 0): a write that finds room (dirty bytes + its size at most
 * cache_mb MiB) completes after cache_us and its bytes are dirty until a unit has written them
 * (a destage job of the write's service, queued in the same FIFO as the reads, at the write's
 * arrival); a write that finds no room is written through (served by a unit, completing when
 * it is). An fsync completes once every destage queued before it is done. A drive starts each
 * run idle, with an empty cache. */
#ifndef IORAMP_ENGINE_MODEL_H
#define IORAMP_ENGINE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"

enum eng_model_dist {
	ENG_MODEL_EXP,
	ENG_MODEL_FIXED,
};

/* One modelled drive, as the options and the preset give it. */
struct eng_model {
	char preset[48]; /* the preset it started from, "" for none */
	uint32_t units;
	double read_us;
	double write_us;
	double read_mbps;
	double write_mbps;
	enum eng_model_dist dist;
	double cache_mb; /* 0: no write cache */
	double cache_us;
};

/* A named preset from a published spec sheet, with the sheet's figures the drive is derived
 * from (model_spec.c says how). */
struct eng_model_preset {
	const char *name;
	const char *source; /* the spec sheet */
	double read_iops;   /* random 4 KiB read at the sheet's queue depth */
	double write_iops;  /* random 4 KiB write */
	double read_lat_us; /* typical read latency (QD1) */
	double write_lat_us;
	double seq_read_mbps; /* sequential 128 KiB, MB/s of 10^6 bytes */
	double seq_write_mbps;
};

extern const struct eng_model_preset eng_model_presets[];
extern const size_t eng_model_nr_presets;

/* Whether engine names the model ("model" or "model:..."). */
bool eng_model_is(const char *engine);

/*
 * Parses "model", "model:PRESET", "model:PRESET,OPTION=VALUE,..." or "model:OPTION=VALUE,..."
 * into *m: a preset's drive, or units=1, read_us=write_us=100, mbps=1000, dist=exp, no cache,
 * then each option over it (units=, read_us=, write_us=, mbps= (both), read_mbps=,
 * write_mbps=, dist=exp|fixed, cache_mb=, cache_us=). Returns 0, or -EINVAL with msg saying
 * what is wrong and what was expected.
 */
int eng_model_parse(const char *engine, struct eng_model *m, char *msg, size_t msglen);

/* The drive of a preset: units = read_iops * read_lat_us (the units a QD-saturating random
 * read keeps busy), read_us = read_lat_us, write_us = units / write_iops (the sustained write
 * rate of every unit busy), read_mbps and write_mbps such that units 128 KiB transfers give the
 * sheet's sequential figure, cache_us = write_lat_us and a cache of units * 128 KiB rounded up
 * to a MiB (not a sheet figure: room for one 128 KiB write per unit). */
void eng_model_from_preset(const struct eng_model_preset *p, struct eng_model *m);

/* Mean service of one I/O in ns (the formula above). */
double eng_model_mean_ns(const struct eng_model *m, bool is_write, uint64_t size_bytes);

/* Opens the model backend for cfg: one drive of m per file (cfg->files[i].stream seeds its
 * service times), waiting through cfg->sleeper. Returns 0 or -errno. */
int eng_model_open(const struct eng_model *m, const struct eng_backend_cfg *cfg,
		   struct eng_backend **out);

#endif /* IORAMP_ENGINE_MODEL_H */
