/* VDbench's slave JVMs on one host (plan.h plan_jvm_of_thread): the threads each runs. */
#include "ioramp/report.h"

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
