/* report.html on many hosts: IOPS per host over time, every run's intervals end to end with a
 * mark at each run's start, one line per host (execution.hosts), read from the intervals'
 * per-host totals. Nothing on one host. */
#include "html.h"

#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "svg.h"

static void fmt_plain(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%g", v);
}

static void fmt_iops(double v, char *buf, size_t len)
{
	rep_fmt_si(v, buf, len);
}

static size_t nr_intervals(const json_t *runs, const struct rep_doc *live)
{
	size_t i, total = 0;
	const json_t *run;

	json_array_foreach (runs, i, run)
		total += rep_doc_run_intervals(live, run, i, NULL, NULL);
	return total;
}

/* Every host's line: a step per interval, its rate held from its start to its end. */
struct host_lines {
	double **xy; /* host h's points: x in xy[2h], y in xy[2h + 1] */
	size_t *nr;  /* points per host */
	size_t nr_hosts;
	size_t cap; /* points each line has room for */
	double t;
};

static void add_steps(const json_t *iv, void *arg)
{
	struct host_lines *hl = arg;
	const json_t *hosts = json_object_get(iv, "hosts");
	double t = hl->t + rep_doc_num(iv, "elapsed_s");

	for (size_t h = 0; h < hl->nr_hosts; h++) {
		double *x = hl->xy[2 * h], *y = hl->xy[2 * h + 1];
		double iops = rep_doc_num(json_array_get(hosts, h), "iops");
		size_t *n = &hl->nr[h];

		if (*n + 2 > hl->cap)
			continue; /* more than were counted: cannot be, as both read the same runs */
		x[*n] = hl->t;
		y[(*n)++] = iops;
		x[*n] = t;
		y[(*n)++] = iops;
	}
	hl->t = t;
}

/* The runs' intervals end to end, with a mark at each run's start. */
static void host_lines(struct host_lines *hl, const json_t *runs, const struct rep_doc *live,
		       struct rep_svg_mark *marks, size_t *nr_marks)
{
	const json_t *run;
	size_t i;

	json_array_foreach (runs, i, run) {
		marks[(*nr_marks)++] =
			(struct rep_svg_mark){ hl->t, rep_doc_str(run, "name", "?") };
		rep_doc_run_intervals(live, run, i, add_steps, hl);
	}
}

void rep_html_host_chart(FILE *f, const json_t *doc, const struct rep_doc *live)
{
	const json_t *hosts = rep_doc_get(doc, "execution/hosts");
	const json_t *runs = json_object_get(doc, "runs");
	size_t nr_hosts = json_array_size(hosts);
	struct rep_svg_series *s = calloc(nr_hosts + 1, sizeof(*s));
	struct rep_svg_mark *marks = calloc(json_array_size(runs) + 1, sizeof(*marks));
	struct host_lines hl = { .xy = calloc(2 * nr_hosts + 1, sizeof(*hl.xy)),
				 .nr = calloc(nr_hosts + 1, sizeof(*hl.nr)),
				 .nr_hosts = nr_hosts };
	struct rep_svg_chart c = { .title = "IOPS per host",
				   .x = { .title = "Time (s)", .is_tight = true, .fmt = fmt_plain },
				   .y = { .title = "IOPS", .fmt = fmt_iops },
				   .note = rep_html_model_note(doc) };
	size_t nr_marks = 0;

	if (!nr_hosts || !s || !marks || !hl.xy || !hl.nr)
		goto out;
	hl.cap = 2 * nr_intervals(runs, live);
	for (size_t h = 0; h < 2 * nr_hosts; h++) {
		hl.xy[h] = calloc(hl.cap + 1, sizeof(double));
		if (!hl.xy[h])
			goto out;
	}
	host_lines(&hl, runs, live, marks, &nr_marks);
	for (size_t h = 0; h < nr_hosts; h++)
		s[h] = (struct rep_svg_series){
			.name = rep_doc_str(json_array_get(hosts, h), "name", "?"),
			.x = hl.xy[2 * h],
			.y = hl.xy[2 * h + 1],
			.nr = hl.nr[h],
			.color = rep_svg_color(h),
			.style = REP_SVG_LINE,
		};
	c.series = s;
	c.nr_series = nr_hosts;
	c.marks = marks;
	c.nr_marks = nr_marks;
	fputs("<section id=\"hosts\">\n<h2>Hosts</h2>\n<div class=\"meta\">", f);
	for (size_t h = 0; h < nr_hosts; h++) {
		const json_t *slaves = json_object_get(json_array_get(hosts, h), "slaves");

		fputs(h ? " \xc2\xb7 " : "", f);
		rep_html_escape(f, s[h].name);
		fprintf(f, ": %zu rank%s", json_array_size(slaves),
			json_array_size(slaves) == 1 ? "" : "s");
	}
	fputs("</div>\n<div class=\"charts\">\n", f);
	rep_html_figure(f, &c);
	fputs("</div>\n</section>\n", f);
out:
	for (size_t h = 0; hl.xy && h < 2 * nr_hosts; h++)
		free(hl.xy[h]);
	free(hl.xy);
	free(hl.nr);
	free(s);
	free(marks);
}
