/* A rank's share of a run on many hosts, as VDbench shares a run among its slaves
 * (reference §9.2, §9.3, doc/cluster.md): each SD's threads spread over the hosts it exists on
 * (and some workload of the run may run on), then over each host's slaves; a rank runs a
 * (WD, SD) generator where it has threads for the SD and the WD may run on its host; and a
 * workload's rate is split equally over all its generators on all ranks. */
#include "ioramp/cluster.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void clu_share_fini(struct clu_share *s)
{
	free(s->threads);
	free(s->nr_instances);
	free(s->is_wd_here);
	memset(s, 0, sizeof(*s));
}

/* The run's SDs in the engine's order and their threads, as the plan resolved them. */
static size_t run_sds(const struct plan_run *pr, size_t *order, uint32_t *threads)
{
	for (size_t i = 0; i < pr->nr_sds; i++) {
		order[i] = pr->sds[i].sd_idx;
		threads[i] = pr->sds[i].threads;
	}
	return pr->nr_sds;
}

static bool wd_uses(const struct plan_run *pr, size_t w, size_t sd)
{
	return plan_run_wd_uses_sd(pr, w, sd);
}

/* The run's SDs as the split sees them. */
struct run_sds {
	const struct clu_map *m;
	const struct plan *plan;
	const struct plan_run *pr;
	size_t *order;	   /* config SD of run SD i */
	uint32_t *threads; /* its total threads */
	size_t nr;
	bool *ok;	 /* [i * nr_hosts + h]: SD i runs on host h */
	uint32_t *split; /* [rank * nr + i]: rank's threads of SD i */
};

/* Whether SD order[i] runs on host h: it exists there and some workload using it may run. */
static void hosts_ok(struct run_sds *rs)
{
	const struct clu_map *m = rs->m;

	for (size_t i = 0; i < rs->nr; i++) {
		for (size_t h = 0; h < m->nr_hosts; h++) {
			const char *label = m->hosts[h].label;
			bool is_ok = clu_sd_lun(&rs->plan->cfg->sds[rs->order[i]], label) != NULL;
			bool has_wd = false;

			for (size_t w = 0; is_ok && !has_wd && w < rs->pr->nr_wds; w++)
				has_wd = wd_uses(rs->pr, w, rs->order[i]) &&
					 clu_wd_on_host(rs->pr->wds[w], label);
			rs->ok[i * m->nr_hosts + h] = is_ok && has_wd;
		}
	}
}

static void count_instances(const struct run_sds *rs, uint32_t rank, struct clu_share *out)
{
	const struct clu_map *m = rs->m;
	const struct plan_run *pr = rs->pr;
	int32_t host = m->host_of[rank];

	for (size_t w = 0; w < pr->nr_wds; w++) {
		out->is_wd_here[w] = host >= 0 && clu_wd_on_host(pr->wds[w], m->hosts[host].label);
		for (size_t i = 0; i < rs->nr; i++) {
			if (!wd_uses(pr, w, rs->order[i]))
				continue;
			for (uint32_t r = 0; r < m->nr_ranks; r++)
				if (m->host_of[r] >= 0 && rs->split[(size_t)r * rs->nr + i] &&
				    clu_wd_on_host(pr->wds[w], m->hosts[m->host_of[r]].label))
					out->nr_instances[w]++;
		}
	}
}

static void run_sds_fini(struct run_sds *rs)
{
	free(rs->order);
	free(rs->threads);
	free(rs->ok);
	free(rs->split);
}

int clu_share_build(const struct clu_map *m, const struct plan *plan, size_t run_idx, uint32_t rank,
		    struct clu_share *out)
{
	const struct plan_run *pr = &plan->runs[run_idx];
	size_t nr_cfg = plan->cfg->nr_sds ? plan->cfg->nr_sds : 1;
	size_t nr_hosts = m->nr_hosts ? m->nr_hosts : 1;
	struct run_sds rs = {
		.m = m,
		.plan = plan,
		.pr = pr,
		.order = calloc(nr_cfg, sizeof(*rs.order)),
		.threads = calloc(nr_cfg, sizeof(*rs.threads)),
		.ok = calloc(nr_cfg * nr_hosts, sizeof(*rs.ok)),
		.split = calloc(nr_cfg * m->nr_ranks, sizeof(*rs.split)),
	};

	memset(out, 0, sizeof(*out));
	out->threads = calloc(nr_cfg, sizeof(*out->threads));
	out->nr_instances = calloc(pr->nr_wds ? pr->nr_wds : 1, sizeof(*out->nr_instances));
	out->is_wd_here = calloc(pr->nr_wds ? pr->nr_wds : 1, sizeof(*out->is_wd_here));
	if (!rs.order || !rs.threads || !rs.ok || !rs.split || !out->threads ||
	    !out->nr_instances || !out->is_wd_here) {
		run_sds_fini(&rs);
		clu_share_fini(out);
		return -ENOMEM;
	}
	rs.nr = run_sds(pr, rs.order, rs.threads);
	hosts_ok(&rs);
	clu_split_threads(m, rs.threads, rs.ok, rs.nr, rs.split);
	for (size_t i = 0; i < rs.nr; i++)
		out->threads[rs.order[i]] = rs.split[(size_t)rank * rs.nr + i];
	count_instances(&rs, rank, out);
	run_sds_fini(&rs);
	return 0;
}

void clu_share_print(const struct clu_map *m, const struct plan *plan, FILE *f)
{
	struct clu_share *sh = calloc(m->nr_ranks, sizeof(*sh));
	char name[300];

	for (size_t i = 0; sh && i < plan->nr_runs; i++) {
		const struct plan_run *pr = &plan->runs[i];
		bool is_ok = true;

		for (uint32_t r = 0; r < m->nr_ranks; r++)
			is_ok &= !clu_share_build(m, plan, i, r, &sh[r]);
		fprintf(f, "%s threads:", pr->name);
		for (size_t s = 0; is_ok && s < plan->cfg->nr_sds; s++) {
			bool has = false;

			for (uint32_t r = 0; r < m->nr_ranks; r++)
				has |= sh[r].threads[s] > 0;
			if (!has)
				continue;
			fprintf(f, " sd=%s(", plan->cfg->sds[s].name);
			for (uint32_t r = 0, n = 0; r < m->nr_ranks; r++) {
				if (!sh[r].threads[s])
					continue;
				clu_slave_name(m, r, name, sizeof(name));
				fprintf(f, "%s%s=%u", n++ ? "," : "", name, sh[r].threads[s]);
			}
			fputc(')', f);
		}
		fputc('\n', f);
		for (uint32_t r = 0; r < m->nr_ranks; r++)
			clu_share_fini(&sh[r]);
	}
	free(sh);
}
