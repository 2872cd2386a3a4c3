/* The profile deriver (trace.h): read the traces (profile_scan.c), model every device
 * (profile_model.c), write VDbench parameters (profile_emit.c). */
#include "profile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct trace_profile {
	struct prof p;
	struct trace_profile_cfg cfg;
	struct trace_err err;
};

int trace_profile_new(struct trace_profile **out, const struct trace_profile_cfg *cfg,
		      struct trace_err *err)
{
	struct trace_profile *tp = calloc(1, sizeof(*tp));
	struct prof *p;
	int ret;

	memset(err, 0, sizeof(*err));
	*out = NULL;
	if (!tp)
		goto err_oom;
	tp->cfg = *cfg;
	p = &tp->p;
	p->cfg = &tp->cfg;
	p->err = err;
	p->files = calloc(cfg->nr_paths ? cfg->nr_paths : 1, sizeof(*p->files));
	if (!p->files || trace_fid_new(&p->fid) < 0)
		goto err_oom;
	for (size_t i = 0; i < cfg->nr_paths; i++)
		p->files[i].path = cfg->paths[i];
	ret = prof_scan(p);
	if (ret == 0 && !p->nr_ios) {
		snprintf(err->file, sizeof(err->file), "%s", cfg->nr_paths ? cfg->paths[0] : "");
		snprintf(err->msg, sizeof(err->msg), "no read or write I/O: nothing to profile");
		ret = -ENODATA;
	}
	if (ret == 0)
		ret = prof_model(p);
	if (ret == -ENOMEM)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	if (ret) {
		trace_profile_free(tp);
		return ret;
	}
	p->err = &tp->err;
	*out = tp;
	return 0;
err_oom:
	trace_profile_free(tp);
	snprintf(err->msg, sizeof(err->msg), "out of memory");
	return -ENOMEM;
}

size_t trace_profile_nr_devs(const struct trace_profile *tp)
{
	return tp->p.nr_devs;
}

void trace_profile_dev_target(const struct trace_profile *tp, size_t dev, uint64_t *nr_ios,
			      uint64_t *footprint_bytes, double *hot10_pct)
{
	const struct prof_dev *d = tp->p.devs[dev];

	*nr_ios = d->nr;
	*footprint_bytes = d->footprint_bytes;
	*hot10_pct = d->trace_hot10_pct;
}

double trace_profile_kappa(const struct trace_profile *tp, size_t dev)
{
	return tp->p.devs[dev]->kappa;
}

void trace_profile_set_kappa(struct trace_profile *tp, size_t dev, double kappa)
{
	prof_relayout(&tp->p, dev, kappa);
}

void trace_profile_emit(struct trace_profile *tp, FILE *out)
{
	prof_emit(out, &tp->p);
}

struct trace_fid *trace_profile_fid(struct trace_profile *tp)
{
	return tp->p.fid;
}

const char *trace_profile_warnings(const struct trace_profile *tp)
{
	return tp->p.warnings;
}

double trace_profile_duration_s(const struct trace_profile *tp)
{
	return tp->p.duration_s;
}

void trace_profile_free(struct trace_profile *tp)
{
	if (!tp)
		return;
	trace_fid_free(tp->p.fid);
	prof_fini(&tp->p);
	free(tp);
}

int trace_profile_write(const struct trace_profile_cfg *cfg, FILE *out, struct trace_err *err)
{
	struct trace_profile *tp;
	int ret = trace_profile_new(&tp, cfg, err);

	if (ret)
		return ret;
	trace_profile_emit(tp, out);
	trace_profile_free(tp);
	return 0;
}
