/* The fault-injecting backend: wraps a real one (--engine fault:uring,eio=0.01,...) and makes
 * chosen I/Os fail with EIO, cut transfers short, fail writes with ENOSPC once enough was
 * written, make the device vanish (every later I/O fails with ENXIO), or hold completions for
 * a while, or flip a byte of the data a read returns (silent corruption, for data validation),
 * so that every error path of the engine can be exercised by tests of the real
 * binary. An injected failure never reaches the wrapped backend; a delay or a short transfer
 * applies to an I/O that did. Nothing on submit and reap allocates, locks or prints. */
#include "backend.h"
#include "clock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioramp/engine.h"
#include "ioramp/gen.h"

#define FAULT_PREFIX "fault:"

struct fault_spec {
	const struct eng_backend_ops *inner;
	double eio;	 /* chance an I/O fails with EIO */
	double short_io; /* chance a transfer completes short (half, 512-byte multiple) */
	double corrupt;	 /* chance a full read hands back its data with one byte flipped */
	uint64_t enospc_after_bytes; /* writes fail with ENOSPC past this many bytes (0: never) */
	uint64_t vanish_after_ios;   /* every I/O fails with ENXIO after this many (0: never) */
	uint64_t vanish_after_ns;    /* ... or this long after the backend opened (0: never) */
	uint64_t delay_ns;	     /* every real completion is handed back this much later */
	uint64_t seed;
};

/* An I/O the wrapper hands back itself: an injected failure or a delayed completion. */
struct fault_held {
	struct eng_io *io;
	uint64_t due_ns;
};

struct fault_backend {
	struct eng_backend base;
	struct eng_backend *inner;
	struct fault_spec spec;
	struct gen_pcg rng;
	struct fault_held *held; /* depth entries, unordered */
	uint32_t nr_held;
	struct eng_io **reaped; /* depth: the inner backend's completions before delaying */
	uint32_t depth;
	uint32_t nr_inner; /* in flight in the inner backend */
	uint64_t nr_ios;   /* submitted so far (vanish_after) */
	uint64_t written_bytes;
	uint64_t open_ns;
	struct eng_sleeper *sleeper; /* the run's clock (NULL: real) */
};

/* A number with an optional unit suffix (units[i] scales by scale[i]). Returns 0 or -EINVAL. */
static int parse_scaled(const char *text, const char *const *units, const double *scale,
			size_t nr_units, double *out)
{
	char *end;
	double v = strtod(text, &end);

	if (end == text || !isfinite(v) || v < 0)
		return -EINVAL;
	for (size_t i = 0; i < nr_units; i++) {
		if (!strcmp(end, units[i])) {
			*out = v * scale[i];
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_bytes(const char *text, uint64_t *out)
{
	static const char *const units[] = { "", "k", "m", "g", "t" };
	static const double scale[] = { 1, 1024.0, 1048576.0, 1073741824.0, 1099511627776.0 };
	double v;

	if (parse_scaled(text, units, scale, 5, &v) || v >= 1.8e19)
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

static int parse_time_ns(const char *text, uint64_t *out)
{
	static const char *const units[] = { "s", "ms", "us" };
	static const double scale[] = { 1e9, 1e6, 1e3 };
	double v;

	if (parse_scaled(text, units, scale, 3, &v) || v >= 1.8e19)
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

static int parse_chance(const char *text, double *out)
{
	char *end;
	double v = strtod(text, &end);

	if (end == text || *end || !(v >= 0 && v <= 1))
		return -EINVAL;
	*out = v;
	return 0;
}

/* vanish_after=N (I/Os) or vanish_after=T with s, ms or us (time since the backend opened). */
static int parse_vanish(const char *text, struct fault_spec *s)
{
	size_t n = strlen(text);

	if (n && text[n - 1] == 's')
		return parse_time_ns(text, &s->vanish_after_ns);
	return parse_bytes(text, &s->vanish_after_ios) || strpbrk(text, "kmgt.eE") ? -EINVAL : 0;
}

static int parse_option(struct fault_spec *s, const char *key, const char *val)
{
	if (!strcmp(key, "eio"))
		return parse_chance(val, &s->eio);
	if (!strcmp(key, "short"))
		return parse_chance(val, &s->short_io);
	if (!strcmp(key, "corrupt"))
		return parse_chance(val, &s->corrupt);
	if (!strcmp(key, "enospc_after"))
		return parse_bytes(val, &s->enospc_after_bytes);
	if (!strcmp(key, "vanish_after"))
		return parse_vanish(val, s);
	if (!strcmp(key, "delay"))
		return parse_time_ns(val, &s->delay_ns);
	if (!strcmp(key, "seed"))
		return parse_bytes(val, &s->seed) || strpbrk(val, "kmgt.eE") ? -EINVAL : 0;
	return -ENOENT;
}

/* "fault:INNER[,key=value...]" into *s. Returns 0, or -EINVAL with msg saying what is wrong. */
static int spec_parse(const char *engine, struct fault_spec *s, char *msg, size_t msglen)
{
	char buf[256], *save = NULL, *tok;

	memset(s, 0, sizeof(*s));
	s->seed = 1;
	if (snprintf(buf, sizeof(buf), "%s", engine + strlen(FAULT_PREFIX)) >= (int)sizeof(buf))
		return snprintf(msg, msglen, "engine %s: too long", engine), -EINVAL;
	tok = strtok_r(buf, ",", &save);
	s->inner = tok ? eng_backend_find(tok) : NULL;
	if (!s->inner || !strcmp(s->inner->name, "fault"))
		return snprintf(msg, msglen,
				"engine %s: expected fault:BACKEND[,OPTION=VALUE...] with BACKEND "
				"uring, aio, sync or null",
				engine),
		       -EINVAL;
	while ((tok = strtok_r(NULL, ",", &save))) {
		char *eq = strchr(tok, '=');
		int ret;

		if (eq)
			*eq = '\0';
		ret = eq ? parse_option(s, tok, eq + 1) : -ENOENT;
		if (ret == -ENOENT)
			return snprintf(msg, msglen,
					"engine %s: unknown option %s; expected eio=, short=, "
					"corrupt=, enospc_after=, vanish_after=, delay= or seed=",
					engine, tok),
			       -EINVAL;
		if (ret)
			return snprintf(msg, msglen, "engine %s: invalid %s=%s", engine, tok,
					eq + 1),
			       -EINVAL;
	}
	return 0;
}

static struct fault_backend *to_fault(struct eng_backend *be)
{
	return (struct fault_backend *)be;
}

static uint64_t fault_now(const struct fault_backend *fb)
{
	return fb->sleeper ? eng_clock_now(fb->sleeper->clock) : eng_now_ns();
}

static int fault_open_spec(const struct eng_backend_cfg *cfg, const struct fault_spec *spec,
			   struct eng_backend **out)
{
	struct fault_backend *fb;
	int ret;

	if (cfg->depth == 0)
		return -EINVAL;
	fb = calloc(1, sizeof(*fb));
	if (!fb)
		return -ENOMEM;
	fb->held = calloc(cfg->depth, sizeof(*fb->held));
	fb->reaped = calloc(cfg->depth, sizeof(*fb->reaped));
	if (!fb->held || !fb->reaped) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = spec->inner->open(cfg, &fb->inner);
	if (ret)
		goto err_free;
	fb->spec = *spec;
	fb->depth = cfg->depth;
	fb->sleeper = cfg->sleeper;
	fb->open_ns = fault_now(fb);
	gen_pcg_seed(&fb->rng, spec->seed, 0xfa017u);
	fb->base.ops = &eng_backend_fault;
	snprintf(fb->base.desc, sizeof(fb->base.desc), "fault over %.100s", fb->inner->desc);
	*out = &fb->base;
	return 0;

err_free:
	free(fb->held);
	free(fb->reaped);
	free(fb);
	return ret;
}

/* The plain vtable open cannot carry options: it wraps sync with no fault (a no-op wrapper). */
static int fault_open(const struct eng_backend_cfg *cfg, struct eng_backend **out)
{
	struct fault_spec spec = { .inner = &eng_backend_sync, .seed = 1 };

	return fault_open_spec(cfg, &spec, out);
}

bool eng_backend_is_fault(const char *engine)
{
	return !strncmp(engine, FAULT_PREFIX, strlen(FAULT_PREFIX));
}

int eng_backend_fault_check(const char *engine, char *msg, size_t msglen)
{
	struct fault_spec spec;

	return spec_parse(engine, &spec, msg, msglen);
}

int eng_backend_fault_open(const char *engine, const struct eng_backend_cfg *cfg,
			   struct eng_backend **out, char *msg, size_t msglen)
{
	struct fault_spec spec;
	int ret = spec_parse(engine, &spec, msg, msglen);

	if (ret)
		return ret;
	ret = fault_open_spec(cfg, &spec, out);
	if (ret)
		snprintf(msg, msglen, "engine %s: %s", engine, strerror(-ret));
	return ret;
}

/* The error injected into io, or 0 to pass it on. Counts what it passes. */
static int32_t fault_pick(struct fault_backend *fb, const struct eng_io *io, uint64_t now_ns)
{
	const struct fault_spec *s = &fb->spec;

	fb->nr_ios++;
	if ((s->vanish_after_ios && fb->nr_ios > s->vanish_after_ios) ||
	    (s->vanish_after_ns && now_ns - fb->open_ns >= s->vanish_after_ns))
		return -ENXIO;
	if (s->eio > 0 && gen_pcg_unit(&fb->rng) < s->eio)
		return -EIO;
	if (io->op == ENG_OP_WRITE && s->enospc_after_bytes) {
		if (fb->written_bytes + io->size_bytes > s->enospc_after_bytes)
			return -ENOSPC;
		fb->written_bytes += io->size_bytes;
	}
	return 0;
}

static void hold(struct fault_backend *fb, struct eng_io *io, uint64_t due_ns)
{
	fb->held[fb->nr_held].io = io;
	fb->held[fb->nr_held].due_ns = due_ns;
	fb->nr_held++;
}

/* Passes ios[0..nr) to the inner backend; returns how many it took. Writes it did not take
 * give their bytes back to enospc_after's count. */
static int pass_on(struct fault_backend *fb, struct eng_io *const *ios, uint32_t nr)
{
	int ret = eng_backend_submit(fb->inner, ios, nr);

	for (uint32_t i = ret < 0 ? 0 : (uint32_t)ret; i < nr; i++) {
		fb->nr_ios--;
		if (ios[i]->op == ENG_OP_WRITE && fb->spec.enospc_after_bytes)
			fb->written_bytes -= ios[i]->size_bytes;
	}
	if (ret > 0)
		fb->nr_inner += (uint32_t)ret;
	return ret;
}

static int fault_submit(struct eng_backend *be, struct eng_io *const *ios, uint32_t nr)
{
	struct fault_backend *fb = to_fault(be);
	uint64_t now_ns = fault_now(fb);
	uint32_t i = 0;

	while (i < nr) {
		uint32_t j = i;
		int32_t fault = 0;

		while (j < nr && !(fault = fault_pick(fb, ios[j], now_ns)))
			j++;
		if (j > i) {
			int ret = pass_on(fb, ios + i, j - i);

			if (ret < 0)
				return i ? (int)i : ret;
			i += (uint32_t)ret;
			if (i < j) { /* the inner backend is full: ios[j]'s fault is drawn again */
				fb->nr_ios -= j < nr;
				return (int)i;
			}
		}
		if (j < nr) {
			ios[j]->result = fault;
			hold(fb, ios[j], 0);
			i = j + 1;
		}
	}
	return (int)nr;
}

/* A real completion: cut short by chance, then handed back now or held for delay=. */
static void inner_done(struct fault_backend *fb, struct eng_io *io, uint64_t now_ns,
		       struct eng_io **done, uint32_t *n)
{
	fb->nr_inner--;
	if (io->op != ENG_OP_FSYNC && io->result > 512 && fb->spec.short_io > 0 &&
	    gen_pcg_unit(&fb->rng) < fb->spec.short_io)
		io->result = (io->result / 2) & ~511;
	else if (io->op == ENG_OP_READ && io->result > 0 && fb->spec.corrupt > 0 &&
		 gen_pcg_unit(&fb->rng) < fb->spec.corrupt)
		((uint8_t *)io->buf)[gen_pcg_u64(&fb->rng) % (uint32_t)io->result] ^= 0x5a;
	if (fb->spec.delay_ns)
		hold(fb, io, now_ns + fb->spec.delay_ns);
	else
		done[(*n)++] = io;
}

/* Moves held I/Os that are due into done; returns the earliest due time left (or UINT64_MAX). */
static uint64_t release_held(struct fault_backend *fb, uint64_t now_ns, struct eng_io **done,
			     uint32_t *n, uint32_t max)
{
	uint64_t next_ns = UINT64_MAX;

	for (uint32_t i = 0; i < fb->nr_held;) {
		if (fb->held[i].due_ns <= now_ns && *n < max) {
			done[(*n)++] = fb->held[i].io;
			fb->held[i] = fb->held[--fb->nr_held];
			continue;
		}
		if (fb->held[i].due_ns < next_ns)
			next_ns = fb->held[i].due_ns;
		i++;
	}
	return next_ns;
}

static int fault_reap(struct eng_backend *be, struct eng_io **done, uint32_t max,
		      uint64_t deadline_ns)
{
	struct fault_backend *fb = to_fault(be);

	for (;;) {
		uint64_t now_ns = fault_now(fb);
		uint32_t n = 0;
		uint64_t next_ns = release_held(fb, now_ns, done, &n, max);
		uint64_t dl = n ? 0 : deadline_ns < next_ns ? deadline_ns : next_ns;
		int ret;

		if (n == max || (n && !fb->nr_inner))
			return (int)n;
		if (dl == UINT64_MAX && !fb->nr_inner)
			return 0; /* nothing in flight anywhere */
		ret = eng_backend_reap(fb->inner, fb->reaped, max - n, dl);
		if (ret < 0)
			return ret;
		now_ns = fault_now(fb);
		for (int i = 0; i < ret; i++)
			inner_done(fb, fb->reaped[i], now_ns, done, &n);
		if (n || now_ns >= deadline_ns || deadline_ns == 0)
			return (int)n;
	}
}

static void fault_finish(struct eng_backend *be)
{
	eng_backend_finish(to_fault(be)->inner);
}

/* Held I/Os are the worker's again (their buffers stay valid); the inner close drains. */
static void fault_close(struct eng_backend *be)
{
	struct fault_backend *fb = to_fault(be);

	if (!fb)
		return;
	eng_backend_close(fb->inner);
	free(fb->held);
	free(fb->reaped);
	free(fb);
}

const struct eng_backend_ops eng_backend_fault = {
	.name = "fault",
	.open = fault_open,
	.submit = fault_submit,
	.reap = fault_reap,
	.finish = fault_finish,
	.close = fault_close,
};
