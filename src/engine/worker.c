/* A worker's life outside the hot loop: everything the loop touches is allocated and set up
 * here, before the run starts (slots, aligned buffers, generators, banks, the backend), and
 * released after it has drained. */
#include "engine_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Which part of SD sd worker idx drives, or UINT32_MAX for none. */
static uint32_t part_of(const struct eng_sd_desc *sd, uint32_t idx)
{
	uint32_t nr = sd->nr_parts ? sd->nr_parts : 1;

	return sd->worker != UINT32_MAX && idx >= sd->worker && idx - sd->worker < nr
		       ? idx - sd->worker
		       : UINT32_MAX;
}

static bool is_mine(const struct eng_sd_desc *sd, uint32_t idx)
{
	return part_of(sd, idx) != UINT32_MAX;
}

static uint32_t parts(const struct eng_sd_desc *sd)
{
	return sd->nr_parts ? sd->nr_parts : 1;
}

/* Whether worker idx runs generator g: one of its SD's, and with streams= on a worker per
 * thread, its own stream's (threads= is a multiple of streams=, run_build.c). */
static bool is_wg_mine(const struct eng_run *run, const struct eng_wg_desc *g, uint32_t idx)
{
	const struct eng_sd_desc *sd = &run->sds[g->run_sd];
	uint32_t part = part_of(sd, idx);

	if (part == UINT32_MAX)
		return false;
	return g->nr_streams <= 1 || parts(sd) <= 1 || part % g->nr_streams == g->stream;
}

static int worker_count(struct eng_worker *w, const struct eng_run *run, uint64_t *slot_bytes)
{
	*slot_bytes = 4096;
	for (size_t i = 0; i < run->nr_sds; i++) {
		if (!is_mine(&run->sds[i], w->idx))
			continue;
		w->nr_sds++;
		/* serial SDs share one slot: one I/O at a time, inline (run_exec.c) */
		w->depth = run->sds[i].is_serial
				   ? 1
				   : w->depth + eng_part_threads(run->sds[i].threads,
								 parts(&run->sds[i]),
								 part_of(&run->sds[i], w->idx));
		if (run->sds[i].max_xfer_bytes > *slot_bytes)
			*slot_bytes = run->sds[i].max_xfer_bytes;
	}
	for (size_t i = 0; i < run->nr_wgs; i++)
		if (is_wg_mine(run, &run->wgs[i], w->idx))
			w->nr_wgs++;
	*slot_bytes = (*slot_bytes + 4095) & ~(uint64_t)4095;
	return w->nr_sds ? 0 : -EINVAL;
}

/* Zeroed memory from fresh anonymous pages, for a worker's banks (about 80 KiB each) and SD
 * queues (ENG_SDQ_LIMIT entries): calloc clears heap memory it reuses and makes every page
 * resident, while a bank touches only the histogram buckets in use (stats_hist_reset) and a
 * queue only what waits in it. With a worker per thread (the sync engine) that is the
 * difference between a few and hundreds of MiB. */
static void *lazy_zalloc(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void lazy_free(void *p, size_t bytes)
{
	if (p)
		munmap(p, bytes);
}

static size_t banks_bytes(const struct eng_worker *w)
{
	return (size_t)(w->nr_wgs ? w->nr_wgs : 1) * sizeof(struct stats_bank);
}

static int worker_alloc(struct eng_worker *w, uint64_t slot_bytes)
{
	int ret;

	w->slots = calloc(w->depth, sizeof(*w->slots));
	w->free_slots = calloc(w->depth, sizeof(*w->free_slots));
	w->batch = calloc(w->depth, sizeof(*w->batch));
	w->done = calloc(w->depth, sizeof(*w->done));
	w->sds = calloc(w->nr_sds, sizeof(*w->sds));
	w->ready = calloc((w->nr_sds + 63) / 64, sizeof(*w->ready));
	w->wgs = calloc(w->nr_wgs ? w->nr_wgs : 1, sizeof(*w->wgs));
	for (int i = 0; i < 3; i++) {
		w->banks[i] = lazy_zalloc(banks_bytes(w));
		if (!w->banks[i])
			return -ENOMEM;
	}
	if (!w->slots || !w->free_slots || !w->batch || !w->done || !w->sds || !w->wgs || !w->ready)
		return -ENOMEM;
	for (uint32_t s = 0; s < w->nr_sds; s++) /* every SD has free threads at first */
		eng_wsd_ready(w, s);
	if (w->run->is_replay) {
		w->rpl = aligned_alloc(IORAMP_CACHELINE, sizeof(*w->rpl));
		w->local_of_sd = calloc(w->run->nr_sds, sizeof(*w->local_of_sd));
		if (!w->rpl || !w->local_of_sd)
			return -ENOMEM;
		memset(w->rpl, 0, sizeof(*w->rpl));
	}
	if (w->run->is_recording) {
		w->rec = aligned_alloc(IORAMP_CACHELINE, sizeof(*w->rec));
		if (!w->rec)
			return -ENOMEM;
		memset(w->rec, 0, sizeof(*w->rec));
	}
	/* O_DIRECT needs aligned memory; 4096 covers every logical block size in use */
	ret = posix_memalign(&w->bufs, 4096, (size_t)w->depth * slot_bytes);
	if (ret)
		return -ret; /* posix_memalign returns the error; errno is untouched */
	for (uint32_t i = 0; i < w->depth; i++) {
		w->slots[i].io.buf = (char *)w->bufs + (size_t)i * slot_bytes;
		w->free_slots[w->nr_free++] = w->depth - 1 - i;
	}
	return 0;
}

/* Write data (compratio=, reference §12.3): every 4 KiB compresses about that much; every write
 * also gets its own stamp (payload.c) so that no device can dedup it, unless dedup= asks. */
static void fill_buffers(struct eng_worker *w, uint64_t bytes)
{
	eng_data_fill(w->bufs, bytes, w->run->compratio, w->run->seed, 0x5eed0000u + w->idx);
}

static int worker_sds(struct eng_worker *w)
{
	const struct eng_run *run = w->run;
	uint32_t n = 0;

	for (size_t i = 0; i < run->nr_sds; i++) {
		struct eng_wsd *d;

		if (!is_mine(&run->sds[i], w->idx))
			continue;
		d = &w->sds[n++];
		d->run_sd = (uint32_t)i;
		d->cfg_sd = (uint32_t)run->sds[i].cfg_idx;
		d->part = part_of(&run->sds[i], w->idx);
		d->nr_parts = parts(&run->sds[i]);
		d->threads = run->sds[i].is_serial
				     ? 1
				     : eng_part_threads(run->sds[i].threads, d->nr_parts, d->part);
		d->dv = run->dv ? run->sds[i].dv : NULL;
		gen_pcg_seed(&d->pick, run->seed,
			     eng_part_stream(run->stream_base + 0x10000u + i, d->part));
		for (uint32_t p = 0; p < run->nr_prio; p++) {
			d->q[p].cap = ENG_SDQ_LIMIT;
			d->q[p].v = lazy_zalloc(ENG_SDQ_LIMIT * sizeof(*d->q[p].v));
			if (!d->q[p].v)
				return -ENOMEM;
		}
		d->wgs = calloc(run->nr_wgs, sizeof(*d->wgs));
		d->cum_weight = calloc(run->nr_wgs, sizeof(*d->cum_weight));
		if (!d->wgs || !d->cum_weight)
			return -ENOMEM;
	}
	return 0;
}

static uint32_t local_sd(const struct eng_worker *w, uint32_t run_sd)
{
	for (uint32_t i = 0; i < w->nr_sds; i++)
		if (w->sds[i].run_sd == run_sd)
			return i;
	return 0;
}

/* g's weight at max among its SD's generators on a worker: a worker per thread with one of
 * its WD's streams weighs it as the WD's N streams together, against the SD's other WDs. */
static double wg_weight(const struct eng_wg_desc *g, const struct eng_wsd *d)
{
	return g->nr_streams > 1 && d->nr_parts > 1 ? g->weight * g->nr_streams : g->weight;
}

static int worker_wgs(struct eng_worker *w)
{
	const struct eng_run *run = w->run;
	uint32_t n = 0;

	for (size_t i = 0; i < run->nr_wgs; i++) {
		const struct eng_wg_desc *wd = &run->wgs[i];
		struct eng_wwg *g;
		struct eng_wsd *d;
		int ret;

		if (!is_wg_mine(run, wd, w->idx))
			continue;
		g = &w->wgs[n];
		g->run_wg = (uint32_t)i;
		g->local_sd = local_sd(w, wd->run_sd);
		g->jvm = wd->jvm;
		if (run->is_replay) { /* the feeder draws the I/Os: one counting generator per SD */
			w->sds[g->local_sd].replay_wg = n;
			w->local_of_sd[wd->run_sd] = (uint16_t)g->local_sd;
			w->sds[g->local_sd].wgs[w->sds[g->local_sd].nr_wgs++] = n++;
			continue;
		}
		d = &w->sds[g->local_sd];
		ret = gen_wg_init(&g->gen, &wd->gen, run->seed,
				  eng_part_stream(eng_wg_gen_stream(run, i), d->part));
		if (ret)
			return ret;
		if (d->nr_parts > 1) /* one stream however many threads issue it (reference §9.5) */
			gen_wg_share_seq(&g->gen, &run->seq_cursors[i]);
		if (wd->is_concat_member) { /* counts what its WD's first generator routes here */
			g->is_eof = true;
			w->nr_eof++;
		} else if (wd->rate_iops > 0) {
			g->is_paced = true;
		} else if (run->mode == ENG_MODE_RATE) {
			g->is_eof = true; /* no share of the rate: never issues */
			w->nr_eof++;
		}
		d->cum_weight[d->nr_wgs] = (d->nr_wgs ? d->cum_weight[d->nr_wgs - 1] : 0) +
					   (g->is_paced ? 0 : wg_weight(wd, d));
		d->wgs[d->nr_wgs++] = n++;
	}
	return 0;
}

/* concatenatesds=yes: where each member is among this worker's SDs (all are on the worker of
 * the first, eng_place_sds()). */
static int worker_concat(struct eng_worker *w)
{
	const struct eng_concat *c = &w->run->concat;

	if (!c->nr || !is_mine(&w->run->sds[c->run_sd[0]], w->idx))
		return 0;
	w->concat_local = calloc(c->nr, sizeof(*w->concat_local));
	if (!w->concat_local)
		return -ENOMEM;
	for (uint32_t m = 0; m < c->nr; m++)
		w->concat_local[m] = local_sd(w, c->run_sd[m]);
	return 0;
}

static int worker_backend(struct eng_worker *w, const char *engine, uint64_t slot_bytes, char *msg,
			  size_t msglen)
{
	struct eng_backend_file *files = calloc(w->nr_sds, sizeof(*files));
	struct eng_backend_cfg cfg = {
		.depth = w->depth,
		.files = files,
		.nr_files = w->nr_sds,
		.buf_region = w->bufs,
		.buf_region_bytes = (size_t)w->depth * slot_bytes,
		.buf_slot_bytes = slot_bytes,
		.sleeper = &w->sleeper,
		.seed = w->run->seed,
	};
	int ret;

	if (!files)
		return -ENOMEM;
	for (uint32_t i = 0; i < w->nr_sds; i++) {
		const struct eng_target *t = w->run->sds[w->sds[i].run_sd].target;

		files[i] = (struct eng_backend_file){
			.fd = t->fd,
			/* a concatenation's members take its threads, which the first holds */
			.threads = w->concat_local ? w->sds[w->concat_local[0]].threads
						   : w->sds[i].threads,
			.is_direct = t->is_direct,
			.stream = w->run->stream_base + 0x20000u + w->sds[i].run_sd,
			.write_gate = w->run->sds[w->sds[i].run_sd].is_write_gated
					      ? &w->run->write_gates[w->sds[i].run_sd]
					      : NULL,
		};
	}
	ret = eng_backend_open_named(engine, &cfg, &w->be, msg, msglen);
	free(files);
	return ret;
}

/* The run's arrival source and payload stage, once: the loop itself never asks. */
static void choose_seams(struct eng_worker *w)
{
	const struct eng_run *run = w->run;

	w->src = run->is_replay		     ? &eng_arrivals_trace
		 : run->mode == ENG_MODE_MAX ? &eng_arrivals_max
					     : &eng_arrivals_rate;
	w->pay_data = run->dv	     ? &eng_payload_validate
		      : run->dedup   ? &eng_payload_dedup
		      : run->pattern ? &eng_payload_pattern
				     : &eng_payload_stamp;
	w->pay = run->is_recording ? &eng_payload_record : w->pay_data;
	/* a replay's feeder (another thread) and validation's phases bring work at the same time */
	w->is_one_pass = run->clock->is_virtual && !run->is_replay && !run->dv;
}

int eng_worker_init(struct eng_worker *w, const struct eng_run *run, uint32_t idx,
		    const char *engine, char *msg, size_t msglen)
{
	uint64_t slot_bytes;
	int ret;

	memset(w, 0, offsetof(struct eng_worker, published));
	atomic_init(&w->published, 0);
	atomic_init(&w->final_ns, 0);
	atomic_init(&w->nr_errors, 0);
	atomic_init(&w->nr_io_errors, 0);
	atomic_init(&w->nr_errors_kept, 0);
	atomic_init(&w->is_device_lost, false);
	atomic_init(&w->consumed, 0);
	atomic_init(&w->stop, false);
	atomic_init(&w->is_done, false);
	w->nr_errors_reported = 0;
	w->run = run;
	w->idx = idx;
	w->sleeper.clock = run->clock; /* joined when the thread starts; backends keep &sleeper */
	w->cur_interval = 1;
	msg[0] = '\0';
	ret = worker_count(w, run, &slot_bytes);
	if (!ret)
		ret = worker_alloc(w, slot_bytes);
	if (!ret)
		ret = worker_sds(w);
	if (!ret)
		ret = worker_wgs(w);
	if (!ret)
		ret = worker_concat(w);
	if (!ret)
		ret = eng_jvm_init(w);
	if (!ret)
		ret = eng_dv_worker_init(w);
	if (!ret)
		choose_seams(w);
	if (ret) {
		if (!msg[0])
			snprintf(msg, msglen, "cannot set up worker %u: %s", idx, strerror(-ret));
		return ret;
	}
	fill_buffers(w, (uint64_t)w->depth * slot_bytes);
	return worker_backend(w, engine, slot_bytes, msg, msglen);
}

int eng_worker_arm(struct eng_worker *w)
{
	const struct eng_run *run = w->run;
	double iops = 0; /* of this worker's paced generators (their parts' shares) */

	for (uint32_t i = 0; i < w->nr_wgs; i++) {
		struct eng_wwg *g = &w->wgs[i];
		struct gen_arrival_cfg ac;
		int ret;

		if (!g->is_paced)
			continue;
		eng_wg_arrival_cfg(run, g->run_wg, run->start_ns, &ac);
		eng_part_arrivals(&ac, &w->sds[g->local_sd],
				  &w->run->sds[w->sds[g->local_sd].run_sd]);
		ret = gen_arrival_init(&g->arr, &ac, run->seed,
				       eng_part_stream(eng_wg_arrival_stream(run, g->run_wg),
						       w->sds[g->local_sd].part));
		if (ret)
			return ret;
		g->next_ns = gen_arrival_next(&g->arr);
		if (ac.mean_ns > 0)
			iops += 1e9 / ac.mean_ns;
	}
	/* a serial worker's SDs are each sparse, together within ENG_SERIAL_MAX_ARRIVALS */
	w->wake_batch_ns = w->nr_sds && run->sds[w->sds[0].run_sd].is_serial
				   ? run->wake_batch_ns
				   : eng_wake_batch_for(run->wake_batch_ns, iops);
	for (uint32_t i = 0; i < w->nr_wgs; i++)
		stats_bank_start(&w->banks[1][i], 0, run->start_ns);
	w->bank = w->banks[1]; /* interval 1 */
	w->lite = w->lites[1]; /* calloc'ed: empty; NULL without slaves */
	w->jvm_hist = w->jvm_hists[1];
	return 0;
}

void eng_worker_fini(struct eng_worker *w)
{
	eng_backend_close(w->be);
	w->be = NULL;
	for (uint32_t i = 0; w->sds && i < w->nr_sds; i++) {
		for (int p = 0; p < ENG_MAX_PRIO; p++)
			lazy_free(w->sds[i].q[p].v, ENG_SDQ_LIMIT * sizeof(*w->sds[i].q[p].v));
		free(w->sds[i].wgs);
		free(w->sds[i].cum_weight);
	}
	free(w->sds);
	free(w->ready);
	free(w->wgs);
	free(w->slots);
	free(w->free_slots);
	free(w->batch);
	free(w->done);
	for (int i = 0; i < 3; i++)
		lazy_free(w->banks[i], banks_bytes(w));
	free(w->bufs);
	free(w->rec);
	free(w->rpl);
	free(w->local_of_sd);
	free(w->concat_local);
	eng_dv_worker_fini(w);
	w->rec = NULL;
	w->rpl = NULL;
	w->local_of_sd = NULL;
	w->concat_local = NULL;
	w->sds = NULL;
	w->ready = NULL;
	w->wgs = NULL;
	w->slots = NULL;
	w->free_slots = NULL;
	w->batch = NULL;
	w->done = NULL;
	w->banks[0] = w->banks[1] = w->banks[2] = NULL;
	w->bank = NULL;
	eng_jvm_fini(w);
	w->bufs = NULL;
}
