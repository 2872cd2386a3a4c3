/* The profile's parameter text (profile.h): plain VDbench 5.04.07, comments starting with '*',
 * no blank in a parameter line (VDbench ignores what follows one), long iorate= lists
 * continued after a trailing comma. Every SD and WD is preceded by the trace figures it stands
 * for. */
#include "profile.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
	PROF_MAX_SIZES = 64, /* sizes kept per WD (GEN_XFER_MAX_SIZES); the others are shared */
	PROF_DEFAULT_THREADS = 8, /* VDbench's default when the trace has no latencies */
	PROF_MAX_THREADS = 256,
	PROF_PAIRS_PER_LINE = 16,
	PROF_SPIKE_SPAN_MS = 100, /* a second's I/Os within 100 ms count as one burst */
};

#define MIB 1048576.0

static void print_bytes(FILE *out, double bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned int u = 0;

	while (bytes >= 1024 && u + 1 < IORAMP_ARRAY_SIZE(units)) {
		bytes /= 1024;
		u++;
	}
	fprintf(out, u ? "%.4g %s" : "%.0f %s", bytes, units[u]);
}

/* ---- transfer sizes ---------------------------------------------------------------------- */

struct prof_size {
	uint32_t bytes;
	double nr;
};

static int cmp_size_bytes(const void *a, const void *b)
{
	const struct prof_size *x = a, *y = b;

	return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* The PROF_MAX_SIZES most frequent sizes, sorted by size. */
static size_t top_sizes(const struct trace_cmap *m, struct prof_size *out)
{
	size_t nr = 0;

	for (size_t i = 0; i < m->cap; i++) {
		struct prof_size s = { (uint32_t)(m->keys[i] - 1), (double)m->vals[i] };
		size_t j;

		if (!m->keys[i])
			continue;
		for (j = nr; j > 0 && (out[j - 1].nr < s.nr ||
				       (out[j - 1].nr == s.nr && out[j - 1].bytes > s.bytes));
		     j--)
			;
		if (j == PROF_MAX_SIZES)
			continue;
		nr += nr < PROF_MAX_SIZES;
		memmove(&out[j + 1], &out[j], (nr - 1 - j) * sizeof(*out));
		out[j] = s;
	}
	qsort(out, nr, sizeof(*out), cmp_size_bytes);
	return nr;
}

/* The kept sizes, every other size shared between the kept sizes around it so that the mean
 * stays the same (beyond the smallest or largest kept, to that one). Returns how many. */
static size_t part_sizes(const struct prof_part *part, struct prof_size *out)
{
	const struct trace_cmap *m = &part->sizes;
	size_t nr = top_sizes(m, out);

	for (size_t i = 0; i < m->cap; i++) {
		uint32_t b = (uint32_t)(m->keys[i] - 1);
		size_t hi = 0;

		if (!m->keys[i])
			continue;
		while (hi < nr && out[hi].bytes < b)
			hi++;
		if (hi < nr && out[hi].bytes == b)
			continue; /* kept */
		if (hi == 0 || hi == nr) {
			out[hi ? nr - 1 : 0].nr += (double)m->vals[i];
			continue;
		}
		out[hi].nr += (double)m->vals[i] * (b - out[hi - 1].bytes) /
			      (out[hi].bytes - out[hi - 1].bytes);
		out[hi - 1].nr += (double)m->vals[i] * (out[hi].bytes - b) /
				  (out[hi].bytes - out[hi - 1].bytes);
	}
	return nr;
}

/* Splits 100.00 % into hundredths proportional to the counts (largest remainder), summing to
 * exactly 100.00. */
static void split_pct(const struct prof_size *s, size_t n, unsigned int *units)
{
	double total = 0, rem[PROF_MAX_SIZES];
	unsigned int given = 0;

	for (size_t i = 0; i < n; i++)
		total += s[i].nr;
	for (size_t i = 0; i < n; i++) {
		double x = s[i].nr * 10000 / total;

		units[i] = (unsigned int)x;
		rem[i] = x - units[i];
		given += units[i];
	}
	while (given < 10000) {
		size_t best = 0;

		for (size_t i = 1; i < n; i++)
			if (rem[i] > rem[best])
				best = i;
		units[best]++;
		rem[best] = -1;
		given++;
	}
}

static void print_size(FILE *out, uint32_t bytes)
{
	if (bytes % 1024 == 0)
		fprintf(out, "%uk", bytes / 1024);
	else
		fprintf(out, "%u", bytes);
}

/* xfersize=4k or xfersize=(4k,60.25,64k,39.75) */
static void print_xfersize(FILE *out, const struct prof_part *part)
{
	struct prof_size sizes[PROF_MAX_SIZES];
	unsigned int units[PROF_MAX_SIZES];
	size_t nr = part_sizes(part, sizes);
	const char *sep = "(";

	fprintf(out, "xfersize=");
	if (nr == 1) {
		print_size(out, sizes[0].bytes);
		return;
	}
	split_pct(sizes, nr, units);
	for (size_t i = 0; i < nr; i++) {
		if (!units[i])
			continue;
		fputs(sep, out);
		print_size(out, sizes[i].bytes);
		fprintf(out, ",%u.%02u", units[i] / 100, units[i] % 100);
		sep = ",";
	}
	fputs(")", out);
}

/* ---- header -------------------------------------------------------------------------------- */

static void print_figs(FILE *out, const struct prof *p)
{
	struct trace_fid_figs g;

	if (trace_fid_figs(p->fid, &g))
		return;
	fprintf(out,
		"*   %" PRIu64 " I/Os over %.3f s on %zu device%s: %.2f IOPS; read %.2f %%; mean "
		"size: reads ",
		g.nr_ios, g.duration_s, g.nr_devs, g.nr_devs == 1 ? "" : "s", g.rate_iops,
		g.read_pct);
	print_bytes(out, g.mean_read_bytes);
	fprintf(out, ", writes ");
	print_bytes(out, g.mean_write_bytes);
	fprintf(out, "\n*   sizes:");
	for (unsigned int i = 0; i < g.nr_top_sizes && i < 6; i++)
		fprintf(out, " %u %.1f %%%s", g.top_sizes[i].size_bytes,
			100.0 * (double)g.top_sizes[i].nr / (double)g.nr_ios,
			i + 1 < g.nr_top_sizes && i < 5 ? "," : "");
	fprintf(out,
		"\n*   sequential %.2f %% (after one of the device's last 16 I/Os); footprint ",
		g.seq_pct);
	print_bytes(out, (double)g.footprint_bytes);
	fprintf(out, "; hottest 10 %% of %" PRIu64 " 1 MiB regions: %.2f %% of the I/Os\n",
		g.nr_regions, g.hot10_pct);
	if (g.has_sec_cv)
		fprintf(out, "*   I/Os per second: CV %.3f over %" PRIu64 " whole seconds\n",
			g.sec_cv, g.nr_seconds);
}

static const char profile_notes[] =
	"* How it was derived (ioramp trace profile; man ioramp, TRACE PROFILES):\n"
	"*   one SD per traced device, size= its span rounded up to 1 MiB. The 1 MiB regions of a\n"
	"*   device are put in classes by their I/O count (half-octaves); each class gets one WD per\n"
	"*   op with its own transfer sizes (rounded to 512 bytes; up to 16, the others counted with\n"
	"*   the nearest) and a range of its own, placed near where the class's regions lie (from\n"
	"*   a region's start and beside the streams when the device has room), long\n"
	"*   enough to touch as many regions as the trace did, all ranges of a device packed by one\n"
	"*   factor so that the footprint comes out as traced (the same packing for every class\n"
	"*   keeps the share of I/Os in the hottest regions). seekpct= makes each WD continue its\n"
	"*   previous I/O often enough that, interleaved with the device's other WDs, the share of\n"
	"*   I/Os starting where one of the device's last 16 ended comes out as traced. A long\n"
	"*   sequential stream among others' I/Os (a log, a scan, a boot image) gets a WD of its\n"
	"*   own: seekpct=0 over as many bytes as it traced, which it covers once. A class moved\n"
	"*   once, mostly in sequence (a copy, files read or written whole), is swept too, in as\n"
	"*   many interleaved sweeps as give its traced sequential share. skew= is each WD's share\n"
	"*   of the I/Os. iorate= pairs give every second of the trace its own rate\n"
	"*   (distribution=variable; spike when the trace's seconds are single bursts and VDbench's\n"
	"*   whole-I/O spikes lose under 1 % of them), in RDs of at most 3600 s.\n"
	"*   threads= is twice the mean outstanding I/Os (rate x mean latency) when the trace has\n"
	"*   latencies, else VDbench's default of 8; at least one per WD of the SD.\n"
	"* Run:   vdbench -f THIS_FILE lun=/dev/nvme%dn1   (sd0 on /dev/nvme0n1, sd1 on ...)\n"
	"*        ioramp -f THIS_FILE lun=/tmp/x%d          (files, created at size=)\n"
	"* Check: ioramp trace profile --check TRACE...     (synthesizes it, compares the figures)\n";

static void print_header(FILE *out, const struct prof *p)
{
	fprintf(out, "* VDbench 5.04.07 raw-I/O profile derived from %zu block trace%s:\n",
		p->cfg->nr_paths, p->cfg->nr_paths == 1 ? "" : "s");
	for (size_t i = 0; i < p->cfg->nr_paths; i++)
		fprintf(out, "*   %s (format %s)\n", p->files[i].path,
			trace_format_name(p->files[i].format));
	fprintf(out, "* Trace figures (the fidelity figures of ioramp trace compare):\n");
	print_figs(out, p);
	fputs(profile_notes, out);
}

/* ---- SDs and WDs --------------------------------------------------------------------------- */

static void dev_name(const struct prof *p, const struct prof_dev *d, char *buf, size_t len)
{
	if (trace_format_has_majmin(p->files[d->file_idx].format))
		snprintf(buf, len, "%u,%u", d->dev >> 20, d->dev & 0xfffff);
	else
		snprintf(buf, len, "%u", d->dev);
}

static unsigned int dev_threads(const struct prof *p, const struct prof_dev *d, unsigned int wds)
{
	double outstanding = PROF_DEFAULT_THREADS;
	double iops = p->duration_s > 0 ? (double)d->nr / p->duration_s : 0;

	if (p->nr_latencies)
		outstanding =
			ceil(2 * iops * (double)p->latency_sum_ns / (double)p->nr_latencies / 1e9);
	if (outstanding < wds)
		outstanding = wds;
	if (outstanding < 1)
		outstanding = 1;
	return outstanding > PROF_MAX_THREADS ? PROF_MAX_THREADS : (unsigned int)outstanding;
}

static void print_sd(FILE *out, const struct prof *p, size_t di)
{
	const struct prof_dev *d = p->devs[di];
	unsigned int wds = 0;
	char name[32];

	for (size_t i = 0; i < p->nr_wds; i++)
		wds += p->wds[i].dev_idx == di && p->wds[i].skew_units;
	dev_name(p, d, name, sizeof(name));
	fprintf(out, "* sd%zu: device %s of %s: %" PRIu64 " I/Os (%.2f %%), span ", di, name,
		p->files[d->file_idx].path, d->nr, 100.0 * (double)d->nr / (double)p->nr_ios);
	print_bytes(out, (double)d->max_end_bytes);
	fprintf(out, ", footprint ");
	print_bytes(out, (double)d->footprint_bytes);
	fprintf(out, ";\n*   its classes' regions packed %.2fx: the model expects a footprint of ",
		d->kappa);
	print_bytes(out, d->model_footprint_bytes);
	fprintf(out, " and %.2f %% of its I/Os in its hottest 10 %% of regions (traced: %.2f %%)\n",
		d->model_hot10_pct, d->trace_hot10_pct);
	if (d->grow > 0)
		fprintf(out,
			"*   ranges of random I/O grown %.0f %% of the way to where each adds under "
			"0.25 points of sequential I/Os not traced\n",
			100 * d->grow);
	fprintf(out, "sd=sd,count=(%zu,1),lun=$lun,size=%" PRIu64 "m,threads=%u\n", di,
		d->size_bytes >> 20, dev_threads(p, d, wds));
}

static void print_wd_class(FILE *out, const struct prof *p, const struct prof_wd *w)
{
	const struct prof_class *c = &p->devs[w->dev_idx]->classes[w->cls];
	uint64_t lo_count = (uint64_t)ceil(pow(2, w->cls / 2.0));

	fprintf(out,
		"* %s: %s of sd%zu in its regions of %" PRIu64 "+ I/Os: %" PRIu64
		" regions holding %.2f %% of the trace's I/Os (this op %.2f %%), footprint ",
		w->name, w->op ? "writes" : "reads", w->dev_idx, lo_count, c->nr_regions,
		100.0 * (double)(c->ops[0].nr + c->ops[1].nr) / (double)p->nr_ios,
		100.0 * (double)w->part->nr / (double)p->nr_ios);
}

static void print_wd_stream(FILE *out, const struct prof *p, const struct prof_wd *w)
{
	const struct prof_class *c = &p->devs[w->dev_idx]->classes[w->cls];

	fprintf(out,
		"* %s: %s of an interleaved sequential stream of sd%zu (%.2f %% of the trace's "
		"I/Os), traced from byte %" PRIu64 " to %" PRIu64 ", swept once; footprint ",
		w->name, w->op ? "writes" : "reads", w->dev_idx,
		100.0 * (double)w->part->nr / (double)p->nr_ios, c->lo_bytes, c->hi_bytes);
}

static void print_wd(FILE *out, const struct prof *p, const struct prof_wd *w)
{
	const struct prof_class *c = &p->devs[w->dev_idx]->classes[w->cls];
	double seq = 100.0 * (double)w->part->nr_seq / (double)w->part->nr;
	uint64_t lo, len;

	prof_wd_range(p, w, &lo, &len);

	if (c->is_stream)
		print_wd_stream(out, p, w);
	else
		print_wd_class(out, p, w);
	print_bytes(out, (double)c->footprint_bytes);
	fprintf(out, "; range ");
	print_bytes(out, (double)len);
	fprintf(out, "; %.2f %% of them sequential in the trace%s", seq,
		!c->is_stream && prof_is_swept(c) ? "; it fills its bytes: swept once" : "");
	if (w->sweep)
		fprintf(out, ", its part %u of %u sweeps at once", w->sweep, w->part->nr_sweeps);
	fprintf(out, "\n");
	fprintf(out, "wd=%s,sd=sd%zu,", w->name, w->dev_idx);
	print_xfersize(out, w->part);
	fprintf(out,
		",rdpct=%d,seekpct=%.2f,range=(%" PRIu64 ",%" PRIu64 "),skew=%" PRIu64 ".%04" PRIu64
		"\n",
		w->op ? 0 : 100, 100 * (1 - w->part->seq_frac), lo, lo + len, w->skew_units / 10000,
		w->skew_units % 10000);
}

/* ---- rates ---------------------------------------------------------------------------------- */

/* Whether spikes fit: nearly every I/O comes in a second whose I/Os span at most 100 ms, and
 * VDbench's whole-I/O spikes per workload and second lose less than 1 % of them. */
static bool fits_spike(const struct prof *p, size_t nr_secs)
{
	uint64_t in_burst = 0, counted = 0;
	double lost = 0;

	for (size_t s = 0; s < nr_secs; s++) {
		if (p->sec_count[s] < 2)
			continue;
		counted += p->sec_count[s];
		if (p->sec_last_ms[s] - p->sec_first_ms[s] <= PROF_SPIKE_SPAN_MS)
			in_burst += p->sec_count[s];
		for (size_t i = 0; i < p->nr_wds; i++) {
			double x = p->sec_count[s] * (double)p->wds[i].skew_units / 1e6;

			lost += x - floor(x * (1 + 1e-12) + 1e-9);
		}
	}
	return counted && in_burst >= 0.9 * (double)counted && lost < 0.01 * (double)p->nr_ios;
}

static void print_rate(FILE *out, double rate)
{
	if (rate == floor(rate))
		fprintf(out, "%.0f", rate);
	else
		fprintf(out, "%.3f", rate);
}

/* The rate of second s: its count (the last one over the part traced), drawn towards the
 * mean by p->shrink (see rate_shrink()), to a thousandth. */
static double sec_rate(const struct prof *p, size_t s, double last_rate)
{
	double c = s + 1 == p->nr_secs && last_rate >= 0 ? last_rate : p->sec_count[s];
	double rate = p->sec_mean + (c - p->sec_mean) * p->shrink;

	return rate < 0.0005 ? 0 : round(rate * 1000) / 1000;
}

/* Exponential arrivals add their own noise to every second: a second at rate r gets a
 * Poisson number of I/Os, variance r, so the synthesized counts vary by the traced variance
 * plus the mean. The rates are drawn towards the mean by sqrt(1 - mean / variance) so that the
 * two add up to the traced variance, and the per-second CV comes out as traced; a trace
 * steadier than Poisson arrivals gets its mean rate every second (nothing steadier exists
 * with them). Bursty traces, variance far above the mean, keep their rates nearly as they
 * are. */
static void rate_shrink(struct prof *p, size_t nr)
{
	double sum = 0, sq = 0, var;
	size_t whole = nr > 1 ? nr - 1 : nr; /* the last second may be partly traced */

	p->sec_mean = 0;
	p->shrink = 1;
	if (whole < 2)
		return;
	for (size_t s = 0; s < whole; s++)
		sum += p->sec_count[s];
	p->sec_mean = sum / (double)whole;
	for (size_t s = 0; s < whole; s++)
		sq += (p->sec_count[s] - p->sec_mean) * (p->sec_count[s] - p->sec_mean);
	var = sq / (double)whole;
	p->shrink = var > p->sec_mean ? sqrt(1 - p->sec_mean / var) : 0;
}

/* One RD over seconds [from, to): (rate,seconds) pairs, equal neighbours joined. */
static void print_rd(FILE *out, const struct prof *p, unsigned int n, size_t from, size_t to,
		     double last_rate)
{
	const char *dist = p->is_spike ? "(exponential,variable,spike)" : "(exponential,variable)";
	unsigned int nr_pairs = 0;
	bool is_idle = true;
	size_t run;

	for (size_t s = from; s < to && is_idle; s++)
		is_idle = sec_rate(p, s, last_rate) == 0;
	fprintf(out, "rd=rd%u,wd=w*,distribution=%s,elapsed=%zu,interval=1,iorate=(", n, dist,
		to - from < 2 ? 2 : to - from);
	if (is_idle) {
		/* Pairs that are all 0 make a run without a rate: max I/O in ioramp (and no
		 * schedule for trace synth). The least rate printed, in the last second alone,
		 * keeps the span idle: over the whole span it would issue an I/O every 180 s
		 * (VDbench's longest exponential gap), 20 an hour. */
		fprintf(out, "0,%zu,0.001,1)\n", (to - from < 2 ? 2 : to - from) - 1);
		return;
	}
	for (size_t s = from; s < to; s += run) {
		double rate = sec_rate(p, s, last_rate);

		for (run = 1; s + run < to && sec_rate(p, s + run, last_rate) == rate; run++)
			;
		if (nr_pairs)
			fputs(nr_pairs % PROF_PAIRS_PER_LINE == 0 ? ",\n" : ",", out);
		print_rate(out, rate);
		fprintf(out, ",%zu", run);
		nr_pairs++;
	}
	fputs(")\n", out);
}

/* Per second of the trace, in RDs of at most 3600 s; a trace under two seconds runs at its
 * mean rate. The last second, partly traced, gets the rate that issues its I/Os in the part
 * traced (under a tenth of a second, they join the second before). */
static void print_rds(FILE *out, struct prof *p)
{
	size_t nr, from = 0;
	unsigned int n = 1;

	if (p->duration_s < 2) {
		double iops = p->duration_s > 0 ? (double)p->nr_ios / p->duration_s : p->nr_ios;

		fprintf(out, "* the trace lasts under two seconds: one rate, its mean\n");
		fprintf(out, "rd=rd1,wd=w*,iorate=");
		print_rate(out, round(iops * 1000) / 1000);
		fprintf(out, ",elapsed=2,interval=1\n");
		return;
	}
	if (!p->is_folded) {
		double frac = p->duration_s - (double)(p->nr_secs - 1);

		p->is_folded = true;
		p->last_rate = -1;
		if (p->nr_secs >= 2 && frac < 0.1) {
			p->sec_count[p->nr_secs - 2] += p->sec_count[p->nr_secs - 1];
			p->nr_secs--;
		} else if (p->nr_secs >= 1) {
			p->last_rate = round(p->sec_count[p->nr_secs - 1] / frac * 1000) / 1000;
		}
	}
	nr = p->nr_secs;
	rate_shrink(p, nr);
	p->is_spike = fits_spike(p, nr);
	fprintf(out, "* %zu seconds, each at its traced rate (I/Os per second, then seconds)\n",
		nr);
	while (from < nr) {
		size_t to = from + PROF_MAX_VARIABLE_SECS < nr ? from + PROF_MAX_VARIABLE_SECS : nr;

		if (nr - to > 0 && nr - to < 2)
			to = nr - 2; /* every RD lasts two seconds at least */
		print_rd(out, p, n++, from, to, p->last_rate);
		from = to;
	}
}

void prof_emit(FILE *out, struct prof *p)
{
	print_header(out, p);
	for (size_t i = 0; i < p->nr_devs; i++)
		print_sd(out, p, i);
	for (size_t i = 0; i < p->nr_wds; i++)
		if (p->wds[i].skew_units)
			print_wd(out, p, &p->wds[i]);
	print_rds(out, p);
}
