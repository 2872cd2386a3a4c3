/* Private to src/engine: the engine's one source of time. Every part of a run reads and waits
 * for time through it: the workers' loops, the controller's interval loop, the drain, the
 * waiting backends (null, model, fault), the replay feeder and the recorder. Nothing else in the
 * engine calls clock_gettime(), nanosleep() or clock_nanosleep().
 *
 * A clock is real (CLOCK_MONOTONIC; reading it costs one vDSO call behind one branch) or
 * virtual. Virtual time moves only when every thread taking part in the run waits for it:
 *
 *  - The controller, the workers and the feeder of a run are its sleepers. Each joins the clock
 *    before its thread starts (a joined sleeper is awake until it sleeps) and leaves before it
 *    blocks on anything else (pthread_join) or ends.
 *  - eng_sleeper_until(s, t) marks s asleep until t. When the last awake sleeper goes to sleep,
 *    the clock jumps to the earliest wake time and wakes the sleepers due then. A sleeper that
 *    is the last one awake and also the earliest to wake only moves the clock: no hand-off, no
 *    futex, one uncontended mutex; and until the clock's generation changes (a member joins,
 *    leaves, sleeps or wakes, or a kick) it moves it again up to the others' earliest wake
 *    without the mutex: only a member awake could change that, and it is the only one. Most
 *    simulated I/Os of a modelled run cost one such store.
 *  - eng_clock_kick() wakes every sleeper at the current time so that it looks again (a stop, a
 *    published interval, records for a waiting worker, room for a waiting feeder). A kick that
 *    comes while a sleeper is awake makes its next sleep return at once, so none is lost.
 *
 * Each sleeper therefore sees the time it asked for, whatever the machine's load or the order in
 * which threads run: a run in virtual time repeats bit for bit with the same seed. Virtual time
 * starts at 0 when the clock is made; its time of day is the wall clock then plus the virtual
 * time elapsed. Only the null and model backends run in virtual time (real devices cannot). */
#ifndef IORAMP_ENGINE_CLOCK_H
#define IORAMP_ENGINE_CLOCK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define ENG_NSEC_PER_SEC 1000000000ull

struct eng_sleeper;

/* One per execution. Written under mu in virtual time; is_virtual and the bases never change
 * after eng_clock_init(). */
struct eng_clock {
	bool is_virtual;
	_Atomic uint64_t now_ns;  /* virtual time; unused when real */
	uint64_t tod_base_ns;	  /* virtual: the wall clock (CLOCK_REALTIME) at virtual time 0 */
	pthread_mutex_t mu;	  /* virtual: members, wake times, kicks */
	struct eng_sleeper *head; /* members, in join order */
	_Atomic uint64_t gen;	  /* bumped under mu by every change of the members' state */
	uint32_t nr_awake;
	uint64_t nr_kicks;
	/* real: bumped by every eng_clock_tell(), the futex word a listening sleeper waits on */
	_Atomic uint32_t told;
	_Atomic uint32_t nr_listening; /* real: listening sleepers in a wait now */
};

/* A thread that takes part in a run of a virtual clock. Fields are the clock's (under its mu);
 * the thread only names itself with it. */
struct eng_sleeper {
	struct eng_clock *clock;
	struct eng_sleeper *next;
	uint64_t wake_ns;
	uint64_t seen_kicks; /* nr_kicks when it last slept or woke */
	/* The owner's own: it may move the clock up to (not to) lease_ns while gen is lease_gen */
	uint64_t lease_gen;
	uint64_t lease_ns;
	bool is_member;
	bool is_asleep;
	pthread_cond_t cv;
	/* real: a tell ends its waits (eng_sleeper_listen); told when its last wait ended */
	bool is_listening;
	uint32_t seen_told;
};

/* Makes a real or a virtual clock. Returns 0 or -errno (pthread). Main thread. */
int eng_clock_init(struct eng_clock *c, bool is_virtual);
/* No sleeper may still be a member. Accepts a zeroed clock. */
void eng_clock_fini(struct eng_clock *c);

/* Now, in ns: CLOCK_MONOTONIC, or the virtual time. Any thread. One read per batch on the hot
 * path; the branch costs nothing measurable (bench/run). */
static inline uint64_t eng_clock_now(const struct eng_clock *c)
{
	struct timespec ts;

	if (c->is_virtual)
		return atomic_load_explicit(&((struct eng_clock *)c)->now_ns, memory_order_relaxed);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * ENG_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* The time of day in ns since 1970 for reports: CLOCK_REALTIME, or in virtual time the wall
 * clock at virtual time 0 plus the virtual time now. Any thread. */
uint64_t eng_clock_tod_ns(const struct eng_clock *c);

/* The time of day of a past instant when_ns of this clock (a completion, an error). */
uint64_t eng_clock_tod_at(const struct eng_clock *c, uint64_t when_ns);

/* s takes part in runs of c from now on, awake. Call before the thread that will use s starts
 * (or from it while the clock cannot move without it). A real clock only records c. Returns 0
 * or -errno (pthread). */
int eng_sleeper_join(struct eng_clock *c, struct eng_sleeper *s);

/* s takes part no more (before its thread blocks on anything else or ends); virtual time may
 * then move on without it. Accepts a sleeper that never joined or already left. */
void eng_sleeper_leave(struct eng_sleeper *s);

/* On a real clock, s's waits end at eng_clock_tell() too, as every sleeper's do at a kick on a
 * virtual one; a tell while s is awake makes its next wait return at once. For the controller:
 * it sleeps to its interval's end and hears the workers publish, finish or fail at once,
 * instead of polling for them 20 times a second. Call after eng_sleeper_join(). */
void eng_sleeper_listen(struct eng_sleeper *s);

/* Waits until when_ns (absolute, eng_clock_now() time), or less: a signal (real), a kick
 * (virtual) or a tell (real, a listening sleeper) ends the wait early, and callers look again
 * at what they wait for. UINT64_MAX waits for a kick (virtual; real: sleeps 100 ms). s NULL:
 * the real clock. */
static inline void eng_sleeper_until(struct eng_sleeper *s, uint64_t when_ns);

/* eng_sleeper_until() without its lease (clock.c). */
void eng_sleeper_wait(struct eng_sleeper *s, uint64_t when_ns);

/* Wakes every sleeper of a virtual clock now, so that each looks again; a sleeper awake now
 * returns from its next sleep at once. Nothing on a real clock (eng_clock_tell() wakes its
 * listener). Any thread. */
void eng_clock_kick(struct eng_clock *c);

/* A kick that a real clock's listening sleepers (eng_sleeper_listen) hear too: for what the
 * controller waits for (a published interval, a worker's end, an I/O error). One futex wake
 * while one listens; the kicks only a virtual clock needs (a replay's rings) stay kicks. Any
 * thread. */
void eng_clock_tell(struct eng_clock *c);

/* A short pause in real time, for a thread that waits for another outside the clock (it is no
 * member, or the clock is real): virtual time does not move for it. */
void eng_clock_nap(uint64_t ns);

/* For real backends whose wait takes a relative timeout: the real time left until deadline_ns
 * (CLOCK_MONOTONIC; zero when it has passed). */
void eng_clock_timeout(uint64_t deadline_ns, struct timespec *ts);

static inline void eng_sleeper_until(struct eng_sleeper *s, uint64_t when_ns)
{
	/* s's lease (never on a real clock: lease_ns stays 0): nothing changed since s was last
	 * alone awake and first to wake, so it still is (only a member awake changes that, and s
	 * is the only one) */
	if (s && when_ns < s->lease_ns &&
	    atomic_load_explicit(&s->clock->gen, memory_order_acquire) == s->lease_gen) {
		if (when_ns > atomic_load_explicit(&s->clock->now_ns, memory_order_relaxed))
			atomic_store_explicit(&s->clock->now_ns, when_ns, memory_order_relaxed);
		return;
	}
	eng_sleeper_wait(s, when_ns);
}

#endif /* IORAMP_ENGINE_CLOCK_H */
