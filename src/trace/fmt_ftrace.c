/* The kernel's block tracing as ftrace prints it: the "blk" tracer (echo blk > current_tracer,
 * blktrace's events where blktrace itself cannot open its relay files) and the block
 * tracepoints, as the tracefs trace file, trace_pipe, trace-cmd report and perf script show
 * them:
 *   fio-8484 [001] ..... 46693.275235: 7,0 D R 189728 + 16 [fio]
 *   fio-8484 [001] ..... 46693.275235: block_rq_issue: 7,0 R 8192 () 189728 + 16 be,0,4 [fio]
 *   fio 8484 [001] 46693.275235: block:block_rq_issue: 7,0 R 8192 () 189728 + 16 [fio]
 * The tracepoints are blkparse's actions: block_bio_queue Q, block_rq_issue D,
 * block_rq_complete and block_bio_complete C. The other block events (G, I, M, plugs,
 * splits, remaps) are counted for the Q/D/C choice and not read; other events are skipped. */
#include "reader.h"

#include <errno.h>
#include <string.h>

#include "scan.h"

static const struct {
	const char *name;
	enum trace_action act;
} block_events[] = {
	{ "block_bio_queue", TRACE_ACT_QUEUE },
	{ "block_rq_issue", TRACE_ACT_ISSUE },
	{ "block_rq_complete", TRACE_ACT_COMPLETE },
	{ "block_bio_complete", TRACE_ACT_COMPLETE },
};

/* "sec.frac" (the word without its ':'). */
static bool is_time(const char *w, size_t len)
{
	size_t i = 0, dot;

	while (i < len && w[i] >= '0' && w[i] <= '9')
		i++;
	if (!i || i == len || w[i] != '.')
		return false;
	for (dot = i++; i < len && w[i] >= '0' && w[i] <= '9'; i++)
		;
	return i == len && i > dot + 1;
}

/* The event's time word ("46693.275235:") after the "[cpu]" field and the optional flags;
 * *rest is after its ':'. False when the line is no event (a header, a comment, "CPU 0 is
 * empty", a lost-events note). */
static bool find_time(const char *line, const char **time, const char **rest)
{
	const char *p = line;

	for (;;) {
		const char *q;

		p = strchr(p, '[');
		if (!p)
			return false;
		for (q = p + 1; *q >= '0' && *q <= '9'; q++)
			;
		if (q > p + 1 && *q == ']' && (q[1] == ' ' || q[1] == '\t')) {
			p = q + 1;
			break;
		}
		p++;
	}
	for (int i = 0; i < 2; i++) { /* the flags ("d..1.") when the tracer prints them */
		size_t len;
		const char *w = trace_scan_word(&p, 0, &len);

		if (len >= 2 && w[len - 1] == ':' && is_time(w, len - 1)) {
			*time = w;
			*rest = p;
			return true;
		}
	}
	return false;
}

/* After the time: a tracepoint's name ("block_rq_issue:", "block:block_rq_issue:") gives the
 * action and *body its payload; the blk tracer has none (*is_blk, its payload has the action
 * code after the device). False for an event that is not the block layer's. */
static bool event_of(const char *p, enum trace_action *act, bool *is_blk, const char **body)
{
	size_t len;
	const char *w = trace_scan_word(&p, 0, &len);

	*body = p;
	*is_blk = !len || w[len - 1] != ':';
	if (*is_blk) {
		*body = w;
		return true;
	}
	len--;
	if (len > 6 && !strncmp(w, "block:", 6)) {
		w += 6;
		len -= 6;
	}
	if (len < 6 || strncmp(w, "block_", 6))
		return false;
	*act = TRACE_ACT_AUTO;
	for (size_t i = 0; i < IORAMP_ARRAY_SIZE(block_events); i++)
		if (trace_scan_word_is(w, len, block_events[i].name))
			*act = block_events[i].act;
	return true;
}

static bool ftrace_probe(const char *line)
{
	const char *time, *p, *w;
	enum trace_action act;
	bool is_blk;
	uint64_t v;
	size_t len;

	if (!find_time(line, &time, &p) || !event_of(p, &act, &is_blk, &p))
		return false;
	if (trace_scan_u64(&p, &v) || *p++ != ',' || trace_scan_u64(&p, &v))
		return false;
	if (!is_blk)
		return true;
	w = trace_scan_word(&p, 0, &len);
	return len >= 1 && len <= 2 && w[0] >= 'A' && w[0] <= 'z';
}

static int ftrace_parse(struct trace_reader *r, char *line, struct trace_rec *rec)
{
	const char *time, *p, *w;
	enum trace_action act = TRACE_ACT_AUTO;
	uint32_t maj, min;
	bool is_blk;
	size_t len;

	/* the other block tracepoints carry no I/O of their own, some no device (block_plug) */
	if (!find_time(line, &time, &p) || !event_of(p, &act, &is_blk, &p) ||
	    (!is_blk && act == TRACE_ACT_AUTO))
		return 0;
	if (trace_field_dec_ns(r, &time, ':', 1000000000, "time", &rec->time_ns) < 0 ||
	    trace_field_u32(r, &p, ',', "major", &maj) < 0 ||
	    trace_field_u32(r, &p, 0, "minor", &min) < 0)
		return -EINVAL;
	if (trace_majmin_dev(r, maj, min, &rec->dev) < 0)
		return -EINVAL;
	if (is_blk) {
		w = trace_scan_word(&p, 0, &len);
		if (!len)
			return trace_field_bad(r, p, 0, "action", "an action code (Q, D, C...)");
		act = trace_blk_action(w, len);
	}
	return trace_blk_event(r, act, p, rec);
}

const struct trace_fmt trace_fmt_ftrace = {
	.id = TRACE_FMT_FTRACE,
	.name = "ftrace",
	.layout = "comm-pid [cpu] sec.usec: maj,min action RWBS sector + count [comm] (blk "
		  "tracer), or ... sec.usec: block_rq_issue: maj,min RWBS bytes (cmd) sector + "
		  "count [comm] (block tracepoints)",
	.probe_line = ftrace_probe,
	.parse_line = ftrace_parse,
	.pick_action = trace_blk_pick_action,
};
