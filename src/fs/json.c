/* results.json of a file-system run: "mode": "filesystem", the execution, then each run with
 * its intervals and its average (ops rate, read/write rate and response, MB/s, and rate and
 * mean response per operation). Streamed as the runs go, like the console. */
#include "fs_int.h"

#include <errno.h>
#include <stdio.h>
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

void fs_json_run_start(struct fs_json *j, const struct fs_run *r, double rate)
{
	if (!j->f)
		return;
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

void fs_json_run_end(struct fs_json *j, const struct fs_stats *total, double secs,
		     bool is_interrupted)
{
	if (!j->f)
		return;
	fputs("],\n \"average\": ", j->f);
	sample(j->f, total, secs);
	fprintf(j->f, ", \"is_interrupted\": %s}", is_interrupted ? "true" : "false");
}

int fs_json_close(struct fs_json *j, int status)
{
	int ret;

	if (!j->f)
		return 0;
	fprintf(j->f, "\n], \"status\": %d}\n", status);
	errno = 0;
	ret = fflush(j->f) || ferror(j->f) ? rep_write_cause(j->f, errno ? -errno : -EIO) : 0;
	if (fclose(j->f) && !ret)
		ret = -errno;
	j->f = NULL;
	if (ret)
		unlink(j->path); /* a document cut short is no document: never a stale one */
	return ret;
}
