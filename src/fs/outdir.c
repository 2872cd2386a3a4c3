/* The output directory of a file-system run: chosen with the raw runs' -o rules
 * (rep_outdir_create), then summary.html and logfile.html get every console line (a tee
 * stream), parmfile.html the parameter files as read, totals.html each run's average line. */
#include "fs_int.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ioramp/parm.h"
#include "ioramp/report.h"

static uint64_t wall_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static ssize_t tee_write(void *cookie, const char *buf, size_t len)
{
	struct fs_out *o = cookie;

	fwrite(buf, 1, len, stdout);
	fflush(stdout); /* a line at a time, as a terminal sees it, into a pipe or file too */
	if (o->logfile)
		fwrite(buf, 1, len, o->logfile);
	return (ssize_t)len;
}

static int tee_close(void *cookie)
{
	(void)cookie;
	return 0;
}

static FILE *page_open(const struct fs_out *o, const char *name, const char *heading)
{
	FILE *f = rep_html_page_open(o->dir, name);

	if (!f) {
		fprintf(stderr, "ioramp: %s/%s: %s\n", o->dir, name, strerror(errno));
		return NULL;
	}
	if (heading)
		fprintf(f, "%s\n\n", heading);
	return f;
}

static int page_close(FILE *f)
{
	if (!f)
		return 0;
	return fclose(f) ? -errno : 0;
}

static void summary_heading(FILE *f)
{
	char local[64], utc[64];
	time_t now = time(NULL);
	struct tm tm;

	strftime(local, sizeof(local), "%H:%M:%S %b %d %Y %Z", localtime_r(&now, &tm));
	strftime(utc, sizeof(utc), "%H:%M:%S %b %d %Y UTC", gmtime_r(&now, &tm));
	fprintf(f, "ioramp %s (VDbench 5.04.07-compatible output)\n", IORAMP_VERSION);
	fprintf(f, "Vdbench summary report, created %s (%s)\n\n", local, utc);
}

void fs_run_links(FILE *f, const struct fs_plan *p)
{
	struct rep_run_link *links = calloc(p->nr_runs ? p->nr_runs : 1, sizeof(*links));

	if (!links)
		return;
	for (size_t i = 0; i < p->nr_runs; i++)
		links[i] = (struct rep_run_link){
			p->runs[i].name,
			p->runs[i].kind == FS_RUN_FORMAT ? "None" : p->runs[i].for_loops, i
		};
	rep_html_links(f, links, p->nr_runs);
	free(links);
}

/* "Link to FSD reports:" and "Link to FWD reports:" as VDbench sorts and pads them. */
static void summary_view_links(FILE *f, const struct fs_views *v)
{
	const char **names = calloc(v->nr ? v->nr : 1, sizeof(*names));
	size_t n;

	if (!names)
		return;
	for (int kind = FS_VIEW_FSD; kind <= FS_VIEW_FWD; kind++) {
		n = 0;
		for (size_t i = 0; i < v->nr; i++)
			if ((int)v->views[i].kind == kind)
				names[n++] = v->views[i].name;
		rep_html_name_links(
			f, kind == FS_VIEW_FSD ? "Link to FSD reports:" : "Link to FWD reports:",
			names, n);
	}
	free(names);
}

/* logfile.html's top, as the raw runs': the version line, then the command line as
 * VDbench echoes it (an option joined with its value: "-fparm1", "-oout1"). */
static void logfile_heading(FILE *f, int argc, char *const *argv)
{
	char tod[16];

	fprintf(f, "ioramp %s (VDbench 5.04.07-compatible output)\n\n", IORAMP_VERSION);
	plan_time_of_day(tod);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (a[0] == '-' && strlen(a) == 2 && next && next[0] != '-') {
			fprintf(f, "%s input argument scanned: '%s%s'\n", tod, a, next);
			i++;
		} else {
			fprintf(f, "%s input argument scanned: '%s'\n", tod, a);
		}
	}
	fflush(f);
}

/* The stamp in the slave's name: when it was first said. */
static uint64_t slave_start_ns(struct fs_out *o)
{
	struct timespec ts;

	if (!o->slave_start_ns) {
		clock_gettime(CLOCK_REALTIME, &ts);
		o->slave_start_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	return o->slave_start_ns;
}

/* VDbench's one slave started (observed: after the anchors' sizes, before the anchors made
 * and the run links), as the raw runs' console and logfile.html have it. */
void fs_out_console_slaves(struct fs_out *o)
{
	char tod[16], line[PATH_MAX + 256];

	plan_time_of_day(tod);
	rep_jvm_start_text(line, sizeof(line), "localhost", 0, slave_start_ns(o));
	fprintf(o->con, "%s %s\n", tod, line);
	fflush(o->con);
	if (o->logfile) { /* logfile.html alone has the slave's connection */
		rep_jvm_connect_text(line, sizeof(line), "localhost", 0);
		fprintf(o->logfile, "%s %s\n", tod, line);
		fflush(o->logfile);
	}
	fprintf(o->con, "%s All slaves are now connected\n", tod);
	fflush(o->con);
}

/* The run links in logfile.html, once, before the first run's notices (as VDbench, after
 * its slave started and the anchors it created). */
void fs_out_logfile_links(struct fs_out *o)
{
	if (!o->logfile || o->has_logfile_links)
		return;
	fflush(o->con);
	fputc('\n', o->logfile);
	fs_run_links(o->logfile, o->plan);
	fputc('\n', o->logfile);
	o->has_logfile_links = true;
}

int fs_out_open(struct fs_out *o, const char *spec, const struct fs_plan *p, int argc,
		char *const *argv)
{
	static cookie_io_functions_t tee = { .write = tee_write, .close = tee_close };
	const char *text = p->cfg && p->cfg->src ? parm_source_listing(p->cfg->src) : NULL;
	struct rep_outdir_err oe;
	FILE *parm;
	int ret;

	memset(o, 0, sizeof(*o));
	ret = rep_outdir_create(spec, wall_now_ns(), o->dir, sizeof(o->dir), &oe);
	if (ret) {
		rep_outdir_perror(stderr, "ioramp", spec, o->dir, ret, &oe);
		return ret;
	}
	o->summary = page_open(o, "summary.html", NULL);
	o->logfile = page_open(o, "logfile.html", NULL);
	o->totals = page_open(o, "totals.html", NULL);
	parm = page_open(o, "parmfile.html", NULL);
	if (!o->summary || !o->logfile || !o->totals || !parm) {
		page_close(parm);
		fs_out_close(o, 1);
		return -EIO;
	}
	if (text)
		fputs(text, parm);
	page_close(parm);
	logfile_heading(o->logfile, argc, argv);
	summary_heading(o->summary);
	fprintf(o->totals, "Run totals\n\n\n");
	fs_run_links(o->totals, p);
	fputc('\n', o->totals);
	fprintf(o->summary,
		"Link to logfile:                 <A HREF=\"logfile.html\">logfile</A>\n"
		"Run totals:                      <A HREF=\"totals.html\">totals</A>\n"
		"Vdbench status:                  <A HREF=\"status.html\">status</A>\n"
		"Copy of input parameter files:   <A HREF=\"parmfile.html\">parmfile</A>\n"
		"Copy of parameter scan detail:   <A HREF=\"parmscan.html\">parmscan</A>\n"
		"Link to errorlog:                <A HREF=\"errorlog.html\">errorlog</A>\n"
		"Link to flatfile:                <A HREF=\"flatfile.html\">flatfile</A>\n"
		"Link to anchor status:           <A HREF=\"anchors.html\">anchors</A>\n\n"
		"Link to HOST reports:            <A HREF=\"localhost.html\">localhost</A>\n");
	ret = fs_views_open(&o->views, o->dir, p);
	if (ret) {
		fs_out_close(o, 1);
		return ret;
	}
	o->views.views[0].page = o->summary;
	summary_view_links(o->summary, &o->views);
	fprintf(o->summary,
		"Link to response time histogram: <A HREF=\"histogram.html\">histogram</A>\n"
		"Link to workload skew report:    <A HREF=\"skew.html\">skew</A>\n"
		"Link to anchor report:           <A HREF=\"anchors.html\">anchors</A>\n\n");
	fs_run_links(o->summary, p);
	fprintf(o->summary,
		"\nLink to config output:           <A HREF=\"config.html\">config</A>\n");
	ret = fs_vdbfiles_open(o, p);
	if (ret) {
		fs_out_close(o, 1);
		return ret;
	}
	o->flat = fs_flat_open(o->dir);
	ret = o->flat ? fs_json_open(&o->json, o->dir) : -EIO;
	if (!ret)
		ret = fs_swat_open(&o->swat, o->dir);
	if (ret) {
		fs_out_close(o, 1);
		return ret;
	}
	o->con = fopencookie(o, "w", tee);
	if (!o->con) {
		fs_out_close(o, 1);
		return -ENOMEM;
	}
	setvbuf(o->con, NULL, _IOLBF, 0);
	return 0;
}

void fs_out_run_start(struct fs_out *o, size_t run_idx, const struct fs_run *r,
		      const struct fs_tree *trees, const char *tod, const char *text)
{
	fflush(o->con);
	printf("%s %s\n", tod, text);
	fflush(stdout);
	if (o->logfile) {
		char now[16];

		plan_time_of_day(now);
		fprintf(o->logfile,
			"%s Waiting for synchronization of all slaves\n"
			"%s Synchronization of all slaves complete\n",
			now, now);
		fputc('\n', o->logfile); /* VDbench's blank line before each run's anchor */
		rep_html_anchor_line(o->logfile, r->name, run_idx, tod, text);
		fputc('\n', o->logfile);
	}
	if (o->totals) {
		fputc('\n', o->totals);
		rep_html_anchor_line(o->totals, r->name, run_idx, tod, text);
		fputc('\n', o->totals);
	}
	fs_vdbfiles_run_start(o, run_idx, r, trees, tod, text);
}

void fs_out_logfile_setup(struct fs_out *o, const struct fs_run *r)
{
	char tod[16];

	if (!o->logfile)
		return;
	fflush(o->con);
	/* VDbench's line per FSD and FWD on it, FSD by FSD; a format run's one per FSD,
	 * "fwd=format" with its format threads */
	for (size_t d = 0; d < r->nr_fsds; d++)
		for (size_t i = 0; i < r->nr_fwds; i++) {
			const struct parm_fwd *w = &r->fwds[i];

			if (!fs_fwd_on_fsd(w, d))
				continue;
			plan_time_of_day(tod);
			fprintf(o->logfile,
				"%s slv=localhost-0 fwd=%s fsd=%s anchor=%s threads=%2u skew=%5.2f "
				"operation=%s \n",
				tod, r->kind == FS_RUN_FORMAT ? "format" : w->name, r->fsds[d].name,
				r->fsds[d].anchor,
				r->kind == FS_RUN_FORMAT ? FS_FORMAT_THREADS : w->threads_per_fsd,
				r->kind == FS_RUN_FORMAT ? 0 : w->skew,
				r->kind == FS_RUN_FORMAT ? "read" : fs_op_name(w->op));
			if (r->kind == FS_RUN_FORMAT)
				break;
		}
	fflush(o->logfile);
}

void fs_out_totals(struct fs_out *o, const char *label, double secs, double cpu, double sys)
{
	if (!o->has_totals_header)
		fs_console_header(o->totals, o->views.cols);
	o->has_totals_header = true;
	fs_console_line(o->totals, o->views.cols, label, &o->views.views[0].avg, secs, cpu, sys);
	fflush(o->totals);
}

/* Says that dir/name could not be written. */
static void say_failed(const struct fs_out *o, const char *name, int err)
{
	fprintf(stderr,
		"ioramp: error: %s/%s: cannot write the report: %s; the results in %s are "
		"incomplete\n",
		o->dir, name, strerror(-err), o->dir);
}

/* Whether everything written to f so far reached its file. Returns 0 or -errno. */
static int page_check(FILE *f)
{
	if (!f)
		return 0;
	errno = 0;
	if (fflush(f) || ferror(f))
		return rep_write_cause(f, errno ? -errno : -EIO);
	return 0;
}

/* Every report is checked before the console may say the execution completed. */
static int check_all(const struct fs_out *o)
{
	const struct {
		FILE *f;
		const char *name;
	} fixed[] = {
		{ o->flat, "flatfile.html" },
		{ o->summary, "summary.html" },
		{ o->logfile, "logfile.html" },
		{ o->totals, "totals.html" },
	};
	int ret = 0, err;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		err = page_check(fixed[i].f);

		if (err)
			say_failed(o, fixed[i].name, err), ret = ret ? ret : err;
	}
	for (size_t i = 1; i < o->views.nr; i++) { /* [0], the total, is summary.html */
		const struct fs_view *v = &o->views.views[i];
		char name[300];

		err = page_check(v->page);

		snprintf(name, sizeof(name), "%s.html", v->name);
		if (err)
			say_failed(o, name, err), ret = ret ? ret : err;
		err = page_check(v->histf);
		snprintf(name, sizeof(name), "%s.histogram.html", v->name);
		if (err)
			say_failed(o, name, err), ret = ret ? ret : err;
	}
	err = page_check(o->views.nr ? o->views.views[0].histf : NULL);
	if (err)
		say_failed(o, "histogram.html", err), ret = ret ? ret : err;
	return ret;
}

int fs_out_close(struct fs_out *o, int status)
{
	/* results.json first: a report that could not be written fails the execution, and the
	 * console must not say it completed */
	int ret = fs_json_close(&o->json, status), err;

	if (ret) {
		say_failed(o, "results.json", ret);
		status = 1;
	}
	err = check_all(o);
	if (fs_swat_close(&o->swat)) {
		say_failed(o, "swat_mon.bin", -EIO);
		err = err ? err : -EIO;
	}
	if (!err)
		err = fs_vdbfiles_close(o, status);
	else
		fs_vdbfiles_close(o, 1);
	if (err) {
		status = 1;
		ret = ret ? ret : err;
	}
	if (o->con) {
		if (!status) {
			char path[PATH_MAX], tod[16];

			if (!realpath(o->dir, path))
				snprintf(path, sizeof(path), "%s", o->dir);
			plan_time_of_day(tod);
			fprintf(o->con,
				"%s Vdbench execution completed successfully. Output directory: %s \n",
				tod, path);
			if (o->summary)
				fprintf(o->summary, "%s Vdbench execution completed successfully\n",
					tod);
		}
		fclose(o->con);
		o->con = NULL;
	}
	fflush(stdout);
	if (o->flat)
		fclose(o->flat);
	o->flat = NULL;
	fs_swat_close(&o->swat);
	fs_views_close(&o->views);
	page_close(o->summary);
	page_close(o->logfile);
	page_close(o->totals);
	o->summary = o->logfile = o->totals = NULL;
	return ret;
}
