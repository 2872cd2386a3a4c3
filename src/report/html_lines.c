/* The series of report.html's charts: point arrays owned by the page, the tick formats its
 * axes share, and the figure that holds one chart. */
#include "html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "svg.h"

int rep_html_line_init(struct rep_html_line *l, size_t nr)
{
	memset(l, 0, sizeof(*l));
	l->x = calloc(nr + 1, sizeof(*l->x));
	l->y = calloc(nr + 1, sizeof(*l->y));
	l->tips = calloc(nr + 1, sizeof(*l->tips));
	l->is_missed = calloc(nr + 1, sizeof(*l->is_missed));
	l->cap = nr;
	return l->x && l->y && l->tips && l->is_missed ? 0 : -ENOMEM;
}

void rep_html_lines_free(struct rep_html_line *l, size_t nr)
{
	for (size_t i = 0; l && i < nr; i++) {
		for (size_t p = 0; l[i].tips && p < l[i].nr; p++)
			free(l[i].tips[p]);
		free(l[i].tips);
		free(l[i].x);
		free(l[i].y);
		free(l[i].is_missed);
	}
	free(l);
}

void rep_html_fmt_si(double v, char *buf, size_t len)
{
	rep_fmt_si(v, buf, len);
}

void rep_html_fmt_plain(double v, char *buf, size_t len)
{
	rep_fmt_group(v, v == floor(v) ? 0 : 1, buf, len);
}

void rep_html_fmt_us_log(double us, char *buf, size_t len)
{
	if (us >= 1e6)
		snprintf(buf, len, "%g s", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, len, "%g ms", us / 1e3);
	else
		snprintf(buf, len, "%g \xc2\xb5s", us);
}

const char *rep_html_latency_unit(struct rep_html_line *l, size_t nr)
{
	double max = 0;

	for (size_t s = 0; s < nr; s++)
		for (size_t p = 0; p < l[s].nr; p++)
			max = l[s].y[p] > max ? l[s].y[p] : max;
	if (max <= 20000)
		return "\xc2\xb5s";
	for (size_t s = 0; s < nr; s++)
		for (size_t p = 0; p < l[s].nr; p++)
			l[s].y[p] /= 1e3;
	return "ms";
}

void rep_html_chart_write(FILE *f, struct rep_svg_chart *c, struct rep_html_line *l, size_t nr,
			  const enum rep_svg_style *styles)
{
	struct rep_svg_series *s = calloc(nr + 1, sizeof(*s));

	if (!s)
		return;
	for (size_t i = 0; i < nr; i++)
		s[i] = (struct rep_svg_series){ .name = l[i].name[0] ? l[i].name : NULL,
						.x = l[i].x,
						.y = l[i].y,
						.tips = l[i].tips,
						.is_hollow = l[i].is_missed,
						.nr = l[i].nr,
						.color = l[i].color,
						.style = styles[i] };
	c->series = s;
	c->nr_series = nr;
	fputs("<figure>", f);
	rep_svg_chart_write(c, f);
	fputs("</figure>\n", f);
	free(s);
}
