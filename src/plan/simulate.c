/* The -s listing (reference §7): "Simulating RD=..." per run and the total, exactly as
 * VDbench 5.04.07 prints them after the time of day. Quirks kept on purpose: "I/O rate:" shows
 * the RD's first iorate for every run of a list, and curves assume a max of 10000. */
#include "plan_int.h"

#include <math.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define SIMULATED_MAX_IOPS 10000.0

void plan_time_of_day(char buf[16])
{
	struct timeval tv;
	struct tm tm;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	snprintf(buf, 16, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (int)(tv.tv_usec / 1000));
}

void plan_rate_text(const struct plan_run *run, double base_iops, char *buf, size_t len)
{
	const char *ctl = run->is_controlled ? "Controlled" : "Uncontrolled";

	switch (run->rate) {
	case PLAN_RATE_MAX:
		snprintf(buf, len, "%s MAX", ctl);
		break;
	case PLAN_RATE_CURVE_MAX:
		snprintf(buf, len, "%s curve", ctl);
		break;
	case PLAN_RATE_CURVE_POINT:
	case PLAN_RATE_REL:
		snprintf(buf, len, "%.0f", plan_curve_target(base_iops, run->pct));
		break;
	case PLAN_RATE_VARIABLE:
		snprintf(buf, len, "Variable");
		break;
	default:
		snprintf(buf, len, "%lld", (long long)run->rate_iops);
		break;
	}
}

/* What -s shows as the rate: the RD's first iorate stands for every run of its list. */
static void simulated_rate(const struct plan *p, const struct plan_run *run, char *buf, size_t len)
{
	const struct parm_rd *rd = &p->cfg->rds[run->rd_idx];
	struct plan_run shown = *run;

	if (run->rate != PLAN_RATE_CURVE_MAX && run->rate != PLAN_RATE_CURVE_POINT &&
	    rd->nr_rates > 1) {
		switch (rd->rates[0].kind) {
		case PARM_RATE_MAX:
			shown.rate = PLAN_RATE_MAX;
			break;
		case PARM_RATE_REL:
			shown.rate = PLAN_RATE_REL;
			shown.pct = rd->rates[0].value;
			break;
		default:
			shown.rate = rd->is_variable ? PLAN_RATE_VARIABLE : PLAN_RATE_FIXED;
			shown.rate_iops = rd->rates[0].value;
			break;
		}
	}
	plan_rate_text(&shown, SIMULATED_MAX_IOPS, buf, len);
}

int plan_print_simulation(const struct plan *p, FILE *f, struct parm_err *err)
{
	uint64_t total_s = 0;
	char tod[16], rate[64];

	(void)err;
	for (size_t i = 0; i < p->nr_runs; i++) {
		const struct plan_run *r = &p->runs[i];

		simulated_rate(p, r, rate, sizeof(rate));
		plan_time_of_day(tod);
		fprintf(f, "%s Simulating RD=%s; I/O rate: %s; elapsed=%llu", tod, r->name, rate,
			(unsigned long long)r->elapsed_s);
		if (r->warmup_s)
			fprintf(f, " warmup=%llu", (unsigned long long)r->warmup_s);
		fprintf(f, "; For loops: %s\n", r->for_loops);
		total_s += r->elapsed_s + r->warmup_s;
	}
	plan_time_of_day(tod);
	fprintf(f,
		"%s Total amount of Run Definitions: %zu; total elapsed time %llu seconds, or "
		"%.4f hours, plus a format if requested.\n",
		tod, p->nr_runs, (unsigned long long)total_s, (double)total_s / 3600.0);
	return 0;
}
