/* Which rank plays which host (reference §3): hd= definitions take their jvms= ranks on the
 * machine their system= names, or the next free ranks in order; without hd= each machine is a
 * host and all its ranks are its slaves. Also where an SD's lun is on each host and where a
 * workload may run. Pure: the rank names come from the transport. */
#include "ioramp/cluster.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void clu_names_free(char **names, uint32_t nr)
{
	for (uint32_t i = 0; names && i < nr; i++)
		free(names[i]);
	free(names);
}

void clu_map_fini(struct clu_map *m)
{
	for (size_t h = 0; m->hosts && h < m->nr_hosts; h++) {
		free(m->hosts[h].label);
		free(m->hosts[h].system);
		free(m->hosts[h].ranks);
	}
	free(m->hosts);
	free(m->host_of);
	free(m->slave_of);
	clu_names_free(m->rank_names, m->nr_ranks);
	memset(m, 0, sizeof(*m));
}

/* "node1" matches "node1" and "node1.example.com" (either way round). */
static bool is_same_machine(const char *a, const char *b)
{
	size_t la = strcspn(a, "."), lb = strcspn(b, ".");

	if (!strcmp(a, b))
		return true;
	return la == lb && !strncmp(a, b, la) && (!a[la] || !b[lb]);
}

static bool is_local_name(const char *s)
{
	return !strcmp(s, "localhost") || !strcmp(s, "127.0.0.1") || !strcmp(s, "::1");
}

static int host_add(struct clu_map *m, const char *label, const char *system,
		    const struct parm_hd *hd, uint32_t nr)
{
	struct clu_host *h = &m->hosts[m->nr_hosts++];

	h->label = strdup(label);
	h->system = strdup(system);
	h->ranks = calloc(nr ? nr : 1, sizeof(*h->ranks));
	h->hd = hd;
	return h->label && h->system && h->ranks ? 0 : -ENOMEM;
}

static void rank_take(struct clu_map *m, size_t h, uint32_t r)
{
	struct clu_host *host = &m->hosts[h];

	m->host_of[r] = (int32_t)h;
	m->slave_of[r] = host->nr_ranks;
	host->ranks[host->nr_ranks++] = r;
}

/* Without hd=: one host per machine, in the order of their first rank. */
static int map_machines(struct clu_map *m)
{
	for (uint32_t r = 0; r < m->nr_ranks; r++) {
		size_t h;
		int ret;

		for (h = 0; h < m->nr_hosts; h++)
			if (!strcmp(m->hosts[h].system, m->rank_names[r]))
				break;
		if (h == m->nr_hosts) {
			ret = host_add(m, m->rank_names[r], m->rank_names[r], NULL, m->nr_ranks);
			if (ret)
				return ret;
		}
		rank_take(m, h, r);
	}
	return 0;
}

static const char *hd_machine(const struct parm_hd *hd, const struct clu_map *m)
{
	const char *sys = hd->system			   ? hd->system
			  : !strcmp(hd->name, "localhost") ? hd->name
							   : NULL;

	if (sys && is_local_name(sys))
		return m->rank_names[0]; /* localhost: where rank 0 runs */
	return sys;
}

static int hd_short(const struct parm_hd *hd, const char *machine, uint32_t got,
		    const struct clu_map *m, struct parm_err *err)
{
	uint32_t want = hd->jvms ? hd->jvms : 1;

	if (machine)
		return parm_errf(err, &hd->loc,
				 "hd=%s needs %u rank%s on %s (jvms=%u) and finds %u free of %u; "
				 "expected more ranks there (mpirun --hostfile, srun "
				 "--ntasks-per-node) or fewer jvms=",
				 hd->name, want, want > 1 ? "s" : "", machine, want, got,
				 m->nr_ranks);
	return parm_errf(err, &hd->loc,
			 "hd=%s needs %u rank%s (jvms=%u) and finds %u free of %u; expected "
			 "more ranks (mpirun -np, srun -n) or fewer hd=/jvms=",
			 hd->name, want, want > 1 ? "s" : "", want, got, m->nr_ranks);
}

/* One hd=: its ranks on its machine (by_name) or the next free ones. */
static int map_hd(struct clu_map *m, const struct parm_hd *hd, size_t h, struct parm_err *err)
{
	const char *machine = hd_machine(hd, m);
	uint32_t want = hd->jvms ? hd->jvms : 1, got = 0;

	for (uint32_t r = 0; r < m->nr_ranks && got < want; r++)
		if (m->host_of[r] < 0 && (!machine || is_same_machine(machine, m->rank_names[r])))
			got++;
	if (got < want)
		return hd_short(hd, machine, got, m, err);
	for (uint32_t r = 0; r < m->nr_ranks && m->hosts[h].nr_ranks < want; r++)
		if (m->host_of[r] < 0 && (!machine || is_same_machine(machine, m->rank_names[r])))
			rank_take(m, h, r);
	free(m->hosts[h].system);
	m->hosts[h].system = strdup(m->rank_names[m->hosts[h].ranks[0]]);
	return m->hosts[h].system ? 0 : -ENOMEM;
}

/* hd= definitions that name their machine first, then the others take what is left in order;
 * the hosts keep the order written. */
static int map_hds(struct clu_map *m, const struct parm_config *cfg, struct parm_err *err)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < cfg->nr_hds; i++) {
		const struct parm_hd *hd = &cfg->hds[i];
		uint32_t want = hd->jvms ? hd->jvms : 1;

		ret = host_add(m, hd->name, "", hd, want);
	}
	for (int pass = 0; pass < 2 && !ret; pass++)
		for (size_t i = 0; !ret && i < cfg->nr_hds; i++)
			if ((hd_machine(&cfg->hds[i], m) != NULL) == (pass == 0))
				ret = map_hd(m, &cfg->hds[i], i, err);
	return ret;
}

int clu_map_build(const struct parm_config *cfg, char *const *rank_names, uint32_t nr_ranks,
		  struct clu_map *m, struct parm_err *err)
{
	size_t max_hosts = cfg->nr_hds ? cfg->nr_hds : nr_ranks;
	int ret;

	memset(m, 0, sizeof(*m));
	m->nr_ranks = nr_ranks;
	m->hosts = calloc(max_hosts ? max_hosts : 1, sizeof(*m->hosts));
	m->host_of = calloc(nr_ranks, sizeof(*m->host_of));
	m->slave_of = calloc(nr_ranks, sizeof(*m->slave_of));
	m->rank_names = calloc(nr_ranks, sizeof(*m->rank_names));
	if (!m->hosts || !m->host_of || !m->slave_of || !m->rank_names)
		goto err_nomem;
	for (uint32_t r = 0; r < nr_ranks; r++) {
		m->host_of[r] = -1;
		if (!(m->rank_names[r] = strdup(rank_names[r])))
			goto err_nomem;
	}
	ret = cfg->nr_hds ? map_hds(m, cfg, err) : map_machines(m);
	if (ret == -ENOMEM)
		parm_errf(err, NULL, "out of memory mapping hosts to ranks");
	if (ret)
		clu_map_fini(m);
	return ret;

err_nomem:
	clu_map_fini(m);
	return parm_errf(err, NULL, "out of memory mapping hosts to ranks"), -ENOMEM;
}

int clu_map_find(const struct clu_map *m, const char *label)
{
	for (size_t h = 0; h < m->nr_hosts; h++)
		if (!strcmp(m->hosts[h].label, label))
			return (int)h;
	return -ENOENT;
}

const char *clu_sd_lun(const struct parm_sd *sd, const char *label)
{
	if (!sd->nr_host_luns)
		return sd->lun;
	for (size_t i = 0; i < sd->nr_host_luns; i++)
		if (!strcmp(sd->host_luns[i].host, label) || !strcmp(sd->host_luns[i].host, "*"))
			return sd->host_luns[i].lun;
	return NULL;
}

bool clu_wd_on_host(const struct parm_wd *wd, const char *label)
{
	const struct parm_val *v = wd->set.val[PARM_KW_HOST];
	size_t nr;

	if (!v)
		return true;
	nr = v->kind == PARM_VAL_LIST ? v->nr_items : 1;
	for (size_t i = 0; i < nr; i++) {
		const char *w = v->kind == PARM_VAL_LIST ? v->items[i].text : v->text;

		if (!strcmp(w, "*") || !strcmp(w, label))
			return true;
	}
	return false;
}

void clu_slave_name(const struct clu_map *m, uint32_t rank, char *buf, size_t len)
{
	if (rank >= m->nr_ranks || m->host_of[rank] < 0)
		snprintf(buf, len, "rank%u", rank);
	else
		snprintf(buf, len, "%s-%u", m->hosts[m->host_of[rank]].label, m->slave_of[rank]);
}

void clu_map_print(const struct clu_map *m, const struct parm_config *cfg, FILE *f)
{
	fprintf(f, "\nHosts: %zu on %u MPI rank%s\n", m->nr_hosts, m->nr_ranks,
		m->nr_ranks == 1 ? "" : "s");
	for (size_t h = 0; h < m->nr_hosts; h++) {
		const struct clu_host *host = &m->hosts[h];

		fprintf(f, "host=%-12s system=%-16s ranks:", host->label, host->system);
		for (uint32_t i = 0; i < host->nr_ranks; i++)
			fprintf(f, " %u (%s-%u)", host->ranks[i], host->label, i);
		fputc('\n', f);
	}
	for (uint32_t r = 0; r < m->nr_ranks; r++)
		if (m->host_of[r] < 0)
			fprintf(f, "rank %u on %s: no hd= uses it; it idles\n", r,
				m->rank_names[r]);
	for (size_t s = 0; s < cfg->nr_sds; s++) {
		const struct parm_sd *sd = &cfg->sds[s];

		if (!sd->nr_host_luns)
			continue;
		fprintf(f, "sd=%s:", sd->name);
		for (size_t h = 0; h < m->nr_hosts; h++) {
			const char *lun = clu_sd_lun(sd, m->hosts[h].label);

			fprintf(f, " host=%s,lun=%s", m->hosts[h].label, lun ? lun : "(none)");
		}
		fputc('\n', f);
	}
}

void clu_split_threads(const struct clu_map *m, const uint32_t *threads, const bool *host_ok,
		       size_t nr_sds, uint32_t *out)
{
	size_t nr_hosts = m->nr_hosts, next_host = 0;
	uint32_t *next_slave = calloc(nr_hosts ? nr_hosts : 1, sizeof(*next_slave));

	memset(out, 0, (size_t)m->nr_ranks * nr_sds * sizeof(*out));
	if (!next_slave)
		return;
	for (size_t s = 0; s < nr_sds; s++) {
		const bool *ok = &host_ok[s * nr_hosts];

		for (uint32_t t = 0; t < threads[s]; t++) {
			size_t h, k;

			for (k = 0; k < nr_hosts; k++) {
				h = (next_host + k) % nr_hosts;
				if (ok[h] && m->hosts[h].nr_ranks)
					break;
			}
			if (k == nr_hosts)
				break; /* the SD runs nowhere */
			out[(size_t)m->hosts[h].ranks[next_slave[h] % m->hosts[h].nr_ranks] *
				    nr_sds +
			    s]++;
			next_slave[h]++;
			next_host = h + 1;
		}
	}
	free(next_slave);
}
