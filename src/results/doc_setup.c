/* The set-up a reader of results.json needs beside the figures: the host (kernel, CPU), each
 * SD's range and open flags, and each WD's SDs, fixed rate and priority, taken from the
 * parameters so that a page can state the whole test. */
#include "parts.h"

#include <fcntl.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The first "model name" of /proc/cpuinfo, or NULL. */
static json_t *cpu_model(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	json_t *v = NULL;

	while (f && !v && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		v = rep_json_text(colon);
	}
	if (f)
		fclose(f);
	return v ? v : json_null();
}

json_t *rep_doc_host(void)
{
	struct utsname u;
	char kernel[sizeof(u.sysname) + sizeof(u.release) + sizeof(u.machine) + 4];
	long nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (uname(&u))
		snprintf(kernel, sizeof(kernel), "?");
	else
		snprintf(kernel, sizeof(kernel), "%s %s %s", u.sysname, u.release, u.machine);
	return json_pack("{s:o,s:o,s:o}", "kernel", rep_json_text(kernel), "cpu", cpu_model(),
			 "nr_cpus", nr_cpus > 0 ? json_integer(nr_cpus) : json_null());
}

/* "o_direct o_dsync fsync", or "" for none. */
static void openflags_text(const struct parm_openflags *o, char *buf, size_t len)
{
	uint32_t rest = o->flags & ~(uint32_t)(O_DIRECT | O_DSYNC);
	size_t n = 0;

	buf[0] = '\0';
	if ((o->flags & O_DIRECT) && n < len)
		n += (size_t)snprintf(buf + n, len - n, "o_direct");
	if ((o->flags & O_DSYNC) && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%so_dsync", n ? " " : "");
	if (o->has_fsync && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%sfsync", n ? " " : "");
	if (rest && n < len)
		snprintf(buf + n, len - n, "%s0x%x", n ? " " : "", rest);
}

static void sd_setup(const struct parm_config *cfg, json_t *sd)
{
	int i = parm_sd_find(cfg, rep_doc_str(sd, "name", ""));
	char flags[96];

	if (i < 0)
		return;
	openflags_text(&cfg->sds[i].openflags, flags, sizeof(flags));
	json_object_set_new(sd, "range",
			    json_pack("[o,o]", rep_doc_real(cfg->sds[i].range.lo),
				      rep_doc_real(cfg->sds[i].range.hi)));
	json_object_set_new(sd, "openflags", rep_json_text(flags));
}

static void wd_setup(const struct parm_config *cfg, json_t *wd)
{
	int i = parm_wd_find(cfg, rep_doc_str(wd, "name", ""));
	const struct parm_wd *w;
	json_t *sds;

	if (i < 0)
		return;
	w = &cfg->wds[i];
	sds = json_array();
	for (size_t k = 0; sds && k < w->nr_sd; k++)
		if (w->sd_idx[k] < cfg->nr_sds)
			json_array_append_new(sds, rep_json_text(cfg->sds[w->sd_idx[k]].name));
	json_object_set_new(wd, "sds", sds ? sds : json_null());
	json_object_set_new(wd, "iorate", w->iorate > 0 ? rep_doc_real(w->iorate) : json_null());
	json_object_set_new(wd, "priority", w->priority ? json_integer(w->priority) : json_null());
}

void rep_doc_run_setup(const struct parm_config *cfg, json_t *run)
{
	json_t *v;
	size_t i;

	if (!cfg)
		return;
	json_array_foreach (json_object_get(run, "sds"), i, v)
		sd_setup(cfg, v);
	json_array_foreach (json_object_get(run, "wds"), i, v)
		wd_setup(cfg, v);
}
