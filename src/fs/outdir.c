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
	if (o->summary)
		fwrite(buf, 1, len, o->summary);
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
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "ioramp: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	fprintf(f, "<html><head><title>ioramp %s/%s</title></head><body>\n<pre>\n", o->dir, name);
	if (heading)
		fprintf(f, "%s\n\n", heading);
	return f;
}

static int page_close(FILE *f)
{
	if (!f)
		return 0;
	fprintf(f, "</pre></body></html>\n");
	return fclose(f) ? -errno : 0;
}

int fs_out_open(struct fs_out *o, const char *spec, const struct fs_plan *p)
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
	o->summary = page_open(o, "summary.html", "Vdbench summary report (file-system mode)");
	o->logfile = page_open(o, "logfile.html", "Vdbench logfile (file-system mode)");
	o->totals = page_open(o, "totals.html", "Vdbench run totals (file-system mode)");
	parm = page_open(o, "parmfile.html", NULL);
	if (!o->summary || !o->logfile || !o->totals || !parm) {
		page_close(parm);
		fs_out_close(o, 1);
		return -EIO;
	}
	if (text)
		fputs(text, parm);
	page_close(parm);
	fprintf(o->summary,
		"Link to logfile:                 <A HREF=\"logfile.html\">logfile</A>\n"
		"Run totals:                      <A HREF=\"totals.html\">totals</A>\n"
		"Copy of input parameter files:   <A HREF=\"parmfile.html\">parmfile</A>\n"
		"Link to flatfile:                <A HREF=\"flatfile.html\">flatfile</A>\n"
		"Anchor status:                   <A HREF=\"anchors.html\">anchors</A>\n\n");
	for (size_t i = 0; p->cfg && p->cfg->fs && i < p->cfg->fs->nr_fwds; i++)
		fprintf(o->summary, "Link to workload report:         <A HREF=\"%s.html\">%s</A>\n",
			p->cfg->fs->fwds[i].name, p->cfg->fs->fwds[i].name);
	fputc('\n', o->summary);
	o->flat = fs_flat_open(o->dir);
	ret = o->flat ? fs_json_open(&o->json, o->dir) : -EIO;
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

FILE *fs_out_page(struct fs_out *o, const char *name)
{
	char file[300];
	size_t i;

	for (i = 0; i < o->nr_pages; i++)
		if (!strcmp(o->page_name[i], name))
			return o->page[i];
	if (i == sizeof(o->page) / sizeof(o->page[0]))
		return NULL;
	snprintf(file, sizeof(file), "%s.html", name);
	o->page_name[i] = strdup(name);
	o->page[i] = o->page_name[i] ? page_open(o, file, NULL) : NULL;
	if (!o->page[i]) {
		free(o->page_name[i]);
		return NULL;
	}
	fprintf(o->page[i], "Workload report for fwd=%s (file-system mode)\n\n", name);
	o->nr_pages++;
	return o->page[i];
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
	int ret = 0;

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		int err = page_check(fixed[i].f);

		if (err)
			say_failed(o, fixed[i].name, err), ret = ret ? ret : err;
	}
	for (size_t i = 0; i < o->nr_pages; i++) {
		char name[300];
		int err = page_check(o->page[i]);

		snprintf(name, sizeof(name), "%s.html", o->page_name[i]);
		if (err)
			say_failed(o, name, err), ret = ret ? ret : err;
	}
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
		}
		fclose(o->con);
		o->con = NULL;
	}
	fflush(stdout);
	if (o->flat)
		fclose(o->flat);
	o->flat = NULL;
	for (size_t i = 0; i < o->nr_pages; i++) {
		page_close(o->page[i]);
		free(o->page_name[i]);
	}
	o->nr_pages = 0;
	page_close(o->summary);
	page_close(o->logfile);
	page_close(o->totals);
	o->summary = o->logfile = o->totals = NULL;
	return ret;
}
