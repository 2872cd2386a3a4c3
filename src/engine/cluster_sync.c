/* Where the ranks of a many-hosts execution meet outside the intervals: every rank votes
 * through rank 0 (set-up done, run ready, run ended), rank 0 combines the votes (the worst
 * status wins, with the host that caused it) and answers with its decisions: the common start
 * time of a run (CLOCK_REALTIME, each rank converts it to its own CLOCK_MONOTONIC) and the
 * rate a run reached. Every wait has a deadline, so a lost rank ends the execution, never
 * hangs it. */
#include "cluster.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int eng_clu_new(struct eng_exec *x)
{
	const struct eng_cluster *o = x->opts->cluster;
	struct eng_clu *cl;
	uint32_t nr_slaves = 0;

	if (!o)
		return 0;
	cl = calloc(1, sizeof(*cl));
	if (!cl)
		return -ENOMEM;
	x->clu = cl;
	cl->comm = o->comm;
	cl->map = o->map;
	cl->rank = o->rank;
	cl->nr_ranks = o->map->nr_ranks;
	cl->host = o->map->host_of[o->rank];
	cl->timeout_ns = o->host_timeout_ns ? o->host_timeout_ns : 30000000000ull;
	cl->is_lost = calloc(cl->nr_ranks, sizeof(*cl->is_lost));
	cl->is_fmt = calloc(x->plan->cfg->nr_sds ? x->plan->cfg->nr_sds : 1, sizeof(*cl->is_fmt));
	cl->slave_idx = calloc(cl->nr_ranks, sizeof(*cl->slave_idx));
	if (!cl->is_lost || !cl->is_fmt || !cl->slave_idx)
		return -ENOMEM;
	/* slaves in host order, then slave order: as rep_run lists them */
	for (uint32_t r = 0; r < cl->nr_ranks; r++)
		cl->slave_idx[r] = UINT32_MAX;
	for (size_t h = 0; h < cl->map->nr_hosts; h++)
		for (uint32_t i = 0; i < cl->map->hosts[h].nr_ranks; i++)
			cl->slave_idx[cl->map->hosts[h].ranks[i]] = nr_slaves++;
	return 0;
}

void eng_clu_free(struct eng_clu *cl)
{
	if (!cl)
		return;
	free(cl->is_lost);
	free(cl->is_fmt);
	free(cl->slave_idx);
	free(cl);
}

bool eng_clu_sd_here(const struct eng_clu *cl, const struct parm_sd *sd)
{
	return cl->host >= 0 && clu_sd_lun(sd, cl->map->hosts[cl->host].label);
}

uint64_t eng_clu_seed(const struct eng_clu *cl, uint64_t seed)
{
	return seed + (uint64_t)cl->rank * 0x9e3779b97f4a7c15ull; /* rank 0: the seed itself */
}

void eng_clu_who(const struct eng_clu *cl, uint32_t rank, char *buf, size_t len)
{
	int32_t h = rank < cl->nr_ranks ? cl->map->host_of[rank] : -1;

	if (h >= 0)
		snprintf(buf, len, "host %s (rank %u on %s)", cl->map->hosts[h].label, rank,
			 cl->map->rank_names[rank]);
	else
		snprintf(buf, len, "rank %u on %s", rank,
			 rank < cl->nr_ranks ? cl->map->rank_names[rank] : "?");
}

/* ENG_BAD_PARMS before ENG_FAILED before ENG_INTERRUPTED before ENG_OK. */
static int severity(int status)
{
	switch (status) {
	case ENG_BAD_PARMS:
		return 3;
	case ENG_FAILED:
		return 2;
	case ENG_INTERRUPTED:
		return 1;
	default:
		return 0;
	}
}

static void combine(struct eng_exec *x, struct eng_clu_vote *v, const struct eng_clu_vote *in,
		    uint32_t rank)
{
	char who[320];

	for (size_t i = 0; i < sizeof(v->bits); i++)
		v->bits[i] |= in->bits[i];
	if (severity(in->status) <= severity(v->status))
		return;
	v->status = in->status;
	if (!in->msg[0]) {
		v->msg[0] = '\0';
		return;
	}
	eng_clu_who(x->clu, rank, who, sizeof(who));
	if (snprintf(v->msg, sizeof(v->msg), "%s:\n%.900s", who, in->msg) >= (int)sizeof(v->msg))
		v->msg[sizeof(v->msg) - 1] = '\0';
}

static void lost(struct eng_exec *x, uint32_t rank, struct eng_clu_vote *v, const char *what)
{
	struct eng_clu *cl = x->clu;
	struct eng_clu_vote in = { .status = ENG_FAILED };
	char who[320];

	cl->is_lost[rank] = true;
	cl->has_lost = true;
	eng_clu_who(cl, rank, who, sizeof(who));
	snprintf(in.msg, sizeof(in.msg), "ioramp: error: %s %s within %llu s; counted as lost", who,
		 what, (unsigned long long)(cl->timeout_ns / 1000000000u));
	if (severity(v->status) < severity(ENG_FAILED)) {
		v->status = ENG_FAILED;
		snprintf(v->msg, sizeof(v->msg), "%s", in.msg);
	}
}

void eng_clu_gather(struct eng_exec *x, struct eng_clu_vote *v)
{
	struct eng_clu *cl = x->clu;
	bool *has = NULL;
	uint32_t nr = 1;
	uint64_t end_ns;

	v->rank = cl->rank;
	if (!eng_clu_is_root(cl)) {
		clu_comm_send(cl->comm, 0, CLU_TAG_CTL_UP, v, sizeof(*v));
		return;
	}
	has = calloc(cl->nr_ranks, sizeof(*has));
	if (!has) {
		v->status = ENG_FAILED;
		snprintf(v->msg, sizeof(v->msg), "out of memory");
		return;
	}
	end_ns = eng_now_ns() + cl->timeout_ns;
	for (uint32_t r = 1; r < cl->nr_ranks; r++)
		nr += cl->is_lost[r];
	while (nr < cl->nr_ranks) {
		uint64_t now = eng_now_ns();
		struct clu_msg msg;
		int ret = clu_comm_recv(cl->comm, -1, CLU_TAG_CTL_UP, &msg,
					now < end_ns ? end_ns - now : 0);

		if (ret == -EAGAIN || ret == -EIO)
			break;
		if (!ret && msg.len == sizeof(*v) && msg.src < cl->nr_ranks && !has[msg.src] &&
		    !cl->is_lost[msg.src]) {
			has[msg.src] = true;
			combine(x, v, msg.buf, msg.src);
			nr++;
		}
		free(msg.buf);
	}
	for (uint32_t r = 1; r < cl->nr_ranks; r++)
		if (!has[r] && !cl->is_lost[r])
			lost(x, r, v, "did not answer");
	free(has);
}

void eng_clu_answer(struct eng_exec *x, struct eng_clu_vote *v)
{
	struct eng_clu *cl = x->clu;
	struct clu_msg msg;
	int ret;

	if (eng_clu_is_root(cl)) {
		for (uint32_t r = 1; r < cl->nr_ranks; r++)
			if (!cl->is_lost[r])
				clu_comm_send(cl->comm, r, CLU_TAG_CTL_DOWN, v, sizeof(*v));
		return;
	}
	ret = clu_comm_recv(cl->comm, 0, CLU_TAG_CTL_DOWN, &msg, cl->timeout_ns + 60000000000ull);
	if (!ret && msg.len == sizeof(*v)) {
		memcpy(v, msg.buf, sizeof(*v));
	} else {
		cl->has_lost = true;
		v->status = ENG_FAILED;
		fprintf(stderr, "ioramp: error: rank %u: rank 0 (on %s) did not answer; ending\n",
			cl->rank, cl->map->rank_names[0]);
	}
	free(msg.buf);
}

static void vote_up(struct eng_clu_vote *v, int status, const struct parm_err *mine)
{
	memset(v, 0, sizeof(*v));
	v->status = status;
	if (status != ENG_OK && mine && mine->msg[0]) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		if (f) {
			parm_err_print(mine, f);
			fclose(f);
			snprintf(v->msg, sizeof(v->msg), "%s", text ? text : mine->msg);
			free(text);
		} else {
			snprintf(v->msg, sizeof(v->msg), "%s", mine->msg);
		}
		len = strlen(v->msg);
		if (len && v->msg[len - 1] == '\n')
			v->msg[len - 1] = '\0';
	}
}

/* Rank 0: another rank's failure is printed here as it sent it (already formatted, with its
 * place and caret), under the host it comes from; rank 0's own stays in err for the caller. */
static void vote_err(const struct eng_clu_vote *v, int mine, struct parm_err *err)
{
	if (v->status == ENG_OK || !v->msg[0])
		return;
	if (mine != ENG_OK && err->msg[0])
		return; /* our own error: the caller prints it */
	fprintf(stderr, "%s\n", v->msg);
	memset(err, 0, sizeof(*err));
}

int eng_clu_agree(struct eng_exec *x, int status, const struct parm_err *mine, struct parm_err *err)
{
	struct eng_clu_vote *v;

	v = malloc(sizeof(*v));
	if (!v)
		return ENG_FAILED;
	int own = status;

	vote_up(v, status, mine);
	eng_clu_gather(x, v);
	eng_clu_answer(x, v);
	status = v->status;
	if (!eng_clu_is_root(x->clu) && status != ENG_OK)
		memset(err, 0, sizeof(*err)); /* rank 0 prints; the others stay quiet */
	else
		vote_err(v, own, err);
	free(v);
	return status;
}

int eng_clu_start(struct eng_exec *x, int status, struct parm_err *err, uint64_t *start_ns)
{
	struct eng_clu_vote *v = malloc(sizeof(*v));
	int64_t delay_ns;
	int own = status;

	if (!v)
		return ENG_FAILED;
	x->clu->run_seq++; /* the same on every rank: each run starts with this vote */
	vote_up(v, status, err);
	eng_clu_gather(x, v);
	/* one second after every rank is ready, on a whole second of the wall clock */
	if (eng_clu_is_root(x->clu))
		v->value = (eng_clock_tod_ns(&x->clock) / 1000000000u + 2) * 1000000000u;
	eng_clu_answer(x, v);
	status = v->status;
	delay_ns = (int64_t)(v->value - eng_clock_tod_ns(&x->clock));
	if (delay_ns < 0 || delay_ns > 10000000000ll) {
		fprintf(stderr,
			"ioramp: warning: rank %u: this machine's clock is %.3f s away from rank 0's "
			"start time; starting in 1 s (synchronize the clocks: NTP or PTP)\n",
			x->clu->rank, (double)delay_ns / 1e9);
		delay_ns = 1000000000;
	}
	*start_ns = eng_now_ns() + (uint64_t)delay_ns;
	if (eng_clu_is_root(x->clu))
		vote_err(v, own, err);
	else if (status != ENG_OK)
		memset(err, 0, sizeof(*err));
	free(v);
	return status;
}

int eng_clu_run_end(struct eng_exec *x, int status, double *observed, struct parm_err *err)
{
	struct eng_clu_vote *v;
	int own = status;

	v = malloc(sizeof(*v));
	if (!v)
		return ENG_FAILED;
	vote_up(v, status, err);
	eng_clu_gather(x, v);
	if (eng_clu_is_root(x->clu)) {
		v->observed_iops = *observed;
		v->last_resp_ms = x->last_resp_ms;
	}
	eng_clu_answer(x, v);
	*observed = v->observed_iops;
	x->last_resp_ms = v->last_resp_ms;
	status = v->status;
	if (eng_clu_is_root(x->clu))
		vote_err(v, own, err);
	else
		memset(err, 0, sizeof(*err));
	free(v);
	return status;
}

int eng_clu_format_sds(struct eng_exec *x, struct parm_err *err)
{
	struct eng_clu *cl = x->clu;
	const struct parm_config *cfg = x->plan->cfg;
	struct eng_clu_vote *v = malloc(sizeof(*v));
	bool is_first = cl->host >= 0 && cl->map->slave_of[cl->rank] == 0;
	int status;

	if (!v)
		return ENG_FAILED;
	vote_up(v, ENG_OK, NULL);
	/* VDbench formats on a host's first slave only ([observed], doc/cluster.md) */
	for (size_t s = 0; s < cfg->nr_sds && s < ENG_CLU_MAX_SDS; s++) {
		if (!is_first)
			x->needs[s].is_format = false;
		if (x->needs[s].is_format)
			v->bits[s / 8] |= (uint8_t)(1u << (s % 8));
	}
	eng_clu_gather(x, v);
	eng_clu_answer(x, v);
	for (size_t s = 0; s < cfg->nr_sds && s < ENG_CLU_MAX_SDS; s++)
		cl->is_fmt[s] = v->bits[s / 8] & (1u << (s % 8));
	status = v->status;
	if (status != ENG_OK && eng_clu_is_root(cl))
		vote_err(v, ENG_OK, err);
	free(v);
	return status;
}
