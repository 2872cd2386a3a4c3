/* results.json of a file-system run: "mode": "filesystem", the execution, then each run with
 * its intervals and its average (ops rate, read/write rate and response, MB/s, and rate and
 * mean response per operation) and its validity (is_target_met, limited_by, as raw runs);
 * at the end the fwdrate=curve curves: each max run and its points. Streamed as the runs go,
 * like the console. */
#include "fs_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ioramp/report.h"

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static double mean(const struct fs_opstat *o)
{
	return o->n ? o->resp_sum_ms / (double)o->n : 0;
}

static void sample(FILE *f, const struct fs_stats *s, double secs)
{
	double d = secs > 0 ? secs : 1;

	fprintf(f,
		"{\"seconds\": %.3f, \"ops_rate\": %.3f, \"resp_ms\": %.6f, "
		"\"read_rate\": %.3f, \"read_resp_ms\": %.6f, "
		"\"write_rate\": %.3f, \"write_resp_ms\": %.6f, "
		"\"read_mbs\": %.6f, \"write_mbs\": %.6f, \"mbs\": %.6f, \"operations\": {",
		secs, (double)s->reqstd.n / d, mean(&s->reqstd), (double)s->op[FS_OP_READ].n / d,
		mean(&s->op[FS_OP_READ]), (double)s->op[FS_OP_WRITE].n / d,
		mean(&s->op[FS_OP_WRITE]), (double)s->read_bytes / d / 1048576.0,
		(double)s->write_bytes / d / 1048576.0,
		(double)(s->read_bytes + s->write_bytes) / d / 1048576.0);
	for (int op = 0; op < FS_OP_NR; op++)
		fprintf(f, "%s\"%s\": {\"rate\": %.3f, \"resp_ms\": %.6f}", op ? ", " : "",
			fs_op_name((enum fs_op)op), (double)s->op[op].n / d, mean(&s->op[op]));
	fputs("}}", f);
}

int fs_json_open(struct fs_json *j, const char *dir)
{
	memset(j, 0, sizeof(*j));
	snprintf(j->path, sizeof(j->path), "%s/results.json", dir);
	j->f = fopen(j->path, "w");
	if (!j->f) {
		fprintf(stderr, "ioramp: %s: %s\n", j->path, strerror(errno));
		return -errno;
	}
	fprintf(j->f,
		"{\"mode\": \"filesystem\", \"execution\": {\"tool\": \"ioramp\", "
		"\"version\": \"%s\", \"outdir\": ",
		IORAMP_VERSION);
	jstr(j->f, dir);
	fputs("}, \"runs\": [", j->f);
	return 0;
}

static void jnum(FILE *f, double v)
{
	if (isnan(v))
		fputs("null", f);
	else
		fprintf(f, "%.3f", v);
}

static void jlimit(FILE *f, enum rep_limit l)
{
	const char *n = rep_limit_name(l);

	if (n)
		jstr(f, n);
	else
		fputs("null", f);
}

void fs_json_run_start(struct fs_json *j, const struct fs_run *r, double rate)
{
	if (!j->f)
		return;
	j->rate_kind = r->rate;
	j->pct = r->rate == PLAN_RATE_CURVE_POINT ? r->pct : NAN;
	j->target = rate > 0 ? rate : NAN;
	j->name = r->name;
	if (r->rate == PLAN_RATE_CURVE_MAX) {
		void *n = realloc(j->curves, (j->nr_curves + 1) * sizeof(*j->curves));

		if (n) {
			struct fs_json_curve *c;

			j->curves = n;
			c = &j->curves[j->nr_curves++];
			memset(c, 0, sizeof(*c));
			c->rd = strdup(r->name);
			c->for_loops = strdup(r->for_loops ? r->for_loops : "None");
		}
	}
	fprintf(j->f, "%s\n{\"rd\": ", j->nr_runs++ ? "," : "");
	jstr(j->f, r->name);
	fputs(", \"for_loops\": ", j->f);
	jstr(j->f, r->for_loops);
	fprintf(j->f, ", \"fwdrate\": ");
	if (rate > 0)
		fprintf(j->f, "%.3f", rate);
	else
		fputs("\"max\"", j->f);
	fprintf(j->f, ", \"elapsed\": %llu, \"interval\": %llu, \"intervals\": [",
		(unsigned long long)r->elapsed_s, (unsigned long long)r->interval_s);
	j->nr_iv = 0;
}

void fs_json_interval(struct fs_json *j, const struct fs_stats *s, double secs)
{
	if (!j->f)
		return;
	fputs(j->nr_iv++ ? ",\n " : "\n ", j->f);
	sample(j->f, s, secs);
}

/* The run just ended as its curve's max run or a point of the last curve. */
static void curve_note(struct fs_json *j, const struct fs_stats *total, double secs, bool is_met,
		       enum rep_limit lim)
{
	double d = secs > 0 ? secs : 1;
	struct fs_json_point p = {
		.run = j->nr_runs - 1,
		.name = strdup(j->name ? j->name : ""),
		.pct = j->pct,
		.target_iops = j->target,
		.iops = (double)total->reqstd.n / d,
		.mbs = (double)(total->read_bytes + total->write_bytes) / d / 1048576.0,
		.resp_ms = mean(&total->reqstd),
		.is_target_met = is_met,
		.limited_by = lim,
	};
	struct fs_json_curve *c = j->nr_curves ? &j->curves[j->nr_curves - 1] : NULL;
	void *n;

	if (!c) {
		free(p.name);
		return;
	}
	if (j->rate_kind == PLAN_RATE_CURVE_MAX) {
		free(c->max.name);
		c->max = p;
		return;
	}
	n = realloc(c->points, (c->nr_points + 1) * sizeof(*c->points));
	if (!n) {
		free(p.name);
		return;
	}
	c->points = n;
	c->points[c->nr_points++] = p;
}

void fs_json_run_end(struct fs_json *j, const struct fs_stats *total, double secs,
		     bool is_interrupted, bool is_target_met, enum rep_limit limited_by)
{
	if (!j->f)
		return;
	fputs("],\n \"average\": ", j->f);
	if (total)
		sample(j->f, total, secs);
	else
		fputs("null", j->f);
	fputs(", \"target_iops\": ", j->f);
	jnum(j->f, j->target);
	fprintf(j->f,
		", \"is_target_met\": %s, \"limited_by\": ", is_target_met ? "true" : "false");
	jlimit(j->f, limited_by);
	fprintf(j->f, ", \"is_interrupted\": %s}", is_interrupted ? "true" : "false");
	if (total && (j->rate_kind == PLAN_RATE_CURVE_MAX || j->rate_kind == PLAN_RATE_CURVE_POINT))
		curve_note(j, total, secs, is_target_met, limited_by);
}

static void point_write(FILE *f, const struct fs_json_point *p)
{
	fprintf(f, "{\"run\": %zu, \"name\": ", p->run);
	jstr(f, p->name);
	fputs(", \"pct\": ", f);
	jnum(f, p->pct);
	fputs(", \"target_iops\": ", f);
	jnum(f, p->target_iops);
	fprintf(f, ", \"iops\": %.3f, \"mb_per_sec\": %.6f, \"resp_ms\": %.6f, ", p->iops, p->mbs,
		p->resp_ms);
	fprintf(f, "\"is_target_met\": %s, \"limited_by\": ", p->is_target_met ? "true" : "false");
	jlimit(f, p->limited_by);
	fputc('}', f);
}

/* "curves": each fwdrate=curve as raw results have it: the max run, its points. */
static void curves_write(struct fs_json *j)
{
	fputs("\n], \"curves\": [", j->f);
	for (size_t i = 0; i < j->nr_curves; i++) {
		const struct fs_json_curve *c = &j->curves[i];

		fprintf(j->f, "%s\n{\"kind\": \"curve\", \"rd\": ", i ? "," : "");
		jstr(j->f, c->rd);
		fputs(", \"for_loops\": ", j->f);
		jstr(j->f, c->for_loops);
		fprintf(j->f, ", \"max_run\": %zu, \"max\": ", c->max.run);
		point_write(j->f, &c->max);
		fputs(", \"points\": [", j->f);
		for (size_t k = 0; k < c->nr_points; k++) {
			fputs(k ? ",\n  " : "\n  ", j->f);
			point_write(j->f, &c->points[k]);
		}
		fputs("]}", j->f);
	}
}

static void curves_free(struct fs_json *j)
{
	for (size_t i = 0; i < j->nr_curves; i++) {
		struct fs_json_curve *c = &j->curves[i];

		free(c->rd);
		free(c->for_loops);
		free(c->max.name);
		for (size_t k = 0; k < c->nr_points; k++)
			free(c->points[k].name);
		free(c->points);
	}
	free(j->curves);
	j->curves = NULL;
	j->nr_curves = 0;
}

int fs_json_close(struct fs_json *j, int status)
{
	int ret;

	if (!j->f) {
		curves_free(j);
		return 0;
	}
	curves_write(j);
	curves_free(j);
	fprintf(j->f, "], \"status\": %d}\n", status);
	errno = 0;
	ret = fflush(j->f) || ferror(j->f) ? rep_write_cause(j->f, errno ? -errno : -EIO) : 0;
	if (fclose(j->f) && !ret)
		ret = -errno;
	j->f = NULL;
	if (ret)
		unlink(j->path); /* a document cut short is no document: never a stale one */
	return ret;
}
