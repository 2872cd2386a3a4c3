/* The sync backend, VDbench's model: blocking pread/pwrite, one I/O in flight per thread.
 *
 * Inline (a worker of depth 1: the engine gives each of an SD's threads= a worker of its own,
 * or serves sparse cached SDs one I/O at a time, run_exec.c): submit does the I/O on the
 * worker's thread and reap hands it back; nothing is handed off, and waiting goes through the
 * run's clock like the null backend's.
 *
 * Pool (a worker that drives more than one I/O: the stages that keep one worker per SD): per
 * file a pool of threads= threads. The worker hands an I/O to an idle thread with one atomic
 * exchange (a futex wake only if that thread sleeps); finished threads push themselves on a
 * lock-free stack the worker takes whole; reap sleeps on a futex. */
#include "backend.h"
#include "clock.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ioramp/compiler.h"

#define SYNC_STACK_BYTES (256u * 1024) /* pread needs little; sanitizers need more than 64k */

enum sync_state {
	SYNC_IDLE,     /* no I/O, awake */
	SYNC_SLEEPING, /* no I/O, asleep on the futex: a hand-off must wake it */
	SYNC_WORK,     /* io is set: run it */
	SYNC_STOP,     /* leave after the current I/O */
};

struct sync_backend;

/* One pool thread. state is the hand-off word; the rest is written before it changes. */
struct sync_thread {
	alignas(IORAMP_CACHELINE) _Atomic uint32_t state; /* enum sync_state; the futex word */
	struct eng_io *io;				  /* set by the worker before SYNC_WORK */
	struct sync_thread *next_done; /* link on the done stack, set by this thread */
	struct sync_thread *next_idle; /* link on its file's idle stack, worker only */
	struct sync_backend *sb;
	int fd;
	pthread_mutex_t *write_gate; /* eng_backend_file.write_gate */
	uint32_t file_idx;
	pthread_t tid;
};

struct sync_backend {
	struct eng_backend base;
	/* inline: the files, the I/O done and not reaped yet, the worker's clock */
	bool is_inline;
	int *fds;
	pthread_mutex_t **write_gates; /* inline: each file's eng_backend_file.write_gate */
	struct eng_io *done_io;
	struct eng_sleeper *sleeper;
	struct sync_thread *threads;
	struct sync_thread **idle; /* per file: stack of idle threads; worker only */
	struct sync_thread *taken; /* taken from done, not yet handed back; worker only */
	uint32_t nr_threads;
	uint32_t nr_started;
	uint32_t depth;
	uint32_t nr_inflight;
	/* Finished threads, newest first: pushed by pool threads, taken whole by the worker. */
	alignas(IORAMP_CACHELINE) _Atomic(struct sync_thread *) done;
	/* 1 while the worker sleeps in reap (futex word): a pushing thread then wakes it. */
	alignas(IORAMP_CACHELINE) _Atomic uint32_t is_waiting;
};

static struct sync_backend *to_sync(struct eng_backend *be)
{
	return (struct sync_backend *)be;
}

/* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline: no clock read needed. */
static void futex_wait(_Atomic uint32_t *word, uint32_t val, const struct timespec *abs)
{
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, val, abs, NULL,
		FUTEX_BITSET_MATCH_ANY);
}

static void futex_wake(_Atomic uint32_t *word)
{
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
}

/* A buffered write takes the file's gate first, when it has one (eng_pick_write_gated: when
 * there are as many such files as CPUs): Linux writes a file's buffered data one write at a
 * time under the inode's rwsem (ext4, xfs, block devices), and threads that wait for it there
 * spin on its owner before they sleep. Waiting in user space instead leaves the CPU to a
 * thread with other work (4K random writes, 8 page-cache files, threads=8 each: 2.2 against
 * 2.9-3.1 us of CPU per write, bench/speed.md 2026-12-06). */
static int32_t sync_do(int fd, pthread_mutex_t *gate, const struct eng_io *io)
{
	ssize_t n;

	if (gate && io->op == ENG_OP_WRITE) {
		int32_t ret;

		pthread_mutex_lock(gate);
		ret = sync_do(fd, NULL, io);
		pthread_mutex_unlock(gate);
		return ret;
	}
	do {
		if (io->op == ENG_OP_READ)
			n = pread(fd, io->buf, io->size_bytes, (off_t)io->offset_bytes);
		else if (io->op == ENG_OP_WRITE)
			n = pwrite(fd, io->buf, io->size_bytes, (off_t)io->offset_bytes);
		else
			n = fsync(fd);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : (int32_t)n;
}

/* Pushes t on the done stack and wakes the worker if it sleeps. The seq_cst pair (push, then
 * read is_waiting) against reap's (set is_waiting, then read done) means that either reap sees
 * t or this thread sees the worker waiting: no completion is slept through. */
static void sync_push_done(struct sync_backend *sb, struct sync_thread *t)
{
	struct sync_thread *head = atomic_load_explicit(&sb->done, memory_order_relaxed);

	do
		t->next_done = head;
	while (!atomic_compare_exchange_weak_explicit(&sb->done, &head, t, memory_order_seq_cst,
						      memory_order_relaxed));
	if (atomic_load_explicit(&sb->is_waiting, memory_order_seq_cst) &&
	    atomic_exchange_explicit(&sb->is_waiting, 0, memory_order_seq_cst))
		futex_wake(&sb->is_waiting);
}

static void *sync_thread_main(void *arg)
{
	struct sync_thread *t = arg;

	for (;;) {
		uint32_t s = atomic_load_explicit(&t->state, memory_order_acquire);

		if (s == SYNC_WORK) {
			uint32_t work = SYNC_WORK;

			t->io->result = sync_do(t->fd, t->write_gate, t->io);
			/* Fails only on SYNC_STOP, which must stay. */
			atomic_compare_exchange_strong_explicit(&t->state, &work, SYNC_IDLE,
								memory_order_relaxed,
								memory_order_relaxed);
			sync_push_done(t->sb, t);
		} else if (s == SYNC_STOP) {
			break;
		} else if (s == SYNC_IDLE) {
			/* On failure the worker changed state first: read it again. */
			atomic_compare_exchange_strong_explicit(&t->state, &s, SYNC_SLEEPING,
								memory_order_acquire,
								memory_order_acquire);
		} else {
			futex_wait(&t->state, SYNC_SLEEPING, NULL);
		}
	}
	return NULL;
}

/* Stops and joins the started threads; a thread finishes its current I/O first. */
static void sync_stop(struct sync_backend *sb)
{
	for (uint32_t i = 0; i < sb->nr_started; i++) {
		struct sync_thread *t = &sb->threads[i];

		if (atomic_exchange_explicit(&t->state, SYNC_STOP, memory_order_acq_rel) ==
		    SYNC_SLEEPING)
			futex_wake(&t->state);
	}
	for (uint32_t i = 0; i < sb->nr_started; i++)
		pthread_join(sb->threads[i].tid, NULL);
	sb->nr_started = 0;
}

/* Pool threads block every signal: signals belong to the controller thread. */
static int sync_start(struct sync_backend *sb)
{
	sigset_t all, old;
	pthread_attr_t attr;
	int ret;

	ret = pthread_attr_init(&attr);
	if (ret)
		return -ret; /* pthreads return the error; errno is untouched */
	ret = pthread_attr_setstacksize(&attr, SYNC_STACK_BYTES);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	while (ret == 0 && sb->nr_started < sb->nr_threads) {
		struct sync_thread *t = &sb->threads[sb->nr_started];

		ret = pthread_create(&t->tid, &attr, sync_thread_main, t);
		if (ret == 0) {
			pthread_setname_np(t->tid, "ioramp-sync");
			sb->nr_started++;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (ret) {
		sync_stop(sb);
		return -ret;
	}
	return 0;
}

static void sync_free(struct sync_backend *sb)
{
	free(sb->threads);
	free(sb->idle);
	free(sb->fds);
	free(sb->write_gates);
	free(sb);
}

static int sync_alloc(struct sync_backend **out, const struct eng_backend_cfg *cfg)
{
	struct sync_backend *sb;
	uint64_t nr = 0;
	size_t bytes;

	for (uint32_t i = 0; i < cfg->nr_files; i++) {
		if (cfg->files[i].threads == 0)
			return -EINVAL;
		nr += cfg->files[i].threads;
	}
	if (cfg->depth == 0 || nr == 0 || nr > UINT32_MAX)
		return -EINVAL;
	bytes = (sizeof(*sb) + IORAMP_CACHELINE - 1) / IORAMP_CACHELINE * IORAMP_CACHELINE;
	sb = aligned_alloc(IORAMP_CACHELINE, bytes);
	if (!sb)
		return -ENOMEM;
	memset(sb, 0, bytes);
	sb->threads = aligned_alloc(IORAMP_CACHELINE, (size_t)nr * sizeof(*sb->threads));
	sb->idle = calloc(cfg->nr_files, sizeof(*sb->idle));
	if (!sb->threads || !sb->idle) {
		sync_free(sb);
		return -ENOMEM;
	}
	memset(sb->threads, 0, (size_t)nr * sizeof(*sb->threads));
	sb->nr_threads = (uint32_t)nr;
	*out = sb;
	return 0;
}

static int sync_open(const struct eng_backend_cfg *cfg, struct eng_backend **out)
{
	struct sync_backend *sb;
	uint32_t k = 0;
	int ret;

	ret = sync_alloc(&sb, cfg);
	if (ret < 0)
		return ret;
	sb->depth = cfg->depth;
	sb->base.ops = &eng_backend_sync;
	if (cfg->depth == 1) {
		sb->fds = calloc(cfg->nr_files, sizeof(*sb->fds));
		sb->write_gates = calloc(cfg->nr_files, sizeof(*sb->write_gates));
		if (!sb->fds || !sb->write_gates) {
			sync_free(sb);
			return -ENOMEM;
		}
		for (uint32_t f = 0; f < cfg->nr_files; f++) {
			sb->fds[f] = cfg->files[f].fd;
			sb->write_gates[f] = cfg->files[f].write_gate;
		}
		sb->is_inline = true;
		sb->sleeper = cfg->sleeper;
		snprintf(sb->base.desc, sizeof(sb->base.desc), "sync: inline");
		*out = &sb->base;
		return 0;
	}
	for (uint32_t f = 0; f < cfg->nr_files; f++) {
		for (uint32_t j = 0; j < cfg->files[f].threads; j++, k++) {
			struct sync_thread *t = &sb->threads[k];

			atomic_init(&t->state, SYNC_IDLE);
			t->sb = sb;
			t->fd = cfg->files[f].fd;
			t->write_gate = cfg->files[f].write_gate;
			t->file_idx = f;
			t->next_idle = sb->idle[f];
			sb->idle[f] = t;
		}
	}
	ret = sync_start(sb);
	if (ret < 0) {
		sync_free(sb);
		return ret;
	}
	snprintf(sb->base.desc, sizeof(sb->base.desc), "sync: %u threads", sb->nr_threads);
	*out = &sb->base;
	return 0;
}

/* Inline: the I/O now, on this thread; one at a time. */
static int inline_submit(struct sync_backend *sb, struct eng_io *const *ios, uint32_t nr)
{
	if (!nr || sb->done_io)
		return 0;
	ios[0]->result =
		sync_do(sb->fds[ios[0]->file_idx], sb->write_gates[ios[0]->file_idx], ios[0]);
	sb->done_io = ios[0];
	return 1;
}

/* Inline: what submit did, or (nothing done) the worker's idle wait through the run's clock. */
static int inline_reap(struct sync_backend *sb, struct eng_io **done, uint32_t max,
		       uint64_t deadline_ns)
{
	if (sb->done_io && max) {
		done[0] = sb->done_io;
		sb->done_io = NULL;
		return 1;
	}
	if (!sb->done_io && deadline_ns != 0 && deadline_ns != UINT64_MAX)
		eng_sleeper_until(sb->sleeper, deadline_ns); /* an early wake is fine */
	return 0;
}

static int sync_submit(struct eng_backend *be, struct eng_io *const *ios, uint32_t nr)
{
	struct sync_backend *sb = to_sync(be);
	uint32_t i;

	if (sb->is_inline)
		return inline_submit(sb, ios, nr);
	for (i = 0; i < nr && sb->nr_inflight < sb->depth; i++) {
		struct eng_io *io = ios[i];
		struct sync_thread *t = sb->idle[io->file_idx];

		if (!t)
			break; /* all of this file's threads are busy */
		sb->idle[io->file_idx] = t->next_idle;
		t->io = io;
		/* release: the thread's acquire of SYNC_WORK sees io */
		if (atomic_exchange_explicit(&t->state, SYNC_WORK, memory_order_release) ==
		    SYNC_SLEEPING)
			futex_wake(&t->state);
		sb->nr_inflight++;
	}
	return (int)i;
}

/* Takes the whole done stack, oldest first. */
static struct sync_thread *sync_take_all(struct sync_backend *sb)
{
	struct sync_thread *t = atomic_exchange_explicit(&sb->done, NULL, memory_order_acquire);
	struct sync_thread *fifo = NULL;

	while (t) {
		struct sync_thread *next = t->next_done;

		t->next_done = fifo;
		fifo = t;
		t = next;
	}
	return fifo;
}

static uint32_t sync_take(struct sync_backend *sb, struct eng_io **done, uint32_t max)
{
	uint32_t n = 0;

	while (n < max) {
		struct sync_thread *t = sb->taken;

		if (!t) {
			t = sync_take_all(sb);
			if (!t)
				break;
		}
		sb->taken = t->next_done;
		done[n++] = t->io;
		t->next_idle = sb->idle[t->file_idx];
		sb->idle[t->file_idx] = t;
	}
	sb->nr_inflight -= n;
	return n;
}

static int sync_reap(struct eng_backend *be, struct eng_io **done, uint32_t max,
		     uint64_t deadline_ns)
{
	struct sync_backend *sb = to_sync(be);
	struct timespec ts, *tsp = NULL;
	uint32_t n;

	if (sb->is_inline)
		return inline_reap(sb, done, max, deadline_ns);
	n = sync_take(sb, done, max);
	if (n || max == 0 || deadline_ns == 0)
		return (int)n;
	if (deadline_ns == UINT64_MAX && sb->nr_inflight == 0)
		return 0;
	if (deadline_ns != UINT64_MAX) {
		ts.tv_sec = (time_t)(deadline_ns / 1000000000u);
		ts.tv_nsec = (long)(deadline_ns % 1000000000u);
		tsp = &ts;
	}
	/* Pairs with sync_push_done(): see there. */
	atomic_store_explicit(&sb->is_waiting, 1, memory_order_seq_cst);
	if (!atomic_load_explicit(&sb->done, memory_order_seq_cst))
		futex_wait(&sb->is_waiting, 1, tsp);
	atomic_store_explicit(&sb->is_waiting, 0, memory_order_relaxed);
	return (int)sync_take(sb, done, max);
}

static void sync_close(struct eng_backend *be)
{
	struct sync_backend *sb = to_sync(be);

	if (!sb)
		return;
	sync_stop(sb);
	sync_free(sb);
}

const struct eng_backend_ops eng_backend_sync = {
	.name = "sync",
	.open = sync_open,
	.submit = sync_submit,
	.reap = sync_reap,
	.close = sync_close,
};
