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
	rep_html_figure(f, c);
	free(s);
}

/* "iops-vs-average-latency" from a chart title. */
static void file_stem(const char *title, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *p = title ? title : "chart"; *p && n + 1 < len; p++) {
		char ch = *p;

		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.')
			buf[n++] = ch;
		else if (ch >= 'A' && ch <= 'Z')
			buf[n++] = (char)(ch - 'A' + 'a');
		else if (n && buf[n - 1] != '-')
			buf[n++] = '-';
	}
	while (n && buf[n - 1] == '-')
		n--;
	buf[n] = '\0';
}

/* The bytes of a data: URL, percent-encoded but for the characters that need no escape in
 * a URL or in a double-quoted HTML attribute. */
static void data_url(FILE *f, const char *text, size_t len)
{
	static const char keep[] = "-_.~!*'(),;:/=";

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)text[i];

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || (ch && strchr(keep, ch)))
			fputc(ch, f);
		else
			fprintf(f, "%%%02X", ch);
	}
}

/* The downloaded file has no page around it: its copy carries the page's svg rules in a
 * <style> after the opening tag. */
static void svg_with_style(FILE *f, const char *svg, size_t len)
{
	const char *open_end = memchr(svg, '>', len), *line;
	size_t head = open_end ? (size_t)(open_end - svg) + 1 : 0;

	data_url(f, svg, head);
	data_url(f, "<style>", 7);
	for (line = rep_html_style; *line;) {
		size_t n = strcspn(line, "\n");

		if (!strncmp(line, "svg", 3))
			data_url(f, line, n);
		line += n + (line[n] == '\n');
	}
	data_url(f, "</style>", 8);
	data_url(f, svg + head, len - head);
}

void rep_html_figure(FILE *f, const struct rep_svg_chart *c)
{
	char *svg = NULL, stem[96];
	size_t len = 0;
	FILE *m = open_memstream(&svg, &len);

	fputs("<figure>", f);
	if (!m) {
		rep_svg_chart_write(c, f);
		fputs("</figure>\n", f);
		return;
	}
	rep_svg_chart_write(c, m);
	if (fclose(m) || !svg) {
		free(svg);
		rep_svg_chart_write(c, f);
		fputs("</figure>\n", f);
		return;
	}
	fwrite(svg, 1, len, f);
	file_stem(c->title, stem, sizeof(stem));
	fprintf(f,
		"<figcaption><a class=\"dl\" download=\"%s.svg\" href=\"data:image/svg+xml;"
		"charset=utf-8,",
		stem);
	svg_with_style(f, svg, len);
	fputs("\">SVG</a></figcaption></figure>\n", f);
	free(svg);
}
