/* A suite's output directory (ioramp suite -o DIR) read back for `ioramp report` and `ioramp
 * compare`: DIR holds no results.json of its own but one subdirectory per profile that does.
 * The profiles come in the order they ran (their executions' start times), titled from the
 * workload library when it has them; the drives are the first profile's SDs' luns. */
#include "suite_dir.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ioramp/parm.h"
#include "ioramp/plan.h"
#include "ioramp/report.h"
#include "ioramp/results.h"
#include "suite.h"

static int by_start(const void *a, const void *b)
{
	const struct cli_suite_dir_profile *x = a, *y = b;
	int c = strcmp(x->start, y->start);

	return c ? c : strcmp(x->name, y->name);
}

/* The figures line of a profile from the parameters it ran (DIR/NAME/parmfile.html: the text
 * between <pre> and </pre>), left "" when that file is missing or does not parse. */
static void profile_figures(const char *dir, struct cli_suite_dir_profile *p)
{
	struct parm_input in = { 0 };
	struct parm_config *cfg = NULL;
	struct parm_source *keep = NULL;
	struct plan *plan = NULL;
	struct parm_err perr;
	char path[4096], *text = NULL, *pre, *end;
	size_t len = 0;
	FILE *f;

	p->figures[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/%s/parmfile.html", dir, p->name) >=
		    (int)sizeof(path) ||
	    !(f = fopen(path, "r")))
		return;
	if (getdelim(&text, &len, '\0', f) < 0) {
		fclose(f);
		free(text);
		return;
	}
	fclose(f);
	pre = strstr(text, "<pre>");
	pre = pre ? pre + 5 : text;
	end = strstr(pre, "</pre>");
	if (end)
		*end = '\0';
	if (!parm_config_read_text(path, pre, strlen(pre), &in, &cfg, &keep, &perr) &&
	    !plan_build(cfg, &plan, &perr))
		cli_suite_figures(plan, p->figures, sizeof(p->figures));
	plan_free(plan);
	parm_config_free(cfg);
	parm_source_free(keep);
	free(text);
}

bool cli_suite_dir_is(const char *dir)
{
	struct stat st;
	char path[4096];

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return false;
	snprintf(path, sizeof(path), "%s/results.json", dir);
	if (!access(path, F_OK))
		return false;
	snprintf(path, sizeof(path), "%s/flatfile.html", dir);
	return access(path, F_OK) != 0;
}

int cli_suite_dir_load(const char *dir, struct cli_suite_dir *out, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!d) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", dir, strerror(-ret));
		return ret;
	}
	while (!ret && (e = readdir(d))) {
		struct cli_suite_dir_profile *p, *n;
		char path[4096];

		if (e->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s/results.json", dir, e->d_name) >=
			    (int)sizeof(path) ||
		    access(path, F_OK))
			continue;
		n = realloc(out->p, (out->nr + 1) * sizeof(*n));
		if (!n) {
			ret = -ENOMEM;
			break;
		}
		out->p = n;
		p = &out->p[out->nr];
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%s", e->d_name);
		snprintf(p->results, sizeof(p->results), "%s", path);
		ret = rep_doc_load(path, &p->doc, err, errlen);
		if (ret)
			break;
		out->nr++;
		snprintf(p->start, sizeof(p->start), "%s",
			 rep_doc_str(p->doc, "execution/start_time", ""));
	}
	closedir(d);
	if (!ret && !out->nr) {
		snprintf(err, errlen,
			 "%s: no results.json, flatfile.html, or profile subdirectories with a "
			 "results.json (a suite's output directory)",
			 dir);
		ret = -EINVAL;
	}
	if (ret) {
		cli_suite_dir_fini(out);
		return ret;
	}
	qsort(out->p, out->nr, sizeof(*out->p), by_start);
	for (size_t i = 0; i < out->nr; i++) {
		struct cli_suite_dir_profile *p = &out->p[i];
		char path[4096];

		snprintf(p->title, sizeof(p->title), "%s", p->name);
		profile_figures(dir, p);
		if (!cli_library_find(p->name, path, sizeof(path)) &&
		    !cli_library_info(path, p->name, &p->info))
			snprintf(p->title, sizeof(p->title), "%s", p->info.title);
	}
	return 0;
}

void cli_suite_dir_fini(struct cli_suite_dir *s)
{
	for (size_t i = 0; s->p && i < s->nr; i++)
		json_decref(s->p[i].doc);
	free(s->p);
	s->p = NULL;
	s->nr = 0;
}

/* Puts pg's overlays into ov profile by profile (each profile's together, rp[i].ov pointing
 * at them). Returns 0, or -EINVAL with pg->err when a name is no profile's. */
static int sort_overlays(const struct cli_suite_dir *s, struct cli_suite_dir_page *pg,
			 struct rep_overlay *ov, struct rep_suite_profile *rp)
{
	size_t n = 0;

	for (size_t k = 0; k < pg->nr_ov; k++) {
		size_t i = 0;

		while (i < s->nr && strcmp(s->p[i].name, pg->ov[k].name))
			i++;
		if (i < s->nr)
			continue;
		n = (size_t)snprintf(pg->err, sizeof(pg->err),
				     "--overlay %s=%s: no profile %s in this suite; expected one "
				     "of",
				     pg->ov[k].name, pg->ov[k].path, pg->ov[k].name);
		for (i = 0; i < s->nr && n < sizeof(pg->err); i++)
			n += (size_t)snprintf(pg->err + n, sizeof(pg->err) - n, "%s %s",
					      i ? "," : "", s->p[i].name);
		return -EINVAL;
	}
	for (size_t i = 0; i < s->nr; i++) {
		rp[i].ov = ov + n;
		for (size_t k = 0; k < pg->nr_ov; k++)
			if (!strcmp(s->p[i].name, pg->ov[k].name))
				ov[n++] = pg->ov[k];
		rp[i].nr_ov = (size_t)(ov + n - rp[i].ov);
	}
	return 0;
}

int cli_suite_dir_report(const struct cli_suite_dir *s, struct cli_suite_dir_page *pg)
{
	const json_t *doc = s->p[0].doc, *sds = rep_doc_get(doc, "runs/0/sds"), *sd, *arg;
	struct rep_suite_profile *rp = calloc(s->nr + 1, sizeof(*rp));
	struct rep_overlay *ov = calloc(pg->nr_ov + 1, sizeof(*ov));
	char(*href)[4200] = calloc(s->nr + 1, sizeof(*href));
	const char **drives = calloc(json_array_size(sds) + 1, sizeof(*drives));
	const char **models = calloc(json_array_size(sds) + 1, sizeof(*models));
	char **argv = calloc(json_array_size(rep_doc_get(doc, "execution/command_line")) + 1,
			     sizeof(*argv));
	char label[128];
	int status = 0, ret = -ENOMEM;
	size_t i, argc = 0, nr_block = 0;
	struct rep_suite_request req = { .html_path = pg->page };

	pg->is_write_error = false;
	pg->err[0] = '\0';
	if (!rp || !ov || !href || !drives || !models || !argv) {
		snprintf(pg->err, sizeof(pg->err), "out of memory");
		goto out;
	}
	for (i = 0; i < s->nr; i++) {
		const json_t *st = rep_doc_get(s->p[i].doc, "execution/status");

		snprintf(href[i], sizeof(href[i]), "%s%s/report.html", pg->href_prefix,
			 s->p[i].name);
		rp[i] = (struct rep_suite_profile){ .name = s->p[i].name,
						    .title = s->p[i].title,
						    .results_path = s->p[i].results,
						    .figures = s->p[i].figures[0] ? s->p[i].figures
										  : NULL,
						    .href = href[i] };
		if (json_is_integer(st) && json_integer_value(st) && !status)
			status = (int)json_integer_value(st);
	}
	ret = sort_overlays(s, pg, ov, rp);
	if (ret)
		goto out;
	json_array_foreach (sds, i, sd) {
		const json_t *d = json_object_get(sd, "drive");
		bool is_block = !strcmp(rep_doc_str(d, "kind", ""), "block");

		drives[i] = rep_doc_str(sd, "lun", "?");
		models[i] = is_block ? rep_doc_str(d, "model", "") : "";
		models[i] += strspn(models[i], " \t"); /* as the suite's own reading trims it */
		nr_block += is_block;
	}
	json_array_foreach (rep_doc_get(doc, "execution/command_line"), i, arg)
		argv[argc++] = (char *)json_string_value(arg);
	cli_suite_drives_label(label, sizeof(label),
			       json_is_true(rep_doc_get(doc, "execution/engine/is_modelled")),
			       models, json_array_size(sds), nr_block);
	req = (struct rep_suite_request){
		.html_path = pg->page,
		.drives_label = label,
		.drives = drives,
		.nr_drives = json_array_size(sds),
		.argc = (int)argc,
		.argv = argv,
		.profiles = rp,
		.nr_profiles = s->nr,
		.status = status,
	};
	ret = rep_suite_write(&req);
	if (ret) {
		snprintf(pg->err, sizeof(pg->err), "%s", req.err);
		pg->is_write_error = req.is_write_error;
	}
out:
	free(rp);
	free(ov);
	free(href);
	free(drives);
	free(models);
	free(argv);
	return ret;
}
