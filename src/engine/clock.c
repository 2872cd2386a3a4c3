/* The engine's clock (clock.h): the real monotonic clock, or virtual time that jumps to the
 * earliest wake time once every sleeper of the run waits for it. */
#include "clock.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ioramp/engine.h"

enum {
	REAL_IDLE_NS = 100000000, /* a real wait "for a kick" polls this often */
};

static uint64_t real_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * ENG_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

int eng_clock_init(struct eng_clock *c, bool is_virtual)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->is_virtual = is_virtual;
	atomic_init(&c->now_ns, 0);
	atomic_init(&c->gen, 1); /* a sleeper's lease_gen 0: no lease */
	atomic_init(&c->told, 0);
	atomic_init(&c->nr_listening, 0);
	if (!is_virtual)
		return 0;
	c->tod_base_ns = real_ns(CLOCK_REALTIME);
	ret = pthread_mutex_init(&c->mu, NULL);
	return -ret; /* pthreads return the error; errno is untouched */
}

void eng_clock_fini(struct eng_clock *c)
{
	if (c->is_virtual)
		pthread_mutex_destroy(&c->mu);
	c->is_virtual = false;
}

uint64_t eng_clock_tod_ns(const struct eng_clock *c)
{
	if (c->is_virtual)
		return c->tod_base_ns + eng_clock_now(c);
	return real_ns(CLOCK_REALTIME);
}

uint64_t eng_clock_tod_at(const struct eng_clock *c, uint64_t when_ns)
{
	uint64_t now = eng_clock_now(c), tod = eng_clock_tod_ns(c);

	return tod - (now > when_ns ? now - when_ns : 0);
}

/* Under mu: a member joined, left, slept or woke, or a kick came: every lease ends. */
static void changed(struct eng_clock *c)
{
	atomic_store_explicit(&c->gen, atomic_load_explicit(&c->gen, memory_order_relaxed) + 1,
			      memory_order_release);
}

/* Under mu: s is awake again (its wait ends). */
static void wake(struct eng_clock *c, struct eng_sleeper *s)
{
	s->is_asleep = false;
	s->seen_kicks = c->nr_kicks;
	c->nr_awake++;
	changed(c);
	pthread_cond_signal(&s->cv);
}

/* Under mu, every member asleep: time jumps to the earliest wake and those due then wake. With
 * every member waiting for a kick nobody could ever wake: they are all woken to look again. */
static void advance(struct eng_clock *c)
{
	uint64_t next = UINT64_MAX;

	for (struct eng_sleeper *s = c->head; s; s = s->next)
		if (s->wake_ns < next)
			next = s->wake_ns;
	if (next != UINT64_MAX && next > atomic_load_explicit(&c->now_ns, memory_order_relaxed))
		atomic_store_explicit(&c->now_ns, next, memory_order_relaxed);
	for (struct eng_sleeper *s = c->head; s; s = s->next)
		if (s->is_asleep && (s->wake_ns <= next || next == UINT64_MAX))
			wake(c, s);
}

/* Under mu, s the only member awake (the others' wake times are set): the earliest time
 * another member wakes, UINT64_MAX for none. */
static uint64_t others_wake(const struct eng_clock *c, const struct eng_sleeper *s)
{
	uint64_t first = UINT64_MAX;

	for (const struct eng_sleeper *o = c->head; o; o = o->next)
		if (o != s && o->wake_ns < first)
			first = o->wake_ns;
	return first;
}

int eng_sleeper_join(struct eng_clock *c, struct eng_sleeper *s)
{
	struct eng_sleeper **p;
	int ret;

	memset(s, 0, sizeof(*s));
	s->clock = c;
	if (!c->is_virtual)
		return 0;
	ret = pthread_cond_init(&s->cv, NULL);
	if (ret)
		return -ret;
	pthread_mutex_lock(&c->mu);
	for (p = &c->head; *p; p = &(*p)->next)
		;
	*p = s;
	s->is_member = true;
	s->seen_kicks = c->nr_kicks;
	c->nr_awake++;
	changed(c);
	pthread_mutex_unlock(&c->mu);
	return 0;
}

void eng_sleeper_leave(struct eng_sleeper *s)
{
	struct eng_clock *c = s->clock;

	if (!c || !c->is_virtual || !s->is_member)
		return;
	pthread_mutex_lock(&c->mu);
	for (struct eng_sleeper **p = &c->head; *p; p = &(*p)->next) {
		if (*p == s) {
			*p = s->next;
			break;
		}
	}
	s->is_member = false;
	if (!s->is_asleep)
		c->nr_awake--;
	changed(c);
	if (c->head && !c->nr_awake)
		advance(c);
	pthread_mutex_unlock(&c->mu);
	pthread_cond_destroy(&s->cv);
}

/* when_ns as an absolute CLOCK_MONOTONIC time; UINT64_MAX (a wait for a kick) polls. */
static struct timespec real_deadline(uint64_t when_ns)
{
	if (when_ns == UINT64_MAX)
		when_ns = real_ns(CLOCK_MONOTONIC) + REAL_IDLE_NS;
	return (struct timespec){ .tv_sec = (time_t)(when_ns / ENG_NSEC_PER_SEC),
				  .tv_nsec = (long)(when_ns % ENG_NSEC_PER_SEC) };
}

static void real_until(uint64_t when_ns)
{
	struct timespec ts = real_deadline(when_ns);

	/* an early wake (EINTR) is fine: callers look again */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

void eng_sleeper_listen(struct eng_sleeper *s)
{
	s->is_listening = true;
	s->seen_told = atomic_load(&s->clock->told);
}

/* A listening sleeper's real wait: until when_ns or a tell. The count of listeners is raised
 * before told is read, and a tell bumps told before it reads that count (both seq_cst): either
 * the tell sees a listener and wakes the futex, or the listener sees the new word (the futex
 * compares it again in the kernel). */
static void real_listen(struct eng_sleeper *s, uint64_t when_ns)
{
	struct eng_clock *c = s->clock;
	struct timespec ts;
	uint32_t word;

	atomic_fetch_add(&c->nr_listening, 1);
	word = atomic_load(&c->told);
	if (word == s->seen_told) {
		ts = real_deadline(when_ns);
		/* absolute CLOCK_MONOTONIC; a signal (EINTR) or a changed word ends it early */
		syscall(SYS_futex, &c->told, FUTEX_WAIT_BITSET_PRIVATE, word, &ts, NULL,
			FUTEX_BITSET_MATCH_ANY);
	}
	atomic_fetch_sub(&c->nr_listening, 1);
	s->seen_told = atomic_load(&c->told);
}

void eng_sleeper_wait(struct eng_sleeper *s, uint64_t when_ns)
{
	struct eng_clock *c = s ? s->clock : NULL;

	if (!c || !c->is_virtual) {
		if (s && s->is_listening)
			real_listen(s, when_ns);
		else
			real_until(when_ns);
		return;
	}
	pthread_mutex_lock(&c->mu);
	if (when_ns <= atomic_load_explicit(&c->now_ns, memory_order_relaxed) ||
	    s->seen_kicks != c->nr_kicks || !s->is_member) {
		s->seen_kicks = c->nr_kicks; /* a kick while awake: look again at once */
		pthread_mutex_unlock(&c->mu);
		return;
	}
	if (c->nr_awake == 1 && when_ns < others_wake(c, s)) {
		/* the last one awake wakes first: advance() would only move the clock (no hand-off,
		 * no signal); the common case of a worker alone on its modelled drives. Until the
		 * generation changes, s may do so again up to the others' wake without mu. */
		atomic_store_explicit(&c->now_ns, when_ns, memory_order_relaxed);
		s->lease_gen = atomic_load_explicit(&c->gen, memory_order_relaxed);
		s->lease_ns = others_wake(c, s);
		pthread_mutex_unlock(&c->mu);
		return;
	}
	s->wake_ns = when_ns;
	s->is_asleep = true;
	changed(c);
	if (!--c->nr_awake)
		advance(c);
	while (s->is_asleep)
		pthread_cond_wait(&s->cv, &c->mu);
	pthread_mutex_unlock(&c->mu);
}

void eng_clock_kick(struct eng_clock *c)
{
	if (!c || !c->is_virtual)
		return;
	pthread_mutex_lock(&c->mu);
	c->nr_kicks++;
	changed(c);
	for (struct eng_sleeper *s = c->head; s; s = s->next)
		if (s->is_asleep)
			wake(c, s);
	pthread_mutex_unlock(&c->mu);
}

void eng_clock_tell(struct eng_clock *c)
{
	if (!c)
		return;
	if (c->is_virtual) {
		eng_clock_kick(c);
		return;
	}
	atomic_fetch_add(&c->told, 1);
	if (atomic_load(&c->nr_listening))
		syscall(SYS_futex, &c->told, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void eng_clock_nap(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / ENG_NSEC_PER_SEC),
			       .tv_nsec = (long)(ns % ENG_NSEC_PER_SEC) };

	nanosleep(&ts, NULL);
}

void eng_clock_timeout(uint64_t deadline_ns, struct timespec *ts)
{
	uint64_t now_ns = real_ns(CLOCK_MONOTONIC);
	uint64_t left_ns = deadline_ns > now_ns ? deadline_ns - now_ns : 0;

	ts->tv_sec = (time_t)(left_ns / ENG_NSEC_PER_SEC);
	ts->tv_nsec = (long)(left_ns % ENG_NSEC_PER_SEC);
}

uint64_t eng_now_ns(void)
{
	return real_ns(CLOCK_MONOTONIC);
}
