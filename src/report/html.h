/* Private to src/report: report.html from a results document (the same page whether the
 * rep_html observer writes it during an execution or `ioramp report` renders a saved
 * results.json), with published curves drawn beside the measured ones. */
#ifndef IORAMP_REPORT_HTML_H
#define IORAMP_REPORT_HTML_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ioramp/report.h"
#include "svg.h"

/* A published curve: points of IOPS and average latency in us. */
struct rep_overlay_data {
	const char *name;
	const char *label; /* NULL: "NAME (published)" */
	double *iops;
	double *lat_us;
	size_t nr;
};

/* Reads ov->path (CSV: IOPS,latency per line, # comments; a header iops,latency_us or
 * iops,latency_ms, else ov->unit_us, says the unit), the points sorted by IOPS, latencies in
 * us. Returns 0, -errno when unreadable, or -EINVAL for a bad line, a unit not stated or
 * stated twice differently, or no points, with the reason (file:line) in err. */
int rep_overlay_load(const struct rep_overlay *ov, struct rep_overlay_data *out, char *err,
		     size_t errlen);
void rep_overlay_fini(struct rep_overlay_data *d);

struct rep_doc;

/* Curves that share a workload (the same WDs) and so one set of charts. */
struct rep_html_group {
	const json_t **curves;
	size_t nr;
	const char *note; /* on each of their charts (REP_HTML_MODEL_NOTE), or NULL */
	/* the live document whose tree holds the curves (runs' averages may be on disk:
	 * rep_doc_run_average), or NULL for a loaded one */
	const struct rep_doc *live;
};

/* What every chart of modelled drives says, so that a chart saved alone still says it. */
#define REP_HTML_MODEL_NOTE "modelled drives, not measurements"
/* REP_HTML_MODEL_NOTE when doc's drives were modelled, else NULL. */
const char *rep_html_model_note(const json_t *doc);

/* The page's style sheet (html_page.c), shared by the suite page. */
extern const char rep_html_style[];

/* With modelled drives in doc: a banner saying that every figure on the page is the model's
 * and what the model is; nothing for real drives. Shared by the suite page. */
void rep_html_model_banner(FILE *f, const json_t *doc);

/* Writes the whole page of doc; live is the document being built whose tree doc is (its
 * intervals are on disk), or NULL for a loaded one. files_href leads from the page to the
 * output directory whose files it links ("../run1/"); NULL: the page is in it. Returns 0 or
 * -EIO. */
int rep_html_page(const json_t *doc, const struct rep_doc *live, const struct rep_overlay_data *ov,
		  size_t nr_ov, const char *files_href, FILE *f);

/* Writes the page to path through a temporary file and a rename. Returns 0 or -errno. */
int rep_html_save(const json_t *doc, const struct rep_doc *live, const struct rep_overlay_data *ov,
		  size_t nr_ov, const char *files_href, const char *path);

/* A curve's name within its group: only what tells it from the others (RD, for-loops, SDs);
 * its full name when alone. Returns buf. */
const char *rep_html_curve_label(const struct rep_html_group *g, size_t i, char *buf, size_t len);

/* The runs of a curve in order: its max run (if any) then its points. Fills idx (the caller
 * gives room for points + 1) and returns the count. */
size_t rep_html_curve_runs(const json_t *curve, size_t *idx);

/* One series of a chart (html_lines.c): point arrays the page owns. */
struct rep_html_line {
	double *x;
	double *y;
	char **tips;	 /* tooltip per point, freed with the line */
	bool *is_missed; /* drawn hollow: the point missed its target */
	size_t nr;
	size_t cap; /* points x and y have room for */
	char name[256];
	char color[8];
};

/* Room for nr points. Returns 0 or -ENOMEM (free the lines either way). */
int rep_html_line_init(struct rep_html_line *l, size_t nr);
/* Frees nr lines' points and the array l. */
void rep_html_lines_free(struct rep_html_line *l, size_t nr);
/* Tick formats: 2.5k; 1,234; sizes as VDbench writes them (512, 4k, 1m); "10 ms" for a value
 * in us. */
void rep_html_fmt_si(double v, char *buf, size_t len);
void rep_html_fmt_plain(double v, char *buf, size_t len);
void rep_html_fmt_bytes(double v, char *buf, size_t len);
void rep_html_fmt_us_log(double us, char *buf, size_t len);
/* Switches the y values (us) to ms when they run past 20 ms; returns the unit's name. */
const char *rep_html_latency_unit(struct rep_html_line *l, size_t nr);
/* Writes chart c in a <figure> with a link that downloads it as an .svg file. */
void rep_html_figure(FILE *f, const struct rep_svg_chart *c);
/* Writes the chart of nr lines, styles[i] the style of line i, in a <figure>. */
void rep_html_chart_write(FILE *f, struct rep_svg_chart *c, struct rep_html_line *l, size_t nr,
			  const enum rep_svg_style *styles);

/* Charts (html_charts.c): IOPS against mean or p99 service time, IOPS over time, and the
 * service-time distribution. */
void rep_html_latency_chart(FILE *f, const struct rep_html_group *g, bool is_p99,
			    const struct rep_overlay_data *ov, size_t nr_ov);
void rep_html_time_chart(FILE *f, const json_t *doc, const struct rep_doc *live,
			 const struct rep_html_group *g);
void rep_html_hist_chart(FILE *f, const json_t *doc, const struct rep_doc *live,
			 const struct rep_html_group *g);

/* Sweeps (html_sweep.c): whether g's curves sweep a parameter other than iorate, and their
 * charts against it: mean or p99 service time, or throughput (MB/s for blocks of 64 KiB and
 * more, else IOPS). */
enum rep_html_sweep_y {
	REP_HTML_SWEEP_MEAN,
	REP_HTML_SWEEP_P99,
	REP_HTML_SWEEP_THROUGHPUT
};
bool rep_html_is_sweep(const struct rep_html_group *g);
void rep_html_sweep_chart(FILE *f, const struct rep_html_group *g, enum rep_html_sweep_y y);

/* Pressure tests (html_pressure.c): whether g's curves are iorate sweeps of two or more WDs,
 * one with its own fixed iorate= (write pressure, noisy neighbour); their charts (the read-only WDs' mean, p99.99 and
 * p99.9999, then mean, p99 ... p99.9999 per WD, against the write MB/s per SD written) and
 * the table of every point's WDs. */
bool rep_html_is_pressure(const json_t *doc, const struct rep_html_group *g);
void rep_html_pressure_charts(FILE *f, const json_t *doc, const struct rep_html_group *g,
			      bool is_brief); /* brief: the readers, mean and p99.99 only */
void rep_html_pressure_table(FILE *f, const json_t *doc, const struct rep_html_group *g);

/* The whole test (html_setup.c): a banner when a run missed its target or ioramp's CPU was
 * the limit (nothing otherwise), links to the output directory's other files, and the
 * set-up section (each SD's lun, size, threads, range, openflags and engine; the runs'
 * times; ioramp, kernel and CPU). */
void rep_html_validity_banner(FILE *f, const json_t *doc);
/* Another tool's results (a VDbench flatfile.html read by rep_doc_load_flat): the file read
 * (execution/source), else NULL for ioramp's own results.json. */
const char *rep_html_other_source(const json_t *doc);
/* "VDbench 5.04.07 output" (the version when the directory's logfile.html gave it), or
 * "ioramp V output in VDbench's format" when ioramp wrote that directory. */
void rep_html_other_what(FILE *f, const json_t *doc);
/* files_href: as rep_html_page's. ioramp's results link all four files it writes; another
 * tool's only those of flatfile.html, summary.html and parmfile.html that are there. */
void rep_html_output_links(FILE *f, const json_t *doc, const char *files_href);
void rep_html_setup(FILE *f, const json_t *doc);
/* The suite page's set-up: the engine, ioramp, kernel and CPU, and the SD table of doc (the
 * first profile's); nothing for NULL. */
void rep_html_setup_drives(FILE *f, const json_t *doc);

/* Each SD (html_sd.c): whether the group's first curve ran on two SDs or more with their
 * figures in the document; a chart with a line per SD over that curve's points, and a table
 * of every SD at its peak point. */
bool rep_html_has_sds(const json_t *doc, const struct rep_html_group *g);
void rep_html_sd_chart(FILE *f, const json_t *doc, const struct rep_html_group *g);
void rep_html_sd_table(FILE *f, const json_t *doc, const struct rep_html_group *g);

/* Tables (html_tables.c): a group's points, its IOPS at latency, and every run's average. */
void rep_html_points_table(FILE *f, const struct rep_html_group *g);
void rep_html_sla_table(FILE *f, const struct rep_html_group *g);
/* live: as rep_html_page's. */
void rep_html_runs_table(FILE *f, const json_t *doc, const struct rep_doc *live);
/* Many hosts: a "Hosts" section with IOPS per host over time (html_hosts.c); nothing else. */
void rep_html_host_chart(FILE *f, const json_t *doc, const struct rep_doc *live);

#endif /* IORAMP_REPORT_HTML_H */
