/* The interval loop on many hosts. Every rank cuts intervals on the same boundaries (the common
 * start, run->start_ns on its own clock), merges its workers' banks and sends them to rank 0
 * without waiting (the workers keep running). Rank 0 adds every rank's banks into the totals,
 * per SD, per WD, per host and per slave (histograms add, so percentiles stay exact to the
 * bucket), reports, and decides when the run ends: it then tells every rank to stop. A rank
 * whose interval does not arrive within the host timeout is lost: rank 0 reports what it has
 * and ends the execution. A signal ends the run everywhere; when the launcher signals because
 * a rank died, the ranks that do not answer the signal are the lost ones. */
#include "cluster.h"
#include "collect.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	STEP_NS = 20000000,	    /* how often a waiting controller looks at its messages */
	NOTICE_WAIT_NS = 300000000, /* after a signal: how long rank 0 waits for the others' */
};

struct stop_msg {
	uint32_t run_seq;
	int32_t status;
};

static void nap_until(uint64_t until_ns)
{
	uint64_t now = eng_now_ns();
	uint64_t d = until_ns > now ? until_ns - now : 0;

	if (d > STEP_NS)
		d = STEP_NS;
	if (d)
		eng_clock_nap(d); /* many hosts run in real time only */
}

static size_t nr_run_banks(const struct eng_collect *c)
{
	return 1 + c->run->nr_sds + c->run->nr_wds;
}

/* ---- every rank but 0 ---- */

/* A stop from rank 0 for this run: its status. */
static bool got_stop(struct eng_collect *c, int *status)
{
	struct eng_clu *cl = c->clu;
	struct clu_msg msg;
	bool is_stop = false;

	while (!is_stop && !clu_comm_recv(cl->comm, 0, CLU_TAG_STOP, &msg, 0)) {
		struct stop_msg m;

		if (msg.len == sizeof(m)) {
			memcpy(&m, msg.buf, sizeof(m));
			if (m.run_seq == cl->run_seq) {
				*status = m.status;
				is_stop = true;
			}
		}
		free(msg.buf);
	}
	return is_stop;
}

static void notify_signal(struct eng_collect *c)
{
	struct eng_clu *cl = c->clu;
	uint32_t seq = cl->run_seq;

	if (cl->has_notified || !eng_collect_is_signalled(c))
		return;
	clu_comm_send(cl->comm, 0, CLU_TAG_NOTICE, &seq, sizeof(seq));
	cl->has_notified = true;
}

struct cpu_state {
	bool has;
	struct stats_cpu_sample prev;
};

static void cpu_now(struct cpu_state *st, struct eng_clu_stats *h)
{
	struct stats_cpu_sample now;

	h->has_cpu =
		st->has && !stats_cpu_read(NULL, &now) && !stats_cpu_diff(&st->prev, &now, &h->cpu);
	if (st->has)
		st->prev = now;
}

static int send_stats(struct eng_collect *c, uint32_t k, struct cpu_state *cpu)
{
	size_t nr = nr_run_banks(c), max = stats_bank_pack_max();
	uint8_t *buf = malloc(sizeof(struct eng_clu_stats) + nr * max);
	struct eng_clu_stats h = { .run_seq = c->clu->run_seq, .k = k, .nr_banks = (uint32_t)nr };
	uint64_t fin = eng_collect_final_ns(c);
	size_t len = sizeof(h);
	int ret;

	if (!buf)
		return -ENOMEM;
	if (!c->nr_workers || fin) {
		h.flags |= ENG_CLU_FINAL;
		h.final_rel_ns = fin > c->run->start_ns ? fin - c->run->start_ns : 0;
	}
	if (eng_collect_is_signalled(c))
		h.flags |= ENG_CLU_SIGNALLED;
	h.nr_errors = eng_collect_nr_errors(c);
	cpu_now(cpu, &h);
	memcpy(buf, &h, sizeof(h));
	for (size_t i = 0; i < nr; i++)
		len += stats_bank_pack(&c->cur[i], buf + len, max);
	ret = clu_comm_send(c->clu->comm, 0, CLU_TAG_STATS, buf, len);
	free(buf);
	return ret;
}

/* Waits for the workers (a signal does not end the wait here: rank 0 decides). */
static bool rank_wait_published(struct eng_collect *c, uint32_t k, int *status)
{
	for (;;) {
		if (eng_collect_all_published(c, k))
			return true;
		notify_signal(c);
		if (got_stop(c, status))
			return false;
		nap_until(eng_now_ns() + 200000);
	}
}

static int rank_loop(struct eng_collect *c)
{
	struct eng_clu *cl = c->clu;
	const struct eng_run *run = c->run;
	struct cpu_state cpu = { 0 };
	int status = ENG_OK;
	uint64_t end_ns;

	cpu.has = !stats_cpu_read(NULL, &cpu.prev);
	for (uint32_t k = 1; k <= run->nr_intervals; k++) {
		end_ns = run->start_ns + (uint64_t)k * run->interval_ns;
		while (eng_now_ns() < end_ns) {
			notify_signal(c);
			if (got_stop(c, &status))
				return status;
			nap_until(end_ns);
		}
		if (!rank_wait_published(c, k, &status))
			return status;
		eng_collect_merge(c, k);
		send_stats(c, k, &cpu);
		if (got_stop(c, &status))
			return status;
	}
	/* the last interval is out: rank 0 says how the run ended */
	end_ns = eng_now_ns() + cl->timeout_ns + run->interval_ns;
	while (eng_now_ns() < end_ns) {
		notify_signal(c);
		if (got_stop(c, &status))
			return status;
		nap_until(end_ns);
	}
	cl->has_lost = true;
	rep_set_event(c->reps, &(struct rep_event){ .kind = REP_EV_RANK_NO_END });
	return ENG_FAILED;
}

/* ---- rank 0 ---- */

struct root_state {
	bool *has;	       /* per rank: interval k arrived */
	bool *is_final;	       /* per rank: every worker stopped */
	bool *is_signalled;    /* per rank: sent a signal notice */
	uint64_t *final_rel;   /* per rank */
	uint64_t *nr_errors;   /* per rank, the run so far */
	struct stats_bank *in; /* one rank's banks being added */
	bool is_stopped;       /* the ranks have been told to stop */
};

static void root_state_fini(struct root_state *st)
{
	free(st->has);
	free(st->is_final);
	free(st->is_signalled);
	free(st->final_rel);
	free(st->nr_errors);
	free(st->in);
}

static int root_state_init(struct root_state *st, const struct eng_collect *c)
{
	uint32_t n = c->clu->nr_ranks;

	memset(st, 0, sizeof(*st));
	st->has = calloc(n, sizeof(*st->has));
	st->is_final = calloc(n, sizeof(*st->is_final));
	st->is_signalled = calloc(n, sizeof(*st->is_signalled));
	st->final_rel = calloc(n, sizeof(*st->final_rel));
	st->nr_errors = calloc(n, sizeof(*st->nr_errors));
	st->in = calloc(1, sizeof(*st->in));
	return st->has && st->is_final && st->is_signalled && st->final_rel && st->nr_errors &&
			       st->in
		       ? 0
		       : -ENOMEM;
}

static void stop_all(struct eng_collect *c, int status)
{
	struct eng_clu *cl = c->clu;
	struct stop_msg m = { .run_seq = cl->run_seq, .status = status };

	for (uint32_t r = 1; r < cl->nr_ranks; r++)
		if (!cl->is_lost[r])
			clu_comm_send(cl->comm, r, CLU_TAG_STOP, &m, sizeof(m));
	clu_comm_flush(cl->comm, 1000000000u);
}

static void poll_notices(struct eng_collect *c, struct root_state *st)
{
	struct clu_msg msg;

	while (!clu_comm_recv(c->clu->comm, -1, CLU_TAG_NOTICE, &msg, 0)) {
		if (msg.src < c->clu->nr_ranks)
			st->is_signalled[msg.src] = true;
		free(msg.buf);
	}
}

static bool has_notice(const struct eng_collect *c, const struct root_state *st)
{
	for (uint32_t r = 1; r < c->clu->nr_ranks; r++)
		if (st->is_signalled[r])
			return true;
	return false;
}

/* A signal here or on some rank: the run ends. When rank 0 got one too (the launcher ending
 * the job, or Ctrl-C), ranks that do not answer within NOTICE_WAIT_NS are the lost ones. */
static int root_shutdown(struct eng_collect *c, struct root_state *st)
{
	struct eng_clu *cl = c->clu;
	bool is_mine = eng_collect_is_signalled(c);
	uint64_t end_ns = eng_now_ns() + NOTICE_WAIT_NS;
	int status = is_mine ? ENG_INTERRUPTED : ENG_FAILED;
	char who[320];

	while (is_mine && eng_now_ns() < end_ns) {
		bool all = true;

		poll_notices(c, st);
		for (uint32_t r = 1; r < cl->nr_ranks; r++)
			all &= st->is_signalled[r] || cl->is_lost[r];
		if (all)
			break;
		nap_until(end_ns);
	}
	for (uint32_t r = 1; r < cl->nr_ranks; r++) {
		eng_clu_who(cl, r, who, sizeof(who));
		if (is_mine && !st->is_signalled[r] && !cl->is_lost[r]) {
			cl->is_lost[r] = true;
			cl->has_lost = true;
			status = ENG_FAILED;
			rep_set_event(c->reps,
				      &(struct rep_event){ .kind = REP_EV_RANK_GONE, .host = who });
		} else if (!is_mine && st->is_signalled[r]) {
			rep_set_event(c->reps, &(struct rep_event){ .kind = REP_EV_RANK_SIGNALLED,
								    .host = who });
		}
	}
	stop_all(c, status);
	st->is_stopped = true;
	return status;
}

/* Adds one rank's interval (head h, banks after it in msg) into the current banks. Returns 0,
 * or -EINVAL for a bad message. */
static int root_add(struct eng_collect *c, struct root_state *st, uint32_t src,
		    const struct eng_clu_stats *h, const struct clu_msg *msg)
{
	const uint8_t *p = (const uint8_t *)msg->buf + sizeof(*h);
	size_t len = msg->len - sizeof(*h);
	struct eng_clu *cl = c->clu;
	uint32_t slave = cl->slave_idx[src];
	int32_t host = cl->map->host_of[src];

	if (h->nr_banks != nr_run_banks(c))
		return -EINVAL;
	for (uint32_t i = 0; i < h->nr_banks; i++) {
		int64_t n = stats_bank_unpack(st->in, p, len);

		if (n < 0)
			return -EINVAL;
		p += n;
		len -= (size_t)n;
		stats_bank_merge(&c->cur[i], st->in);
		if (i == 0 && host >= 0 && slave != UINT32_MAX) {
			stats_bank_merge(&c->cur[nr_run_banks(c) + (size_t)host], st->in);
			stats_bank_merge(&c->cur[nr_run_banks(c) + c->nr_hosts + slave], st->in);
		}
	}
	if (slave != UINT32_MAX && h->has_cpu)
		c->slave_cpu[slave] = h->cpu;
	st->is_final[src] = h->flags & ENG_CLU_FINAL;
	st->final_rel[src] = h->final_rel_ns;
	st->nr_errors[src] = h->nr_errors;
	if (h->flags & ENG_CLU_SIGNALLED)
		st->is_signalled[src] = true;
	return 0;
}

/* Rank src's next message, if it is here: messages from one rank arrive in order, so an
 * interval that is not k is an older one (a run that ended early) and is dropped. */
static void root_take(struct eng_collect *c, struct root_state *st, uint32_t src, uint32_t k)
{
	struct clu_msg msg;

	while (!st->has[src] && !clu_comm_recv(c->clu->comm, (int)src, CLU_TAG_STATS, &msg, 0)) {
		struct eng_clu_stats h;

		if (msg.len >= sizeof(h)) {
			memcpy(&h, msg.buf, sizeof(h));
			if (h.run_seq == c->clu->run_seq && h.k == k &&
			    !root_add(c, st, src, &h, &msg))
				st->has[src] = true;
		}
		free(msg.buf);
	}
}

/* Every live rank's interval k, until deadline_ns. Returns 1 on a signal or notice. */
static int root_receive(struct eng_collect *c, struct root_state *st, uint32_t k,
			uint64_t deadline_ns)
{
	struct eng_clu *cl = c->clu;

	for (;;) {
		bool all = true;

		for (uint32_t r = 1; r < cl->nr_ranks; r++) {
			if (!cl->is_lost[r])
				root_take(c, st, r, k);
			all &= st->has[r] || cl->is_lost[r];
		}
		if (all)
			return 0;
		poll_notices(c, st);
		if (eng_collect_is_signalled(c) || has_notice(c, st))
			return 1;
		if (eng_now_ns() >= deadline_ns)
			return 0;
		nap_until(eng_now_ns() + 1000000);
	}
}

/* Rank 0's own interval: its workers' banks, plus its host and slave lines. */
static void root_own(struct eng_collect *c, struct root_state *st, uint32_t k,
		     struct cpu_state *cpu)
{
	struct eng_clu *cl = c->clu;
	uint32_t slave = cl->slave_idx[0];
	int32_t host = cl->map->host_of[0];
	uint64_t fin = eng_collect_final_ns(c);
	struct eng_clu_stats h = { 0 };

	eng_collect_merge(c, k);
	if (host >= 0 && slave != UINT32_MAX) {
		stats_bank_merge(&c->cur[nr_run_banks(c) + (size_t)host], &c->cur[0]);
		stats_bank_merge(&c->cur[nr_run_banks(c) + c->nr_hosts + slave], &c->cur[0]);
	}
	for (size_t i = 0; i < c->nr_slaves; i++)
		c->slave_cpu[i].user_pct = c->slave_cpu[i].sys_pct = c->slave_cpu[i].used_pct =
			c->slave_cpu[i].wait_pct = c->slave_cpu[i].idle_pct = NAN;
	cpu_now(cpu, &h);
	if (slave != UINT32_MAX && h.has_cpu)
		c->slave_cpu[slave] = h.cpu;
	memset(st->has, 0, c->clu->nr_ranks * sizeof(*st->has));
	st->has[0] = true;
	st->is_final[0] = !c->nr_workers || fin;
	st->final_rel[0] = fin > c->run->start_ns ? fin - c->run->start_ns : 0;
	st->nr_errors[0] = eng_collect_nr_errors(c);
}

/* The ranks that sent nothing by the deadline are lost. */
static bool root_mark_lost(struct eng_collect *c, struct root_state *st, uint32_t k)
{
	struct eng_clu *cl = c->clu;
	bool any = false;
	char who[320];

	for (uint32_t r = 1; r < cl->nr_ranks; r++) {
		if (st->has[r] || cl->is_lost[r])
			continue;
		cl->is_lost[r] = true;
		cl->has_lost = true;
		any = true;
		eng_clu_who(cl, r, who, sizeof(who));
		rep_set_event(c->reps, &(struct rep_event){
					       .kind = REP_EV_RANK_LOST,
					       .host = who,
					       .interval = k,
					       .timeout_s = cl->timeout_ns / 1000000000u,
				       });
	}
	return any;
}

/* Whether every rank has stopped (every range done), and the interval's length then. */
static bool all_final(const struct eng_collect *c, const struct root_state *st, uint32_t k,
		      uint64_t *elapsed_ns)
{
	uint64_t last = 0, from = (uint64_t)(k - 1) * c->run->interval_ns;

	for (uint32_t r = 0; r < c->clu->nr_ranks; r++) {
		if (c->clu->is_lost[r])
			continue;
		if (!st->is_final[r])
			return false;
		if (st->final_rel[r] > last)
			last = st->final_rel[r];
	}
	if (last > from && last - from < c->run->interval_ns)
		*elapsed_ns = last - from;
	return true;
}

static uint64_t errors_total(const struct eng_collect *c, const struct root_state *st)
{
	uint64_t n = 0;

	for (uint32_t r = 0; r < c->clu->nr_ranks; r++)
		n += st->nr_errors[r];
	return n;
}

/* One interval on rank 0. Returns -1 to go on, else the run's status. */
static int root_interval(struct eng_collect *c, struct root_state *st, uint32_t k,
			 struct cpu_state *cpu)
{
	const struct eng_run *run = c->run;
	uint64_t end_ns = run->start_ns + (uint64_t)k * run->interval_ns;
	uint64_t elapsed_ns = run->interval_ns;
	bool is_lost, is_final;
	int ret;

	while (eng_now_ns() < end_ns) {
		poll_notices(c, st);
		if (eng_collect_is_signalled(c) || has_notice(c, st))
			return root_shutdown(c, st);
		nap_until(end_ns);
	}
	if (!eng_collect_wait_published(c, k))
		return root_shutdown(c, st);
	root_own(c, st, k, cpu);
	if (root_receive(c, st, k, end_ns + c->clu->timeout_ns))
		return root_shutdown(c, st);
	is_lost = root_mark_lost(c, st, k);
	is_final = all_final(c, st, k, &elapsed_ns);
	ret = eng_collect_report(c, k, elapsed_ns);
	if (ret < 0)
		c->observer_error = ret;
	if (is_lost)
		return ENG_FAILED;
	if (is_final) {
		c->is_eof = true;
		return ENG_OK;
	}
	if (errors_total(c, st) >= c->max_errors)
		return ENG_FAILED;
	if (eng_collect_is_maxdata(c))
		return ENG_OK;
	return -1;
}

static int root_loop(struct eng_collect *c)
{
	struct root_state st;
	struct cpu_state cpu = { 0 };
	int status = ENG_OK;

	if (root_state_init(&st, c)) {
		root_state_fini(&st);
		stop_all(c, ENG_FAILED);
		return ENG_FAILED;
	}
	cpu.has = !stats_cpu_read(NULL, &cpu.prev);
	for (uint32_t k = 1; k <= c->run->nr_intervals; k++) {
		int ret = root_interval(c, &st, k, &cpu);

		if (ret >= 0) {
			status = ret;
			break;
		}
	}
	if (!st.is_stopped)
		stop_all(c, status);
	root_state_fini(&st);
	return status;
}

int eng_clu_collect(struct eng_collect *c)
{
	return eng_clu_is_root(c->clu) ? root_loop(c) : rank_loop(c);
}
