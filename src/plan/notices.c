/* The informational lines VDbench 5.04.07 prints after scanning its arguments and before it lists
 * (-s) or runs anything (tests/parm/FINDINGS.md, lines before the first Simulating line;
 * observed): the compression= box and the host= deprecation (parse_notices); one "'interval='
 * not specified" line per RD with interval=0 [183]; "Setting some threadcounts to a minimum
 * of 1 " twice for each run whose forthreads= value is from 0 to
 * below 1 [073, 229]; and, between blank lines, the JVM count VDbench raises from 1 to one per
 * SD (at most 8) when no hd= sets jvms=, there are two SDs or more and a run asks for max,
 * curve or more than 100000 I/O per second, naming the first such run's rate [240]. ioramp runs one process whatever the count: the line says what VDbench would do. */
#include "plan_int.h"

#include <stdio.h>

struct out {
	void (*emit)(void *ctx, const char *text);
	void *ctx;
};

#define VDB_MAX_JVMS   8
#define VDB_JVM_IORATE 100000.0
#define VDB_CURVE_RATE 9999977 /* how VDbench names a curve's rate */

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

/* The rate of run r that makes VDbench use more JVMs, as it names it; false: none. */
static bool jvm_reason(const struct plan_run *r, char *buf, size_t len)
{
	switch (r->rate) {
	case PLAN_RATE_MAX:
		snprintf(buf, len, "max");
		return true;
	case PLAN_RATE_CURVE_MAX:
		snprintf(buf, len, "%d", VDB_CURVE_RATE);
		return true;
	case PLAN_RATE_FIXED:
		snprintf(buf, len, "%lld", (long long)r->rate_iops);
		return r->rate_iops > VDB_JVM_IORATE;
	default:
		return false;
	}
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

uint32_t plan_nr_jvms(const struct plan *p)
{
	const struct parm_config *cfg = p->cfg;
	char reason[64];

	if (cfg->fs || cfg->nr_hds > 1)
		return 1; /* file-system mode and many hosts split otherwise */
	if (cfg->nr_hds == 1 && parm_kwset_has(&cfg->hds[0].set, PARM_KW_JVMS))
		return cfg->hds[0].jvms;
	if (cfg->has_default_jvms)
		return cfg->default_jvms;
	if (!may_adjust_jvms(cfg))
		return 1;
	for (size_t r = 0; r < p->nr_runs; r++)
		if (!cfg->rds[p->runs[r].rd_idx].trace &&
		    jvm_reason(&p->runs[r], reason, sizeof(reason)))
			return (uint32_t)(cfg->nr_sds < VDB_MAX_JVMS ? cfg->nr_sds : VDB_MAX_JVMS);
	return 1;
}

static void jvm_notice(const struct parm_config *cfg, const char *reason, const struct out *f)
{
	char text[256];
	size_t jvms = cfg->nr_sds < VDB_MAX_JVMS ? cfg->nr_sds : VDB_MAX_JVMS;

	snprintf(text, sizeof(text),
		 "Adjusted default JVM count for host=localhost from jvms=1 to jvms=%zu because of "
		 "iorate=%s and a total of %zu sds.",
		 jvms, reason, cfg->nr_sds);
	line(f, "");
	line(f, text);
	line(f, "");
}

/* Observed order: walking the runs, each raised thread count's line, and the JVM line at the
 * first run that asks for it; then every raised thread count's line once more. */
static void run_notices(const struct plan *p, const struct out *f)
{
	bool is_jvm = !may_adjust_jvms(p->cfg);
	char reason[64];

	for (size_t r = 0; r < p->nr_runs; r++) {
		if (p->runs[r].ovr.is_threads_raised)
			line(f, "Setting some threadcounts to a minimum of 1 ");
		if (!is_jvm && !p->cfg->rds[p->runs[r].rd_idx].trace &&
		    jvm_reason(&p->runs[r], reason, sizeof(reason))) {
			jvm_notice(p->cfg, reason, f);
			is_jvm = true;
		}
	}
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
