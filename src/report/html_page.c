/* report.html's page: the style sheet, the execution header, one section per workload (its
 * curves' charts and tables) and the table of every run. One self-contained file: inline CSS
 * and SVG, no script, no font or image to fetch. */
#include "html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"
#include "svg.h"

const char rep_html_style[] =
	":root{--fg:#1f2933;--muted:#616e7c;--line:#e4e7eb;--head:#f0f3f7;--accent:#2f6fb3}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;background:#f5f7fa;color:var(--fg);font:14px/1.45 system-ui,-apple-system,"
	"'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}\n"
	"main{max-width:1280px;margin:0 auto;padding:26px 28px 40px}\n"
	"h1{font-size:24px;margin:0 0 6px;letter-spacing:-.01em}\n"
	"h1 span{color:var(--accent)}\n"
	"h2{font-size:19px;margin:0 0 4px}\n"
	"h3{font-size:14px;margin:22px 0 8px;color:#3e4c59;text-transform:uppercase;"
	"letter-spacing:.04em}\n"
	".meta{color:var(--muted);font-size:13px}\n"
	".modelled{background:#fff4e5;border:1px solid #f0b429;border-radius:6px;padding:8px 12px;"
	"margin:10px 0 0;font-size:13.5px}\n"
	".meta b{color:var(--fg);font-weight:600}\n"
	".invalid{background:#fdecea;border:1px solid #e57373;border-radius:6px;padding:8px 12px;"
	"margin:10px 0 0;font-size:13.5px}\n"
	"nav.files a{margin:0 0 0 10px}\n"
	"ul.setup{margin:8px 0 12px;padding-left:18px}\n"
	"pre.cmd{background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 12px;"
	"margin:10px 0 0;font-size:12.5px;white-space:pre-wrap;word-break:break-all}\n"
	"nav{margin:14px 0 0;font-size:13px}\n"
	"nav a{color:var(--accent);text-decoration:none;margin-right:14px}\n"
	"section{background:#fff;border:1px solid var(--line);border-radius:10px;"
	"padding:20px 22px 22px;margin:22px 0;box-shadow:0 1px 2px rgba(31,41,51,.05)}\n"
	".kpis{display:flex;flex-wrap:wrap;gap:12px;margin:14px 0 6px}\n"
	".kpi{border:1px solid var(--line);border-left:4px solid var(--c);border-radius:6px;"
	"padding:8px 14px;min-width:210px}\n"
	".kpi .n{font-size:21px;font-weight:650;letter-spacing:-.01em}\n"
	".kpi .l{font-size:12px;color:var(--muted)}\n"
	".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:18px;"
	"margin-top:16px}\n"
	"figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:6px 6px 2px}\n"
	"svg.chart{width:100%;height:auto;display:block}\n"
	"figcaption{text-align:right;font-size:11.5px;margin:0 6px 2px}\n"
	"figcaption a.dl{color:var(--accent);text-decoration:none}\n"
	"svg text{font-family:inherit}\n"
	"svg .ctitle{font-size:15px;font-weight:600;fill:#1f2933}\n"
	"svg .tick{font-size:11.5px;fill:#616e7c}\n"
	"svg .atitle{font-size:12.5px;fill:#3e4c59}\n"
	"svg .grid{stroke:#e6e9ee;stroke-width:1}\n"
	"svg .grid.minor{stroke:#f2f4f7}\n"
	"svg .axis{stroke:#9aa5b1;stroke-width:1}\n"
	"svg .mark{stroke:#cbd2d9;stroke-dasharray:3 3}\n"
	"svg .mlabel{font-size:10.5px;fill:#7b8794}\n"
	"svg .cnote{font-size:11px;fill:#b44d12}\n"
	"svg .line{fill:none;stroke-width:2.2;stroke-linejoin:round;stroke-linecap:round}\n"
	"svg .line.dashed{stroke-dasharray:7 5}\n"
	"svg .area{opacity:.15}\n"
	"svg .pt{stroke:#fff;stroke-width:1.5}\n"
	"svg .ov{fill:#fff;stroke-width:2}\n"
	"svg .pt.missed,svg .missed-key{fill:#fff;stroke-width:2}\n"
	"svg .legend text{font-size:12px;fill:#323f4b}\n"
	"svg .nodata{font-size:14px;fill:#9aa5b1}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;width:100%;font-size:12.5px;"
	"font-variant-numeric:tabular-nums}\n"
	"th,td{padding:5px 9px;border-bottom:1px solid var(--line);text-align:right;"
	"white-space:nowrap}\n"
	"th.t,td.t{text-align:left}\n"
	"thead th{background:var(--head);font-weight:600;color:#3e4c59}\n"
	"thead th.grp{text-align:center;border-bottom:2px solid #d3dae2}\n"
	"tbody tr:nth-child(even){background:#fafbfc}\n"
	"tbody tr:hover{background:#eef4fb}\n"
	"td.muted{color:#9aa5b1}\n"
	"tr.missed td{color:#b44d12}\n"
	"footer{color:var(--muted);font-size:12.5px;margin-top:26px}\n";

static void head(FILE *f, const json_t *doc)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>ioramp report \xe2\x80\x94 ",
	      f);
	rep_html_escape(f, rep_doc_str(doc, "execution/start_time", ""));
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", rep_html_style);
}

static const char *status_text(const json_t *exec)
{
	const json_t *st = json_object_get(exec, "status");

	if (!json_is_integer(st))
		return "running";
	switch (json_integer_value(st)) {
	case 0:
		return "completed";
	case 130:
	case 143:
		return "interrupted";
	default:
		return "failed";
	}
}

/* Another tool's results: what they are and the file read instead of engine, seed and ioramp
 * version, which they do not have. */
static void other_meta(FILE *f, const json_t *doc, const json_t *exec)
{
	const char *src = rep_html_other_source(doc), *slash = strrchr(src, '/');

	fputs("</b> \xc2\xb7 ", f);
	rep_html_other_what(f, doc);
	fputs(", read from <b>", f);
	rep_html_escape(f, slash ? slash + 1 : src);
	fprintf(f, "</b> \xc2\xb7 %zu runs, %zu curves \xc2\xb7 <b>%s</b>",
		json_array_size(json_object_get(doc, "runs")),
		json_array_size(json_object_get(doc, "curves")), status_text(exec));
}

static void header(FILE *f, const json_t *doc, const char *files_href)
{
	const json_t *exec = json_object_get(doc, "execution"), *arg;
	size_t i;

	fputs("<header>\n<h1><span>ioramp</span> report</h1>\n<div class=\"meta\">Started <b>", f);
	rep_html_escape(f, rep_doc_str(exec, "start_time", "?"));
	if (rep_html_other_source(doc)) {
		other_meta(f, doc, exec);
	} else {
		fputs("</b> \xc2\xb7 engine <b>", f);
		rep_html_escape(f, rep_doc_engine(doc, "?"));
		fputs("</b> \xc2\xb7 seed <b>", f);
		rep_html_escape(f, rep_doc_str(exec, "seed", "?"));
		fprintf(f,
			"</b> \xc2\xb7 %zu runs, %zu curves \xc2\xb7 <b>%s</b> \xc2\xb7 ioramp ",
			json_array_size(json_object_get(doc, "runs")),
			json_array_size(json_object_get(doc, "curves")), status_text(exec));
		rep_html_escape(f, rep_doc_str(exec, "version", "?"));
	}
	fputs("</div>\n", f);
	if (json_array_size(json_object_get(exec, "command_line"))) {
		fputs("<pre class=\"cmd\">", f);
		json_array_foreach (json_object_get(exec, "command_line"), i, arg) {
			fputs(i ? " " : "", f);
			rep_html_escape(f, json_string_value(arg));
		}
		fputs("</pre>\n", f);
	}
	rep_html_model_banner(f, doc);
	rep_html_validity_banner(f, doc);
	rep_html_output_links(f, doc, files_href);
	fputs("</header>\n", f);
}

const char *rep_html_model_note(const json_t *doc)
{
	char text[768];

	return doc && rep_doc_model_text(doc, text, sizeof(text)) ? REP_HTML_MODEL_NOTE : NULL;
}

void rep_html_model_banner(FILE *f, const json_t *doc)
{
	char text[768];

	if (!doc || !rep_doc_model_text(doc, text, sizeof(text)))
		return;
	fputs("<div class=\"modelled\"><b>Modelled drives.</b> ", f);
	rep_html_escape(f, text);
	fputs("</div>\n", f);
}

/* ---- workload groups ----------------------------------------------------------------------- */

/* One group: the same WDs, and for sweeps the same swept parameter (a sweep of threads and
 * one of iorate cannot share an x axis). */
static bool same_wds(const json_t *a, const json_t *b)
{
	return json_equal(json_object_get(a, "wds"), json_object_get(b, "wds")) &&
	       json_equal(json_object_get(a, "x"), json_object_get(b, "x"));
}

/* Groups curves by workload, in order of first appearance. Returns the count, or -ENOMEM. */
static int make_groups(const json_t *doc, const struct rep_doc *live, struct rep_html_group **out)
{
	const json_t *curves = json_object_get(doc, "curves"), *c;
	size_t n = json_array_size(curves), nr = 0, i;
	struct rep_html_group *g = calloc(n + 1, sizeof(*g));

	*out = g;
	if (!g)
		return -ENOMEM;
	json_array_foreach (curves, i, c) {
		size_t k = 0;

		while (k < nr && !same_wds(g[k].curves[0], c))
			k++;
		if (k == nr) {
			g[nr].curves = calloc(n, sizeof(*g[nr].curves));
			if (!g[nr].curves)
				return -ENOMEM;
			nr++;
		}
		g[k].curves[g[k].nr++] = c;
		g[k].note = rep_html_model_note(doc);
		g[k].live = live;
	}
	return (int)nr;
}

static void groups_free(struct rep_html_group *g, int nr)
{
	for (int i = 0; g && i < nr; i++)
		free(g[i].curves);
	free(g);
}

/* Whether curves of g differ in key. */
static bool differs(const struct rep_html_group *g, const char *key)
{
	for (size_t i = 1; i < g->nr; i++)
		if (!json_equal(json_object_get(g->curves[0], key),
				json_object_get(g->curves[i], key)))
			return true;
	return false;
}

const char *rep_html_curve_label(const struct rep_html_group *g, size_t i, char *buf, size_t len)
{
	const json_t *c = g->curves[i], *v;
	bool by_rd = differs(g, "rd"), by_loops = differs(g, "for_loops");
	size_t o = 0, k;

	if (g->nr == 1 || (!by_rd && !by_loops && !differs(g, "sds"))) {
		rep_doc_curve_name(c, buf, len);
		if (g->nr > 1 && strlen(buf) + 8 < len)
			snprintf(buf + strlen(buf), len - strlen(buf), " #%zu", i + 1);
		return buf;
	}
	buf[0] = '\0';
	if (by_rd)
		o += (size_t)snprintf(buf, len, "%s", rep_doc_str(c, "rd", "?"));
	if (by_loops && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? " " : "",
				      rep_doc_str(c, "for_loops", ""));
	if (!by_rd && !by_loops) {
		json_array_foreach (json_object_get(c, "sds"), k, v) {
			if (o < len)
				o += (size_t)snprintf(buf + o, len - o, "%s%s",
						      k ? "," : "sd=", json_string_value(v));
		}
	}
	return buf;
}

static void join_names(FILE *f, const json_t *a)
{
	const json_t *v;
	size_t i;

	json_array_foreach (a, i, v) {
		fputs(i ? ", " : "", f);
		rep_html_escape(f, json_string_value(v));
	}
}

/* Whether key ("xfersize") is an outer loop of the group's curves: each curve has its own
 * value (their legends say it), so the first run's is not the group's. */
static bool is_outer_loop(const struct rep_html_group *g, const char *key)
{
	char pat[32];

	snprintf(pat, sizeof(pat), "%s=", key);
	return g->nr > 1 && differs(g, "for_loops") &&
	       strstr(rep_doc_str(g->curves[0], "for_loops", ""), pat);
}

/* "4 KiB · 70% read · seekpct 100 · 16 threads" from the first run of the group; a sweep's
 * own parameter varies, so it is named as swept instead ("sweep of threads"), and an outer
 * loop's is left to the curves' legends. */
static void params_line(FILE *f, const json_t *doc, const struct rep_html_group *g)
{
	size_t *idx =
		calloc(json_array_size(json_object_get(g->curves[0], "points")) + 1, sizeof(*idx));
	const char *x = rep_doc_str(g->curves[0], "x", "");
	const json_t *pr;
	double xfer, v;

	if (!idx || !rep_html_curve_runs(g->curves[0], idx)) {
		free(idx);
		return;
	}
	pr = rep_doc_get(json_array_get(json_object_get(doc, "runs"), idx[0]), "params");
	free(idx);
	xfer = strcmp(x, "xfersize") && !is_outer_loop(g, "xfersize")
		       ? rep_doc_num(pr, "xfersize_bytes")
		       : 0;
	if (xfer == -1)
		fputs(" \xc2\xb7 mixed transfer sizes", f);
	else if (xfer >= 1024 && (int64_t)xfer % 1024 == 0)
		fprintf(f, " \xc2\xb7 %g KiB", xfer / 1024);
	else if (xfer > 0)
		fprintf(f, " \xc2\xb7 %g bytes", xfer);
	v = strcmp(x, "rdpct") && !is_outer_loop(g, "rdpct") ? rep_doc_num(pr, "rdpct") : NAN;
	if (!isnan(v))
		fprintf(f, " \xc2\xb7 %g%% read", v);
	v = strcmp(x, "seekpct") && !is_outer_loop(g, "seekpct") ? rep_doc_num(pr, "seekpct") : NAN;
	if (!isnan(v))
		fprintf(f, v < 0 ? " \xc2\xb7 sequential to eof" : " \xc2\xb7 seekpct %g", v);
	v = strcmp(x, "threads") && !is_outer_loop(g, "threads") ? rep_doc_num(pr, "threads") : 0;
	if (v > 0)
		fprintf(f, " \xc2\xb7 %g thread%s", v, v == 1 ? "" : "s");
	if (*x)
		fprintf(f, " \xc2\xb7 sweep of %s", x);
}

static void kpis(FILE *f, const struct rep_html_group *g)
{
	char label[200], n[48], m[48], p[48];

	fputs("<div class=\"kpis\">", f);
	for (size_t c = 0; c < g->nr; c++) {
		const json_t *peak = json_object_get(g->curves[c], "peak");

		if (!json_is_object(peak))
			continue;
		fprintf(f, "<div class=\"kpi\" style=\"--c:%s\"><div class=\"l\">",
			rep_svg_color(c));
		rep_html_escape(f, rep_html_curve_label(g, c, label, sizeof(label)));
		fprintf(f,
			" \xc2\xb7 peak</div><div class=\"n\">%s IOPS</div><div class=\"l\">"
			"at %s \xc2\xb5s mean \xc2\xb7 %s \xc2\xb5s p99</div></div>",
			rep_fmt_group(rep_doc_num(peak, "iops"), 0, n, sizeof(n)),
			rep_fmt_lat_us(rep_doc_num(peak, "mean_us"), m, sizeof(m)),
			rep_fmt_lat_us(rep_doc_num(peak, "p99_us"), p, sizeof(p)));
	}
	fputs("</div>\n", f);
}

static void group_section(FILE *f, const json_t *doc, const struct rep_doc *live,
			  const struct rep_html_group *g, int i, const struct rep_overlay_data *ov,
			  size_t nr_ov)
{
	const json_t *first = g->curves[0];
	size_t nr_wds = json_array_size(json_object_get(first, "wds"));

	fprintf(f, "<section id=\"w%d\">\n<h2>Workload%s ", i + 1, nr_wds > 1 ? "s" : "");
	join_names(f, json_object_get(first, "wds"));
	fputs("</h2>\n<div class=\"meta\">RD ", f);
	for (size_t c = 0; c < g->nr; c++) {
		const char *rd = rep_doc_str(g->curves[c], "rd", "?");
		bool is_new = true;

		for (size_t k = 0; k < c; k++)
			is_new = is_new && strcmp(rd, rep_doc_str(g->curves[k], "rd", "?"));
		if (!is_new)
			continue;
		fputs(c ? ", " : "", f);
		rep_html_escape(f, rd);
	}
	fputs(" \xc2\xb7 SD ", f);
	join_names(f, json_object_get(first, "sds"));
	params_line(f, doc, g);
	fprintf(f, " \xc2\xb7 %zu curve%s</div>\n", g->nr, g->nr == 1 ? "" : "s");
	kpis(f, g);
	fputs("<div class=\"charts\">\n", f);
	if (rep_html_is_pressure(doc, g)) {
		rep_html_pressure_charts(f, doc, g, false);
	} else if (rep_html_is_sweep(g)) {
		rep_html_sweep_chart(f, g, REP_HTML_SWEEP_THROUGHPUT);
		rep_html_sweep_chart(f, g, REP_HTML_SWEEP_MEAN);
		rep_html_sweep_chart(f, g, REP_HTML_SWEEP_P99);
	} else {
		rep_html_latency_chart(f, g, false, ov, nr_ov);
		rep_html_latency_chart(f, g, true, NULL, 0);
	}
	fputs("</div>\n", f);
	if (rep_html_is_pressure(doc, g)) {
		fputs("<h3>Each workload at each step</h3>\n", f);
		rep_html_pressure_table(f, doc, g);
	}
	fputs("<h3>Points</h3>\n", f);
	rep_html_points_table(f, g);
	fputs("<h3>IOPS at latency</h3>\n", f);
	rep_html_sla_table(f, g);
	if (rep_html_has_sds(doc, g)) {
		fputs("<h3>Each SD</h3>\n", f);
		rep_html_sd_table(f, doc, g);
	}
	fputs("<div class=\"charts\">\n", f);
	if (rep_html_has_sds(doc, g))
		rep_html_sd_chart(f, doc, g);
	rep_html_time_chart(f, doc, live, g);
	rep_html_hist_chart(f, doc, live, g);
	fputs("</div>\n</section>\n", f);
}

static void footer(FILE *f, const json_t *doc)
{
	fputs("<footer>Service time is submit to completion (VDbench's response time); response "
	      "time is measured from each I/O's scheduled arrival and includes the wait in "
	      "ioramp's queue. Curve points are joined in target order, as reviews draw them; IOPS "
	      "at latency interpolates between the last point under a threshold and the first "
	      "point over it: nothing after that first crossing counts, and a point that missed "
	      "its target is never the upper end. A point met its target when the I/Os it asked "
	      "for are within 2% of the arrivals its schedule generated (a random schedule's "
	      "sampling is no miss; data validation's pre-reads are in its IOPS, as VDbench's, "
	      "but not among them). Rendered from ",
	      f);
	if (rep_html_other_source(doc)) {
		rep_html_escape(f, rep_html_other_source(doc));
	} else {
		fputs("results.json (", f);
		rep_html_escape(f, rep_doc_str(doc, "schema", "?"));
		fputs(")", f);
	}
	fputs(" by ioramp " IORAMP_VERSION ".</footer>\n</main>\n</body>\n</html>\n", f);
}

int rep_html_page(const json_t *doc, const struct rep_doc *live, const struct rep_overlay_data *ov,
		  size_t nr_ov, const char *files_href, FILE *f)
{
	struct rep_html_group *g;
	int nr = make_groups(doc, live, &g);

	if (nr < 0) {
		groups_free(g, (int)json_array_size(json_object_get(doc, "curves")));
		return nr;
	}
	head(f, doc);
	header(f, doc, files_href);
	if (nr > 1) {
		fputs("<nav>", f);
		for (int i = 0; i < nr; i++) {
			fprintf(f, "<a href=\"#w%d\">", i + 1);
			join_names(f, json_object_get(g[i].curves[0], "wds"));
			fputs("</a>", f);
		}
		fputs("<a href=\"#setup\">Set-up</a><a href=\"#runs\">All runs</a></nav>\n", f);
	}
	for (int i = 0; i < nr; i++)
		group_section(f, doc, live, &g[i], i, ov, nr_ov);
	rep_html_setup(f, doc);
	fputs("<section id=\"runs\">\n<h2>All runs</h2>\n<div class=\"meta\">Averages of each "
	      "run's intervals after warmup.</div>\n",
	      f);
	rep_html_runs_table(f, doc, live);
	fputs("</section>\n", f);
	rep_html_host_chart(f, doc, live);
	footer(f, doc);
	groups_free(g, nr);
	return ferror(f) ? -EIO : 0;
}

struct page_args {
	const json_t *doc;
	const struct rep_doc *live;
	const struct rep_overlay_data *ov;
	size_t nr_ov;
	const char *files_href;
};

static int write_page(FILE *f, const void *arg)
{
	const struct page_args *a = arg;

	return rep_html_page(a->doc, a->live, a->ov, a->nr_ov, a->files_href, f);
}

int rep_html_save(const json_t *doc, const struct rep_doc *live, const struct rep_overlay_data *ov,
		  size_t nr_ov, const char *files_href, const char *path)
{
	struct page_args a = { doc, live, ov, nr_ov, files_href };

	return rep_replace_file(path, write_page, &a);
}
