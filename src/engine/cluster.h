/* Private to src/engine: an execution on many hosts (reference §3). Every rank runs the same
 * plan; these are the points where the ranks meet: votes (set-up, run start, run end) through
 * rank 0, this rank's share of a run, and the per-interval exchange (cluster_collect.c). Only
 * the controller thread calls them; the workers never talk. */
#ifndef IORAMP_ENGINE_CLUSTER_H
#define IORAMP_ENGINE_CLUSTER_H

#include "exec.h"
#include "ioramp/cluster.h"

enum {
	ENG_CLU_MSG = 1024,	 /* text of a vote */
	ENG_CLU_MAX_SDS = 16384, /* PARM_MAX_DEFS: one bit per SD in a vote */
};

/* Flags of an interval's statistics. */
enum {
	ENG_CLU_FINAL = 1 << 0,	    /* every worker of the rank has stopped (ranges done) */
	ENG_CLU_SIGNALLED = 1 << 1, /* the rank got SIGINT/SIGTERM */
};

/* A vote: every rank's goes up to rank 0, rank 0's combined answer comes back down. */
struct eng_clu_vote {
	int32_t status;	      /* ENG_*; up: this rank's; down: the worst (first by rank) */
	uint32_t rank;	      /* up: the sender */
	uint64_t value;	      /* down: rank 0's choice (the run's start, CLOCK_REALTIME ns) */
	double observed_iops; /* down, at a run's end: the base of curve points */
	double last_resp_ms;  /* down, at a run's end: for stopcurve= */
	uint8_t bits[ENG_CLU_MAX_SDS / 8]; /* OR of all: one flag per config SD */
	char msg[ENG_CLU_MSG];		   /* why status is not ENG_OK */
};

/* The head of one interval's statistics; the banks follow (stats_bank_pack): total, per run
 * SD, per run WD. */
struct eng_clu_stats {
	uint32_t run_seq;
	uint32_t k;
	uint32_t flags;
	uint32_t nr_banks;
	uint64_t final_rel_ns; /* ENG_CLU_FINAL: when, from the run's start */
	uint64_t nr_errors;    /* I/O errors of the run so far */
	int32_t has_cpu;
	int32_t pad;
	struct stats_cpu_pct cpu;
};

struct eng_clu {
	struct clu_comm *comm;
	const struct clu_map *map;
	uint32_t rank;
	uint32_t nr_ranks;
	int32_t host; /* this rank's host; -1: it idles */
	uint64_t timeout_ns;
	uint32_t run_seq;
	bool *is_lost;	     /* rank 0: per rank, stopped answering */
	bool has_lost;	     /* rank 0: some rank is lost; others: rank 0 is */
	bool has_notified;   /* other ranks: rank 0 knows of our signal */
	bool *is_fmt;	     /* per config SD: formatted by some rank (the SD_format run) */
	uint32_t *slave_idx; /* per rank: its slave index in rep_run, UINT32_MAX: idle */
};

static inline bool eng_clu_is_root(const struct eng_clu *cl)
{
	return cl->rank == 0;
}

/* cluster_sync.c */
int eng_clu_new(struct eng_exec *x);
void eng_clu_free(struct eng_clu *cl);
/* Whether sd exists on this rank's host. */
bool eng_clu_sd_here(const struct eng_clu *cl, const struct parm_sd *sd);
/* Every rank's vote up to rank 0, which combines them into *v (others: just send). */
void eng_clu_gather(struct eng_exec *x, struct eng_clu_vote *v);
/* Rank 0's *v down to every rank (others: receive it into *v). */
void eng_clu_answer(struct eng_exec *x, struct eng_clu_vote *v);
/* Set-up, run start and run end votes, in one call each. eng_clu_agree: the worst status of
 * all, with its message in err. eng_clu_start: also the common start time, converted to
 * CLOCK_MONOTONIC. eng_clu_run_end: rank 0's observed rate and response time to all. */
int eng_clu_agree(struct eng_exec *x, int status, const struct parm_err *mine,
		  struct parm_err *err);
int eng_clu_start(struct eng_exec *x, int status, struct parm_err *err, uint64_t *start_ns);
int eng_clu_run_end(struct eng_exec *x, int status, double *observed, struct parm_err *err);
/* The SDs some rank formats: each rank's local needs ORed; sets cl->is_fmt. */
int eng_clu_format_sds(struct eng_exec *x, struct parm_err *err);
/* The seed of this rank's generators: rank 0 keeps the execution's seed. */
uint64_t eng_clu_seed(const struct eng_clu *cl, uint64_t seed);
/* "host ha (rank 2, vm)" */
void eng_clu_who(const struct eng_clu *cl, uint32_t rank, char *buf, size_t len);

#endif /* IORAMP_ENGINE_CLUSTER_H */
