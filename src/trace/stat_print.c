/* The figures of "ioramp trace stat" and "ioramp trace compare" as text and as JSON. One
 * table names every scalar figure once, so the text comparison and the JSON document list
 * the same statistics under the same names. */
#include "ioramp/trace.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

enum fig_kind {
	FIG_U64,
	FIG_DBL,
};

struct fig {
	const char *name; /* JSON key, raw unit */
	enum fig_kind kind;
	size_t off;
	const char *cmp_name; /* the comparison's row, scaled unit */
	double cmp_scale;
};

#define FIG_U(n, field, cn, sc)                                        \
	{                                                              \
		n, FIG_U64, offsetof(struct trace_figs, field), cn, sc \
	}
#define FIG_D(n, field, cn, sc)                                        \
	{                                                              \
		n, FIG_DBL, offsetof(struct trace_figs, field), cn, sc \
	}

/* clang-format off: a table reads better one figure per line */
static const struct fig figs_table[] = {
	FIG_U("records", nr_ios, "records", 1),
	FIG_U("reads", nr_by_op[TRACE_OP_READ], "reads", 1),
	FIG_U("writes", nr_by_op[TRACE_OP_WRITE], "writes", 1),
	FIG_U("flushes", nr_by_op[TRACE_OP_FLUSH], "flushes", 1),
	FIG_U("discards", nr_by_op[TRACE_OP_DISCARD], "discards", 1),
	FIG_U("read_bytes", bytes_by_op[TRACE_OP_READ], "read_mib", 1.0 / 1048576),
	FIG_U("write_bytes", bytes_by_op[TRACE_OP_WRITE], "write_mib", 1.0 / 1048576),
	FIG_U("duration_ns", duration_ns, "duration_s", 1e-9),
	FIG_D("iops", iops, "iops", 1),
	FIG_D("mb_per_s", mb_per_s, "mb_per_s", 1),
	FIG_D("peak_iops_1s", peak_iops_1s, "peak_iops_1s", 1),
	FIG_D("read_pct", read_pct, "read_pct", 1),
	FIG_D("read_bytes_pct", read_bytes_pct, "read_bytes_pct", 1),
	FIG_D("mean_size_bytes", mean_size_bytes, "mean_size_kib", 1.0 / 1024),
	FIG_D("mean_read_bytes", mean_read_bytes, "mean_read_kib", 1.0 / 1024),
	FIG_D("mean_write_bytes", mean_write_bytes, "mean_write_kib", 1.0 / 1024),
	FIG_D("seq_pct", seq_pct, "seq_pct", 1),
	FIG_D("near_pct", near_pct, "near_pct", 1),
	FIG_D("seq_read_pct", seq_read_pct, "seq_read_pct", 1),
	FIG_D("seq_write_pct", seq_write_pct, "seq_write_pct", 1),
	FIG_U("footprint_bytes", footprint_bytes, "footprint_mib", 1.0 / 1048576),
	FIG_U("footprint_4k_bytes", footprint_4k_bytes, "footprint_4k_mib", 1.0 / 1048576),
	FIG_U("footprint_grain_bytes", footprint_grain_bytes, "footprint_grain_bytes", 1),
	FIG_U("span_bytes", max_end_bytes, "span_gib", 1.0 / 1073741824),
	FIG_U("region_bytes", region_bytes, "region_kib", 1.0 / 1024),
	FIG_U("regions", nr_regions, "regions", 1),
	FIG_D("hot_1_pct", hot_pct[0], "hot_1_pct", 1),
	FIG_D("hot_5_pct", hot_pct[1], "hot_5_pct", 1),
	FIG_D("hot_10_pct", hot_pct[2], "hot_10_pct", 1),
	FIG_D("hot_20_pct", hot_pct[3], "hot_20_pct", 1),
	FIG_D("hot_25_pct", hot_pct[4], "hot_25_pct", 1),
	FIG_D("ia_mean_ns", ia_mean_ns, "ia_mean_us", 1e-3),
	FIG_D("ia_median_ns", ia_median_ns, "ia_median_us", 1e-3),
	FIG_D("ia_cv", ia_cv, "ia_cv", 1),
	FIG_D("burstiness", burstiness, "burstiness", 1),
	FIG_U("time_backwards", nr_time_backwards, "time_backwards", 1),
	FIG_U("latencies", nr_latencies, "latencies", 1),
	FIG_D("lat_mean_ns", lat_mean_ns, "lat_mean_us", 1e-3),
	FIG_D("lat_p50_ns", lat_p50_ns, "lat_p50_us", 1e-3),
	FIG_D("lat_p99_ns", lat_p99_ns, "lat_p99_us", 1e-3),
	FIG_D("lat_p99.9_ns", lat_p999_ns, "lat_p99.9_us", 1e-3),
	FIG_U("lat_max_ns", lat_max_ns, "lat_max_us", 1e-3),
};
/* clang-format on */

static double fig_value(const struct fig *g, const struct trace_figs *f)
{
	const char *p = (const char *)f + g->off;
	uint64_t u;
	double d;

	if (g->kind == FIG_U64) {
		memcpy(&u, p, sizeof(u));
		return (double)u;
	}
	memcpy(&d, p, sizeof(d));
	return d;
}

void trace_figs_name(const struct trace_figs *f, bool is_majmin, char *buf, size_t len)
{
	if (f->is_total)
		snprintf(buf, len, "total");
	else if (is_majmin)
		snprintf(buf, len, "device %u,%u", f->dev >> 20, f->dev & 0xfffff);
	else
		snprintf(buf, len, "device %u", f->dev);
}

/* "4K", "124K", "1M", "3584": sizes as VDbench and people write them. */
static void size_label(uint64_t bytes, char *buf, size_t len)
{
	if (bytes && bytes % (1 << 20) == 0)
		snprintf(buf, len, "%" PRIu64 "M", bytes >> 20);
	else if (bytes && bytes % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "K", bytes >> 10);
	else
		snprintf(buf, len, "%" PRIu64, bytes);
}

/* Binary-prefixed bytes with four significant digits: "3.758 MiB". */
static void bytes_label(double bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned int u = 0;

	while (bytes >= 1024 && u + 1 < IORAMP_ARRAY_SIZE(units)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.4g %s" : "%.0f %s", bytes, units[u]);
}

/* A duration in ns with four significant digits and a fitting unit: "71.29 ms". */
static void time_label(double ns, char *buf, size_t len)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.4g ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.4g us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.4g ms", ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", ns / 1e9);
}

#define ROW "  %-15s "

static void print_counts(const struct trace_figs *f, FILE *out)
{
	fprintf(out,
		ROW "%" PRIu64 " (reads %" PRIu64 ", writes %" PRIu64 "); flushes %" PRIu64
		    ", discards %" PRIu64 "\n",
		"records", f->nr_ios, f->nr_by_op[TRACE_OP_READ], f->nr_by_op[TRACE_OP_WRITE],
		f->nr_by_op[TRACE_OP_FLUSH], f->nr_by_op[TRACE_OP_DISCARD]);
	fprintf(out, ROW "%.3f s\n", "duration", (double)f->duration_ns / 1e9);
	fprintf(out, ROW "%.1f IOPS, %.3f MB/s", "rate", f->iops, f->mb_per_s);
	if (f->peak_iops_1s > 0)
		fprintf(out, "; busiest second %.0f IOPS", f->peak_iops_1s);
	fprintf(out, "\n" ROW "%.2f %% of I/Os, %.2f %% of bytes\n", "read", f->read_pct,
		f->read_bytes_pct);
}

static void print_sizes(const struct trace_figs *f, FILE *out)
{
	char a[32], b[32], range[72];
	const char *label = "size buckets";

	fprintf(out, ROW "%.1f KiB (reads %.1f KiB, writes %.1f KiB)\n", "mean size",
		f->mean_size_bytes / 1024, f->mean_read_bytes / 1024, f->mean_write_bytes / 1024);
	for (int i = 0; i < TRACE_NR_SIZE_BUCKETS; i++) {
		if (!f->size_hist[i])
			continue;
		size_label(i ? 1ull << i : 0, a, sizeof(a));
		size_label(2ull << i, b, sizeof(b));
		snprintf(range, sizeof(range), "[%s,%s)", a, b);
		fprintf(out, ROW "%-12s %10" PRIu64 " %5.1f %%\n", label, range, f->size_hist[i],
			100.0 * (double)f->size_hist[i] / (double)f->nr_ios);
		label = "";
	}
	fprintf(out, ROW, "top sizes");
	for (unsigned int i = 0; i < f->nr_top_sizes && i < 6; i++) {
		size_label(f->top_sizes[i].size_bytes, a, sizeof(a));
		fprintf(out, "%s%s %.1f %%", i ? ", " : "", a,
			100.0 * (double)f->top_sizes[i].nr / (double)f->nr_ios);
	}
	fprintf(out, "\n");
}

static void print_space(const struct trace_figs *f, FILE *out)
{
	char a[32], b[32], c[32];

	fprintf(out, ROW "%.2f %% start where the device's previous I/O ended; %.2f %% within %s\n",
		"sequential", f->seq_pct, f->near_pct, "128 KiB");
	fprintf(out, ROW "reads %.2f %%, writes %.2f %% (after the previous I/O of the same op)\n",
		"", f->seq_read_pct, f->seq_write_pct);
	bytes_label((double)f->footprint_bytes, a, sizeof(a));
	bytes_label((double)f->footprint_4k_bytes, b, sizeof(b));
	bytes_label((double)f->max_end_bytes, c, sizeof(c));
	fprintf(out, ROW "%s (4 KiB blocks: %s)%s; span %s\n", "footprint", a, b,
		f->is_footprint_exact ? "" : " approximate", c);
	if (!f->is_footprint_exact)
		fprintf(out, ROW "extents rounded to %" PRIu64 " bytes past the extent limit\n", "",
			f->footprint_grain_bytes);
	bytes_label((double)f->region_bytes, a, sizeof(a));
	fprintf(out,
		ROW "busiest 1/5/10/20/25 %% of %" PRIu64 " %s regions: %.1f/%.1f/%.1f/%.1f/"
		    "%.1f %% of I/Os\n",
		"hot bands", f->nr_regions, a, f->hot_pct[0], f->hot_pct[1], f->hot_pct[2],
		f->hot_pct[3], f->hot_pct[4]);
}

/* Only for traces that carry latencies. */
static void print_latency(const struct trace_figs *f, FILE *out)
{
	char mean[32], p50[32], p99[32], p999[32], max[32];

	if (!f->nr_latencies)
		return;
	time_label(f->lat_mean_ns, mean, sizeof(mean));
	time_label(f->lat_p50_ns, p50, sizeof(p50));
	time_label(f->lat_p99_ns, p99, sizeof(p99));
	time_label(f->lat_p999_ns, p999, sizeof(p999));
	time_label((double)f->lat_max_ns, max, sizeof(max));
	fprintf(out, ROW "mean %s, median %s, p99 %s, p99.9 %s, max %s", "latency", mean, p50, p99,
		p999, max);
	if (f->nr_latencies < f->nr_ios)
		fprintf(out, " (%" PRIu64 " of the I/Os carry one)", f->nr_latencies);
	fputc('\n', out);
}

void trace_figs_print(const struct trace_figs *f, bool is_majmin, FILE *out)
{
	char name[64], mean[32], median[32];

	trace_figs_name(f, is_majmin, name, sizeof(name));
	fprintf(out, "%s\n", name);
	print_counts(f, out);
	if (!f->nr_ios)
		return;
	print_sizes(f, out);
	print_space(f, out);
	time_label(f->ia_mean_ns, mean, sizeof(mean));
	time_label(f->ia_median_ns, median, sizeof(median));
	if (f->is_time_whole_s)
		fprintf(out,
			ROW "mean %s; median, CV and burstiness unknown (the times are whole "
			    "seconds)\n",
			"inter-arrival", mean);
	else
		fprintf(out, ROW "mean %s, median %s, CV %.2f, burstiness %.2f\n", "inter-arrival",
			mean, median, f->ia_cv, f->burstiness);
	if (f->nr_time_backwards)
		fprintf(out, ROW "%" PRIu64 " I/Os earlier than the one before (gap taken as 0)\n",
			"time order", f->nr_time_backwards);
	print_latency(f, out);
}

/* Sets key to v (a new reference, possibly NULL); false when anything failed. */
static bool json_put(json_t *obj, const char *key, json_t *v)
{
	return v && json_object_set_new(obj, key, v) == 0;
}

static json_t *json_u64(uint64_t v)
{
	return json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v);
}

static json_t *json_size_buckets(const struct trace_figs *f)
{
	json_t *arr = json_array();

	for (int i = 0; arr && i < TRACE_NR_SIZE_BUCKETS; i++) {
		json_t *b;

		if (!f->size_hist[i])
			continue;
		b = json_pack("{s:I,s:I,s:I,s:f}", "min_bytes", (json_int_t)(i ? 1ll << i : 0),
			      "max_bytes", (json_int_t)((2ll << i) - 1), "count",
			      (json_int_t)f->size_hist[i], "pct",
			      100.0 * (double)f->size_hist[i] / (double)f->nr_ios);
		if (!b || json_array_append_new(arr, b) < 0) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

static json_t *json_top_sizes(const struct trace_figs *f)
{
	json_t *arr = json_array();

	for (unsigned int i = 0; arr && i < f->nr_top_sizes; i++) {
		json_t *b =
			json_pack("{s:I,s:I,s:f}", "bytes", (json_int_t)f->top_sizes[i].size_bytes,
				  "count", (json_int_t)f->top_sizes[i].nr, "pct",
				  100.0 * (double)f->top_sizes[i].nr / (double)f->nr_ios);

		if (!b || json_array_append_new(arr, b) < 0) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

void *trace_figs_json(const struct trace_figs *f, bool is_majmin)
{
	json_t *obj = json_object();
	char name[64];
	bool is_ok = obj != NULL;

	if (f->is_total)
		snprintf(name, sizeof(name), "total");
	else if (is_majmin)
		snprintf(name, sizeof(name), "%u,%u", f->dev >> 20, f->dev & 0xfffff);
	else
		snprintf(name, sizeof(name), "%u", f->dev);
	is_ok = is_ok && json_put(obj, "device", json_string(name));
	for (size_t i = 0; is_ok && i < IORAMP_ARRAY_SIZE(figs_table); i++) {
		const struct fig *g = &figs_table[i];
		uint64_t u;

		memcpy(&u, (const char *)f + g->off, sizeof(u));
		is_ok = json_put(obj, g->name,
				 g->kind == FIG_U64 ? json_u64(u) : json_real(fig_value(g, f)));
	}
	is_ok = is_ok && json_put(obj, "footprint_exact", json_boolean(f->is_footprint_exact));
	is_ok = is_ok && json_put(obj, "times_whole_seconds", json_boolean(f->is_time_whole_s));
	is_ok = is_ok && json_put(obj, "size_buckets", json_size_buckets(f));
	is_ok = is_ok && json_put(obj, "top_sizes", json_top_sizes(f));
	if (!is_ok) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}
