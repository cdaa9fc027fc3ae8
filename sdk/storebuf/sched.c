// SPDX-License-Identifier: MIT
/*
 * Automatic race points: the ThreadSanitizer entry points (tsan.c) call
 * sb_sched_access() at every instrumented access of the plugin, and this
 * file decides where a thread stops for a while, so that a flavor with no
 * rcut_race_point() of its own still has its windows opened: a reader
 * between reading the phase and publishing its count, an updater between
 * its flip and its scan.  Two ways to choose (storebuf.h):
 *
 * - uniform: each thread counts down a random number of accesses (mean
 *   rate) and takes a race delay there: rcut_race_delay(RCUT_RACE_AUTO),
 *   the harness's yield, spin or sleep from the race-delay distribution.
 * - pct: PCT's priorities on threads the OS schedules.  Every epoch each
 *   thread draws a priority; every 16 accesses it publishes it with the
 *   time and looks whether a thread of higher priority ran in the last
 *   ACTIVE_NS; if so it waits (a 20 us sleep) at each access, so that the
 *   highest thread runs nearly alone.  depth - 1 change points per epoch,
 *   spread over the threads' accesses at random, demote the thread that
 *   reaches one below every other: it stops right there while the others
 *   run, which is PCT's preemption at a random step.  A thread asleep or
 *   blocked makes no accesses, so it stops counting as running and holds
 *   nobody up; epochs are short so that a higher thread spinning on a
 *   lower one is freed by the next draw.
 *
 * Nothing here takes a lock or drains a store buffer: the counters are
 * the thread's own, summed into globals now and then.
 */
#define _GNU_SOURCE
#include "sb.h"

#include <rcutorture/flavor.h>
#include <string.h>
#include <time.h>

/* The harness's race-point slow path; absent outside rcutorture. */
#pragma weak rcut_race_delay

#define PCT_SLOTS 64
#define PCT_CHECK 16	  /* accesses between priority checks */
#define ACTIVE_NS 200000u /* ran this recently: counts as running */
#define PCT_WAIT_NS 20000 /* one wait of a lower-priority thread */
#define FLUSH 1024	  /* accesses between stats flushes */

int sb_sched_mode; /* enum rcut_sched_mode */
static uint64_t rate, epoch_ns, seed_base;
static uint64_t depth;
static uint64_t nthreads;
static uint64_t g_accesses, g_points, g_waits, g_demotions;

/* A thread's published priority and when it last ran instrumented code. */
static struct pct_slot {
	uint64_t prio;
	uint64_t active_ns;
} __attribute__((aligned(64))) slots[PCT_SLOTS];

static __thread struct {
	bool init;
	int slot;
	uint64_t rng, generation;
	uint64_t countdown; /* uniform: accesses to the next point */
	uint64_t check_in;  /* pct: accesses to the next check */
	uint64_t change_in; /* pct: accesses to the change point, 0: none */
	uint64_t epoch, epoch_accesses, last_epoch_accesses;
	uint64_t prio;
	bool behind, demoted;
	uint64_t accesses, points, waits, demotions; /* unflushed */
} st;

static uint64_t generation; /* bumped by every configure */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* xorshift64*. */
static uint64_t next_rand(void)
{
	st.rng ^= st.rng >> 12;
	st.rng ^= st.rng << 25;
	st.rng ^= st.rng >> 27;
	return st.rng * 0x2545f4914f6cdd1du;
}

static uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void flush(void)
{
	__atomic_add_fetch(&g_accesses, st.accesses, __ATOMIC_RELAXED);
	__atomic_add_fetch(&g_points, st.points, __ATOMIC_RELAXED);
	__atomic_add_fetch(&g_waits, st.waits, __ATOMIC_RELAXED);
	__atomic_add_fetch(&g_demotions, st.demotions, __ATOMIC_RELAXED);
	st.accesses = st.points = st.waits = st.demotions = 0;
}

/* Accesses to the next uniform point: 1 to 2 * rate, mean about rate. */
static uint64_t draw_countdown(void)
{
	uint64_t r = load(&rate);

	return 1 + next_rand() % (2 * (r ? r : 1));
}

static void take_point(void)
{
	st.points++;
	flush();
	if (rcut_race_delay)
		rcut_race_delay(RCUT_RACE_AUTO);
}

/* PCT: a new epoch's priority, and maybe a change point in it. */
static void pct_new_epoch(uint64_t epoch)
{
	uint64_t n = load(&nthreads), d = load(&depth), expect;

	st.epoch = epoch;
	st.last_epoch_accesses = st.epoch_accesses;
	st.epoch_accesses = 0;
	st.demoted = false;
	/* priorities d .. above: the demoted ones take 0 .. d - 2 */
	st.prio = d + (next_rand() >> 16);
	st.change_in = 0;
	/* d - 1 change points among n threads: each has one with (d-1)/n */
	if (d > 1 && n && next_rand() % n < d - 1) {
		expect = st.last_epoch_accesses ? st.last_epoch_accesses :
						  PCT_CHECK * 64;
		st.change_in = 1 + next_rand() % expect;
	}
}

/* PCT: publish our priority, see whether a higher thread is running. */
static void pct_check(void)
{
	uint64_t now = now_ns(), epoch = now / load(&epoch_ns), me;
	struct pct_slot *s = &slots[st.slot];

	if (epoch != st.epoch)
		pct_new_epoch(epoch);
	me = st.prio;
	__atomic_store_n(&s->prio, me, __ATOMIC_RELAXED);
	__atomic_store_n(&s->active_ns, now, __ATOMIC_RELAXED);
	st.behind = false;
	for (int i = 0; i < PCT_SLOTS; i++) {
		struct pct_slot *o = &slots[i];

		if (o == s || now - load(&o->active_ns) > ACTIVE_NS)
			continue;
		if (load(&o->prio) > me) {
			st.behind = true;
			break;
		}
	}
}

static void pct_wait(void)
{
	struct timespec ts = { 0, PCT_WAIT_NS };

	st.waits++;
	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

static void thread_init(uint64_t gen)
{
	uint64_t n = __atomic_add_fetch(&nthreads, 1, __ATOMIC_RELAXED);

	if (!st.init)
		st.slot = (int)((n - 1) % PCT_SLOTS);
	st.init = true;
	st.generation = gen;
	st.rng = (load(&seed_base) ^ (n * 0xbf58476d1ce4e5b9u)) | 1;
	st.countdown = draw_countdown();
	st.check_in = 1;
	st.epoch = 0;
	st.epoch_accesses = st.last_epoch_accesses = 0;
	st.behind = st.demoted = false;
}

void sb_sched_access(void)
{
	int mode = __atomic_load_n(&sb_sched_mode, __ATOMIC_RELAXED);
	uint64_t gen = load(&generation);

	if (mode == RCUT_SCHED_OFF)
		return;
	if (!st.init || st.generation != gen)
		thread_init(gen);
	if (++st.accesses >= FLUSH)
		flush();
	if (mode == RCUT_SCHED_UNIFORM) {
		if (--st.countdown == 0) {
			st.countdown = draw_countdown();
			take_point();
		}
		return;
	}
	st.epoch_accesses++;
	if (st.change_in && --st.change_in == 0) {
		/* PCT's change point: below every thread of this epoch */
		st.demoted = true;
		st.prio = next_rand() % load(&depth);
		st.demotions++;
		st.check_in = 1;
	}
	if (--st.check_in == 0) {
		st.check_in = PCT_CHECK;
		pct_check();
	}
	if (st.behind)
		pct_wait();
}

void sb_sched_configure(const struct rcut_sched_params *p)
{
	int mode = p ? (int)p->mode : RCUT_SCHED_OFF;

	if (mode != RCUT_SCHED_OFF) {
		__atomic_store_n(&rate, p->rate ? p->rate : 1,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&depth, p->depth ? p->depth : 1,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&epoch_ns, p->epoch_ns ? p->epoch_ns : 1000000,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&seed_base, p->seed * 0x9e3779b97f4a7c15u + 7,
				 __ATOMIC_RELAXED);
	}
	memset(slots, 0, sizeof(slots));
	/* each thread counts itself again at its next access (thread_init) */
	__atomic_store_n(&nthreads, 0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&generation, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sb_sched_mode, mode, __ATOMIC_SEQ_CST);
}

void sb_sched_sum(struct rcut_sched_stats *out)
{
	out->accesses = load(&g_accesses);
	out->points = load(&g_points);
	out->waits = load(&g_waits);
	out->demotions = load(&g_demotions);
}
