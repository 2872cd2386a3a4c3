/* The (op, offset, size) stream of one workload generator, one WD on one SD (reference §5,
 * §9.5-9.7). Offsets are drawn in a logical range [0, len) that maps onto at most two
 * physical pieces, so wrap-around ranges and a raw device's excluded block 0 cost one
 * comparison per I/O. */
#include "ioramp/gen.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "draw.h"

static bool is_pct(double v)
{
	return isfinite(v) && v >= 0 && v <= 100;
}

static enum gen_wg_fault cfg_check(const struct gen_wg_cfg *c)
{
	if (!is_pct(c->rdpct) || !is_pct(c->rhpct) || !is_pct(c->whpct))
		return GEN_WG_BAD_CFG;
	if ((unsigned int)c->seek > GEN_SEEK_POISSON)
		return GEN_WG_BAD_CFG;
	if (c->seek == GEN_SEEK_PCT && !is_pct(c->seekpct))
		return GEN_WG_BAD_CFG;
	if (c->seek == GEN_SEEK_POISSON && !(isfinite(c->poisson_lambda) && c->poisson_lambda > 0))
		return GEN_WG_BAD_CFG;
	if (c->has_stride && c->stride_min_bytes > c->stride_max_bytes)
		return GEN_WG_BAD_CFG;
	return GEN_WG_OK;
}

/* Splits the SD range into piece A = [start, SD end or range end) and piece B = the wrapped
 * part at the SD start, minus the raw-device guard; a piece too small for the largest
 * transfer is dropped. */
static enum gen_wg_fault wg_layout(struct gen_wg *g)
{
	const struct gen_wg_cfg *c = &g->cfg;
	uint64_t sd = c->sd_size_bytes, start = c->range.start_bytes;
	uint64_t len = c->range.len_bytes ? c->range.len_bytes : sd;
	uint64_t guard = !c->is_raw_device ? 0 /* reference §4: block 0 is never touched */
			 : c->guard_bytes  ? c->guard_bytes
					   : g->max_xfer_bytes;
	uint64_t a_end, b_end;

	if (start >= sd || len > sd)
		return GEN_WG_RANGE;
	a_end = len > sd - start ? sd : start + len;
	b_end = len - (a_end - start);
	start = start < guard ? guard : start;
	g->a_start_bytes = start;
	g->a_len_bytes = a_end > start ? a_end - start : 0;
	g->b_start_bytes = guard;
	g->len_bytes = b_end > guard ? b_end - guard : 0; /* piece B's length for now */
	if (g->len_bytes < g->max_xfer_bytes)
		g->len_bytes = 0;
	if (g->a_len_bytes < g->max_xfer_bytes) { /* B alone, renamed A */
		g->a_start_bytes = guard;
		g->a_len_bytes = g->len_bytes;
		g->len_bytes = 0;
	}
	g->len_bytes += g->a_len_bytes;
	return g->len_bytes >= g->max_xfer_bytes ? GEN_WG_OK : GEN_WG_RANGE;
}

/* Hit area [0, hitarea), miss area [hitarea, len) (reference §9.6). */
static enum gen_wg_fault wg_areas(struct gen_wg *g)
{
	const struct gen_wg_cfg *c = &g->cfg;
	uint64_t min_area = 2 * g->max_xfer_bytes;

	g->has_hits = c->rhpct > 0 || c->whpct > 0;
	if (g->has_hits) {
		if (c->hitarea_bytes < min_area || g->len_bytes < min_area ||
		    g->len_bytes - min_area < c->hitarea_bytes)
			return GEN_WG_HITAREA;
		g->miss_lo_bytes = c->hitarea_bytes;
	}
	if (c->is_hotband && g->len_bytes - g->miss_lo_bytes < GEN_HOTBAND_MIN_BYTES)
		return GEN_WG_HOTBAND;
	return GEN_WG_OK;
}

static enum gen_wg_fault wg_prepare(struct gen_wg *g, const struct gen_wg_cfg *cfg)
{
	enum gen_wg_fault f;

	memset(g, 0, sizeof(*g));
	f = cfg_check(cfg);
	if (f != GEN_WG_OK)
		return f;
	if (gen_xfer_prepare(&cfg->xfer, g->xfer_cum) < 0)
		return GEN_WG_BAD_XFER;
	g->cfg = *cfg;
	g->max_xfer_bytes = gen_xfer_max_bytes(&cfg->xfer);
	f = wg_layout(g);
	if (f == GEN_WG_OK)
		f = wg_areas(g);
	g->is_plain_random = cfg->seek == GEN_SEEK_PCT && cfg->seekpct >= 100 && !g->has_hits &&
			     !cfg->has_stride && !cfg->is_hotband;
	return f;
}

int gen_wg_init(struct gen_wg *g, const struct gen_wg_cfg *cfg, uint64_t seed, uint64_t stream)
{
	if (wg_prepare(g, cfg) != GEN_WG_OK)
		return -EINVAL;
	gen_pcg_seed(&g->rng, seed, stream);
	return 0;
}

enum gen_wg_fault gen_wg_check(const struct gen_wg_cfg *cfg, uint64_t *len_bytes)
{
	struct gen_wg g;
	enum gen_wg_fault f = wg_prepare(&g, cfg);

	if (len_bytes)
		*len_bytes = g.len_bytes;
	return f;
}

/* True with probability pct/100; certain outcomes consume no random draw. */
static bool wg_chance(struct gen_wg *g, double pct)
{
	if (pct >= 100)
		return true;
	if (pct <= 0)
		return false;
	return gen_pcg_unit(&g->rng) * 100 < pct;
}

static uint64_t wg_gran(const struct gen_wg *g, uint64_t size)
{
	return g->cfg.align_bytes ? g->cfg.align_bytes : size;
}

/* A random I/O must not straddle the end of piece A (the SD end of a wrapped range). */
static uint64_t wg_unstraddle(const struct gen_wg *g, uint64_t pos, uint64_t size)
{
	if (pos < g->a_len_bytes && pos + size > g->a_len_bytes)
		return g->a_len_bytes;
	return pos;
}

/* A uniform block in [lo, lo + len): every block lies wholly inside. len >= size. */
static uint64_t wg_uniform(struct gen_wg *g, uint64_t lo, uint64_t len, uint64_t size)
{
	uint64_t gran = wg_gran(g, size);

	return lo + gen_pcg_below(&g->rng, (len - size) / gran + 1) * gran;
}

/* Whether there is a sequential position, and it in *pos: g's own or the shared one. */
static bool wg_seq_pos(const struct gen_wg *g, uint64_t *pos)
{
	uint64_t end_plus1;

	if (!g->shared_seq) {
		*pos = g->seq_pos_bytes;
		return g->has_seq_pos;
	}
	end_plus1 = atomic_load_explicit(&g->shared_seq->end_plus1, memory_order_relaxed);
	*pos = end_plus1 ? end_plus1 - 1 : 0;
	return end_plus1 != 0;
}

static uint64_t wg_stride(struct gen_wg *g, uint64_t size)
{
	uint64_t gran = wg_gran(g, size);
	uint64_t span = (g->cfg.stride_max_bytes - g->cfg.stride_min_bytes) / gran + 1;
	uint64_t pos;

	if (!wg_seq_pos(g, &pos))
		pos = g->miss_lo_bytes;

	pos += g->cfg.stride_min_bytes + gen_pcg_below(&g->rng, span) * gran;
	if (pos > g->len_bytes - size) /* reference §5: a stride past the end restarts */
		pos = g->miss_lo_bytes;
	return pos;
}

static uint64_t wg_random_miss(struct gen_wg *g, uint64_t size, bool is_write)
{
	uint64_t lo = g->miss_lo_bytes, gran, nr, k;

	if (size != g->miss_size_bytes) { /* a new size: its granularity and block count */
		g->miss_size_bytes = size;
		g->miss_gran_bytes = wg_gran(g, size);
		g->miss_nr_blocks = (g->len_bytes - lo - size) / g->miss_gran_bytes + 1;
	}
	gran = g->miss_gran_bytes;
	nr = g->miss_nr_blocks;

	if (g->cfg.has_stride)
		return wg_stride(g, size);
	if (g->cfg.seek == GEN_SEEK_POISSON) {
		k = gen_poisson_draw(&g->rng, g->cfg.poisson_lambda) % nr;
	} else if (g->cfg.is_hotband) {
		k = gen_hotband_block(&g->rng, nr);
		if (is_write) /* reference §9.7: writes shifted by 1% of the band */
			k = (k + (nr + 50) / 100) % nr;
	} else {
		k = gen_pcg_below(&g->rng, nr);
	}
	return lo + k * gran;
}

/* The sequential block after a previous miss ending at pos (has_pos: there was one); may
 * shorten *size at an end. */
static int wg_seq_next(struct gen_wg *g, bool has_pos, uint64_t pos, uint64_t *pos_out,
		       uint64_t *size)
{
	uint64_t end = g->len_bytes;

	if (!has_pos) /* reference §9.5: range start, or a random block for seqnz */
		pos = g->cfg.seek == GEN_SEEK_SEQNZ
			      ? wg_uniform(g, g->miss_lo_bytes, end - g->miss_lo_bytes, *size)
			      : g->miss_lo_bytes;
	if (pos >= end) {
		if (g->cfg.seek == GEN_SEEK_EOF) {
			g->is_eof = true;
			return 1;
		}
		pos = g->miss_lo_bytes;
	}
	if (*size > end - pos) /* a short last block, as VDbench allows */
		*size = end - pos;
	if (pos < g->a_len_bytes && pos + *size > g->a_len_bytes)
		*size = g->a_len_bytes - pos;
	*pos_out = pos;
	return 0;
}

/* Next sequential block at the end of the previous miss; a shared position is claimed, so
 * that every block goes to one generator only. */
static int wg_sequential(struct gen_wg *g, uint64_t *pos_out, uint64_t *size)
{
	_Atomic uint64_t *end_plus1 = g->shared_seq ? &g->shared_seq->end_plus1 : NULL;
	uint64_t want = *size, seen;

	if (!end_plus1)
		return wg_seq_next(g, g->has_seq_pos, g->seq_pos_bytes, pos_out, size);
	seen = atomic_load_explicit(end_plus1, memory_order_relaxed);
	for (;;) {
		*size = want;
		if (wg_seq_next(g, seen != 0, seen ? seen - 1 : 0, pos_out, size))
			return 1;
		if (atomic_compare_exchange_weak_explicit(end_plus1, &seen, *pos_out + *size + 1,
							  memory_order_relaxed,
							  memory_order_relaxed))
			return 0;
	}
}

static bool wg_is_random(struct gen_wg *g)
{
	switch (g->cfg.seek) {
	case GEN_SEEK_PCT:
		return wg_chance(g, g->cfg.seekpct);
	case GEN_SEEK_POISSON:
		return true;
	default:
		return false;
	}
}

void gen_wg_share_seq(struct gen_wg *g, struct gen_seq_cursor *c)
{
	g->shared_seq = c;
}

/* Where logical position pos lies on the SD. */
static uint64_t wg_physical(const struct gen_wg *g, uint64_t pos)
{
	return g->cfg.offset_bytes + (pos < g->a_len_bytes
					      ? g->a_start_bytes + pos
					      : g->b_start_bytes + pos - g->a_len_bytes);
}

/* A miss at pos of size moves the sequential position past it, and the shared one when
 * is_shared_to_move (false when a sequential claim already moved it). */
static inline void wg_move_seq(struct gen_wg *g, uint64_t pos, uint64_t size,
			       bool is_shared_to_move)
{
	g->seq_pos_bytes = pos + size;
	g->has_seq_pos = true;
	if (g->shared_seq && is_shared_to_move)
		atomic_store_explicit(&g->shared_seq->end_plus1, pos + size + 1,
				      memory_order_relaxed);
}

/* gen_wg_next() of a plain random generator (the common case), with the same draws in the
 * same order: read or write, size, the block (no hit chance, a certain random miss). */
static int wg_plain_next(struct gen_wg *g, struct gen_io *io, bool is_write, uint64_t size)
{
	uint64_t pos;

	if (size != g->miss_size_bytes) /* wg_random_miss() caches the size's blocks */
		pos = wg_random_miss(g, size, is_write);
	else
		pos = g->miss_lo_bytes +
		      gen_pcg_below(&g->rng, g->miss_nr_blocks) * g->miss_gran_bytes;
	pos = wg_unstraddle(g, pos, size);
	wg_move_seq(g, pos, size, true); /* a random miss moves the shared position too */
	io->is_write = is_write;
	io->size_bytes = size;
	io->offset_bytes = wg_physical(g, pos);
	return 0;
}

int gen_wg_next(struct gen_wg *g, struct gen_io *io)
{
	bool is_write, is_hit, is_claimed = false;
	uint64_t size, pos;

	if (g->is_eof)
		return 1;
	is_write = !wg_chance(g, g->cfg.rdpct);
	size = g->cfg.xfer.kind == GEN_XFER_FIXED
		       ? g->cfg.xfer.size_bytes[0]
		       : gen_xfer_draw(&g->cfg.xfer, g->xfer_cum, &g->rng);
	if (g->is_plain_random)
		return wg_plain_next(g, io, is_write, size);
	is_hit = g->has_hits && wg_chance(g, is_write ? g->cfg.whpct : g->cfg.rhpct);
	if (is_hit)
		pos = wg_unstraddle(g, wg_uniform(g, 0, g->miss_lo_bytes, size), size);
	else if (wg_is_random(g))
		pos = wg_unstraddle(g, wg_random_miss(g, size, is_write), size);
	else if (wg_sequential(g, &pos, &size))
		return 1;
	else
		is_claimed = g->shared_seq != NULL; /* the claim moved the shared position */
	if (!is_hit) /* misses, random ones included, move the sequential position */
		wg_move_seq(g, pos, size, !is_claimed);
	io->is_write = is_write;
	io->size_bytes = size;
	io->offset_bytes = wg_physical(g, pos);
	return 0;
}
