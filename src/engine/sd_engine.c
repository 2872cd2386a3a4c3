/* Which backend each SD of a run gets and which worker drives it: --engine/engine= for every
 * SD, else the default engine's pick per SD (eng_backend_default() in backend.c: the rule lives
 * there); workers then share the SDs round-robin within each backend, so that a worker drives
 * SDs of one backend only. The logfile gets one line per kind of SD when the picks change. */
#include "backend.h"
#include "exec.h"

#include <stdio.h>
#include <string.h>

static bool sd_is_writing(const struct eng_run *r, size_t s)
{
	for (size_t i = 0; i < r->nr_wgs; i++)
		if (r->wgs[i].run_sd == s && r->wgs[i].gen.rdpct < 100)
			return true;
	return false;
}

void eng_run_engines(const struct eng_exec *x, struct eng_run *r)
{
	for (size_t s = 0; s < r->nr_sds; s++) {
		const struct eng_target *t = r->sds[s].target;
		struct eng_sd_traits k = {
			.is_block = t && t->kind == ENG_TARGET_BLOCK,
			.is_direct = t && t->is_direct,
			.is_writing = r->sds[s].is_written = sd_is_writing(r, s),
			.max_xfer_bytes = r->sds[s].max_xfer_bytes,
		};

		r->sds[s].engine = x->engine ? x->engine : eng_backend_default(&k);
		r->sds[s].engine_kind = x->engine ? NULL : eng_backend_default_kind(&k);
	}
	for (uint32_t m = 1; m < r->concat.nr; m++) { /* one worker, one backend for them all */
		r->sds[r->concat.run_sd[m]].engine = r->sds[r->concat.run_sd[0]].engine;
		r->sds[r->concat.run_sd[m]].engine_kind = r->sds[r->concat.run_sd[0]].engine_kind;
	}
}

static bool same_engine(const struct eng_sd_desc *a, const struct eng_sd_desc *b)
{
	return a->engine == b->engine || (a->engine && b->engine && !strcmp(a->engine, b->engine));
}

/* A concatenation's further members go where its first goes. */
static bool is_concat_member(const struct eng_run *r, size_t s)
{
	for (uint32_t m = 1; m < r->concat.nr; m++)
		if (r->concat.run_sd[m] == s)
			return true;
	return false;
}

static bool is_placed(const struct eng_run *r, const bool *placed, size_t s)
{
	return placed[s] && !is_concat_member(r, s);
}

static void place_concat(struct eng_run *r)
{
	for (uint32_t m = 1; m < r->concat.nr; m++)
		r->sds[r->concat.run_sd[m]].worker = r->sds[r->concat.run_sd[0]].worker;
}

/* The first placed SD with s's backend: its group's leader. */
static size_t leader(const struct eng_run *r, const bool *placed, size_t s)
{
	for (size_t l = 0; l < s; l++)
		if (is_placed(r, placed, l) && same_engine(&r->sds[l], &r->sds[s]))
			return l;
	return s;
}

uint32_t eng_place_sds(struct eng_run *r, const bool *placed, uint32_t nr_workers)
{
	size_t nr_placed = 0;
	uint32_t base = 0;

	for (size_t s = 0; s < r->nr_sds; s++) {
		nr_placed += is_placed(r, placed, s);
		r->sds[s].worker = UINT32_MAX;
	}
	for (size_t l = 0; l < r->nr_sds; l++) {
		size_t nr = 0, k = 0;
		uint64_t share;

		if (!is_placed(r, placed, l) || leader(r, placed, l) != l)
			continue;
		for (size_t s = l; s < r->nr_sds; s++)
			nr += is_placed(r, placed, s) && leader(r, placed, s) == l;
		/* its share of the workers by its count of SDs: at least one, at most one per SD */
		share = (uint64_t)nr_workers * nr / nr_placed;
		share = share < 1 ? 1 : share > nr ? nr : share;
		for (size_t s = l; s < r->nr_sds; s++)
			if (is_placed(r, placed, s) && leader(r, placed, s) == l)
				r->sds[s].worker = base + (uint32_t)(k++ % share);
		base += (uint32_t)share;
	}
	place_concat(r);
	return base;
}

const char *eng_worker_engine(const struct eng_run *r, uint32_t worker)
{
	for (size_t s = 0; s < r->nr_sds; s++) /* an SD run per thread has nr_parts workers */
		if (r->sds[s].worker != UINT32_MAX && worker >= r->sds[s].worker &&
		    worker - r->sds[s].worker < (r->sds[s].nr_parts ? r->sds[s].nr_parts : 1))
			return r->sds[s].engine;
	return NULL;
}

static bool same_kind(const struct eng_sd_desc *a, const struct eng_sd_desc *b)
{
	return same_engine(a, b) && !strcmp(a->engine_kind, b->engine_kind);
}

/* How many SDs share s's backend and kind; 0 when one before s does (it counts them). */
static size_t nr_of_kind(const struct eng_run *r, size_t s)
{
	size_t nr = 0;

	for (size_t p = 0; p < s; p++)
		if (same_kind(&r->sds[p], &r->sds[s]))
			return 0;
	for (size_t p = s; p < r->nr_sds; p++)
		nr += same_kind(&r->sds[p], &r->sds[s]);
	return nr;
}

/* "uring/O_DIRECT=8;" for each kind in order of first SD: what the engine lines say. */
static void picks(const struct eng_run *r, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t s = 0; s < r->nr_sds && off < len; s++) {
		size_t nr = nr_of_kind(r, s);

		if (nr)
			off += (size_t)snprintf(buf + off, len - off, "%s/%s=%zu;",
						r->sds[s].engine, r->sds[s].engine_kind, nr);
	}
}

void eng_note_engines(struct eng_exec *x, const struct eng_run *r)
{
	char now[sizeof(x->engines_noted)];

	if (x->engine || !r->nr_sds)
		return;
	picks(r, now, sizeof(now));
	if (!strcmp(now, x->engines_noted))
		return;
	snprintf(x->engines_noted, sizeof(x->engines_noted), "%s", now);
	for (size_t s = 0; s < r->nr_sds; s++) {
		size_t nr = nr_of_kind(r, s);

		if (nr)
			rep_set_event(x->reps, &(struct rep_event){
						       .kind = REP_EV_ENGINE,
						       .engine = { r->sds[s].engine,
								   r->sds[s].engine_kind, nr },
					       });
	}
}
