/* The floor under a paced run's CPU on this machine: a bare loop that waits to absolute
 * deadlines RATE times a second (per thread) and, with -f, does one 4 KiB pread per deadline
 * (or BATCH of them per wake-up with -b; with -w PCT, PCT% of them pwrite), and prints its own
 * CPU (user+sys, % of one core), its CPU per I/O and its voluntary context switches. RATE 0
 * never waits: the I/O as fast as it goes, for the CPU per I/O at max. With -p each thread
 * keeps to its own share of the files, as each of ioramp's workers keeps to its SDs (threads
 * that share a file contend for its inode lock: 3.3 against 2.75 us per I/O here). No I/O
 * engine, no statistics: what ioramp cannot go under.
 *
 *   wakefloor MODE RATE THREADS SECONDS [-b BATCH] [-w PCT] [-p] [-f FILE...]
 *   MODE: nanosleep (clock_nanosleep TIMER_ABSTIME), timerfd (read of an absolute timerfd),
 *         epoll (epoll_pwait2 with the remaining time), uring (IORING_OP_TIMEOUT, absolute)
 *
 * Build: cc -O2 -o wakefloor bench/wakefloor.c -luring -lpthread */
#define _GNU_SOURCE
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

enum mode {
	NANOSLEEP,
	TIMERFD,
	EPOLL,
	URING
};

static enum mode mode;
static double rate, secs;
static _Atomic uint64_t nr_ios;
static int batch = 1, nr_files, nr_threads, write_pct;
static bool is_partitioned;
static int *fds;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct timespec ts_of(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u),
				  .tv_nsec = (long)(ns % 1000000000u) };
}

/* A file at random: of all of them, or with -p of thread t's (files t, t + THREADS, ...). */
static int pick_fd(uint64_t seed, int t)
{
	int share = (nr_files - t + nr_threads - 1) / nr_threads;

	if (!is_partitioned || share < 1)
		return fds[(seed >> 33) % (uint64_t)nr_files];
	return fds[t + (int)((seed >> 33) % (uint64_t)share) * nr_threads];
}

static void *run(void *arg)
{
	uint64_t seed = (uintptr_t)arg * 0x9e3779b97f4a7c15ull + 1;
	uint64_t gap = rate > 0 ? (uint64_t)(1e9 * batch / rate) : 0, start = now_ns(), end, dl;
	uint64_t done = 0;
	/* the threads' deadlines interleave (as ioramp's per-thread schedules), not coincide */
	uint64_t phase = gap * (uintptr_t)arg / (uint64_t)nr_threads;
	static _Thread_local char buf[4096] __attribute__((aligned(4096)));
	struct io_uring ring;
	int tfd = -1, ep = -1;

	if (mode == URING && io_uring_queue_init(4, &ring, 0) < 0)
		exit(1);
	if (mode == TIMERFD || mode == EPOLL)
		tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	if (mode == EPOLL)
		ep = epoll_create1(0);
	end = start + (uint64_t)(secs * 1e9);
	for (dl = start + gap + phase; gap ? dl < end : now_ns() < end; dl += gap) {
		uint64_t n = gap ? now_ns() : UINT64_MAX;

		if (dl > n) {
			struct timespec ts = ts_of(dl);
			struct itimerspec its = { .it_value = ts };
			struct __kernel_timespec kts = { .tv_sec = ts.tv_sec,
							 .tv_nsec = ts.tv_nsec };
			struct io_uring_sqe *sqe;
			struct io_uring_cqe *cqe;
			struct epoll_event ev;
			uint64_t x;

			switch (mode) {
			case NANOSLEEP:
				clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
				break;
			case TIMERFD:
				timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
				if (read(tfd, &x, sizeof(x)) < 0)
					exit(1);
				break;
			case EPOLL:
				ts = ts_of(dl - n);
				epoll_pwait2(ep, &ev, 1, &ts, NULL);
				break;
			case URING:
				sqe = io_uring_get_sqe(&ring);
				io_uring_prep_timeout(sqe, &kts, 0, IORING_TIMEOUT_ABS);
				io_uring_submit_and_wait(&ring, 1);
				if (io_uring_peek_cqe(&ring, &cqe) == 0)
					io_uring_cqe_seen(&ring, cqe);
				break;
			}
		}
		for (int i = 0; i < batch && nr_files; i++) {
			int fd;
			off_t at;

			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			fd = pick_fd(seed, (int)(uintptr_t)arg);
			at = (off_t)((seed >> 40) % 16384) * 4096;
			if ((int)((seed >> 20) % 100) < write_pct ? pwrite(fd, buf, 4096, at) < 0
								  : pread(fd, buf, 4096, at) < 0)
				exit(1);
			done++;
		}
	}
	nr_ios += done;
	return NULL;
}

int main(int argc, char **argv)
{
	static const char *names[] = { "nanosleep", "timerfd", "epoll", "uring" };
	struct rusage ru;
	double cpu_s;
	pthread_t *t;
	int threads;

	if (argc < 5) {
		fprintf(stderr,
			"usage: wakefloor MODE RATE THREADS SECONDS [-b BATCH] [-w PCT] [-p] "
			"[-f FILE...]\n");
		return 2;
	}
	for (mode = NANOSLEEP; mode <= URING && strcmp(argv[1], names[mode]); mode++)
		;
	if (mode > URING)
		return 2;
	rate = atof(argv[2]);
	threads = nr_threads = atoi(argv[3]);
	secs = atof(argv[4]);
	for (int i = 5; i < argc; i++) {
		if (!strcmp(argv[i], "-b") && i + 1 < argc) {
			batch = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-p")) {
			is_partitioned = true;
		} else if (!strcmp(argv[i], "-w") && i + 1 < argc) {
			write_pct = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-f")) {
			fds = calloc((size_t)argc, sizeof(*fds));
			for (i++; i < argc; i++)
				fds[nr_files++] = open(argv[i], write_pct ? O_RDWR : O_RDONLY);
		}
	}
	t = calloc((size_t)threads, sizeof(*t));
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, run, (void *)(uintptr_t)i);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	getrusage(RUSAGE_SELF, &ru);
	cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		(double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	printf("%-9s rate %g x %d threads, batch %d, %s, %d%% writes: CPU %.2f%% of a core (user "
	       "%.2f sys %.2f), %.0f ns per I/O, %.0f IOPS, %.0f wake-ups/s, "
	       "%ld voluntary switches\n",
	       names[mode], rate, threads, batch, nr_files ? "4K I/O per arrival" : "no I/O",
	       write_pct, 100.0 * cpu_s / secs,
	       100.0 * ((double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6) / secs,
	       100.0 * ((double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6) / secs,
	       nr_ios ? 1e9 * cpu_s / (double)nr_ios : 0, (double)nr_ios / secs,
	       rate * threads / batch, ru.ru_nvcsw);
	return 0;
}
