/* Modelled drives as the user names them (model.h): the presets from published spec sheets,
 * how a preset's figures become units and service times, and the model[:...] options. */
#include "model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/compiler.h"

#define MODEL_PREFIX "model"

enum {
	MODEL_MAX_UNITS = 4096,
	SEQ_XFER_BYTES = 131072, /* spec sheets measure sequential rates with 128 KiB transfers */
	BASE_XFER_BYTES = 4096,
};

/* Figures of the sheets as printed; eng_model_from_preset() derives the drive. */
const struct eng_model_preset eng_model_presets[] = {
	{
		.name = "micron-9100-max-2.4tb",
		.source = "Micron 9100 PCIe NVMe SSD product brief, 9100 MAX 2.4TB (Micron, 2016)",
		.read_iops = 750000,
		.write_iops = 300000,
		.read_lat_us = 120,
		.write_lat_us = 30,
		.seq_read_mbps = 3000,
		.seq_write_mbps = 2000,
	},
};

const size_t eng_model_nr_presets = IORAMP_ARRAY_SIZE(eng_model_presets);

bool eng_model_is(const char *engine)
{
	size_t n = strlen(MODEL_PREFIX);

	return engine && !strncmp(engine, MODEL_PREFIX, n) && (!engine[n] || engine[n] == ':');
}

/* The unit bandwidth that makes units transfers of SEQ_XFER_BYTES reach total_mbps. */
static double seq_unit_mbps(uint32_t units, double base_us, double total_mbps)
{
	double per_io_us = (double)units * SEQ_XFER_BYTES / total_mbps; /* MB/s = bytes/us */
	double transfer_us = per_io_us - base_us;

	return transfer_us > 0 ? (SEQ_XFER_BYTES - BASE_XFER_BYTES) / transfer_us : 1e9;
}

void eng_model_from_preset(const struct eng_model_preset *p, struct eng_model *m)
{
	double cache_bytes;

	memset(m, 0, sizeof(*m));
	snprintf(m->preset, sizeof(m->preset), "%s", p->name);
	/* Little's law at the sheet's random read rate: the units busy at once */
	m->units = (uint32_t)lround(p->read_iops * p->read_lat_us / 1e6);
	if (m->units < 1)
		m->units = 1;
	m->read_us = p->read_lat_us;
	m->write_us = (double)m->units / p->write_iops * 1e6; /* every unit writing */
	m->read_mbps = seq_unit_mbps(m->units, m->read_us, p->seq_read_mbps);
	m->write_mbps = seq_unit_mbps(m->units, m->write_us, p->seq_write_mbps);
	m->dist = ENG_MODEL_EXP;
	m->cache_us = p->write_lat_us; /* a write that the cache takes: the sheet's latency */
	cache_bytes = (double)m->units * SEQ_XFER_BYTES;
	m->cache_mb = ceil(cache_bytes / 1048576.0);
}

double eng_model_mean_ns(const struct eng_model *m, bool is_write, uint64_t size_bytes)
{
	double op_us = is_write ? m->write_us : m->read_us;
	double mbps = is_write ? m->write_mbps : m->read_mbps;
	double extra = size_bytes > BASE_XFER_BYTES ? (double)(size_bytes - BASE_XFER_BYTES) : 0;

	return op_us * 1000.0 + extra * 1000.0 / mbps;
}

static void model_default(struct eng_model *m)
{
	memset(m, 0, sizeof(*m));
	m->units = 1;
	m->read_us = 100;
	m->write_us = 100;
	m->read_mbps = 1000;
	m->write_mbps = 1000;
	m->dist = ENG_MODEL_EXP;
	m->cache_us = 10;
}

static int parse_positive(const char *text, double max, double *out)
{
	char *end;
	double v = strtod(text, &end);

	if (end == text || *end || !isfinite(v) || v <= 0 || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_option(struct eng_model *m, const char *key, const char *val)
{
	double v;

	if (!strcmp(key, "dist")) {
		if (strcmp(val, "exp") && strcmp(val, "fixed"))
			return -EINVAL;
		m->dist = !strcmp(val, "exp") ? ENG_MODEL_EXP : ENG_MODEL_FIXED;
		return 0;
	}
	if (!strcmp(key, "cache_mb")) { /* 0 turns the cache off */
		if (!strcmp(val, "0"))
			return m->cache_mb = 0, 0;
		return parse_positive(val, 1048576, &m->cache_mb);
	}
	if (!strcmp(key, "units")) {
		int ret = parse_positive(val, MODEL_MAX_UNITS, &v);

		if (ret || v != floor(v))
			return -EINVAL;
		return m->units = (uint32_t)v, 0;
	}
	if (!strcmp(key, "read_us"))
		return parse_positive(val, 1e9, &m->read_us);
	if (!strcmp(key, "write_us"))
		return parse_positive(val, 1e9, &m->write_us);
	if (!strcmp(key, "cache_us"))
		return parse_positive(val, 1e9, &m->cache_us);
	if (!strcmp(key, "read_mbps"))
		return parse_positive(val, 1e9, &m->read_mbps);
	if (!strcmp(key, "write_mbps"))
		return parse_positive(val, 1e9, &m->write_mbps);
	if (!strcmp(key, "mbps")) {
		int ret = parse_positive(val, 1e9, &m->read_mbps);

		m->write_mbps = m->read_mbps;
		return ret;
	}
	return -ENOENT;
}

static const struct eng_model_preset *find_preset(const char *name)
{
	for (size_t i = 0; i < eng_model_nr_presets; i++)
		if (!strcmp(eng_model_presets[i].name, name))
			return &eng_model_presets[i];
	return NULL;
}

/* "PRESET" or "OPTION=VALUE": the first item may name a preset. */
static int parse_item(struct eng_model *m, char *tok, bool is_first, const char *engine, char *msg,
		      size_t msglen)
{
	char *eq = strchr(tok, '=');
	const struct eng_model_preset *p;
	int ret;

	if (!eq && is_first && (p = find_preset(tok))) {
		eng_model_from_preset(p, m);
		return 0;
	}
	if (!eq) {
		snprintf(msg, msglen,
			 "engine %s: unknown preset %s; expected %s or OPTION=VALUE (units=, "
			 "read_us=, write_us=, mbps=, read_mbps=, write_mbps=, dist=, cache_mb=, "
			 "cache_us=)",
			 engine, tok, eng_model_presets[0].name);
		return -EINVAL;
	}
	*eq = '\0';
	ret = parse_option(m, tok, eq + 1);
	if (ret == -ENOENT)
		snprintf(msg, msglen,
			 "engine %s: unknown option %s; expected units=, read_us=, write_us=, "
			 "mbps=, read_mbps=, write_mbps=, dist=exp|fixed, cache_mb= or cache_us=",
			 engine, tok);
	else if (ret)
		snprintf(msg, msglen, "engine %s: invalid %s=%s; expected %s", engine, tok, eq + 1,
			 !strcmp(tok, "dist")	    ? "exp or fixed"
			 : !strcmp(tok, "units")    ? "a whole number from 1 to 4096"
			 : !strcmp(tok, "cache_mb") ? "0 or a positive number of MiB"
						    : "a positive number");
	return ret ? -EINVAL : 0;
}

int eng_model_parse(const char *engine, struct eng_model *m, char *msg, size_t msglen)
{
	char buf[512], *save = NULL, *tok;
	size_t n = strlen(MODEL_PREFIX);
	bool is_first = true;

	model_default(m);
	if (!eng_model_is(engine)) {
		snprintf(msg, msglen, "engine %s: expected model[:PRESET][,OPTION=VALUE...]",
			 engine);
		return -EINVAL;
	}
	if (!engine[n])
		return 0;
	if (snprintf(buf, sizeof(buf), "%s", engine + n + 1) >= (int)sizeof(buf)) {
		snprintf(msg, msglen, "engine %.64s...: too long", engine);
		return -EINVAL;
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int ret = parse_item(m, tok, is_first, engine, msg, msglen);

		if (ret)
			return ret;
		is_first = false;
	}
	if (is_first) {
		snprintf(msg, msglen,
			 "engine %s: expected a preset or OPTION=VALUE after model:", engine);
		return -EINVAL;
	}
	return 0;
}
