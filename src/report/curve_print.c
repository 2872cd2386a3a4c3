/* The block printed on the console when a curve ends: one line per point, the peak as
 * reviews state it ("peak X IOPS at Y us") and the IOPS reached under each latency
 * threshold. Latencies are service times, VDbench's meaning. */
#include "doc.h"

#include <math.h>
#include <string.h>

const char *rep_doc_curve_name(const json_t *curve, char *buf, size_t len)
{
	const char *rd = rep_doc_str(curve, "rd", "?");
	const char *loops = rep_doc_str(curve, "for_loops", "None");

	if (!strcmp(loops, "None"))
		snprintf(buf, len, "%s", rd);
	else
		snprintf(buf, len, "%s %s", rd, loops);
	return buf;
}

static int name_width(const json_t *curve)
{
	const json_t *points = json_object_get(curve, "points"), *p;
	size_t i, w = 8;

	json_array_foreach (points, i, p) {
		size_t len = strlen(rep_doc_str(p, "name", ""));

		w = len > w ? len : w;
	}
	return (int)(w > 40 ? 40 : w);
}

static void print_point(const json_t *p, const char *target, int w, FILE *f)
{
	char t[32], iops[32], mb[32], mean[32], p99[32], p9999[32];

	if (!target)
		target = rep_fmt_group(rep_doc_num(p, "target_iops"), 0, t, sizeof(t));
	fprintf(f, "  %-*s %11s %11s %10s %6.1f %6.1f %10s %10s %10s\n", w,
		rep_doc_str(p, "name", "?"), target,
		rep_fmt_group(rep_doc_num(p, "iops"), 0, iops, sizeof(iops)),
		rep_fmt_group(rep_doc_num(p, "mb_per_sec"), 2, mb, sizeof(mb)),
		rep_doc_num(p, "read_pct"), rep_doc_num(p, "qdepth"),
		rep_fmt_lat_us(rep_doc_num(p, "service/mean_us"), mean, sizeof(mean)),
		rep_fmt_lat_us(rep_doc_num(p, "service/percentiles_us/99"), p99, sizeof(p99)),
		rep_fmt_lat_us(rep_doc_num(p, "service/percentiles_us/99.99"), p9999,
			       sizeof(p9999)));
}

/* "24,310", ">= 52,340 (all below)" or "not reached". */
static const char *at_text(const json_t *at, char *buf, size_t len)
{
	const char *status = rep_doc_str(at, "status", "not_reached");
	char n[32];

	rep_fmt_group(rep_doc_num(at, "iops"), 0, n, sizeof(n));
	if (!strcmp(status, "reached"))
		snprintf(buf, len, "%s", n);
	else if (!strcmp(status, "all_below"))
		snprintf(buf, len, ">= %s (all below)", n);
	else
		snprintf(buf, len, "not reached");
	return buf;
}

static void print_sla(const struct rep_doc *live, const json_t *curve, FILE *f)
{
	json_t *sla = rep_doc_curve_sla_list(live, curve);
	const json_t *e;
	char label[32], mean[64], p99[64];
	size_t i;

	if (!json_array_size(sla)) {
		json_decref(sla);
		return;
	}
	fprintf(f, "  IOPS at latency (service time; points joined by straight lines):\n");
	fprintf(f, "    %-10s %-26s %s\n", "threshold", "mean latency", "p99 latency");
	json_array_foreach (sla, i, e) {
		rep_sla_label(rep_doc_num(e, "threshold_us") * 1e3, label, sizeof(label));
		fprintf(f, "    %-10s %-26s %s\n", label,
			at_text(rep_doc_get(e, "service/mean"), mean, sizeof(mean)),
			at_text(rep_doc_get(e, "service/p99"), p99, sizeof(p99)));
	}
	json_decref(sla);
}

/* A point's figure, or fallback's when it is null (a results.json older than it). */
static double num_or(const json_t *p, const char *key, const char *fallback)
{
	return json_is_number(json_object_get(p, key)) ? rep_doc_num(p, key)
						       : rep_doc_num(p, fallback);
}

/* "rd1_(130%): reached 97,111 of 115,600 (84%), limited by device": the requested I/Os the
 * verdict compared (a validation's pre-reads are in "iops", as VDbench counts them, but were
 * never asked for), and what the schedule asked when its sampling put that 1% off the target.
 * A point over its target by more than 2% missed it too: its device fell behind before the
 * averaged intervals (in the warmup) and the backlog was done in them. */
static void print_missed(const json_t *p, FILE *f)
{
	double got = num_or(p, "requested_iops", "iops"), want = rep_doc_num(p, "target_iops");
	double asked = num_or(p, "scheduled_iops", "target_iops");
	const char *lim = rep_doc_str(p, "limited_by", NULL);
	char g[32], t[32], s[32];

	fprintf(f, "%s: reached %s of %s (%.0f%%)", rep_doc_str(p, "name", "?"),
		rep_fmt_group(got, 0, g, sizeof(g)), rep_fmt_group(want, 0, t, sizeof(t)),
		want > 0 ? 100.0 * got / want : 0.0);
	if (want > 0 && fabs(asked - want) > 0.01 * want)
		fprintf(f, ", its schedule asked %s", rep_fmt_group(asked, 0, s, sizeof(s)));
	if (got > asked)
		fprintf(f, ", over it: catching up I/Os that waited before its averaged intervals");
	fprintf(f, "%s%s\n", lim ? ", limited by " : "", lim ? lim : "");
}

void rep_doc_curve_print_missed(const json_t *curve, FILE *f)
{
	const json_t *p;
	size_t i;

	json_array_foreach (json_object_get(curve, "points"), i, p)
		if (json_is_false(json_object_get(p, "is_target_met")))
			print_missed(p, f);
	fflush(f);
}

void rep_doc_curve_print(const struct rep_doc *live, const json_t *curve, FILE *f)
{
	const json_t *points = json_object_get(curve, "points"), *p, *max;
	const json_t *peak = json_object_get(curve, "peak");
	char name[256], iops[32], mean[32], p99[32];
	int w = name_width(curve);
	size_t i;

	fprintf(f, "\n%s %s: %zu point%s",
		strcmp(rep_doc_str(curve, "kind", ""), "curve") ? "Series" : "Curve",
		rep_doc_curve_name(curve, name, sizeof(name)), json_array_size(points),
		json_array_size(points) == 1 ? "" : "s");
	if (json_is_object(peak))
		fprintf(f, "; peak %s IOPS at %s us mean, %s us p99",
			rep_fmt_group(rep_doc_num(peak, "iops"), 0, iops, sizeof(iops)),
			rep_fmt_lat_us(rep_doc_num(peak, "mean_us"), mean, sizeof(mean)),
			rep_fmt_lat_us(rep_doc_num(peak, "p99_us"), p99, sizeof(p99)));
	fprintf(f, "\n  %-*s %11s %11s %10s %6s %6s %10s %10s %10s\n", w, "run", "target", "IOPS",
		"MB/s", "read%", "QD", "mean us", "p99 us", "p99.99 us");
	max = json_object_get(curve, "max");
	if (json_is_object(max))
		print_point(max, "max", w, f);
	json_array_foreach (points, i, p)
		print_point(p, NULL, w, f);
	print_sla(live, curve, f);
	rep_doc_curve_print_missed(curve, f);
}
