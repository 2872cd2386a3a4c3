/* The informational lines VDbench 5.04.07 prints after scanning its arguments and before it lists
 * (-s) or runs anything (tests/parm/FINDINGS.md, lines before the first Simulating line;
 * observed): the compression= box and the host= deprecation (parse_notices); one "'interval='
 * not specified" line per RD with interval=0 [183]; "Setting some threadcounts to a minimum
 * of 1 " twice for each run whose forthreads= value is from 0 to
 * below 1 [073, 229]; and, between blank lines, each time VDbench raises its JVM count when no
 * hd= sets jvms= and there are two SDs or more: at each run that asks for more than
 * ios_per_jvm= (100000) I/Os per second, max or a curve, ceil(rate / ios_per_jvm) JVMs, at most 8
 * and the SD count [240; observed]. ioramp runs one process whatever the count: the line says
 * what VDbench would do. */
#include "plan_int.h"

#include <math.h>
#include <stdio.h>

struct out {
	void (*emit)(void *ctx, const char *text);
	void *ctx;
};

#define VDB_MAX_JVMS   8
#define VDB_JVM_IORATE 100000.0
#define VDB_CURVE_RATE 9999977 /* how VDbench names a curve's rate */
#define VDB_MAX_RATE   9999988 /* and max's */

static void line(const struct out *o, const char *text)
{
	o->emit(o->ctx, text);
}

static void interval_notices(const struct plan *p, const struct out *f)
{
	const struct parm_config *cfg = p->cfg;
	char text[160];

	for (size_t i = 0; i < cfg->nr_rds; i++) {
		const struct parm_rd *rd = &cfg->rds[i];

		if (!parm_kwset_has(&rd->set, PARM_KW_INTERVAL) || rd->interval_s ||
		    cfg->overrides.has_interval)
			continue;
		for (size_t r = 0; r < p->nr_runs; r++)
			if (p->runs[r].rd_idx == i) {
				snprintf(text, sizeof(text),
					 "'interval=' not specified. Setting to %llu seconds. ( "
					 "'min(elapsed/2,60)' )",
					 (unsigned long long)p->runs[r].interval_s);
				line(f, text);
				break;
			}
	}
}

static void thread_notices(const struct plan *p, const struct out *f)
{
	for (size_t r = 0; r < p->nr_runs; r++)
		if (p->runs[r].ovr.is_threads_raised)
			line(f, "Setting some threadcounts to a minimum of 1 ");
}

/* The I/Os per second VDbench counts for run r when it sizes its JVMs: max and a curve's max
 * run as its internal constants; 0: none. */
static double jvm_iops(const struct plan_run *r)
{
	switch (r->rate) {
	case PLAN_RATE_MAX:
		return VDB_MAX_RATE;
	case PLAN_RATE_CURVE_MAX:
		return VDB_CURVE_RATE;
	case PLAN_RATE_FIXED:
		return r->rate_iops;
	default:
		return 0;
	}
}

/* VDbench's JVM count for iops (observed: ceil(iops / ios_per_jvm) above ios_per_jvm=, 100000
 * unless given, at most 8 and the SD count). */
static uint32_t jvm_count(const struct parm_config *cfg, double iops)
{
	double per = cfg->general.ios_per_jvm > 0 ? cfg->general.ios_per_jvm : VDB_JVM_IORATE;
	double n = ceil(iops / per);

	if (iops <= per)
		return 1;
	if (n > VDB_MAX_JVMS)
		n = VDB_MAX_JVMS;
	return n > (double)cfg->nr_sds ? (uint32_t)cfg->nr_sds : (uint32_t)n;
}

/* How VDbench names run r's rate in its line, with jvms JVMs before it (observed: a number one
 * less once an earlier run raised the count: "2000 4500" on ios_per_jvm=1000 names 2000, then
 * 4499; a curve 9999976). */
static void jvm_reason(const struct plan_run *r, uint32_t jvms, char *buf, size_t len)
{
	long long n = (long long)jvm_iops(r) - (jvms > 1);

	if (r->rate == PLAN_RATE_MAX)
		snprintf(buf, len, "max");
	else
		snprintf(buf, len, "%lld", n);
}

static bool may_adjust_jvms(const struct parm_config *cfg)
{
	if (cfg->nr_sds < 2 || cfg->nr_hds > 1 || cfg->has_default_jvms)
		return false;
	for (size_t i = 0; i < cfg->nr_hds; i++)
		if (parm_kwset_has(&cfg->hds[i].set, PARM_KW_JVMS))
			return false;
	return true;
}

/* The JVM count VDbench raises run by run (observed): a run asking for more than the count so
 * far raises it; fn (when not NULL) is called at each raise with the count before it. */
static uint32_t jvm_walk(const struct plan *p,
			 void (*fn)(const struct plan *p, size_t r, uint32_t from, uint32_t to,
				    const struct out *f),
			 const struct out *f)
{
	uint32_t jvms = 1;

	for (size_t r = 0; r < p->nr_runs; r++) {
		uint32_t n;

		if (p->runs[r].ovr.is_threads_raised && f)
			line(f, "Setting some threadcounts to a minimum of 1 ");
		if (!may_adjust_jvms(p->cfg) || p->cfg->rds[p->runs[r].rd_idx].trace)
			continue;
		n = jvm_count(p->cfg, jvm_iops(&p->runs[r]));
		if (n <= jvms)
			continue;
		if (fn)
			fn(p, r, jvms, n, f);
		jvms = n;
	}
	return jvms;
}

uint32_t plan_nr_jvms(const struct plan *p)
{
	const struct parm_config *cfg = p->cfg;

	if (cfg->fs || cfg->nr_hds > 1)
		return 1; /* file-system mode and many hosts split otherwise */
	if (cfg->nr_hds == 1 && parm_kwset_has(&cfg->hds[0].set, PARM_KW_JVMS))
		return cfg->hds[0].jvms;
	if (cfg->has_default_jvms)
		return cfg->default_jvms;
	return jvm_walk(p, NULL, NULL);
}

static void jvm_notice(const struct plan *p, size_t r, uint32_t from, uint32_t to,
		       const struct out *f)
{
	char text[256], reason[64];

	jvm_reason(&p->runs[r], from, reason, sizeof(reason));
	snprintf(text, sizeof(text),
		 "Adjusted default JVM count for host=localhost from jvms=%u to jvms=%u because of "
		 "iorate=%s and a total of %zu sds.",
		 from, to, reason, p->cfg->nr_sds);
	line(f, "");
	line(f, text);
	line(f, "");
}

/* Observed order: walking the runs, each raised thread count's line, and the JVM line at each
 * run that raises the count; then every raised thread count's line once more. */
static void run_notices(const struct plan *p, const struct out *f)
{
	jvm_walk(p, jvm_notice, f);
	thread_notices(p, f);
}

/* What VDbench says while it reads the parameters: general compression= in a box with the
 * ratio it becomes [065, 295], then host= used for hd= once however many HDs use it [063, 295]. */
static void parse_notices(const struct parm_config *cfg, const struct out *f)
{
	static const char stars[] = "**********************************************************"
				    "**********************";
	char text[160];

	if (cfg->general.compression_ratio > 0) {
		line(f, "*");
		line(f, stars);
		line(f, "* compression= parameter replaced by compratio=. This no longer is a "
			"percentage.");
		snprintf(text, sizeof(text),
			 "* compression= has been converted to 'compratio=%.2f'",
			 cfg->general.compression_ratio);
		line(f, text);
		line(f, stars);
		line(f, "*");
	}
	if (cfg->has_host_alias) {
		line(f, "");
		line(f, "Specifying 'host=(xxx.yyy.com,host_x) has been deprecated.");
		line(f, "Please specify 'hd=host_x,system=xxx.yyy.com' instead.");
		line(f, "Vdbench will honor this parameter until the next release.");
		line(f, "");
	}
}

void plan_notices(const struct plan *p, void (*emit)(void *ctx, const char *text), void *ctx)
{
	const struct out o = { emit, ctx };

	parse_notices(p->cfg, &o);
	interval_notices(p, &o);
	run_notices(p, &o);
}

static void print_line(void *ctx, const char *text)
{
	char tod[16];

	plan_time_of_day(tod);
	fprintf(ctx, "%s %s\n", tod, text);
}

void plan_print_notices(const struct plan *p, FILE *f)
{
	plan_notices(p, print_line, f);
}
