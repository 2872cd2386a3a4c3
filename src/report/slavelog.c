/* <host>-0.stdout.html: the log of VDbench's one slave on one host, which localhost.html and
 * localhost-0.html link (hosts.c). VDbench 5.04.07 (observed) writes there its JVM's start, then
 * per run the setup (each SD opened, the I/O threads started), the run's anchor and "End of
 * run", every line stamped twice (master and slave clock: one clock here). ioramp writes the
 * lines that describe its own run; a JVM's heap and garbage collector lines have no counterpart.
 * Nothing on many hosts, whose slaves are MPI ranks. */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vdbtext.h"

struct slavelog {
	const struct rep_exec *x;
	FILE *f;
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

static int slavelog_open(const struct rep_exec *x, void **state)
{
	char name[512];
	struct slavelog *s;

	*state = NULL;
	if (!x->outdir || x->nr_hosts)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->x = x;
	snprintf(name, sizeof(name), "%s-0.stdout.html", rep_host_name(x));
	s->f = rep_html_open(x, name);
	if (!s->f) {
		int ret = -errno;

		free(s);
		return ret;
	}
	fprintf(s->f, "stdout/stderr for slave=%s-0\n\n", rep_host_name(x));
	rep_html_run_links(s->f, x);
	fputc('\n', s->f);
	fflush(s->f);
	*state = s;
	return 0;
}

static int slavelog_run_start(void *state, const struct rep_run *r)
{
	struct slavelog *s = state;
	char text[2048];
	uint64_t total = 0;

	if (!s)
		return 0;
	banner(s, "Beginning of run setup");
	for (size_t i = 0; i < r->nr_sds; i++) {
		snprintf(text, sizeof(text), "Opening sd=%s,lun=%s", r->sd_names[i],
			 r->sd_luns ? r->sd_luns[i] : "");
		line(s, text);
	}
	for (size_t i = 0; r->sd_threads && i < r->nr_sds; i++) {
		snprintf(text, sizeof(text), "Started %2u i/o threads for %s", r->sd_threads[i],
			 r->sd_names[i]);
		line(s, text);
		total += r->sd_threads[i];
	}
	snprintf(text, sizeof(text), "Started a total of %2llu i/o threads.",
		 (unsigned long long)total);
	line(s, text);
	fputc('\n', s->f);
	rep_html_anchor(s->f, r);
	fputc('\n', s->f);
	fflush(s->f);
	return 0;
}

static int slavelog_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct slavelog *s = state;

	(void)r;
	(void)e;
	if (s) {
		banner(s, "End of run");
		fflush(s->f);
	}
	return 0;
}

static int slavelog_close(void *state, int status)
{
	struct slavelog *s = state;
	int ret;

	(void)status;
	if (!s)
		return 0;
	ret = rep_html_close(s->f);
	free(s);
	return ret;
}

const struct rep_ops rep_slavelog = {
	.name = "slavelog",
	.file = "localhost-0.stdout.html",
	.open = slavelog_open,
	.run_start = slavelog_run_start,
	.run_end = slavelog_run_end,
	.close = slavelog_close,
};
