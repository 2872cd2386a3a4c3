/* Trace replay, the feeder side: one pass to learn the trace (records, duration, devices, the
 * largest transfer, a constant partition shift), then a thread that streams it into the
 * workers' rings with absolute arrival times. Memory stays constant whatever the trace size. */
#include "replay.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"
#include "ioramp/parm.h"
#include "ioramp/trace.h"

static int dev_index(struct eng_trace_info *ti, uint32_t dev)
{
	for (uint32_t i = 0; i < ti->nr_devs; i++)
		if (ti->devs[i] == dev)
			return (int)i;
	if (ti->nr_devs == ENG_RPL_MAX_DEVS)
		return -ENOSPC;
	ti->devs[ti->nr_devs] = dev;
	return (int)ti->nr_devs++;
}

static int dev_lookup(const struct eng_trace_info *ti, uint32_t dev)
{
	for (uint32_t i = 0; i < ti->nr_devs; i++)
		if (ti->devs[i] == dev)
			return (int)i;
	return -ENOENT;
}

static bool is_data(const struct trace_rec *rec)
{
	return (rec->op == TRACE_OP_READ || rec->op == TRACE_OP_WRITE) && rec->size_bytes;
}

/* A shift every offset shares modulo 4096, such as the 3584 bytes of MSR's partitions. */
static void note_shift(struct eng_trace_info *ti, uint64_t offset, bool *is_mixed)
{
	uint64_t rem = offset % 4096;

	if (!ti->nr_records)
		ti->shift_bytes = rem;
	else if (rem != ti->shift_bytes)
		*is_mixed = true;
}

static int by_number(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* trace=(FILE,format=NAME,action=Q|D|C,skipbad): the reader's options, checked here. */
static int scan_opts(const struct parm_rd *rd, const struct parm_loc *loc, struct trace_opts *o,
		     struct parm_err *err)
{
	memset(o, 0, sizeof(*o));
	o->skip_bad = rd->is_trace_skip_bad;
	if (rd->trace_format && trace_format_parse(rd->trace_format, &o->format) < 0)
		return parm_errf(err, loc,
				 "trace= format=%s is no trace format; expected one of %s",
				 rd->trace_format, trace_format_names());
	if (rd->trace_action && trace_action_parse(rd->trace_action, &o->action) < 0)
		return parm_errf(err, loc, "trace= action=%s; expected Q, D or C",
				 rd->trace_action);
	return 0;
}

int eng_trace_scan(const struct parm_rd *rd, const struct parm_loc *loc, struct eng_trace_info *out,
		   struct parm_err *err)
{
	const char *path = rd->trace;
	struct trace_reader *r;
	struct trace_err terr;
	struct trace_rec rec;
	bool is_mixed = false;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = scan_opts(rd, loc, &out->opts, err);
	if (ret)
		return ret;
	out->path = strdup(path);
	if (!out->path)
		return parm_errf(err, loc, "out of memory"), -ENOMEM;
	ret = trace_reader_open(&r, path, &out->opts, &terr);
	if (ret)
		return parm_errf(err, loc, "trace=%s: %s", path, terr.msg), ret;
	while ((ret = trace_reader_next(r, &rec)) == 1) {
		if (!is_data(&rec)) {
			out->nr_other++;
			continue;
		}
		if (dev_index(out, rec.dev) < 0)
			break;
		note_shift(out, rec.offset_bytes, &is_mixed);
		if (!out->nr_records || rec.time_ns < out->first_ns)
			out->first_ns = rec.time_ns;
		if (rec.time_ns > out->last_ns)
			out->last_ns = rec.time_ns;
		if (rec.size_bytes > out->max_size_bytes)
			out->max_size_bytes = rec.size_bytes;
		out->nr_records++;
		out->nr_writes += rec.op == TRACE_OP_WRITE;
	}
	if (ret < 0) {
		const struct trace_err *e = trace_reader_err(r);

		parm_errf(err, loc, "trace=%s: line %llu: %s", path, (unsigned long long)e->line,
			  e->msg);
	} else if (ret == 1) {
		ret = parm_errf(err, loc, "trace=%s has more than %d devices", path,
				ENG_RPL_MAX_DEVS);
	} else if (!out->nr_records) {
		ret = parm_errf(err, loc, "trace=%s has no read or write to replay", path);
	}
	if (ret >= 0) /* what the replay passes over, and a clock that jumped, before it starts */
		trace_reader_print_notes(r, stderr);
	trace_reader_close(r);
	if (is_mixed)
		out->shift_bytes = 0;
	qsort(out->devs, out->nr_devs, sizeof(out->devs[0]), by_number); /* "in order" */
	if (!ret && out->last_ns > out->first_ns)
		out->traced_iops =
			(double)out->nr_records * 1e9 / (double)(out->last_ns - out->first_ns);
	return ret < 0 ? ret : 0;
}

void eng_trace_info_fini(struct eng_trace_info *ti)
{
	free(ti->path);
	memset(ti, 0, sizeof(*ti));
}

/* "8,16" (major,minor as blkparse prints it) or a number. */
static int parse_dev(const char *s, size_t n, uint32_t *dev)
{
	char buf[32], *end;
	unsigned long a, b;

	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	a = strtoul(buf, &end, 10);
	if (*end == ',') {
		b = strtoul(end + 1, &end, 10);
		a = (a << 20) | b;
	}
	if (*end || end == buf)
		return -EINVAL;
	*dev = (uint32_t)a;
	return 0;
}

static int map_pair(struct eng_feeder *f, const char *p, size_t n, const struct parm_loc *loc,
		    const char *const *sd_names, struct parm_err *err)
{
	const char *eq = memchr(p, '=', n);
	uint32_t dev;

	if (!eq || parse_dev(p, (size_t)(eq - p), &dev))
		return parm_errf(err, loc, "--map %.*s: expected DEV=SD", (int)n, p);
	for (uint32_t i = 0; i < f->ti->nr_devs; i++) {
		if (f->ti->devs[i] != dev)
			continue;
		for (size_t s = 0; s < f->run->nr_sds; s++) {
			size_t len = (size_t)(p + n - eq - 1);

			if (strlen(sd_names[s]) == len && !strncmp(sd_names[s], eq + 1, len)) {
				f->map[i] = (uint32_t)s;
				return 0;
			}
		}
		return parm_errf(err, loc, "--map %.*s: no sd=%.*s in this run", (int)n, p,
				 (int)(p + n - eq - 1), eq + 1);
	}
	return parm_errf(err, loc, "--map %.*s: the trace has no device %.*s", (int)n, p,
			 (int)(eq - p), p);
}

int eng_feeder_map(struct eng_feeder *f, const char *map, const struct parm_loc *loc,
		   const char *const *sd_names, struct parm_err *err)
{
	for (uint32_t i = 0; i < f->ti->nr_devs; i++)
		f->map[i] = (uint32_t)(i % f->run->nr_sds);
	while (map && *map) {
		size_t n = strcspn(map, ",");
		int ret;

		/* "8,16=sd1": a major,minor pair keeps its comma */
		if (map[n] == ',' && !memchr(map, '=', n))
			n += 1 + strcspn(map + n + 1, ",");
		ret = map_pair(f, map, n, loc, sd_names, err);
		if (ret)
			return ret;
		map += n + (map[n] == ',');
	}
	return 0;
}

/* Where a trace offset lands on its SD: shift removed, folded into the size used, aligned. */
static uint64_t fold(const struct eng_feeder *f, const struct eng_sd_desc *d, uint64_t offset,
		     uint32_t size)
{
	uint64_t span = d->size_bytes > size ? d->size_bytes - size : 0;
	uint64_t o = offset >= f->ti->shift_bytes ? offset - f->ti->shift_bytes : offset;

	o = span ? o % (span + 1) : 0;
	return o / ENG_RPL_ALIGN * ENG_RPL_ALIGN;
}

/* A full ring: the worker is behind. Waits until it is down to ENG_RPL_LOW records (virtual
 * time: the worker's kick; real time: a poll) or the run stops. */
static void wait_for_room(struct eng_feeder *f, struct eng_rpl_ring *ring, uint32_t tail)
{
	const struct eng_clock *c = f->run->clock;

	while (tail - atomic_load(&ring->head) > ENG_RPL_LOW &&
	       !atomic_load_explicit(&f->stop, memory_order_relaxed)) {
		atomic_store(&ring->is_feeder_waiting, true);
		if (tail - atomic_load(&ring->head) <= ENG_RPL_LOW)
			break; /* the worker took them before it could see the flag */
		eng_sleeper_until(&f->sleeper,
				  c->is_virtual ? UINT64_MAX : eng_clock_now(c) + 200000);
	}
	atomic_store_explicit(&ring->is_feeder_waiting, false, memory_order_relaxed);
}

static void push(struct eng_feeder *f, struct eng_rpl_ring *ring, const struct eng_rpl_rec *rec)
{
	uint32_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);

	if (tail - atomic_load_explicit(&ring->head, memory_order_acquire) >= ENG_RPL_RING)
		wait_for_room(f, ring, tail);
	if (atomic_load_explicit(&f->stop, memory_order_relaxed))
		return; /* the ring may be full: nobody reads it any more */
	ring->v[tail & (ENG_RPL_RING - 1)] = *rec;
	atomic_store_explicit(&ring->tail, tail + 1, memory_order_release);
	if (tail == atomic_load_explicit(&ring->head, memory_order_acquire))
		eng_clock_kick(f->run->clock); /* it was empty: the worker may wait for this */
}

/* Where trace time t_ns falls on the run's schedule: the pass's start plus the trace's time
 * since its first record at the replay speed, never before *last_ns (a trace time going back
 * is due at once), which it then becomes. The feeder and the count of the verdict share it. */
static uint64_t arrival_at(const struct eng_run *run, const struct eng_trace_info *ti, double speed,
			   uint64_t pass_ns, uint64_t t_ns, uint64_t *last_ns)
{
	uint64_t at = run->start_ns + pass_ns;

	if (speed > 0 && t_ns > ti->first_ns)
		at += (uint64_t)((double)(t_ns - ti->first_ns) / speed);
	if (at < *last_ns)
		at = *last_ns;
	*last_ns = at;
	return at;
}

/* How long one pass of a looped replay lasts: the trace's span and one mean gap. */
static uint64_t pass_ns(const struct eng_trace_info *ti, double speed)
{
	double span = (double)(ti->last_ns - ti->first_ns);

	return speed > 0 ? (uint64_t)((span + span / (double)ti->nr_records) / speed) : 0;
}

static int feed_one(struct eng_feeder *f, const struct trace_rec *t)
{
	const struct eng_run *run = f->run;
	int di = dev_lookup(f->ti, t->dev);
	const struct eng_sd_desc *d;
	struct eng_rpl_rec rec;
	uint32_t size;

	if (di < 0)
		return 0; /* a device the scan did not see: the trace changed */
	d = &run->sds[f->map[di]];
	size = (t->size_bytes + ENG_RPL_ALIGN - 1) / ENG_RPL_ALIGN * ENG_RPL_ALIGN;
	if (size > d->max_xfer_bytes)
		size = (uint32_t)d->max_xfer_bytes;
	rec.arrival_ns = arrival_at(run, f->ti, f->speed, f->pass_ns, t->time_ns, &f->last_ns);
	rec.offset_bytes = fold(f, d, t->offset_bytes, size);
	rec.size_bytes = size;
	rec.run_sd = (uint16_t)f->map[di];
	rec.is_write = t->op == TRACE_OP_WRITE;
	push(f, f->rings[d->worker], &rec);
	for (uint32_t i = 0; i < f->nr_rings; i++)
		atomic_store_explicit(&f->rings[i]->fed_ns, rec.arrival_ns, memory_order_release);
	return 0;
}

/* The trace once, or (is_replay_loop) again and again until the run stops, each pass one
 * mean gap after the last: at the trace's pace, or at once when the speed is max. */
static int feed_passes(struct eng_feeder *f, struct trace_reader **rp)
{
	const struct eng_trace_info *ti = f->ti;
	struct trace_reader *r = *rp;
	struct trace_err terr;
	struct trace_rec t;
	int ret;

	for (;;) {
		while (!atomic_load_explicit(&f->stop, memory_order_relaxed) &&
		       (ret = trace_reader_next(r, &t)) == 1)
			if (is_data(&t))
				feed_one(f, &t);
		if (ret < 0) {
			snprintf(f->msg, sizeof(f->msg), "%s", trace_reader_err(r)->msg);
			return ret;
		}
		if (!f->run->is_replay_loop || atomic_load_explicit(&f->stop, memory_order_relaxed))
			return 0;
		f->pass_ns += pass_ns(ti, f->speed);
		trace_reader_close(r);
		*rp = NULL;
		ret = trace_reader_open(&r, ti->path, &ti->opts, &terr);
		if (ret) {
			snprintf(f->msg, sizeof(f->msg), "%s", terr.msg);
			return ret;
		}
		*rp = r;
	}
}

static void *feeder_main(void *arg)
{
	struct eng_feeder *f = arg;
	struct trace_reader *r;
	struct trace_err terr;
	int ret = trace_reader_open(&r, f->ti->path, &f->ti->opts, &terr);

	if (ret) {
		snprintf(f->msg, sizeof(f->msg), "%s", terr.msg);
	} else {
		ret = feed_passes(f, &r);
		trace_reader_close(r);
	}
	f->error = ret < 0 ? ret : 0;
	for (uint32_t i = 0; i < f->nr_rings; i++)
		atomic_store_explicit(&f->rings[i]->is_closed, true, memory_order_release);
	eng_sleeper_leave(&f->sleeper);
	eng_clock_kick(f->run->clock);
	return NULL;
}

int eng_feeder_start(struct eng_feeder *f)
{
	int ret;

	atomic_init(&f->stop, false);
	ret = eng_sleeper_join(f->run->clock, &f->sleeper);
	if (!ret)
		ret = -pthread_create(&f->thread, NULL, feeder_main, f);
	if (ret)
		eng_sleeper_leave(&f->sleeper);
	return ret;
}

void eng_feeder_stop(struct eng_feeder *f)
{
	atomic_store_explicit(&f->stop, true, memory_order_relaxed);
	eng_clock_kick(f->run->clock);
	pthread_join(f->thread, NULL);
}

double eng_replay_scheduled(const struct eng_run *run, uint64_t from_ns, uint64_t to_ns)
{
	const struct eng_trace_info *ti = run->trace;
	uint64_t last_ns = 0, pass = 0, n = 0, at = 0;
	struct trace_reader *r = NULL;
	struct trace_err terr;
	struct trace_rec t;
	int ret = 0;

	if (!ti || !(run->replay_speed > 0) || !ti->nr_records)
		return -1;
	while (at < to_ns) {
		ret = trace_reader_open(&r, ti->path, &ti->opts, &terr);
		if (ret)
			return -1;
		while (at < to_ns && (ret = trace_reader_next(r, &t)) == 1) {
			if (!is_data(&t))
				continue;
			at = arrival_at(run, ti, run->replay_speed, pass, t.time_ns, &last_ns);
			n += at >= from_ns && at < to_ns;
		}
		trace_reader_close(r);
		if (ret < 0)
			return -1;
		if (!run->is_replay_loop)
			break;
		if (!pass_ns(ti, run->replay_speed))
			return -1; /* passes at one instant: no end to count to */
		pass += pass_ns(ti, run->replay_speed);
	}
	return (double)n;
}
