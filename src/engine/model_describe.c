/* What the reports say of modelled drives: the model's figures for results.json and the
 * banners, and the note that opens the console. */
#include "exec.h"

#include <stdio.h>
#include <string.h>

static const char *preset_source(const char *name)
{
	for (size_t i = 0; i < eng_model_nr_presets; i++)
		if (!strcmp(eng_model_presets[i].name, name))
			return eng_model_presets[i].source;
	return NULL;
}

bool eng_exec_model(const struct eng_exec *x, struct rep_model *m)
{
	const struct eng_model *d = &x->model;

	memset(m, 0, sizeof(*m));
	if (!x->is_model)
		return false;
	*m = (struct rep_model){
		.spec = x->engine,
		.preset = d->preset,
		.source = preset_source(d->preset),
		.units = d->units,
		.read_us = d->read_us,
		.write_us = d->write_us,
		.read_mbps = d->read_mbps,
		.write_mbps = d->write_mbps,
		.dist = d->dist == ENG_MODEL_FIXED ? "fixed" : "exp",
		.cache_mb = d->cache_mb,
		.cache_us = d->cache_us,
	};
	return true;
}

bool eng_engine_is_model(const char *engine)
{
	return eng_model_is(engine);
}
