/* The backend table: lookup by name and the uring -> aio -> sync fallback chain with its
 * one-line note. */
#include "backend.h"
#include "model.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ioramp/compiler.h"

/* The default engine's backend for buffered files that a workload writes (see below). */
#define ENG_BUFFERED_WRITE_ENGINE "uring"

static const struct eng_backend_ops *const backends[] = {
	&eng_backend_uring,
	&eng_backend_aio,
	&eng_backend_sync,
	&eng_backend_null,
};

const struct eng_backend_ops *eng_backend_find(const char *name)
{
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(backends); i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

bool eng_backend_is_sync(const char *engine)
{
	return engine && !strcmp(engine, "sync");
}

/*
 * The default engine's rule, the one place it lives. bench/engines, eight 64 MiB page-cache files,
 * threads=16 per SD (2026-12-02, 2 shared CPUs): io_uring serves a buffered read from the
 * page cache inline and took 4K random reads, writes and 70/30 at 2.8-5.5x the sync engine
 * and 1.2-5.6x aio (buffered libaio runs inside io_submit). It punts buffered writes that
 * must wait to kernel workers, so writes are the case to measure again when the sync engine
 * changes; the figures and the command are in bench/engines.
 */
const char *eng_backend_default(const struct eng_sd_traits *t)
{
	if (t->is_direct || t->is_block)
		return "uring";
	return t->is_writing ? ENG_BUFFERED_WRITE_ENGINE : "uring";
}

const char *eng_backend_default_kind(const struct eng_sd_traits *t)
{
	if (t->is_direct)
		return "O_DIRECT";
	if (t->is_block)
		return "buffered block device";
	return t->is_writing ? "buffered, written" : "buffered, read only";
}

int eng_backend_check_name(const char *engine, char *msg, size_t msglen)
{
	if (!engine || eng_backend_find(engine))
		return 0;
	if (eng_backend_is_fault(engine))
		return eng_backend_fault_check(engine, msg, msglen);
	if (eng_model_is(engine)) {
		struct eng_model m;

		return eng_model_parse(engine, &m, msg, msglen);
	}
	snprintf(msg, msglen,
		 "unknown engine %s; expected uring, aio, sync, null, "
		 "model[:PRESET][,OPTION=VALUE...] or fault:BACKEND[,OPTION=VALUE...]",
		 engine);
	return -EINVAL;
}

int eng_backend_open_named(const char *engine, const struct eng_backend_cfg *cfg,
			   struct eng_backend **out, char *msg, size_t msglen)
{
	const struct eng_backend_ops *ops;
	int ret;

	if (msglen)
		msg[0] = '\0';
	if (!engine || !strcmp(engine, "uring"))
		return eng_backend_open_fallback(cfg, out, msg, msglen);
	if (eng_backend_is_fault(engine))
		return eng_backend_fault_open(engine, cfg, out, msg, msglen);
	if (eng_model_is(engine)) {
		struct eng_model m;

		ret = eng_model_parse(engine, &m, msg, msglen);
		if (!ret)
			ret = eng_model_open(&m, cfg, out);
		if (ret && !msg[0])
			snprintf(msg, msglen, "engine %s: %s", engine, strerror(-ret));
		return ret;
	}
	ret = eng_backend_check_name(engine, msg, msglen);
	if (ret)
		return ret;
	ops = eng_backend_find(engine);
	ret = ops->open(cfg, out);
	if (ret)
		snprintf(msg, msglen, "engine %s: %s", engine, strerror(-ret));
	return ret;
}

static bool cfg_is_all_direct(const struct eng_backend_cfg *cfg)
{
	for (uint32_t i = 0; i < cfg->nr_files; i++)
		if (!cfg->files[i].is_direct)
			return false;
	return true;
}

/* Why io_uring was refused, in words; names the sysctl when it explains an EPERM. */
static void uring_refusal(int ret, char *why, size_t whylen)
{
	FILE *f;
	int disabled = 0;

	snprintf(why, whylen, "%s", strerror(-ret));
	if (ret != -EPERM)
		return;
	f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
	if (!f)
		return;
	if (fscanf(f, "%d", &disabled) == 1 && disabled != 0)
		snprintf(why, whylen, "%s; kernel.io_uring_disabled=%d", strerror(-ret), disabled);
	fclose(f);
}

int eng_backend_open_fallback(const struct eng_backend_cfg *cfg, struct eng_backend **out,
			      char *note, size_t notelen)
{
	char uring_why[128], aio_why[128];
	int ret;

	if (notelen)
		note[0] = '\0';
	ret = eng_backend_uring.open(cfg, out);
	if (ret == 0)
		return 0;
	uring_refusal(ret, uring_why, sizeof(uring_why));

	snprintf(aio_why, sizeof(aio_why), "aio skipped: buffered libaio is synchronous");
	if (cfg_is_all_direct(cfg)) {
		ret = eng_backend_aio.open(cfg, out);
		if (ret == 0) {
			snprintf(note, notelen, "io_uring unavailable (%s); using aio", uring_why);
			return 0;
		}
		snprintf(aio_why, sizeof(aio_why), "aio unavailable: %s", strerror(-ret));
	}

	ret = eng_backend_sync.open(cfg, out);
	if (ret == 0) {
		snprintf(note, notelen, "io_uring unavailable (%s); using sync (%s)", uring_why,
			 aio_why);
		return 0;
	}
	snprintf(note, notelen, "no backend: io_uring unavailable (%s); %s; sync: %s", uring_why,
		 aio_why, strerror(-ret));
	return ret;
}
