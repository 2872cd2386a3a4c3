/* The rest of VDbench 5.04.07's output directory for a file-system run (observed): errorlog.html,
 * status.html, parmscan.html, config.html, localhost.var_adm_msgs.html, the host and slave
 * pages (localhost.html, localhost-0.html: the summary's run blocks, filled by views.c),
 * localhost-0.stdout.html (the one slave's log: each run's setup and end) and skew.html (per
 * work run, the Host, FSD and FWD tables of its averages). The pieces the raw runs share
 * (config.html's commands, parmscan.html's trace) are theirs. */
#include "fs_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ioramp/parm.h"
#include "ioramp/report.h"

#define FS_HOST "localhost"

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static FILE *page(const struct fs_out *o, const char *name)
{
	FILE *f = rep_html_page_open(o->dir, name);

	if (!f)
		fprintf(stderr, "ioramp: %s/%s: %s\n", o->dir, name, strerror(errno));
	return f;
}

static int page_done(FILE *f)
{
	if (!f)
		return -EIO;
	return fclose(f) ? -errno : 0;
}

/* status.html's line: "MM/dd/yyyy-HH:mm:ss-zzz \tevent[\trd=NAME\tFor loops: LOOPS]". */
static void status_event(FILE *f, const char *what, const struct fs_run *r)
{
	char stamp[64];
	time_t now = time(NULL);
	struct tm tm;

	if (!f)
		return;
	strftime(stamp, sizeof(stamp), "%m/%d/%Y-%H:%M:%S-%Z", localtime_r(&now, &tm));
	if (r)
		fprintf(f, "%s \t%s\trd=%s\tFor loops: %s\n", stamp, what, r->name,
			r->kind == FS_RUN_FORMAT ? "None" : r->for_loops);
	else
		fprintf(f, "%s \t%s\n", stamp, what);
	fflush(f);
}

/* The pages written whole at the start. */
static int fixed_pages(const struct fs_out *o, const struct fs_plan *p, uint64_t start_ns)
{
	struct rep_exec x = { .cfg = p->cfg, .outdir = o->dir, .start_tod_ns = start_ns };
	char created[64];
	time_t now = (time_t)(start_ns / 1000000000ull);
	struct tm tm;
	void *state = NULL;
	FILE *f;
	int ret;

	f = page(o, "errorlog.html");
	if (f) {
		strftime(created, sizeof(created), "%H:%M:%S %b %d %Y %Z", localtime_r(&now, &tm));
		fprintf(f,
			"Vdbench error log, created %s \n"
			"Error log. If there are no error messages beyond this line then there "
			"were no Data Validation or I/O errors.\n\n",
			created);
	}
	ret = page_done(f);
	f = ret ? NULL : page(o, FS_HOST ".var_adm_msgs.html");
	if (f)
		fprintf(f, "This file will contain the last 'nn' lines of files \n"
			   "/var/adm/messages and /var/adm/messages.0 on the target host. \n \n");
	ret = ret ? ret : page_done(f);
	if (!ret)
		ret = rep_parmscan.open(&x, &state);
	if (!ret)
		ret = rep_config.open(&x, &state);
	if (ret)
		fprintf(stderr, "ioramp: %s: cannot write parmscan.html and config.html: %s\n",
			o->dir, strerror(-ret));
	return ret;
}

int fs_vdbfiles_open(struct fs_out *o, const struct fs_plan *p)
{
	uint64_t start_ns = wall_ns();
	char text[128];
	int ret;

	o->plan = p;
	o->status = page(o, "status.html");
	if (!o->status)
		return -EIO;
	fputs(REP_VDB_STATUS_HEAD, o->status);
	/* VDbench's one slave (observed; ioramp's process does its work), then config.html:
	 * ioramp's own query of the host, as VDbench's is */
	status_event(o->status, "Starting slaves", NULL);
	rep_jvm_connect_text(text, sizeof(text), FS_HOST, 0);
	status_event(o->status, text, NULL);
	status_event(o->status, "Slaves connected", NULL);
	status_event(o->status, "Query host configuration started", NULL);
	ret = fixed_pages(o, p, start_ns);
	if (ret)
		return ret;
	status_event(o->status, "Query host configuration completed", NULL);
	o->host = page(o, FS_HOST ".html");
	o->slave = page(o, FS_HOST "-0.html");
	o->slavelog = page(o, FS_HOST "-0.stdout.html");
	o->skew = page(o, "skew.html");
	if (!o->host || !o->slave || !o->slavelog || !o->skew)
		return -EIO;
	fprintf(o->host,
		"Host summary report(s) for host=" FS_HOST "\n\n"
		"Link to slave summary report:    <A HREF=\"" FS_HOST "-0.html\">" FS_HOST
		"-0 summary</A>   <A HREF=\"" FS_HOST "-0.stdout.html\">" FS_HOST "-0 stdout</A>\n"
		"Link to /var/adm/messages:       <A HREF=\"" FS_HOST
		".var_adm_msgs.html\">messages</A>\n");
	for (size_t i = 0; i < p->cfg->fs->nr_fsds; i++) /* the title on every line */
		fprintf(o->host,
			"Link to host FSD reports:        <A HREF=\"" FS_HOST
			".%s.html\">fsd=%s</A>\n",
			p->cfg->fs->fsds[i].name, p->cfg->fs->fsds[i].name);
	fputc('\n', o->host);
	fprintf(o->slave, "Slave summary report for slave=" FS_HOST "-0\n\n"
			  "Console log:                     <A HREF=\"" FS_HOST
			  "-0.stdout.html\">Slave stdout/stderr</A>\n\n");
	fprintf(o->slavelog, "stdout/stderr for slave=" FS_HOST "-0\n\n");
	fputs(REP_VDB_SKEW_HEAD, o->skew);
	FILE *linked[] = { o->host, o->slave, o->slavelog, o->skew };

	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(linked); i++) {
		FILE *f = linked[i];

		fs_run_links(f, p);
		fputc('\n', f);
		fflush(f);
	}
	o->views.mirror[0] = o->host;
	o->views.mirror[1] = o->slave;
	return 0;
}

void fs_vdbfiles_run_start(struct fs_out *o, size_t run_idx, const struct fs_run *r,
			   const struct fs_tree *trees, const char *tod, const char *text)
{
	status_event(o->status, "Starting", r);
	if (o->slavelog) {
		fs_slave_banner(o->slavelog, "Beginning of run setup");
		fs_slave_setup(o->slavelog, r, trees);
		/* FSD by FSD, each FWD's threads on it (the workers' order); a format run's
		 * one line per FSD, its format threads */
		for (size_t d = 0; d < r->nr_fsds; d++)
			for (size_t i = 0; i < r->nr_fwds; i++) {
				const struct parm_fwd *w = &r->fwds[i];
				bool is_fmt = r->kind == FS_RUN_FORMAT;

				if (!fs_fwd_on_fsd(w, d))
					continue;
				fs_slave_line(o->slavelog,
					      "Started %u threads for fwd=%s,fsd=%s%s%s",
					      is_fmt ? FS_FORMAT_THREADS : w->threads_per_fsd,
					      is_fmt ? "format" : w->name, r->fsds[d].name,
					      is_fmt ? "" : ",operation=",
					      is_fmt ? "" : fs_op_name(w->op));
				if (is_fmt)
					break;
			}
		fs_slave_line(o->slavelog, "Started %u FwgThreads for rd=%s For loops: %s",
			      fs_run_threads(r), r->name,
			      r->kind == FS_RUN_FORMAT ? "None" : r->for_loops);
		fputc('\n', o->slavelog);
		rep_html_anchor_line(o->slavelog, r->name, run_idx, tod, text);
		fputc('\n', o->slavelog);
		fs_slave_tasks(o->slavelog, r);
		fflush(o->slavelog);
	}
	if (o->skew) {
		fputc('\n', o->skew);
		rep_html_anchor_line(o->skew, r->name, run_idx, tod, text);
		fputc('\n', o->skew);
		fflush(o->skew);
	}
}

void fs_vdbfiles_interval(struct fs_out *o, const struct fs_run *r, uint64_t iv)
{
	uint64_t warm = r->interval_s ? r->warmup_s / r->interval_s : 0;

	if (iv == (warm ? warm : 1))
		status_event(o->status, "Warmup done", r);
}

/* A console line (or heading line) of skew.html: the time of day, the name in 13 columns,
 * the console's columns without the interval and the cpu ones. */
static void skew_cut(FILE *f, const char *tod, const char *name, const char *con)
{
	size_t n = strlen(con);

	if (n > 0 && con[n - 1] == '\n')
		n--;
	if (n < 50) {
		fprintf(f, "%s %-13s\n", tod, name);
		return;
	}
	fprintf(f, "%s %-13s%.14s%.*s\n", tod, name, con + 25, (int)(n - 50), con + 50);
}

/* One table: the heading (its second line named what:), one line per view of the kind. */
static void skew_table(const struct fs_out *o, const struct fs_run *r, const char *what,
		       const struct fs_view *const *vs, size_t nr, bool has_total)
{
	const struct fs_views *v = &o->views;
	char tod[16], *buf = NULL, *l1, *l2;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	fs_console_header(m, v->cols);
	fclose(m);
	plan_time_of_day(tod);
	fprintf(o->skew, "%s \n", tod);
	l1 = strchr(buf, '\n'); /* the heading starts with a blank line */
	l2 = l1 ? strchr(l1 + 1, '\n') : NULL;
	if (l1 && l2) {
		*l2 = '\0';
		skew_cut(o->skew, tod, "", l1 + 1);
		skew_cut(o->skew, tod, what, l2 + 1);
	}
	free(buf);
	for (size_t i = 0; i < nr; i++) {
		double secs = (double)(vs[i]->nr_hist * r->interval_s);

		buf = NULL;
		m = open_memstream(&buf, &len);
		if (!m)
			return;
		fs_console_line(m, v->cols, "", &vs[i]->avg, secs, 0, 0);
		fclose(m);
		skew_cut(o->skew, tod, vs[i]->kind == FS_VIEW_TOTAL ? FS_HOST : vs[i]->name, buf);
		free(buf);
	}
	if (has_total) { /* the run's total, the Host line's figures */
		double secs = (double)(v->views[0].nr_hist * r->interval_s);

		buf = NULL;
		m = open_memstream(&buf, &len);
		if (!m)
			return;
		fs_console_line(m, v->cols, "", &v->views[0].avg, secs, 0, 0);
		fclose(m);
		skew_cut(o->skew, tod, "Total", buf);
		free(buf);
	}
}

/* With skew= given, the FWDs' requested share against the observed one (VDbench 5.04.07,
 * observed: fwd1 39571.5 ops/sec of 210121 printed "fwd1           39572     20.00%  18.83%
 * -1.17%"). */
static void skew_requested(const struct fs_out *o, const struct fs_run *r)
{
	struct fs_skew_row *rows = calloc(r->nr_fwds ? r->nr_fwds : 1, sizeof(*rows));
	size_t n = rows ? fs_skew_observed(r, &o->views, rows) : 0;
	char tod[16];

	plan_time_of_day(tod);
	fprintf(o->skew, "%s \n", tod);
	fprintf(o->skew,
		"%s FWD skew requested vs. actual (Use 'abort_failed_skew=n.n' to abort when "
		"delta > n.n)\n",
		tod);
	fprintf(o->skew, "%s FWD          ops/sec  requested  actual   delta\n", tod);
	for (size_t i = 0; i < n; i++)
		fprintf(o->skew, "%s %-12s%8.0f%10.2f%%%7.2f%%%+7.2f%%\n", tod, rows[i].name,
			rows[i].ops_per_sec, rows[i].requested_pct, rows[i].actual_pct,
			rows[i].actual_pct - rows[i].requested_pct);
	free(rows);
}

void fs_vdbfiles_run_end(struct fs_out *o, const struct fs_run *r, const struct fs_tree *trees,
			 const struct fs_stats *all)
{
	const struct fs_views *v = &o->views;
	const struct fs_view **vs;
	size_t n;

	status_event(o->status, "Workload done", r);
	status_event(o->status, "Slaves done", r);
	if (o->slavelog) {
		fs_slave_end(o->slavelog, r, trees, all);
		fs_slave_banner(o->slavelog, "End of run");
		fflush(o->slavelog);
	}
	/* no tables for a format run before a work run that was done within its first
	 * interval (nothing counted); format=only's run has them (observed) */
	if (!o->skew || !v->nr ||
	    (r->kind == FS_RUN_FORMAT && !(r->format & FS_FMT_ONLY) && !v->views[0].nr_hist))
		return;
	vs = calloc(v->nr, sizeof(*vs));
	if (!vs)
		return;
	vs[0] = &v->views[0];
	skew_table(o, r, "Host:", vs, 1, false);
	/* a format run has no FWD table (observed: create_files' format) */
	for (int kind = FS_VIEW_FSD; kind <= (r->kind == FS_RUN_FORMAT ? FS_VIEW_FSD : FS_VIEW_FWD);
	     kind++) {
		n = 0;
		for (size_t i = 0; i < r->nr_fsds && kind == FS_VIEW_FSD; i++)
			vs[n++] = &v->views[fs_views_fsd(v, r->fsds[i].name)];
		for (size_t i = 0; i < r->nr_fwds && kind == FS_VIEW_FWD; i++) {
			const struct fs_view *w = &v->views[fs_views_fwd(v, r->fwds[i].name)];
			bool seen = false;

			for (size_t k = 0; k < n; k++)
				seen |= vs[k] == w; /* operations= splits a FWD: one line */
			if (!seen)
				vs[n++] = w;
		}
		/* a Total line (observed): under the FSDs when the execution has more than
		 * one, under the FWDs when the run has more than one */
		skew_table(o, r, kind == FS_VIEW_FSD ? "FSD:" : "FWD:", vs, n,
			   kind == FS_VIEW_FSD ? o->plan->cfg->fs->nr_fsds > 1 : n > 1);
	}
	free(vs);
	if (r->kind == FS_RUN_WORK && fs_run_has_skew(r))
		skew_requested(o, r);
	fflush(o->skew);
}

int fs_vdbfiles_close(struct fs_out *o, int status)
{
	FILE **fs[] = { &o->host, &o->slave, &o->slavelog, &o->skew, &o->status };
	const char *names[] = { FS_HOST ".html", FS_HOST "-0.html", FS_HOST "-0.stdout.html",
				"skew.html", "status.html" };
	int ret = 0;

	if (o->status) {
		char text[64];

		snprintf(text, sizeof(text), "Abort requested: exit status %d", status);
		status_event(o->status, "Shutting down slaves", NULL);
		status_event(o->status, status ? text : "Vdbench complete", NULL);
	}
	o->views.mirror[0] = o->views.mirror[1] = NULL;
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(fs); i++) {
		int err;

		if (!*fs[i])
			continue;
		err = page_done(*fs[i]);
		*fs[i] = NULL;
		if (err) {
			fprintf(stderr, "ioramp: error: %s/%s: cannot write the report: %s\n",
				o->dir, names[i], strerror(-err));
			ret = ret ? ret : err;
		}
	}
	return ret;
}
