/* The libaio backend: io_submit per batch, io_getevents with a timeout to reap. It is only
 * asynchronous with O_DIRECT (buffered libaio does the I/O inside io_submit), so the fallback
 * chain uses it only then. An iocb the kernel rejects at io_submit completes with its -errno. */
#include "backend.h"
#include "clock.h"

#include <assert.h>
#include <errno.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct aio_backend {
	struct eng_backend base;
	io_context_t ctx;
	int *fds;
	struct iocb *iocbs;	 /* depth control blocks */
	struct iocb **free;	 /* stack of unused iocbs */
	struct iocb **pending;	 /* prepared, not yet taken by io_submit, oldest first */
	struct io_event *events; /* io_getevents' output */
	struct eng_io **failed;	 /* rejected by io_submit, handed back by the next reap */
	uint32_t depth;
	uint32_t nr_free;
	uint32_t nr_pending;
	uint32_t nr_failed;
	uint32_t nr_kernel; /* taken by io_submit, not yet reaped */
};

static struct aio_backend *to_aio(struct eng_backend *be)
{
	return (struct aio_backend *)be;
}

static void aio_free(struct aio_backend *ab)
{
	free(ab->fds);
	free(ab->iocbs);
	free(ab->free);
	free(ab->pending);
	free(ab->events);
	free(ab->failed);
	free(ab);
}

static int aio_alloc(struct aio_backend **out, uint32_t depth, uint32_t nr_files)
{
	struct aio_backend *ab = calloc(1, sizeof(*ab));

	if (!ab)
		return -ENOMEM;
	ab->fds = calloc(nr_files ? nr_files : 1, sizeof(*ab->fds));
	ab->iocbs = calloc(depth, sizeof(*ab->iocbs));
	ab->free = calloc(depth, sizeof(*ab->free));
	ab->pending = calloc(depth, sizeof(*ab->pending));
	ab->events = calloc(depth, sizeof(*ab->events));
	ab->failed = calloc(depth, sizeof(*ab->failed));
	if (!ab->fds || !ab->iocbs || !ab->free || !ab->pending || !ab->events || !ab->failed) {
		aio_free(ab);
		return -ENOMEM;
	}
	ab->depth = depth;
	for (uint32_t i = 0; i < depth; i++)
		ab->free[i] = &ab->iocbs[i];
	ab->nr_free = depth;
	*out = ab;
	return 0;
}

static int aio_open(const struct eng_backend_cfg *cfg, struct eng_backend **out)
{
	struct aio_backend *ab;
	int ret;

	if (cfg->depth == 0)
		return -EINVAL;
	ret = aio_alloc(&ab, cfg->depth, cfg->nr_files);
	if (ret < 0)
		return ret;
	for (uint32_t i = 0; i < cfg->nr_files; i++)
		ab->fds[i] = cfg->files[i].fd;
	ret = io_setup((int)cfg->depth, &ab->ctx); /* libaio returns -errno */
	if (ret < 0) {
		aio_free(ab);
		return ret;
	}
	ab->base.ops = &eng_backend_aio;
	snprintf(ab->base.desc, sizeof(ab->base.desc), "aio");
	*out = &ab->base;
	return 0;
}

static void aio_prep(struct aio_backend *ab, struct iocb *cb, struct eng_io *io)
{
	int fd = ab->fds[io->file_idx];

	assert(io->op < ENG_OP_NR);
	if (io->op == ENG_OP_READ)
		io_prep_pread(cb, fd, io->buf, io->size_bytes, (long long)io->offset_bytes);
	else if (io->op == ENG_OP_WRITE)
		io_prep_pwrite(cb, fd, io->buf, io->size_bytes, (long long)io->offset_bytes);
	else
		io_prep_fsync(cb, fd);
	cb->data = io;
}

/* Drops the first n pending iocbs (taken or failed), keeping the rest oldest first. */
static void aio_pending_drop(struct aio_backend *ab, uint32_t n)
{
	ab->nr_pending -= n;
	memmove(ab->pending, ab->pending + n, ab->nr_pending * sizeof(*ab->pending));
}

/*
 * Hands pending iocbs to the kernel. io_submit stops at the first iocb it rejects and reports
 * that iocb's error when it is the first: that iocb completes with the error and the rest go on.
 * A shortage (EAGAIN) keeps them pending for the next call, unless nothing is in the kernel
 * to make room, in which case the shortage is the I/O's error.
 */
static void aio_flush(struct aio_backend *ab)
{
	while (ab->nr_pending > 0) {
		int ret = io_submit(ab->ctx, (long)ab->nr_pending, ab->pending);

		if (ret > 0) {
			ab->nr_kernel += (uint32_t)ret;
			aio_pending_drop(ab, (uint32_t)ret);
			continue;
		}
		if (ret == -EINTR)
			continue;
		if ((ret == -EAGAIN || ret == -ENOMEM || ret == 0) && ab->nr_kernel > 0)
			return;
		if (ret == 0)
			ret = -EAGAIN;
		((struct eng_io *)ab->pending[0]->data)->result = ret;
		ab->failed[ab->nr_failed++] = ab->pending[0]->data;
		ab->free[ab->nr_free++] = ab->pending[0];
		aio_pending_drop(ab, 1);
	}
}

static int aio_submit(struct eng_backend *be, struct eng_io *const *ios, uint32_t nr)
{
	struct aio_backend *ab = to_aio(be);

	uint32_t room = ab->depth - ab->nr_kernel - ab->nr_pending - ab->nr_failed;

	if (nr > room)
		nr = room;
	for (uint32_t i = 0; i < nr; i++) {
		struct iocb *cb = ab->free[--ab->nr_free];

		aio_prep(ab, cb, ios[i]);
		ab->pending[ab->nr_pending++] = cb;
	}
	aio_flush(ab);
	return (int)nr;
}

/* Hands back I/Os that io_submit rejected, then whatever events are ready. */
static uint32_t aio_take(struct aio_backend *ab, struct eng_io **done, uint32_t max,
			 uint32_t nr_events)
{
	uint32_t n = 0;

	while (ab->nr_failed > 0 && n < max)
		done[n++] = ab->failed[--ab->nr_failed];
	for (uint32_t i = 0; i < nr_events; i++) {
		struct eng_io *io = ab->events[i].data;

		/* res carries a negative errno in an unsigned long */
		io->result = (int32_t)(long)ab->events[i].res;
		done[n++] = io;
		ab->free[ab->nr_free++] = ab->events[i].obj;
	}
	ab->nr_kernel -= nr_events;
	return n;
}

static int aio_reap(struct eng_backend *be, struct eng_io **done, uint32_t max,
		    uint64_t deadline_ns)
{
	struct aio_backend *ab = to_aio(be);
	struct timespec ts = { 0, 0 }, *tsp = &ts;
	uint32_t room;
	long min_nr = 0;
	int ret = 0;

	if (ab->nr_pending > 0)
		aio_flush(ab);
	room = ab->nr_failed < max ? max - ab->nr_failed : 0;
	if (room > ab->depth)
		room = ab->depth; /* the size of events[] */
	/* Block only when nothing at all is ready to hand back. */
	if (ab->nr_failed == 0 && deadline_ns == UINT64_MAX && ab->nr_kernel > 0) {
		tsp = NULL;
		min_nr = 1;
	} else if (ab->nr_failed == 0 && deadline_ns != 0 && deadline_ns != UINT64_MAX) {
		eng_clock_timeout(deadline_ns, &ts);
		min_nr = 1;
	}
	if (room > 0 && (min_nr > 0 || ab->nr_kernel > 0))
		ret = io_getevents(ab->ctx, min_nr, (long)room, ab->events, tsp);
	if (ret == -EINTR)
		ret = 0;
	if (ret < 0)
		return ret;
	return (int)aio_take(ab, done, max, (uint32_t)ret);
}

static void aio_close(struct eng_backend *be)
{
	struct aio_backend *ab = to_aio(be);

	if (!ab)
		return;
	/* io_destroy cancels what it can and waits for the rest, so buffers are free after it. */
	io_destroy(ab->ctx);
	aio_free(ab);
}

const struct eng_backend_ops eng_backend_aio = {
	.name = "aio",
	.open = aio_open,
	.submit = aio_submit,
	.reap = aio_reap,
	.close = aio_close,
};
