/* Other people's results: a VDbench output directory read from its flatfile.html (VDbench's
 * own, or the one ioramp writes in VDbench's format) as a results document, so that `ioramp
 * report` draws its curves and `ioramp compare` sets them beside ioramp's. The flatfile has
 * one line per interval and per run average with the total's rate, MB/s, read% and the mean,
 * maximum and standard deviation of the service time in ms; it has no percentiles, no
 * response time from the scheduled arrival and nothing per SD or WD, so neither has the
 * document. A curve is a max run (reqrate 9999977) and the NAME_(P%) runs that follow it. */
#include "parts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The requested rate VDbench prints for the max run of a curve. */
#define FLAT_REQRATE_CURVE_MAX 9999977.0
/* At or above: an uncontrolled (max) rate. */
#define FLAT_REQRATE_MAX 9999900.0

enum flat_col {
	FC_RUN,
	FC_INTERVAL,
	FC_REQRATE,
	FC_RATE,
	FC_MBPS,
	FC_BYTES,
	FC_READ_PCT,
	FC_RESP,
	FC_RESP_MAX,
	FC_RESP_STD,
	FC_XFERSIZE,
	FC_THREADS,
	FC_RDPCT,
	FC_SEEKPCT,
	FC_QDEPTH,
	FC_TIMESTAMP,
	FC_VERSION,
	FC_TOD,
	FC_NR,
};

static const struct {
	const char *name;
	bool is_required;
} flat_cols[FC_NR] = {
	[FC_RUN] = { "Run", true },
	[FC_INTERVAL] = { "Interval", true },
	[FC_REQRATE] = { "reqrate", true },
	[FC_RATE] = { "rate", true },
	[FC_MBPS] = { "MB/sec", false },
	[FC_BYTES] = { "bytes/io", false },
	[FC_READ_PCT] = { "read%", false },
	[FC_RESP] = { "resp", true },
	[FC_RESP_MAX] = { "resp_max", false },
	[FC_RESP_STD] = { "resp_std", false },
	[FC_XFERSIZE] = { "xfersize", false },
	[FC_THREADS] = { "threads", false },
	[FC_RDPCT] = { "rdpct", false },
	[FC_SEEKPCT] = { "seekpct", false },
	[FC_QDEPTH] = { "queue_depth", false },
	[FC_TIMESTAMP] = { "timestamp", false },
	[FC_VERSION] = { "version", false },
	[FC_TOD] = { "tod", false },
};

/* The for-loop columns: runs of one name that differ there are told apart by them. */
static const enum flat_col loop_cols[] = { FC_THREADS, FC_XFERSIZE, FC_RDPCT, FC_SEEKPCT };
static const char *const loop_names[] = { "threads", "xfersize", "rdpct", "seekpct" };

struct flat_reader {
	const char *path;
	char *err;
	size_t errlen;
	int idx[FC_NR]; /* column of each, -1 when the header lacks it */
	size_t nr_cols;
	char *words[128];
	size_t nr_words;
	unsigned int line_nr;
};

/* Splits line in place at blanks. */
static void split(struct flat_reader *fr, char *line)
{
	char *save = NULL, *w;

	fr->nr_words = 0;
	for (w = strtok_r(line, " \t\r\n", &save); w && fr->nr_words < IORAMP_ARRAY_SIZE(fr->words);
	     w = strtok_r(NULL, " \t\r\n", &save))
		fr->words[fr->nr_words++] = w;
}

static const char *word(const struct flat_reader *fr, enum flat_col c)
{
	int i = fr->idx[c];

	return i >= 0 && (size_t)i < fr->nr_words ? fr->words[i] : NULL;
}

/* The number in column c, NaN when the header lacks it or it reads "n/a". -EINVAL with the
 * place in err when it is not a number. */
static int number(struct flat_reader *fr, enum flat_col c, double *out)
{
	const char *w = word(fr, c);
	char *end;

	*out = NAN;
	if (fr->idx[c] < 0 || (w && !strcmp(w, "n/a")))
		return 0;
	if (!w) {
		snprintf(fr->err, fr->errlen, "%s:%u: expected %zu columns (the header's); got %zu",
			 fr->path, fr->line_nr, fr->nr_cols, fr->nr_words);
		return -EINVAL;
	}
	*out = strtod(w, &end);
	if (end == w || *end || !isfinite(*out)) {
		snprintf(fr->err, fr->errlen, "%s:%u: column %s: expected a number, got '%s'",
			 fr->path, fr->line_nr, flat_cols[c].name, w);
		return -EINVAL;
	}
	return 0;
}

static int header(struct flat_reader *fr)
{
	for (size_t c = 0; c < FC_NR; c++) {
		fr->idx[c] = -1;
		for (size_t i = 0; i < fr->nr_words; i++)
			if (!strcasecmp(fr->words[i], flat_cols[c].name))
				fr->idx[c] = (int)i;
		if (fr->idx[c] < 0 && flat_cols[c].is_required) {
			snprintf(fr->err, fr->errlen,
				 "%s:%u: the header has no column %s; expected a VDbench flatfile",
				 fr->path, fr->line_nr, flat_cols[c].name);
			return -EINVAL;
		}
	}
	fr->nr_cols = fr->nr_words;
	return 0;
}

/* The line's time of day in seconds ("20:32:22.148"), NaN without one or with a field out of
 * a day's range ("10:00:1e84" would make the interval step overflow any integer). */
static double tod_s(const struct flat_reader *fr)
{
	unsigned int h, m;
	double sec;
	const char *w = word(fr, FC_TOD);

	if (!w || sscanf(w, "%2u:%2u:%lf", &h, &m, &sec) != 3)
		return NAN;
	if (h > 23 || m > 59 || !(sec >= 0 && sec < 61)) /* 60.x: a leap second */
		return NAN;
	return h * 3600.0 + m * 60 + sec;
}

/* A sample as results.json carries one, from the current line. */
static int sample(struct flat_reader *fr, json_t **out)
{
	double v[FC_NR];
	const char *label = word(fr, FC_INTERVAL);
	bool is_avg = !strncmp(label, "avg", 3);
	int ret = 0;

	for (size_t c = FC_REQRATE; c < FC_NR && !ret; c++)
		if (c != FC_TIMESTAMP && c != FC_VERSION && c != FC_TOD)
			ret = number(fr, c, &v[c]);
	if (ret)
		return ret;
	*out = json_pack("{s:o,s:o,s:b,s:b,s:o,s:{s:o,s:o,s:o,s:o,s:o,s:{s:o,s:o,s:o}}}", "label",
			 rep_json_text(label), "nr",
			 is_avg ? json_integer(0) : json_integer(strtol(label, NULL, 10)), "is_avg",
			 is_avg, "is_warmup", false, "tod_s", rep_doc_real(tod_s(fr)), "total",
			 "iops", rep_doc_real(v[FC_RATE]), "mb_per_sec", rep_doc_real(v[FC_MBPS]),
			 "bytes_per_io", rep_doc_real(v[FC_BYTES]), "read_pct",
			 rep_doc_real(v[FC_READ_PCT]), "qdepth", rep_doc_real(v[FC_QDEPTH]),
			 "service", "mean_us", rep_doc_real(v[FC_RESP] * 1e3), "stddev_us",
			 rep_doc_real(v[FC_RESP_STD] * 1e3), "max_us",
			 rep_doc_real(v[FC_RESP_MAX] * 1e3));
	return *out ? 0 : -ENOMEM;
}

/* VDbench's timestamp ("12/02/2026-20:32:22-UTC") as results.json writes times
 * ("2026-12-02T20:32:22.000Z"); other text as it is. */
static json_t *time_text(const char *ts)
{
	unsigned int mon, day, year, h, m, sec;
	char zone[8], buf[64];

	if (ts &&
	    sscanf(ts, "%2u/%2u/%4u-%2u:%2u:%2u-%7s", &mon, &day, &year, &h, &m, &sec, zone) == 7 &&
	    !strcmp(zone, "UTC")) {
		snprintf(buf, sizeof(buf), "%04u-%02u-%02uT%02u:%02u:%02u.000Z", year, mon, day, h,
			 m, sec);
		return json_string(buf);
	}
	return rep_json_text(ts);
}

/* A new run for the current line: name, rate, the loop columns' text (kept aside in
 * "_loops" until the for-loops are known). */
static json_t *new_run(struct flat_reader *fr)
{
	json_t *run, *loops = json_object();
	double reqrate;
	const char *name = word(fr, FC_RUN);
	const char *pct = strstr(name, "_(");
	char rd[256];

	if (!loops || number(fr, FC_REQRATE, &reqrate)) {
		json_decref(loops);
		return NULL;
	}
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(loop_cols); i++)
		if (word(fr, loop_cols[i]))
			json_object_set_new(loops, loop_names[i],
					    rep_json_text(word(fr, loop_cols[i])));
	snprintf(rd, sizeof(rd), "%.*s", pct ? (int)(pct - name) : (int)strlen(name), name);
	run = json_pack(
		"{s:o,s:o,s:{s:s,s:o,s:o},s:s,s:o,s:[],s:n,s:o}", "name", rep_json_text(name), "rd",
		rep_json_text(rd), "rate", "kind",
		reqrate >= FLAT_REQRATE_CURVE_MAX - 0.5 && reqrate < FLAT_REQRATE_CURVE_MAX + 0.5
			? "curve_max"
		: reqrate >= FLAT_REQRATE_MAX ? "max"
		: pct			      ? "curve_point"
					      : "fixed",
		"target_iops", reqrate >= FLAT_REQRATE_MAX ? json_null() : rep_doc_real(reqrate),
		"pct", pct ? rep_doc_real(strtod(pct + 2, NULL)) : json_null(), "for_loops", "None",
		"start_time", time_text(word(fr, FC_TIMESTAMP)), "intervals", "average", "_loops",
		loops);
	if (!run)
		fr->err[0] = '\0';
	return run;
}

/* Reads the lines into runs. Returns 0 or -errno with err set. */
static int read_runs(struct flat_reader *fr, FILE *f, json_t *runs, json_t *exec)
{
	char line[8192];
	json_t *run = NULL;
	bool has_header = false;

	while (fgets(line, sizeof(line), f)) {
		json_t *smp;
		int ret;

		fr->line_nr++;
		if (line[0] == '*' || line[0] == '<')
			continue;
		split(fr, line);
		if (!fr->nr_words)
			continue;
		if (!has_header) {
			ret = header(fr);
			if (ret)
				return ret;
			has_header = true;
			continue;
		}
		if (!word(fr, FC_RUN) || !word(fr, FC_INTERVAL)) {
			snprintf(fr->err, fr->errlen,
				 "%s:%u: expected %zu columns (the header's); got %zu", fr->path,
				 fr->line_nr, fr->nr_cols, fr->nr_words);
			return -EINVAL;
		}
		if (word(fr, FC_VERSION) && strcmp(word(fr, FC_VERSION), "n/a") &&
		    !json_object_get(exec, "version"))
			json_object_set_new(exec, "version", rep_json_text(word(fr, FC_VERSION)));
		if (!run) {
			run = new_run(fr);
			if (!run)
				return fr->err[0] ? -EINVAL : -ENOMEM;
			if (json_array_append_new(runs, run))
				return -ENOMEM;
		}
		ret = sample(fr, &smp);
		if (ret)
			return ret;
		if (json_is_true(json_object_get(smp, "is_avg"))) {
			json_object_set_new(run, "observed_iops",
					    json_deep_copy(rep_doc_get(smp, "total/iops")));
			json_object_set_new(run, "average", smp);
			run = NULL; /* the average ends the run */
		} else if (json_array_append_new(json_object_get(run, "intervals"), smp)) {
			return -ENOMEM;
		}
	}
	if (!has_header) {
		snprintf(fr->err, fr->errlen, "%s:%u: no header line; expected a VDbench flatfile",
			 fr->path, fr->line_nr);
		return -EINVAL;
	}
	return 0;
}

static int by_value(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* The flatfile does not say how long an interval is: each interval of a run gets the median
 * step between the times of day of its lines, in whole seconds (1 at least), and the run's
 * "interval_s" says it; the time of day kept aside goes. */
static void set_intervals(json_t *runs)
{
	json_t *run, *iv;
	size_t i, j;

	json_array_foreach (runs, i, run) {
		json_t *ivs = json_object_get(run, "intervals");
		size_t n = json_array_size(ivs), nr = 0;
		double *steps = calloc(n + 1, sizeof(*steps)), step = 1;

		for (j = 1; steps && j < n; j++) {
			double d = rep_doc_num(json_array_get(ivs, j), "tod_s") -
				   rep_doc_num(json_array_get(ivs, j - 1), "tod_s");

			if (d > 0) /* NaN and midnight left out */
				steps[nr++] = d;
		}
		if (nr) {
			qsort(steps, nr, sizeof(*steps), by_value);
			step = round(steps[nr / 2]) < 1 ? 1 : round(steps[nr / 2]);
		}
		free(steps);
		json_object_set_new(run, "interval_s", json_integer((json_int_t)step));
		json_array_foreach (ivs, j, iv) {
			json_object_del(iv, "tod_s");
			json_object_set_new(iv, "elapsed_s", json_real(step));
		}
		iv = json_object_get(run, "average");
		if (json_is_object(iv)) { /* "avg_2-6": five intervals */
			unsigned int lo = 1, hi = (unsigned int)n;

			sscanf(rep_doc_str(iv, "label", ""), "avg_%u-%u", &lo, &hi);
			json_object_del(iv, "tod_s");
			json_object_set_new(iv, "nr_intervals",
					    json_integer(hi >= lo ? hi - lo + 1 : 0));
			json_object_set_new(iv, "elapsed_s",
					    json_real(step * (hi >= lo ? hi - lo + 1 : 0)));
		}
	}
}

/* A size in bytes as for-loops write it ("4k", "1m", "512"); other text as it is. */
static const char *size_text(const char *bytes, char *buf, size_t len)
{
	char *end;
	unsigned long long v = strtoull(bytes, &end, 10);

	if (*end || end == bytes || !v)
		return bytes;
	if (v % (1024 * 1024) == 0)
		snprintf(buf, len, "%llum", v / (1024 * 1024));
	else if (v % 1024 == 0)
		snprintf(buf, len, "%lluk", v / 1024);
	else
		return bytes;
	return buf;
}

/* Whether a loop column's value differs among the runs named name. */
static bool is_looped(const json_t *runs, const char *name, const char *col)
{
	const char *first = NULL;
	const json_t *r;
	size_t i;

	json_array_foreach (runs, i, r) {
		const char *v;

		if (strcmp(name, rep_doc_str(r, "name", "")))
			continue;
		v = rep_doc_str(json_object_get(r, "_loops"), col, NULL);
		if (!v)
			continue;
		if (first && strcmp(first, v))
			return true;
		first = first ? first : v;
	}
	return false;
}

/* Whether the fixed rates of the runs named name differ: an iorate=(200,400) list, which a
 * flatfile tells only by their requested rates. */
static bool is_rate_looped(const json_t *runs, const char *name)
{
	double first = NAN;
	const json_t *r;
	size_t i;

	json_array_foreach (runs, i, r) {
		double v = rep_doc_num(r, "rate/target_iops");

		if (strcmp(name, rep_doc_str(r, "name", "")) ||
		    strcmp(rep_doc_str(r, "rate/kind", ""), "fixed"))
			continue;
		if (!isnan(first) && v != first)
			return true;
		first = isnan(first) ? v : first;
	}
	return false;
}

static bool all_averaged(const json_t *runs)
{
	const json_t *r;
	size_t i;

	json_array_foreach (runs, i, r)
		if (!json_is_object(json_object_get(r, "average")))
			return false;
	return true;
}

/* Runs of one name are a for-loop: each gets "threads=4 xfersize=4k", the values of the loop
 * columns that differ among them, and "iorate=200" when their fixed rates differ, as its
 * for-loops. */
static void set_loops(json_t *runs)
{
	json_t *r;
	size_t i;

	json_array_foreach (runs, i, r) {
		const char *name = rep_doc_str(r, "name", "");
		char text[256] = "";
		size_t n = 0;

		for (size_t c = 0; c < IORAMP_ARRAY_SIZE(loop_cols); c++) {
			const char *v =
				rep_doc_str(json_object_get(r, "_loops"), loop_names[c], NULL);

			char size[32];

			if (!v || n >= sizeof(text) || !is_looped(runs, name, loop_names[c]))
				continue;
			if (loop_cols[c] == FC_XFERSIZE) /* 4096 as the for-loops write it: 4k */
				v = size_text(v, size, sizeof(size));
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s=%s", n ? " " : "",
					      loop_names[c], v);
		}
		if (n < sizeof(text) && !strcmp(rep_doc_str(r, "rate/kind", ""), "fixed") &&
		    is_rate_looped(runs, name)) /* as VDbench's console says "iorate=200" */
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%siorate=%g",
					      n ? " " : "", rep_doc_num(r, "rate/target_iops"));
		if (text[0])
			json_object_set_new(r, "for_loops", json_string(text));
	}
	json_array_foreach (runs, i, r)
		json_object_del(r, "_loops");
}

/* A curve point from run idx. */
static json_t *point(const json_t *run, size_t idx)
{
	const json_t *t = rep_doc_get(run, "average/total");

	return json_pack(
		"{s:I,s:O,s:O,s:O,s:b,s:n,s:O,s:O,s:O,s:O,s:O,s:O,s:n}", "run", (json_int_t)idx,
		"name", json_object_get(run, "name"), "pct", rep_doc_get(run, "rate/pct"),
		"target_iops", rep_doc_get(run, "rate/target_iops"), "is_target_met", true,
		"limited_by", "iops", json_object_get(t, "iops"), "mb_per_sec",
		json_object_get(t, "mb_per_sec"), "read_pct", json_object_get(t, "read_pct"),
		"bytes_per_io", json_object_get(t, "bytes_per_io"), "qdepth",
		json_object_get(t, "qdepth"), "service", json_object_get(t, "service"), "response");
}

/* Whether a point reached its target: within 2%, as ioramp's rule. */
static void mark_met(json_t *p)
{
	double target = rep_doc_num(p, "target_iops"), iops = rep_doc_num(p, "iops");

	if (target > 0 && iops == iops)
		json_object_set_new(p, "is_target_met", json_boolean(iops >= target * 0.98));
}

/* The curves: each curve_max run and the points of its RD that follow it. */
static int make_curves(json_t *runs, json_t *curves, const double *sla_ns, size_t nr_sla)
{
	json_t *cur = NULL;
	const json_t *r;
	size_t i;

	json_array_foreach (runs, i, r) {
		const char *kind = rep_doc_str(r, "rate/kind", "");
		json_t *p;

		if (!json_is_object(json_object_get(r, "average")))
			continue;
		if (!strcmp(kind, "curve_max")) {
			cur = json_pack("{s:s,s:n,s:O,s:O,s:[],s:[],s:I,s:o,s:[],s:b}", "kind",
					"curve", "x", "rd", json_object_get(r, "rd"), "for_loops",
					json_object_get(r, "for_loops"), "sds", "wds", "max_run",
					(json_int_t)i, "max", point(r, i), "points", "is_complete",
					true);
			if (!cur || json_array_append_new(curves, cur))
				return -ENOMEM;
			continue;
		}
		if (!cur || strcmp(kind, "curve_point") ||
		    strcmp(rep_doc_str(r, "rd", ""), rep_doc_str(cur, "rd", "")))
			continue;
		p = point(r, i);
		if (!p)
			return -ENOMEM;
		mark_met(p);
		if (json_array_append_new(json_object_get(cur, "points"), p))
			return -ENOMEM;
	}
	json_array_foreach (curves, i, r)
		if (rep_doc_curve_sla((json_t *)r, sla_ns, nr_sla))
			return -ENOMEM;
	return 0;
}

/* VDbench's version from the logfile.html beside the flatfile ("Vdbench distribution:
 * vdbench50407" gives "5.04.07"), set as execution/engine/version; when ioramp wrote the
 * directory (its logfile's "ioramp VERSION (...)" line), execution/engine/written_by is
 * "ioramp VERSION" instead. Nothing when that file is missing or says neither. */
static void set_version(const char *path, json_t *engine)
{
	static const char key[] = "distribution: vdbench";
	const char *slash = strrchr(path, '/');
	char log[4096], line[512], ver[32], text[64];
	FILE *f;

	if (snprintf(log, sizeof(log), "%.*slogfile.html", slash ? (int)(slash - path + 1) : 0,
		     path) >= (int)sizeof(log) ||
	    !(f = fopen(log, "r")))
		return;
	for (int i = 0; i < 20 && fgets(line, sizeof(line), f); i++) {
		const char *at = strstr(line, key);
		size_t n = 0;

		if (!strncmp(line, "ioramp ", 7)) {
			line[7 + strcspn(line + 7, " \t\r\n")] = '\0';
			json_object_set_new(engine, "written_by", json_string(line));
			break;
		}
		if (!at)
			continue;
		at += sizeof(key) - 1;
		while (n < sizeof(ver) - 1 && at[n] >= '0' && at[n] <= '9')
			ver[n] = at[n], n++;
		ver[n] = '\0';
		if (n >= 5) /* M mm pp */
			snprintf(text, sizeof(text), "%.*s.%.2s.%.2s", (int)(n - 4), ver,
				 ver + n - 4, ver + n - 2);
		else
			snprintf(text, sizeof(text), "%.*s", (int)strcspn(at, " \t\r\n<"), at);
		if (text[0])
			json_object_set_new(engine, "version", json_string(text));
		break;
	}
	fclose(f);
}

int rep_doc_load_flat(const char *path, json_t **out, char *err, size_t errlen)
{
	struct flat_reader fr = { .path = path, .err = err, .errlen = errlen };
	FILE *f = fopen(path, "r");
	json_t *doc = NULL, *sla = json_array();
	int ret = -ENOMEM;

	*out = NULL;
	err[0] = '\0';
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(-ret));
		json_decref(sla);
		return ret;
	}
	for (size_t i = 0; sla && i < REP_SLA_DEFAULT_NR; i++)
		json_array_append_new(sla, rep_doc_real(rep_sla_default_ns[i] / 1e3));
	doc = json_pack("{s:s,s:{s:[],s:n,s:{s:s,s:s,s:b},s:i,s:o,s:o},s:[],s:[],s:[]}", "schema",
			REP_DOC_SCHEMA, "execution", "command_line", "start_time", "engine", "name",
			"vdbench", "spec", "vdbench", "is_modelled", false, "mb_bytes", 1048576,
			"sla_us", sla, "source", rep_json_text(path), "plan", "runs", "curves");
	if (!doc)
		goto out;
	ret = read_runs(&fr, f, json_object_get(doc, "runs"), json_object_get(doc, "execution"));
	if (ret)
		goto out;
	set_loops(json_object_get(doc, "runs"));
	set_version(path, json_object_get(json_object_get(doc, "execution"), "engine"));
	set_intervals(json_object_get(doc, "runs"));
	/* every run reached its average: the flatfile of an execution that ended (a run cut
	 * short has intervals and no avg_ line); else the status stays unknown */
	json_object_set_new(json_object_get(doc, "execution"), "status",
			    all_averaged(json_object_get(doc, "runs")) ? json_integer(0)
								       : json_null());
	json_object_set(
		json_object_get(doc, "execution"), "start_time",
		json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "start_time"));
	if (!rep_doc_get(doc, "runs/0")) {
		snprintf(err, errlen, "%s:%u: no data lines after the header", path, fr.line_nr);
		ret = -EINVAL;
		goto out;
	}
	ret = make_curves(json_object_get(doc, "runs"), json_object_get(doc, "curves"),
			  rep_sla_default_ns, REP_SLA_DEFAULT_NR);
out:
	fclose(f);
	if (ret == -ENOMEM && !err[0])
		snprintf(err, errlen, "%s: out of memory", path);
	if (ret) {
		json_decref(doc);
		return ret;
	}
	*out = doc;
	return 0;
}
