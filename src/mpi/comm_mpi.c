/* The transport on MPI (Open MPI, make MPI=1): MPI_THREAD_FUNNELED, because only the main
 * thread (the controller) talks while the workers do I/O; errors are returned
 * (MPI_ERRORS_RETURN), never fatal, so that rank 0 can still write its reports; receives poll
 * with MPI_Iprobe against a deadline instead of blocking, so a lost rank ends in a timeout, not
 * a hang. Sends are MPI_Isend of a private copy, completed on later calls. */
#include "ioramp/cluster.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ioramp/engine.h"

enum {
	NAME_LEN = 256,
};

struct pending_send {
	MPI_Request req;
	void *buf;
};

struct clu_comm {
	int rank;
	int size;
	struct pending_send *sends;
	size_t nr_sends;
	size_t cap_sends;
};

static void nap(void)
{
	struct timespec ts = { 0, 1000000 }; /* 1 ms: the controller's pace, not the I/O's */

	nanosleep(&ts, NULL);
}

int clu_comm_open(int *argc, char ***argv, struct clu_comm **out)
{
	struct clu_comm *c = calloc(1, sizeof(*c));
	int provided = 0;

	*out = c;
	if (!c)
		return -ENOMEM;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return -EIO;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c->size);
	return 0;
}

/* Completed sends give their buffers back. */
static void sends_progress(struct clu_comm *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nr_sends; i++) {
		int done = 0;

		if (MPI_Test(&c->sends[i].req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			done = 1; /* a broken link: the rank is lost, the buffer is ours again */
		if (done)
			free(c->sends[i].buf);
		else
			c->sends[n++] = c->sends[i];
	}
	c->nr_sends = n;
}

void clu_comm_close(struct clu_comm *c, bool is_abort, int code)
{
	int is_init = 0;

	if (!c)
		return;
	MPI_Initialized(&is_init);
	if (is_init && is_abort) {
		fflush(NULL);
		MPI_Abort(MPI_COMM_WORLD, code);
	}
	if (is_init) {
		clu_comm_flush(c, 10000000000ull);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Finalize();
	}
	for (size_t i = 0; i < c->nr_sends; i++)
		free(c->sends[i].buf);
	free(c->sends);
	free(c);
}

uint32_t clu_comm_rank(const struct clu_comm *c)
{
	return (uint32_t)c->rank;
}

uint32_t clu_comm_size(const struct clu_comm *c)
{
	return (uint32_t)c->size;
}

bool clu_comm_has_mpi(void)
{
	return true;
}

int clu_comm_bcast(struct clu_comm *c, void **buf, size_t *len)
{
	unsigned long long n = c->rank ? 0 : *len;

	if (MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
		return -EIO;
	if (c->rank) {
		*buf = malloc(n ? n : 1);
		if (!*buf)
			return -ENOMEM; /* the collective below would hang the others: abort */
		*len = n;
	}
	if (n > (unsigned long long)INT32_MAX)
		return -EFBIG;
	if (n && MPI_Bcast(*buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
		return -EIO;
	return 0;
}

int clu_comm_host_names(struct clu_comm *c, char ***names)
{
	char mine[NAME_LEN] = { 0 };
	char *all = malloc((size_t)c->size * NAME_LEN);
	int ret = 0;

	*names = calloc((size_t)c->size, sizeof(**names));
	if (!all || !*names) {
		free(all);
		free(*names);
		*names = NULL;
		return -ENOMEM;
	}
	if (gethostname(mine, NAME_LEN - 1))
		strcpy(mine, "localhost");
	if (MPI_Allgather(mine, NAME_LEN, MPI_CHAR, all, NAME_LEN, MPI_CHAR, MPI_COMM_WORLD) !=
	    MPI_SUCCESS)
		ret = -EIO;
	for (int i = 0; !ret && i < c->size; i++) {
		all[(size_t)i * NAME_LEN + NAME_LEN - 1] = '\0';
		(*names)[i] = strdup(all + (size_t)i * NAME_LEN);
		if (!(*names)[i])
			ret = -ENOMEM;
	}
	free(all);
	if (ret) {
		clu_names_free(*names, (uint32_t)c->size);
		*names = NULL;
	}
	return ret;
}

int clu_comm_send(struct clu_comm *c, uint32_t to, enum clu_tag tag, const void *buf, size_t len)
{
	struct pending_send *s;

	sends_progress(c);
	if (len > (size_t)INT32_MAX)
		return -EFBIG;
	if (c->nr_sends == c->cap_sends) {
		size_t cap = c->cap_sends ? 2 * c->cap_sends : 16;
		struct pending_send *n = realloc(c->sends, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->sends = n;
		c->cap_sends = cap;
	}
	s = &c->sends[c->nr_sends];
	s->buf = malloc(len ? len : 1);
	if (!s->buf)
		return -ENOMEM;
	memcpy(s->buf, buf, len);
	if (MPI_Isend(s->buf, (int)len, MPI_BYTE, (int)to, (int)tag, MPI_COMM_WORLD, &s->req) !=
	    MPI_SUCCESS) {
		free(s->buf);
		return -EIO;
	}
	c->nr_sends++;
	return 0;
}

int clu_comm_recv(struct clu_comm *c, int from, enum clu_tag tag, struct clu_msg *m,
		  uint64_t timeout_ns)
{
	uint64_t end_ns = eng_now_ns() + timeout_ns;

	memset(m, 0, sizeof(*m));
	for (;;) {
		MPI_Status st;
		int flag = 0, count = 0;

		sends_progress(c);
		if (MPI_Iprobe(from < 0 ? MPI_ANY_SOURCE : from, (int)tag, MPI_COMM_WORLD, &flag,
			       &st) != MPI_SUCCESS)
			return -EIO;
		if (flag) {
			MPI_Get_count(&st, MPI_BYTE, &count);
			m->buf = malloc(count ? (size_t)count : 1);
			if (!m->buf)
				return -ENOMEM;
			if (MPI_Recv(m->buf, count, MPI_BYTE, st.MPI_SOURCE, (int)tag,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
				free(m->buf);
				m->buf = NULL;
				return -EIO;
			}
			m->len = (size_t)count;
			m->src = (uint32_t)st.MPI_SOURCE;
			return 0;
		}
		if (eng_now_ns() >= end_ns)
			return -EAGAIN;
		nap();
	}
}

int clu_comm_flush(struct clu_comm *c, uint64_t timeout_ns)
{
	uint64_t end_ns = eng_now_ns() + timeout_ns;

	for (;;) {
		sends_progress(c);
		if (!c->nr_sends)
			return 0;
		if (eng_now_ns() >= end_ns)
			return -ETIMEDOUT;
		nap();
	}
}
