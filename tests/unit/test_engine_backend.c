/* Unit tests of the engine's I/O backends. Each test runs against every backend it applies to,
 * on temporary files in $TMPDIR; a backend or feature this machine refuses is skipped visibly.
 * Deadlines here only bound a broken test's wait: no time or rate is ever asserted. */
#include <setjmp.h> /* cmocka needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/engine/backend.h"
#include "../../src/engine/clock.h"
#include "ioramp/compiler.h"
#include "ioramp/engine.h"

#define DEPTH	      64
#define BLOCK	      4096u
#define WAIT_NS	      (10ull * 1000000000u) /* a broken backend fails instead of hanging */
#define FILE_BYTES    (1u << 20)
#define NR_PATTERN_IO 16
#define NR_ROUNDS_IO  3000

struct fx {
	const struct eng_backend_ops *ops;
	char path[512];
	int fds[2];
	void *region; /* DEPTH slots of BLOCK bytes, registered with the backend */
	struct eng_io ios[DEPTH + 1];
	struct eng_io *ptrs[DEPTH + 1];
	struct eng_io *done[DEPTH];
	unsigned int seen[DEPTH + 1];
	struct eng_backend *be;
	struct eng_clock clock; /* virtual time, for the fault wrapper's timed options */
	struct eng_sleeper sleeper;
	bool is_virtual;
};

/* Deadlines that only bound a broken backend's wait: the engine's real clock. */
static uint64_t now_ns(void)
{
	return eng_now_ns();
}

static uint8_t pattern_byte(uint64_t off)
{
	return (uint8_t)(((off * 2654435761u) >> 13) ^ (off >> 9));
}

static int fx_setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (!fx || posix_memalign(&fx->region, 4096, (size_t)DEPTH * BLOCK))
		return -1;
	memset(fx->region, 0, (size_t)DEPTH * BLOCK);
	fx->ops = *state;
	fx->fds[0] = fx->fds[1] = -1;
	for (int i = 0; i <= DEPTH; i++)
		fx->ptrs[i] = &fx->ios[i];
	*state = fx;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *fx = *state;

	eng_backend_close(fx->be);
	if (fx->is_virtual) {
		eng_sleeper_leave(&fx->sleeper);
		eng_clock_fini(&fx->clock);
	}
	for (int i = 0; i < 2; i++)
		if (fx->fds[i] >= 0)
			close(fx->fds[i]);
	if (fx->path[0])
		unlink(fx->path);
	free(fx->region);
	free(fx);
	return 0;
}

static void *slot(struct fx *fx, int i)
{
	return (char *)fx->region + (size_t)i * BLOCK;
}

/* Creates an empty temporary file of size bytes; its path stays in fx->path. */
static void fx_make_file(struct fx *fx, uint64_t size)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(fx->path, sizeof(fx->path), "%s/ioramp-backend.XXXXXX",
		 dir && *dir ? dir : "/tmp");
	fd = mkstemp(fx->path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	close(fd);
}

/* Opens fx->path as fds[i]; returns -errno instead of failing, for O_DIRECT probes. */
static int fx_open_file(struct fx *fx, int i, int flags)
{
	fx->fds[i] = open(fx->path, flags | O_CLOEXEC);
	return fx->fds[i] < 0 ? -errno : 0;
}

static struct eng_backend_cfg fx_cfg(struct fx *fx, const struct eng_backend_file *files,
				     uint32_t nr_files, uint32_t depth)
{
	struct eng_backend_cfg cfg = {
		.depth = depth,
		.files = files,
		.nr_files = nr_files,
		.buf_region = fx->region,
		.buf_region_bytes = (size_t)DEPTH * BLOCK,
		.buf_slot_bytes = BLOCK,
	};

	return cfg;
}

/* Opens the backend under test; skips when the kernel or the container refuses it. */
static void fx_open_backend(struct fx *fx, const struct eng_backend_file *files, uint32_t nr_files,
			    uint32_t depth)
{
	struct eng_backend_cfg cfg = fx_cfg(fx, files, nr_files, depth);
	int ret = fx->ops->open(&cfg, &fx->be);

	if (ret == -ENOSYS || ret == -EPERM || ret == -EOPNOTSUPP ||
	    (fx->ops == &eng_backend_aio && ret == -EAGAIN)) {
		print_message("# skip: backend %s refused here: %s\n", fx->ops->name,
			      strerror(-ret));
		skip();
	}
	assert_int_equal(ret, 0);
	assert_ptr_equal(fx->be->ops, fx->ops);
	assert_int_equal(strncmp(fx->be->desc, fx->ops->name, strlen(fx->ops->name)), 0);
}

static void io_set(struct eng_io *io, enum eng_op op, uint32_t file_idx, uint64_t off,
		   uint32_t size, void *buf)
{
	*io = (struct eng_io){ .op = op,
			       .file_idx = file_idx,
			       .offset_bytes = off,
			       .size_bytes = size,
			       .buf = buf,
			       .result = INT32_MIN };
}

/* Submits ios[0..nr-1] and reaps until each has completed exactly once. */
static void fx_run(struct fx *fx, uint32_t nr)
{
	uint32_t submitted = 0, completed = 0;
	int nr_empty = 0;

	memset(fx->seen, 0, sizeof(fx->seen));
	for (uint32_t i = 0; i < nr; i++)
		fx->ios[i].user = (void *)(uintptr_t)i;
	while (completed < nr) {
		int ret;

		if (submitted < nr) {
			ret = eng_backend_submit(fx->be, fx->ptrs + submitted, nr - submitted);
			assert_in_range(ret, 0, nr - submitted);
			submitted += (uint32_t)ret;
		}
		ret = eng_backend_reap(fx->be, fx->done, DEPTH, now_ns() + WAIT_NS);
		assert_in_range(ret, 0, DEPTH);
		nr_empty = ret ? 0 : nr_empty + 1;
		assert_true(nr_empty < 3);
		for (int j = 0; j < ret; j++) {
			uintptr_t idx = (uintptr_t)fx->done[j]->user;

			assert_true(idx < nr);
			assert_int_equal(fx->seen[idx]++, 0);
		}
		completed += (uint32_t)ret;
	}
}

static uint64_t pattern_offset(int i)
{
	return (uint64_t)i * 3 * 16384 + (uint64_t)(i % 4) * BLOCK;
}

/* Writes the pattern at NR_PATTERN_IO offsets through the backend, checks it with pread, reads
 * it back through the backend and compares. fds[0] is the backend's file 0. */
static void pattern_roundtrip(struct fx *fx)
{
	int vfd = open(fx->path, O_RDONLY | O_CLOEXEC);
	uint8_t check[BLOCK];

	assert_true(vfd >= 0);
	for (int i = 0; i < NR_PATTERN_IO; i++) {
		uint8_t *buf = slot(fx, i);

		for (uint32_t j = 0; j < BLOCK; j++)
			buf[j] = pattern_byte(pattern_offset(i) + j);
		io_set(&fx->ios[i], ENG_OP_WRITE, 0, pattern_offset(i), BLOCK, buf);
	}
	fx_run(fx, NR_PATTERN_IO);
	for (int i = 0; i < NR_PATTERN_IO; i++) {
		assert_int_equal(fx->ios[i].result, BLOCK);
		assert_int_equal(pread(vfd, check, BLOCK, (off_t)pattern_offset(i)), BLOCK);
		assert_memory_equal(check, slot(fx, i), BLOCK);
	}
	close(vfd);

	memset(fx->region, 0, (size_t)DEPTH * BLOCK);
	for (int i = 0; i < NR_PATTERN_IO; i++)
		io_set(&fx->ios[i], ENG_OP_READ, 0, pattern_offset(i), BLOCK, slot(fx, i));
	fx_run(fx, NR_PATTERN_IO);
	for (int i = 0; i < NR_PATTERN_IO; i++) {
		const uint8_t *buf = slot(fx, i);

		assert_int_equal(fx->ios[i].result, BLOCK);
		for (uint32_t j = 0; j < BLOCK; j++)
			assert_int_equal(buf[j], pattern_byte(pattern_offset(i) + j));
	}
}

static void test_backend_pattern_roundtrip(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 8 };

	fx_make_file(fx, FILE_BYTES);
	assert_int_equal(fx_open_file(fx, 0, O_RDWR), 0);
	file.fd = fx->fds[0];
	fx_open_backend(fx, &file, 1, DEPTH);
	pattern_roundtrip(fx);
}

static void test_backend_pattern_roundtrip_direct(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 8, .is_direct = true };
	int ret;

	fx_make_file(fx, FILE_BYTES);
	ret = fx_open_file(fx, 0, O_RDWR | O_DIRECT);
	if (ret == -EINVAL) {
		print_message("# skip: the file system of %s refuses O_DIRECT\n", fx->path);
		skip();
	}
	assert_int_equal(ret, 0);
	file.fd = fx->fds[0];
	fx_open_backend(fx, &file, 1, DEPTH);
	pattern_roundtrip(fx);
}

/* depth I/Os in flight at once: all accepted, one more refused, each handed back once,
 * even when reaped a few at a time. */
static void test_backend_depth_completes_once(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = DEPTH };
	uint32_t completed = 0;
	int ret;

	fx_make_file(fx, (uint64_t)DEPTH * BLOCK);
	assert_int_equal(fx_open_file(fx, 0, O_RDONLY), 0);
	file.fd = fx->fds[0];
	fx_open_backend(fx, &file, 1, DEPTH);
	for (int i = 0; i <= DEPTH; i++) {
		io_set(&fx->ios[i], ENG_OP_READ, 0, (uint64_t)(DEPTH - 1 - i % DEPTH) * BLOCK,
		       BLOCK, slot(fx, i % DEPTH));
		fx->ios[i].user = (void *)(uintptr_t)i;
	}
	assert_int_equal(eng_backend_submit(fx->be, fx->ptrs, DEPTH), DEPTH);
	assert_int_equal(eng_backend_submit(fx->be, fx->ptrs + DEPTH, 1), 0);
	while (completed < DEPTH) {
		ret = eng_backend_reap(fx->be, fx->done, 5, now_ns() + WAIT_NS);
		assert_in_range(ret, 1, 5);
		for (int j = 0; j < ret; j++) {
			uintptr_t idx = (uintptr_t)fx->done[j]->user;

			assert_true(idx < DEPTH);
			assert_int_equal(fx->seen[idx]++, 0);
			assert_int_equal(fx->done[j]->result, BLOCK);
		}
		completed += (uint32_t)ret;
	}
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, 0), 0);
}

static void test_backend_short_read_at_eof(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 4 };
	void *buf = aligned_alloc(4096, 2 * BLOCK); /* outside the registered region */

	assert_non_null(buf);
	fx_make_file(fx, 6000);
	assert_int_equal(fx_open_file(fx, 0, O_RDONLY), 0);
	file.fd = fx->fds[0];
	fx_open_backend(fx, &file, 1, 4);
	io_set(&fx->ios[0], ENG_OP_READ, 0, BLOCK, BLOCK, buf);
	io_set(&fx->ios[1], ENG_OP_READ, 0, 2 * BLOCK, BLOCK, (char *)buf + BLOCK);
	fx_run(fx, 2);
	assert_int_equal(fx->ios[0].result, 6000 - BLOCK);
	assert_int_equal(fx->ios[1].result, 0);
	free(buf);
}

/* Failed I/Os come back as -errno in their slot, and the backend keeps working. */
static void test_backend_error_in_slot(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file files[2] = { { .threads = 4 }, { .threads = 4 } };

	fx_make_file(fx, 16 * BLOCK);
	assert_int_equal(fx_open_file(fx, 0, O_WRONLY), 0);
	assert_int_equal(fx_open_file(fx, 1, O_RDONLY), 0);
	files[0].fd = fx->fds[0];
	files[1].fd = fx->fds[1];
	fx_open_backend(fx, files, 2, 8);
	io_set(&fx->ios[0], ENG_OP_READ, 0, 0, BLOCK, slot(fx, 0));
	io_set(&fx->ios[1], ENG_OP_WRITE, 1, 0, BLOCK, slot(fx, 1));
	/* a negative off_t (-4096: not -1, which io_uring reads as "the file position") */
	io_set(&fx->ios[2], ENG_OP_READ, 1, UINT64_MAX - BLOCK + 1, BLOCK, slot(fx, 2));
	io_set(&fx->ios[3], ENG_OP_READ, 1, BLOCK, BLOCK, slot(fx, 3));
	fx_run(fx, 4);
	assert_int_equal(fx->ios[0].result, -EBADF);
	assert_int_equal(fx->ios[1].result, -EBADF);
	assert_int_equal(fx->ios[2].result, -EINVAL);
	assert_int_equal(fx->ios[3].result, BLOCK);

	io_set(&fx->ios[0], ENG_OP_READ, 1, 0, BLOCK, slot(fx, 0));
	fx_run(fx, 1);
	assert_int_equal(fx->ios[0].result, BLOCK);
}

/* With nothing in flight reap returns 0 for every kind of deadline (only that it returns). */
static void test_backend_reap_deadline(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 2 };

	fx_make_file(fx, BLOCK);
	assert_int_equal(fx_open_file(fx, 0, O_RDONLY), 0);
	file.fd = fx->fds[0];
	fx_open_backend(fx, &file, 1, 2);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, 0), 0);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, now_ns() + 1000000), 0);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, now_ns() - 1), 0);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, UINT64_MAX), 0);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, 0, now_ns() + 1000000), 0);
}

static void test_backend_write_then_fsync(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 2 };

	fx_make_file(fx, 4 * BLOCK);
	assert_int_equal(fx_open_file(fx, 0, O_RDWR), 0);
	file.fd = fx->fds[0];
	fx_open_backend(fx, &file, 1, 2);
	memset(slot(fx, 0), 0x5a, BLOCK);
	io_set(&fx->ios[0], ENG_OP_WRITE, 0, BLOCK, BLOCK, slot(fx, 0));
	fx_run(fx, 1);
	assert_int_equal(fx->ios[0].result, BLOCK);
	io_set(&fx->ios[0], ENG_OP_FSYNC, 0, 0, 0, NULL);
	fx_run(fx, 1);
	assert_int_equal(fx->ios[0].result, 0);
}

/* Thousands of I/Os through a small depth, slots reused as they come back, reaping in turn
 * without waiting and with a deadline: every I/O completes once with the full count. */
static void test_backend_many_rounds(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 16 };
	uint32_t free_idx[16], nr_free = 16, issued = 0, completed = 0;

	fx_make_file(fx, 64 * BLOCK);
	assert_int_equal(fx_open_file(fx, 0, O_RDWR), 0);
	file.fd = fx->fds[0];
	fx_open_backend(fx, &file, 1, 16);
	for (uint32_t k = 0; k < 16; k++)
		free_idx[k] = k;
	while (completed < NR_ROUNDS_IO) {
		struct eng_io *batch[16];
		uint32_t nb = 0;
		int ret;

		for (; nr_free > 0 && issued + nb < NR_ROUNDS_IO; nb++) {
			uint32_t k = free_idx[--nr_free];
			uint64_t off = (uint64_t)((issued + nb) * 7 % 64) * BLOCK;

			io_set(&fx->ios[k], k % 4 ? ENG_OP_READ : ENG_OP_WRITE, 0, off, BLOCK,
			       slot(fx, (int)k));
			fx->ios[k].user = (void *)(uintptr_t)k;
			batch[nb] = &fx->ios[k];
		}
		assert_int_equal(eng_backend_submit(fx->be, batch, nb), nb);
		issued += nb;
		ret = eng_backend_reap(fx->be, fx->done, DEPTH,
				       completed % 3 ? now_ns() + WAIT_NS : 0);
		assert_in_range(ret, 0, 16);
		for (int j = 0; j < ret; j++) {
			assert_int_equal(fx->done[j]->result, BLOCK);
			free_idx[nr_free++] = (uint32_t)(uintptr_t)fx->done[j]->user;
		}
		completed += (uint32_t)ret;
	}
	assert_int_equal(nr_free, 16);
}

/* Closing with I/Os in flight waits for them (sanitizers watch the buffers and threads). */
static void test_backend_close_with_inflight(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 16 };

	fx_make_file(fx, 16 * BLOCK);
	assert_int_equal(fx_open_file(fx, 0, O_RDWR), 0);
	file.fd = fx->fds[0];
	fx_open_backend(fx, &file, 1, 16);
	for (int i = 0; i < 16; i++)
		io_set(&fx->ios[i], i % 2 ? ENG_OP_WRITE : ENG_OP_READ, 0, (uint64_t)i * BLOCK,
		       BLOCK, slot(fx, i));
	assert_int_equal(eng_backend_submit(fx->be, fx->ptrs, 16), 16);
	eng_backend_close(fx->be);
	fx->be = NULL;
}

/* The worker thread's side of test_backend_open_elsewhere(): 0 when all went as expected. */
static void *worker_main(void *arg)
{
	struct fx *fx = arg;
	uint32_t got = 0;

	if (eng_backend_submit(fx->be, fx->ptrs, 16) != 16)
		return (void *)1;
	while (got < 16) {
		int ret = eng_backend_reap(fx->be, fx->done, DEPTH, now_ns() + WAIT_NS);

		if (ret <= 0)
			return (void *)2;
		for (int j = 0; j < ret; j++)
			if (fx->done[j]->result != BLOCK)
				return (void *)3;
		got += (uint32_t)ret;
	}
	/* leave with I/Os in flight: the controller closes after the worker is gone */
	if (eng_backend_submit(fx->be, fx->ptrs, 8) != 8)
		return (void *)4;
	return NULL;
}

/* Opened on one thread, driven by another, closed by the first after the second exited: the
 * way the engine uses a backend (uring binds a single-issuer ring to the driving thread). */
static void test_backend_open_elsewhere(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 16 };
	pthread_t tid;
	void *status;

	fx_make_file(fx, 16 * BLOCK);
	assert_int_equal(fx_open_file(fx, 0, O_RDWR), 0);
	file.fd = fx->fds[0];
	fx_open_backend(fx, &file, 1, 16);
	for (int i = 0; i < 16; i++)
		io_set(&fx->ios[i], ENG_OP_READ, 0, (uint64_t)i * BLOCK, BLOCK, slot(fx, i));
	assert_int_equal(pthread_create(&tid, NULL, worker_main, fx), 0);
	assert_int_equal(pthread_join(tid, &status), 0);
	assert_null(status);
	eng_backend_close(fx->be);
	fx->be = NULL;
}

/* The sync pool runs at most a file's threads= I/Os on it at once. */
static void test_backend_sync_per_file_threads(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file files[2] = { { .threads = 1 }, { .threads = 2 } };

	fx_make_file(fx, 4 * BLOCK);
	assert_int_equal(fx_open_file(fx, 0, O_RDONLY), 0);
	assert_int_equal(fx_open_file(fx, 1, O_RDONLY), 0);
	files[0].fd = fx->fds[0];
	files[1].fd = fx->fds[1];
	fx_open_backend(fx, files, 2, 3);
	for (int i = 0; i < 3; i++)
		io_set(&fx->ios[i], ENG_OP_READ, 0, (uint64_t)i * BLOCK, BLOCK, slot(fx, i));
	assert_int_equal(eng_backend_submit(fx->be, fx->ptrs, 3), 1);
	for (int i = 1; i < 3; i++)
		fx->ios[i].file_idx = 1;
	assert_int_equal(eng_backend_submit(fx->be, fx->ptrs + 1, 2), 2);
	for (uint32_t got = 0; got < 3;) {
		int ret = eng_backend_reap(fx->be, fx->done, DEPTH, now_ns() + WAIT_NS);

		assert_in_range(ret, 1, 3);
		got += (uint32_t)ret;
	}
	for (int i = 0; i < 3; i++)
		assert_int_equal(fx->ios[i].result, BLOCK);
}

/* A file's write gate: a write waits for it, a read does not (backend_sync.c sync_do). No
 * time is judged: a write cannot complete while the test holds the gate, however fast. */
static void test_backend_sync_write_gate(void **state)
{
	struct fx *fx = *state;
	pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
	struct eng_backend_file file = { .threads = 2, .write_gate = &gate };
	int ret;

	fx_make_file(fx, 4 * BLOCK);
	assert_int_equal(fx_open_file(fx, 0, O_RDWR), 0);
	file.fd = fx->fds[0];
	fx_open_backend(fx, &file, 1, 2);
	pthread_mutex_lock(&gate);
	io_set(&fx->ios[0], ENG_OP_WRITE, 0, 0, BLOCK, slot(fx, 0));
	io_set(&fx->ios[1], ENG_OP_READ, 0, BLOCK, BLOCK, slot(fx, 1));
	assert_int_equal(eng_backend_submit(fx->be, fx->ptrs, 2), 2);
	/* the read completes while the write waits for the gate */
	ret = eng_backend_reap(fx->be, fx->done, DEPTH, now_ns() + WAIT_NS);
	assert_int_equal(ret, 1);
	assert_ptr_equal(fx->done[0], &fx->ios[1]);
	assert_int_equal(fx->ios[0].result, INT32_MIN);
	pthread_mutex_unlock(&gate);
	ret = eng_backend_reap(fx->be, fx->done, DEPTH, now_ns() + WAIT_NS);
	assert_int_equal(ret, 1);
	assert_ptr_equal(fx->done[0], &fx->ios[0]);
	assert_int_equal(fx->ios[0].result, BLOCK);
	pthread_mutex_destroy(&gate);
}

/* Kills the whole process at its first system call other than exit and exit_group (unlike
 * strict mode, which kills one thread and can leave a sanitizer's helper thread behind). */
static int forbid_syscalls(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit_group, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = IORAMP_ARRAY_SIZE(filter), .filter = filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* Child side of the no-syscall test: reaching the exit proves there was no system call. */
static void null_loop_no_syscalls(struct fx *fx)
{
	uint32_t total = 0;

	if (forbid_syscalls() != 0)
		syscall(SYS_exit_group, 2);
	for (int round = 0; round < 100; round++) {
		int n = eng_backend_submit(fx->be, fx->ptrs, DEPTH);

		if (n != DEPTH)
			syscall(SYS_exit_group, 1);
		for (int got = 0; got < DEPTH; got += n) {
			n = eng_backend_reap(fx->be, fx->done, DEPTH, 0);
			if (n <= 0 || fx->done[0]->result != (int32_t)fx->done[0]->size_bytes)
				syscall(SYS_exit_group, 1);
		}
		total += DEPTH;
	}
	syscall(SYS_exit_group, total == 100 * DEPTH ? 0 : 1);
}

static void test_backend_null_makes_no_syscalls(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .fd = -1, .threads = DEPTH };
	int status;
	pid_t pid;

	if (getenv("IORAMP_VALGRIND")) { /* valgrind's own system calls would trip the filter */
		print_message("# skip: seccomp filter test under valgrind\n");
		skip();
	}
	fx_open_backend(fx, &file, 1, DEPTH);
	for (int i = 0; i < DEPTH; i++)
		io_set(&fx->ios[i], i % 3 ? ENG_OP_READ : ENG_OP_WRITE, 0, (uint64_t)i * BLOCK,
		       BLOCK, slot(fx, i));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		null_loop_no_syscalls(fx);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
		print_message("# skip: seccomp filters are not available\n");
		skip();
	}
	if (WIFSIGNALED(status))
		fail_msg("null backend made a system call (killed by signal %d)", WTERMSIG(status));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_backend_find_by_name(void **state)
{
	(void)state;
	assert_ptr_equal(eng_backend_find("uring"), &eng_backend_uring);
	assert_ptr_equal(eng_backend_find("aio"), &eng_backend_aio);
	assert_ptr_equal(eng_backend_find("sync"), &eng_backend_sync);
	assert_ptr_equal(eng_backend_find("null"), &eng_backend_null);
	assert_null(eng_backend_find("io_uring"));
	assert_null(eng_backend_find(""));
}

/* Refused io_uring with O_DIRECT files: aio is next, and the note says why. */
static void test_backend_fallback_to_aio(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 4, .is_direct = true };
	struct eng_backend_cfg cfg;
	char note[256];
	int ret;

	fx_make_file(fx, FILE_BYTES);
	ret = fx_open_file(fx, 0, O_RDWR | O_DIRECT);
	if (ret == -EINVAL) {
		print_message("# skip: the file system of %s refuses O_DIRECT\n", fx->path);
		skip();
	}
	file.fd = fx->fds[0];
	cfg = fx_cfg(fx, &file, 1, 4);
	cfg.is_uring_refused = true;
	assert_int_equal(eng_backend_open_fallback(&cfg, &fx->be, note, sizeof(note)), 0);
	if (fx->be->ops == &eng_backend_sync) {
		print_message("# skip: aio refused here too: %s\n", note);
		skip();
	}
	assert_ptr_equal(fx->be->ops, &eng_backend_aio);
	assert_string_equal(note, "io_uring unavailable (Function not implemented); using aio");
	pattern_roundtrip(fx);
}

/* Refused io_uring with buffered files: aio would be synchronous, so sync is next. */
static void test_backend_fallback_to_sync(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 4 };
	struct eng_backend_cfg cfg;
	char note[256];

	fx_make_file(fx, FILE_BYTES);
	assert_int_equal(fx_open_file(fx, 0, O_RDWR), 0);
	file.fd = fx->fds[0];
	cfg = fx_cfg(fx, &file, 1, 4);
	cfg.is_uring_refused = true;
	assert_int_equal(eng_backend_open_fallback(&cfg, &fx->be, note, sizeof(note)), 0);
	assert_ptr_equal(fx->be->ops, &eng_backend_sync);
	assert_string_equal(note, "io_uring unavailable (Function not implemented); using sync "
				  "(aio skipped: buffered libaio is synchronous)");
	pattern_roundtrip(fx);
}

/* Nothing refused: uring when the kernel allows it, and then no note. */
static void test_backend_fallback_prefers_uring(void **state)
{
	struct fx *fx = *state;
	struct eng_backend_file file = { .threads = 4 };
	struct eng_backend_cfg cfg;
	char note[256] = "unset";

	fx_make_file(fx, FILE_BYTES);
	assert_int_equal(fx_open_file(fx, 0, O_RDWR), 0);
	file.fd = fx->fds[0];
	cfg = fx_cfg(fx, &file, 1, 4);
	assert_int_equal(eng_backend_open_fallback(&cfg, &fx->be, note, sizeof(note)), 0);
	if (fx->be->ops != &eng_backend_uring) {
		assert_ptr_equal(fx->be->ops, &eng_backend_sync);
		print_message("# skip: io_uring refused here: %s\n", note);
		skip();
	}
	assert_string_equal(note, "");
	print_message("# %s\n", fx->be->desc);
}

/* ---- the fault wrapper ------------------------------------------------------------------ */

/* This thread becomes the only sleeper of a virtual clock at 0: a wait through it moves time
 * at once, to exactly where it was asked to. */
static void fx_virtual(struct fx *fx)
{
	assert_int_equal(eng_clock_init(&fx->clock, true), 0);
	assert_int_equal(eng_sleeper_join(&fx->clock, &fx->sleeper), 0);
	fx->is_virtual = true;
}

/* Opens the fault wrapper spec names over a 64-block file opened read-write as file 0 (in
 * virtual time after fx_virtual()). */
static void fault_open(struct fx *fx, const char *spec, uint32_t depth)
{
	struct eng_backend_file file = { .threads = depth };
	struct eng_backend_cfg cfg;
	char msg[256];

	fx_make_file(fx, 64 * BLOCK);
	assert_int_equal(fx_open_file(fx, 0, O_RDWR), 0);
	file.fd = fx->fds[0];
	cfg = fx_cfg(fx, &file, 1, depth);
	cfg.sleeper = fx->is_virtual ? &fx->sleeper : NULL;
	assert_int_equal(eng_backend_fault_open(spec, &cfg, &fx->be, msg, sizeof(msg)), 0);
	assert_ptr_equal(fx->be->ops, &eng_backend_fault);
}

static void fault_set(struct fx *fx, enum eng_op op, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		memset(slot(fx, (int)i), 0xa5, BLOCK);
		io_set(&fx->ios[i], op, 0, (uint64_t)i * BLOCK, BLOCK, slot(fx, (int)i));
	}
}

/* eio=1: every write fails with EIO and none reaches the file. */
static void test_fault_eio_never_reaches_the_file(void **state)
{
	struct fx *fx = *state;
	struct stat st;

	fault_open(fx, "fault:sync,eio=1", 8);
	fault_set(fx, ENG_OP_WRITE, 8);
	fx_run(fx, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(fx->ios[i].result, -EIO);
	assert_int_equal(stat(fx->path, &st), 0);
	assert_int_equal(st.st_blocks, 0); /* still sparse: nothing was written */
}

/* enospc_after=16k: four 4 KiB writes pass, the next ones fail with ENOSPC; reads still work. */
static void test_fault_enospc_after(void **state)
{
	struct fx *fx = *state;

	fault_open(fx, "fault:sync,enospc_after=16k", 8);
	fault_set(fx, ENG_OP_WRITE, 8);
	fx_run(fx, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(fx->ios[i].result, i < 4 ? (int)BLOCK : -ENOSPC);
	fault_set(fx, ENG_OP_READ, 8);
	fx_run(fx, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(fx->ios[i].result, BLOCK);
}

/* vanish_after=3: the fourth I/O and every later one fail with ENXIO. */
static void test_fault_vanish_after_ios(void **state)
{
	struct fx *fx = *state;

	fault_open(fx, "fault:null,vanish_after=3", 8);
	fault_set(fx, ENG_OP_READ, 6);
	fx_run(fx, 6);
	for (int i = 0; i < 6; i++)
		assert_int_equal(fx->ios[i].result, i < 3 ? (int)BLOCK : -ENXIO);
	fx_run(fx, 2);
	assert_int_equal(fx->ios[0].result, -ENXIO);
}

/* vanish_after=300ms: I/O works until that much time has passed since the backend opened,
 * then fails (virtual time: exactly at 300 ms, not a microsecond before). */
static void test_fault_vanish_after_time(void **state)
{
	struct fx *fx = *state;

	fx_virtual(fx);
	fault_open(fx, "fault:null,vanish_after=300ms", 8);
	fault_set(fx, ENG_OP_READ, 4);
	fx_run(fx, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(fx->ios[i].result, BLOCK);
	eng_sleeper_until(&fx->sleeper, 299999999u);
	fx_run(fx, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(fx->ios[i].result, BLOCK);
	eng_sleeper_until(&fx->sleeper, 300000000u);
	fx_run(fx, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(fx->ios[i].result, -ENXIO);
}

/* short=1: every transfer completes with half its bytes (a 512-byte multiple). */
static void test_fault_short_transfers(void **state)
{
	struct fx *fx = *state;

	fault_open(fx, "fault:sync,short=1", 8);
	fault_set(fx, ENG_OP_WRITE, 4);
	fx_run(fx, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(fx->ios[i].result, BLOCK / 2);
}

/* delay=100ms: nothing comes back before that, everything at exactly that time (virtual),
 * each once. */
static void test_fault_delay_holds_completions(void **state)
{
	struct fx *fx = *state;
	uint32_t got = 0;

	fx_virtual(fx);
	fault_open(fx, "fault:null,delay=100ms", 8);
	fault_set(fx, ENG_OP_READ, 4);
	assert_int_equal(eng_backend_submit(fx->be, fx->ptrs, 4), 4);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, 0), 0);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, 99999999u), 0);
	assert_int_equal(eng_clock_now(&fx->clock), 99999999u);
	while (got < 4) {
		int ret = eng_backend_reap(fx->be, fx->done, DEPTH, UINT64_MAX);

		assert_in_range(ret, 1, 4 - got);
		got += (uint32_t)ret;
	}
	assert_int_equal(eng_clock_now(&fx->clock), 100000000u);
	assert_int_equal(eng_backend_reap(fx->be, fx->done, DEPTH, UINT64_MAX), 0);
}

/* The same seed fails the same I/Os. */
static void test_fault_eio_repeats_with_seed(void **state)
{
	struct fx *fx = *state;
	int32_t first[32];
	int nr_failed = 0;

	fault_open(fx, "fault:null,eio=0.5,seed=9", 32);
	fault_set(fx, ENG_OP_READ, 32);
	fx_run(fx, 32);
	for (int i = 0; i < 32; i++) {
		first[i] = fx->ios[i].result;
		nr_failed += first[i] == -EIO;
	}
	assert_in_range(nr_failed, 1, 31);
	eng_backend_close(fx->be);
	fx->be = NULL;
	close(fx->fds[0]);
	unlink(fx->path);
	fault_open(fx, "fault:null,eio=0.5,seed=9", 32);
	fault_set(fx, ENG_OP_READ, 32);
	fx_run(fx, 32);
	for (int i = 0; i < 32; i++)
		assert_int_equal(fx->ios[i].result, first[i]);
}

static void test_fault_spec_checked(void **state)
{
	static const struct {
		const char *spec;
		const char *msg; /* NULL: valid */
	} cases[] = {
		{ "fault:uring,eio=0.01,short=0.001,enospc_after=1m,vanish_after=2s,delay=1ms,seed=7",
		  NULL },
		{ "fault:null", NULL },
		{ "fault:null,vanish_after=1000", NULL },
		{ "fault:", "engine fault:: expected fault:BACKEND[,OPTION=VALUE...] with BACKEND "
			    "uring, aio, sync or null" },
		{ "fault:bogus,eio=1", "engine fault:bogus,eio=1: expected fault:BACKEND" },
		{ "fault:sync,eio=1.5", "engine fault:sync,eio=1.5: invalid eio=1.5" },
		{ "fault:sync,eio=x", "engine fault:sync,eio=x: invalid eio=x" },
		{ "fault:sync,delay=5", "engine fault:sync,delay=5: invalid delay=5" },
		{ "fault:sync,vanish_after=1.5", "engine fault:sync,vanish_after=1.5: invalid" },
		{ "fault:sync,enospc_after=-1", "engine fault:sync,enospc_after=-1: invalid" },
		{ "fault:sync,nope=1",
		  "engine fault:sync,nope=1: unknown option nope; expected eio=" },
		{ "fault:sync,eio", "engine fault:sync,eio: unknown option eio" },
	};
	char msg[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret;

		msg[0] = '\0';
		ret = eng_backend_check_name(cases[i].spec, msg, sizeof(msg));
		if (!cases[i].msg) {
			assert_int_equal(ret, 0);
			continue;
		}
		assert_int_equal(ret, -EINVAL);
		if (strncmp(msg, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("%s: got \"%s\", expected \"%s...\"", cases[i].spec, msg,
				 cases[i].msg);
	}
	assert_int_equal(eng_backend_check_name(NULL, msg, sizeof(msg)), 0);
	assert_int_equal(eng_backend_check_name("aio", msg, sizeof(msg)), 0);
	assert_int_equal(eng_backend_check_name("bogus", msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg,
			    "unknown engine bogus; expected uring, aio, sync, null, "
			    "model[:PRESET][,OPTION=VALUE...] or fault:BACKEND[,OPTION=VALUE...]");
}

/* A table: one line per test, the backend as a parameter. */
/* clang-format off */
#define BACKEND_TEST(ops, f) \
	{ #ops ": " #f, f, fx_setup, fx_teardown, (void *)&eng_backend_##ops }
#define IO_TESTS(ops) \
	BACKEND_TEST(ops, test_backend_pattern_roundtrip), \
	BACKEND_TEST(ops, test_backend_pattern_roundtrip_direct), \
	BACKEND_TEST(ops, test_backend_short_read_at_eof), \
	BACKEND_TEST(ops, test_backend_error_in_slot)
#define COMMON_TESTS(ops) \
	BACKEND_TEST(ops, test_backend_depth_completes_once), \
	BACKEND_TEST(ops, test_backend_reap_deadline), \
	BACKEND_TEST(ops, test_backend_write_then_fsync), \
	BACKEND_TEST(ops, test_backend_many_rounds), \
	BACKEND_TEST(ops, test_backend_open_elsewhere), \
	BACKEND_TEST(ops, test_backend_close_with_inflight)
/* clang-format on */

int main(void)
{
	const struct CMUnitTest tests[] = {
		IO_TESTS(uring),
		COMMON_TESTS(uring),
		IO_TESTS(aio),
		COMMON_TESTS(aio),
		IO_TESTS(sync),
		COMMON_TESTS(sync),
		BACKEND_TEST(sync, test_backend_sync_per_file_threads),
		BACKEND_TEST(sync, test_backend_sync_write_gate),
		COMMON_TESTS(null),
		BACKEND_TEST(null, test_backend_null_makes_no_syscalls),
		cmocka_unit_test(test_backend_find_by_name),
		BACKEND_TEST(uring, test_backend_fallback_to_aio),
		BACKEND_TEST(uring, test_backend_fallback_to_sync),
		BACKEND_TEST(uring, test_backend_fallback_prefers_uring),
		/* the fault wrapper passes everything on unchanged without options */
		IO_TESTS(fault),
		COMMON_TESTS(fault),
		BACKEND_TEST(fault, test_fault_eio_never_reaches_the_file),
		BACKEND_TEST(fault, test_fault_enospc_after),
		BACKEND_TEST(fault, test_fault_vanish_after_ios),
		BACKEND_TEST(fault, test_fault_vanish_after_time),
		BACKEND_TEST(fault, test_fault_short_transfers),
		BACKEND_TEST(fault, test_fault_delay_holds_completions),
		BACKEND_TEST(fault, test_fault_eio_repeats_with_seed),
		cmocka_unit_test(test_fault_spec_checked),
	};

	return cmocka_run_group_tests_name("engine_backend", tests, NULL, NULL);
}
