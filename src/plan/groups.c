/* An RD's sd= as VDbench 5.04.07 lists it (tests/parm/FINDINGS.md §1.3): sd=single repeats the
 * whole RD once per SD of the SD list (not only the workloads' SDs) as <rd>_<sd>, sd=range on
 * sd1, sd1-sd2, ... as <rd>_sd1-sd2, sd=setsofN on consecutive sets of N as <rd>_sdA_sdB. For
 * setsofN VDbench shuffles the SDs first in an order we could not derive; ioramp keeps the SD
 * order (tests/parm/README.md, DIFFERENCES). */
#include "plan_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runs of one group: SDs idx[0..nr) named rd_suffix. */
static int run_group(struct plan_builder *b, const size_t *idx, size_t nr, const char *suffix)
{
	char *name = NULL;
	int ret;

	if (asprintf(&name, "%s_%s", b->rd->name, suffix) < 0)
		return -ENOMEM;
	b->run_name = name;
	b->sd_idx = idx;
	b->nr_sd = nr;
	ret = plan_expand_loops(b, 0);
	b->run_name = NULL;
	free(name);
	return ret;
}

/* Appends "_sdX" (setsofN) or "-sdX" (range) for SD i. */
static int suffix_add(char **s, size_t *len, const char *sep, const char *name)
{
	size_t n = strlen(name) + strlen(sep);
	char *t = realloc(*s, *len + n + 1);

	if (!t)
		return -ENOMEM;
	snprintf(t + *len, n + 1, "%s%s", *len ? sep : "", name);
	*len += strlen(t + *len);
	*s = t;
	return 0;
}

static int groups_single(struct plan_builder *b, const size_t *all, size_t nr)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < nr; i++)
		ret = run_group(b, &all[i], 1, b->cfg->sds[all[i]].name);
	return ret;
}

static int groups_range(struct plan_builder *b, const size_t *all, size_t nr)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < nr; i++) {
		char *suffix = NULL;
		size_t len = 0;

		ret = suffix_add(&suffix, &len, "", b->cfg->sds[all[0]].name);
		if (!ret)
			ret = suffix_add(&suffix, &len, "-", b->cfg->sds[all[i]].name);
		if (!ret)
			ret = run_group(b, all, i + 1, suffix);
		free(suffix);
	}
	return ret;
}

static int groups_sets(struct plan_builder *b, const size_t *all, size_t nr)
{
	size_t n = b->rd->sd_set_size;
	int ret = 0;

	for (size_t i = 0; !ret && i < nr; i += n) {
		size_t k = nr - i < n ? nr - i : n, len = 0;
		char *suffix = NULL;

		for (size_t j = 0; !ret && j < k; j++)
			ret = suffix_add(&suffix, &len, "_", b->cfg->sds[all[i + j]].name);
		if (!ret)
			ret = run_group(b, &all[i], k, suffix);
		free(suffix);
	}
	return ret;
}

int plan_rd_groups(struct plan_builder *b)
{
	const struct parm_rd *rd = b->rd;
	size_t nr = b->cfg->nr_sds;
	size_t *all;
	int ret;

	b->run_name = rd->name;
	b->sd_idx = rd->sd_mode == PARM_SD_LIST ? rd->sd_idx : NULL;
	b->nr_sd = rd->sd_mode == PARM_SD_LIST ? rd->nr_sd : 0;
	if (rd->sd_mode == PARM_SD_NONE || rd->sd_mode == PARM_SD_LIST)
		return plan_expand_loops(b, 0);
	all = malloc((nr ? nr : 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		all[i] = i;
	if (rd->sd_mode == PARM_SD_SINGLE)
		ret = groups_single(b, all, nr);
	else if (rd->sd_mode == PARM_SD_RANGE)
		ret = groups_range(b, all, nr);
	else
		ret = groups_sets(b, all, nr);
	free(all);
	return ret;
}
