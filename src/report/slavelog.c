/* <host>-N.stdout.html: the log of each of VDbench's slaves on one host (one, localhost-0,
 * unless jvms= or VDbench's adjusted count asks for more), which localhost.html and
 * localhost-N.html link (hosts.c). VDbench 5.04.07 (observed) writes there its JVM's start,
 * then per run the slave has threads in: the setup (each of its SDs opened, sorted by strcmp as
 * VDbench deals them threads, sd10 before sd9; the I/O threads it starts per SD, in the order
 * of a Java hash map of 8 buckets the SDs are put in sorted, rep_java_hash_order: observed sd9
 * sd11 sd10 for sd9..sd11, sd2 sd1 sd4 sd3 sd11 sd6 sd10 sd5 sd13 sd8 sd12 sd7 sd9 for sd1..sd13,
 * with streams= a line per thread of each of its streams before its SD's), the run's anchor
 * and "End of run", every line stamped twice (master and slave clock: one clock
 * here); a slave without threads in a run writes only the anchor. An RD's startcmd= and
 * endcmd= that run on the slave log there, on slave 0: after "Beginning of run setup", and
 * before "End of run". ioramp writes the lines
 * that describe its own run; a JVM's heap and garbage collector lines have no counterpart.
 * Nothing on many hosts, whose slaves are MPI ranks. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vdbtext.h"

struct slavelog {
	const struct rep_exec *x;
	FILE *f;      /* the slave being written */
	FILE **files; /* rep_nr_jvms */
	uint32_t nr_files;
	/* slave 0's notes (an RD's startcmd=) before its run's setup, written after its
	 * "Beginning of run setup" */
	char **pending;
	size_t nr_pending;
	/* slave 0's "End of run" is written at the next run or the end, after the notes of the
	 * run's endcmd= */
	bool is_end_due;
};

static void line(struct slavelog *s, const char *text)
{
	char tod[REP_TOD_LEN];

	rep_fmt_tod(tod, rep_now_ns(s->x));
	if (text[0])
		fprintf(s->f, "%s %s %s\n", tod, tod, text);
	else
		fprintf(s->f, "%s \n", tod);
}

static void banner(struct slavelog *s, const char *text)
{
	char stars[64];
	size_t n = strlen(text);

	if (n >= sizeof(stars))
		n = sizeof(stars) - 1;
	memset(stars, '*', n);
	stars[n] = '\0';
	line(s, text);
	line(s, stars);
	line(s, "");
	line(s, "");
}

static int slavelog_close(void *state, int status);

static int slavelog_open(const struct rep_exec *x, void **state)
{
	char name[512];
	struct slavelog *s;

	*state = NULL;
	if (!x->outdir || x->nr_hosts)
		return 0;
	s = calloc(1, sizeof(*s));
	if (s)
		s->files = calloc(rep_nr_jvms(x), sizeof(*s->files));
	if (!s || !s->files) {
		free(s);
		return -ENOMEM;
	}
	s->x = x;
	for (uint32_t k = 0; k < rep_nr_jvms(x); k++) {
		snprintf(name, sizeof(name), "%s-%u.stdout.html", rep_host_name(x), k);
		s->f = s->files[k] = rep_html_open(x, name);
		if (!s->f) {
			int ret = -errno;

			slavelog_close(s, 1);
			return ret;
		}
		s->nr_files = k + 1;
		fprintf(s->f, "stdout/stderr for slave=%s-%u\n\n", rep_host_name(x), k);
		rep_html_run_links(s->f, x);
		fputc('\n', s->f);
		fflush(s->f);
	}
	*state = s;
	return 0;
}

/* Slave 0's "End of run", once the run's endcmd= has said its lines. */
static void end_banner(struct slavelog *s)
{
	if (!s->is_end_due)
		return;
	s->is_end_due = false;
	s->f = s->files[0];
	banner(s, "End of run");
	fflush(s->f);
}

/* The notes kept for slave 0 until its setup, written now. */
static void pending_flush(struct slavelog *s)
{
	for (size_t i = 0; i < s->nr_pending; i++) {
		line(s, s->pending[i]);
		free(s->pending[i]);
	}
	s->nr_pending = 0;
}

static void slavelog_slave_note(void *state, bool is_run_end, const char *text)
{
	struct slavelog *s = state;
	char **more, *copy;

	if (!s || !s->nr_files)
		return;
	if (is_run_end) { /* an endcmd=: before its run's "End of run" */
		s->f = s->files[0];
		line(s, text);
		fflush(s->f);
		return;
	}
	end_banner(s); /* the next run's startcmd=: the last run has ended */
	more = realloc(s->pending, (s->nr_pending + 1) * sizeof(*more));
	copy = strdup(text);
	if (!more || !copy) {
		free(copy);
		if (more)
			s->pending = more;
		return; /* out of memory: the line is lost, the log goes on */
	}
	s->pending = more;
	s->pending[s->nr_pending++] = copy;
}

/* Slave k's streams of SD sd (streams=), a line per thread, numbered from 0 on the slave
 * (observed: "StreamContext for thread=01; stream=1: sd=sd1; low:       8m; high:      16m
 * size:       8m"). */
static void stream_lines(struct slavelog *s, const struct rep_run *r, uint32_t k, size_t sd)
{
	char text[1024], low[32], high[32], size[32];
	uint32_t t = 0;

	for (size_t i = 0; i < r->nr_streams; i++) {
		const struct rep_stream *st = &r->streams[i];

		if (st->sd != sd || st->jvm != k)
			continue;
		rep_fmt_ctl_size(st->low_bytes, low, sizeof(low));
		rep_fmt_ctl_size(st->high_bytes, high, sizeof(high));
		rep_fmt_ctl_size(st->high_bytes - st->low_bytes, size, sizeof(size));
		for (uint32_t n = 0; n < st->threads; n++, t++) {
			snprintf(text, sizeof(text),
				 "StreamContext for thread=%02u; stream=%u: sd=%s; low: %8s; "
				 "high: %8s size: %8s",
				 t, st->stream, r->sd_names[sd], low, high, size);
			line(s, text);
		}
	}
}

/* Slave k's setup lines for run r: its SDs opened, its threads started. */
static void setup(struct slavelog *s, const struct rep_run *r, uint32_t k)
{
	char text[2048];
	size_t *idx = calloc(r->nr_sds ? r->nr_sds : 1, sizeof(*idx)), *order = NULL, n = 0;
	const char **names = calloc(r->nr_sds ? r->nr_sds : 1, sizeof(*names));
	size_t *sorted;

	banner(s, "Beginning of run setup");
	if (k == 0)
		pending_flush(s);
	sorted = rep_name_order(r->sd_names, r->nr_sds, false);
	for (size_t o = 0; sorted && o < r->nr_sds; o++) {
		size_t i = sorted[o];

		if (!rep_jvm_threads(s->x, r, k, i) && rep_nr_jvms(s->x) > 1)
			continue;
		snprintf(text, sizeof(text), "Opening sd=%s,lun=%s", r->sd_names[i],
			 r->sd_luns ? r->sd_luns[i] : "");
		line(s, text);
		if (idx && names && rep_jvm_threads(s->x, r, k, i)) {
			names[n] = r->sd_names[i];
			idx[n++] = i;
		}
	}
	if (idx && names)
		order = rep_java_hash_order(names, n, 8);
	for (size_t i = 0; r->sd_threads && order && i < n; i++) {
		size_t sd = idx[order[i]];

		stream_lines(s, r, k, sd);
		snprintf(text, sizeof(text), "Started %2u i/o threads for %s",
			 rep_jvm_threads(s->x, r, k, sd), r->sd_names[sd]);
		line(s, text);
	}
	snprintf(text, sizeof(text), "Started a total of %2u i/o threads.",
		 rep_jvm_threads(s->x, r, k, r->nr_sds));
	line(s, text);
	fputc('\n', s->f);
	free(order);
	free(sorted);
	free(names);
	free(idx);
}

/* Whether slave k takes part in run r (one slave: always). */
static bool is_busy(const struct slavelog *s, const struct rep_run *r, uint32_t k)
{
	return s->nr_files == 1 || rep_jvm_threads(s->x, r, k, r->nr_sds);
}

static int slavelog_run_start(void *state, const struct rep_run *r)
{
	struct slavelog *s = state;

	if (s)
		end_banner(s);
	for (uint32_t k = 0; s && k < s->nr_files; k++) {
		s->f = s->files[k];
		if (is_busy(s, r, k))
			setup(s, r, k);
		else
			fputc('\n', s->f); /* observed: two blank lines before the anchor */
		rep_html_anchor(s->f, r);
		fputc('\n', s->f);
		fflush(s->f);
	}
	return 0;
}

static int slavelog_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct slavelog *s = state;

	(void)e;
	for (uint32_t k = 0; s && k < s->nr_files; k++) {
		if (!is_busy(s, r, k))
			continue;
		if (k == 0) {
			s->is_end_due = true; /* after the run's endcmd= (end_banner) */
			continue;
		}
		s->f = s->files[k];
		banner(s, "End of run");
		fflush(s->f);
	}
	return 0;
}

static int slavelog_close(void *state, int status)
{
	struct slavelog *s = state;
	int ret = 0;

	(void)status;
	if (!s)
		return 0;
	if (s->nr_files)
		end_banner(s);
	for (size_t i = 0; i < s->nr_pending; i++)
		free(s->pending[i]);
	free(s->pending);
	for (uint32_t k = 0; k < s->nr_files; k++) {
		int r = rep_html_close(s->files[k]);

		if (r < 0 && !ret)
			ret = r;
	}
	free(s->files);
	free(s);
	return ret;
}

const struct rep_ops rep_slavelog = {
	.name = "slavelog",
	.file = "localhost-0.stdout.html",
	.open = slavelog_open,
	.run_start = slavelog_run_start,
	.run_end = slavelog_run_end,
	.slave_note = slavelog_slave_note,
	.close = slavelog_close,
};
