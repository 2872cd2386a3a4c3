/* blktrace binary traces: 48-byte struct blk_io_trace records in the writer's byte order,
 * each followed by pdu_len payload bytes. One file ("blktrace -o -") sorted through a
 * window of 4096 records, or the per-CPU files x.blktrace.0, .1, ... merged by time through
 * a heap that holds one record per file. One action (Q, D or C) becomes records; notes and passthrough are
 * skipped. Layout from traces.md 2.11 (blktrace_api.h). */
#include "reader.h"

#include <byteswap.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
	BT_REC_BYTES = 48,
	BT_MAGIC = 0x65617400, /* "eat" + version byte */
	BT_MAGIC_MASK = 0xffffff00,
	BT_SECTOR_BYTES = 512,
	BT_STREAM_BUF_BYTES = 256 * 1024,
	BT_MAX_STREAMS = 4096,
	/* "blktrace -o -" writes each CPU's buffer in chunks, so one stream is only roughly in
	 * time order: reading keeps this many records and hands out the earliest */
	BT_WINDOW = 4096,
	/* action: low 16 bits what happened, high 16 bits the category mask */
	BT_ACT_QUEUE = 1,
	BT_ACT_ISSUE = 7,
	BT_ACT_COMPLETE = 8,
	BT_TC_WRITE = 1 << 1,
	BT_TC_FLUSH = 1 << 2,
	BT_TC_PC = 1 << 9,
	BT_TC_NOTIFY = 1 << 10,
	BT_TC_DISCARD = 1 << 13,
};

struct bt_raw {
	uint32_t magic, sequence;
	uint64_t time_ns, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};

struct bt_stream {
	struct trace_input *in;
	struct trace_input own; /* per-CPU files; the single stream uses the reader's */
	char *path;		/* NULL: the reader's file */
	bool is_swapped;
	bool has_head;
	struct trace_rec head;
};

/* A record waiting in the single stream's reorder window; seq keeps file order on ties. */
struct bt_slot {
	struct trace_rec rec;
	uint64_t seq;
};

struct bt_state {
	struct bt_stream *streams;
	size_t nr_streams;
	size_t *heap; /* stream indexes with a head, earliest head first */
	size_t nr_heap;
	bool is_started;
	struct bt_slot *win; /* single stream: min-heap of the next BT_WINDOW records */
	size_t nr_win;
	uint64_t nr_pushed;
	bool is_drained;
};

static void bt_decode(const unsigned char *p, bool is_swapped, struct bt_raw *t)
{
	memcpy(&t->magic, p, 4);
	memcpy(&t->sequence, p + 4, 4);
	memcpy(&t->time_ns, p + 8, 8);
	memcpy(&t->sector, p + 16, 8);
	memcpy(&t->bytes, p + 24, 4);
	memcpy(&t->action, p + 28, 4);
	memcpy(&t->pid, p + 32, 4);
	memcpy(&t->device, p + 36, 4);
	memcpy(&t->cpu, p + 40, 4);
	memcpy(&t->error, p + 44, 2);
	memcpy(&t->pdu_len, p + 46, 2);
	if (!is_swapped)
		return;
	t->magic = bswap_32(t->magic);
	t->time_ns = bswap_64(t->time_ns);
	t->sector = bswap_64(t->sector);
	t->bytes = bswap_32(t->bytes);
	t->action = bswap_32(t->action);
	t->device = bswap_32(t->device);
	t->pdu_len = bswap_16(t->pdu_len);
}

/* 1 native, 2 swapped, 0 not blktrace. */
static int bt_byte_order(const unsigned char *p, size_t len)
{
	uint32_t magic;

	if (len < BT_REC_BYTES)
		return 0;
	memcpy(&magic, p, 4);
	if ((magic & BT_MAGIC_MASK) == BT_MAGIC)
		return 1;
	if ((bswap_32(magic) & BT_MAGIC_MASK) == BT_MAGIC)
		return 2;
	return 0;
}

static bool bt_probe(const unsigned char *p, size_t len)
{
	return bt_byte_order(p, len) != 0;
}

static const char *bt_path(const struct bt_stream *s)
{
	return s->path; /* NULL makes trace_reader_bad_at() keep the reader's file name */
}

/* Reads the next raw record of s and skips its payload. Returns 1, 0 at the end of the
 * stream, or -errno with the reader's error set. */
static int bt_read_raw(struct trace_reader *r, struct bt_stream *s, struct bt_raw *t, uint64_t *at)
{
	const unsigned char *p;
	int64_t n;

	*at = s->in->pos_bytes;
	n = trace_input_peek(s->in, &p, BT_REC_BYTES);
	if (n < BT_REC_BYTES && s->in->is_truncated) /* gzip cut: the bytes before, handed out */
		return trace_reader_cut(r, bt_path(s), *at, "the gzip data ends inside a record");
	if (n < 0) {
		trace_reader_bad_at(r, bt_path(s), *at, "read error (corrupt gzip data?)");
		return -EIO;
	}
	if (n == 0)
		return 0;
	if (n < BT_REC_BYTES) { /* blktrace stopped mid-write: what came before is sound */
		char what[96];

		snprintf(what, sizeof(what), "truncated record (%d of %d bytes) at the end", (int)n,
			 BT_REC_BYTES);
		return trace_reader_cut(r, bt_path(s), *at, what);
	}
	bt_decode(p, s->is_swapped, t);
	if ((t->magic & BT_MAGIC_MASK) != BT_MAGIC)
		return trace_reader_bad_at(r, bt_path(s), *at,
					   "bad magic 0x%08x; expected 0x656174xx (blktrace)",
					   t->magic);
	if (trace_input_skip(s->in, BT_REC_BYTES + (uint64_t)t->pdu_len) < 0) {
		char what[96];

		snprintf(what, sizeof(what),
			 "record with a truncated payload of %u bytes at the end", t->pdu_len);
		return trace_reader_cut(r, bt_path(s), *at, what);
	}
	return 1;
}

static enum trace_action bt_action(uint32_t what)
{
	switch (what) {
	case BT_ACT_QUEUE:
		return TRACE_ACT_QUEUE;
	case BT_ACT_ISSUE:
		return TRACE_ACT_ISSUE;
	case BT_ACT_COMPLETE:
		return TRACE_ACT_COMPLETE;
	default:
		return TRACE_ACT_AUTO;
	}
}

/* Turns a raw event into a record when it is the chosen action. Returns 1, 0 or -EINVAL. */
static int bt_convert(struct trace_reader *r, const struct bt_stream *s, const struct bt_raw *t,
		      uint64_t at, struct trace_rec *rec)
{
	uint32_t cat = t->action >> 16;
	enum trace_action act = bt_action(t->action & 0xffff);

	if (cat & (BT_TC_NOTIFY | BT_TC_PC))
		return 0;
	if (r->is_scanning)
		r->nr_by_action[act]++;
	if (r->is_scanning ||
	    (act != r->action && !(act == TRACE_ACT_ISSUE && r->action == TRACE_ACT_COMPLETE)))
		return 0;
	if (cat & BT_TC_DISCARD)
		rec->op = TRACE_OP_DISCARD;
	else if (cat & BT_TC_WRITE)
		rec->op = TRACE_OP_WRITE;
	else if (t->bytes)
		rec->op = TRACE_OP_READ;
	else if (cat & BT_TC_FLUSH)
		rec->op = TRACE_OP_FLUSH;
	else
		return 0;
	if (t->sector > UINT64_MAX / BT_SECTOR_BYTES)
		return trace_reader_bad_at(r, bt_path(s), at, "sector %llu out of range",
					   (unsigned long long)t->sector);
	rec->time_ns = t->time_ns;
	rec->offset_bytes = t->sector * BT_SECTOR_BYTES;
	rec->size_bytes = t->bytes;
	rec->dev = t->device;
	if (r->action != TRACE_ACT_COMPLETE)
		return 1;
	/* completions: their latency from the issue of the same sector (D to C) */
	if (act == TRACE_ACT_ISSUE && !t->bytes)
		return 0;
	if (act == TRACE_ACT_ISSUE)
		return trace_issues_put(&r->issues, rec->dev, rec->offset_bytes, rec->time_ns) < 0
			       ? trace_reader_bad_at(r, bt_path(s), at, "out of memory")
			       : 0;
	if (t->bytes)
		rec->latency_ns =
			trace_issues_take(&r->issues, rec->dev, rec->offset_bytes, rec->time_ns);
	return 1;
}

/* Reads s up to its next record of the chosen action. Returns 1, 0 at the end or -errno. */
static int bt_fill_head(struct trace_reader *r, struct bt_stream *s)
{
	struct bt_raw t;
	uint64_t at;
	int ret;

	s->has_head = false;
	for (;;) {
		ret = bt_read_raw(r, s, &t, &at);
		if (ret <= 0)
			return ret;
		memset(&s->head, 0, sizeof(s->head));
		ret = bt_convert(r, s, &t, at, &s->head);
		if (ret < 0)
			return ret;
		if (ret) {
			s->has_head = true;
			return 1;
		}
	}
}

static bool bt_before(const struct bt_state *st, size_t a, size_t b)
{
	uint64_t ta = st->streams[a].head.time_ns, tb = st->streams[b].head.time_ns;

	return ta < tb || (ta == tb && a < b);
}

static void bt_heap_down(struct bt_state *st, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i, tmp;

		if (l < st->nr_heap && bt_before(st, st->heap[l], st->heap[m]))
			m = l;
		if (r < st->nr_heap && bt_before(st, st->heap[r], st->heap[m]))
			m = r;
		if (m == i)
			return;
		tmp = st->heap[i];
		st->heap[i] = st->heap[m];
		st->heap[m] = tmp;
		i = m;
	}
}

static int bt_start(struct trace_reader *r, struct bt_state *st)
{
	for (size_t i = 0; i < st->nr_streams; i++) {
		int ret = bt_fill_head(r, &st->streams[i]);

		if (ret < 0)
			return ret;
		if (ret)
			st->heap[st->nr_heap++] = i;
	}
	for (size_t i = st->nr_heap / 2; i-- > 0;)
		bt_heap_down(st, i);
	st->is_started = true;
	return 0;
}

static bool slot_before(const struct bt_slot *a, const struct bt_slot *b)
{
	return a->rec.time_ns < b->rec.time_ns ||
	       (a->rec.time_ns == b->rec.time_ns && a->seq < b->seq);
}

static void win_push(struct bt_state *st, const struct trace_rec *rec)
{
	size_t i = st->nr_win++;

	st->win[i] = (struct bt_slot){ *rec, st->nr_pushed++ };
	while (i && slot_before(&st->win[i], &st->win[(i - 1) / 2])) {
		struct bt_slot tmp = st->win[i];

		st->win[i] = st->win[(i - 1) / 2];
		st->win[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
}

static void win_pop(struct bt_state *st, struct trace_rec *rec)
{
	size_t i = 0;

	*rec = st->win[0].rec;
	st->win[0] = st->win[--st->nr_win];
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct bt_slot tmp;

		if (l < st->nr_win && slot_before(&st->win[l], &st->win[m]))
			m = l;
		if (l + 1 < st->nr_win && slot_before(&st->win[l + 1], &st->win[m]))
			m = l + 1;
		if (m == i)
			return;
		tmp = st->win[i];
		st->win[i] = st->win[m];
		st->win[m] = tmp;
		i = m;
	}
}

/* One stream: through the reorder window. */
static int bt_next_single(struct trace_reader *r, struct bt_state *st, struct trace_rec *rec)
{
	struct bt_stream *s = &st->streams[0];
	int ret;

	if (!st->win) {
		st->win = malloc(BT_WINDOW * sizeof(*st->win));
		if (!st->win)
			return -ENOMEM;
	}
	while (!st->is_drained && st->nr_win < BT_WINDOW) {
		ret = bt_fill_head(r, s);
		if (ret < 0)
			return ret;
		if (ret == 0)
			st->is_drained = true;
		else
			win_push(st, &s->head);
	}
	if (!st->nr_win)
		return 0;
	win_pop(st, rec);
	return 1;
}

/* Per-CPU files: the earliest head of all. */
static int bt_next(struct trace_reader *r, struct trace_rec *rec)
{
	struct bt_state *st = r->priv;
	struct bt_stream *s;
	int ret;

	if (st->nr_streams == 1)
		return bt_next_single(r, st, rec);
	if (!st->is_started) {
		ret = bt_start(r, st);
		if (ret < 0)
			return ret;
	}
	if (!st->nr_heap)
		return 0;
	s = &st->streams[st->heap[0]];
	*rec = s->head;
	ret = bt_fill_head(r, s);
	if (ret < 0)
		return ret;
	if (ret == 0)
		st->heap[0] = st->heap[--st->nr_heap];
	bt_heap_down(st, 0);
	return 1;
}

static bool bt_is_cpu_suffix(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (s[n] < '0' || s[n] > '9')
			return false;
	return n > 0 && n < 10;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

/* Collects into cpus[] the N of every "base.N" in dir. Returns the count or -errno. */
static int bt_scan_dir(const char *dir, const char *base, size_t base_len, unsigned int *cpus)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int nr = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)) && nr < BT_MAX_STREAMS) {
		if (!strncmp(e->d_name, base, base_len) && bt_is_cpu_suffix(e->d_name + base_len))
			cpus[nr++] = (unsigned int)strtoul(e->d_name + base_len, NULL, 10);
	}
	closedir(d);
	qsort(cpus, (size_t)nr, sizeof(*cpus), cmp_uint);
	return nr;
}

/* For path ".../x.blktrace.K": the CPU numbers of all its sibling files, sorted, and the
 * length of the common prefix ".../x.blktrace.". Returns their count (0 when path has not
 * that form), or -errno. */
static int bt_list_cpus(const char *path, size_t *prefix_len, unsigned int *cpus)
{
	const char *tag = NULL, *slash, *base;
	char *dir;
	int ret;

	for (const char *p = strstr(path, ".blktrace."); p; p = strstr(p + 1, ".blktrace."))
		tag = p;
	if (!tag || !bt_is_cpu_suffix(tag + 10))
		return 0;
	*prefix_len = (size_t)(tag + 10 - path);
	slash = strrchr(path, '/');
	base = slash ? slash + 1 : path;
	dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!dir)
		return -ENOMEM;
	ret = bt_scan_dir(dir, base, (size_t)(tag + 10 - base), cpus);
	free(dir);
	return ret;
}

static int bt_stream_order(struct trace_reader *r, struct bt_stream *s)
{
	const unsigned char *p;
	int64_t n = trace_input_peek(s->in, &p, BT_REC_BYTES);
	int order;

	if (n < 0) {
		trace_reader_bad_at(r, bt_path(s), 0, "read error (corrupt gzip data?)");
		return -EIO;
	}
	if (n == 0)
		return 0; /* an idle CPU's empty file */
	order = bt_byte_order(p, (size_t)n);
	if (!order)
		return trace_reader_bad_at(r, bt_path(s), 0, "not a blktrace file (bad magic)");
	s->is_swapped = order == 2;
	return 0;
}

static int bt_open_stream(struct trace_reader *r, struct bt_stream *s, const char *path,
			  size_t prefix_len, unsigned int cpu)
{
	size_t len = prefix_len + 16;
	int ret;

	s->path = malloc(len);
	if (!s->path)
		return -ENOMEM;
	snprintf(s->path, len, "%.*s%u", (int)prefix_len, path, cpu);
	ret = trace_input_open_file(&s->own, s->path, BT_STREAM_BUF_BYTES);
	if (ret < 0) {
		snprintf(r->err.file, sizeof(r->err.file), "%s", s->path);
		trace_reader_bad(r, "cannot open: %s", strerror(-ret));
		return ret;
	}
	s->in = &s->own;
	return bt_stream_order(r, s);
}

static int bt_open_streams(struct trace_reader *r, struct bt_state *st, const char *path)
{
	unsigned int *cpus = NULL;
	size_t prefix_len = 0;
	int nr = 0, ret = 0;

	if (path) {
		cpus = malloc(BT_MAX_STREAMS * sizeof(*cpus));
		if (!cpus)
			return -ENOMEM;
		nr = bt_list_cpus(path, &prefix_len, cpus);
	}
	st->nr_streams = nr > 1 ? (size_t)nr : 1;
	st->streams = calloc(st->nr_streams, sizeof(*st->streams));
	st->heap = calloc(st->nr_streams, sizeof(*st->heap));
	if (!st->streams || !st->heap)
		ret = -ENOMEM;
	else if (nr > 1)
		for (int i = 0; i < nr && ret == 0; i++)
			ret = bt_open_stream(r, &st->streams[i], path, prefix_len, cpus[i]);
	else if (nr >= 0) {
		st->streams[0].in = &r->in;
		ret = bt_stream_order(r, &st->streams[0]);
	} else
		ret = nr;
	free(cpus);
	return ret;
}

static int bt_init(struct trace_reader *r, const char *path)
{
	struct bt_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	r->priv = st;
	return bt_open_streams(r, st, path);
}

static void bt_fini(struct trace_reader *r)
{
	struct bt_state *st = r->priv;

	if (!st)
		return;
	for (size_t i = 0; st->streams && i < st->nr_streams; i++) {
		if (st->streams[i].path) {
			trace_input_close(&st->streams[i].own);
			free(st->streams[i].path);
		}
	}
	free(st->streams);
	free(st->heap);
	free(st->win);
	free(st);
	r->priv = NULL;
}

/* Q when the first events of the files have any, else D, else C; then rewinds them. */
static int bt_pick_action(struct trace_reader *r)
{
	struct bt_state *st = r->priv;
	uint64_t per = TRACE_SCAN_EVENTS / st->nr_streams;
	struct trace_rec rec;
	struct bt_raw t;
	uint64_t at;
	int ret = 0;

	r->is_scanning = true;
	for (size_t i = 0; i < st->nr_streams && ret >= 0; i++) {
		struct bt_stream *s = &st->streams[i];

		if (!s->in)
			continue;
		for (uint64_t k = 0; k < (per < 1000 ? 1000 : per); k++) {
			ret = bt_read_raw(r, s, &t, &at);
			if (ret <= 0)
				break;
			bt_convert(r, s, &t, at, &rec);
		}
		if (ret >= 0)
			ret = trace_input_rewind(s->in);
	}
	r->is_scanning = false;
	r->action = r->nr_by_action[TRACE_ACT_QUEUE]   ? TRACE_ACT_QUEUE
		    : r->nr_by_action[TRACE_ACT_ISSUE] ? TRACE_ACT_ISSUE
						       : TRACE_ACT_COMPLETE;
	return ret < 0 ? ret : 0;
}

const struct trace_fmt trace_fmt_blktrace = {
	.id = TRACE_FMT_BLKTRACE,
	.name = "blktrace",
	.layout = "48-byte blk_io_trace records with payloads",
	.is_binary = true,
	.probe_bin = bt_probe,
	.next_bin = bt_next,
	.init = bt_init,
	.pick_action = bt_pick_action,
	.fini = bt_fini,
};
