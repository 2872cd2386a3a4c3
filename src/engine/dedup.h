/* Dedup (dedupratio=, dedupunit=, dedupsets=, reference §12.4): which blocks of dedupunit=
 * bytes of an SD carry unique data and which carry one of its sets of duplicates, fixed for
 * the whole execution, and the write data that follows from it. */
#ifndef IORAMP_ENGINE_DEDUP_H
#define IORAMP_ENGINE_DEDUP_H

#include <stddef.h>
#include <stdint.h>

#include "ioramp/parm.h"
#include "ioramp/report.h"

/* One SD's layout: unit u holds unique data when perm(u) < nr_unique, else a duplicate of set
 * set_base + (perm(u) - nr_unique) % nr_sets, where perm(u) = (mul * u + add) % nr_units is a
 * permutation of the units (mul is prime to nr_units): so the counts are exact, and the sets'
 * members are spread over the SD. Units past the last whole one are unique. */
struct eng_dedup_sd {
	uint64_t nr_units; /* 0: no dedup on this SD (unused, or smaller than a unit) */
	uint64_t nr_unique;
	uint64_t nr_sets;
	uint64_t set_base; /* set numbers are distinct over the SDs */
	uint64_t mul;
	uint64_t add;
};

struct eng_dedup {
	uint64_t unit_bytes;
	uint64_t nr_pattern_units; /* whole units in the pattern: set s uses unit s % this */
	double ratio;
	struct eng_dedup_sd *sds; /* per config SD */
	size_t nr_sds;
};

/* The layout of every SD whose size sd_bytes[i] is known (0: unused). Returns 0 (*out NULL
 * without dedupunit=), -ENOMEM, or -EINVAL with err naming the SD and the keyword. */
int eng_dedup_new(const struct parm_config *cfg, const uint64_t *sd_bytes, struct eng_dedup **out,
		  struct parm_err *err);
void eng_dedup_free(struct eng_dedup *d);

/* One line per SD: its units, unique ones and sets, and the ratio they give. */
void eng_dedup_describe(const struct eng_dedup *d, const struct parm_config *cfg,
			struct rep_set *reps);

/* The duplicates' data of a run: random words and zeros in every 4 KiB as compratio= asks.
 * NULL without memory. */
uint64_t *eng_dedup_pattern(const struct eng_dedup *d, double compratio, uint64_t seed);

/* The seed of every pattern, whatever --seed: the same set has the same data in every run and
 * every execution. */
#define ENG_DEDUP_SEED 0xdedu

/* Write data that compresses about compratio times: in every 4 KiB, random words (from a
 * generator seeded with seed and stream) and zeros after them. */
void eng_data_fill(uint64_t *p, uint64_t bytes, double compratio, uint64_t seed, uint64_t stream);

/* A write of size bytes at offset of config SD sd into buf: duplicate units get their set's
 * data, unique ones keep buf's and get a stamp of their offset and nr (the worker's count of
 * writes) in their first 8 bytes and in those of every 4 KiB after. */
void eng_dedup_fill(const struct eng_dedup *d, const uint64_t *pattern, uint32_t sd, char *buf,
		    uint64_t offset, uint32_t size, uint64_t nr);

#endif /* IORAMP_ENGINE_DEDUP_H */
