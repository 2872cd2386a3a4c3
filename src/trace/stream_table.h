/* Private to src/trace: the profile deriver's view of interleaved streams. An I/O that starts
 * where an I/O of its device and op ended up to TRACE_STREAM_REACH I/Os ago continues that
 * I/O's stream, even when the sequential figure's 16-I/O window (seq_window.h) has long
 * forgotten it: a log writer among busy random I/O resumes every 30 I/Os or so. Only its own
 * op: a backup's reads that pass over a log's latest writes do not become the log. Streams
 * are numbered in order of their first I/O, so the same records give the same numbers on every
 * pass. The table is 4-way set-associative on the end offset: an end is forgotten when four
 * newer ones share its set, or after TRACE_STREAM_REACH I/Os. */
#ifndef IORAMP_TRACE_STREAM_TABLE_H
#define IORAMP_TRACE_STREAM_TABLE_H

#include <stdbool.h>
#include <stdint.h>

enum {
	TRACE_STREAM_WAYS = 4,
	TRACE_STREAM_SETS = 1 << 10,
	TRACE_STREAM_REACH = 2048, /* I/Os of the device */
};

struct trace_stream_way {
	uint64_t end;
	uint64_t seen;	/* the I/O's number (from 1) on its device; 0: empty */
	uint64_t id;	/* its stream */
	uint64_t first; /* where its stream began */
	uint32_t nr;	/* its stream's I/Os up to this one (at most UINT32_MAX) */
	uint32_t op;	/* its stream's op */
};

/* Zeroed is empty. */
struct trace_stream_table {
	struct trace_stream_way ways[TRACE_STREAM_SETS][TRACE_STREAM_WAYS];
	uint64_t nr, nr_streams;
};

/* An I/O's stream: its number, where it began and its I/Os up to this one. */
struct trace_stream {
	uint64_t id, first, nr;
	bool is_cont; /* the I/O continues it (else it begins it) */
};

static inline struct trace_stream_way *trace_stream_set(struct trace_stream_table *t,
							uint64_t offset)
{
	return t->ways[(offset >> 9) * 0x9E3779B97F4A7C15ull >> 54];
}

/* Whether way w holds end for a stream of op (a reader that caught up with a writer ends
 * where the writer's last write ended: each keeps its own). */
static inline bool trace_stream_is_end(const struct trace_stream_way *w, uint32_t op, uint64_t end)
{
	return w->end == end && w->op == op;
}

/* The stream of [offset, end): the one it continues or a new one. An end is kept once, with
 * the longer of the streams that reached it: a random I/O that happens to end where a scan's
 * last read ended does not take the scan's place. */
static inline struct trace_stream trace_stream_table_add(struct trace_stream_table *t, uint32_t op,
							 uint64_t offset, uint64_t end)
{
	struct trace_stream_way *set = trace_stream_set(t, offset), *to;
	struct trace_stream s = { 0, offset, 1, false };

	for (int i = 0; i < TRACE_STREAM_WAYS; i++)
		if (set[i].seen && trace_stream_is_end(&set[i], op, offset) && set[i].nr >= s.nr &&
		    t->nr - set[i].seen < TRACE_STREAM_REACH)
			s = (struct trace_stream){ set[i].id, set[i].first,
						   set[i].nr + (set[i].nr < UINT32_MAX), true };
	if (!s.is_cont)
		s.id = ++t->nr_streams;
	t->nr++;
	set = trace_stream_set(t, end);
	to = &set[0];
	for (int i = 1; i < TRACE_STREAM_WAYS && !trace_stream_is_end(to, op, end); i++)
		if (trace_stream_is_end(&set[i], op, end) || set[i].seen < to->seen)
			to = &set[i];
	if (trace_stream_is_end(to, op, end) && to->seen && t->nr - to->seen < TRACE_STREAM_REACH &&
	    to->nr > s.nr)
		return s; /* a longer stream of its op keeps this end */
	*to = (struct trace_stream_way){ end, t->nr, s.id, s.first, (uint32_t)s.nr, op };
	return s;
}

#endif /* IORAMP_TRACE_STREAM_TABLE_H */
