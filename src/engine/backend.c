/* The backend table: lookup by name and the uring -> aio -> sync fallback chain with its
 * one-line note. */
#include "backend.h"
#include "model.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ioramp/compiler.h"

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
 * The default engine's rule, the one place it lives. bench/engines, eight 64 MiB page-cache
 * files, threads=16 per SD, median of three interleaved runs (2026-12-02, 2 CPUs shared, load
 * 30-100, so raw IOPS favour engines with more threads; IOPS per CPU-second of ioramp's own
 * CPU is printed beside them): io_uring serves small buffered reads from the page cache inline
 * and won 4K random read (318k IOPS against sync 135k, aio 175k). Buffered reads of 64 KiB
 * went the other way in all five measurements (64K sequential read 5.7k against sync 64k;
 * 64K random read 36-43k against 71-75k): io_uring's inline attempt gives up and punts them
 * to its kernel workers. Buffered writes: io_uring punts every one (ext4 cannot take a
 * buffered write without blocking: pwritev2(RWF_NOWAIT) answers EOPNOTSUPP), a kernel
 * worker's wake-up and two context switches per write. bench/speed (2026-12-02 20:30 UTC,
 * threads=8 per SD, three interleaved runs, load 16-40) measured per CPU-second 4K random
 * write sync 296-430k against uring 235-294k, 4K 70/30 424-570k against 465-482k; and at a
 * fixed 4000 IOPS (4K 70/30) a mean service time of 0.009 ms on sync against 0.54-2.1 ms on
 * uring (writes 2.1 ms: the punt), which would draw io_uring's hand-off as the drive's
 * latency. Hence sync for every buffered file that is written. Measure again with
 * bench/engines and bench/speed when a backend changes.
 */
const char *eng_backend_default(const struct eng_sd_traits *t)
{
	if (t->is_direct || t->is_block)
		return "uring";
	if (t->is_writing || t->max_xfer_bytes >= ENG_DEFAULT_SYNC_READ_BYTES)
		return "sync";
	return "uring";
}

const char *eng_backend_default_kind(const struct eng_sd_traits *t)
{
	if (t->is_direct)
		return "O_DIRECT";
	if (t->is_block)
		return "buffered block device";
	if (t->is_writing)
		return "buffered, writes";
	if (t->max_xfer_bytes >= ENG_DEFAULT_SYNC_READ_BYTES)
		return "buffered, reads of 64 KiB or more";
	return "buffered, reads below 64 KiB";
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
