/* status.html (reference §8, §10.6): VDbench's "official interface" for monitoring programs,
 * one tab-separated event per line after a MM/dd/yyyy-HH:mm:ss-zzz stamp, each flushed to the
 * file system at once: the events of starting VDbench's slaves on one host (ioramp's own
 * process does their work), the run events and the final ones that wrappers wait for. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>

#include "vdbtext.h"

struct status {
	const struct rep_exec *x;
	FILE *f;
	bool has_io_error;
};

static void event(struct status *st, uint64_t tod_ns, const char *fmt, const char *rd,
		  const char *loops)
{
	char stamp[REP_STAMP_LEN];

	rep_fmt_stamp(stamp, tod_ns);
	fprintf(st->f, "%s \t", stamp);
	if (rd)
		fprintf(st->f, "%s\trd=%s\tFor loops: %s\n", fmt, rd, loops);
	else
		fprintf(st->f, "%s\n", fmt);
	fflush(st->f);
}

/* One host: VDbench's events as its master starts its slaves and queries the host (observed:
 * each slave as it connects, in no fixed order; localhost-0 first here). */
static void slave_events(struct status *st)
{
	uint64_t now_ns = rep_now_ns(st->x);
	char line[128];

	if (st->x->nr_hosts)
		return;
	event(st, now_ns, "Starting slaves", NULL, NULL);
	for (uint32_t k = 0; k < rep_nr_jvms(st->x); k++) {
		rep_jvm_connect_text(line, sizeof(line), rep_host_name(st->x), k);
		event(st, now_ns, line, NULL, NULL);
	}
	event(st, now_ns, "Slaves connected", NULL, NULL);
	event(st, now_ns, "Query host configuration started", NULL, NULL);
	event(st, now_ns, "Query host configuration completed", NULL, NULL);
}

static int status_open(const struct rep_exec *x, void **state)
{
	struct status *st;

	*state = NULL;
	if (!x->outdir)
		return 0;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->x = x;
	st->f = rep_html_open(x, "status.html");
	if (!st->f) {
		int ret = -errno;

		free(st);
		return ret;
	}
	fputs(REP_VDB_STATUS_HEAD, st->f);
	slave_events(st);
	fflush(st->f);
	*state = st;
	return 0;
}

static int status_run_start(void *state, const struct rep_run *r)
{
	if (state)
		event(state, r->start_tod_ns, "Starting", r->name, rep_run_loops(r));
	return 0;
}

static int status_interval(void *state, const struct rep_run *r, const struct rep_sample *s)
{
	/* Written when the last excluded interval ends (interval 1 without warmup=). */
	if (state && s->nr == r->nr_warmup_intervals)
		event(state, s->tod_ns, "Warmup done", r->name, rep_run_loops(r));
	return 0;
}

static int status_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct status *st = state;
	uint64_t tod_ns;

	if (!st)
		return 0;
	tod_ns = e->avg ? e->avg->tod_ns : rep_now_ns(st->x);
	event(state, tod_ns, "Workload done", r->name, rep_run_loops(r));
	event(state, tod_ns, "Slaves done", r->name, rep_run_loops(r));
	return 0;
}

static void status_io_error(void *state, const struct rep_io_error *e)
{
	struct status *st = state;

	if (!st || st->has_io_error)
		return;
	st->has_io_error = true;
	event(st, e->tod_ns, "I/O error detected. See errorlog.html", NULL, NULL);
}

static int status_close(void *state, int status)
{
	struct status *st = state;
	char text[64];
	int ret;

	if (!st)
		return 0;
	event(st, rep_now_ns(st->x), "Shutting down slaves", NULL, NULL);
	snprintf(text, sizeof(text), "Abort requested: exit status %d", status);
	event(st, rep_now_ns(st->x), status ? text : "Vdbench complete", NULL, NULL);
	ret = rep_html_close(st->f);
	free(st);
	return ret;
}

const struct rep_ops rep_status = {
	.name = "status",
	.file = "status.html",
	.is_closed_last = true,
	.open = status_open,
	.run_start = status_run_start,
	.interval = status_interval,
	.run_end = status_run_end,
	.io_error = status_io_error,
	.close = status_close,
};
