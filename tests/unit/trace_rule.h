/* The rule traces/gen-traces.py wrote the test traces from (traces/README.md), written again
 * here so the trace tests check the readers and the statistics against an independent copy
 * rather than against the code under test. */
#ifndef IORAMP_TEST_TRACE_RULE_H
#define IORAMP_TEST_TRACE_RULE_H

#include <stdbool.h>
#include <stdint.h>

#include "ioramp/trace.h"

enum {
	RULE_N = 240, /* data I/Os in every generated trace */
};

struct rule_rec {
	uint32_t dev; /* 0 or 1: the index, not the format's device number */
	uint8_t op;
	uint32_t size_bytes;
	uint64_t t_us, offset_bytes, lat_ns;
};

/* Record i of a trace with nr_devs devices (1 or 2): dev i % nr_devs, a write every fourth
 * I/O, sizes 4, 8, 16 KiB in turn, i ms plus (i % 7) x 100 us, offsets continuing the
 * device's previous I/O when i % 5 is 1 or 2, else ((i x 7919) mod 1000) x 64 KiB. */
static inline void rule_records(unsigned int nr_devs, struct rule_rec *out)
{
	uint64_t prev_end[2] = { 0, 0 };
	bool has_prev[2] = { false, false };

	for (unsigned int i = 0; i < RULE_N; i++) {
		struct rule_rec *r = &out[i];

		r->dev = i % nr_devs;
		r->op = i % 4 == 0 ? TRACE_OP_WRITE : TRACE_OP_READ;
		r->size_bytes = 4096u << (i % 3);
		r->t_us = (uint64_t)i * 1000 + (i % 7) * 100;
		if ((i % 5 == 1 || i % 5 == 2) && has_prev[r->dev])
			r->offset_bytes = prev_end[r->dev];
		else
			r->offset_bytes = (uint64_t)((i * 7919) % 1000) * 65536;
		prev_end[r->dev] = r->offset_bytes + r->size_bytes;
		has_prev[r->dev] = true;
		r->lat_ns = 50000 + (i % 11) * 1000;
	}
}

/* The blkparse/blktrace traces add 3 flushes (after I/Os 79, 159, 239) and 2 discards of
 * 64 KiB (after I/Os 60 and 180). */
enum {
	RULE_NR_FLUSHES = 3,
	RULE_NR_DISCARDS = 2,
};

#endif /* IORAMP_TEST_TRACE_RULE_H */
