/* Private to src/trace: the sequential test of the fidelity figures, shared by the figures and
 * the profile deriver so that both count the same I/Os: an I/O is sequential when it starts
 * where one of the last TRACE_SEQ_WINDOW I/Os of its device ended. */
#ifndef IORAMP_TRACE_SEQ_WINDOW_H
#define IORAMP_TRACE_SEQ_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

enum {
	TRACE_SEQ_WINDOW = 16,
};

/* The ends of a device's last I/Os; zeroed is empty. */
struct trace_seq_window {
	uint64_t ends[TRACE_SEQ_WINDOW];
	unsigned int nr, next;
};

/* Whether [offset, end) starts where a remembered I/O ended; then remembers it. */
static inline bool trace_seq_window_add(struct trace_seq_window *w, uint64_t offset, uint64_t end)
{
	bool is_seq = false;

	for (unsigned int i = 0; i < w->nr && !is_seq; i++)
		is_seq = w->ends[i] == offset;
	w->ends[w->next] = end;
	w->next = (w->next + 1) % TRACE_SEQ_WINDOW;
	if (w->nr < TRACE_SEQ_WINDOW)
		w->nr++;
	return is_seq;
}

#endif /* IORAMP_TRACE_SEQ_WINDOW_H */
