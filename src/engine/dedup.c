/* Dedup (reference §12.4), as VDbench 5.04.07 lays it out: of an SD's N blocks of dedupunit=
 * bytes, floor(N / dedupratio - S) hold unique data and the rest are duplicates spread over S
 * sets (dedupsets=, 5% of N by default), so the SD holds N / (unique + S) times less distinct
 * data than it has blocks. More sets than N / dedupratio fails, as in VDbench ("requesting
 * more dedupsets than we have non-unique data blocks"). Each set's data is one piece of a
 * pattern with the set's number in every 4 KiB; unique blocks carry their offset and a write
 * count there instead, so they never repeat. Set numbers differ between SDs: the ratio holds
 * for each SD and for all of them together. */
#include "dedup.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/gen.h"

enum {
	PATTERN_BYTES = 1 << 20, /* a set's data is one of its dedupunit= pieces, set % pieces */
	PIECE = 4096,
};

/* Set data: the top byte tells a set's mark from a unique block's stamp. */
#define SET_MARK (0xd5ull << 56)

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* FNV-1a of the lun: the layout follows the device, not the SD's place in the file. */
static uint64_t hash_text(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static int sd_layout(const struct parm_config *cfg, size_t i, uint64_t sd_bytes,
		     struct eng_dedup *d, uint64_t set_base, struct parm_err *err)
{
	const struct parm_general *g = &cfg->general;
	struct eng_dedup_sd *s = &d->sds[i];
	uint64_t n = sd_bytes / d->unit_bytes;
	double sets =
		g->dedupsets.is_pct ? (double)n * g->dedupsets.value / 100 : g->dedupsets.value;
	double room = (double)n / d->ratio, unique = room - sets;
	const struct parm_val *v = g->set.val[PARM_KW_DEDUPSETS] ? g->set.val[PARM_KW_DEDUPSETS]
								 : g->set.val[PARM_KW_DEDUPRATIO];

	if (!n)
		return 0;
	s->nr_units = n;
	s->nr_sets = sets < 1 ? 1 : (uint64_t)sets;
	if ((double)s->nr_sets > room)
		return parm_errf(err, v ? &v->loc : NULL,
				 "sd=%s: dedupsets=%s asks for %" PRIu64
				 " sets, more than the %.0f of its %" PRIu64
				 " dedupunit= blocks that dedupratio=%g leaves for duplicates; "
				 "expected fewer dedupsets= or a lower dedupratio=",
				 cfg->sds[i].name,
				 g->set.val[PARM_KW_DEDUPSETS] ? g->set.val[PARM_KW_DEDUPSETS]->text
							       : "5%",
				 s->nr_sets, room, n, d->ratio);
	s->nr_unique = unique > 0 ? (uint64_t)unique : 0;
	s->set_base = set_base;
	s->mul = (uint64_t)((double)n * 0.6180339887498949) | 1;
	while (gcd(s->mul, n) != 1)
		s->mul += 2;
	s->mul %= n;
	s->add = hash_text(cfg->sds[i].lun) % n;
	return 0;
}

int eng_dedup_new(const struct parm_config *cfg, const uint64_t *sd_bytes, struct eng_dedup **out,
		  struct parm_err *err)
{
	struct eng_dedup *d;
	uint64_t set_base = 0;

	*out = NULL;
	if (!cfg->general.dedupunit_bytes)
		return 0;
	d = calloc(1, sizeof(*d));
	if (d)
		d->sds = calloc(cfg->nr_sds ? cfg->nr_sds : 1, sizeof(*d->sds));
	if (!d || !d->sds) {
		eng_dedup_free(d);
		parm_errf(err, NULL, "out of memory");
		return -ENOMEM;
	}
	d->unit_bytes = cfg->general.dedupunit_bytes;
	d->nr_pattern_units = PATTERN_BYTES / d->unit_bytes ? PATTERN_BYTES / d->unit_bytes : 1;
	d->ratio = cfg->general.dedupratio;
	d->nr_sds = cfg->nr_sds;
	for (size_t i = 0; i < cfg->nr_sds; i++) {
		if (sd_layout(cfg, i, sd_bytes[i], d, set_base, err)) {
			eng_dedup_free(d);
			return -EINVAL;
		}
		set_base += d->sds[i].nr_sets;
	}
	*out = d;
	return 0;
}

void eng_dedup_free(struct eng_dedup *d)
{
	if (!d)
		return;
	free(d->sds);
	free(d);
}

void eng_dedup_describe(const struct eng_dedup *d, const struct parm_config *cfg,
			struct rep_set *reps)
{
	for (size_t i = 0; d && i < d->nr_sds; i++) {
		const struct eng_dedup_sd *s = &d->sds[i];
		struct rep_event e = {
			.kind = REP_EV_DEDUP_SD,
			.sd = cfg->sds[i].name,
			.dedup = { d->unit_bytes, d->ratio, s->nr_units, s->nr_unique, s->nr_sets },
		};

		if (s->nr_units)
			rep_set_event(reps, &e);
	}
}

uint64_t *eng_dedup_pattern(const struct eng_dedup *d, double compratio, uint64_t seed)
{
	uint64_t bytes = d->unit_bytes > PATTERN_BYTES ? d->unit_bytes : PATTERN_BYTES;
	uint64_t *p = aligned_alloc(PIECE, bytes);

	if (p)
		eng_data_fill(p, bytes, compratio, seed, 0);
	return p;
}

void eng_data_fill(uint64_t *p, uint64_t bytes, double compratio, uint64_t seed, uint64_t stream)
{
	double ratio = compratio >= 1 ? compratio : 1;
	size_t random_words = (size_t)(PIECE / ratio) / sizeof(uint64_t);
	struct gen_pcg r;

	gen_pcg_seed(&r, seed, stream);
	for (uint64_t i = 0; i < bytes / sizeof(*p); i++)
		p[i] = i % (PIECE / sizeof(*p)) < random_words ? gen_pcg_u64(&r) : 0;
}

/* The set of unit u, or -1 for unique data. */
static int64_t unit_set(const struct eng_dedup_sd *s, uint64_t u)
{
	uint64_t at;

	if (u >= s->nr_units)
		return -1;
	at = (uint64_t)(((unsigned __int128)s->mul * u + s->add) % s->nr_units);
	if (at < s->nr_unique)
		return -1;
	return (int64_t)(s->set_base + (at - s->nr_unique) % s->nr_sets);
}

static void put64(char *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

void eng_dedup_fill(const struct eng_dedup *d, const uint64_t *pattern, uint32_t sd, char *buf,
		    uint64_t offset, uint32_t size, uint64_t nr)
{
	const struct eng_dedup_sd *s = &d->sds[sd];
	uint64_t pos = offset, end = offset + size;

	while (pos < end) {
		uint64_t within = pos % d->unit_bytes;
		uint64_t len =
			d->unit_bytes - within < end - pos ? d->unit_bytes - within : end - pos;
		int64_t set = s->nr_units ? unit_set(s, pos / d->unit_bytes) : -1;
		char *dst = buf + (pos - offset);

		if (set < 0) {
			/* the piece's start, then every 4 KiB of the unit */
			put64(dst, pos ^ (nr << 40));
			for (uint64_t o = (within / PIECE + 1) * PIECE; o < within + len;
			     o += PIECE)
				put64(dst + (o - within), (pos - within + o) ^ (nr << 40));
		} else {
			const char *src = (const char *)pattern +
					  (uint64_t)set % d->nr_pattern_units * d->unit_bytes +
					  within;

			memcpy(dst, src, len);
			for (uint64_t o = (within + PIECE - 1) / PIECE * PIECE; o < within + len;
			     o += PIECE)
				put64(dst + (o - within), SET_MARK | (uint64_t)set);
		}
		pos += len;
	}
}
