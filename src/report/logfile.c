/* logfile.html: the console log (reference §10.2), with the command line echoed as VDbench's
 * "input argument scanned" lines, the run links, and an anchor in place of each run banner. */
#include "ioramp/report.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vdbtext.h"

/* VDbench echoes an option joined with its value ("-fparm1", "-oout1"). */
static void echo_args(struct rep_conlog *c)
{
	char line[1024];

	for (int i = 1; i < c->x->argc; i++) {
		const char *a = c->x->argv[i];
		const char *next = i + 1 < c->x->argc ? c->x->argv[i + 1] : NULL;

		if (a[0] == '-' && strlen(a) == 2 && next && next[0] != '-') {
			snprintf(line, sizeof(line), "input argument scanned: '%s%s'", a, next);
			i++;
		} else {
			snprintf(line, sizeof(line), "input argument scanned: '%s'", a);
		}
		rep_conlog_timed(c, line);
	}
}

/* "sd=sd1,lun=/x lun size: 8,388,608 bytes; 0.0078 GB (1024**3); 0.0084 GB (1000**3)" */
static void size_text(char *line, size_t len, const char *what, uint64_t bytes)
{
	char n[48], g2[48], g10[48];

	rep_jgroup(n, sizeof(n), bytes);
	rep_jfmt(g2, sizeof(g2), 0, 4, (double)bytes / (1024.0 * 1024.0 * 1024.0));
	rep_jfmt(g10, sizeof(g10), 0, 4, (double)bytes / 1e9);
	snprintf(line, len, "%s: %s bytes; %s GB (1024**3); %s GB (1000**3)", what, n, g2, g10);
}

/* VDbench logs each SD's lun size and their total before the run links: size= when given,
 * else the file's or device's size now (0 when it cannot be seen: a lun made by the run). */
static void lun_sizes(struct rep_conlog *c)
{
	const struct parm_config *cfg = c->x->cfg;
	char what[600], line[800];
	uint64_t total = 0;

	for (size_t i = 0; cfg && i < cfg->nr_sds; i++) {
		const struct parm_sd *sd = &cfg->sds[i];
		uint64_t bytes = sd->size_bytes;
		struct stat st;

		if (!bytes && sd->lun && !stat(sd->lun, &st) && S_ISREG(st.st_mode))
			bytes = (uint64_t)st.st_size;
		snprintf(what, sizeof(what), "sd=%s,lun=%s lun size", sd->name,
			 sd->lun ? sd->lun : "");
		size_text(line, sizeof(line), what, bytes);
		rep_conlog_timed(c, line);
		total += bytes;
	}
	if (!cfg || !cfg->nr_sds)
		return;
	rep_conlog_timed(c, "");
	size_text(line, sizeof(line), "Total SD size", total);
	rep_conlog_timed(c, line);
}

/* logfile.html in VDbench's order (observed): the arguments; the parameters' notices; the
 * slaves started and the lun sizes (setup); the luns' notices; the run links before the first
 * run; before each run the slaves' synchronization. */
struct logfile {
	struct rep_conlog c;
	bool is_setup;
	bool has_links;
};

static void logfile_setup(void *state)
{
	struct logfile *lf = state;

	if (!lf || lf->is_setup)
		return;
	lf->is_setup = true;
	rep_conlog_slaves(&lf->c);
	lun_sizes(&lf->c);
	fflush(lf->c.f);
}

/* Before the first run (or the end): the setup if nobody said it, then the run links. */
static void links(struct logfile *lf)
{
	logfile_setup(lf);
	if (lf->has_links)
		return;
	lf->has_links = true;
	fputc('\n', lf->c.f);
	rep_html_run_links(lf->c.f, lf->c.x);
	fputc('\n', lf->c.f);
}

static int logfile_open(const struct rep_exec *x, void **state)
{
	struct logfile *lf;
	struct rep_conlog *c;

	*state = NULL;
	if (!x->outdir)
		return 0;
	lf = calloc(1, sizeof(*lf));
	if (!lf)
		return -ENOMEM;
	c = &lf->c;
	c->x = x;
	c->kind = REP_CONLOG_LOGFILE;
	c->f = rep_html_open(x, "logfile.html");
	if (!c->f) {
		int ret = -errno;

		free(lf);
		return ret;
	}
	fprintf(c->f, "ioramp %s (VDbench 5.04.07-compatible output)\n\n", IORAMP_VERSION);
	echo_args(c);
	rep_conlog_model_note(c);
	fflush(c->f);
	*state = lf;
	return 0;
}

static int logfile_run_start(void *state, const struct rep_run *r)
{
	struct logfile *lf = state;

	if (!lf)
		return 0;
	links(lf);
	rep_conlog_timed(&lf->c, "Waiting for synchronization of all slaves");
	rep_conlog_timed(&lf->c, "Synchronization of all slaves complete");
	return rep_conlog_on_run_start(&lf->c, r);
}

static int logfile_interval(void *state, const struct rep_run *r, const struct rep_sample *s)
{
	return state ? rep_conlog_on_interval(&((struct logfile *)state)->c, r, s) : 0;
}

static int logfile_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	return state ? rep_conlog_on_run_end(&((struct logfile *)state)->c, r, e) : 0;
}

static void logfile_message(void *state, const char *line)
{
	if (state)
		rep_conlog_timed(&((struct logfile *)state)->c, line);
}

static void logfile_io_error(void *state, const struct rep_io_error *e)
{
	if (state)
		rep_conlog_io_error(&((struct logfile *)state)->c, e);
}

static void logfile_dv_error(void *state, const struct rep_dv_error *e)
{
	rep_conlog_dv_error(state ? &((struct logfile *)state)->c : NULL, e);
}

static int logfile_check(void *state)
{
	return rep_conlog_check(state ? &((struct logfile *)state)->c : NULL);
}

static int logfile_close(void *state, int status)
{
	struct logfile *lf = state;
	int ret;

	if (!lf)
		return 0;
	links(lf);
	rep_conlog_close(&lf->c, status);
	ret = rep_html_close(lf->c.f);
	free(lf);
	return ret;
}

const struct rep_ops rep_logfile = {
	.name = "logfile",
	.file = "logfile.html",
	.is_closed_last = true,
	.open = logfile_open,
	.setup = logfile_setup,
	.run_start = logfile_run_start,
	.interval = logfile_interval,
	.run_end = logfile_run_end,
	.message = logfile_message,
	.log_note = logfile_message,
	.io_error = logfile_io_error,
	.dv_error = logfile_dv_error,
	.close = logfile_close,
	.check = logfile_check,
};
