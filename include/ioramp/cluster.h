/* Many hosts: one execution spread over the ranks of an MPI job (reference §3). The transport
 * hides behind clu_comm_* (src/mpi/comm_mpi.c with make MPI=1, src/cluster/comm_solo.c, one
 * process, otherwise); the rest is pure: which rank plays which hd= host and slave, how an SD's
 * threads spread over them, and the parameter text every rank parses. This module knows
 * nothing about I/O; the engine drives the exchange during a run. */
#ifndef IORAMP_CLUSTER_H
#define IORAMP_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ioramp/parm.h"
#include "ioramp/plan.h"

/* ---- transport ------------------------------------------------------------------------------ */

/* Message tags. */
enum clu_tag {
	CLU_TAG_CTL_UP = 1, /* rank -> 0: a set-up or run-end answer (struct clu_ctl) */
	CLU_TAG_CTL_DOWN,   /* 0 -> rank: the combined answer */
	CLU_TAG_STATS,	    /* rank -> 0: one interval's statistics */
	CLU_TAG_STOP,	    /* 0 -> rank: end the current run now */
	CLU_TAG_NOTICE,	    /* rank -> 0: this rank got a signal */
};

struct clu_comm;

/* Starts the transport (MPI_Init_thread, funneled: only the main thread talks) and fills *out.
 * May remove launcher arguments from argv. Without MPI: one rank. Returns 0 or -errno. Call it
 * first in main(). */
int clu_comm_open(int *argc, char ***argv, struct clu_comm **out);

/* Ends the transport. is_abort: some rank is lost or the job must end at once (MPI_Abort with
 * code, which the launcher returns); else every rank finalizes together. Accepts NULL. */
void clu_comm_close(struct clu_comm *c, bool is_abort, int code);

uint32_t clu_comm_rank(const struct clu_comm *c);
uint32_t clu_comm_size(const struct clu_comm *c);

/* Whether this binary was built with MPI (make MPI=1). */
bool clu_comm_has_mpi(void);

/* Root's *buf (len bytes) to every rank; the others get a malloc'ed copy in *buf, *len. Blocking,
 * collective; set-up only. Returns 0 or -EIO. */
int clu_comm_bcast(struct clu_comm *c, void **buf, size_t *len);

/* Every rank's host name (gethostname), indexed by rank, malloc'ed (free with
 * clu_names_free()). Blocking, collective. Returns 0, -ENOMEM or -EIO. */
int clu_comm_host_names(struct clu_comm *c, char ***names);
void clu_names_free(char **names, uint32_t nr);

/* Sends len bytes to rank to without waiting: the bytes are copied and go out in the
 * background (each later call on c moves them on). Returns 0 or -errno. */
int clu_comm_send(struct clu_comm *c, uint32_t to, enum clu_tag tag, const void *buf, size_t len);

/* A message received: its bytes (malloc'ed; the caller frees buf), length and sender. */
struct clu_msg {
	void *buf;
	size_t len;
	uint32_t src;
};

/* Receives one message with tag from rank from (or from any rank: from < 0) into *m. Waits at
 * most timeout_ns (0: looks once). Returns 0, -EAGAIN when nothing came in time, -ENOMEM or
 * -EIO. */
int clu_comm_recv(struct clu_comm *c, int from, enum clu_tag tag, struct clu_msg *m,
		  uint64_t timeout_ns);

/* Waits until every message sent has left, at most timeout_ns. Returns 0 or -ETIMEDOUT. */
int clu_comm_flush(struct clu_comm *c, uint64_t timeout_ns);

/* ---- hosts and ranks ------------------------------------------------------------------------ */

/* One host: an hd= definition, or without hd= one machine. Its ranks are its slaves ("ha-0",
 * "ha-1", ... as VDbench names its JVMs). */
struct clu_host {
	char *label;  /* hd= label; without hd=: the machine's name */
	char *system; /* the machine its ranks run on */
	uint32_t *ranks;
	uint32_t nr_ranks;
	const struct parm_hd *hd; /* NULL without hd= */
};

struct clu_map {
	struct clu_host *hosts;
	size_t nr_hosts;
	uint32_t nr_ranks;
	int32_t *host_of;   /* per rank: index in hosts, -1 when the rank idles */
	uint32_t *slave_of; /* per rank: its index among its host's ranks */
	char **rank_names;  /* per rank: the machine it runs on */
};

/* Maps ranks to hosts. Without hd=: one host per machine name, every rank on it a slave. With
 * hd=: each definition in order takes jvms= ranks (default 1): those on the machine its system=
 * names (localhost: rank 0's machine), or without system= the next free ranks in order.
 * Ranks left over idle. Returns 0, -ENOMEM, or -EINVAL with *err at the hd= that cannot get
 * its ranks. */
int clu_map_build(const struct parm_config *cfg, char *const *rank_names, uint32_t nr_ranks,
		  struct clu_map *m, struct parm_err *err);
void clu_map_fini(struct clu_map *m);

/* Index of the host labelled label, or -ENOENT. */
int clu_map_find(const struct clu_map *m, const char *label);

/* The lun of sd on host label: its host= pair, the lun of a host=* or host=label, or its only
 * lun when it names no host. NULL: the SD does not exist there. */
const char *clu_sd_lun(const struct parm_sd *sd, const char *label);

/* Whether a workload runs on host label (no host=, host=*, or a label its host= lists). */
bool clu_wd_on_host(const struct parm_wd *wd, const char *label);

/* "ha-1": a rank's name as VDbench names a slave. */
void clu_slave_name(const struct clu_map *m, uint32_t rank, char *buf, size_t len);

/* The mapping for -s: one line per host with its machine and ranks, idle ranks, and every SD
 * whose lun differs per host. */
void clu_map_print(const struct clu_map *m, const struct parm_config *cfg, FILE *f);

/* Spreads each SD's threads over the ranks as VDbench spreads them over hosts and slaves
 * (observed with 5.04.07, doc/cluster.md): one thread at a time, round-robin over the hosts
 * the SD runs on, and within a host round-robin over its slaves; both pointers carry on from
 * one SD to the next. threads[s] is SD s's total, host_ok[s * nr_hosts + h] whether it runs on
 * host h; out[r * nr_sds + s] gets rank r's share. */
void clu_split_threads(const struct clu_map *m, const uint32_t *threads, const bool *host_ok,
		       size_t nr_sds, uint32_t *out);

/* A rank's part of a run (reference §9.2, §9.3): its threads per SD, and for each of the run's
 * workloads whether it may run on the rank's host and how many generators it has over all
 * ranks (its rate is split equally over them). */
struct clu_share {
	uint32_t *threads;	/* per config SD: the rank's threads (0: none there) */
	uint32_t *nr_instances; /* per run WD */
	bool *is_wd_here;	/* per run WD */
};

/* Computes rank's share of plan run run_idx. Returns 0 or -ENOMEM. Free with clu_share_fini(). */
int clu_share_build(const struct clu_map *m, const struct plan *plan, size_t run_idx, uint32_t rank,
		    struct clu_share *out);
void clu_share_fini(struct clu_share *s);

/* For -s: per run, each SD's threads per slave ("rd1 threads: sd=sd1(ha-0=2,hb-0=2)"). */
void clu_share_print(const struct clu_map *m, const struct plan *plan, FILE *f);

/* ---- the parameter text --------------------------------------------------------------------- */

/* Every include= lookup and file read of rank 0's parse, in order, so that the other ranks
 * parse the same text without the files (deterministic parsing asks the same questions in the
 * same order). */
struct clu_parmcopy {
	struct clu_parm_entry *e;
	size_t nr;
	size_t next; /* replay position */
	bool is_replay;
	struct parm_fileops ops;
};

/* Recording: the file system answers and every answer is kept. */
void clu_parmcopy_record(struct clu_parmcopy *pc);
/* Replaying: answers from buf (clu_parmcopy_pack() of the recording). Returns 0 or -EINVAL. */
int clu_parmcopy_replay(struct clu_parmcopy *pc, const void *buf, size_t len, uint64_t *seed);
/* The recording and the seed in one malloc'ed buffer. Returns 0 or -ENOMEM. */
int clu_parmcopy_pack(const struct clu_parmcopy *pc, uint64_t seed, void **buf, size_t *len);
void clu_parmcopy_fini(struct clu_parmcopy *pc);

#endif /* IORAMP_CLUSTER_H */
