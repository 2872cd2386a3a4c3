/* The results document's life: created at execution start with the execution and the plan,
 * a run added at every run start, its intervals as they come, its average and its place in
 * a curve at run end, the exit status at close. */
#include "parts.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct rep_doc {
	const struct rep_exec *x;
	unsigned int flags;
	json_t *root;
	json_t *runs; /* borrowed from root */
	json_t *run;  /* the current run, borrowed from runs; NULL between runs */
	size_t run_idx;
	struct rep_doc_spill *spill; /* the intervals; NULL before the first or when none opens */
	bool is_spill_refused;	     /* no file could be had: intervals stay in the tree */
	struct rep_doc_avgs avgs;    /* the averages, or their histograms */
	struct rep_doc_curves curves;
};

/* A spilled run's "intervals" in the tree is "\0intervals:N", a string no name can hold (names
 * have no NUL), a spilled average "\0average:N" and a spilled average's "histograms"
 * "\0histograms:N"; dumped, they start so. */
static const char placeholder_prefix[] = "\"\\u0000";
static const char intervals_mark[] = "intervals:";
static const char histograms_mark[] = "histograms:";
static const char average_mark[] = "average:";
static const char sla_mark[] = "sla:";

int rep_doc_new(const struct rep_exec *x, unsigned int flags, struct rep_doc **out)
{
	struct rep_doc *d = calloc(1, sizeof(*d));

	*out = NULL;
	if (!d)
		return -ENOMEM;
	d->x = x;
	d->flags = flags;
	d->root = json_pack("{s:s,s:o,s:o,s:[],s:[]}", "schema", REP_DOC_SCHEMA, "execution",
			    rep_doc_execution(x), "plan", rep_doc_plan(x->plan), "runs", "curves");
	if (!d->root) {
		free(d);
		return -ENOMEM;
	}
	d->runs = json_object_get(d->root, "runs");
	d->curves.list = json_object_get(d->root, "curves");
	*out = d;
	return 0;
}

void rep_doc_free(struct rep_doc *d)
{
	if (!d)
		return;
	json_decref(d->root);
	rep_doc_spill_close(d->spill);
	rep_doc_avgs_fini(&d->avgs);
	free(d);
}

json_t *rep_doc_root(const struct rep_doc *d)
{
	return d->root;
}

int rep_doc_run_start(struct rep_doc *d, const struct rep_run *r)
{
	static const char *const shared[] = { "rate", "sds", "wds", "params", NULL };
	json_t *run = rep_doc_run(d->x, r);
	size_t idx = json_array_size(d->runs);

	d->run = NULL;
	if (run)
		rep_doc_share_parts(d->runs, run, shared);
	if (!run || json_array_append_new(d->runs, run))
		return -ENOMEM;
	d->run = run;
	d->run_idx = idx;
	return rep_doc_curves_run_start(&d->curves, d->x, r, idx);
}

static void append_copy(const json_t *iv, void *arr)
{
	json_array_append(arr, (json_t *)iv); /* a reference of its own: iv outlives the call */
}

/* The spill file failed (full, gone): every interval it holds goes back into the tree, and
 * the next ones stay there. Returns 0, or -errno when some could not be read back. */
static int unspill(struct rep_doc *d)
{
	size_t i;
	json_t *run;
	int ret = 0;

	json_array_foreach (d->runs, i, run) {
		json_t *ivs;

		if (!json_is_string(json_object_get(run, "intervals")))
			continue;
		ivs = json_array();
		if (!ivs)
			return -ENOMEM;
		if (rep_doc_spill_each(d->spill, i, append_copy, ivs))
			ret = -EIO;
		json_object_set_new(run, "intervals", ivs);
	}
	rep_doc_spill_close(d->spill);
	d->spill = NULL;
	d->is_spill_refused = true;
	return ret;
}

/* The interval joins the spill file (opened at the first) or, without one, the tree. */
static int add_interval(struct rep_doc *d, json_t *iv)
{
	char mark[64];
	int ret, len;

	if (!d->spill && !d->is_spill_refused && rep_doc_spill_open(d->x->outdir, &d->spill))
		d->is_spill_refused = true;
	if (d->spill && rep_doc_spill_add(d->spill, d->run_idx, iv))
		ret = unspill(d);
	else
		ret = 0;
	if (!d->spill) {
		if (json_array_append_new(json_object_get(d->run, "intervals"), iv))
			return -ENOMEM;
		return ret;
	}
	json_decref(iv);
	if (rep_doc_spill_count(d->spill, d->run_idx) != 1)
		return 0;
	len = snprintf(mark, sizeof(mark), "%cintervals:%zu", '\0', d->run_idx);
	if (json_object_set_new(d->run, "intervals", json_stringn(mark, (size_t)len)))
		return -ENOMEM;
	return 0;
}

int rep_doc_interval(struct rep_doc *d, const struct rep_run *r, const struct rep_sample *s)
{
	json_t *iv;

	if (!d->run)
		return 0; /* its run could not be recorded: -ENOMEM was returned then */
	iv = rep_doc_sample(d->x, r, s, d->flags);
	return iv ? add_interval(d, iv) : -ENOMEM;
}

size_t rep_doc_run_intervals(const struct rep_doc *live, const json_t *run, size_t run_idx,
			     rep_doc_iv_fn *fn, void *arg)
{
	const json_t *ivs = json_object_get(run, "intervals"), *iv;
	size_t i;

	if (json_is_array(ivs)) {
		json_array_foreach (ivs, i, iv)
			if (fn)
				fn(iv, arg);
		return json_array_size(ivs);
	}
	if (!live || !live->spill || !json_is_string(ivs))
		return 0;
	if (fn)
		rep_doc_spill_each(live->spill, run_idx, fn, arg);
	return rep_doc_spill_count(live->spill, run_idx);
}

/* The column of the line that p is on: the indentation of its key. */
static int indent_at(const char *text, const char *p)
{
	while (p > text && p[-1] != '\n')
		p--;
	return (int)strspn(p, " ");
}

json_t *rep_doc_run_histograms(const struct rep_doc *live, const json_t *run, size_t run_idx)
{
	return rep_doc_avgs_histograms(live ? &live->avgs : NULL, run, run_idx);
}

const json_t *rep_doc_run_average(const struct rep_doc *live, const json_t *run, size_t run_idx)
{
	return rep_doc_avgs_average(live ? &live->avgs : NULL, run, run_idx);
}

json_t *rep_doc_curve_sla_list(const struct rep_doc *live, const json_t *curve)
{
	const json_t *sla = json_object_get(curve, "sla");

	if (!json_is_string(sla))
		return json_incref((json_t *)sla);
	return live ? rep_doc_curves_sla(live->x, curve) : NULL;
}

/* Writes the "sla" list curve idx's placeholder stands for, as the tree would have dumped it
 * at indent. */
static int write_sla(const struct rep_doc *d, size_t idx, int indent, FILE *f)
{
	json_t *sla = rep_doc_curves_sla(d->x, json_array_get(d->curves.list, idx));
	char *text = sla ? json_dumps(sla, REP_DOC_DUMP_FLAGS) : NULL;

	json_decref(sla);
	if (!text)
		return -ENOMEM;
	rep_doc_write_indented(text, strlen(text), indent, f);
	free(text);
	return ferror(f) ? -EIO : 0;
}

/* Writes what the placeholder at at (past its prefix) stands for; *end past its closing quote. */
static int write_spilled(const struct rep_doc *d, const char *text, const char *at,
			 const char **end, FILE *f)
{
	const char *p = at + strlen(placeholder_prefix);
	bool is_iv = !strncmp(p, intervals_mark, strlen(intervals_mark));
	bool is_hist = !strncmp(p, histograms_mark, strlen(histograms_mark));
	bool is_avg = !strncmp(p, average_mark, strlen(average_mark));
	bool is_sla = !strncmp(p, sla_mark, strlen(sla_mark));
	char *stop;
	unsigned long idx;

	if (!is_iv && !is_hist && !is_avg && !is_sla)
		return -EINVAL; /* cannot be: no other placeholder is made */
	p += strlen(is_iv	? intervals_mark
		    : is_hist ? histograms_mark
		    : is_avg  ? average_mark
			      : sla_mark);
	idx = strtoul(p, &stop, 10);
	if (*stop != '"')
		return -EINVAL; /* cannot be: every placeholder ends so */
	*end = stop + 1;
	if (is_sla)
		return write_sla(d, idx, indent_at(text, at), f);
	if (is_hist || is_avg)
		return rep_doc_avgs_write(&d->avgs, idx, is_avg ? indent_at(text, at) : -1, f);
	if (!d->spill)
		return -EINVAL;
	return rep_doc_spill_write(d->spill, idx, indent_at(text, at), f);
}

/* The dump of a document on its way to a file a line at a time, each placeholder replaced by
 * what it stands for: no text of the whole document is held. */
struct line_out {
	const struct rep_doc *d;
	FILE *f;
	char *buf; /* the line so far, NUL-terminated */
	size_t len, cap;
	int ret;
};

/* Writes the len bytes of line (NUL-terminated after them), placeholders spliced. */
static int write_line(struct line_out *o, const char *line, size_t len)
{
	const char *p = line, *at;
	int ret = 0;

	/* every live document has its curves' placeholders */
	while (!ret && (at = strstr(p, placeholder_prefix))) {
		fwrite(p, 1, (size_t)(at - p), o->f);
		ret = write_spilled(o->d, line, at, &p, o->f);
	}
	if (!ret && fwrite(p, 1, len - (size_t)(p - line), o->f) != len - (size_t)(p - line))
		ret = errno ? -errno : -EIO; /* ENOSPC, EDQUOT: the cause, not EIO */
	return ret;
}

static int dump_piece(const char *piece, size_t size, void *arg)
{
	struct line_out *o = arg;
	char *nl;

	if (o->len + size + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *buf;

		while (cap < o->len + size + 1)
			cap *= 2;
		buf = realloc(o->buf, cap);
		if (!buf) {
			o->ret = -ENOMEM;
			return -1;
		}
		o->buf = buf;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, piece, size);
	o->len += size;
	o->buf[o->len] = '\0';
	while ((nl = memchr(o->buf, '\n', o->len))) {
		size_t n = (size_t)(nl - o->buf) + 1;
		char c = o->buf[n];

		o->buf[n] = '\0';
		o->ret = write_line(o, o->buf, n);
		o->buf[n] = c;
		if (o->ret)
			return -1;
		memmove(o->buf, o->buf + n, o->len - n + 1);
		o->len -= n;
	}
	return 0;
}

int rep_doc_write(const struct rep_doc *d, FILE *f)
{
	struct line_out o = { .d = d, .f = f };
	int ret;

	errno = 0;
	if (json_dump_callback(d->root, dump_piece, &o, REP_DOC_DUMP_FLAGS) && !o.ret)
		o.ret = -ENOMEM;
	ret = o.ret;
	if (!ret && o.len)
		ret = write_line(&o, o.buf, o.len);
	if (!ret && fputc('\n', f) == EOF)
		ret = errno ? -errno : -EIO;
	free(o.buf);
	if (!ret && (fflush(f) || ferror(f)))
		ret = errno ? -errno : -EIO;
	return ret;
}

static int write_doc(FILE *f, const void *d)
{
	return rep_doc_write(d, f);
}

int rep_doc_save(const struct rep_doc *d, const char *path)
{
	return rep_replace_file(path, write_doc, d);
}

const char *rep_limit_name(enum rep_limit l)
{
	return l == REP_LIMIT_DEVICE ? "device" : l == REP_LIMIT_GENERATOR ? "generator" : NULL;
}

int rep_doc_run_end(struct rep_doc *d, const struct rep_run *r, const struct rep_run_end *e)
{
	json_t *run = d->run;
	int ret = 0;

	if (!run)
		return 0;
	d->run = NULL;
	/* an average of no interval (a run shorter than two) stays null, as the schema says */
	if (e->avg && e->avg->nr_intervals) {
		json_t *avg = rep_doc_sample(d->x, r, e->avg, d->flags);

		if (avg && !(d->flags & REP_DOC_SPILL_AVG))
			rep_doc_avgs_spill(&d->avgs, d->x->outdir, d->run_idx, avg);
		if (json_object_set_new(run, "average", avg))
			ret = -ENOMEM;
	}
	json_object_set_new(run, "is_complete", json_boolean(!e->is_interrupted));
	json_object_set_new(run, "is_interrupted", json_boolean(e->is_interrupted));
	json_object_set_new(run, "is_eof", json_boolean(e->is_eof));
	json_object_set_new(run, "observed_iops", rep_doc_real(e->observed_iops));
	json_object_set_new(run, "is_target_met", json_boolean(e->is_target_met));
	json_object_set_new(run, "limited_by",
			    rep_limit_name(e->limited_by) ? json_string(rep_limit_name(e->limited_by))
							  : json_null());
	json_object_set_new(run, "ioramp_cpu_pct",
			    rep_doc_real(e->avg ? e->avg->ioramp_cpu_pct : NAN));
	/* what the target verdict compared: a reader sees the validation's extra reads */
	json_object_set_new(run, "requested_iops",
			    rep_doc_real(e->has_target ? e->requested_iops : NAN));
	json_object_set_new(run, "scheduled_iops",
			    rep_doc_real(e->has_target ? e->scheduled_iops : NAN));
	json_object_set_new(run, "dv_prereads",
			    e->has_dv ? json_integer((json_int_t)e->dv_prereads) : json_null());
	json_object_set_new(run, "dv_rereads",
			    e->has_dv ? json_integer((json_int_t)e->dv_rereads) : json_null());
	if (rep_doc_curves_run_end(&d->curves, d->x, r, run))
		ret = -ENOMEM;
	if (d->flags & REP_DOC_SPILL_AVG) /* after its curve point took what it shows */
		rep_doc_avgs_spill_whole(&d->avgs, d->x->outdir, d->run_idx, run);
	return ret;
}

int rep_doc_io_error(struct rep_doc *d, const struct rep_io_error *e)
{
	json_t *list, *item;
	const char *name = e->is_short ? "short" : strerrorname_np(e->err);
	char tod[64];

	if (!d->run)
		return 0;
	list = json_object_get(d->run, "io_errors");
	if (!list && json_object_set_new(d->run, "io_errors", json_array()))
		return -ENOMEM;
	list = json_object_get(d->run, "io_errors");
	rep_doc_time(e->tod_ns, tod);
	item = json_pack("{s:s,s:o,s:o,s:s,s:I,s:I,s:i,s:s}", "time", tod, "sd", rep_json_text(e->sd),
			 "lun", rep_json_text(e->lun), "op",
			 e->op == STATS_OP_WRITE ? "write" : "read", "offset_bytes",
			 (json_int_t)e->lba_bytes, "size_bytes", (json_int_t)e->size_bytes, "errno",
			 e->err, "error", name ? name : "unknown");
	if (item && e->is_short)
		json_object_set_new(item, "transferred_bytes",
				    json_integer((json_int_t)e->transferred_bytes));
	if (!list || !item || json_array_append_new(list, item))
		return -ENOMEM;
	return 0;
}

int rep_doc_close(struct rep_doc *d, int status)
{
	json_t *exec = json_object_get(d->root, "execution");
	struct timespec ts;
	char tod[64];

	clock_gettime(CLOCK_REALTIME, &ts);
	rep_doc_time((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec, tod);
	rep_doc_curves_end_open(&d->curves);
	if (json_object_set_new(exec, "end_time", json_string(tod)) ||
	    json_object_set_new(exec, "status", json_integer(status)))
		return -ENOMEM;
	return 0;
}

void rep_doc_message(struct rep_doc *d, const char *line)
{
	json_t *exec = json_object_get(d->root, "execution");
	json_t *errors;

	if (strncmp(line, "ioramp: error: ", 15))
		return;
	errors = json_object_get(exec, "errors");
	if (!errors) {
		errors = json_array();
		if (!errors || json_object_set_new(exec, "errors", errors))
			return;
	}
	json_array_append_new(errors, rep_json_text(line + 15));
}

const json_t *rep_doc_next_ended(struct rep_doc *d)
{
	if (d->curves.nr_taken >= d->curves.nr_ended)
		return NULL;
	return json_array_get(d->curves.list, d->curves.nr_taken++);
}
