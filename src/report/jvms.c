/* VDbench's slave JVMs on one host (plan.h plan_jvm_of_thread): the threads each runs, and the
 * lines VDbench writes as it starts them. */
#include "ioramp/report.h"

#include <limits.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "vdbtext.h"

uint32_t rep_jvm_threads(const struct rep_exec *x, const struct rep_run *r, uint32_t jvm, size_t s)
{
	uint32_t n = 0;

	for (size_t i = 0; i < r->nr_sds; i++) {
		if (s < r->nr_sds && i != s)
			continue;
		if (!r->jvm_threads || rep_nr_jvms(x) == 1)
			n += jvm ? 0 : (r->sd_threads ? r->sd_threads[i] : 0);
		else
			n += r->jvm_threads[i * x->nr_jvms + jvm];
	}
	return n;
}

/* VDbench names each slave's JVM "localhost-1k-yyMMdd-HH.mm.ss.SSS" after the master's start and
 * gives the path of its launcher: ioramp's own executable here, which does the slaves' work. */
void rep_jvm_start_text(char *buf, size_t len, const char *host, uint32_t k, uint64_t tod_ns)
{
	char exe[PATH_MAX], stamp[32];
	time_t sec = (time_t)(tod_ns / 1000000000u);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct tm tm;

	exe[n > 0 ? n : 0] = '\0';
	localtime_r(&sec, &tm);
	if (!strftime(stamp, sizeof(stamp), "%y%m%d-%H.%M.%S", &tm))
		stamp[0] = '\0';
	snprintf(buf, len,
		 "Starting slave: %s SlaveJvm -m localhost -n %s-%u-%s.%03u -l %s-%u -p 5570   ",
		 n > 0 ? exe : "ioramp", host, 10 + k, stamp,
		 (unsigned int)(tod_ns / 1000000u % 1000u), host, k);
}

void rep_jvm_connect_text(char *buf, size_t len, const char *host, uint32_t k)
{
	snprintf(buf, len, "Slave %s-%u (pid %6d) connected to master %d", host, k, (int)getpid(),
		 (int)getpid());
}
