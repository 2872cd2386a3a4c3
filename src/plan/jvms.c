/* VDbench 5.04.07's slave JVMs on one host (observed, plan.h plan_jvm_of_thread): which of a
 * run's I/O threads each slave runs. */
#include "plan_int.h"

uint32_t plan_jvm_threads(uint64_t first, uint32_t threads, uint32_t nr_jvms, uint32_t jvm)
{
	uint32_t n, start;

	if (nr_jvms <= 1)
		return jvm ? 0 : threads;
	n = threads / nr_jvms;
	/* the threads - n * nr_jvms left over go to the slaves from first's on */
	start = (uint32_t)(first % nr_jvms);
	return n + ((jvm + nr_jvms - start) % nr_jvms < threads % nr_jvms);
}
