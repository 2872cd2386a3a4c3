/* report=host_detail and report=slave_detail on one host (VDbench 5.04.07, observed): per SD
 * of the configuration a host SD report <host>.<sd>.html ("Host SD report for
 * sd=NAME,host=HOST,lun=LUN") and a slave SD report <host>-0.<sd>.html ("Slave SD report for
 * sd=NAME"), each the interval and average lines of that SD as in <sd>.html; and the host's
 * and the slave's histogram files <host>.histogram.html ("Host response time histogram.") and
 * <host>-0.histogram.html ("Slave response time histogram."), as histogram.html. On one host
 * with its one slave the host's and the slave's figures are the whole run's; localhost.html and
 * localhost-0.html link these files (hosts.c). */
#include "ioramp/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vdbtext.h"

enum hd_kind {
	HD_HOST,
	HD_SLAVE,
	HD_NR,
};

struct hd_sd {
	FILE *f;
	const char *name;
	int run_idx; /* in the current run; -1: not in it */
	uint32_t nr_lines;
};

struct hostdetail {
	const struct rep_exec *x;
	struct stats_vdb_buckets defaults;
	bool is_on[HD_NR];
	FILE *hist[HD_NR];
	size_t nr_sds;
	struct hd_sd *sds[HD_NR]; /* nr_sds each, when is_on */
	const char **names;
};

static int hd_close(void *state, int status);

/* "<host>" or "<host>-0", the prefix of kind's files. */
static void prefix(const struct rep_exec *x, enum hd_kind k, char *buf, size_t len)
{
	snprintf(buf, len, k == HD_HOST ? "%s" : "%s-0", rep_host_name(x));
}

static const char *sd_lun(const struct rep_exec *x, const char *name)
{
	for (size_t i = 0; x->cfg && i < x->cfg->nr_sds; i++)
		if (!strcmp(x->cfg->sds[i].name, name))
			return x->cfg->sds[i].lun ? x->cfg->sds[i].lun : "";
	return "";
}

static FILE *open_page(struct hostdetail *h, const char *file, const char *heading)
{
	FILE *f = rep_html_open(h->x, file);

	if (!f)
		return NULL;
	fprintf(f, "%s\n\n\n", heading);
	rep_html_run_links(f, h->x);
	fputc('\n', f);
	fflush(f);
	return f;
}

static int open_kind(struct hostdetail *h, enum hd_kind k)
{
	char pre[512], file[1024], heading[2048];

	prefix(h->x, k, pre, sizeof(pre));
	snprintf(file, sizeof(file), "%s.histogram.html", pre);
	h->hist[k] = open_page(h, file,
			       k == HD_HOST ? "Host response time histogram."
					    : "Slave response time histogram.");
	if (!h->hist[k])
		return -errno;
	h->sds[k] = calloc(h->nr_sds ? h->nr_sds : 1, sizeof(*h->sds[k]));
	if (!h->sds[k])
		return -ENOMEM;
	for (size_t i = 0; i < h->nr_sds; i++) {
		struct hd_sd *s = &h->sds[k][i];

		s->name = h->names[i];
		s->run_idx = -1;
		snprintf(file, sizeof(file), "%s.%s.html", pre, s->name);
		if (k == HD_HOST)
			snprintf(heading, sizeof(heading),
				 "Host SD report for sd=%s,host=%s,lun=%s", s->name,
				 rep_host_name(h->x), sd_lun(h->x, s->name));
		else
			snprintf(heading, sizeof(heading), "Slave SD report for sd=%s", s->name);
		s->f = open_page(h, file, heading);
		if (!s->f)
			return -errno;
	}
	return 0;
}

static int hd_open(const struct rep_exec *x, void **state)
{
	const struct parm_general *g = x->cfg ? &x->cfg->general : NULL;
	struct hostdetail *h;
	int ret = 0;

	*state = NULL;
	if (!x->outdir || !g || x->cfg->fs || x->nr_hosts > 1 ||
	    !(g->is_host_detail || g->is_slave_detail))
		return 0;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->x = x;
	stats_vdb_default(&h->defaults);
	h->is_on[HD_HOST] = g->is_host_detail;
	h->is_on[HD_SLAVE] = g->is_slave_detail;
	h->names = rep_def_names(x, false, &h->nr_sds);
	for (int k = 0; !ret && k < HD_NR; k++)
		if (h->is_on[k])
			ret = open_kind(h, (enum hd_kind)k);
	if (ret) {
		hd_close(h, 1);
		return ret;
	}
	*state = h;
	return 0;
}

static void each_file(struct hostdetail *h, void (*fn)(struct hostdetail *, FILE *, void *),
		      void *arg)
{
	for (int k = 0; k < HD_NR; k++)
		if (h->is_on[k])
			fn(h, h->hist[k], arg);
}

static int hd_run_start(void *state, const struct rep_run *r)
{
	struct hostdetail *h = state;

	for (int k = 0; h && k < HD_NR; k++) {
		if (!h->is_on[k])
			continue;
		for (size_t i = 0; i < h->nr_sds; i++) {
			struct hd_sd *s = &h->sds[k][i];

			s->run_idx = rep_name_find(r->sd_names, r->nr_sds, s->name);
			s->nr_lines = 0;
			fputc('\n', s->f);
			rep_html_anchor(s->f, r);
			fputc('\n', s->f);
			fflush(s->f);
		}
	}
	return 0;
}

/* As <sd>.html (detail.c): the header every 30 interval lines, then the line. */
static void sd_line(struct hostdetail *h, struct hd_sd *s, const struct rep_sample *smp)
{
	if (s->run_idx < 0 || !smp->sd)
		return;
	if (s->nr_lines % 30 == 0 && !(smp->is_avg && s->nr_lines))
		rep_header_print(s->f, h->x, smp->tod_ns, smp->has_cpu);
	if (!smp->is_avg)
		s->nr_lines++;
	rep_line_print(s->f, h->x, smp, &smp->sd[s->run_idx]);
	fflush(s->f);
}

static void all_lines(struct hostdetail *h, const struct rep_sample *smp)
{
	for (int k = 0; k < HD_NR; k++)
		if (h->is_on[k])
			for (size_t i = 0; i < h->nr_sds; i++)
				sd_line(h, &h->sds[k][i], smp);
}

static int hd_interval(void *state, const struct rep_run *r, const struct rep_sample *s)
{
	(void)r;
	if (state)
		all_lines(state, s);
	return 0;
}

struct hist_arg {
	const struct rep_run *r;
	const struct rep_sample *avg;
};

static void hist_run(struct hostdetail *h, FILE *f, void *arg)
{
	const struct hist_arg *a = arg;

	fputc('\n', f);
	rep_html_anchor(f, a->r);
	fputc('\n', f);
	rep_hist_write_run(f, h->x->vdb_buckets ? h->x->vdb_buckets : &h->defaults, a->avg->total);
	fflush(f);
}

static int hd_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct hostdetail *h = state;
	struct hist_arg a = { r, e->avg };

	if (!h || !e->avg)
		return 0;
	all_lines(h, e->avg);
	each_file(h, hist_run, &a);
	return 0;
}

static int hd_close(void *state, int status)
{
	struct hostdetail *h = state;
	int ret = 0, r;

	(void)status;
	if (!h)
		return 0;
	for (int k = 0; k < HD_NR; k++) {
		r = rep_html_close(h->hist[k]);
		if (r < 0 && !ret)
			ret = r;
		for (size_t i = 0; h->sds[k] && i < h->nr_sds; i++) {
			r = rep_html_close(h->sds[k][i].f);
			if (r < 0 && !ret)
				ret = r;
		}
		free(h->sds[k]);
	}
	free(h->names);
	free(h);
	return ret;
}

const struct rep_ops rep_hostdetail = {
	.name = "hostdetail",
	.open = hd_open,
	.run_start = hd_run_start,
	.interval = hd_interval,
	.run_end = hd_run_end,
	.close = hd_close,
};
