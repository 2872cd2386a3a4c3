/* Machine-wide CPU use from /proc/stat for VDbench's cpu% columns. The parser takes text, so
 * it is tested without /proc; reading the file is a separate, thin step. */
#include "ioramp/stats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

enum {
	CPU_NR_FIELDS = 8,     /* user nice system idle iowait irq softirq steal */
	CPU_MIN_FIELDS = 4,    /* user nice system idle: every kernel has them */
	CPU_READ_BYTES = 4096, /* the "cpu " line comes first and is ~100 bytes */
};

/* The fields after "cpu " on the first line that starts with it, or NULL. */
static const char *cpu_line(const char *text)
{
	const char *p = text;

	while (strncmp(p, "cpu ", 4) != 0) {
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
	return p + 4;
}

int stats_cpu_parse(const char *text, struct stats_cpu_sample *out)
{
	uint64_t v[CPU_NR_FIELDS] = { 0 };
	const char *p = cpu_line(text);
	int nr = 0;

	if (!p)
		return -EINVAL;
	while (nr < CPU_NR_FIELDS) {
		char *end;

		p += strspn(p, " \t");
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		v[nr++] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		p = end;
	}
	if (nr < CPU_MIN_FIELDS)
		return -EINVAL;
	*out = (struct stats_cpu_sample){ .user = v[0],
					  .nice = v[1],
					  .system = v[2],
					  .idle = v[3],
					  .iowait = v[4],
					  .irq = v[5],
					  .softirq = v[6],
					  .steal = v[7] };
	return 0;
}

int stats_cpu_read(const char *path, struct stats_cpu_sample *out)
{
	char buf[CPU_READ_BYTES];
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path ? path : "/proc/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < sizeof(buf) - 1 && !memchr(buf, '\n', len)) {
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno; /* close() may change errno */

			close(fd);
			return ret;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return stats_cpu_parse(buf, out);
}

static uint64_t tick_delta(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

int stats_cpu_diff(const struct stats_cpu_sample *a, const struct stats_cpu_sample *b,
		   struct stats_cpu_pct *out)
{
	uint64_t user = tick_delta(a->user, b->user) + tick_delta(a->nice, b->nice);
	uint64_t sys = tick_delta(a->system, b->system) + tick_delta(a->irq, b->irq) +
		       tick_delta(a->softirq, b->softirq);
	uint64_t wait = tick_delta(a->iowait, b->iowait);
	uint64_t idle = tick_delta(a->idle, b->idle);
	uint64_t total = user + sys + wait + idle + tick_delta(a->steal, b->steal);
	double pct;

	if (total == 0)
		return -EAGAIN;
	pct = 100.0 / (double)total;
	out->user_pct = (double)user * pct;
	out->sys_pct = (double)sys * pct;
	out->used_pct = (double)(user + sys) * pct;
	out->wait_pct = (double)wait * pct;
	out->idle_pct = (double)idle * pct;
	return 0;
}

static uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

uint64_t stats_cpu_self_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return timeval_ns(&ru.ru_utime) + timeval_ns(&ru.ru_stime);
}

uint64_t stats_cpu_thread_ns(pthread_t thread)
{
	struct timespec ts;
	clockid_t id;

	if (pthread_getcpuclockid(thread, &id) || clock_gettime(id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
