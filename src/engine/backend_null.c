/* The null backend: every I/O completes at submit with result = size (0 for fsync), touching no
 * device and making no system call, so a run on it measures ioramp's own overhead. It sleeps
 * only when reap is asked to wait with nothing completed (the worker's idle wait), through the
 * run's clock. */
#include "backend.h"
#include "clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

struct null_backend {
	struct eng_backend base;
	struct eng_io **done; /* ring of depth completed, unreaped slots */
	uint32_t depth;
	uint32_t head; /* next to reap */
	uint32_t nr_done;
	struct eng_sleeper *sleeper;
};

static struct null_backend *to_null(struct eng_backend *be)
{
	return (struct null_backend *)be;
}

static int null_open(const struct eng_backend_cfg *cfg, struct eng_backend **out)
{
	struct null_backend *nb;

	if (cfg->depth == 0)
		return -EINVAL;
	nb = calloc(1, sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	nb->done = calloc(cfg->depth, sizeof(*nb->done));
	if (!nb->done) {
		free(nb);
		return -ENOMEM;
	}
	nb->depth = cfg->depth;
	nb->sleeper = cfg->sleeper;
	nb->base.ops = &eng_backend_null;
	snprintf(nb->base.desc, sizeof(nb->base.desc), "null");
	*out = &nb->base;
	return 0;
}

static int null_submit(struct eng_backend *be, struct eng_io *const *ios, uint32_t nr)
{
	struct null_backend *nb = to_null(be);
	uint32_t tail = nb->head + nb->nr_done;

	if (nr > nb->depth - nb->nr_done)
		nr = nb->depth - nb->nr_done;
	if (tail >= nb->depth)
		tail -= nb->depth;
	for (uint32_t i = 0; i < nr; i++) {
		struct eng_io *io = ios[i];

		io->result = io->op == ENG_OP_FSYNC ? 0 : (int32_t)io->size_bytes;
		nb->done[tail] = io;
		if (++tail == nb->depth)
			tail = 0;
	}
	nb->nr_done += nr;
	return (int)nr;
}

static int null_reap(struct eng_backend *be, struct eng_io **done, uint32_t max,
		     uint64_t deadline_ns)
{
	struct null_backend *nb = to_null(be);
	uint32_t n = nb->nr_done < max ? nb->nr_done : max;

	for (uint32_t i = 0; i < n; i++) {
		done[i] = nb->done[nb->head];
		if (++nb->head == nb->depth)
			nb->head = 0;
	}
	nb->nr_done -= n;
	/* Nothing can complete: sleep to the deadline; an early wake is fine. */
	if (n == 0 && deadline_ns != 0 && deadline_ns != UINT64_MAX)
		eng_sleeper_until(nb->sleeper, deadline_ns);
	return (int)n;
}

static void null_close(struct eng_backend *be)
{
	struct null_backend *nb = to_null(be);

	if (!nb)
		return;
	free(nb->done);
	free(nb);
}

const struct eng_backend_ops eng_backend_null = {
	.name = "null",
	.open = null_open,
	.submit = null_submit,
	.reap = null_reap,
	.close = null_close,
};
