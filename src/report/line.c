/* VDbench's interval line (reference §10.1): the figures derived from a counter bank, the
 * printf layout of console, summary.html and the per-SD and per-WD reports, its two header
 * rows, and the "Starting RD=" banner. */
#include "vdbtext.h"

#include <string.h>

static double ns_to_ms(double ns)
{
	return ns / 1e6;
}

void rep_vals_compute(struct rep_vals *v, const struct stats_bank *b, uint64_t elapsed_ns,
		      uint64_t mb_bytes)
{
	const struct stats_counters *rd = &b->op[STATS_OP_READ], *wr = &b->op[STATS_OP_WRITE];
	/* the sums behind the combined mean and stddev */
	uint64_t nr_svc = rd->svc.nr + wr->svc.nr, svc_ns = rd->svc.sum_ns + wr->svc.sum_ns;
	uint64_t bytes = rd->total_bytes + wr->total_bytes;

	memset(v, 0, sizeof(*v));
	v->nr_ios = rd->nr_ios + wr->nr_ios;
	v->rate = stats_rate_per_sec(v->nr_ios, elapsed_ns);
	v->mb_per_sec = stats_mb_per_sec(bytes, elapsed_ns, mb_bytes);
	v->bytes_per_io = v->nr_ios ? bytes / v->nr_ios : 0;
	v->read_pct = v->nr_ios ? (double)rd->nr_ios * 100.0 / (double)v->nr_ios : 0;
	v->resp_ms = nr_svc ? ns_to_ms((double)svc_ns / (double)nr_svc) : 0;
	v->read_resp_ms = ns_to_ms(stats_counters_mean_ns(rd));
	v->write_resp_ms = ns_to_ms(stats_counters_mean_ns(wr));
	v->read_max_ms = rd->svc.nr ? ns_to_ms((double)rd->svc.max_ns) : 0;
	v->write_max_ms = wr->svc.nr ? ns_to_ms((double)wr->svc.max_ns) : 0;
	v->resp_max_ms = v->read_max_ms > v->write_max_ms ? v->read_max_ms : v->write_max_ms;
	v->resp_std_ms =
		ns_to_ms(stats_stddev_ns(nr_svc, svc_ns, rd->svc_sumsq_ns2 + wr->svc_sumsq_ns2));
	v->read_std_ms = ns_to_ms(stats_counters_stddev_ns(rd));
	v->write_std_ms = ns_to_ms(stats_counters_stddev_ns(wr));
	v->qdepth = stats_bank_qdepth(b, elapsed_ns);
}

/* Appends " " + Java %<width>.<prec>f to line. */
static void add_num(char *line, size_t len, int width, int prec, double x)
{
	size_t used = strlen(line);
	char num[64];

	snprintf(line + used, len - used, " %s", rep_jfmt(num, sizeof(num), width, prec, x));
}

void rep_line_print(FILE *f, const struct rep_exec *x, const struct rep_sample *s,
		    const struct stats_bank *b)
{
	char tod[REP_TOD_LEN], line[512];
	struct rep_vals v;

	rep_vals_compute(&v, b, s->elapsed_ns, x->mb_bytes);
	rep_fmt_tod(tod, s->tod_ns);
	snprintf(line, sizeof(line), "%s%12s", tod, s->label);
	add_num(line, sizeof(line), 10, 1, v.rate);
	add_num(line, sizeof(line), 8, 2, v.mb_per_sec);
	snprintf(line + strlen(line), sizeof(line) - strlen(line), " %7llu",
		 (unsigned long long)v.bytes_per_io);
	add_num(line, sizeof(line), 6, 2, v.read_pct);
	add_num(line, sizeof(line), 8, 3, v.resp_ms);
	add_num(line, sizeof(line), 8, 3, v.read_resp_ms);
	add_num(line, sizeof(line), 8, 3, v.write_resp_ms);
	add_num(line, sizeof(line), 8, 2, v.read_max_ms);
	add_num(line, sizeof(line), 8, 2, v.write_max_ms);
	add_num(line, sizeof(line), 8, 3, v.resp_std_ms);
	add_num(line, sizeof(line), 6, 1, v.qdepth);
	if (s->has_cpu) {
		add_num(line, sizeof(line), 5, 1, s->cpu.used_pct);
		add_num(line, sizeof(line), 5, 1, s->cpu.sys_pct);
	} else {
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " ");
	}
	fprintf(f, "%s\n", line);
}

void rep_header_print(FILE *f, const struct rep_exec *x, uint64_t tod_ns, bool has_cpu)
{
	char date[REP_TOD_LEN];

	rep_fmt_date(date, tod_ns);
	fprintf(f,
		"\n%s    interval        i/o   MB/sec   bytes   read     resp     read    write     "
		"read    write     resp  queue%s\n",
		date, has_cpu ? "  cpu%  cpu%" : " ");
	fprintf(f,
		"                               rate  %s     i/o    pct     time     resp     resp"
		"      max      max   stddev  depth%s\n",
		x->mb_bytes == 1000000 ? "1000**2" : "1024**2", has_cpu ? " sys+u   sys" : " ");
}

const char *rep_run_loops(const struct rep_run *r)
{
	return r->for_loops && r->for_loops[0] ? r->for_loops : "None";
}

void rep_start_text(char *buf, size_t len, const struct rep_run *r)
{
	char elapsed[32], warmup[40] = "";

	if (r->run)
		snprintf(elapsed, sizeof(elapsed), "%llu", (unsigned long long)r->elapsed_s);
	else
		snprintf(elapsed, sizeof(elapsed), "(none)");
	if (r->warmup_s)
		snprintf(warmup, sizeof(warmup), " warmup=%llu", (unsigned long long)r->warmup_s);
	snprintf(buf, len, "Starting RD=%s; I/O rate: %s; elapsed=%s%s; For loops: %s", r->name,
		 r->rate_text, elapsed, warmup, rep_run_loops(r));
}
