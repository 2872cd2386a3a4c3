/* The profile deriver's two passes over every trace file (profile.h): pass 1 counts the I/Os
 * of every 1 MiB region of every device, the device spans and the I/Os of every second; pass 2
 * puts every I/O into the class of its region, with its op, size, sequentiality (after one of
 * the last 16 I/Os of its device) and footprint. Files are taken as one workload: each from
 * its own first record, devices of different files kept apart. */
#include "profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S 1000000000ull

enum {
	PROF_MAX_SECONDS = 400000000,
};

unsigned int prof_class_of(uint64_t count)
{
	unsigned int c = (unsigned int)floor(2 * log2((double)(count ? count : 1)));

	return c < PROF_MAX_CLASSES ? c : PROF_MAX_CLASSES - 1;
}

static int prof_oom(struct prof *p)
{
	snprintf(p->err->msg, sizeof(p->err->msg), "out of memory");
	return -ENOMEM;
}

static void dev_free(struct prof_dev *d)
{
	if (!d)
		return;
	trace_cmap_fini(&d->regions);
	for (int c = 0; c < PROF_MAX_CLASSES; c++) {
		trace_cmap_fini(&d->classes[c].ops[0].sizes);
		trace_cmap_fini(&d->classes[c].ops[1].sizes);
		trace_extents_fini(&d->classes[c].extents);
	}
	free(d);
}

void prof_fini(struct prof *p)
{
	for (size_t i = 0; i < p->nr_devs; i++)
		dev_free(p->devs[i]);
	free(p->devs);
	trace_cmap_fini(&p->dev_slot);
	free(p->files);
	free(p->sec_count);
	free(p->sec_first_ms);
	free(p->sec_last_ms);
	free(p->wds);
}

static struct prof_dev *dev_new(struct prof *p, size_t file_idx, uint32_t dev)
{
	struct prof_dev *d, **devs;

	if (p->nr_devs == p->cap_devs) {
		size_t cap = p->cap_devs ? 2 * p->cap_devs : 8;

		devs = realloc(p->devs, cap * sizeof(*devs));
		if (!devs)
			return NULL;
		p->devs = devs;
		p->cap_devs = cap;
	}
	d = calloc(1, sizeof(*d));
	if (!d || trace_cmap_add(&p->dev_slot, (uint64_t)file_idx << 32 | dev, p->nr_devs) < 0) {
		free(d);
		return NULL;
	}
	d->file_idx = file_idx;
	d->dev = dev;
	for (int c = 0; c < PROF_MAX_CLASSES; c++)
		trace_extents_init(&d->classes[c].extents, 1 << 20);
	p->devs[p->nr_devs++] = d;
	return d;
}

static struct prof_dev *dev_get(const struct prof *p, size_t file_idx, uint32_t dev)
{
	uint64_t *slot = trace_cmap_get(&p->dev_slot, (uint64_t)file_idx << 32 | dev);

	return slot ? p->devs[*slot] : NULL;
}

static int sec_grow(struct prof *p, size_t s)
{
	size_t cap = p->cap_secs ? p->cap_secs : 1024;
	uint32_t *a, *b, *c;

	while (cap <= s)
		cap *= 2;
	a = realloc(p->sec_count, cap * sizeof(*a));
	if (a)
		p->sec_count = a;
	b = realloc(p->sec_first_ms, cap * sizeof(*b));
	if (b)
		p->sec_first_ms = b;
	c = realloc(p->sec_last_ms, cap * sizeof(*c));
	if (c)
		p->sec_last_ms = c;
	if (!a || !b || !c)
		return -ENOMEM;
	memset(a + p->cap_secs, 0, (cap - p->cap_secs) * sizeof(*a));
	memset(c + p->cap_secs, 0, (cap - p->cap_secs) * sizeof(*c));
	for (size_t i = p->cap_secs; i < cap; i++)
		b[i] = UINT32_MAX;
	p->cap_secs = cap;
	return 0;
}

/* The I/O's second from its file's first record, and where in the second it came. */
static int sec_add(struct prof *p, struct prof_file *f, uint64_t t_ns)
{
	uint64_t rel = t_ns > f->first_ns ? t_ns - f->first_ns : 0;
	size_t s = (size_t)(rel / NS_PER_S);
	uint32_t ms = (uint32_t)(rel % NS_PER_S / 1000000);

	if (s >= PROF_MAX_SECONDS)
		return 0;
	if (s >= p->cap_secs && sec_grow(p, s) < 0)
		return -ENOMEM;
	p->sec_count[s]++;
	if (ms < p->sec_first_ms[s])
		p->sec_first_ms[s] = ms;
	if (ms > p->sec_last_ms[s])
		p->sec_last_ms[s] = ms;
	if (s + 1 > p->nr_secs)
		p->nr_secs = s + 1;
	if ((double)rel / 1e9 > p->duration_s)
		p->duration_s = (double)rel / 1e9;
	return 0;
}

static bool is_kept(const struct prof *p, const struct trace_rec *rec)
{
	if (rec->op != TRACE_OP_READ && rec->op != TRACE_OP_WRITE)
		return false;
	return !p->cfg->has_dev || rec->dev == p->cfg->dev;
}

static int pass1_rec(struct prof *p, size_t fi, const struct trace_rec *rec)
{
	struct prof_file *f = &p->files[fi];
	struct prof_dev *d = dev_get(p, fi, rec->dev);
	uint64_t end = rec->offset_bytes + rec->size_bytes;

	if (!d && !(d = dev_new(p, fi, rec->dev)))
		return -ENOMEM;
	if (!f->has_time) {
		f->first_ns = rec->time_ns;
		f->has_time = true;
	}
	d->nr++;
	if (end > d->max_end_bytes)
		d->max_end_bytes = end;
	p->nr_ios++;
	p->latency_sum_ns += rec->latency_ns;
	p->nr_latencies += rec->latency_ns != 0;
	if (trace_cmap_add(&d->regions, rec->offset_bytes >> PROF_REGION_SHIFT, 1) < 0)
		return -ENOMEM;
	{ /* the fidelity figures: this device as its SD number, on the file's own clock */
		struct trace_rec r = *rec;
		int ret;

		r.dev = (uint32_t)*trace_cmap_get(&p->dev_slot, (uint64_t)fi << 32 | rec->dev);
		r.time_ns = rec->time_ns > f->first_ns ? rec->time_ns - f->first_ns : 0;
		ret = trace_fid_add(p->fid, &r);
		if (ret < 0)
			return ret;
	}
	return sec_add(p, f, rec->time_ns);
}

static int pass2_rec(struct prof *p, size_t fi, const struct trace_rec *rec)
{
	struct prof_dev *d = dev_get(p, fi, rec->dev);
	uint64_t end = rec->offset_bytes + rec->size_bytes, size;
	const uint64_t *count;
	struct prof_class *c;
	struct prof_part *part;

	if (!d)
		return -EIO; /* the file changed between the passes */
	count = trace_cmap_get(&d->regions, rec->offset_bytes >> PROF_REGION_SHIFT);
	if (!count)
		return -EIO;
	c = &d->classes[prof_class_of(*count)];
	part = &c->ops[rec->op];
	part->nr++;
	part->bytes += rec->size_bytes;
	part->nr_seq += trace_seq_window_add(&d->seq, rec->offset_bytes, end);
	size = (rec->size_bytes + PROF_BLOCK_BYTES / 2) / PROF_BLOCK_BYTES;
	if (trace_cmap_add(&part->sizes, (size ? size : 1) * PROF_BLOCK_BYTES, 1) < 0)
		return -ENOMEM;
	return trace_extents_add(&c->extents, rec->offset_bytes, end);
}

/* The reader's notes (lines skipped, empty I/Os, an early end) join the profile's warnings. */
static void notes_add(struct prof *p, const struct trace_reader *r)
{
	size_t len = strlen(p->warnings);
	FILE *f = len + 1 < sizeof(p->warnings)
			  ? fmemopen(p->warnings + len, sizeof(p->warnings) - len, "w")
			  : NULL;

	if (!f)
		return;
	trace_reader_print_notes(r, f);
	fclose(f);
}

typedef int pass_fn(struct prof *p, size_t fi, const struct trace_rec *rec);

static int pass(struct prof *p, size_t fi, pass_fn *fn)
{
	struct prof_file *f = &p->files[fi];
	struct trace_reader *r;
	struct trace_rec rec;
	int ret = trace_reader_open(&r, f->path, p->cfg->opts, p->err);

	if (ret < 0)
		return ret;
	f->format = trace_reader_format(r);
	while ((ret = trace_reader_next(r, &rec)) > 0) {
		if (!is_kept(p, &rec))
			continue;
		ret = fn(p, fi, &rec);
		if (ret < 0)
			break;
	}
	if (ret >= 0 && fn == pass1_rec)
		notes_add(p, r);
	if (ret == -ENOMEM)
		prof_oom(p);
	else if (ret == -EIO && !trace_reader_err(r)->msg[0])
		snprintf(p->err->msg, sizeof(p->err->msg), "the trace changed while it was read");
	else if (ret < 0)
		*p->err = *trace_reader_err(r);
	trace_reader_close(r);
	return ret;
}

/* Regions per class and their mean place; every class's footprint. */
static int classes_finish(struct prof *p)
{
	for (size_t i = 0; i < p->nr_devs; i++) {
		struct prof_dev *d = p->devs[i];

		for (size_t j = 0; j < d->regions.cap; j++) {
			struct prof_class *c;

			if (!d->regions.keys[j])
				continue;
			c = &d->classes[prof_class_of(d->regions.vals[j])];
			c->nr_regions++;
			c->region_pos_sum += (double)(d->regions.keys[j] - 1);
		}
		for (int k = 0; k < PROF_MAX_CLASSES; k++) {
			struct prof_class *c = &d->classes[k];
			int ret = trace_extents_merge(&c->extents);

			if (!ret)
				ret = trace_extents_bytes(&c->extents, 1, &c->footprint_bytes);
			if (ret)
				return ret == -ENOMEM ? prof_oom(p) : ret;
			d->footprint_bytes += c->footprint_bytes;
			trace_extents_fini(&c->extents); /* the bytes are all the model needs */
		}
	}
	return 0;
}

int prof_scan(struct prof *p)
{
	int ret = 0;

	for (size_t i = 0; i < p->cfg->nr_paths && ret >= 0; i++)
		ret = pass(p, i, pass1_rec);
	for (size_t i = 0; i < p->cfg->nr_paths && ret >= 0; i++)
		ret = pass(p, i, pass2_rec);
	if (ret >= 0)
		ret = classes_finish(p);
	return ret < 0 ? ret : 0;
}
