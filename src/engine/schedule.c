/* The schedule of a run's generators, shared by the workers and by trace synth so that both
 * draw exactly the same streams: each generator's PCG stream numbers and its arrival
 * configuration, with distribution=variable's (rate,seconds) pairs scaled to the generator's
 * share of the run's rate (reference §9.2, §9.4). */
#include "backend.h"
#include "engine_int.h"

#include <errno.h>
#include <stdlib.h>

#define NS_PER_SEC 1e9

uint64_t eng_wg_gen_stream(const struct eng_run *r, size_t wg)
{
	return r->stream_base + wg;
}

uint64_t eng_wg_arrival_stream(const struct eng_run *r, size_t wg)
{
	return r->stream_base + wg + (1ull << 40);
}

uint32_t eng_part_threads(uint32_t threads, uint32_t nr_parts, uint32_t part)
{
	if (nr_parts <= 1)
		return threads;
	return threads / nr_parts + (part < threads % nr_parts);
}

uint64_t eng_part_stream(uint64_t stream, uint32_t part)
{
	return stream + (uint64_t)part * 0x9e3779b97f4a7c15ull; /* apart from every other stream */
}

/* A part's schedule: its threads' share of the rate, so that the parts' sum is the SD's (a
 * serial SD's part serves its share of the threads one at a time); a deterministic one of
 * equal parts shifted so that the parts interleave into the whole SD's schedule. */
void eng_part_arrivals(struct gen_arrival_cfg *ac, const struct eng_wsd *d,
		       const struct eng_sd_desc *sd)
{
	double share, whole_ns = ac->mean_ns;
	uint64_t shift;

	if (d->nr_parts <= 1 || !sd->threads)
		return;
	share = (double)eng_part_threads(sd->threads, d->nr_parts, d->part) / (double)sd->threads;
	ac->mean_ns = whole_ns / share;
	if (ac->dist != GEN_DIST_DETERMINISTIC || sd->threads % d->nr_parts)
		return;
	/* part j's first arrival at start + (j + 1) x the whole mean, then every nr_parts */
	shift = (uint64_t)((double)(d->nr_parts - 1 - d->part) * whole_ns);
	if (ac->start_ns >= shift)
		ac->start_ns -= shift;
}

bool eng_rd_is_variable(const struct parm_rd *rd)
{
	return (rd->is_variable || rd->is_spike) && rd->nr_rates >= 2 && !rd->trace;
}

double eng_variable_mean_iops(const struct parm_rd *rd)
{
	double ios = 0, secs = 0;

	for (size_t i = 0; i + 1 < rd->nr_rates; i += 2) {
		ios += rd->rates[i].value * rd->rates[i + 1].value;
		secs += rd->rates[i + 1].value;
	}
	return secs > 0 ? ios / secs : 0;
}

/* The rate the workloads with a fixed iorate= take before the skews share the rest. */
static double fixed_iops(const struct plan_run *pr)
{
	double fixed = 0;

	for (size_t i = 0; i < pr->nr_wds; i++)
		if (parm_kwset_has(&pr->wds[i]->set, PARM_KW_IORATE))
			fixed += pr->wds[i]->iorate;
	return fixed;
}

/* Each generator that shares the run's rate gets the RD's pairs at its share: its rate at
 * the mean over the mean left after the fixed rates (a WD with iorate= keeps its own). */
int eng_run_steps(struct eng_run *r, const struct plan *plan, struct parm_err *err)
{
	const struct plan_run *pr = r->prun;
	const struct parm_rd *rd = &plan->cfg->rds[pr->rd_idx];
	double fixed, left;
	size_t nr;

	r->is_spike = rd->is_spike;
	if (!eng_rd_is_variable(rd) || r->mode != ENG_MODE_RATE)
		return 0;
	nr = rd->nr_rates / 2;
	fixed = fixed_iops(pr);
	left = r->target_iops - fixed;
	r->wg_steps = calloc(nr * (r->nr_wgs ? r->nr_wgs : 1), sizeof(*r->wg_steps));
	if (!r->wg_steps)
		return parm_errf(err, &rd->loc, "out of memory building rd=%s", rd->name), -ENOMEM;
	r->nr_steps = nr;
	for (size_t g = 0; g < r->nr_wgs; g++) {
		double share = left > 0 ? r->wgs[g].rate_iops / left : 0;

		for (size_t i = 0; i < nr; i++) {
			double pair = rd->rates[2 * i].value - fixed;

			r->wg_steps[g * nr + i].iops = pair > 0 ? pair * share : 0;
			r->wg_steps[g * nr + i].duration_ns =
				(uint64_t)(rd->rates[2 * i + 1].value * NS_PER_SEC);
		}
	}
	return 0;
}

bool eng_wg_has_steps(const struct eng_run *r, size_t wg)
{
	const struct parm_wd *wd = r->prun ? r->prun->wds[r->wgs[wg].run_wd] : NULL;

	return r->nr_steps && wd && !parm_kwset_has(&wd->set, PARM_KW_IORATE);
}

void eng_wg_arrival_cfg(const struct eng_run *r, size_t wg, uint64_t start_ns,
			struct gen_arrival_cfg *ac)
{
	const struct eng_wg_desc *d = &r->wgs[wg];

	*ac = (struct gen_arrival_cfg){
		.dist = r->dist,
		.mean_ns = d->rate_iops > 0 ? NS_PER_SEC / d->rate_iops : 0,
		.start_ns = start_ns,
		.is_spike = r->is_spike,
	};
	if (eng_wg_has_steps(r, wg)) {
		ac->steps = r->wg_steps + wg * r->nr_steps;
		ac->nr_steps = r->nr_steps;
	}
}

uint64_t eng_wake_batch_for(uint64_t batch_ns, double iops)
{
	return iops * (double)batch_ns / NS_PER_SEC <= ENG_WAKE_BATCH_MAX_ARRIVALS ? batch_ns : 0;
}

double eng_sd_rate(const struct eng_run *r, size_t s)
{
	double iops = 0;

	for (size_t i = 0; i < r->nr_wgs; i++) {
		if (r->wgs[i].run_sd != s)
			continue;
		if (!(r->wgs[i].rate_iops > 0))
			return 0;
		iops += r->wgs[i].rate_iops;
	}
	return iops;
}

uint32_t eng_place_serial(struct eng_run *r, uint32_t k, uint32_t nr_cpus)
{
	double cap = ENG_SERIAL_MAX_ARRIVALS * NS_PER_SEC / (double)r->wake_batch_ns, load = 0;
	uint32_t nr_fast = 0, parts;
	bool is_open = false;

	for (size_t s = 0; s < r->nr_sds; s++)
		nr_fast += r->sds[s].is_serial && eng_sd_rate(r, s) > cap;
	/* the fast SDs' workers together about one per CPU, at least one each */
	parts = nr_fast ? (nr_cpus + nr_fast - 1) / nr_fast : 1;
	for (size_t s = 0; s < r->nr_sds; s++) {
		struct eng_sd_desc *d = &r->sds[s];
		double iops;

		if (!d->is_serial)
			continue;
		iops = eng_sd_rate(r, s);
		if (iops > cap) { /* workers of its own, after the open one */
			k += is_open;
			d->worker = k;
			d->nr_parts = d->threads < parts ? d->threads : parts;
			d->nr_parts = d->nr_parts ? d->nr_parts : 1;
			k += d->nr_parts;
			load = 0;
			is_open = false;
			continue;
		}
		if (is_open && load + iops > cap) {
			k++;
			load = 0;
		}
		r->sds[s].worker = k;
		r->sds[s].nr_parts = 1;
		load += iops;
		is_open = true;
	}
	return k + is_open;
}

size_t eng_limit_depths(const struct eng_run *r, const double *sd_qdepth, double *qd,
			uint32_t *depth)
{
	size_t n = 0, open = SIZE_MAX; /* the entry of the last serial worker met */
	uint32_t open_worker = 0;

	for (size_t s = 0; s < r->nr_sds; s++) {
		const struct eng_sd_desc *d = &r->sds[s];

		/* eng_place_serial() gives each worker the serial SDs next in SD order */
		if (d->is_serial && open != SIZE_MAX && d->worker == open_worker) {
			qd[open] += sd_qdepth[s];
			continue;
		}
		if (d->is_serial) {
			open = n;
			open_worker = d->worker;
		}
		qd[n] = sd_qdepth[s];
		depth[n++] = !d->is_serial ? d->threads : d->nr_parts ? d->nr_parts : 1;
	}
	return n;
}

/* An SD whose sync threads (more than one) write a buffered file or block device. */
static bool is_gate_candidate(const struct eng_run *r, size_t s)
{
	const struct eng_sd_desc *sd = &r->sds[s];

	return sd->is_written && eng_backend_is_sync(sd->engine) && sd->threads > 1 && sd->target &&
	       sd->target->fd >= 0 && !sd->target->is_direct && sd->target->kind != ENG_TARGET_CHAR;
}

void eng_pick_write_gated(struct eng_run *r, uint32_t nr_cpus)
{
	for (size_t s = 0; s < r->nr_sds; s++)
		r->sds[s].is_write_gated = r->nr_sds >= nr_cpus && is_gate_candidate(r, s);
}
