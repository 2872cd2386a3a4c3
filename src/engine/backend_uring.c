/* The io_uring backend (liburing): one io_uring_enter per submitted batch, completions reaped in
 * batches straight from the CQ ring, registered files and buffers where the kernel allows, and
 * the cheapest task-run mode the kernel accepts; each feature falls back silently. Refusal of
 * io_uring itself is returned as -errno so that the caller can fall back to aio or sync. */
#include "backend.h"
#include "clock.h"

#include <assert.h>
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* The kernel refuses a registered buffer above 1 GiB, so a larger region is split in groups. */
#define URING_MAX_BUF_BYTES (1ul << 30)

struct uring_backend {
	struct eng_backend base;
	struct io_uring ring;
	int *fds;		 /* cfg->files[].fd, used when files are not registered */
	uint8_t sqe_flags;	 /* IOSQE_FIXED_FILE when files are registered */
	bool is_started;	 /* enabled and set up by the submitting thread */
	uintptr_t buf_base;	 /* the registered region */
	size_t buf_region_bytes; /* 0 when no buffer is registered */
	size_t buf_group_bytes;	 /* bytes per registered iovec, a multiple of the slot size */
	uint32_t depth;
	uint32_t nr_inflight; /* accepted, not yet reaped (including SQEs not yet taken) */
};

/*
 * Setup modes, best first; the kernel answers EINVAL to flags it does not know. DEFER_TASKRUN
 * needs SINGLE_ISSUER, which binds the ring to one task: the ring starts disabled and the
 * worker's first submit or reap enables it, so open may run on another thread. TASKRUN_FLAG
 * makes the kernel flag pending task work, so a non-blocking reap enters only when needed.
 */
static const struct {
	unsigned int flags;
	const char *desc;
} setup_modes[] = {
	{ IORING_SETUP_CLAMP | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		  IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_R_DISABLED,
	  " defer_taskrun" },
	{ IORING_SETUP_CLAMP | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
	  " coop_taskrun" },
	{ IORING_SETUP_CLAMP, "" },
};

static struct uring_backend *to_uring(struct eng_backend *be)
{
	return (struct uring_backend *)be;
}

/* Errors after which the ring is fine and the same call can simply be made again later. */
static bool is_transient(int ret)
{
	return ret == -EAGAIN || ret == -EBUSY || ret == -EINTR || ret == -ETIME;
}

static int uring_setup(struct uring_backend *ub, uint32_t entries, const char **mode)
{
	int ret = -EINVAL;

	for (size_t i = 0; i < sizeof(setup_modes) / sizeof(setup_modes[0]); i++) {
		struct io_uring_params p = { .flags = setup_modes[i].flags };

		ret = io_uring_queue_init_params(entries, &ub->ring, &p);
		*mode = setup_modes[i].desc;
		if (ret != -EINVAL)
			break;
	}
	return ret;
}

/* Plain READ/WRITE (5.6) are required; older kernels are refused so that aio takes over. */
static int uring_check_ops(struct uring_backend *ub)
{
	struct io_uring_probe *probe = io_uring_get_probe_ring(&ub->ring);
	int ret = 0;

	if (!probe)
		return -EOPNOTSUPP;
	if (!io_uring_opcode_supported(probe, IORING_OP_READ) ||
	    !io_uring_opcode_supported(probe, IORING_OP_WRITE) ||
	    !io_uring_opcode_supported(probe, IORING_OP_FSYNC))
		ret = -EOPNOTSUPP;
	io_uring_free_probe(probe);
	return ret;
}

/* Registers the buffer region in groups of whole slots; false leaves plain reads and writes. */
static bool uring_register_bufs(struct uring_backend *ub, const struct eng_backend_cfg *cfg)
{
	size_t region = cfg->buf_region_bytes;
	size_t slot = cfg->buf_slot_bytes ? cfg->buf_slot_bytes : region;
	size_t group, nr;
	struct iovec *iov;
	int ret;

	if (!cfg->buf_region || region == 0 || slot > URING_MAX_BUF_BYTES)
		return false;
	group = URING_MAX_BUF_BYTES / slot * slot;
	if (group > region)
		group = region;
	nr = (region + group - 1) / group;
	iov = calloc(nr, sizeof(*iov));
	if (!iov)
		return false;
	for (size_t i = 0; i < nr; i++) {
		iov[i].iov_base = (char *)cfg->buf_region + i * group;
		iov[i].iov_len = region - i * group < group ? region - i * group : group;
	}
	ret = io_uring_register_buffers(&ub->ring, iov, (unsigned int)nr);
	free(iov);
	if (ret < 0)
		return false;
	ub->buf_base = (uintptr_t)cfg->buf_region;
	ub->buf_region_bytes = region;
	ub->buf_group_bytes = group;
	return true;
}

static bool uring_register_files(struct uring_backend *ub, uint32_t nr_files)
{
	if (nr_files == 0 || io_uring_register_files(&ub->ring, ub->fds, nr_files) < 0)
		return false;
	ub->sqe_flags = IOSQE_FIXED_FILE;
	return true;
}

static int uring_open(const struct eng_backend_cfg *cfg, struct eng_backend **out)
{
	struct uring_backend *ub;
	const char *mode;
	bool has_files, has_bufs;
	int ret;

	if (cfg->is_uring_refused)
		return -ENOSYS;
	if (cfg->depth == 0)
		return -EINVAL;
	ub = calloc(1, sizeof(*ub));
	if (!ub)
		return -ENOMEM;
	ub->fds = calloc(cfg->nr_files ? cfg->nr_files : 1, sizeof(*ub->fds));
	if (!ub->fds) {
		ret = -ENOMEM;
		goto err_free;
	}
	for (uint32_t i = 0; i < cfg->nr_files; i++)
		ub->fds[i] = cfg->files[i].fd;
	ub->depth = cfg->depth;

	/* One spare SQE: kernels without EXT_ARG wait through a timeout SQE. */
	ret = uring_setup(ub, cfg->depth + 1, &mode);
	if (ret < 0)
		goto err_free;
	ret = uring_check_ops(ub);
	if (ret < 0)
		goto err_exit;
	has_files = uring_register_files(ub, cfg->nr_files);
	has_bufs = uring_register_bufs(ub, cfg);

	ub->base.ops = &eng_backend_uring;
	snprintf(ub->base.desc, sizeof(ub->base.desc), "uring:%s%s%s", mode,
		 has_files ? " registered_files" : "", has_bufs ? " fixed_buffers" : "");
	*out = &ub->base;
	return 0;

err_exit:
	io_uring_queue_exit(&ub->ring);
err_free:
	free(ub->fds);
	free(ub);
	return ret;
}

/* Runs once on the worker's thread: enables a SINGLE_ISSUER ring, which binds it to that
 * thread, and registers the ring fd there (a per-thread table) to skip an fd lookup per enter. */
static int uring_start(struct uring_backend *ub)
{
	if (ub->ring.flags & IORING_SETUP_R_DISABLED) {
		/* liburing 2.3 declares io_uring_enable_rings() but does not export it */
		if (syscall(__NR_io_uring_register, ub->ring.ring_fd, IORING_REGISTER_ENABLE_RINGS,
			    NULL, 0) < 0)
			return -errno;
	}
	(void)io_uring_register_ring_fd(&ub->ring); /* an optimisation only */
	ub->is_started = true;
	return 0;
}

static void uring_prep(struct uring_backend *ub, struct io_uring_sqe *sqe, struct eng_io *io)
{
	int fd = ub->sqe_flags ? (int)io->file_idx : ub->fds[io->file_idx];
	uintptr_t off = (uintptr_t)io->buf - ub->buf_base;

	assert(io->op < ENG_OP_NR);
	if (io->op == ENG_OP_FSYNC) {
		io_uring_prep_fsync(sqe, fd, 0);
	} else if (off < ub->buf_region_bytes &&
		   off % ub->buf_group_bytes + io->size_bytes <= ub->buf_group_bytes) {
		int idx = (int)(off / ub->buf_group_bytes);

		if (io->op == ENG_OP_READ)
			io_uring_prep_read_fixed(sqe, fd, io->buf, io->size_bytes, io->offset_bytes,
						 idx);
		else
			io_uring_prep_write_fixed(sqe, fd, io->buf, io->size_bytes,
						  io->offset_bytes, idx);
	} else if (io->op == ENG_OP_READ) {
		io_uring_prep_read(sqe, fd, io->buf, io->size_bytes, io->offset_bytes);
	} else {
		io_uring_prep_write(sqe, fd, io->buf, io->size_bytes, io->offset_bytes);
	}
	sqe->flags |= ub->sqe_flags;
	io_uring_sqe_set_data(sqe, io);
}

static int uring_submit(struct eng_backend *be, struct eng_io *const *ios, uint32_t nr)
{
	struct uring_backend *ub = to_uring(be);
	uint32_t i;
	int ret;

	if (!ub->is_started) {
		ret = uring_start(ub);
		if (ret < 0)
			return ret;
	}
	if (nr > ub->depth - ub->nr_inflight)
		nr = ub->depth - ub->nr_inflight;
	for (i = 0; i < nr; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ub->ring);

		if (!sqe)
			break; /* only when the kernel clamped the ring below depth */
		uring_prep(ub, sqe, ios[i]);
	}
	ub->nr_inflight += i;
	/* SQEs the kernel did not take stay in the SQ ring; the next enter takes them. */
	ret = io_uring_submit(&ub->ring);
	if (ret < 0 && !is_transient(ret))
		return ret;
	return (int)i;
}

/* Hands back up to max CQEs, then releases their CQ entries with one head update. */
static uint32_t uring_drain(struct uring_backend *ub, struct eng_io **done, uint32_t max)
{
	struct io_uring_cqe *cqe;
	unsigned int head, nr_seen = 0;
	uint32_t n = 0;

	io_uring_for_each_cqe (&ub->ring, head, cqe) {
		struct eng_io *io;

		if (n == max)
			break;
		nr_seen++;
		if (cqe->user_data == LIBURING_UDATA_TIMEOUT)
			continue; /* liburing's own wait timeout on kernels without EXT_ARG */
		io = io_uring_cqe_get_data(cqe);
		io->result = cqe->res;
		done[n++] = io;
	}
	io_uring_cq_advance(&ub->ring, nr_seen);
	ub->nr_inflight -= n;
	return n;
}

/* Without blocking: hands the kernel SQEs it has not taken yet and runs deferred task work or
 * CQ overflow, and enters the kernel only when one of these is pending. */
static int uring_flush(struct uring_backend *ub)
{
	unsigned int kflags = IO_URING_READ_ONCE(*ub->ring.sq.kflags);
	int ret;

	if (io_uring_sq_ready(&ub->ring) == 0 &&
	    !(kflags & (IORING_SQ_TASKRUN | IORING_SQ_CQ_OVERFLOW)))
		return 0;
	ret = io_uring_submit_and_get_events(&ub->ring);
	return ret < 0 && !is_transient(ret) ? ret : 0;
}

static int uring_wait(struct uring_backend *ub, uint64_t deadline_ns)
{
	struct __kernel_timespec kts, *tsp = NULL;
	struct io_uring_cqe *cqe;
	int ret;

	if (deadline_ns != UINT64_MAX) {
		struct timespec ts;

		eng_clock_timeout(deadline_ns, &ts);
		kts.tv_sec = ts.tv_sec;
		kts.tv_nsec = ts.tv_nsec;
		tsp = &kts;
	}
	ret = io_uring_submit_and_wait_timeout(&ub->ring, &cqe, 1, tsp, NULL);
	return ret < 0 && !is_transient(ret) ? ret : 0;
}

static int uring_reap(struct eng_backend *be, struct eng_io **done, uint32_t max,
		      uint64_t deadline_ns)
{
	struct uring_backend *ub = to_uring(be);
	uint32_t n;
	int ret;

	if (!ub->is_started) {
		ret = uring_start(ub);
		if (ret < 0)
			return ret;
	}
	n = uring_drain(ub, done, max);
	if (n || max == 0)
		return (int)n;
	if (deadline_ns == 0 || (deadline_ns == UINT64_MAX && ub->nr_inflight == 0))
		ret = uring_flush(ub);
	else
		ret = uring_wait(ub, deadline_ns);
	if (ret < 0)
		return ret;
	return (int)uring_drain(ub, done, max);
}

/*
 * The kernel may still be writing into the caller's buffers, which are freed after close, so
 * wait for every I/O first. If the worker thread has already exited, the kernel cancelled and
 * waited for its I/Os then, and the wait fails at once (EEXIST on a single-issuer ring).
 */
static void uring_wait_all(struct uring_backend *ub)
{
	while (ub->nr_inflight > 0) {
		struct io_uring_cqe *cqe;
		unsigned int head, nr_seen = 0;
		int ret = io_uring_submit_and_wait(&ub->ring, 1);

		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
			break;
		io_uring_for_each_cqe (&ub->ring, head, cqe) {
			nr_seen++;
			if (cqe->user_data != LIBURING_UDATA_TIMEOUT)
				ub->nr_inflight--;
		}
		io_uring_cq_advance(&ub->ring, nr_seen);
	}
}

/* On the ring's own thread, which alone may wait on a DEFER_TASKRUN ring or unregister from a
 * SINGLE_ISSUER one: what is still in flight after the drain's limit completes here (its
 * buffers are freed after close), and the files, unregistered, are released when the target
 * closes them, not when the kernel's deferred teardown of the ring gets to them. */
static void uring_finish(struct eng_backend *be)
{
	struct uring_backend *ub = to_uring(be);

	if (ub->is_started)
		uring_wait_all(ub);
	if (ub->sqe_flags & IOSQE_FIXED_FILE && io_uring_unregister_files(&ub->ring) == 0)
		ub->sqe_flags = 0;
}

static void uring_close(struct eng_backend *be)
{
	struct uring_backend *ub = to_uring(be);

	if (!ub)
		return;
	if (ub->is_started)
		uring_wait_all(ub);
	io_uring_queue_exit(&ub->ring);
	free(ub->fds);
	free(ub);
}

const struct eng_backend_ops eng_backend_uring = {
	.name = "uring",
	.open = uring_open,
	.submit = uring_submit,
	.reap = uring_reap,
	.finish = uring_finish,
	.close = uring_close,
};
