/* The rep_statusline observer: one line on stderr, rewritten in place, that tells where an
 * execution is (run i of N, the curve point, the interval) and how long the rest will take
 * (the plan's elapsed + warmup of the runs still to come). Only on a terminal; it erases
 * itself while other outputs print (rep_ops.bracket). */
#include "status.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "doc.h"

struct status_state {
	FILE *f;
	const struct plan *plan;
	unsigned int width;
	uint64_t total_s;  /* planned elapsed + warmup of every run */
	uint64_t before_s; /* of the runs before the current one */
	uint64_t run_s;	   /* of the current run */
	uint64_t done_s;   /* of the current run, by its intervals */
	uint64_t later_s;  /* of the executions after this one (rep_exec.status_later_s) */
	const char *label; /* rep_exec.status_label, shown before the run: "sql 2/16" */
	char line[512];
	bool is_shown;
};

static uint64_t planned_s(const struct plan_run *r)
{
	return r->elapsed_s + r->warmup_s;
}

int rep_status_open_on(const struct rep_exec *x, FILE *f, bool is_tty, unsigned int width,
		       void **state)
{
	struct status_state *s;

	*state = NULL;
	if (!is_tty)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->f = f;
	s->plan = x->plan;
	s->width = width < 20 ? 20 : width >= sizeof(s->line) ? sizeof(s->line) - 1 : width;
	for (size_t i = 0; s->plan && i < s->plan->nr_runs; i++)
		s->total_s += planned_s(&s->plan->runs[i]);
	s->later_s = x->status_later_s;
	s->label = x->status_label;
	*state = s;
	return 0;
}

static int status_open(const struct rep_exec *x, void **state)
{
	struct winsize ws;
	unsigned int width = 100;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		width = ws.ws_col - 1u;
	return rep_status_open_on(x, stderr, isatty(STDERR_FILENO), width, state);
}

/* "point 2/5" for a curve point: its place among the points of its max run. */
static void point_text(const struct plan *p, const struct rep_run *r, char *buf, size_t len)
{
	int base = r->run->base_run;
	size_t nr = 0, pos = 0;

	for (size_t i = 0; i < p->nr_runs; i++) {
		if (p->runs[i].rate != PLAN_RATE_CURVE_POINT || p->runs[i].base_run != base)
			continue;
		nr++;
		if (i == r->run_idx)
			pos = nr;
	}
	snprintf(buf, len, " \xc2\xb7 point %zu/%zu", pos, nr);
}

static void left_text(uint64_t secs, char *buf, size_t len)
{
	if (secs >= 3600)
		snprintf(buf, len, "%llu:%02llu:%02llu", (unsigned long long)(secs / 3600),
			 (unsigned long long)(secs / 60 % 60), (unsigned long long)(secs % 60));
	else
		snprintf(buf, len, "%llu:%02llu", (unsigned long long)(secs / 60),
			 (unsigned long long)(secs % 60));
}

/* Drops a UTF-8 sequence that truncation cut in two. */
static void trim_utf8(char *line)
{
	size_t len = strlen(line), end = len;

	while (end > 0 && ((unsigned char)line[end - 1] & 0xc0) == 0x80)
		end--;
	if (end > 0 && ((unsigned char)line[end - 1] & 0xc0) == 0xc0) {
		unsigned char lead = (unsigned char)line[end - 1];
		size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;

		if (len - (end - 1) < need)
			line[end - 1] = '\0';
	}
}

static void compose(struct status_state *s, const struct rep_run *r, const char *extra)
{
	uint64_t done = s->before_s + (s->done_s < s->run_s ? s->done_s : s->run_s);
	char point[48] = "", left[32], label[128] = "";
	bool has_plan = s->plan && r->run && r->run_idx < s->plan->nr_runs;

	if (has_plan && r->run->rate == PLAN_RATE_CURVE_POINT)
		point_text(s->plan, r, point, sizeof(point));
	left_text((s->total_s > done ? s->total_s - done : 0) + s->later_s, left, sizeof(left));
	if (s->label)
		snprintf(label, sizeof(label), "%s \xc2\xb7 ", s->label);
	if (has_plan)
		snprintf(s->line, s->width + 1, "ioramp: %srun %zu/%zu %s%s%s \xc2\xb7 %s left",
			 label, r->run_idx + 1, s->plan->nr_runs, r->name, point, extra, left);
	else
		snprintf(s->line, s->width + 1, "ioramp: %s%s%s \xc2\xb7 %s left", label, r->name,
			 extra, left);
	trim_utf8(s->line);
}

static void draw(struct status_state *s)
{
	if (!s->line[0])
		return;
	fprintf(s->f, "\r%s\033[K", s->line);
	fflush(s->f);
	s->is_shown = true;
}

static void status_bracket(void *state, bool is_after)
{
	struct status_state *s = state;

	if (!s)
		return;
	if (is_after) {
		draw(s);
	} else if (s->is_shown) {
		fputs("\r\033[K", s->f);
		fflush(s->f);
		s->is_shown = false;
	}
}

static int status_run_start(void *state, const struct rep_run *r)
{
	struct status_state *s = state;

	if (!s)
		return 0;
	s->before_s = 0;
	for (size_t i = 0; s->plan && r->run && i < r->run_idx && i < s->plan->nr_runs; i++)
		s->before_s += planned_s(&s->plan->runs[i]);
	s->run_s = r->elapsed_s + r->warmup_s;
	s->done_s = 0;
	compose(s, r, "");
	return 0;
}

static int status_interval(void *state, const struct rep_run *r, const struct rep_sample *smp)
{
	struct status_state *s = state;
	uint64_t nr_ios, nr_planned;
	char extra[128], iops[32], planned[24] = "";

	if (!s)
		return 0;
	if (!smp->is_avg)
		s->done_s = (uint64_t)smp->nr * r->interval_s;
	nr_ios = smp->total->op[STATS_OP_READ].nr_ios + smp->total->op[STATS_OP_WRITE].nr_ios;
	nr_planned = r->interval_s ? s->run_s / r->interval_s : 0;
	rep_fmt_group(stats_rate_per_sec(nr_ios, smp->elapsed_ns), 0, iops, sizeof(iops));
	if (nr_planned)
		snprintf(planned, sizeof(planned), "/%llu", (unsigned long long)nr_planned);
	snprintf(extra, sizeof(extra), " \xc2\xb7 interval %u%s%s \xc2\xb7 %s IOPS", smp->nr,
		 planned, smp->is_warmup ? " (warmup)" : "", iops);
	compose(s, r, extra);
	return 0;
}

static int status_close(void *state, int status)
{
	(void)status;
	free(state);
	return 0;
}

const struct rep_ops rep_statusline = {
	.name = "status",
	.is_closed_last = true,
	.open = status_open,
	.run_start = status_run_start,
	.interval = status_interval,
	.close = status_close,
	.bracket = status_bracket,
};
