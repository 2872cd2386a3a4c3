/* The review suite's life: drives described and profiles read and planned before anything is
 * written, then one execution per profile in its own subdirectory (in-process, as `ioramp -f`
 * runs one), then the review page over the profiles that ran. */
#include "suite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ioramp/report.h"

/* Modelled drives open nothing: their names only label them, --size is their capacity. */
static bool is_model(const struct cli_suite *s)
{
	return eng_engine_is_model(s->o.engine);
}

static int describe_drives(struct cli_suite *s)
{
	char err[512];

	s->drives = calloc(s->o.nr_drives + 1, sizeof(*s->drives));
	if (!s->drives)
		return CLI_EXIT_FAILED;
	if (is_model(s) && !s->o.size) {
		fprintf(stderr, "ioramp suite: error: --engine %s: modelled drives open nothing; "
				"expected --size SIZE for their capacity\n",
			s->o.engine);
		return CLI_EXIT_USAGE;
	}
	for (size_t i = 0; i < s->o.nr_drives; i++) {
		struct cli_drive *d = &s->drives[i];
		int ret = is_model(s) ? -ENOENT
				      : eng_target_describe(s->o.drives[i], &d->info, err, sizeof(err));

		d->path = s->o.drives[i];
		d->exists = ret == 0;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(s->o.drives[k], d->path)) {
				fprintf(stderr, "ioramp suite: error: %s is given twice\n",
					d->path);
				return CLI_EXIT_USAGE;
			}
		if (ret == -ENOENT && s->o.size)
			continue; /* a file the format run creates */
		if (ret == -ENOENT) {
			fprintf(stderr,
				"ioramp suite: error: %s does not exist; --size SIZE creates files\n",
				d->path);
			return CLI_EXIT_USAGE;
		}
		if (ret) {
			fprintf(stderr, "ioramp suite: error: %s\n", err);
			return CLI_EXIT_USAGE;
		}
	}
	return CLI_EXIT_OK;
}

static int add_profile(struct cli_suite *s, const char *name)
{
	struct cli_suite_profile *n = realloc(s->p, (s->nr + 1) * sizeof(*n));
	struct cli_suite_profile *p;
	const char *base = strrchr(name, '/');
	size_t len;
	int ret;

	if (!n)
		return CLI_EXIT_FAILED;
	s->p = n;
	p = memset(&s->p[s->nr], 0, sizeof(*p));
	base = base ? base + 1 : name;
	len = strlen(base);
	p->name = strndup(base, len > 4 && !strcmp(base + len - 4, ".vdb") ? len - 4 : len);
	if (!p->name)
		return CLI_EXIT_FAILED;
	s->nr++;
	if (!cli_library_is_name(name))
		ret = snprintf(p->path, sizeof(p->path), "%s", name) >= (int)sizeof(p->path) ||
		      access(p->path, R_OK);
	else
		ret = cli_library_find(name, p->path, sizeof(p->path));
	if (ret && !cli_library_is_name(name)) {
		fprintf(stderr, "ioramp suite: error: --profiles: cannot read %s\n", name);
		return CLI_EXIT_USAGE;
	}
	if (ret) {
		fprintf(stderr,
			"ioramp suite: error: --profiles: no profile %s in the workload "
			"library (see ioramp workloads)\n",
			name);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* The profiles asked for, or the whole library but precondition; precondition first with
 * --precondition. */
static int choose_profiles(struct cli_suite *s)
{
	char dir[PATH_MAX];
	char **names = NULL;
	int nr = 0, rc = CLI_EXIT_OK;

	if (s->o.has_precondition)
		rc = add_profile(s, "precondition");
	for (size_t i = 0; !rc && i < s->o.nr_profiles; i++)
		if (!s->o.has_precondition || strcmp(s->o.profiles[i], "precondition"))
			rc = add_profile(s, s->o.profiles[i]);
	if (rc || s->o.profiles)
		return rc;
	if (cli_library_dir(dir, sizeof(dir)) || (nr = cli_library_names(dir, &names)) <= 0) {
		fprintf(stderr, "ioramp suite: error: no workload library found; set "
				"IORAMP_WORKLOADS to its directory\n");
		cli_library_names_free(names, nr);
		return CLI_EXIT_USAGE;
	}
	for (int i = 0; !rc && i < nr; i++)
		if (strcmp(names[i], "precondition"))
			rc = add_profile(s, names[i]);
	cli_library_names_free(names, nr);
	return rc;
}

static int slurp(const char *path, char **out)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	*out = NULL;
	if (!f)
		return -errno;
	m = open_memstream(&buf, &len);
	while (m && (c = getc(f)) != EOF)
		putc(c, m);
	fclose(f);
	if (!m || fclose(m) || !buf) {
		free(buf);
		return -ENOMEM;
	}
	*out = buf;
	return 0;
}

/* A general parameter goes before every definition: formatsds=yes as the text's first line. */
static int prepend_formatsds(char **text)
{
	char *with;

	if (asprintf(&with, "formatsds=yes\n%s", *text) < 0)
		return -ENOMEM;
	free(*text);
	*text = with;
	return 0;
}

/* The profile's text with one SD per drive, parsed as the command line would. */
static int read_profile(struct cli_suite *s, struct cli_suite_profile *p)
{
	struct parm_input in = { .overrides = s->o.overrides };
	struct parm_source *keep = NULL;
	struct parm_err err;
	char *text, *gen;
	int ret = slurp(p->path, &text);

	if (ret) {
		fprintf(stderr, "ioramp suite: error: %s: cannot read: %s\n", p->path,
			strerror(-ret));
		return CLI_EXIT_USAGE;
	}
	ret = cli_suite_text(text, s->drives, s->o.nr_drives, s->o.size, &gen);
	free(text);
	if (!ret && s->o.is_formatsds && prepend_formatsds(&gen)) {
		free(gen);
		return CLI_EXIT_FAILED;
	}
	if (ret) {
		fprintf(stderr,
			"ioramp suite: error: %s: %s; a suite profile names its drives on one line "
			"such as sd=sd,count=(0,8),lun=$lun\n",
			p->path,
			ret == -EEXIST ? "two lines use lun=$lun" : "no line uses lun=$lun");
		return ret == -ENOMEM ? CLI_EXIT_FAILED : CLI_EXIT_USAGE;
	}
	ret = parm_config_read_text(p->path, gen, strlen(gen), &in, &p->cfg, &keep, &err);
	free(gen);
	if (ret) {
		parm_err_print(&err, stderr);
		parm_source_free(keep);
		return ret == -ENOMEM ? CLI_EXIT_FAILED : CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

static bool plan_writes(const struct plan *plan)
{
	for (size_t i = 0; i < plan->nr_runs; i++) {
		const struct plan_run *r = &plan->runs[i];

		for (size_t w = 0; w < r->nr_wds; w++)
			if ((r->ovr.has_rdpct ? r->ovr.rdpct : r->wds[w]->rdpct) < 100)
				return true;
	}
	return false;
}

void cli_suite_figures(const struct plan *plan, char *buf, size_t len)
{
	char rd[64], sizes[96], threads[64];

	cli_profile_figures(plan, rd, sizes, threads, sizeof(rd));
	snprintf(buf, len, "%s%% read \xc2\xb7 %s \xc2\xb7 %s thread%s per drive", rd, sizes,
		 threads, strcmp(threads, "1") ? "s" : "");
}

static int prepare_profile(struct cli_suite *s, struct cli_suite_profile *p)
{
	struct parm_err err;
	int rc = read_profile(s, p);

	if (rc)
		return rc;
	if (s->o.curve_pcts && cli_suite_set_curve(p->cfg, s->o.curve_pcts, s->o.nr_curve_pcts))
		return CLI_EXIT_FAILED;
	if (s->o.is_page_cache)
		cli_suite_drop_direct(p->cfg);
	if (plan_build(p->cfg, &p->plan, &err) || plan_check_runnable(p->plan, &err)) {
		parm_err_print(&err, stderr);
		return CLI_EXIT_USAGE;
	}
	for (size_t i = 0; i < p->plan->nr_runs; i++)
		p->planned_s += p->plan->runs[i].elapsed_s + p->plan->runs[i].warmup_s;
	p->is_writing = plan_writes(p->plan);
	cli_library_info(p->path, p->name, &p->info);
	cli_suite_figures(p->plan, p->figures, sizeof(p->figures));
	return CLI_EXIT_OK;
}

void cli_suite_drives_label(char *buf, size_t len, bool is_modelled, const char *const *models,
			    size_t nr, size_t nr_block)
{
	bool is_same = nr && models[0][0];

	if (is_modelled) {
		snprintf(buf, len, "%zu modelled drive%s", nr, nr == 1 ? "" : "s");
		return;
	}
	for (size_t i = 1; i < nr; i++)
		is_same = is_same && !strcmp(models[0], models[i]);
	if (is_same && nr > 1)
		snprintf(buf, len, "%s \xc3\x97%zu", models[0], nr);
	else if (is_same)
		snprintf(buf, len, "%s", models[0]);
	else
		snprintf(buf, len, "%zu %s%s", nr, nr_block ? "drive" : "file", nr == 1 ? "" : "s");
}

static int drives_label(struct cli_suite *s)
{
	const char **models = calloc(s->o.nr_drives + 1, sizeof(*models));
	size_t nr_block = 0;

	if (!models)
		return CLI_EXIT_FAILED;
	for (size_t i = 0; i < s->o.nr_drives; i++) {
		models[i] = s->drives[i].info.model;
		nr_block += s->drives[i].info.is_block;
	}
	cli_suite_drives_label(s->drives_label, sizeof(s->drives_label), is_model(s), models,
			       s->o.nr_drives, nr_block);
	free(models);
	return CLI_EXIT_OK;
}

int cli_suite_prepare(struct cli_suite *s)
{
	int rc = describe_drives(s);

	if (!rc)
		rc = choose_profiles(s);
	for (size_t i = 0; !rc && i < s->nr; i++)
		rc = prepare_profile(s, &s->p[i]);
	if (!rc)
		rc = drives_label(s);
	return rc;
}

void cli_suite_fini(struct cli_suite *s)
{
	for (size_t i = 0; s->p && i < s->nr; i++) {
		plan_free(s->p[i].plan);
		parm_config_free(s->p[i].cfg);
		free(s->p[i].name);
	}
	free(s->p);
	free(s->drives);
	for (size_t i = 0; s->o.drives && i < s->o.nr_drives; i++)
		free((char *)s->o.drives[i]);
	free(s->o.drives);
	for (size_t i = 0; s->o.profiles && i < s->o.nr_profiles; i++)
		free((char *)s->o.profiles[i]);
	free(s->o.profiles);
	free(s->o.curve_pcts);
	memset(s, 0, sizeof(*s));
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int run_profile(struct cli_suite *s, size_t i)
{
	struct cli_suite_profile *p = &s->p[i];
	uint64_t later_s = 0;
	char label[128];
	struct cli_exec_opts eo = {
		.outdir = p->outdir,
		.engine = s->o.engine,
		.sla = s->o.sla,
		.seed = s->o.seed,
		.has_seed = s->o.has_seed,
		.is_force = s->o.is_force,
		.argc = s->o.argc,
		.argv = s->o.argv,
		.status_label = label,
	};

	for (size_t k = i + 1; k < s->nr; k++)
		later_s += s->p[k].planned_s;
	eo.status_later_s = later_s;
	snprintf(label, sizeof(label), "%s %zu/%zu", p->name, i + 1, s->nr);
	if (snprintf(p->outdir, sizeof(p->outdir), "%s/%s", s->outdir, p->name) >=
	    (int)sizeof(p->outdir))
		return CLI_EXIT_FAILED;
	printf("\nioramp suite: profile %zu of %zu: %s (%s), into %s\n", i + 1, s->nr, p->name,
	       p->info.title, p->outdir);
	fflush(stdout);
	p->status = cli_exec_plan(p->plan, &eo);
	p->has_run = true;
	return p->status;
}

static const char *status_word(int status)
{
	if (status == CLI_EXIT_OK)
		return "completed";
	if (status > 128) /* a signal: SIGINT, SIGTERM, SIGHUP or SIGPIPE */
		return "interrupted";
	return "failed";
}

/* DIR/report.html over the profiles run, and their summary on the console. */
static int write_report(struct cli_suite *s, int status)
{
	struct rep_suite_profile *rp = calloc(s->nr + 1, sizeof(*rp));
	char(*results)[PATH_MAX + 16] = calloc(s->nr + 1, sizeof(*results));
	char(*href)[PATH_MAX] = calloc(s->nr + 1, sizeof(*href));
	struct rep_suite_request req = {
		.drives_label = s->drives_label,
		.drives = s->o.drives,
		.nr_drives = s->o.nr_drives,
		.argc = s->o.argc,
		.argv = s->o.argv,
		.profiles = rp,
		.nr_profiles = s->nr,
		.status = status,
	};
	char page[PATH_MAX + 16];
	int ret = -ENOMEM;

	if (!rp || !results || !href)
		goto out;
	for (size_t i = 0; i < s->nr; i++) {
		snprintf(results[i], sizeof(results[i]), "%s/results.json", s->p[i].outdir);
		snprintf(href[i], sizeof(href[i]), "%s/report.html", s->p[i].name);
		rp[i] = (struct rep_suite_profile){
			.name = s->p[i].name,
			.title = s->p[i].info.title,
			.figures = s->p[i].figures,
			.results_path =
				s->p[i].has_run && !access(results[i], F_OK) ? results[i] : NULL,
			.href = href[i],
		};
	}
	snprintf(page, sizeof(page), "%s/report.html", s->outdir);
	req.html_path = page;
	ret = rep_suite_write(&req);
	if (ret) {
		fprintf(stderr, "ioramp suite: error: %s\n", req.err);
		goto out;
	}
	rep_suite_print(&req, stdout);
	printf("\nioramp suite: %s; report: %s\n", status_word(status), page);
out:
	free(rp);
	free(results);
	free(href);
	return ret;
}

int cli_suite_execute(struct cli_suite *s)
{
	struct rep_outdir_err oe;
	int rc = CLI_EXIT_OK, ret;

	ret = rep_outdir_create(s->o.outdir ? s->o.outdir : "suite", wall_ns(), s->outdir,
				sizeof(s->outdir), &oe);
	if (ret) {
		rep_outdir_perror(stderr, "ioramp suite", s->o.outdir ? s->o.outdir : "suite",
				  s->outdir, ret, &oe);
		return CLI_EXIT_USAGE;
	}
	cli_signals_catch();
	for (size_t i = 0; !rc && i < s->nr; i++) {
		rc = cli_signal_exit();
		if (!rc)
			rc = run_profile(s, i);
	}
	if (write_report(s, rc) && !rc)
		rc = CLI_EXIT_FAILED;
	return rc;
}
