/* Per-I/O draws shared inside src/gen/: transfer sizes, hotband and Poisson block indexes.
 * Private to the module; the engine only sees gen.h. */
#ifndef IORAMP_GEN_DRAW_H
#define IORAMP_GEN_DRAW_H

#include <stdint.h>

#include "ioramp/gen.h"

/* Validates x and fills cum[] (DIST only: cumulative probabilities, the last forced to 1).
 * Returns 0 or -EINVAL (see gen_wg_init()). */
int gen_xfer_prepare(const struct gen_xfer_cfg *x, double cum[GEN_XFER_MAX_SIZES]);

/* One transfer size from a prepared x. */
uint64_t gen_xfer_draw(const struct gen_xfer_cfg *x, const double *cum, struct gen_pcg *r);

/* A block index in [0, nr_blocks) from the hotband curve documented in gen.h. nr_blocks > 0. */
uint64_t gen_hotband_block(struct gen_pcg *r, uint64_t nr_blocks);

/* A Poisson(lambda) variate, lambda > 0: multiplication method below 10, Hormann's
 * transformed rejection (PTRS, 1993) above; both exact. */
uint64_t gen_poisson_draw(struct gen_pcg *r, double lambda);

#endif /* IORAMP_GEN_DRAW_H */
