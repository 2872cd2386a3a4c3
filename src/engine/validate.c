/* The worker's side of data validation (reference §12.1): an I/O claims every key block it
 * covers (one I/O per block), a write of known blocks is read and checked first (unless -vw),
 * its data carries the new keys, a BEFORE record is queued for the journal, the key map and an
 * AFTER record follow its completion, and -vr reads it back. Each phase is an I/O of its own
 * in the statistics, as in VDbench. It is the worker's payload stage (eng_payload_validate)
 * when validation is on. Hot path: no allocation, no stdio; the only system calls are the
 * clock and the journal's one write per batch. */
#include "engine_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The key blocks an I/O touches: [first, first + nr), clamped to the map. */
static void blocks_of(const struct dv_map *m, uint64_t off, uint64_t size, uint64_t *first,
		      uint64_t *nr)
{
	uint64_t end = (off + size + m->block_bytes - 1) / m->block_bytes;

	*first = off / m->block_bytes;
	if (end > m->nr_blocks)
		end = m->nr_blocks;
	*nr = end > *first ? end - *first : 0;
}

/* Whether the I/O covers block b entirely (only those carry keys; a misaligned I/O leaves
 * the blocks it touches in part unknown). */
static bool is_whole(const struct dv_map *m, const struct eng_io *io, uint64_t b)
{
	uint64_t start = b * m->block_bytes;

	return start >= io->offset_bytes &&
	       start + m->block_bytes <= io->offset_bytes + io->size_bytes;
}

/* Runs with more intervals (the format pass runs until done) count no extra reads: they have
 * no target to judge. */
#define DV_COUNTED_INTERVALS_MAX (UINT32_C(1) << 22)

int eng_dv_worker_init(struct eng_worker *w)
{
	uint32_t nr = w->run->nr_intervals;

	w->dv = w->run->dv;
	if (!w->dv)
		return 0;
	w->dv_again = calloc(w->depth, sizeof(*w->dv_again));
	if (nr < DV_COUNTED_INTERVALS_MAX)
		w->dv_counts = calloc((size_t)nr + 2, sizeof(*w->dv_counts));
	return w->dv_again && (w->dv_counts || nr >= DV_COUNTED_INTERVALS_MAX) ? 0 : -ENOMEM;
}

void eng_dv_worker_fini(struct eng_worker *w)
{
	free(w->dv_again);
	free(w->dv_counts);
	w->dv_again = NULL;
	w->dv_counts = NULL;
}

/* A pre-read or re-read that completed: counted into the interval its read was recorded in. */
static void count_extra(struct eng_worker *w, enum eng_dv_phase phase)
{
	uint32_t k = w->cur_interval, last = w->run->nr_intervals + 1;

	if (!w->dv_counts)
		return;
	if (phase == ENG_DV_PREREAD)
		w->dv_counts[k < last ? k : last].nr_prereads++;
	else
		w->dv_counts[k < last ? k : last].nr_rereads++;
}

/* Whether p may start: no key block it covers is busy. If so marks them busy; if not, p waits
 * in d until a completion frees them. */
static bool dv_claim(struct eng_wsd *d, const struct eng_pending *p)
{
	struct dv_map *m = &d->dv->map;
	uint64_t first, nr;

	blocks_of(m, p->offset_bytes, p->size_bytes, &first, &nr);
	if (dv_map_is_busy(m, first, nr)) {
		d->held = *p;
		d->has_held = true;
		return false;
	}
	dv_map_set_busy(m, first, nr, true);
	return true;
}

/* Taken just before the write, as VDbench (validation runs in real time only: vDSO). */
static uint64_t tod_ms(const struct eng_worker *w)
{
	return eng_clock_tod_ns(w->run->clock) / 1000000u;
}

static void journal_add(struct eng_worker *w, struct eng_dv_sd *sd, enum dv_jtype t, uint64_t b,
			uint8_t key)
{
	int ret;

	if (!sd->jnl)
		return;
	ret = dv_journal_add(sd->jnl, t, b, key);
	if (ret && !w->dv_fatal)
		w->dv_fatal = ret;
}

/* The write phase: each whole block gets its next key (the map changes only at completion),
 * its data and a BEFORE record; a block covered in part gets data of no key (unknown). */
static void write_setup(struct eng_worker *w, struct eng_dv_sd *sd, struct eng_slot *slot)
{
	struct dv_map *m = &sd->map;
	struct eng_io *io = &slot->io;
	uint64_t first, nr, now = tod_ms(w);
	bool is_aligned =
		io->offset_bytes % m->block_bytes == 0 && io->size_bytes % m->block_bytes == 0;

	if (!is_aligned)
		dv_fill(io->buf, io->offset_bytes,
			io->size_bytes / DV_SECTOR_BYTES * DV_SECTOR_BYTES, 0, &sd->id, now);
	blocks_of(m, io->offset_bytes, io->size_bytes, &first, &nr);
	for (uint64_t b = first; b < first + nr; b++) {
		uint8_t key = is_whole(m, io, b) ? dv_map_next_key(m, b) : 0;

		if (key)
			dv_fill((char *)io->buf + (b * m->block_bytes - io->offset_bytes),
				b * m->block_bytes, m->block_bytes, key, &sd->id, now);
		journal_add(w, sd, DV_J_BEFORE, b, key);
	}
	io->op = ENG_OP_WRITE;
	slot->dv_phase = ENG_DV_WRITE;
}

static bool has_known(const struct dv_map *m, const struct eng_io *io)
{
	uint64_t first, nr;

	blocks_of(m, io->offset_bytes, io->size_bytes, &first, &nr);
	for (uint64_t b = first; b < first + nr; b++)
		if (dv_key_is_known(m->keys[b]) && is_whole(m, io, b))
			return true;
	return false;
}

/* The first phase of a claimed slot: a read, a pre-read, or the write (data filled, BEFORE
 * records queued). */
static void dv_first_phase(struct eng_worker *w, struct eng_wsd *d, struct eng_slot *slot)
{
	if (slot->io.op == ENG_OP_READ)
		slot->dv_phase = ENG_DV_READ;
	else if (!w->dv->opts.is_no_preread && has_known(&d->dv->map, &slot->io))
		slot->dv_phase = ENG_DV_PREREAD, slot->io.op = ENG_OP_READ;
	else
		write_setup(w, d->dv, slot);
}

/* A key block in error: kept for the controller unless data_errors= is reached. */
static void found_bad(struct eng_worker *w, struct eng_dv_sd *sd, const struct eng_slot *slot,
		      uint64_t block, const struct dv_mismatch *m)
{
	struct eng_dv_error *e;

	if (atomic_fetch_add_explicit(&w->dv->nr_errors, 1, memory_order_relaxed) >=
	    w->dv->max_errors)
		return; /* the run is stopping: past the limit nothing is recorded */
	sd->nr_errors++;
	eng_worker_count_error(w); /* stops the run */
	if (w->nr_dv_errors_kept >= ENG_DV_ERR_RING)
		return;
	e = &w->dv_errors[w->nr_dv_errors_kept++];
	e->run_sd = w->sds[slot->local_sd].run_sd;
	e->phase = slot->dv_phase;
	e->offset_bytes = slot->io.offset_bytes;
	e->size_bytes = slot->io.size_bytes;
	e->tod_ns = eng_clock_tod_ns(w->run->clock);
	e->good_ms = sd->good_ms ? sd->good_ms[block] : 0;
	e->m = *m;
}

/* Checks every whole block the slot read that holds a key; with -vt a good one's time is
 * kept (one clock read per I/O, only then). */
static void check_read(struct eng_worker *w, struct eng_dv_sd *sd, const struct eng_slot *slot)
{
	struct dv_map *m = &sd->map;
	const struct eng_io *io = &slot->io;
	uint64_t first, nr, now_ms = sd->good_ms ? tod_ms(w) : 0;

	blocks_of(m, io->offset_bytes, io->size_bytes, &first, &nr);
	for (uint64_t b = first; b < first + nr; b++) {
		struct dv_mismatch mm;

		if (!dv_key_is_known(m->keys[b]) || !is_whole(m, io, b))
			continue;
		sd->nr_validated++;
		if (dv_check((const char *)io->buf + (b * m->block_bytes - io->offset_bytes),
			     b * m->block_bytes, m->block_bytes, m->keys[b], &sd->id, &mm)) {
			m->keys[b] |= DV_KEY_ERROR;
			found_bad(w, sd, slot, b, &mm);
		} else if (sd->good_ms) {
			sd->good_ms[b] = now_ms;
		}
	}
}

/* The write ended: its keys (or unknown, when it failed) into the map and the journal. */
static void write_done(struct eng_worker *w, struct eng_dv_sd *sd, const struct eng_io *io,
		       bool is_ok)
{
	struct dv_map *m = &sd->map;
	uint64_t first, nr, now_ms = sd->good_ms ? tod_ms(w) : 0;

	blocks_of(m, io->offset_bytes, io->size_bytes, &first, &nr);
	for (uint64_t b = first; b < first + nr; b++) {
		uint8_t key = is_ok && is_whole(m, io, b) ? dv_map_next_key(m, b) : 0;

		m->keys[b] = key;
		if (sd->good_ms)
			sd->good_ms[b] = key ? now_ms : 0;
		journal_add(w, sd, DV_J_AFTER, b, key);
	}
	if (!is_ok) /* said at the end: validation no longer covers these blocks */
		atomic_fetch_add_explicit(&sd->nr_lost, 1, memory_order_relaxed);
}

static void release(struct eng_dv_sd *sd, const struct eng_io *io)
{
	uint64_t first, nr;

	blocks_of(&sd->map, io->offset_bytes, io->size_bytes, &first, &nr);
	dv_map_set_busy(&sd->map, first, nr, false);
}

static bool again(struct eng_worker *w, struct eng_slot *slot)
{
	w->dv_again[w->nr_dv_again++] = slot;
	return true;
}

/* A completed phase: checks what was read, records keys and AFTER records of a write. True
 * when the slot goes on with another phase (queued for the next submit), false when done (its
 * blocks are free again). */
static bool dv_complete(struct eng_worker *w, struct eng_slot *slot)
{
	struct eng_dv_sd *sd = w->sds[slot->local_sd].dv;
	bool is_ok = slot->io.result == (int32_t)slot->io.size_bytes;
	bool is_going = !w->is_draining && !atomic_load_explicit(&w->stop, memory_order_relaxed);
	enum eng_dv_phase phase = slot->dv_phase;

	if (phase == ENG_DV_NONE)
		return false;
	if (phase == ENG_DV_WRITE) {
		write_done(w, sd, &slot->io, is_ok);
		if (is_ok && is_going && w->dv->opts.is_reread) {
			slot->dv_phase = ENG_DV_REREAD;
			slot->io.op = ENG_OP_READ;
			return again(w, slot);
		}
	} else if (is_ok) {
		if (phase != ENG_DV_READ)
			count_extra(w, phase);
		check_read(w, sd, slot);
		if (phase == ENG_DV_PREREAD && is_going) {
			write_setup(w, sd, slot);
			return again(w, slot);
		}
	}
	release(sd, &slot->io);
	slot->dv_phase = ENG_DV_NONE;
	return false;
}

/* The slots whose next phase waits, into w->batch from index 0. */
static uint32_t dv_requeue(struct eng_worker *w, uint64_t now_ns)
{
	uint32_t nr = w->nr_dv_again;

	for (uint32_t i = 0; i < nr; i++) {
		struct eng_slot *slot = w->dv_again[i];

		slot->arrival_ns = now_ns; /* a later phase is timed from its own submit */
		slot->submit_ns = now_ns;
		w->batch[i] = &slot->io;
	}
	w->nr_dv_again = 0;
	return nr;
}

/* Writes the queued journal records of the worker's SDs (before submitting: a BEFORE record
 * is durable before its write starts). Returns 0 or -errno (also of an earlier add). */
static int dv_flush(struct eng_worker *w)
{
	for (uint32_t s = 0; s < w->nr_sds && !w->dv_fatal; s++) {
		struct eng_dv_sd *sd = w->sds[s].dv;

		if (sd && sd->jnl && dv_journal_has_queued(sd->jnl))
			w->dv_fatal = dv_journal_flush(sd->jnl);
	}
	return w->dv_fatal;
}

/* At the stop: slots waiting for another phase end there (a write that never started gets an
 * AFTER record with the old key). */
static void dv_cancel(struct eng_worker *w)
{
	for (uint32_t i = 0; i < w->nr_dv_again; i++) {
		struct eng_slot *slot = w->dv_again[i];
		struct eng_dv_sd *sd = w->sds[slot->local_sd].dv;
		uint64_t first, nr;

		if (slot->dv_phase == ENG_DV_WRITE) { /* BEFORE queued, never submitted */
			blocks_of(&sd->map, slot->io.offset_bytes, slot->io.size_bytes, &first,
				  &nr);
			for (uint64_t b = first; b < first + nr; b++)
				journal_add(w, sd, DV_J_AFTER, b, sd->map.keys[b]);
		}
		release(sd, &slot->io);
		slot->dv_phase = ENG_DV_NONE;
		w->sds[slot->local_sd].inflight--;
		w->free_slots[w->nr_free++] = (uint32_t)(slot - w->slots);
	}
	w->nr_dv_again = 0;
}

/* ---- the payload stage ---------------------------------------------------------------------- */

static bool dv_start(struct eng_worker *w, struct eng_wsd *d, struct eng_slot *slot,
		     const struct eng_pending *p)
{
	if (!dv_claim(d, p))
		return false; /* a key block it covers is busy: p waits in d */
	dv_first_phase(w, d, slot);
	return true;
}

static int dv_pass(struct eng_worker *w, uint32_t from, uint64_t now_ns)
{
	(void)from;
	(void)now_ns;
	return dv_flush(w); /* BEFORE records durable before the writes start */
}

/* A slot prepared but never submitted goes back to the phases waiting: cancel ends it. */
static bool dv_drop(struct eng_worker *w, struct eng_slot *slot)
{
	if (!slot->dv_phase)
		return false;
	w->dv_again[w->nr_dv_again++] = slot;
	return true;
}

const struct eng_payload eng_payload_validate = {
	.start = dv_start,
	.complete = dv_complete,
	.requeue = dv_requeue,
	.pass = dv_pass,
	.drop = dv_drop,
	.stop = dv_cancel,
	.finish = dv_flush,
};
