/* The parts of report.html that state the whole test: a banner when a point missed its
 * target or ioramp itself was the limit, links to the other files of the output directory,
 * and the set-up table (every SD with what its drive is, the runs' times, the engine, ioramp,
 * kernel and CPU). */
#include "html.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "doc.h"
#include "svg.h"

void rep_html_validity_banner(FILE *f, const json_t *doc)
{
	const json_t *run;
	size_t i, nr_missed = 0, nr_gen = 0, nr = 0;

	json_array_foreach (json_object_get(doc, "runs"), i, run) {
		const json_t *avg = json_object_get(run, "average");

		if (!json_is_object(avg) && !json_is_string(avg)) /* a string: on disk */
			continue;
		nr++;
		nr_missed += json_is_false(json_object_get(run, "is_target_met"));
		nr_gen += !strcmp(rep_doc_str(run, "limited_by", ""), "generator");
	}
	if (!nr_missed && !nr_gen)
		return;
	fputs("<div class=\"invalid\" role=\"alert\"><b>", f);
	if (nr_missed)
		fprintf(f,
			"%zu of %zu runs missed their target rate.</b> Their points are drawn "
			"hollow; the console and the Points table say by how much",
			nr_missed, nr);
	if (nr_gen)
		fprintf(f,
			"%s%zu run%s limited by ioramp's own CPU (the generator), not the "
			"drives%s: those figures measure this host",
			nr_missed ? ". " : "", nr_gen, nr_gen == 1 ? " was" : "s were",
			nr_missed ? "" : "</b>");
	fputs(".</div>\n", f);
}

const char *rep_html_other_source(const json_t *doc)
{
	if (strcmp(rep_doc_str(doc, "execution/engine/name", ""), "vdbench"))
		return NULL;
	return rep_doc_str(doc, "execution/source", NULL);
}

void rep_html_other_what(FILE *f, const json_t *doc)
{
	const char *by = rep_doc_str(doc, "execution/engine/written_by", NULL),
		   *ver = rep_doc_str(doc, "execution/engine/version", NULL);

	fputs("<b>", f);
	if (by) {
		rep_html_escape(f, by);
		fputs("</b> output in VDbench's format", f);
		return;
	}
	fputs("VDbench", f);
	if (ver) {
		fputc(' ', f);
		rep_html_escape(f, ver);
	}
	fputs("</b> output", f);
}

/* Whether name is in the directory of the other tool's file source. */
static bool is_beside(const char *source, const char *name)
{
	const char *slash = strrchr(source, '/');
	char path[4096];

	return snprintf(path, sizeof(path), "%.*s%s", slash ? (int)(slash - source + 1) : 0,
			source, name) < (int)sizeof(path) &&
	       !access(path, F_OK);
}

void rep_html_output_links(FILE *f, const json_t *doc, const char *files_href)
{
	static const char *const files[][2] = {
		{ "summary.html", "VDbench summary" },
		{ "parmfile.html", "parameters" },
		{ "results.json", "results.json" },
		{ "curves.csv", "curves.csv" },
		{ "flatfile.html", "flatfile.html" },
	};
	const char *other = rep_html_other_source(doc);

	fputs("<nav class=\"files\">Files of this run:", f);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		bool is_flat_file = !strcmp(files[i][0], "flatfile.html");

		if (other ? i == 2 || i == 3 || !is_beside(other, files[i][0]) : is_flat_file)
			continue;
		fputs(" <a href=\"", f);
		rep_html_escape(f, files_href ? files_href : "");
		fprintf(f, "%s\">%s</a>", files[i][0], files[i][1]);
	}
	fputs("</nav>\n", f);
}

static void cell(FILE *f, const char *text)
{
	fputs("<td class=\"t\">", f);
	rep_html_escape(f, text);
	fputs("</td>", f);
}

static void size_cell(FILE *f, double bytes)
{
	char buf[48];

	if (!(bytes > 0))
		fputs("<td class=\"muted\">its own</td>", f);
	else if (bytes >= 1073741824)
		fprintf(f, "<td>%s GiB</td>",
			rep_fmt_group(bytes / 1073741824, 1, buf, sizeof(buf)));
	else
		fprintf(f, "<td>%s MiB</td>", rep_fmt_group(bytes / 1048576, 1, buf, sizeof(buf)));
}

/* "(0,25)" for a range in %, bytes above 200 as VDbench reads them. */
static void range_cell(FILE *f, const json_t *sd)
{
	const json_t *r = json_object_get(sd, "range");
	double lo = rep_doc_num(r, "0"), hi = rep_doc_num(r, "1");

	if (isnan(lo) || isnan(hi))
		fputs("<td class=\"muted\">-</td>", f);
	else if (hi > 200)
		fprintf(f, "<td>(%.0f,%.0f) bytes</td>", lo, hi);
	else
		fprintf(f, "<td>(%g,%g)%%</td>", lo, hi);
}

/* " · " between the parts of a drive's text after the first. */
static void drive_sep(FILE *f, bool *is_first)
{
	fputs(*is_first ? "" : " \xc2\xb7 ", f);
	*is_first = false;
}

/* A block device's signature: "nvme0n1: MODEL · fw REV · serial S · 512/4096 B · SSD". */
static void drive_block(FILE *f, const json_t *b)
{
	static const char *const keys[][2] = {
		{ "model", "" },     { "firmware_rev", "fw " }, { "serial", "serial " },
		{ "wwid", "wwid " }, { "backing_file", "of " },
	};
	const json_t *rot = json_object_get(b, "is_rotational");
	double lbs = rep_doc_num(b, "logical_block_bytes"),
	       pbs = rep_doc_num(b, "physical_block_bytes");
	bool is_first = true;

	rep_html_escape(f, rep_doc_str(b, "device", "?"));
	fputs(": ", f);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *v = rep_doc_str(b, keys[k][0], NULL);

		if (!v)
			continue;
		drive_sep(f, &is_first);
		fputs(keys[k][1], f);
		rep_html_escape(f, v);
	}
	if (lbs > 0) {
		drive_sep(f, &is_first);
		fprintf(f, "%.0f/%.0f B blocks", lbs, pbs > 0 ? pbs : lbs);
	}
	if (json_is_boolean(rot)) {
		drive_sep(f, &is_first);
		fputs(json_is_true(rot) ? "rotational" : "non-rotational", f);
	}
}

/* The drive cell: what the lun is (runs[].sds[].drive), "-" when the document does not say. */
static void drive_cell(FILE *f, const json_t *sd)
{
	const json_t *d = json_object_get(sd, "drive");
	const char *kind = rep_doc_str(d, "kind", "unknown");

	if (!strcmp(kind, "modelled")) {
		const char *preset = rep_doc_str(d, "preset", "");

		fputs("<td class=\"t\"><b>modelled</b>: ", f);
		rep_html_escape(f, *preset ? preset : rep_doc_str(d, "spec", "model"));
		fprintf(f,
			", %.0f unit%s, 4 KiB read %g \xc2\xb5s, write %g \xc2\xb5s (not a "
			"measured drive)</td>",
			rep_doc_num(d, "units"), rep_doc_num(d, "units") == 1 ? "" : "s",
			rep_doc_num(d, "read_us"), rep_doc_num(d, "write_us"));
		return;
	}
	if (!strcmp(kind, "block")) {
		fputs("<td class=\"t\">", f);
		drive_block(f, d);
		fputs("</td>", f);
		return;
	}
	if (!strcmp(kind, "file")) {
		const json_t *b = json_object_get(d, "backing");

		fputs("<td class=\"t\">file on ", f);
		rep_html_escape(f, rep_doc_str(d, "fs_type", "?"));
		fputs(" (", f);
		rep_html_escape(f, rep_doc_str(d, "mount_source", "?"));
		fputs(" at ", f);
		rep_html_escape(f, rep_doc_str(d, "mount_point", "?"));
		fputs(")", f);
		if (json_is_object(b)) {
			fputs("; ", f);
			drive_block(f, b);
		}
		fputs("</td>", f);
		return;
	}
	fputs("<td class=\"muted\">-</td>", f);
}

/* The SDs of the first run that has them (every run of an execution shares its SDs). */
static void sd_table(FILE *f, const json_t *doc)
{
	const json_t *run, *sd, *sds = NULL;
	const char *engine = rep_doc_engine(doc, "?");
	size_t i;

	json_array_foreach (json_object_get(doc, "runs"), i, run)
		if (!sds && json_array_size(json_object_get(run, "sds")))
			sds = json_object_get(run, "sds");
	if (!sds)
		return;
	fputs("<div class=\"scroll\"><table class=\"setup\"><thead><tr><th class=\"t\">SD</th>"
	      "<th class=\"t\">lun</th><th>size</th><th>threads</th><th>range</th>"
	      "<th class=\"t\">openflags</th><th class=\"t\">engine</th><th class=\"t\">drive"
	      "</th></tr></thead>\n<tbody>\n",
	      f);
	json_array_foreach (sds, i, sd) {
		fputs("<tr>", f);
		cell(f, rep_doc_str(sd, "name", "?"));
		cell(f, rep_doc_str(sd, "lun", "?"));
		size_cell(f, rep_doc_num(sd, "size_bytes"));
		fprintf(f, "<td>%.0f</td>", rep_doc_num(sd, "threads"));
		range_cell(f, sd);
		cell(f, rep_doc_str(sd, "openflags", "-"));
		cell(f, engine);
		drive_cell(f, sd);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* "300 s measured after 60 s warmup, 5 s intervals", or the range when the runs differ. */
static void times_line(FILE *f, const json_t *doc)
{
	static const char *const keys[] = { "elapsed_s", "warmup_s", "interval_s" };
	double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { 0, 0, 0 };
	const json_t *run;
	size_t i;

	json_array_foreach (json_object_get(doc, "runs"), i, run) {
		if (json_is_null(json_object_get(run, "plan_idx")))
			continue; /* the format run */
		for (int k = 0; k < 3; k++) {
			double v = rep_doc_num(run, keys[k]);

			lo[k] = v < lo[k] ? v : lo[k];
			hi[k] = v > hi[k] ? v : hi[k];
		}
	}
	if (isinf(lo[0]))
		return;
	fputs("<li>Each run: ", f);
	for (int k = 0; k < 3; k++) {
		static const char *const words[] = { "elapsed", "warmup", "interval" };

		fprintf(f, "%s%s ", k ? ", " : "", words[k]);
		if (lo[k] == hi[k])
			fprintf(f, "<b>%g s</b>", lo[k]);
		else
			fprintf(f, "<b>%g-%g s</b>", lo[k], hi[k]);
	}
	fputs(" (the average leaves out the warmup intervals)</li>\n", f);
}

/* "Engine X · ioramp V · kernel K · CPU C (n online)" as a list item. */
static void host_line(FILE *f, const json_t *doc)
{
	const json_t *host = rep_doc_get(doc, "execution/host");

	if (rep_html_other_source(doc)) {
		fputs("<li>", f);
		rep_html_other_what(f, doc);
		fputs(", read from <b>", f);
		rep_html_escape(f, rep_html_other_source(doc));
		fputs("</b>: its total per interval and per run, with no percentiles, SDs, WDs or "
		      "host</li>\n",
		      f);
		return;
	}
	fputs("<li>Engine <b>", f);
	rep_html_escape(f, rep_doc_str(doc, "execution/engine/spec", rep_doc_engine(doc, "?")));
	fputs("</b> \xc2\xb7 ioramp <b>", f);
	rep_html_escape(f, rep_doc_str(doc, "execution/version", "?"));
	fputs("</b>", f);
	if (host) {
		fputs(" \xc2\xb7 kernel <b>", f);
		rep_html_escape(f, rep_doc_str(host, "kernel", "?"));
		fputs("</b> \xc2\xb7 CPU <b>", f);
		rep_html_escape(f, rep_doc_str(host, "cpu", "?"));
		if (rep_doc_num(host, "nr_cpus") > 0)
			fprintf(f, "</b> (%.0f online)", rep_doc_num(host, "nr_cpus"));
		else
			fputs("</b>", f);
	}
	fputs("</li>\n", f);
}

void rep_html_setup(FILE *f, const json_t *doc)
{
	fputs("<section id=\"setup\">\n<h2>Set-up</h2>\n<ul class=\"setup\">\n", f);
	times_line(f, doc);
	host_line(f, doc);
	fputs("</ul>\n", f);
	sd_table(f, doc);
	fputs("</section>\n", f);
}

void rep_html_setup_drives(FILE *f, const json_t *doc)
{
	if (!doc)
		return;
	fputs("<section id=\"setup\">\n<h2>Set-up</h2>\n<ul class=\"setup\">\n", f);
	host_line(f, doc);
	fputs("<li>The SDs as the first profile ran them; each profile's own report gives its "
	      "run times and parameters</li>\n</ul>\n",
	      f);
	sd_table(f, doc);
	fputs("</section>\n", f);
}
