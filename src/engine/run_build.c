/* From a plan run to what the workers execute (reference §9.2-9.7): the run's SDs with the
 * threads and transfer limits the plan resolved and their sizes, one generator per (WD, SD)
 * with the RD's loop overrides applied, and each generator's share of the rate the plan gives
 * its workload, split equally over its SDs. */
#include "cluster.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void eng_run_fini(struct eng_run *r)
{
	eng_run_write_gates_fini(r);
	free(r->sds);
	free(r->wgs);
	free(r->seq_cursors);
	free(r->wg_steps);
	free(r->wd_names);
	free(r->wd_skew_pct);
	free(r->dedup_pattern);
	eng_concat_fini(&r->concat);
	memset(r, 0, sizeof(*r));
}

static void xfer_from_parm(const struct parm_xfer *x, const struct plan_overrides *o,
			   struct gen_xfer_cfg *out)
{
	memset(out, 0, sizeof(*out));
	if (o->has_xfersize || x->kind == PARM_XFER_FIXED) {
		out->kind = GEN_XFER_FIXED;
		out->nr_sizes = 1;
		out->size_bytes[0] = o->has_xfersize ? o->xfersize_bytes : x->sizes_bytes[0];
	} else if (x->kind == PARM_XFER_RANGE) {
		out->kind = GEN_XFER_RANGE;
		out->min_bytes = x->min_bytes;
		out->max_bytes = x->max_bytes;
		out->align_bytes = x->align_bytes;
	} else {
		out->kind = GEN_XFER_DIST;
		out->nr_sizes = (uint32_t)(x->nr < GEN_XFER_MAX_SIZES ? x->nr : GEN_XFER_MAX_SIZES);
		for (uint32_t i = 0; i < out->nr_sizes; i++) {
			out->size_bytes[i] = x->sizes_bytes[i];
			out->pct[i] = x->pcts[i];
		}
	}
}

static int run_sd_index(const struct eng_run *r, size_t cfg_idx)
{
	for (size_t i = 0; i < r->nr_sds; i++)
		if (r->sds[i].cfg_idx == cfg_idx)
			return (int)i;
	return -ENOENT;
}

uint64_t eng_sd_lun_bytes(const struct parm_sd *sd, const struct eng_target *t)
{
	uint64_t size = sd->size_bytes ? sd->size_bytes : t->size_bytes;

	if (sd->size_bytes && t->size_bytes && t->size_bytes < size)
		size = t->size_bytes;
	return size;
}

uint64_t eng_sd_usable_bytes(const struct parm_sd *sd, const struct eng_target *t)
{
	uint64_t size = eng_sd_lun_bytes(sd, t);

	return size > sd->offset_bytes ? size - sd->offset_bytes : 0;
}

/* The plan's SDs of the run (plan_run.sds: its order, threads and largest transfer), with
 * this rank's threads on many hosts; the size used: from offset= to size= or the target's
 * end, rounded down to the largest transfer (reference §4). */
static int collect_sds(struct eng_run *r, const struct plan *plan, const struct plan_run *pr,
		       struct eng_target *targets, const struct clu_share *share)
{
	r->sds = calloc(pr->nr_sds ? pr->nr_sds : 1, sizeof(*r->sds));
	if (!r->sds)
		return -ENOMEM;
	for (size_t i = 0; i < pr->nr_sds; i++) {
		const struct plan_run_sd *ps = &pr->sds[i];
		const struct parm_sd *sd = &plan->cfg->sds[ps->sd_idx];
		struct eng_sd_desc *d = &r->sds[r->nr_sds++];
		uint64_t size;

		d->cfg_idx = ps->sd_idx;
		d->target = &targets[ps->sd_idx];
		d->threads = share ? share->threads[ps->sd_idx] : ps->threads;
		d->max_xfer_bytes = ps->max_xfer_bytes;
		size = eng_sd_usable_bytes(sd, d->target);
		d->size_bytes =
			d->max_xfer_bytes ? size / d->max_xfer_bytes * d->max_xfer_bytes : size;
	}
	return 0;
}

/* A read or hit percentage outside 0..100 runs as 0 or 100, as VDbench runs rdpct=150 ([254]). */
static double pct_clamp(double v)
{
	return v < 0 ? 0 : v > 100 ? 100 : v;
}

static int wg_cfg(const struct eng_run *r, const struct plan *plan, const struct plan_run *pr,
		  const struct parm_wd *wd, const struct eng_sd_desc *d, struct gen_wg_cfg *g,
		  struct parm_err *err)
{
	const struct parm_sd *sd = &plan->cfg->sds[d->cfg_idx];
	const struct plan_overrides *o = &pr->ovr;
	bool has_band = parm_kwset_has(&wd->set, PARM_KW_HOTBAND);
	struct parm_range rg = has_band					 ? wd->hotband
			       : parm_kwset_has(&wd->set, PARM_KW_RANGE) ? wd->range
									 : sd->range;
	int ret;

	(void)r;
	memset(g, 0, sizeof(*g));
	g->rdpct = pct_clamp(o->has_rdpct ? o->rdpct : wd->rdpct);
	xfer_from_parm(&wd->xfer, o, &g->xfer);
	g->seek = (enum gen_seek)wd->seek; /* the enums share their order */
	g->seekpct = wd->seekpct;
	if (o->has_seekpct) {
		g->seek = o->seekpct < 0 ? GEN_SEEK_EOF : GEN_SEEK_PCT;
		g->seekpct = o->seekpct < 0 ? 0 : o->seekpct;
	}
	if (g->seek == GEN_SEEK_POISSON)
		g->poisson_lambda = wd->seekpct > 0 ? wd->seekpct : 1;
	g->sd_size_bytes = d->size_bytes;
	ret = gen_range_resolve(rg.lo, rg.hi, d->size_bytes, d->max_xfer_bytes, &g->range);
	if (ret)
		return parm_errf(err, &wd->loc,
				 "wd=%s on sd=%s: range (%g,%g) does not fit the "
				 "%llu bytes used of lun=%s; expected a range holding at least one "
				 "%llu-byte transfer",
				 wd->name, sd->name, rg.lo, rg.hi,
				 (unsigned long long)d->size_bytes, sd->lun,
				 (unsigned long long)d->max_xfer_bytes);
	g->align_bytes = sd->align_bytes;
	g->offset_bytes = sd->offset_bytes;
	g->hitarea_bytes = o->has_hitarea ? o->hitarea_bytes : sd->hitarea_bytes;
	g->rhpct = pct_clamp(o->has_rhpct ? o->rhpct : wd->rhpct);
	g->whpct = pct_clamp(o->has_whpct ? o->whpct : wd->whpct);
	g->is_hotband = has_band;
	g->has_stride = parm_kwset_has(&wd->set, PARM_KW_STRIDE);
	g->stride_min_bytes = wd->stride_min_bytes;
	g->stride_max_bytes = wd->stride_max_bytes;
	g->is_raw_device = d->target->kind == ENG_TARGET_BLOCK;
	g->guard_bytes = d->max_xfer_bytes; /* the SD's block 0, whatever this workload's size */
	return 0;
}

static uint32_t prio_level(const struct plan_run *pr, const struct parm_wd *wd)
{
	uint32_t level = 0;

	if (!wd->priority)
		return 0;
	for (size_t i = 0; i < pr->nr_wds; i++)
		if (pr->wds[i]->priority && pr->wds[i]->priority < wd->priority)
			level++;
	return level < ENG_MAX_PRIO ? level : ENG_MAX_PRIO - 1;
}

/* Many hosts: whether this rank runs workload w on its SD s, and the workload's generators
 * over all ranks (its rate is split equally over them, reference §9.2). */
static bool wg_is_here(const struct eng_run *r, const struct clu_share *share, size_t w, size_t s)
{
	return !share || (share->is_wd_here[w] && r->sds[s].threads > 0);
}

/* streams=N (VDbench 5.04.07, observed): N generators per SD, one per equal piece of the SD,
 * each a sequential stream of its own that its share of the threads= issues from one position;
 * rhpct= and whpct= are ignored (guide 1.13.13), and so is range= (observed: with range=(10,60)
 * its slaves' "StreamContext" lines and reads cover the whole file). */
static uint32_t wd_streams(const struct parm_wd *wd)
{
	return parm_kwset_has(&wd->set, PARM_KW_STREAMS) && wd->streams > 1 ? wd->streams : 1;
}

/* Piece `k` of `n` of the SD, in multiples of max_xfer (observed: 10,000,000 bytes in 4k
 * transfers, streams=3: pieces of 3.176m). */
static void stream_piece(struct gen_wg_cfg *g, uint64_t max_xfer, uint32_t k, uint32_t n)
{
	uint64_t piece = g->sd_size_bytes / n;

	if (max_xfer)
		piece = piece / max_xfer * max_xfer;
	g->range.start_bytes = k * piece;
	g->range.len_bytes = piece;
	g->rhpct = 0;
	g->whpct = 0;
}

/* VDbench 5.04.07 refuses the run too: "'threads=3' must be a multiple of the amount of
 * streams=2" (observed). */
static int streams_threads_err(const struct plan_run *pr, size_t w, const struct eng_sd_desc *d,
			       const struct plan *plan, struct parm_err *err)
{
	const struct parm_wd *wd = pr->wds[w];

	return parm_errf(err, &wd->set.val[PARM_KW_STREAMS]->loc,
			 "wd=%s: streams=%u on sd=%s with threads=%u in rd=%s; expected threads= "
			 "a multiple of streams= (VDbench refuses it too)",
			 wd->name, wd->streams, plan->cfg->sds[d->cfg_idx].name, d->threads,
			 pr->name);
}

/* A concatenation's generator at member `at`: the first draws the WD's (stream's) whole rate
 * and weight; the others only count (concat_run.c). */
static void concat_share(struct eng_wg_desc *g, size_t at, double rate, double weight)
{
	g->is_concat_member = at > 0;
	g->rate_iops = at ? 0 : rate;
	g->weight = at ? 0 : weight;
}

/* wg_cfg() over the SD, or for a concatenation's first member over the whole of it, its
 * block 0 never touched (VDbench's first lba is 4096 at xfersize=4k). */
static int wg_cfg_at(const struct eng_run *r, const struct plan *plan, const struct plan_run *pr,
		     const struct parm_wd *wd, const struct eng_sd_desc *d, struct gen_wg_cfg *g,
		     struct parm_err *err)
{
	struct eng_sd_desc whole;
	int ret;

	if (!r->concat.nr)
		return wg_cfg(r, plan, pr, wd, d, g, err);
	whole = *d;
	whole.size_bytes = eng_concat_bytes(r);
	ret = wg_cfg(r, plan, pr, wd, &whole, g, err);
	g->is_raw_device = true;
	g->guard_bytes = r->concat.guard_bytes;
	return ret;
}

/* How many of VDbench's slaves an SD's threads are dealt to on one host: each of its (SD, slave)
 * pairs is one instance of every workload using the SD (reference §9.2); 1 where the run is
 * not split (many hosts count their own instances, clu_share). */
static uint32_t jvm_slaves(const struct eng_run *r, size_t s)
{
	if (r->nr_jvms <= 1)
		return 1;
	return r->sds[s].threads < r->nr_jvms ? r->sds[s].threads : r->nr_jvms;
}

/* A 100% sequential workload (seekpct=0, seq, eof, seqnz). */
static bool is_sequential(const struct gen_wg_cfg *g)
{
	return g->seek == GEN_SEEK_EOF || g->seek == GEN_SEEK_SEQNZ ||
	       (g->seek == GEN_SEEK_PCT && g->seekpct <= 0);
}

/* VDbench runs a sequential workload on one slave only, "the least busy" (reference §9.5),
 * observed on 5.04.07: an SD that only sequential WDs use runs on one slave as a whole, the
 * k-th such SD of the run on slave k mod N (three sequential WDs on an SD each, jvms=3: one SD
 * per slave, its three threads there, at max and at a fixed rate); on an SD a random WD uses
 * too, at a fixed rate on the slave of the SD's first thread (wd2 seekpct=seq beside a random
 * wd1 on two SDs, jvms=2, iorate=400: localhost-0 ran 300/s, localhost-1 100/s; wd2 and wd3 on
 * two SDs, jvms=3: all four pairs on localhost-0), at max the k-th such (WD, SD) pair of the run
 * on slave k mod N (the same wd2 and wd3 at max: 2, 1 and 1 of the four pairs on localhost-0, 1
 * and 2), or where that slave has none of the SD's threads the slave of its first. */
uint32_t eng_jvm_seq_slave(const struct eng_run *r, uint32_t s, uint32_t k)
{
	const struct eng_sd_desc *d = &r->sds[s];
	uint32_t j = k % r->nr_jvms;

	for (uint32_t t = 0; t < d->threads && t < r->nr_jvms; t++)
		if (plan_jvm_of_thread(d->first_thread, t, r->nr_jvms) == j)
			return j;
	return plan_jvm_of_thread(d->first_thread, 0, r->nr_jvms);
}

/* Each sequential generator's slave (eng_jvm_seq_slave), once all are built; streams= deal
 * their streams over the slaves, the k-th (SD, stream) of the run on slave k mod N (observed:
 * streams=2 on four SDs, jvms=4: sd1's on localhost-0 and 1, sd2's on 2 and 3, sd3's on 0 and
 * 1), each with threads= / streams= of the SD's threads. */
static int jvm_seq_slaves(struct eng_run *r)
{
	uint32_t nr_seq_sds = 0, nr_pairs = 0, nr_stream_wgs = 0;
	int32_t *sd_jvm; /* an SD's slave; -1: a random WD uses it; -2: not yet seen */

	if (r->nr_jvms <= 1)
		return 0;
	sd_jvm = malloc((r->nr_sds ? r->nr_sds : 1) * sizeof(*sd_jvm));
	if (!sd_jvm)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_sds; i++)
		sd_jvm[i] = -2;
	for (size_t i = 0; i < r->nr_wgs; i++)
		if (!is_sequential(&r->wgs[i].gen))
			sd_jvm[r->wgs[i].run_sd] = -1;
	for (size_t i = 0; i < r->nr_wgs; i++) {
		struct eng_wg_desc *g = &r->wgs[i];
		uint32_t s = g->run_sd;

		if (g->nr_streams > 1) {
			g->jvm = (int16_t)(nr_stream_wgs++ % r->nr_jvms);
			continue;
		}
		if (!is_sequential(&g->gen))
			continue;
		if (sd_jvm[s] == -2)
			sd_jvm[s] = (int32_t)eng_jvm_seq_slave(r, s, nr_seq_sds++);
		if (sd_jvm[s] >= 0)
			g->jvm = (int16_t)sd_jvm[s];
		else if (r->mode == ENG_MODE_RATE)
			g->jvm = (int16_t)plan_jvm_of_thread(r->sds[s].first_thread, 0, r->nr_jvms);
		else
			g->jvm = (int16_t)eng_jvm_seq_slave(r, s, nr_pairs++);
	}
	free(sd_jvm);
	return 0;
}

static int build_wgs(struct eng_run *r, const struct plan *plan, const struct plan_run *pr,
		     const struct clu_share *share, struct parm_err *err)
{
	size_t total = 0;

	for (size_t w = 0; w < pr->nr_wds; w++) {
		const size_t *idx;
		size_t nr;

		plan_run_wd_sds(pr, w, &idx, &nr);
		total += nr * wd_streams(pr->wds[w]);
	}
	r->wgs = calloc(total ? total : 1, sizeof(*r->wgs));
	if (!r->wgs)
		return -ENOMEM;
	for (size_t w = 0; w < pr->nr_wds; w++) {
		const size_t *idx;
		size_t nr;
		double rate = plan_run_wd_iops(pr, w, r->target_iops);

		plan_run_wd_sds(pr, w, &idx, &nr);
		uint32_t nr_streams = wd_streams(pr->wds[w]);

		for (size_t k = 0; k < nr * nr_streams; k++) {
			/* a concatenation: each stream's generator on the first member, then one
			 * counting generator per further member (eng_concat_route) */
			size_t at = r->concat.nr ? k % nr : k / nr_streams;
			uint32_t stream = (uint32_t)(r->concat.nr ? k / nr : k % nr_streams);
			int sd_idx = run_sd_index(r, idx[at]);
			struct eng_wg_desc *g;
			int ret;

			if (!wg_is_here(r, share, w, (size_t)sd_idx))
				continue;
			if (nr_streams > 1 && r->sds[sd_idx].threads % nr_streams)
				return streams_threads_err(pr, w, &r->sds[sd_idx], plan, err);
			g = &r->wgs[r->nr_wgs++];
			g->run_sd = (uint32_t)sd_idx;
			g->run_wd = (uint32_t)w;
			g->prio = prio_level(pr, pr->wds[w]);
			if (g->prio + 1 > r->nr_prio)
				r->nr_prio = g->prio + 1;
			g->rate_iops = rate * jvm_slaves(r, (size_t)sd_idx) /
				       (double)(share ? share->nr_instances[w] : nr) /
				       (double)nr_streams;
			g->weight = pr->skews[w] / (double)(nr * nr_streams);
			if (r->concat.nr)
				concat_share(g, at, rate / (double)nr_streams,
					     pr->skews[w] / (double)nr_streams);
			if (r->mode == ENG_MODE_MAX &&
			    !parm_kwset_has(&pr->wds[w]->set, PARM_KW_IORATE))
				g->rate_iops = 0;
			ret = wg_cfg_at(r, plan, pr, pr->wds[w], &r->sds[g->run_sd], &g->gen, err);
			if (ret)
				return ret;
			g->jvm = -1;
			if (r->nr_jvms > 1 && r->mode == ENG_MODE_RATE && is_sequential(&g->gen))
				/* its SDs alone share its rate, as with one slave */
				g->rate_iops = rate / (double)nr / (double)nr_streams;
			g->stream = stream;
			g->nr_streams = nr_streams;
			if (nr_streams > 1)
				stream_piece(&g->gen, r->sds[g->run_sd].max_xfer_bytes, stream,
					     nr_streams);
			if (g->gen.seek == GEN_SEEK_EOF)
				r->has_eof = true;
		}
	}
	return jvm_seq_slaves(r);
}

static double run_target(const struct plan_run *pr, const struct parm_rd *rd, double base_iops)
{
	switch (pr->rate) {
	case PLAN_RATE_VARIABLE:
		return eng_rd_is_variable(rd) ? eng_variable_mean_iops(rd) : 0;
	case PLAN_RATE_CURVE_POINT:
	case PLAN_RATE_REL:
		return plan_curve_target(base_iops > 0 ? base_iops : 10000, pr->pct);
	case PLAN_RATE_FIXED:
		return pr->rate_iops;
	default:
		return 0;
	}
}

static int run_names(struct eng_run *r, const struct plan_run *pr)
{
	r->nr_wds = pr->nr_wds;
	r->wd_names = calloc(pr->nr_wds, sizeof(*r->wd_names));
	r->wd_skew_pct = calloc(pr->nr_wds, sizeof(*r->wd_skew_pct));
	if (!r->wd_names || !r->wd_skew_pct)
		return -ENOMEM;
	for (size_t w = 0; w < pr->nr_wds; w++) {
		double rate = r->target_iops > 0 ? plan_run_wd_iops(pr, w, r->target_iops) : 0;

		r->wd_names[w] = pr->wds[w]->name;
		r->wd_skew_pct[w] =
			r->target_iops > 0 ? 100.0 * rate / r->target_iops : pr->skews[w];
	}
	return 0;
}

/* forcompratio=/forcompression= of the run, else the general compratio= or compression=
 * (both already ratios: VDbench 5.04 turns compression=P into compratio=100/P, tests/parm
 * [065], [223]). */
static double run_compratio(const struct parm_config *cfg, const struct plan_run *pr)
{
	if (pr->ovr.has_compratio)
		return pr->ovr.compratio;
	return cfg->general.compratio > 0 ? cfg->general.compratio : 1;
}

/* VDbench numbers the threads over the SDs sorted by name (strcmp), whatever order the
 * configuration or the run's WDs give them (observed: wd=wd1,sd=(sd3,sd2) puts sd2's thread on
 * slave 0; sd9, sd10 and sd2 of one thread, five and one on three slaves deal sd10's first,
 * then sd2's, then sd9's). */
void eng_run_jvms(struct eng_run *r, const struct plan *plan)
{
	const struct parm_sd *cfg = plan->cfg->sds;

	r->nr_jvms = plan_nr_jvms(plan);
	r->is_jvm_detail = r->nr_jvms > 1 && plan->cfg->general.is_slave_detail;
	for (size_t s = 0; s < r->nr_sds; s++) {
		r->sds[s].first_thread = 0;
		for (size_t o = 0; o < r->nr_sds; o++)
			if (strcmp(cfg[r->sds[o].cfg_idx].name, cfg[r->sds[s].cfg_idx].name) < 0)
				r->sds[s].first_thread += r->sds[o].threads;
	}
}

/* One host with VDbench's slaves at a fixed rate: the workloads' instances as clu_share counts
 * them on many hosts, with the slaves as one host's ranks. Returns 0 (*out left empty where the
 * run is not split) or -ENOMEM. */
static int jvm_share(const struct eng_run *r, const struct eng_run_src *src, struct clu_share *out)
{
	char label[] = "localhost";
	struct clu_host host = { .label = label, .system = label, .nr_ranks = r->nr_jvms };
	struct clu_map m = { .hosts = &host, .nr_hosts = 1, .nr_ranks = r->nr_jvms };
	int ret;

	memset(out, 0, sizeof(*out));
	if (r->nr_jvms <= 1 || r->mode != ENG_MODE_RATE || r->concat.nr)
		return 0;
	host.ranks = calloc(r->nr_jvms, sizeof(*host.ranks));
	m.host_of = calloc(r->nr_jvms, sizeof(*m.host_of)); /* every rank on host 0 */
	if (!host.ranks || !m.host_of) {
		ret = -ENOMEM;
		goto out;
	}
	for (uint32_t j = 0; j < r->nr_jvms; j++)
		host.ranks[j] = j;
	m.slave_of = host.ranks;
	ret = clu_share_build(&m, src->plan, src->run_idx, 0, out);
out:
	free(host.ranks);
	free(m.host_of);
	return ret;
}

int eng_run_build(struct eng_run *r, const struct eng_run_src *src, struct parm_err *err)
{
	const struct plan *plan = src->plan;
	size_t run_idx = src->run_idx;
	double base_iops = src->base_iops;
	const struct plan_run *pr = &plan->runs[run_idx];
	const struct parm_rd *rd = &plan->cfg->rds[pr->rd_idx];
	struct clu_share jvms = { 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	r->prun = pr;
	r->target_iops = run_target(pr, rd, base_iops);
	r->mode = r->target_iops > 0 ? ENG_MODE_RATE : ENG_MODE_MAX;
	r->dist = (enum gen_dist)rd->distribution; /* the enums share their order */
	r->stream_base = ((uint64_t)run_idx + 1) << 24;
	r->compratio = run_compratio(plan->cfg, pr);
	r->interval_ns = pr->interval_s * 1000000000ull;
	r->nr_intervals = (uint32_t)((pr->elapsed_s + pr->warmup_s) / pr->interval_s);
	r->nr_warmup = (uint32_t)(pr->warmup_s / pr->interval_s);
	ret = collect_sds(r, plan, pr, src->targets, src->share);
	if (!ret && !src->share && !rd->trace)
		eng_run_jvms(r, plan);
	if (!ret)
		ret = eng_concat_build(r, src, err);
	if (!ret && !src->share)
		ret = jvm_share(r, src, &jvms);
	if (!ret)
		ret = build_wgs(r, plan, pr,
				src->share	    ? src->share
				: jvms.nr_instances ? &jvms
						    : NULL,
				err);
	clu_share_fini(&jvms);
	if (!ret)
		ret = eng_run_steps(r, plan, err);
	if (!ret)
		ret = run_names(r, pr);
	if (ret == -ENOMEM)
		parm_errf(err, &rd->loc, "out of memory building rd=%s", rd->name);
	return ret;
}
