/* The transport without MPI: one process, rank 0 of 1. The default build links this file;
 * make MPI=1 links src/mpi/comm_mpi.c instead. Nothing here ever sends: with one rank the
 * engine takes its single-host path. */
#include "ioramp/cluster.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct clu_comm {
	int unused;
};

int clu_comm_open(int *argc, char ***argv, struct clu_comm **out)
{
	(void)argc;
	(void)argv;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void clu_comm_close(struct clu_comm *c, bool is_abort, int code)
{
	(void)is_abort;
	(void)code;
	free(c);
}

uint32_t clu_comm_rank(const struct clu_comm *c)
{
	(void)c;
	return 0;
}

uint32_t clu_comm_size(const struct clu_comm *c)
{
	(void)c;
	return 1;
}

bool clu_comm_has_mpi(void)
{
	return false;
}

int clu_comm_bcast(struct clu_comm *c, void **buf, size_t *len)
{
	(void)c;
	(void)buf;
	(void)len;
	return 0;
}

int clu_comm_host_names(struct clu_comm *c, char ***names)
{
	char host[256] = "localhost";

	(void)c;
	gethostname(host, sizeof(host) - 1);
	*names = calloc(1, sizeof(**names));
	if (!*names || !((*names)[0] = strdup(host))) {
		free(*names);
		*names = NULL;
		return -ENOMEM;
	}
	return 0;
}

int clu_comm_send(struct clu_comm *c, uint32_t to, enum clu_tag tag, const void *buf, size_t len)
{
	(void)c;
	(void)to;
	(void)tag;
	(void)buf;
	(void)len;
	return -ENOTCONN;
}

int clu_comm_recv(struct clu_comm *c, int from, enum clu_tag tag, struct clu_msg *m,
		  uint64_t timeout_ns)
{
	(void)c;
	(void)from;
	(void)tag;
	(void)timeout_ns;
	memset(m, 0, sizeof(*m));
	return -EAGAIN;
}

int clu_comm_flush(struct clu_comm *c, uint64_t timeout_ns)
{
	(void)c;
	(void)timeout_ns;
	return 0;
}
