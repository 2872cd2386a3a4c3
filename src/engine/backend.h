/* The engine's I/O backends behind one small vtable (uring, aio, sync, null), the I/O slot they
 * complete, and the uring -> aio -> sync fallback chain. Module-internal: only src/engine/
 * includes it. Backends never print; they return -errno and fill note or message buffers. */
#ifndef IORAMP_ENGINE_BACKEND_H
#define IORAMP_ENGINE_BACKEND_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct timespec;
struct eng_backend_ops;

enum eng_op {
	ENG_OP_READ,
	ENG_OP_WRITE,
	ENG_OP_FSYNC, /* flush the whole file; offset_bytes, size_bytes and buf are ignored */
	ENG_OP_NR,
};

/*
 * One in-flight I/O. The worker preallocates its slots and fills op, file_idx, offset_bytes,
 * size_bytes, buf and user; the backend owns the slot from a successful submit until reap hands
 * it back with result set, and writes nothing else in it.
 */
struct eng_io {
	void *buf;	       /* inside cfg->buf_region to use registered buffers */
	uint64_t offset_bytes; /* below 2^63: io_uring reads (off_t)-1 as "the file position" */
	uint32_t size_bytes;   /* below 2 GiB, so that result can hold it */
	uint32_t file_idx;     /* index into cfg->files (also the registered file index) */
	enum eng_op op;
	int32_t result; /* after reap: bytes transferred (short at EOF; 0 for fsync) or -errno */
	void *user;	/* the worker's: the backend never reads it */
};

/* One file or device a worker drives: an SD's target, already open (see target.h). */
struct eng_backend_file {
	int fd;		  /* -1 for a modelled drive */
	uint32_t threads; /* the SD's threads=: the sync backend's pool size for this file */
	bool is_direct;	  /* opened with O_DIRECT */
	uint64_t stream;  /* the model's random stream for this drive (with cfg->seed) */
	/* sync: held around each write to this file, shared by every thread that writes it;
	 * NULL: none (run_exec.c says when) */
	pthread_mutex_t *write_gate;
};

struct eng_backend_cfg {
	uint32_t depth; /* most I/Os in flight: the sum of the worker's SDs' threads= */
	const struct eng_backend_file *files;
	uint32_t nr_files;
	/*
	 * The worker's buffers: one aligned allocation of buf_region_bytes, carved into slots of
	 * buf_slot_bytes (the largest transfer). uring registers it for READ_FIXED/WRITE_FIXED.
	 * NULL is allowed: every backend then does plain reads and writes on eng_io.buf.
	 */
	void *buf_region;
	size_t buf_region_bytes;
	size_t buf_slot_bytes;
	/* The worker's part in the run's clock: the null, fault and model backends read and wait
	 * for time through it (clock.h). NULL: the real clock. */
	struct eng_sleeper *sleeper;
	uint64_t seed; /* the run's: the model's service times derive from it */
	/* Test hook: uring's open fails with -ENOSYS as if the kernel lacked io_uring. */
	bool is_uring_refused;
};

/*
 * An open backend. Each backend embeds this as its first member; desc names the backend and
 * the features it obtained (for example "uring: defer_taskrun registered_files fixed_buffers").
 */
struct eng_backend {
	const struct eng_backend_ops *ops;
	char desc[128];
};

/*
 * The vtable. Threads: open may run on any thread; submit and reap then run on one thread
 * only (the worker's), and close runs on that thread too, or after it has exited. Nothing on
 * the submit and reap paths allocates, locks or prints.
 */
struct eng_backend_ops {
	const char *name;
	/*
	 * Opens a backend for cfg (which need not outlive the call; the fds must stay open until
	 * close). Returns 0 and sets *out, or -errno: uring returns the kernel's refusal (-ENOSYS,
	 * -EPERM, ...) so the caller can fall back.
	 */
	int (*open)(const struct eng_backend_cfg *cfg, struct eng_backend **out);
	/*
	 * Starts ios[0..nr-1] (one system call per batch where the backend allows). Returns how
	 * many leading ios were accepted: nr, or fewer when cfg->depth I/Os would be in flight or
	 * (sync) a file has no idle thread; the caller keeps the rest for a later call. An I/O
	 * that fails still completes through reap with result -errno. A negative return is a
	 * broken backend, not a failed I/O.
	 */
	int (*submit)(struct eng_backend *be, struct eng_io *const *ios, uint32_t nr);
	/*
	 * Hands back up to max completed I/Os in done[] and returns their count, or -errno for a
	 * broken backend. deadline_ns is absolute eng_clock_now() time: 0 (or a time already
	 * passed) never blocks; otherwise reap blocks until at least one I/O completes or the
	 * deadline passes, even with nothing in flight (the worker's idle sleep). UINT64_MAX
	 * waits without a time limit, but returns 0 at once when nothing is in flight.
	 */
	int (*reap)(struct eng_backend *be, struct eng_io **done, uint32_t max,
		    uint64_t deadline_ns);
	/*
	 * Optional: runs on the worker's thread after its last reap, to release what only that
	 * thread may (a SINGLE_ISSUER ring's registered files: left to the ring's teardown, which
	 * the kernel runs later, a device opened O_EXCL stays claimed after the process exits).
	 */
	void (*finish)(struct eng_backend *be);
	/* Waits for I/Os still in flight (without handing them back), then frees. NULL is fine. */
	void (*close)(struct eng_backend *be);
};

extern const struct eng_backend_ops eng_backend_uring;
extern const struct eng_backend_ops eng_backend_aio;
extern const struct eng_backend_ops eng_backend_sync;
extern const struct eng_backend_ops eng_backend_null;
/* Wraps another backend and injects faults (backend_fault.c); opened by name through
 * eng_backend_open_named(), since its options do not fit the plain open. */
extern const struct eng_backend_ops eng_backend_fault;
/* Modelled drives in virtual time (model.h); opened by name, like the fault wrapper. */
extern const struct eng_backend_ops eng_backend_model;

/* The backend called name ("uring", "aio", "sync", "null"), or NULL when there is none. */
const struct eng_backend_ops *eng_backend_find(const char *name);

/* Whether engine names the sync backend itself ("sync"; not a fault wrapper around it). */
bool eng_backend_is_sync(const char *engine);

/* What the default engine knows of an SD when it picks the SD's backend. */
struct eng_sd_traits {
	bool is_block;		 /* a block device */
	bool is_direct;		 /* opened with O_DIRECT */
	bool is_writing;	 /* some workload of the run writes to it */
	uint64_t max_xfer_bytes; /* the largest transfer of the run's workloads on it */
};

/* Buffered reads from this size up go to the sync engine by default (bench/engines). */
#define ENG_DEFAULT_SYNC_READ_BYTES (64u << 10)

/*
 * The backend the default engine (no --engine, no engine=) gives an SD: the fastest for its
 * kind as bench/engines measured it (man ioramp, ENGINE). "uring" for O_DIRECT and block
 * devices; for buffered files and character devices, the winner of the page-cache benchmark
 * for the run's op mix: "sync" when written (io_uring punts buffered writes) or read in
 * transfers of ENG_DEFAULT_SYNC_READ_BYTES or more, else "uring". Never NULL.
 */
const char *eng_backend_default(const struct eng_sd_traits *t);

/* The kind the rule saw, for the engine line ("O_DIRECT", "buffered, reads of 64 KiB or
 * more"). */
const char *eng_backend_default_kind(const struct eng_sd_traits *t);

/* Whether engine names the fault wrapper ("fault:INNER[,OPTION=VALUE...]"). */
bool eng_backend_is_fault(const char *engine);

/* Checks a fault wrapper's name and options. Returns 0, or -EINVAL with msg saying what is
 * wrong ("engine fault:uring,eio=2: invalid eio=2"). */
int eng_backend_fault_check(const char *engine, char *msg, size_t msglen);

/*
 * Opens the fault wrapper engine names over the backend it names, for cfg. Options: eio=P and
 * short=P (chance per I/O), enospc_after=BYTES (writes past it fail with ENOSPC),
 * vanish_after=N or T (every I/O after N I/Os, or T seconds with s/ms/us, fails with ENXIO),
 * delay=T (completions are held T), seed=N. Returns 0, or -errno with msg filled.
 */
int eng_backend_fault_open(const char *engine, const struct eng_backend_cfg *cfg,
			   struct eng_backend **out, char *msg, size_t msglen);

/* Whether engine is a name the engine can open: NULL (the default), uring, aio, sync, null,
 * a valid fault wrapper or model. Returns 0, or -EINVAL with msg saying what was expected. */
int eng_backend_check_name(const char *engine, char *msg, size_t msglen);

/*
 * Opens the backend engine names for cfg: NULL or "uring" with the fallback chain (msg then
 * holds the fallback note, "" when uring opened), a fault wrapper, a model, or the named
 * backend.
 * Returns 0, or -errno with msg saying why.
 */
int eng_backend_open_named(const char *engine, const struct eng_backend_cfg *cfg,
			   struct eng_backend **out, char *msg, size_t msglen);

/*
 * Opens the first backend of uring -> aio -> sync that works for cfg. aio is skipped unless
 * every file is O_DIRECT (buffered libaio runs synchronously inside io_submit). Returns 0 and
 * sets *out; note is then "" when uring opened, else one line saying why it did not and what
 * was chosen, for the caller to print after "ioramp: note: ". Returns -errno when even sync
 * fails, with note saying why each was refused.
 */
int eng_backend_open_fallback(const struct eng_backend_cfg *cfg, struct eng_backend **out,
			      char *note, size_t notelen);

static inline int eng_backend_submit(struct eng_backend *be, struct eng_io *const *ios, uint32_t nr)
{
	return be->ops->submit(be, ios, nr);
}

static inline int eng_backend_reap(struct eng_backend *be, struct eng_io **done, uint32_t max,
				   uint64_t deadline_ns)
{
	return be->ops->reap(be, done, max, deadline_ns);
}

/* Runs be's finish, where it has one, on the thread that submitted its I/O. */
static inline void eng_backend_finish(struct eng_backend *be)
{
	if (be && be->ops->finish)
		be->ops->finish(be);
}

/* Closes be if it is not NULL. */
static inline void eng_backend_close(struct eng_backend *be)
{
	if (be)
		be->ops->close(be);
}

#endif /* IORAMP_ENGINE_BACKEND_H */
