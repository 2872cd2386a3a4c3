/* The host reports (reference §10.2): <host>.html, the interval and average lines of each host's
 * total, and <host>-<n>.html, those of each slave (one MPI rank), as VDbench 5.04.07 writes
 * them ([observed], doc/cluster.md): a title line, links to the slaves, the run links, then per
 * run its anchor and the lines in the console layout, with that host's CPU. On one host, the
 * pair VDbench writes for its one slave: localhost.html and localhost-0.html with the run's
 * totals, linking the slave's stdout (slavelog.c) and localhost.var_adm_msgs.html, which holds
 * only its heading as ioramp scans no system log (observed: VDbench's on a host without
 * /var/adm/messages). With jvms= (or VDbench's adjusted count) localhost.html links every
 * slave and each localhost-N.html holds the I/O of that slave's threads (observed: the same
 * layout, the host's CPU; a slave without threads in a run: its anchor only). */
#include "ioramp/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vdbtext.h"

struct host_file {
	FILE *f;
	uint32_t nr_lines;
};

struct hosts {
	const struct rep_exec *x;
	struct host_file *host;	 /* nr_hosts */
	struct host_file *slave; /* nr_slaves */
	bool is_solo;		 /* one host: host[0] and slave[0] show the total */
};

static int hosts_close(void *state, int status);

static FILE *open_file(const struct rep_exec *x, const char *name)
{
	char file[1024];

	snprintf(file, sizeof(file), "%s.html", name);
	return rep_html_open(x, file);
}

static int open_host(struct hosts *h, size_t i)
{
	const struct rep_exec *x = h->x;
	FILE *f = open_file(x, x->host_names[i]);

	if (!f)
		return -errno;
	h->host[i].f = f;
	fprintf(f, "Host summary report(s) for host=%s\n\n", x->host_names[i]);
	for (size_t k = 0; k < x->nr_slaves; k++)
		if (x->slave_host[k] == i)
			fprintf(f,
				"Link to slave summary report:    <A HREF=\"%s.html\">%s "
				"summary</A>\n",
				x->slave_names[k], x->slave_names[k]);
	fputc('\n', f);
	rep_html_run_links(f, x);
	fputc('\n', f);
	fflush(f);
	return 0;
}

static int open_slave(struct hosts *h, size_t i)
{
	const struct rep_exec *x = h->x;
	FILE *f = open_file(x, x->slave_names[i]);

	if (!f)
		return -errno;
	h->slave[i].f = f;
	fprintf(f, "Slave summary report for slave=%s\n\n", x->slave_names[i]);
	rep_html_run_links(f, x);
	fputc('\n', f);
	fflush(f);
	return 0;
}

static int write_messages(const struct rep_exec *x, const char *host)
{
	char file[1024];
	FILE *f;

	snprintf(file, sizeof(file), "%s.var_adm_msgs.html", host);
	f = rep_html_open(x, file);
	if (!f)
		return -errno;
	fprintf(f, "This file will contain the last 'nn' lines of files \n"
		   "/var/adm/messages and /var/adm/messages.0 on the target host. \n \n");
	return rep_html_close(f);
}

/* report=host_detail / slave_detail (vdb_hostdetail.c): one link per SD of the configuration,
 * the first after the label, the others under it. */
static void sd_links(FILE *f, const struct rep_exec *x, const char *label, const char *pre)
{
	for (size_t i = 0; i < x->cfg->nr_sds; i++) {
		const struct parm_sd *sd = &x->cfg->sds[i];

		fprintf(f, "%*s<A HREF=\"%s.%s.html\">sd=%s,host=%s,lun=%s</A>\n",
			i ? (int)strlen(label) : 0, i ? "" : label, pre, sd->name, sd->name,
			rep_host_name(x), sd->lun ? sd->lun : "");
	}
}

static int open_solo_slave(struct hosts *h, uint32_t k)
{
	const struct rep_exec *x = h->x;
	char slave[512];
	FILE *f;

	snprintf(slave, sizeof(slave), "%s-%u", rep_host_name(x), k);
	f = open_file(x, slave);
	if (!f)
		return -errno;
	h->slave[k].f = f;
	fprintf(f,
		"Slave summary report for slave=%s\n\n"
		"Console log:                     <A HREF=\"%s.stdout.html\">Slave stdout/stderr</A>"
		"\n",
		slave, slave);
	if (x->cfg && !x->cfg->fs && x->cfg->general.is_slave_detail) {
		fprintf(f,
			"Link to response time histogram: <A HREF=\"%s.histogram.html\">histogram"
			"</A>\n",
			slave);
		sd_links(f, x, "Links to slave SD reports:       ", slave);
	}
	fputc('\n', f);
	rep_html_run_links(f, x);
	fputc('\n', f);
	fflush(f);
	return 0;
}

static int open_solo(struct hosts *h)
{
	const struct rep_exec *x = h->x;
	const char *host = rep_host_name(x);
	FILE *f = open_file(x, host);
	int ret = 0;

	if (!f)
		return -errno;
	h->host[0].f = f;
	fprintf(f, "Host summary report(s) for host=%s\n\n", host);
	if (x->cfg && !x->cfg->fs && x->cfg->general.is_host_detail)
		fprintf(f,
			"Link to response time histogram: <A HREF=\"%s.histogram.html\">histogram"
			"</A>\n",
			host);
	for (uint32_t k = 0; k < rep_nr_jvms(x); k++)
		fprintf(f,
			"Link to slave summary report:    <A HREF=\"%s-%u.html\">%s-%u summary</A>   "
			"<A HREF=\"%s-%u.stdout.html\">%s-%u stdout</A>\n",
			host, k, host, k, host, k, host, k);
	fprintf(f,
		"Link to /var/adm/messages:       <A HREF=\"%s.var_adm_msgs.html\">messages</A>\n",
		host);
	if (x->cfg && !x->cfg->fs && x->cfg->general.is_host_detail)
		sd_links(f, x, "Link to host SD reports:         ", host);
	fputc('\n', f);
	rep_html_run_links(f, x);
	fputc('\n', f);
	fflush(f);
	for (uint32_t k = 0; !ret && k < rep_nr_jvms(x); k++)
		ret = open_solo_slave(h, k);
	return ret ? ret : write_messages(x, host);
}

static int hosts_open(const struct rep_exec *x, void **state)
{
	struct hosts *h;
	int ret = 0;

	*state = NULL;
	if (!x->outdir)
		return 0;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->x = x;
	h->is_solo = !x->nr_hosts;
	h->host = calloc(x->nr_hosts ? x->nr_hosts : 1, sizeof(*h->host));
	h->slave = calloc(x->nr_slaves ? x->nr_slaves : rep_nr_jvms(x), sizeof(*h->slave));
	if (!h->host || !h->slave)
		ret = -ENOMEM;
	if (!ret && h->is_solo)
		ret = open_solo(h);
	for (size_t i = 0; !ret && i < x->nr_hosts; i++)
		ret = open_host(h, i);
	for (size_t i = 0; !ret && i < x->nr_slaves; i++)
		ret = open_slave(h, i);
	if (ret) {
		hosts_close(h, 1);
		return ret;
	}
	*state = h;
	return 0;
}

static void file_run_start(struct host_file *hf, const struct rep_run *r)
{
	hf->nr_lines = 0;
	fputc('\n', hf->f);
	rep_html_anchor(hf->f, r);
	fputc('\n', hf->f);
	fflush(hf->f);
}

static size_t nr_host_files(const struct hosts *h)
{
	return h->is_solo ? 1 : h->x->nr_hosts;
}

static size_t nr_slave_files(const struct hosts *h)
{
	return h->is_solo ? rep_nr_jvms(h->x) : h->x->nr_slaves;
}

static int hosts_run_start(void *state, const struct rep_run *r)
{
	struct hosts *h = state;

	for (size_t i = 0; h && i < nr_host_files(h); i++)
		file_run_start(&h->host[i], r);
	for (size_t i = 0; h && i < nr_slave_files(h); i++)
		file_run_start(&h->slave[i], r);
	return 0;
}

/* One line of bank b, with the CPU of the slave cpu_idx (a host: its first slave). */
static void file_line(const struct rep_exec *x, struct host_file *hf, const struct rep_sample *s,
		      const struct stats_bank *b, size_t cpu_idx)
{
	struct rep_sample mine = *s;

	if (s->slave_cpu && cpu_idx < x->nr_slaves && !isnan(s->slave_cpu[cpu_idx].used_pct))
		mine.cpu = s->slave_cpu[cpu_idx];
	if (hf->nr_lines % 30 == 0 && !(s->is_avg && hf->nr_lines))
		rep_header_print(hf->f, x, s->tod_ns, s->has_cpu);
	if (!s->is_avg)
		hf->nr_lines++;
	rep_line_print(hf->f, x, &mine, b);
	fflush(hf->f);
}

static void hosts_sample(struct hosts *h, const struct rep_run *r, const struct rep_sample *s)
{
	const struct rep_exec *x = h->x;

	if (h->is_solo) { /* the one slave is the host: both show the total */
		file_line(x, &h->host[0], s, s->total, 0);
		if (!s->jvm || rep_nr_jvms(x) == 1) {
			file_line(x, &h->slave[0], s, s->total, 0);
			return;
		}
		for (uint32_t k = 0; k < rep_nr_jvms(x); k++)
			if (rep_jvm_threads(x, r, k, r->nr_sds))
				file_line(x, &h->slave[k], s, &s->jvm[k], 0);
		return;
	}
	if (!s->host || r->nr_hosts != x->nr_hosts || r->nr_slaves != x->nr_slaves)
		return;
	for (size_t i = 0; i < x->nr_hosts; i++) {
		size_t first = x->nr_slaves;

		for (size_t k = 0; k < x->nr_slaves && first == x->nr_slaves; k++)
			if (x->slave_host[k] == i)
				first = k;
		file_line(x, &h->host[i], s, &s->host[i], first);
	}
	for (size_t i = 0; i < x->nr_slaves; i++)
		file_line(x, &h->slave[i], s, &s->slave[i], i);
}

static int hosts_interval(void *state, const struct rep_run *r, const struct rep_sample *s)
{
	if (state)
		hosts_sample(state, r, s);
	return 0;
}

static int hosts_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	if (state && e->avg)
		hosts_sample(state, r, e->avg);
	return 0;
}

static int hosts_close(void *state, int status)
{
	struct hosts *h = state;
	int ret = 0;

	(void)status;
	if (!h)
		return 0;
	for (size_t i = 0; h->host && i < nr_host_files(h); i++) {
		int r = h->host[i].f ? rep_html_close(h->host[i].f) : 0;

		if (r < 0 && !ret)
			ret = r;
	}
	for (size_t i = 0; h->slave && i < nr_slave_files(h); i++) {
		int r = h->slave[i].f ? rep_html_close(h->slave[i].f) : 0;

		if (r < 0 && !ret)
			ret = r;
	}
	free(h->host);
	free(h->slave);
	free(h);
	return ret;
}

const struct rep_ops rep_hostreport = {
	.name = "hostreport",
	.file = "host reports (HOST.html)",
	.open = hosts_open,
	.run_start = hosts_run_start,
	.interval = hosts_interval,
	.run_end = hosts_run_end,
	.close = hosts_close,
};
