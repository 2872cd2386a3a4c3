/* Opening every SD the plan uses, once, before any I/O (reference §4): read-only unless some
 * run writes to it, O_DIRECT/O_DSYNC from the SD's, workloads' and RDs' openflags=, files
 * created when missing, and every check that would otherwise fail mid-run: a size beyond the
 * device, transfers or alignment the device's logical block does not divide under O_DIRECT,
 * writes to a mounted device, or to one carrying a signature without --force. */
#include "cluster.h"
#include "exec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct parm_loc lun_loc(const struct parm_sd *sd)
{
	const struct parm_val *v = sd->set.val[PARM_KW_LUN];

	return v ? v->loc : sd->loc;
}

/* What the plan asks of each SD: used at all, written, open flags, largest transfer. */
static void plan_needs(struct eng_exec *x)
{
	const struct plan *plan = x->plan;

	for (size_t i = 0; i < plan->nr_runs; i++) {
		const struct plan_run *r = &plan->runs[i];
		const struct parm_rd *rd = &plan->cfg->rds[r->rd_idx];

		for (size_t w = 0; w < r->nr_wds; w++) {
			const struct parm_wd *wd = r->wds[w];
			double rdpct = r->ovr.has_rdpct ? r->ovr.rdpct : wd->rdpct;

			for (size_t s = 0; s < plan->cfg->nr_sds; s++) {
				struct eng_sd_need *n = &x->needs[s];

				if (!plan_run_wd_uses_sd(r, w, s))
					continue;
				n->is_used = true;
				n->is_written |= rdpct < 100;
				/* a replay writes when its trace does (scanned before) */
				n->is_written |=
					rd->trace && x->traces && x->traces[r->rd_idx].nr_writes;
				n->flags |= wd->openflags.flags | rd->openflags.flags;
			}
		}
	}
	for (size_t s = 0; s < plan->cfg->nr_sds; s++) {
		x->needs[s].flags |= plan->cfg->sds[s].openflags.flags;
		if (x->dv_opts.is_recover_only) /* -jro reads what is there, writes nothing */
			x->needs[s].is_written = false;
		/* many hosts: an SD another host has (host= pairs) is not opened here */
		if (x->clu && !eng_clu_sd_here(x->clu, &plan->cfg->sds[s]))
			x->needs[s].is_used = false;
	}
}

/* Where the format of a file st_size long goes on: a file reaches size= only once its format
 * completed (eng_targets_formatted), so a shorter one is new, or a format was cut short. Its
 * last two format transfers may have had holes then (the pass keeps two in flight; a SIGKILL
 * does not wait for them): they are written again. */
static uint64_t format_resume_bytes(const struct eng_exec *x, uint64_t st_size)
{
	uint64_t xfer = x->plan->cfg->general.formatxfersize_bytes;
	uint64_t from;

	if (!xfer)
		return 0;
	from = st_size / xfer * xfer;
	return from > 2 * xfer ? from - 2 * xfer : 0;
}

/* A file that is missing or shorter than size= gets the format pass first. */
static int prepare_file(struct eng_exec *x, size_t s, struct parm_err *err)
{
	const struct parm_sd *sd = &x->plan->cfg->sds[s];
	struct parm_loc loc = lun_loc(sd);
	struct stat st;

	if (stat(sd->lun, &st) == 0) {
		if (S_ISREG(st.st_mode) && sd->size_bytes &&
		    (uint64_t)st.st_size < sd->size_bytes) {
			x->needs[s].found_bytes = (uint64_t)st.st_size;
			x->needs[s].format_from_bytes =
				format_resume_bytes(x, (uint64_t)st.st_size);
			x->needs[s].is_extend = true;
			x->needs[s].is_format = true;
			x->needs[s].is_written = true;
		}
		return 0;
	}
	if (errno != ENOENT)
		return parm_errf(err, &loc, "sd=%s: lun=%s: %s", sd->name, sd->lun,
				 strerror(errno));
	if (!strncmp(sd->lun, "/dev/", 5))
		return parm_errf(err, &loc,
				 "sd=%s: lun=%s does not exist; ioramp creates files, "
				 "never device nodes",
				 sd->name, sd->lun);
	if (!sd->size_bytes)
		return parm_errf(err, &loc,
				 "sd=%s: lun=%s does not exist; expected an existing "
				 "device or file, or size= to create it",
				 sd->name, sd->lun);
	x->needs[s].is_create = true;
	x->needs[s].is_extend = true;
	x->needs[s].is_format = true;
	x->needs[s].is_written = true;
	return 0;
}

/* formatsds=yes writes every SD once before the first run (devices too, with their checks);
 * formatsds=no writes none, a new or short file is then only extended (sparse). */
static void formatsds(struct eng_exec *x, size_t s)
{
	const struct parm_general *g = &x->plan->cfg->general;

	if (!parm_kwset_has(&g->set, PARM_KW_FORMATSDS))
		return;
	x->needs[s].is_format = g->formatsds;
	x->needs[s].format_from_bytes = 0;
	x->needs[s].is_written |= g->formatsds;
}

/* A new or short file to its size= (sparse where nothing was written). */
static int extend(int fd, const struct parm_sd *sd, struct parm_err *err)
{
	struct parm_loc loc = lun_loc(sd);

	if (!ftruncate(fd, (off_t)sd->size_bytes))
		return 0;
	return parm_errf(err, &loc, "sd=%s: lun=%s: cannot extend to size=%llu: %s", sd->name,
			 sd->lun, (unsigned long long)sd->size_bytes, strerror(errno));
}

static int open_one(struct eng_exec *x, size_t s, struct parm_err *err)
{
	const struct parm_sd *sd = &x->plan->cfg->sds[s];
	struct eng_sd_need *n = &x->needs[s];
	struct parm_loc loc = lun_loc(sd);
	int flags = (n->is_written ? O_RDWR : O_RDONLY) | (int)(n->flags & (O_DIRECT | O_DSYNC));
	char msg[512];
	int ret;

	if (n->is_extend) {
		/* formatsds=no: sized at once (sparse); else the format pass writes it and it
		 * is sized when the pass completed, so an interrupted format is seen as one */
		int fd = open(sd->lun, O_WRONLY | O_CREAT, 0644);

		if (fd < 0)
			return parm_errf(err, &loc, "sd=%s: lun=%s: cannot create: %s", sd->name,
					 sd->lun, strerror(errno));
		ret = n->is_format ? 0 : extend(fd, sd, err);
		close(fd);
		if (ret)
			return ret;
	}
	ret = eng_target_open(&x->targets[s], sd->lun, flags, msg, sizeof(msg));
	if (ret)
		return parm_errf(err, &loc, "sd=%s: %s", sd->name, msg);
	if (n->is_extend)
		x->targets[s].size_bytes = sd->size_bytes; /* what the runs after the format see */
	return 0;
}

int eng_targets_formatted(struct eng_exec *x, struct parm_err *err)
{
	for (size_t s = 0; x->needs && s < x->plan->cfg->nr_sds; s++) {
		const struct parm_sd *sd = &x->plan->cfg->sds[s];
		int ret;

		if (!x->needs[s].is_used || !x->needs[s].is_extend || !x->needs[s].is_format ||
		    x->targets[s].fd < 0)
			continue;
		ret = extend(x->targets[s].fd, sd, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Block devices: size, alignment under O_DIRECT, mounted or signed when written. */
static int check_device(struct eng_exec *x, size_t s, struct parm_err *err)
{
	const struct parm_sd *sd = &x->plan->cfg->sds[s];
	const struct eng_target *t = &x->targets[s];
	struct parm_loc loc = lun_loc(sd);
	char what[256], msg[512];
	int ret;

	if (t->kind == ENG_TARGET_BLOCK && sd->size_bytes > t->size_bytes)
		return parm_errf(err, &loc,
				 "sd=%s: lun=%s: size=%llu is beyond the device's %llu "
				 "bytes",
				 sd->name, sd->lun, (unsigned long long)sd->size_bytes,
				 (unsigned long long)t->size_bytes);
	if (t->kind != ENG_TARGET_BLOCK || !x->needs[s].is_written)
		return 0;
	ret = eng_target_find_holder(t, what, sizeof(what), msg, sizeof(msg));
	if (ret < 0)
		return parm_errf(err, &loc, "sd=%s: %s", sd->name, msg);
	if (ret > 0)
		return parm_errf(err, &loc,
				 "sd=%s: lun=%s is in use (%s); ioramp never writes to a "
				 "mounted or held device",
				 sd->name, sd->lun, what);
	ret = eng_target_probe_signature(t, what, sizeof(what), msg, sizeof(msg));
	if (ret < 0)
		return parm_errf(err, &loc, "sd=%s: %s", sd->name, msg);
	if (ret > 0 && !x->opts->is_force)
		return parm_errf(err, &loc,
				 "sd=%s: lun=%s carries a signature (%s) and a workload "
				 "writes to it; expected --force to overwrite it",
				 sd->name, sd->lun, what);
	return 0;
}

/* A modelled drive opens nothing: its size= is its capacity. */
static int model_target(struct eng_exec *x, size_t s, struct parm_err *err)
{
	const struct parm_sd *sd = &x->plan->cfg->sds[s];
	struct eng_target *t = &x->targets[s];

	if (!sd->size_bytes)
		return parm_errf(err, &sd->loc,
				 "sd=%s: a modelled drive (engine %s) opens no lun; expected size= "
				 "to give its capacity",
				 sd->name, x->engine);
	t->path = strdup(sd->lun);
	if (!t->path)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	t->kind = ENG_TARGET_FILE;
	t->block_bytes = 512;
	t->mem_align_bytes = 512;
	t->size_bytes = sd->size_bytes;
	return 0;
}

int eng_targets_open(struct eng_exec *x, struct parm_err *err)
{
	const struct parm_config *cfg = x->plan->cfg;

	x->targets = calloc(cfg->nr_sds ? cfg->nr_sds : 1, sizeof(*x->targets));
	x->needs = calloc(cfg->nr_sds ? cfg->nr_sds : 1, sizeof(*x->needs));
	if (!x->targets || !x->needs)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	for (size_t s = 0; s < cfg->nr_sds; s++)
		x->targets[s] = (struct eng_target)ENG_TARGET_INIT;
	plan_needs(x);
	for (size_t s = 0; s < cfg->nr_sds; s++) {
		int ret;

		if (!x->needs[s].is_used)
			continue;
		if (x->is_model) {
			ret = model_target(x, s, err);
			if (ret)
				return ret;
			continue;
		}
		ret = x->dv_opts.is_recover_only ? 0 : prepare_file(x, s, err);
		if (!ret && !x->dv_opts.is_recover_only)
			formatsds(x, s);
		if (!ret)
			ret = open_one(x, s, err);
		if (!ret)
			ret = check_device(x, s, err);
		if (ret)
			return ret;
	}
	return 0;
}

void eng_targets_close(struct eng_exec *x)
{
	for (size_t s = 0; x->targets && s < x->plan->cfg->nr_sds; s++)
		eng_target_close(&x->targets[s]);
	free(x->targets);
	free(x->needs);
	x->targets = NULL;
	x->needs = NULL;
}

/* Under O_DIRECT every transfer, offset and alignment must be a multiple of the logical block
 * (checked per run, since loops change transfer sizes). */
int eng_check_alignment(const struct eng_exec *x, const struct eng_run *r, struct parm_err *err)
{
	for (size_t i = 0; i < r->nr_wgs; i++) {
		const struct eng_wg_desc *g = &r->wgs[i];
		const struct eng_sd_desc *d = &r->sds[g->run_sd];
		const struct parm_sd *sd = &x->plan->cfg->sds[d->cfg_idx];
		uint32_t blk = d->target->block_bytes ? d->target->block_bytes : 512;
		const struct gen_xfer_cfg *xf = &g->gen.xfer;
		struct parm_loc loc = lun_loc(sd);
		bool is_bad = g->gen.offset_bytes % blk || g->gen.align_bytes % blk ||
			      xf->min_bytes % blk || xf->align_bytes % blk;

		if (!d->target->is_direct)
			continue;
		for (uint32_t k = 0; k < xf->nr_sizes; k++)
			is_bad |= xf->size_bytes[k] % blk != 0;
		if (is_bad)
			return parm_errf(err, &loc,
					 "sd=%s: lun=%s: with o_direct every xfersize, "
					 "offset= and align= must be a multiple of the %u-byte "
					 "logical block",
					 sd->name, sd->lun, blk);
	}
	return 0;
}
