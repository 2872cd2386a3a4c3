/* report=host_detail and report=slave_detail on one host (VDbench 5.04.07, observed): per SD
 * of the configuration a host SD report <host>.<sd>.html ("Host SD report for
 * sd=NAME,host=HOST,lun=LUN") and per slave a slave SD report <host>-N.<sd>.html ("Slave SD
 * report for sd=NAME"), each the interval and average lines of that SD as in <sd>.html; and
 * the host's and each slave's histogram files <host>.histogram.html ("Host response time
 * histogram.") and <host>-N.histogram.html ("Slave response time histogram."), as
 * histogram.html. The host's figures are the whole run's, and so are the one slave's; with
 * several slaves (jvms=) each slave's are its own share (rep_sample.jvm, jvm_sd).
 * localhost.html and localhost-N.html link these files (hosts.c). */
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

/* The files of the host or of one slave. */
struct hd_page {
	enum hd_kind kind;
	uint32_t jvm; /* HD_SLAVE: which */
	FILE *hist;
	struct hd_sd *sds; /* nr_sds */
};

struct hostdetail {
	const struct rep_exec *x;
	struct stats_vdb_buckets defaults;
	struct hd_page *pages; /* the host's when on, then each slave's when on */
	size_t nr_pages;
	size_t nr_sds;
	const char **names;
};

static int hd_close(void *state, int status);

/* "<host>" or "<host>-N", the prefix of a page's files. */
static void prefix(const struct rep_exec *x, const struct hd_page *p, char *buf, size_t len)
{
	if (p->kind == HD_HOST)
		snprintf(buf, len, "%s", rep_host_name(x));
	else
		snprintf(buf, len, "%s-%u", rep_host_name(x), p->jvm);
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

static int open_kind(struct hostdetail *h, struct hd_page *p)
{
	char pre[512], file[1024], heading[2048];
	enum hd_kind k = p->kind;

	prefix(h->x, p, pre, sizeof(pre));
	snprintf(file, sizeof(file), "%s.histogram.html", pre);
	p->hist = open_page(h, file,
			    k == HD_HOST ? "Host response time histogram."
					 : "Slave response time histogram.");
	if (!p->hist)
		return -errno;
	p->sds = calloc(h->nr_sds ? h->nr_sds : 1, sizeof(*p->sds));
	if (!p->sds)
		return -ENOMEM;
	for (size_t i = 0; i < h->nr_sds; i++) {
		struct hd_sd *s = &p->sds[i];

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
	h->names = rep_def_names(x, false, &h->nr_sds);
	h->pages = calloc(1 + rep_nr_jvms(x), sizeof(*h->pages));
	if (!h->pages)
		ret = -ENOMEM;
	if (!ret && g->is_host_detail)
		h->pages[h->nr_pages++].kind = HD_HOST;
	for (uint32_t j = 0; !ret && g->is_slave_detail && j < rep_nr_jvms(x); j++) {
		h->pages[h->nr_pages].kind = HD_SLAVE;
		h->pages[h->nr_pages++].jvm = j;
	}
	for (size_t i = 0; !ret && i < h->nr_pages; i++)
		ret = open_kind(h, &h->pages[i]);
	if (ret) {
		hd_close(h, 1);
		return ret;
	}
	*state = h;
	return 0;
}

static int hd_run_start(void *state, const struct rep_run *r)
{
	struct hostdetail *h = state;

	for (size_t k = 0; h && k < h->nr_pages; k++) {
		for (size_t i = 0; i < h->nr_sds; i++) {
			struct hd_sd *s = &h->pages[k].sds[i];

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

/* Whether page p shows one of several slaves' own share (else the whole run's). */
static bool is_jvm_share(const struct hd_page *p, const struct rep_sample *smp)
{
	return p->kind == HD_SLAVE && smp->jvm_sd;
}

/* As <sd>.html (detail.c): the header every 30 interval lines, then the line. */
static void sd_line(struct hostdetail *h, const struct hd_page *p, struct hd_sd *s,
		    const struct rep_run *r, const struct rep_sample *smp)
{
	const struct stats_bank *b;

	if (s->run_idx < 0 || !smp->sd)
		return;
	b = is_jvm_share(p, smp) ? &smp->jvm_sd[p->jvm * r->nr_sds + (size_t)s->run_idx]
				 : &smp->sd[s->run_idx];
	if (s->nr_lines % 30 == 0 && !(smp->is_avg && s->nr_lines))
		rep_header_print(s->f, h->x, smp->tod_ns, smp->has_cpu);
	if (!smp->is_avg)
		s->nr_lines++;
	rep_line_print(s->f, h->x, smp, b);
	fflush(s->f);
}

static void all_lines(struct hostdetail *h, const struct rep_run *r, const struct rep_sample *smp)
{
	for (size_t k = 0; k < h->nr_pages; k++)
		for (size_t i = 0; i < h->nr_sds; i++)
			sd_line(h, &h->pages[k], &h->pages[k].sds[i], r, smp);
}

static int hd_interval(void *state, const struct rep_run *r, const struct rep_sample *s)
{
	if (state)
		all_lines(state, r, s);
	return 0;
}

static void hist_run(struct hostdetail *h, const struct hd_page *p, const struct rep_run *r,
		     const struct rep_sample *avg)
{
	FILE *f = p->hist;

	fputc('\n', f);
	rep_html_anchor(f, r);
	fputc('\n', f);
	rep_hist_write_run(f, h->x->vdb_buckets ? h->x->vdb_buckets : &h->defaults,
			   is_jvm_share(p, avg) ? &avg->jvm[p->jvm] : avg->total);
	fflush(f);
}

static int hd_run_end(void *state, const struct rep_run *r, const struct rep_run_end *e)
{
	struct hostdetail *h = state;

	if (!h || !e->avg)
		return 0;
	all_lines(h, r, e->avg);
	for (size_t k = 0; k < h->nr_pages; k++)
		hist_run(h, &h->pages[k], r, e->avg);
	return 0;
}

static int hd_close(void *state, int status)
{
	struct hostdetail *h = state;
	int ret = 0, r;

	(void)status;
	if (!h)
		return 0;
	for (size_t k = 0; k < h->nr_pages; k++) {
		struct hd_page *p = &h->pages[k];

		r = rep_html_close(p->hist);
		if (r < 0 && !ret)
			ret = r;
		for (size_t i = 0; p->sds && i < h->nr_sds; i++) {
			r = rep_html_close(p->sds[i].f);
			if (r < 0 && !ret)
				ret = r;
		}
		free(p->sds);
	}
	free(h->pages);
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
