/* --record: the controller's side. Entries drained from the workers' rings wait in a pending
 * array until every worker's clock has passed them, then go out in time order, so the log is
 * one time-ordered stream that fio --read_iolog replays as issued. showlba=yes uses the same
 * path for VDbench's text file of every I/O. */
#include "record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "ioramp/plan.h"
#include "ioramp/trace.h"

struct eng_recorder {
	struct trace_writer *w;
	int *file_of_sd; /* config SD -> writer file index */
	size_t nr_sds;
	uint64_t origin_ns;
	bool has_origin;
	struct eng_rec *pending;
	size_t nr_pending;
	size_t cap_pending;
	int error;
	FILE *lba;		     /* showlba=yes: the text file instead of w */
	const struct plan *plan;     /* showlba: the SD names */
	const char *const *wd_names; /* showlba: the current run's */
	uint64_t run_start_ns;
};

int eng_recorder_open_showlba(struct eng_recorder **out, const char *path, const struct plan *plan,
			      struct parm_err *err)
{
	struct eng_recorder *r = calloc(1, sizeof(*r));

	*out = r;
	if (!r)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	r->plan = plan;
	r->lba = fopen(path, "w");
	if (!r->lba) {
		int ret = -errno;

		parm_errf(err, &plan->cfg->general.set.val[PARM_KW_SHOWLBA]->loc,
			  "showlba=yes: cannot create %s: %s", path, strerror(-ret));
		return ret;
	}
	return 0;
}

void eng_recorder_run(struct eng_recorder *r, const char *const *wd_names, uint64_t start_ns)
{
	if (r) {
		r->wd_names = wd_names;
		r->run_start_ns = start_ns;
	}
}

static int write_lba(struct eng_recorder *r, const struct eng_rec *e)
{
	uint64_t ms = e->time_ns > r->run_start_ns ? (e->time_ns - r->run_start_ns) / 1000000 : 0;

	if (fprintf(r->lba, "%s %s %d %llu %llu\n", r->plan->cfg->sds[e->sd].name,
		    r->wd_names ? r->wd_names[e->wd] : "", e->is_write ? 0 : 1,
		    (unsigned long long)e->offset_bytes, (unsigned long long)ms) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

int eng_recorder_open(struct eng_recorder **out, const char *path, const struct plan *plan,
		      const bool *is_used, struct parm_err *err)
{
	struct eng_recorder *r = calloc(1, sizeof(*r));
	struct trace_err terr;
	int ret;

	*out = r;
	if (!r)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	r->nr_sds = plan->cfg->nr_sds;
	r->file_of_sd = calloc(r->nr_sds ? r->nr_sds : 1, sizeof(*r->file_of_sd));
	if (!r->file_of_sd)
		return parm_errf(err, NULL, "out of memory"), -ENOMEM;
	ret = trace_writer_open(&r->w, path, &terr);
	if (ret) {
		parm_errf(err, NULL, "--record %s: %s", path, terr.msg);
		return ret;
	}
	for (size_t s = 0; s < r->nr_sds; s++) {
		if (!is_used[s])
			continue;
		ret = trace_writer_file(r->w, plan->cfg->sds[s].lun, 0);
		if (ret < 0) {
			parm_errf(err, &plan->cfg->sds[s].loc,
				  "--record %s: lun=%s cannot be "
				  "recorded: %s",
				  path, plan->cfg->sds[s].lun, strerror(-ret));
			return ret;
		}
		r->file_of_sd[s] = ret;
	}
	return 0;
}

void eng_recorder_start(struct eng_recorder *r, uint64_t origin_ns)
{
	if (r && !r->has_origin) {
		r->origin_ns = origin_ns;
		r->has_origin = true;
	}
}

static int take(struct eng_recorder *r, struct eng_rec_ring *ring)
{
	uint32_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(&ring->tail, memory_order_acquire);
	size_t n = tail - head;

	if (r->nr_pending + n > r->cap_pending) {
		size_t cap = (r->nr_pending + n) * 2;
		struct eng_rec *p = realloc(r->pending, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->pending = p;
		r->cap_pending = cap;
	}
	for (; head != tail; head++)
		r->pending[r->nr_pending++] = ring->v[head & (ENG_REC_RING - 1)];
	atomic_store_explicit(&ring->head, head, memory_order_release);
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct eng_rec *x = a, *y = b;

	return x->time_ns < y->time_ns ? -1 : x->time_ns > y->time_ns;
}

static int write_trace(struct eng_recorder *r, const struct eng_rec *e)
{
	struct trace_rec t = {
		.time_ns = e->time_ns > r->origin_ns ? e->time_ns - r->origin_ns : 0,
		.offset_bytes = e->offset_bytes,
		.size_bytes = e->size_bytes,
		.dev = (uint32_t)r->file_of_sd[e->sd],
		.op = e->is_write ? TRACE_OP_WRITE : TRACE_OP_READ,
	};

	return trace_writer_add(r->w, &t);
}

static int write_until(struct eng_recorder *r, uint64_t watermark_ns)
{
	size_t i;

	if (!r->nr_pending)
		return 0; /* qsort and memmove must not see the NULL of an empty array */
	qsort(r->pending, r->nr_pending, sizeof(*r->pending), by_time);
	for (i = 0; i < r->nr_pending && r->pending[i].time_ns < watermark_ns; i++) {
		int ret = r->lba ? write_lba(r, &r->pending[i]) : write_trace(r, &r->pending[i]);

		if (ret)
			return ret;
	}
	memmove(r->pending, r->pending + i, (r->nr_pending - i) * sizeof(*r->pending));
	r->nr_pending -= i;
	return 0;
}

int eng_recorder_drain(struct eng_recorder *r, struct eng_worker *w, uint32_t nr, bool is_final)
{
	uint64_t watermark = UINT64_MAX;
	int ret;

	if (!r || r->error)
		return r ? r->error : 0;
	/* the clocks first: entries pushed before a clock was published are then in the rings */
	for (uint32_t i = 0; !is_final && i < nr; i++) {
		uint64_t c = atomic_load_explicit(&w[i].rec->clock_ns, memory_order_acquire);

		if (c < watermark)
			watermark = c;
	}
	for (uint32_t i = 0; i < nr; i++) {
		ret = take(r, w[i].rec);
		if (ret)
			return r->error = ret;
	}
	ret = write_until(r, watermark);
	if (ret)
		r->error = ret;
	return ret;
}

int eng_recorder_close(struct eng_recorder *r)
{
	int ret;

	if (!r)
		return 0;
	ret = r->error;
	if (!ret && r->nr_pending)
		ret = write_until(r, UINT64_MAX);
	if (r->w) {
		int cret = trace_writer_close(r->w);

		if (!ret)
			ret = cret;
	}
	if (r->lba && fclose(r->lba) && !ret)
		ret = -errno;
	free(r->pending);
	free(r->file_of_sd);
	free(r);
	return ret;
}
