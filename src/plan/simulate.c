/* The -s listing (tests/parm/FINDINGS.md §1): "Simulating RD=..." per run and the total, exactly
 * as VDbench 5.04.07 prints them after the time of day. Quirks kept on purpose: "I/O rate:" shows
 * the first value of the RD's last iorate= for every run (rounded VDbench's way), max is
 * "Uncontrolled" only on the runs at max, curves and relative rates assume a max of 10000, and a
 * run at rate 0 ends the listing with an error. */
#include "plan_int.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

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

/* VDbench's rounding of a fractional rate ([195]): nearest, and an exact .5 up to 15.5 rounds
 * up, from 16.5 on to even. No printf or Java format alone gives this; it is the observed table. */
static double shown_round(double x)
{
	double f = floor(x);

	if (x - f != 0.5)
		return floor(x + 0.5);
	if (x <= 15.5)
		return f + 1;
	return fmod(f, 2) == 0 ? f : f + 1;
}

static void shown_rate(const struct parm_rd *rd, const struct plan_run *run, char *buf, size_t len)
{
	const struct parm_rate *r = &rd->shown_rate;
	const char *ctl = run->is_controlled ? "Controlled" : "Uncontrolled";

	if (rd->is_variable || rd->is_spike) { /* spike alone takes pairs too ([902]) */
		snprintf(buf, len, "Variable");
	} else if (!rd->has_iorate) {
		snprintf(buf, len, "0");
	} else if (r->kind == PARM_RATE_MAX) {
		snprintf(buf, len, "%s MAX", run->rate == PLAN_RATE_MAX ? ctl : "Controlled");
	} else if (r->kind == PARM_RATE_CURVE && run->rate == PLAN_RATE_CURVE_POINT) {
		snprintf(buf, len, "%.0f", plan_simulated_rate(run->pct));
	} else if (r->kind == PARM_RATE_CURVE && run->rate == PLAN_RATE_FIXED) { /* curve=(P%) */
		snprintf(buf, len, "%.0f", shown_round(run->rate_iops));
	} else if (r->kind == PARM_RATE_CURVE) {
		snprintf(buf, len, "%s curve",
			 run->rate == PLAN_RATE_CURVE_MAX ? ctl : "Controlled");
	} else if (r->kind == PARM_RATE_REL) {
		snprintf(buf, len, "%.0f", plan_simulated_rate(fmin(r->value, 1e15)));
	} else {
		snprintf(buf, len, "%.0f", shown_round(fmin(r->value, 1e18)));
	}
}

/* SD replay= turns the field into "I/O rate (Replay):    " ([051]). */
static bool has_replay(const struct plan *p)
{
	for (size_t i = 0; i < p->cfg->nr_sds; i++)
		if (parm_kwset_has(&p->cfg->sds[i].set, PARM_KW_REPLAY))
			return true;
	return false;
}

static void print_run(const struct plan *p, const struct plan_run *r, bool is_replay, FILE *f)
{
	char tod[16], rate[64];

	shown_rate(&p->cfg->rds[r->rd_idx], r, rate, sizeof(rate));
	plan_time_of_day(tod);
	fprintf(f, "%s Simulating RD=%s; I/O rate%s %s; elapsed=%llu", tod, r->name,
		is_replay ? " (Replay):   " : ":", rate, (unsigned long long)r->elapsed_s);
	if (r->warmup_s)
		fprintf(f, " warmup=%llu", (unsigned long long)r->warmup_s);
	fprintf(f, "; For loops: %s\n", r->for_loops);
}

/* journal=recover (or r, re, rec...) in the file, or -jr/-jro: VDbench 5.04.07 -s lists a
 * journal_recovery run before the others (observed; journal=only alone does not). */
static bool has_journal_recovery(const struct plan *p)
{
	const struct parm_val *v = p->cfg->general.set.val[PARM_KW_JOURNAL];
	size_t nr = !v ? 0 : v->kind == PARM_VAL_LIST ? v->nr_items : 1;

	for (size_t i = 0; i < nr; i++) {
		const char *w = v->kind == PARM_VAL_LIST ? v->items[i].text : v->text;

		if (*w && strlen(w) <= 7 && !strncmp(w, "recover", strlen(w)))
			return true;
	}
	return p->is_journal_recovery;
}

int plan_print_simulation(const struct plan *p, FILE *f, struct parm_err *err)
{
	bool is_replay = has_replay(p), is_recovery = has_journal_recovery(p);
	uint64_t total_s = 0; /* VDbench's long: wraps rather than fails */
	char tod[16];

	if (is_recovery) {
		plan_time_of_day(tod);
		fprintf(f,
			"%s Simulating RD=journal_recovery; I/O rate: Uncontrolled MAX; "
			"elapsed=(none); For loops: None\n",
			tod);
	}

	for (size_t i = 0; i < p->nr_runs; i++) {
		const struct plan_run *r = &p->runs[i];

		print_run(p, r, is_replay, f);
		if (p->has_late_err && i == p->late_idx) {
			*err = p->late_err;
			return -EINVAL;
		}
		total_s += r->elapsed_s + r->warmup_s + (uint64_t)r->below_zero_warmup_s;
	}
	plan_print_total(f, p->nr_runs + is_recovery, total_s);
	return 0;
}

void plan_print_total(FILE *f, size_t nr_runs, uint64_t total_s)
{
	char tod[16];

	plan_time_of_day(tod);
	fprintf(f,
		"%s Total amount of Run Definitions: %zu; total elapsed time %llu seconds, or "
		"%.4f hours, plus a format if requested.\n",
		tod, nr_runs, (unsigned long long)total_s, (double)total_s / 3600.0);
}
