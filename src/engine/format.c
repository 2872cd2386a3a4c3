/* The hidden SD_format run (reference §4): files that are missing or shorter than size= are
 * written sequentially first, formatxfersize= (128k) at a time with two threads, as fast as they
 * go, until every one reaches its size. */
#include "cluster.h"
#include "exec.h"

#include <stdlib.h>
#include <string.h>

static void format_wg(struct eng_wg_desc *g, uint32_t sd, uint64_t from_bytes, uint64_t size_bytes,
		      uint64_t xfer_bytes)
{
	uint64_t start = from_bytes / xfer_bytes * xfer_bytes;

	g->run_sd = sd;
	g->run_wd = 0;
	g->weight = 1;
	g->gen.rdpct = 0;
	g->gen.xfer.kind = GEN_XFER_FIXED;
	g->gen.xfer.nr_sizes = 1;
	g->gen.xfer.size_bytes[0] = xfer_bytes;
	g->gen.seek = GEN_SEEK_EOF;
	g->gen.sd_size_bytes = size_bytes;
	g->gen.range.start_bytes = start;
	g->gen.range.len_bytes = size_bytes - start;
}

/* Java's HashMap bucket of an SD name in a table of 16 (String.hashCode(), spread). */
static uint32_t java_bucket(const char *name)
{
	uint32_t h = 0;

	for (; *name; name++)
		h = 31 * h + (unsigned char)*name;
	return (h ^ (h >> 16)) & 15;
}

/* With VDbench's slaves each SD's format runs on one of them, the k-th SD in Java hash-map order
 * of the SD names on slave k mod N (VDbench 5.04.07, observed with jvms=2: sd2 on localhost-0,
 * sd1 on localhost-1, all their threads there). */
static void format_slaves(struct eng_run *r, const struct parm_config *cfg)
{
	uint32_t k = 0;

	if (r->nr_jvms <= 1 || r->nr_sds > 12)
		return; /* more than 12 SDs: a larger table; left to every slave */
	for (uint32_t b = 0; b < 16; b++)
		for (size_t i = 0; i < r->nr_wgs; i++) {
			struct eng_wg_desc *g = &r->wgs[i];

			if (java_bucket(cfg->sds[r->sds[g->run_sd].cfg_idx].name) == b)
				g->jvm = (int16_t)eng_jvm_seq_slave(r, g->run_sd, k++);
		}
}

int eng_format_build(struct eng_exec *x, struct eng_run *r)
{
	const struct parm_config *cfg = x->plan->cfg;
	uint64_t xfer = cfg->general.formatxfersize_bytes;

	memset(r, 0, sizeof(*r));
	r->sds = calloc(cfg->nr_sds ? cfg->nr_sds : 1, sizeof(*r->sds));
	r->wgs = calloc(cfg->nr_sds ? cfg->nr_sds : 1, sizeof(*r->wgs));
	r->wd_names = calloc(1, sizeof(*r->wd_names));
	r->wd_skew_pct = calloc(1, sizeof(*r->wd_skew_pct));
	if (!r->sds || !r->wgs || !r->wd_names || !r->wd_skew_pct)
		return -1;
	for (size_t s = 0; s < cfg->nr_sds; s++) {
		const struct parm_sd *sd = &cfg->sds[s];
		uint64_t size = sd->size_bytes ? sd->size_bytes : x->targets[s].size_bytes;
		uint64_t x_bytes = size < xfer ? 512 : xfer; /* tiny files: 512 */
		struct eng_sd_desc *d;

		if (x->clu && x->clu->is_fmt[s] && (!x->needs[s].is_format || size < x_bytes)) {
			/* many hosts: formatted elsewhere; listed so that every rank's SDs agree */
			d = &r->sds[r->nr_sds++];
			d->cfg_idx = s;
			d->target = &x->targets[s];
			continue;
		}
		if (!x->needs[s].is_format || size < x_bytes)
			continue;
		d = &r->sds[r->nr_sds];
		d->cfg_idx = s;
		d->target = &x->targets[s];
		d->threads = 2;
		d->size_bytes = (sd->size_bytes ? sd->size_bytes : d->target->size_bytes) /
				x_bytes * x_bytes;
		d->max_xfer_bytes = x_bytes;
		format_wg(&r->wgs[r->nr_wgs], (uint32_t)r->nr_sds, x->needs[s].format_from_bytes,
			  d->size_bytes, x_bytes);
		/* formatsds=yes on a device: block 0 stays untouched there too */
		r->wgs[r->nr_wgs].gen.is_raw_device = d->target->kind == ENG_TARGET_BLOCK;
		r->wgs[r->nr_wgs++].gen.guard_bytes = x_bytes;
		r->nr_sds++;
	}
	if (!r->nr_sds)
		return 1;
	r->wd_names[0] = "SD_format";
	r->wd_skew_pct[0] = 100;
	r->nr_wds = 1;
	r->mode = ENG_MODE_MAX;
	r->nr_prio = 1;
	r->stream_base = 1ull << 56;
	r->interval_ns = 1000000000u;
	r->nr_intervals = UINT32_MAX;
	r->has_eof = true;
	r->compratio = cfg->general.compratio > 0 ? cfg->general.compratio : 1;
	for (size_t i = 0; i < r->nr_wgs; i++)
		r->wgs[i].jvm = -1;
	if (!x->clu) {
		eng_run_jvms(r, x->plan);
		format_slaves(r, cfg);
	}
	return 0;
}

/* What VDbench 5.04.07 says before it formats (observed): a warning per file shorter than size=,
 * then one line per file missing or short. */
void eng_exec_format_notices(const struct eng_exec *x, void (*emit)(void *ctx, const char *text),
			     void *ctx)
{
	const struct parm_config *cfg = x->plan->cfg;
	char text[8192];
	bool any = false;

	for (size_t s = 0; s < cfg->nr_sds; s++) {
		const struct eng_sd_need *n = &x->needs[s];

		if (!n->is_used || !n->is_extend)
			continue;
		any = true;
		if (n->is_create)
			continue;
		snprintf(text, sizeof(text),
			 "Warning: size requested for sd=%s,lun=%s: %llu; size available: %llu. "
			 "Insufficient size.",
			 cfg->sds[s].name, cfg->sds[s].lun,
			 (unsigned long long)cfg->sds[s].size_bytes,
			 (unsigned long long)n->found_bytes);
		emit(ctx, "");
		emit(ctx, text);
		emit(ctx, "If this is a file system file vdbench will try to expand it. ");
		emit(ctx, "");
	}
	if (!any)
		return;
	emit(ctx, "Vdbench will attempt to expand a disk file if the requested file size is a "
		  "multiple of 1mb");
	for (size_t s = 0; s < cfg->nr_sds; s++)
		if (x->needs[s].is_used && x->needs[s].is_extend) {
			snprintf(text, sizeof(text),
				 "lun=%s does not exist or is too small. host=localhost",
				 cfg->sds[s].lun);
			emit(ctx, text);
		}
}
