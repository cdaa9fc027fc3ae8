// SPDX-License-Identifier: MIT
/*
 * The store buffers: one FIFO of delayed stores per thread, as x86 (TSO)
 * has, but with entries that stay for up to max_delay_ns instead of about
 * a hundred nanoseconds, so that a missing store-to-load fence shows.
 *
 * A buffered store gets a due time (now + a random delay, never before the
 * entry ahead of it: the FIFO commits in order).  Entries are committed
 * (written to memory) when due, by their own thread at its next
 * instrumented access or by the drainer thread, and all at once at a
 * drain: the thread's seq_cst fence, seq_cst store or read-modify-write
 * (locked instructions), and every thread's at membarrier(2).  A load
 * forwards from its own thread's newest entry for the same address and
 * size; one that overlaps an entry otherwise commits up to it first.
 *
 * Each thread's buffer has a spinlock: its owner takes it for every
 * access, the drainer only tries it, a membarrier drain spins on it.  If
 * the plugin installs a signal handler (wrap.c), signals are blocked while
 * the lock is held, so that a handler running instrumented code on the
 * same thread cannot find the buffer half updated.
 */
#define _GNU_SOURCE
#include "sb.h"

#include <rcutorture/flavor.h>

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SB_CAP 64 /* entries per thread; a full buffer commits its oldest */

struct sb_entry {
	uintptr_t addr;
	uint64_t val;
	uint64_t put_ns, due_ns;
	unsigned int size;
};

/* One thread's store buffer and figures; never freed, reused. */
struct sb_thread {
	int lock;
	bool in_use;
	unsigned int head, tail; /* ring indices; entries: tail - head */
	struct sb_entry e[SB_CAP];
	uint64_t last_due, rng;
	uint64_t buffered, forwarded, drains, aged, max_age_ns;
	struct sb_thread *next; /* the registry: push-only */
} __attribute__((aligned(64)));

int sb_active;
int sb_model; /* RCUT_STOREBUF_TSO */
static uint64_t max_delay, seed_base;
static int guard_signals;
static struct sb_thread *registry;
static uint64_t membarrier_drains, nthreads;
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static __thread struct sb_thread *me;

/* CLOCK_MONOTONIC in ns. */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t (*sb_clock)(void) = mono_ns;

void sb_guard_signals(void)
{
	__atomic_store_n(&guard_signals, 1, __ATOMIC_RELAXED);
}

/* Write one entry's value to memory. */
static void write_mem(uintptr_t addr, unsigned int size, uint64_t v)
{
	switch (size) {
	case 1:
		__atomic_store_n((uint8_t *)addr, (uint8_t)v, __ATOMIC_RELAXED);
		break;
	case 2:
		__atomic_store_n((uint16_t *)addr, (uint16_t)v,
				 __ATOMIC_RELAXED);
		break;
	case 4:
		__atomic_store_n((uint32_t *)addr, (uint32_t)v,
				 __ATOMIC_RELAXED);
		break;
	default:
		__atomic_store_n((uint64_t *)addr, v, __ATOMIC_RELAXED);
	}
}

/* Read memory of the given size. */
static uint64_t read_mem(uintptr_t addr, unsigned int size)
{
	switch (size) {
	case 1:
		return __atomic_load_n((uint8_t *)addr, __ATOMIC_RELAXED);
	case 2:
		return __atomic_load_n((uint16_t *)addr, __ATOMIC_RELAXED);
	case 4:
		return __atomic_load_n((uint32_t *)addr, __ATOMIC_RELAXED);
	default:
		return __atomic_load_n((uint64_t *)addr, __ATOMIC_RELAXED);
	}
}

/*
 * Give the CPU away for a moment.  Not sched_yield() or nanosleep(): the
 * plugin's link wraps those (wrap.c), and the wrappers drain buffers.
 */
static void pause_briefly(void)
{
	struct timespec ts = { 0, 1000 };

	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/* Take t's lock (blocking signals first if asked); old gets the mask. */
static void lock_buf(struct sb_thread *t, sigset_t *old, bool guard)
{
	if (guard) {
		sigset_t all;

		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, old);
	}
	for (unsigned int spins = 0;
	     __atomic_exchange_n(&t->lock, 1, __ATOMIC_ACQUIRE); spins++)
		if (spins > 1000)
			pause_briefly();
}

static void unlock_buf(struct sb_thread *t, sigset_t *old, bool guard)
{
	__atomic_store_n(&t->lock, 0, __ATOMIC_RELEASE);
	if (guard)
		pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Commit t's oldest entry; its lock held. */
static void commit_oldest(struct sb_thread *t, uint64_t now, bool by_age)
{
	struct sb_entry *e = &t->e[t->head % SB_CAP];
	uint64_t age = now > e->put_ns ? now - e->put_ns : 0;

	write_mem(e->addr, e->size, e->val);
	t->head++;
	if (by_age)
		t->aged++;
	if (age > t->max_age_ns)
		t->max_age_ns = age;
}

/* Commit t's entries that are due; its lock held. */
static void expire(struct sb_thread *t, uint64_t now)
{
	while (t->head != t->tail && t->e[t->head % SB_CAP].due_ns <= now)
		commit_oldest(t, now, true);
}

/* Commit all of t's entries; its lock held. */
static void drain(struct sb_thread *t, uint64_t now)
{
	while (t->head != t->tail)
		commit_oldest(t, now, false);
}

/* At thread exit: everything buffered becomes visible, the record free. */
static void thread_gone(void *arg)
{
	struct sb_thread *t = arg;
	sigset_t old;

	lock_buf(t, &old, true);
	drain(t, sb_clock());
	unlock_buf(t, &old, true);
	__atomic_store_n(&t->in_use, false, __ATOMIC_RELEASE);
	me = NULL;
}

static void make_key(void)
{
	pthread_key_create(&exit_key, thread_gone);
}

/* The calling thread's record: a free one, or a new one pushed. */
static struct sb_thread *self(void)
{
	struct sb_thread *t;
	uint64_t n;

	if (me)
		return me;
	pthread_once(&key_once, make_key);
	for (t = __atomic_load_n(&registry, __ATOMIC_ACQUIRE); t; t = t->next) {
		bool expected = false;

		if (__atomic_compare_exchange_n(&t->in_use, &expected, true,
						false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			break;
	}
	if (!t) {
		t = aligned_alloc(64, sizeof(*t));
		if (!t)
			abort();
		memset(t, 0, sizeof(*t));
		t->in_use = true;
		t->next = __atomic_load_n(&registry, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(&registry, &t->next, t,
						    true, __ATOMIC_RELEASE,
						    __ATOMIC_RELAXED))
			;
	}
	n = __atomic_add_fetch(&nthreads, 1, __ATOMIC_RELAXED);
	t->rng = (seed_base ^ (n * 0x9e3779b97f4a7c15u)) | 1;
	me = t;
	pthread_setspecific(exit_key, t);
	return t;
}

/* xorshift64*: the next random number of t. */
static uint64_t next_rand(struct sb_thread *t)
{
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return t->rng * 0x2545f4914f6cdd1du;
}

/*
 * A delay for a new entry: mostly long, since the store-to-load window
 * matters only while a remote grace period runs: one in four uniform in
 * [0, max], the rest uniform in [max / 2, max].
 */
static uint64_t draw_delay(struct sb_thread *t)
{
	uint64_t r = next_rand(t),
		 d = __atomic_load_n(&max_delay, __ATOMIC_RELAXED);

	if (!d)
		return 0;
	if ((r & 3) == 0)
		return (r >> 2) % (d + 1);
	return d / 2 + (r >> 2) % (d - d / 2 + 1);
}

void sb_write_now(volatile void *addr, unsigned int size, uint64_t val)
{
	write_mem((uintptr_t)addr, size, val);
}

void sb_store(volatile void *addr, unsigned int size, uint64_t val, int mo)
{
	bool guard = __atomic_load_n(&guard_signals, __ATOMIC_RELAXED);
	struct sb_thread *t;
	struct sb_entry *e;
	uint64_t now;
	sigset_t old;

	if (sb_late_store(addr, size, val, mo))
		return;
	if ((mo & 0xffff) >= __ATOMIC_RELEASE)
		sb_late_order();
	if (!__atomic_load_n(&sb_active, __ATOMIC_RELAXED) ||
	    ((mo & 0xffff) == __ATOMIC_SEQ_CST &&
	     __atomic_load_n(&sb_model, __ATOMIC_RELAXED) ==
		     RCUT_STOREBUF_TSO)) {
		sb_drain_own();
		write_mem((uintptr_t)addr, size, val);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		return;
	}
	t = self();
	lock_buf(t, &old, guard);
	now = sb_clock();
	expire(t, now);
	if (t->tail - t->head == SB_CAP)
		commit_oldest(t, now, false);
	e = &t->e[t->tail % SB_CAP];
	e->addr = (uintptr_t)addr;
	e->size = size;
	e->val = val;
	e->put_ns = now;
	e->due_ns = now + draw_delay(t);
	if (e->due_ns < t->last_due)
		e->due_ns = t->last_due;
	t->last_due = e->due_ns;
	t->tail++;
	t->buffered++;
	unlock_buf(t, &old, guard);
}

/* Whether [a, a + n) and [b, b + m) overlap. */
static bool overlaps(uintptr_t a, unsigned long n, uintptr_t b, unsigned long m)
{
	return a < b + m && b < a + n;
}

/*
 * The newest of t's entries that overlaps [addr, addr + size): its ring
 * index + 1, or 0 for none; its lock held.
 */
static unsigned int newest_overlap(struct sb_thread *t, uintptr_t addr,
				   unsigned long size)
{
	for (unsigned int i = t->tail; i != t->head; i--) {
		struct sb_entry *e = &t->e[(i - 1) % SB_CAP];

		if (overlaps(addr, size, e->addr, e->size))
			return i;
	}
	return 0;
}

uint64_t sb_load(const volatile void *addr, unsigned int size, int mo)
{
	bool guard = __atomic_load_n(&guard_signals, __ATOMIC_RELAXED);
	struct sb_thread *t = me;
	uint64_t now, v;
	unsigned int i;
	sigset_t old;

	if (!t || !__atomic_load_n(&sb_active, __ATOMIC_RELAXED))
		return read_mem((uintptr_t)addr, size);
	/* Arm's ldar waits for the earlier stlr; every x86 load is alike. */
	if ((mo & 0xffff) == __ATOMIC_SEQ_CST &&
	    __atomic_load_n(&sb_model, __ATOMIC_RELAXED) == RCUT_STOREBUF_ARM) {
		sb_drain_own();
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		return read_mem((uintptr_t)addr, size);
	}
	lock_buf(t, &old, guard);
	now = sb_clock();
	expire(t, now);
	i = newest_overlap(t, (uintptr_t)addr, size);
	if (i) {
		struct sb_entry *e = &t->e[(i - 1) % SB_CAP];

		if (e->addr == (uintptr_t)addr && e->size == size) {
			t->forwarded++;
			v = e->val;
			unlock_buf(t, &old, guard);
			return v;
		}
		while (t->head != i) /* a partial overlap: commit up to it */
			commit_oldest(t, now, false);
	}
	v = read_mem((uintptr_t)addr, size);
	unlock_buf(t, &old, guard);
	return v;
}

void sb_drain_own(void)
{
	sb_late_order();
	sb_flush_own();
}

void sb_flush_own(void)
{
	bool guard = __atomic_load_n(&guard_signals, __ATOMIC_RELAXED);
	struct sb_thread *t = me;
	sigset_t old;

	if (!t || t->head == t->tail)
		return;
	lock_buf(t, &old, guard);
	if (t->head != t->tail)
		t->drains++;
	drain(t, sb_clock());
	unlock_buf(t, &old, guard);
}

/* A plain access in an instrumented function: see the header. */
static void plain(const volatile void *addr, unsigned long size, bool write)
{
	bool guard = __atomic_load_n(&guard_signals, __ATOMIC_RELAXED);
	struct sb_thread *t = me;
	unsigned int i;
	sigset_t old;

	if (!t || t->head == t->tail)
		return;
	lock_buf(t, &old, guard);
	/* a plain write stays behind the buffered stores (FIFO) */
	i = write ? t->tail : newest_overlap(t, (uintptr_t)addr, size);
	while (i && t->head != i)
		commit_oldest(t, sb_clock(), false);
	unlock_buf(t, &old, guard);
}

void sb_plain_read(const volatile void *addr, unsigned long size)
{
	plain(addr, size, false);
}

void sb_plain_write(const volatile void *addr, unsigned long size)
{
	sb_late_plain_write();
	plain(addr, size, true);
}

void sb_drain_all(void)
{
	uint64_t now = sb_clock();

	sb_late_membarrier();
	__atomic_add_fetch(&membarrier_drains, 1, __ATOMIC_RELAXED);
	for (struct sb_thread *t = __atomic_load_n(&registry, __ATOMIC_ACQUIRE);
	     t; t = t->next) {
		sigset_t old;

		lock_buf(t, &old, t == me);
		drain(t, now);
		unlock_buf(t, &old, t == me);
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

unsigned int sb_pending(void)
{
	return me ? me->tail - me->head : 0;
}

void sb_expire_own(void)
{
	sigset_t old;

	if (!me)
		return;
	lock_buf(me, &old, true);
	expire(me, sb_clock());
	unlock_buf(me, &old, true);
}

/* The drainer: commits every thread's due entries, a few times a delay. */
/* The harness's, absent outside rcutorture. */
#pragma weak rcut_thread_holds_nothing

static void *drainer(void *arg)
{
	(void)arg;
	if (rcut_thread_holds_nothing)
		rcut_thread_holds_nothing(); /* never a reader */
	for (;;) {
		uint64_t d = __atomic_load_n(&max_delay, __ATOMIC_RELAXED);
		struct timespec ts = { 0,
				       (long)(d / 4 < 20000 ? 20000 : d / 4) };

		if (ts.tv_nsec > 1000000)
			ts.tv_nsec = 1000000;
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		for (struct sb_thread *t =
			     __atomic_load_n(&registry, __ATOMIC_ACQUIRE);
		     t; t = t->next) {
			if (t->head == t->tail ||
			    __atomic_exchange_n(&t->lock, 1, __ATOMIC_ACQUIRE))
				continue; /* empty, or its owner is at it */
			expire(t, sb_clock());
			__atomic_store_n(&t->lock, 0, __ATOMIC_RELEASE);
		}
	}
	return NULL;
}

/* Start the drainer once, with every signal blocked. */
static void start_drainer(void)
{
	static bool started;
	sigset_t all, old;
	pthread_t tid;

	if (started)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (!pthread_create(&tid, NULL, drainer, NULL)) {
		pthread_detach(tid);
		started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void sb_configure(uint64_t seed, uint64_t max_delay_ns, bool run_drainer)
{
	seed_base = seed * 0x9e3779b97f4a7c15u + 1;
	__atomic_store_n(&max_delay, max_delay_ns, __ATOMIC_RELAXED);
	if (max_delay_ns && run_drainer)
		start_drainer();
	if (!max_delay_ns)
		sb_drain_all();
	__atomic_store_n(&sb_active, max_delay_ns ? 1 : 0, __ATOMIC_SEQ_CST);
}

void sb_sum(struct rcut_storebuf_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (struct sb_thread *t = __atomic_load_n(&registry, __ATOMIC_ACQUIRE);
	     t; t = t->next) {
		uint64_t age =
			__atomic_load_n(&t->max_age_ns, __ATOMIC_RELAXED);

		out->buffered +=
			__atomic_load_n(&t->buffered, __ATOMIC_RELAXED);
		out->forwarded +=
			__atomic_load_n(&t->forwarded, __ATOMIC_RELAXED);
		out->drains += __atomic_load_n(&t->drains, __ATOMIC_RELAXED);
		out->aged += __atomic_load_n(&t->aged, __ATOMIC_RELAXED);
		if (age > out->max_age_ns)
			out->max_age_ns = age;
	}
	out->membarrier_drains =
		__atomic_load_n(&membarrier_drains, __ATOMIC_RELAXED);
}
