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

static size_t nr_intervals(const json_t *runs)
{
	size_t i, total = 0;
	const json_t *run;

	json_array_foreach (runs, i, run)
		total += json_array_size(json_object_get(run, "intervals"));
	return total;
}

/* Host h's line: a step per interval, its rate held from its start to its end. */
static size_t host_line(const json_t *runs, size_t h, double *x, double *y,
			struct rep_svg_mark *marks, size_t *nr_marks)
{
	size_t i, k, n = 0;
	const json_t *run, *iv;
	double t = 0;

	json_array_foreach (runs, i, run) {
		if (marks) {
			marks[*nr_marks] =
				(struct rep_svg_mark){ t, rep_doc_str(run, "name", "?") };
			(*nr_marks)++;
		}
		json_array_foreach (json_object_get(run, "intervals"), k, iv) {
			double iops = rep_doc_num(json_array_get(json_object_get(iv, "hosts"), h),
						  "iops");

			x[n] = t;
			y[n++] = iops;
			t += rep_doc_num(iv, "elapsed_s");
			x[n] = t;
			y[n++] = iops;
		}
	}
	return n;
}

void rep_html_host_chart(FILE *f, const json_t *doc)
{
	const json_t *hosts = rep_doc_get(doc, "execution/hosts");
	const json_t *runs = json_object_get(doc, "runs");
	size_t nr_hosts = json_array_size(hosts), nr = 2 * nr_intervals(runs) + 1;
	struct rep_svg_series *s = calloc(nr_hosts + 1, sizeof(*s));
	struct rep_svg_mark *marks = calloc(json_array_size(runs) + 1, sizeof(*marks));
	double **xy = calloc(2 * nr_hosts + 1, sizeof(*xy));
	struct rep_svg_chart c = { .title = "IOPS per host",
				   .x = { .title = "Time (s)", .is_tight = true, .fmt = fmt_plain },
				   .y = { .title = "IOPS", .fmt = fmt_iops } };
	size_t nr_marks = 0;

	if (!nr_hosts || !s || !marks || !xy)
		goto out;
	for (size_t h = 0; h < nr_hosts; h++) {
		xy[2 * h] = calloc(nr, sizeof(double));
		xy[2 * h + 1] = calloc(nr, sizeof(double));
		if (!xy[2 * h] || !xy[2 * h + 1])
			goto out;
		s[h] = (struct rep_svg_series){
			.name = rep_doc_str(json_array_get(hosts, h), "name", "?"),
			.x = xy[2 * h],
			.y = xy[2 * h + 1],
			.nr = host_line(runs, h, xy[2 * h], xy[2 * h + 1], h ? NULL : marks,
					&nr_marks),
			.color = rep_svg_color(h),
			.style = REP_SVG_LINE,
		};
	}
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
	fputs("</div>\n<div class=\"charts\">\n<figure>", f);
	rep_svg_chart_write(&c, f);
	fputs("</figure>\n</div>\n</section>\n", f);
out:
	for (size_t h = 0; xy && h < 2 * nr_hosts; h++)
		free(xy[h]);
	free(xy);
	free(s);
	free(marks);
}
