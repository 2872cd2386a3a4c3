/* VDbench's slave JVMs on one host (plan.h plan_jvm_of_thread): the threads each runs, and the
 * order a slave's stdout names its SDs in. */
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

/* Java's String.hashCode() of an ASCII name, spread as java.util.HashMap spreads it. */
static uint32_t java_hash(const char *name)
{
	uint32_t h = 0;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = 31 * h + *p;
	return h ^ (h >> 16);
}

void rep_java_map_order(const char *const *names, size_t *idx, size_t n)
{
	uint32_t cap = 16;

	while (n > cap * 3 / 4) /* HashMap doubles past a load factor of 0.75 */
		cap *= 2;
	/* insertion sort by bucket: a bucket keeps the insertion order (idx as given) */
	for (size_t i = 1; i < n; i++) {
		size_t v = idx[i], j = i;
		uint32_t b = java_hash(names[v]) & (cap - 1);

		for (; j > 0 && (java_hash(names[idx[j - 1]]) & (cap - 1)) > b; j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
}
