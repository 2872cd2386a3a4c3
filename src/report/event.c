/* The words of the engine's events (rep_event): every console line the engine causes is
 * written here, as VDbench 5.04.07 prints it where it prints one (reference §10.1, §12), and
 * rep_set_event() hands the lines to the observers. */
#include "ioramp/report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const no_validations[] = {
	"No read validations done during a Data Validation run.",
	"This means very likely that your run was not long enough to",
	"access the same data block twice.",
	"There are several solutions to this:",
	"- increase elapsed time.",
	"- use larger xfersize.",
	"- use only a subset of your lun by using the 'sd=...,size='",
	"  parameter or the 'sd=...,range=' parameter.",
	"Or, you never did any writes so Vdbench does not know what to",
	"compare the data with. In that case, change the rdpct= parameter.",
};

/* "100.750m", "1.355g": an amount of data as VDbench's maxdata= message writes it. */
static const char *mbytes(char *buf, size_t len, uint64_t n)
{
	double v = (double)n / (1024.0 * 1024.0);
	const char *unit = "m";

	if (v >= 1024.0 * 1024.0) {
		v /= 1024.0 * 1024.0;
		unit = "t";
	} else if (v >= 1024.0) {
		v /= 1024.0;
		unit = "g";
	}
	snprintf(buf, len, "%.3f%s", v, unit);
	return buf;
}

/* "2,454" */
static const char *group(char *buf, size_t len, uint64_t n)
{
	return rep_fmt_group((double)n, 0, buf, len);
}

static void dedup_line(const struct rep_event *e, char *line, size_t len)
{
	char a[32], b[32], c[32], d[32];

	snprintf(line, len,
		 "Dedup sd=%s: dedupunit=%" PRIu64 " dedupratio=%g: %s blocks, %s unique, %s "
		 "duplicates in %s sets: ratio %.2f:1",
		 e->sd, e->dedup.unit_bytes, e->dedup.ratio, group(a, sizeof(a), e->dedup.nr_units),
		 group(b, sizeof(b), e->dedup.nr_unique),
		 group(c, sizeof(c), e->dedup.nr_units - e->dedup.nr_unique),
		 group(d, sizeof(d), e->dedup.nr_sets),
		 (double)e->dedup.nr_units / (double)(e->dedup.nr_unique + e->dedup.nr_sets));
}

/* The single line of the plain console events; false for the others. */
static bool console_line(const struct rep_event *e, char *line, size_t len)
{
	char a[32];

	switch (e->kind) {
	case REP_EV_BACKEND_NOTE:
		snprintf(line, len, "ioramp: note: %s", e->text);
		return true;
	case REP_EV_NO_EFFECT:
		snprintf(line, len,
			 "ioramp: note: %s= has no effect in ioramp (a VDbench JVM or platform "
			 "setting)",
			 e->keyword);
		return true;
	case REP_EV_JVMS_NO_EFFECT:
		snprintf(
			line, len,
			"ioramp: note: jvms= on one host splits the reports, not the work: "
			"localhost-N.html shows the I/O of the threads VDbench's slave N would run "
			"(workers follow the CPUs; in an MPI job jvms=N is N ranks)");
		return true;
	case REP_EV_WORKER_FAILED:
		snprintf(line, len, "ioramp: error: worker %u: %s", e->worker, strerror(e->err));
		return true;
	case REP_EV_STOPCURVE:
		snprintf(line, len,
			 "stopcurve=%g: rd=%s response time %.3f ms is above it; ending the "
			 "execution",
			 e->stopcurve_ms, e->rd, e->resp_ms);
		return true;
	case REP_EV_MAXDATA: /* VDbench's words, its trailing blank too */
		snprintf(line, len, "Reached maxdata=%s. rd=%s shutting down after next interval. ",
			 mbytes(a, sizeof(a), e->nr_bytes), e->rd);
		return true;
	case REP_EV_STALL:
		snprintf(line, len,
			 "sd=%s,lun=%s: no I/O completed in %.0f seconds; %" PRIu64
			 " outstanding (timeout=)",
			 e->sd, e->lun, e->stall_s, e->nr_outstanding);
		return true;
	case REP_EV_DEDUP_SD:
		dedup_line(e, line, len);
		return true;
	case REP_EV_ERROR:
		snprintf(line, len, "ioramp: error: %s", e->text);
		return true;
	default:
		return false;
	}
}

/* Data validation's lines as it starts; false for the others. */
static bool dv_line(const struct rep_event *e, char *line, size_t len)
{
	char a[32], b[32];

	switch (e->kind) {
	case REP_EV_JOURNAL_FAILED:
		snprintf(line, len, "ioramp: error: journal write failed: %s", strerror(e->err));
		return true;
	case REP_EV_DV_MAP:
		snprintf(line, len,
			 "localhost-0: Allocating Data Validation map for sd=%s: %s one-byte "
			 "entries for each %s-byte block.",
			 e->sd, group(a, sizeof(a), e->nr_blocks),
			 group(b, sizeof(b), e->block_bytes));
		return true;
	case REP_EV_JOURNAL_CREATED:
		snprintf(line, len, "localhost-0: Created journal file %s/%s.jnl", e->dir, e->sd);
		return true;
	case REP_EV_JOURNAL_CLEARED: /* VDbench says it at each clear; once a run here */
		snprintf(line, len,
			 "localhost-0: 'journal_max' reached. Clearing journal file for sd=%s: "
			 "%s/%s.jnl cleared %s time%s (journal=max=%s)",
			 e->sd, e->dir, e->sd, group(a, sizeof(a), e->nr_known),
			 e->nr_known == 1 ? "" : "s", group(b, sizeof(b), e->nr_bytes));
		return true;
	default:
		return false;
	}
}

/* The journal recovery's lines (-jr, -jro). */
static bool recovery_line(const struct rep_event *e, char *line, size_t len)
{
	char a[32], b[32];

	switch (e->kind) {
	case REP_EV_RECOVERY_START:
		snprintf(line, len, "localhost-0: Starting journal recovery for %s", e->sd);
		return true;
	case REP_EV_RECOVERY_BACKUP:
		snprintf(line, len,
			 "ioramp: warning: sd=%s: %s/%s.jnl unusable: the map backup %s.map was "
			 "restored; writes after its checkpoint cannot be replayed",
			 e->sd, e->dir, e->sd, e->sd);
		return true;
	case REP_EV_RECOVERY_MAP:
		snprintf(line, len,
			 "localhost-0: Data Validation map restored for %s.jnl. Map contains %s "
			 "known blocks.",
			 e->sd, group(a, sizeof(a), e->nr_known));
		return true;
	case REP_EV_RECOVERY_APPLIED:
		snprintf(line, len,
			 "localhost-0: Completed apply of journal records (before/after): %s/%s",
			 group(a, sizeof(a), e->nr_before), group(b, sizeof(b), e->nr_after));
		return true;
	case REP_EV_RECOVERY_DONE:
		snprintf(
			line, len,
			"localhost-0: Completed journal recovery for %s. Starting data validation.",
			e->sd);
		return true;
	case REP_EV_RECOVERY_RESULT:
		snprintf(
			line, len,
			"localhost-0: Journal recovery of sd=%s: %s key blocks read and validated, "
			"%s in error; %" PRIu64 " writes were in flight (%" PRIu64 " torn)",
			e->sd, group(a, sizeof(a), e->nr_validated),
			group(b, sizeof(b), e->nr_errors), e->nr_pending, e->nr_torn);
		return true;
	default:
		return false;
	}
}

/* Data validation's totals at the end. */
static bool totals_line(const struct rep_event *e, char *line, size_t len)
{
	char a[32], b[32], c[32];

	switch (e->kind) {
	case REP_EV_DV_TOTALS:
		snprintf(line, len,
			 "localhost-0: Total amount of key blocks read and validated: %8s; key "
			 "blocks marked in error: %4s",
			 group(a, sizeof(a), e->nr_validated), group(b, sizeof(b), e->nr_errors));
		return true;
	case REP_EV_DV_COVERAGE:
		snprintf(line, len,
			 "ioramp: warning: sd=%s: %s failed writes left their key blocks without a "
			 "known key; the key map knows %s of %s blocks, and validation covers only "
			 "those",
			 e->sd, group(a, sizeof(a), e->nr_errors), group(b, sizeof(b), e->nr_known),
			 group(c, sizeof(c), e->nr_blocks));
		return true;
	case REP_EV_DV_UNLISTED:
		snprintf(line, len,
			 "ioramp: note: %" PRIu64 " key blocks in error are counted but not listed "
			 "(a worker keeps %" PRIu64 " per run)",
			 e->nr_errors, e->nr_kept);
		return true;
	default:
		return false;
	}
}

static bool cluster_line(const struct rep_event *e, char *line, size_t len)
{
	switch (e->kind) {
	case REP_EV_RANK_NO_END:
		snprintf(line, len, "ioramp: error: rank 0 did not end the run; ending");
		return true;
	case REP_EV_RANK_GONE:
		snprintf(
			line, len,
			"ioramp: error: %s stopped answering when the job was signalled: it failed "
			"or was killed",
			e->host);
		return true;
	case REP_EV_RANK_SIGNALLED:
		snprintf(line, len,
			 "ioramp: error: %s was interrupted by a signal; ending the execution",
			 e->host);
		return true;
	case REP_EV_RANK_LOST:
		snprintf(line, len,
			 "ioramp: error: %s sent no statistics for interval %u within %" PRIu64
			 " s; it is lost, ending the execution with the intervals measured so far",
			 e->host, e->interval, e->timeout_s);
		return true;
	default:
		return false;
	}
}

size_t rep_event_lines(const struct rep_event *e, void (*emit)(void *ctx, const char *line),
		       void *ctx)
{
	char line[1024];

	if (e->kind == REP_EV_ERROR_TOTAL) {
		snprintf(line, sizeof(line), "Total Data Validation or I/O error count: %" PRIu64,
			 e->nr_errors);
		if (e->is_boxed)
			emit(ctx, "*");
		emit(ctx, line);
		if (e->is_boxed)
			emit(ctx, "*");
		return e->is_boxed ? 3 : 1;
	}
	if (e->kind == REP_EV_SEQ_DONE) {
		emit(ctx, "All sequential workloads on all slaves are done.");
		emit(ctx, "This triggers end of run inspite of possibly some non-sequential "
			  "workloads that are still running.");
		return 2;
	}
	if (e->kind == REP_EV_DV_NOTHING) {
		for (size_t i = 0; i < IORAMP_ARRAY_SIZE(no_validations); i++)
			emit(ctx, no_validations[i]);
		return IORAMP_ARRAY_SIZE(no_validations);
	}
	if (console_line(e, line, sizeof(line)) || dv_line(e, line, sizeof(line)) ||
	    recovery_line(e, line, sizeof(line)) || totals_line(e, line, sizeof(line)) ||
	    cluster_line(e, line, sizeof(line))) {
		emit(ctx, line);
		return 1;
	}
	return 0;
}

static void emit_message(void *ctx, const char *line)
{
	rep_set_messagef(ctx, "%s", line);
}

int rep_set_event(struct rep_set *s, const struct rep_event *e)
{
	switch (e->kind) {
	case REP_EV_RUN_START:
		return rep_set_run_start(s, e->run);
	case REP_EV_INTERVAL:
		return rep_set_interval(s, e->run, e->sample);
	case REP_EV_RUN_END:
		return rep_set_run_end(s, e->run, e->run_end);
	case REP_EV_IO_ERROR:
		rep_set_io_error(s, e->io_error);
		return 0;
	case REP_EV_DV_ERROR:
		rep_set_dv_error(s, e->dv_error);
		return 0;
	case REP_EV_DV_SUMMARY:
		rep_set_dv_summary(s, e->dv_summary);
		return 0;
	case REP_EV_ENGINE:
		rep_set_log_notef(s, "engine: %s for %zu SD%s (%s)", e->engine.name,
				  e->engine.nr_sds, e->engine.nr_sds == 1 ? "" : "s",
				  e->engine.kind);
		return 0;
	default:
		rep_event_lines(e, emit_message, s);
		return 0;
	}
}
