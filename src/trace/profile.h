/* Private to src/trace: the profile deriver's view of a trace (profile_scan.c reads it twice),
 * the model it makes of every device (profile_model.c) and the parameter text it writes
 * (profile_emit.c). */
#ifndef IORAMP_TRACE_PROFILE_H
#define IORAMP_TRACE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "count_map.h"
#include "extents.h"
#include "ioramp/trace.h"
#include "seq_window.h"
#include "stream_table.h"

enum {
	PROF_REGION_SHIFT = 20,	   /* 1 MiB regions, those of the hot 10 % figure */
	PROF_SEQ_WINDOW = 16,	   /* sequential: after one of the last 16 I/Os of the device */
	PROF_MAX_CLASSES = 64,	   /* half-octave classes of region counts: 2^32 I/Os at most */
	PROF_MAX_STREAMS = 62,	   /* interleaved streams given classes of their own */
	PROF_DEFAULT_MAX_WDS = 64, /* per device (--max-wds) */
	PROF_NR_CLASSES = PROF_MAX_CLASSES + PROF_MAX_STREAMS, /* streams after the counts */
	PROF_BLOCK_BYTES = 512,	       /* VDbench xfersizes are multiples of 512 */
	PROF_MAX_VARIABLE_SECS = 3600, /* VDbench's limit on one RD's (rate,seconds) list */
};

/* One op (read, write) of one class of regions of a device. */
struct prof_part {
	uint64_t nr, bytes, nr_seq;
	struct trace_cmap sizes; /* size rounded to 512 -> count */
	double seq_frac;	 /* model: the share of its I/Os that continue its previous one */
	uint64_t range_lo_bytes, range_len_bytes; /* model: its share of the class's range */
	unsigned int nr_sweeps; /* model: interleaved sweeps of that range (a WD each), or 0 */
};

/* A class: the regions of a device whose I/O count falls in one half-octave; or, from
 * PROF_MAX_CLASSES on, one long interleaved stream (is_stream), swept once as traced. */
struct prof_class {
	bool is_stream;
	uint64_t lo_bytes, hi_bytes; /* a stream's traced extent */
	uint64_t nr_regions;
	double region_pos_sum; /* of the region indexes, for placing the class */
	struct prof_part ops[2];
	struct trace_extents extents; /* footprint of the class */
	uint64_t footprint_bytes;
	/* the model */
	uint64_t range_lo_bytes, range_len_bytes;
};

/* A stream of a device that continues at least once (pass 0). */
struct prof_stream {
	uint64_t id, nr, nr_far; /* its I/Os, its continuations the sequential window misses */
	uint64_t bytes, lo_bytes, hi_bytes;
};

/* One traced device (of one file): one SD. */
struct prof_dev {
	size_t file_idx;
	uint32_t dev;
	uint64_t nr, max_end_bytes, footprint_bytes;
	struct trace_cmap regions;	    /* region index -> I/O count, but streams' (pass 1) */
	struct trace_seq_window seq;	    /* every pass, from empty */
	struct trace_stream_table *streams; /* every pass, from empty */
	struct prof_stream *stream_recs;    /* streams that continue (pass 0) */
	size_t nr_stream_recs, cap_stream_recs;
	struct trace_cmap stream_idx;	/* stream -> its index in stream_recs (pass 0) */
	struct trace_cmap stream_class; /* a stream with a class of its own -> its class */
	unsigned int nr_streams;	/* streams with a class of their own */
	struct prof_class classes[PROF_NR_CLASSES];
	uint64_t size_bytes; /* size= of its SD */
	uint64_t max_xfer_bytes;
	unsigned int max_wds;	/* --max-wds */
	double kappa;		/* how much the classes' regions were packed (model) */
	double grow;		/* share by which random I/O's ranges grow (fit_kappa()) */
	double trace_hot10_pct; /* of the traced device, streams too */
	double model_hot10_pct, model_footprint_bytes; /* what the model expects */
};

struct prof_file {
	const char *path;
	enum trace_format format;
	bool has_time;
	uint64_t first_ns;
};

/* One WD of the profile. */
struct prof_wd {
	size_t dev_idx;
	unsigned int cls;
	unsigned int sweep; /* which of its part's sweeps, from 1; 0 when it has one WD */
	unsigned int op;
	const struct prof_part *part;
	uint64_t skew_units; /* of 1,000,000 */
	char name[32];
};

struct prof {
	const struct trace_profile_cfg *cfg;
	struct trace_err *err;
	struct prof_file *files;
	struct prof_dev **devs;
	size_t nr_devs, cap_devs;
	struct trace_cmap dev_slot; /* file_idx << 32 | dev -> index into devs */
	uint64_t nr_ios, latency_sum_ns, nr_latencies;
	struct trace_fid *fid; /* the traces' fidelity figures, devices numbered as the SDs */
	/* per second of the trace (every file from its own first record) */
	uint32_t *sec_count;
	uint32_t *sec_first_ms, *sec_last_ms; /* time of the second's first and last I/O in it */
	size_t nr_secs, cap_secs;
	double duration_s;
	struct prof_wd *wds;
	size_t nr_wds;
	bool is_spike;
	char warnings[1024];	 /* the readers' (pass 0 only: the others say the same), and ours */
	const char *capped_path; /* a file whose records went past PROF_MAX_SECONDS */
	bool is_folded;	  /* the last second, traced for under 0.1 s, joined the one before */
	double last_rate; /* the last second's rate (its I/Os over the part traced); -1: none */
	double sec_mean, shrink; /* rates drawn towards the mean I/Os per second by shrink */
};

/* profile_scan.c: both passes over every file. Returns 0 or -errno with p->err filled. */
int prof_scan(struct prof *p);
void prof_fini(struct prof *p);

/* The class of a region holding count I/Os: floor(2 log2 count). */
unsigned int prof_class_of(uint64_t count);

/* profile_model.c: ranges, workloads, skews. Returns 0 or -ENOMEM. */
int prof_model(struct prof *p);

/* Whether a class is swept once (seekpct=0 over its traced footprint): a stream, or a class
 * whose I/Os mostly continue one another and move hardly more bytes than they cover (a copy
 * filling free space, files written or read whole): runs from random starts would overlap
 * where the trace's tiled. */
bool prof_is_swept(const struct prof_class *c);

/* WD w's range: its part's, or piece w->sweep of part->nr_sweeps (whole units each, the last
 * takes what is left). */
void prof_wd_range(const struct prof *p, const struct prof_wd *w, uint64_t *lo_bytes,
		   uint64_t *len_bytes);

/* Lays device dev out again with packing kappa. */
void prof_relayout(struct prof *p, size_t dev, double kappa);

/* profile_emit.c: the parameter text (a last second traced for under 0.1 s joins the one
 * before it in p's counts). */
void prof_emit(FILE *out, struct prof *p);

#endif /* IORAMP_TRACE_PROFILE_H */
