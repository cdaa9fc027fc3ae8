// SPDX-License-Identifier: MIT
/*
 * srcu: sleepable RCU in the style of the kernel's Tree SRCU
 * (kernel/rcu/srcutree.c), on the harness's simulated CPUs.
 *
 * Readers bump the per-CPU lock counter of the current index (0 or 1) and
 * later the unlock counter of that same CPU and index, wherever they run
 * then, so they may sleep or migrate inside their section.  A grace period
 * (sequence numbers with the state in the low two bits: idle, scan 1,
 * scan 2) waits for the inactive index's unlocks to match its locks, flips
 * the index, and waits again for the old one: the flip-and-drain.  A
 * worker thread drives the state machine and requeues itself after a
 * delay computed the kernel's way, which is where the 2022 tunables live:
 * srcu.max_nodelay_phase, srcu.max_nodelay, srcu.retry_check_delay and
 * srcu.hz, with srcu.policy presets for the pre-2022 kernels (v5.18),
 * 282d8998e997 (282d), 640a7d37c3f4 (640a) and the final v5.19 code.
 * A normal synchronize() that finds SRCU idle for srcu.exp_holdoff is
 * expedited, as the kernel's synchronize_srcu() does.
 * Callbacks wait on one list, tagged with the sequence number that must
 * complete, and run in order from the worker; barrier waits behind the
 * last one.  Counters sum over every CPU, so CPU offline needs nothing.
 *
 * Race points (rcut_race_point()): read_lock between reading the index and
 * counting the lock, read_unlock before counting the unlock, the reader
 * check between summing unlocks and summing locks (SRCU's classic
 * window), the state machine before the flip, after it and before ending
 * a grace period, release before waking waiters, call between the
 * snapshot and queueing, invocation between taking ready callbacks and
 * running them, and barrier before entraining.
 */
#define _GNU_SOURCE
#include "../registry.h"

#include <limits.h>
#include <stddef.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { POLICY_V518, POLICY_282D, POLICY_640A, POLICY_FINAL };
enum { STATE_IDLE, STATE_SCAN1, STATE_SCAN2 };

static const char *const policy_names[] = { "v5.18", "282d", "640a", "final",
					    NULL };
static long policy = POLICY_FINAL;
static long hz = 1000;
/* -1: from the policy. */
static long max_nodelay_phase = -1, max_nodelay = -1, retry_check_delay = -1;
static long exp_holdoff = 25000; /* ns; the kernel's DEFAULT_SRCU_EXP_HOLDOFF */
static long debug_objects = 1;	 /* detect call() on a queued head */
static long busted_updown;	 /* negative control for down_read */
static long gpwrap_lag;		 /* the standard parameter (--gpwrap-lag) */
static long trust_wakeup;	 /* the liburcu 0.13.2 bug on demand */

static const struct rcut_param srcu_params[] = {
	{ "policy",
	  "delay policy preset: v5.18 (before 2022), 282d (282d8998e997: the reported 2022 regression, expedited grace periods sleep a jiffy), 640a (640a7d37c3f4), final (v5.19, with 4f2bfd9494a0 \"srcu: Make expedited RCU grace periods block even less frequently\")",
	  RCUT_PARAM_ENUM, 0, 0, policy_names, &policy },
	{ "hz", "jiffies per second", RCUT_PARAM_INT, 100, 1000, NULL, &hz },
	{ "max_nodelay_phase",
	  "no-delay passes per grace-period phase before delays start (-1: from the policy)",
	  RCUT_PARAM_INT, -1, 100000000, NULL, &max_nodelay_phase },
	{ "max_nodelay",
	  "no-delay worker requeues per jiffy before a delay (-1: from the policy)",
	  RCUT_PARAM_INT, -1, 100000000, NULL, &max_nodelay },
	{ "retry_check_delay",
	  "microseconds between reader checks within one pass (-1: from the policy, 5)",
	  RCUT_PARAM_INT, -1, 1000000, NULL, &retry_check_delay },
	{ "exp_holdoff",
	  "nanoseconds after a grace period before an idle synchronize() is expedited (0: never)",
	  RCUT_PARAM_INT, 0, 1000000000, NULL, &exp_holdoff },
	{ "debug_objects",
	  "detect call() on a head still queued and report it, as the kernel's debug objects do (0: a negative control that drops the duplicate without reporting it)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &debug_objects },
	{ "busted_updown",
	  "negative control: down_read withdraws its count at once, so an up/down section protects nothing (--n-up-down must FAIL)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &busted_updown },
	{ "gpwrap_lag",
	  "start gp_seq this many grace periods before it wraps around, as the kernel's SRCU_GP_SEQ_INITIAL_VAL starts it 100 short (0: at 0)",
	  RCUT_PARAM_INT, 0, 1000000000, NULL, &gpwrap_lag },
	{ "trust_wakeup",
	  "a reported bug on demand (liburcu 0.13.2, 2022, \"Fix: urcu-wait: futex wait: handle spurious futex wakeups\"): a synchronize() waiter takes its first wakeup for the end of its grace period without checking, and a wakeup meant for an earlier grace period's waiters ends its wait early (0: check again after every wakeup)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &trust_wakeup },
	{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
};

#define SRCU_INTERVAL 1 /* jiffies */
#define SRCU_MAX_INTERVAL 10

struct srcu_cpu {
	atomic_long lock_count[2], unlock_count[2];
} __attribute__((aligned(64)));

static struct srcu_cpu *cpus;
static int nslots; /* simulated CPUs plus one for threads on none */
static atomic_ulong srcu_idx;
static atomic_ulong gp_seq, gp_seq_needed, gp_seq_needed_exp;
static unsigned long gp_start, n_exp_nodelay, resched_jiffies, resched_count;
static pthread_mutex_t gp_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cb_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct rcut_head *cb_head, **cb_tail = &cb_head;
/* Changed under cb_mutex; the stats hook reads it without. */
static _Atomic long cb_len;
static pthread_t worker;
static atomic_bool worker_stop;
static atomic_ulong n_gps, n_nodelay, n_delayed, n_cbdelayed, n_autoexp;
static atomic_ulong n_trusted_early;	/* srcu.trust_wakeup: waits cut short */
static _Atomic uint64_t last_gp_end_ns; /* the kernel's srcu_last_gp_end */
/*
 * Callbacks and synchronize() waiters see a completed grace period only
 * once cb_seq reaches it: at its end, or cbdelay jiffies later (the
 * kernel's srcu_gp_end() schedules callback invocation with that delay).
 * Waiters and the idle worker sleep on condition variables.
 */
static atomic_ulong cb_seq;
static unsigned long cb_pending_seq; /* worker only */
static uint64_t cb_pending_at;	     /* ns; 0: none pending */
static pthread_mutex_t wait_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond, work_cond; /* CLOCK_MONOTONIC */
static atomic_bool worker_idle;
static _Atomic uint64_t hold_until_ns; /* gp_stall: the worker waits */

#define NEXT(h) (*(struct rcut_head **)&(h)->flavor_priv[0])
/*
 * flavor_priv[2] points here while a head is queued by call(): the
 * kernel's debug-objects state for an rcu_head, kept in the head itself.
 */
static char queued_mark;

static unsigned long get_tag(const struct rcut_head *h)
{
	return (unsigned long)(uintptr_t)h->flavor_priv[1];
}

static unsigned long jiffies(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * (unsigned long)hz +
	       (unsigned long)ts.tv_nsec / (1000000000UL / (unsigned long)hz);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* When jiffy j starts, ns on CLOCK_MONOTONIC (the inverse of jiffies()). */
static uint64_t jiffy_start_ns(unsigned long j)
{
	return (uint64_t)(j / (unsigned long)hz) * 1000000000ULL +
	       (uint64_t)(j % (unsigned long)hz) *
		       (1000000000ULL / (unsigned long)hz);
}

static struct timespec to_timespec(uint64_t ns)
{
	return (struct timespec){ (time_t)(ns / 1000000000ULL),
				  (long)(ns % 1000000000ULL) };
}

static void sleep_until_ns(uint64_t ns)
{
	struct timespec ts = to_timespec(ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

static void sleep_ns(long ns)
{
	sleep_until_ns(now_ns() + (uint64_t)ns);
}

static void udelay(long us)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do
		clock_gettime(CLOCK_MONOTONIC, &now);
	while ((now.tv_sec - start.tv_sec) * 1000000L +
		       (now.tv_nsec - start.tv_nsec) / 1000 <
	       us);
}

/* rcu_seq helpers: state in the low two bits. */
static unsigned long seq_state(unsigned long s)
{
	return s & 3;
}

static unsigned long seq_snap(void)
{
	atomic_thread_fence(memory_order_seq_cst);
	return (atomic_load(&gp_seq) + 7) & ~3UL;
}

static bool seq_done(unsigned long s)
{
	return (long)(atomic_load(&gp_seq) - s) >= 0;
}

/* May callbacks and waiters of grace period s go? */
static bool cb_done(unsigned long s)
{
	return (long)(atomic_load(&cb_seq) - s) >= 0;
}

static void seq_max(atomic_ulong *v, unsigned long s)
{
	unsigned long cur = atomic_load(v);

	while ((long)(cur - s) < 0 && !atomic_compare_exchange_weak(v, &cur, s))
		;
}

static int my_slot(void)
{
	int cpu = rcut_current_cpu();

	return cpu >= 0 && cpu < nslots - 1 ? cpu : nslots - 1;
}

static int srcu_read_lock(void)
{
	int cpu = my_slot();
	unsigned long idx =
		atomic_load_explicit(&srcu_idx, memory_order_relaxed) & 1;

	rcut_race_point(RCUT_RACE_READ_LOCK); /* index read, not counted */
	atomic_fetch_add_explicit(&cpus[cpu].lock_count[idx], 1,
				  memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst); /* B */
	return (int)((unsigned long)cpu << 1 | idx);
}

static void srcu_read_unlock(int token)
{
	atomic_thread_fence(memory_order_seq_cst); /* C */
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	atomic_fetch_add_explicit(&cpus[token >> 1].unlock_count[token & 1], 1,
				  memory_order_relaxed);
}

/*
 * srcu_down_read(): a section another thread may end.  Counted like
 * read_lock, on this thread's CPU; the token carries only the index that
 * matters to up_read.
 */
static int srcu_down_read(void)
{
	int token = srcu_read_lock();

	if (busted_updown) /* the negative control: hold nothing */
		srcu_read_unlock(token);
	return token & 1;
}

/*
 * srcu_up_read(): ends a down_read section, counting the unlock on the
 * ending thread's CPU (the kernel's srcu_up_read() does so on its own
 * CPU): only the sums over every CPU, which grace periods compare, match.
 */
static void srcu_up_read(int idx)
{
	if (busted_updown)
		return;
	atomic_thread_fence(memory_order_seq_cst); /* C */
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	atomic_fetch_add_explicit(&cpus[my_slot()].unlock_count[idx & 1], 1,
				  memory_order_relaxed);
}

/* Have all readers of index idx left?  Unlocks are summed first (A). */
static bool idx_check(unsigned long idx)
{
	long unlocks = 0, locks = 0;

	for (int i = 0; i < nslots; i++)
		unlocks += atomic_load(&cpus[i].unlock_count[idx]);
	rcut_race_point(RCUT_RACE_GP_WAIT); /* unlocks summed, locks not */
	atomic_thread_fence(memory_order_seq_cst); /* A */
	for (int i = 0; i < nslots; i++)
		locks += atomic_load(&cpus[i].lock_count[idx]);
	return locks == unlocks;
}

/* srcu_get_delay(): 0 while an expedited grace period is wanted. */
static unsigned long get_delay(void)
{
	unsigned long jb = SRCU_INTERVAL, s = atomic_load(&gp_seq);

	if ((long)(s - atomic_load(&gp_seq_needed_exp)) < 0)
		jb = 0;
	if (policy == POLICY_V518)
		return jb;
	if (seq_state(s) != STATE_IDLE) {
		unsigned long j = jiffies();

		if (policy == POLICY_640A || policy == POLICY_FINAL)
			j--;
		if (j > gp_start)
			jb += j - gp_start;
		if (!jb && ++n_exp_nodelay > (unsigned long)max_nodelay_phase)
			jb = 1;
	}
	return jb < SRCU_MAX_INTERVAL ? jb : SRCU_MAX_INTERVAL;
}

static bool try_check_zero(unsigned long idx, int tries)
{
	int extra = get_delay() == 0;

	for (;;) {
		if (idx_check(idx))
			return true;
		if (--tries + extra <= 0)
			return false;
		udelay(retry_check_delay);
	}
}

static void flip(void)
{
	atomic_thread_fence(memory_order_seq_cst); /* E */
	atomic_fetch_add(&srcu_idx, 1);
	atomic_thread_fence(memory_order_seq_cst); /* D */
}

/*
 * srcu_gp_end()'s callback delay, in jiffies, for the grace period
 * ending now: the pre-2022 kernel used srcu_get_delay(), 282d and 640a
 * !!srcu_get_delay() (so an expedited grace period older than a jiffy
 * wakes its waiters a jiffy late), the final code none while an
 * expedited grace period is wanted, else one.
 */
static unsigned long gp_end_cbdelay(void)
{
	bool exp = (long)(atomic_load(&gp_seq) -
			  atomic_load(&gp_seq_needed_exp)) < 0;

	switch (policy) {
	case POLICY_V518:
		return get_delay();
	case POLICY_282D:
	case POLICY_640A:
		return !!get_delay();
	default:
		return !exp;
	}
}

/*
 * srcu_advance_state(): one step of the grace-period state machine.
 * Returns true when a grace period ended; *cbdelay is then its callback
 * delay in jiffies.
 */
static bool advance_state(unsigned long *cbdelay)
{
	bool ended = false;
	unsigned long s, idx;

	pthread_mutex_lock(&gp_mutex);
	s = atomic_load(&gp_seq);
	switch (seq_state(s)) {
	case STATE_IDLE:
		if ((long)(s - atomic_load(&gp_seq_needed)) >= 0)
			break;
		gp_start = jiffies();
		n_exp_nodelay = 0;
		rcut_race_point(RCUT_RACE_GP_START);
		atomic_store(&gp_seq, s + STATE_SCAN1);
		break;
	case STATE_SCAN1:
		idx = 1 ^ (atomic_load(&srcu_idx) & 1);
		if (!try_check_zero(idx, 1))
			break;
		rcut_race_point(RCUT_RACE_GP_FLIP); /* drained, not flipped */
		flip();
		rcut_race_point(RCUT_RACE_GP_FLIP); /* flipped, no wait yet */
		n_exp_nodelay = 0;
		atomic_store(&gp_seq, s + 1); /* SCAN2 */
		break;
	case STATE_SCAN2:
		idx = 1 ^ (atomic_load(&srcu_idx) & 1);
		if (!try_check_zero(idx, 2))
			break;
		n_exp_nodelay = 0;
		*cbdelay = gp_end_cbdelay();
		rcut_race_point(RCUT_RACE_GP_END);
		atomic_thread_fence(memory_order_seq_cst);
		atomic_store(&gp_seq, (s | 3) + 1); /* the next idle value */
		atomic_fetch_add(&n_gps, 1);
		atomic_store(&last_gp_end_ns, now_ns());
		ended = true;
		break;
	}
	pthread_mutex_unlock(&gp_mutex);
	return ended;
}

/* Run the callbacks whose grace period has completed, in order. */
static void invoke_ready(void)
{
	struct rcut_head *list, **end;
	long n = 0;

	pthread_mutex_lock(&cb_mutex);
	list = cb_head;
	end = &cb_head;
	while (*end && cb_done(get_tag(*end))) {
		end = &NEXT(*end);
		n++;
	}
	if (!n) {
		pthread_mutex_unlock(&cb_mutex);
		return;
	}
	cb_head = *end;
	if (!cb_head)
		cb_tail = &cb_head;
	*end = NULL;
	pthread_mutex_unlock(&cb_mutex);
	rcut_race_point(RCUT_RACE_CB_INVOKE);
	while (list) {
		struct rcut_head *next = NEXT(list);

		if (list->flavor_priv[2] == &queued_mark)
			list->flavor_priv[2] = NULL;
		list->func(list);
		list = next;
	}
	pthread_mutex_lock(&cb_mutex);
	cb_len -= n;
	pthread_mutex_unlock(&cb_mutex);
}

/* Is the oldest callback's grace period released? */
static bool cbs_ready(void)
{
	bool ready;

	pthread_mutex_lock(&cb_mutex);
	ready = cb_head && cb_done(get_tag(cb_head));
	pthread_mutex_unlock(&cb_mutex);
	return ready;
}

/* Wake the worker if it sleeps idle. */
static void wake_worker(void)
{
	if (atomic_load(&worker_idle)) {
		pthread_mutex_lock(&wait_mutex);
		pthread_cond_signal(&work_cond);
		pthread_mutex_unlock(&wait_mutex);
	}
}

/* Let callbacks and waiters of every grace period up to seq go. */
static void release(unsigned long seq)
{
	seq_max(&cb_seq, seq);
	rcut_race_point(RCUT_RACE_GP_END); /* released, waiters not woken */
	pthread_mutex_lock(&wait_mutex);
	pthread_cond_broadcast(&done_cond);
	pthread_mutex_unlock(&wait_mutex);
	invoke_ready();
}

/*
 * A grace period ended: release it now or after cbdelay jiffies.  Like a
 * delayed work item already queued, a pending release keeps its time and
 * takes the newer grace period along.
 */
static void schedule_release(unsigned long seq, unsigned long cbdelay)
{
	if (!cbdelay) {
		cb_pending_at = 0;
		release(seq);
		return;
	}
	atomic_fetch_add(&n_cbdelayed, 1);
	cb_pending_seq = seq;
	if (!cb_pending_at)
		cb_pending_at = jiffy_start_ns(jiffies() + cbdelay);
}

static void release_if_due(void)
{
	if (cb_pending_at && now_ns() >= cb_pending_at) {
		cb_pending_at = 0;
		release(cb_pending_seq);
	}
}

/* Sleep until ns, waking for a pending release on the way. */
static void worker_sleep_until(uint64_t ns)
{
	for (;;) {
		uint64_t until = cb_pending_at && cb_pending_at < ns ?
					 cb_pending_at :
					 ns;

		sleep_until_ns(until);
		release_if_due();
		if (until == ns)
			return;
	}
}

static bool gp_wanted(void)
{
	unsigned long s = atomic_load(&gp_seq);

	return seq_state(s) != STATE_IDLE ||
	       (long)(s - atomic_load(&gp_seq_needed)) < 0;
}

/*
 * Idle: wait for need(), a pending release or a callback queued behind a
 * grace period released meanwhile (the work is not queued).
 */
static void worker_idle_wait(void)
{
	pthread_mutex_lock(&wait_mutex);
	atomic_store(&worker_idle, true);
	while (!gp_wanted() && !cbs_ready() && !atomic_load(&worker_stop)) {
		struct timespec ts;

		if (cb_pending_at && now_ns() >= cb_pending_at)
			break;
		ts = to_timespec(cb_pending_at ? cb_pending_at :
						 now_ns() + 1000000000ULL);
		pthread_cond_timedwait(&work_cond, &wait_mutex, &ts);
	}
	atomic_store(&worker_idle, false);
	pthread_mutex_unlock(&wait_mutex);
}

/* process_srcu(): the worker, requeued after get_delay() jiffies. */
static void *worker_main(void *arg)
{
	(void)arg;
	while (!atomic_load(&worker_stop)) {
		unsigned long d, j, cbdelay;
		uint64_t hold = atomic_load(&hold_until_ns);

		if (hold && now_ns() < hold) {
			sleep_until_ns(
				hold); /* the kernel's GP-kthread stall */
			continue;
		}
		release_if_due();
		invoke_ready();
		if (!gp_wanted()) {
			worker_idle_wait();
			continue;
		}
		if (advance_state(&cbdelay))
			schedule_release(atomic_load(&gp_seq), cbdelay);
		d = get_delay();
		j = jiffies();
		if (d) {
			resched_count = 0;
		} else if (resched_jiffies == j) {
			if (++resched_count > (unsigned long)max_nodelay)
				d = 1;
		} else {
			resched_count = 1;
			resched_jiffies = j;
		}
		if (!gp_wanted())
			continue; /* done: the work is not requeued */
		if (d) {
			atomic_fetch_add(&n_delayed, 1);
			worker_sleep_until(jiffy_start_ns(j + d));
		} else {
			atomic_fetch_add(&n_nodelay, 1);
		}
	}
	if (cb_pending_at)
		release(cb_pending_seq);
	return NULL;
}

/* Ask for the grace period with sequence number s; exp: expedited. */
static void need(unsigned long s, bool exp)
{
	if (exp)
		seq_max(&gp_seq_needed_exp, s);
	seq_max(&gp_seq_needed, s);
	wake_worker();
}

/*
 * Sleep until grace period s has ended and been released to waiters.
 * Every release wakes every waiter, so a waiter must check its own grace
 * period after each wakeup.  srcu.trust_wakeup=1 does not: liburcu's
 * urcu-wait before 0.13.2 took a futex wakeup for its own, and a wakeup
 * meant for someone else (here: for an earlier grace period's waiters)
 * ended a synchronize_rcu() early.
 */
static void wait_for(unsigned long s)
{
	pthread_mutex_lock(&wait_mutex);
	while (!cb_done(s)) {
		pthread_cond_wait(&done_cond, &wait_mutex);
		if (trust_wakeup) {
			if (!cb_done(s))
				atomic_fetch_add(&n_trusted_early, 1);
			break;
		}
	}
	pthread_mutex_unlock(&wait_mutex);
}

/*
 * srcu_might_be_idle(): no callbacks waiting, the last grace period ended
 * at least exp_holdoff ago and none is wanted now.  The kernel looks at
 * the calling CPU's callbacks only; this flavor has one list for all.
 */
static bool might_be_idle(void)
{
	unsigned long cur;
	long ncbs;

	if (!exp_holdoff)
		return false;
	pthread_mutex_lock(&cb_mutex);
	ncbs = cb_len;
	pthread_mutex_unlock(&cb_mutex);
	if (ncbs)
		return false;
	if (now_ns() - atomic_load(&last_gp_end_ns) < (uint64_t)exp_holdoff)
		return false; /* too soon after the last grace period */
	cur = atomic_load(&gp_seq);
	if (seq_state(cur) != STATE_IDLE ||
	    (long)(cur - atomic_load(&gp_seq_needed)) < 0)
		return false; /* one is running or wanted */
	return cur == atomic_load(&gp_seq);
}

static void srcu_synchronize(void)
{
	bool exp = might_be_idle();
	unsigned long s = seq_snap();

	if (exp)
		atomic_fetch_add(&n_autoexp, 1);
	need(s, exp);
	wait_for(s);
}

static void srcu_synchronize_expedited(void)
{
	unsigned long s = seq_snap();

	need(s, true);
	wait_for(s);
}

static void enqueue(struct rcut_head *head, unsigned long s)
{
	head->flavor_priv[1] = (void *)(uintptr_t)s;
	NEXT(head) = NULL;
	pthread_mutex_lock(&cb_mutex);
	*cb_tail = head;
	cb_tail = &NEXT(head);
	cb_len++;
	pthread_mutex_unlock(&cb_mutex);
	/* Released between the snapshot and now: nobody else will look. */
	if (cb_done(s))
		wake_worker();
}

/*
 * Mark head queued; false if it already was, reported unless
 * srcu.debug_objects=0 (the negative control drops it silently).
 */
static bool mark_queued(struct rcut_head *head)
{
	bool dup;

	pthread_mutex_lock(&cb_mutex);
	dup = head->flavor_priv[2] == &queued_mark;
	head->flavor_priv[2] = &queued_mark;
	pthread_mutex_unlock(&cb_mutex);
	if (dup && debug_objects)
		rcut_double_call(head);
	return !dup;
}

static void srcu_call(struct rcut_head *head, void (*func)(struct rcut_head *))
{
	unsigned long s;

	if (!mark_queued(head))
		return; /* queued already: leave its func and place alone */
	s = seq_snap();
	head->func = func;
	rcut_race_point(RCUT_RACE_CB_QUEUE); /* snapshot taken, not queued */
	enqueue(head, s);
	need(s, false);
}

static atomic_bool barrier_done;
static pthread_mutex_t barrier_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct rcut_head barrier_head;

static void barrier_cb(struct rcut_head *head)
{
	(void)head;
	atomic_store(&barrier_done, true);
}

/* srcu_barrier(): wait behind the last callback queued so far. */
static void srcu_barrier(void)
{
	unsigned long s;

	pthread_mutex_lock(&barrier_mutex);
	atomic_store(&barrier_done, false);
	barrier_head.func = barrier_cb;
	pthread_mutex_lock(&cb_mutex);
	s = cb_head ? get_tag((struct rcut_head *)((char *)cb_tail -
						   offsetof(struct rcut_head,
							    flavor_priv))) :
		      seq_snap();
	pthread_mutex_unlock(&cb_mutex);
	rcut_race_point(RCUT_RACE_CB_QUEUE);
	enqueue(&barrier_head, s);
	need(s, false);
	while (!atomic_load(&barrier_done))
		sleep_ns(100000);
	pthread_mutex_unlock(&barrier_mutex);
}

static unsigned long srcu_get_gp_seq(void)
{
	return atomic_load(&gp_seq) >> 2;
}

/* Grace periods between two get_gp_seq() samples, across the wrap too. */
static unsigned long srcu_gp_diff(unsigned long new_seq, unsigned long old_seq)
{
	return (new_seq - old_seq) & (~0UL >> 2);
}

static unsigned long srcu_get_gp_state(void)
{
	return seq_snap();
}

static unsigned long srcu_start_gp_poll(void)
{
	unsigned long s = seq_snap();

	need(s, false);
	return s;
}

static bool srcu_poll_gp_state(unsigned long cookie)
{
	return seq_done(cookie);
}

static void srcu_cond_sync(unsigned long cookie)
{
	if (!seq_done(cookie))
		srcu_synchronize();
}

/*
 * Full cookies: the sequence number to wait for and gp_seq when it was
 * taken; done once gp_seq has moved that distance, which a counter wrap
 * cannot confuse.
 */
static void srcu_get_gp_state_full(struct rcut_gp_full *c)
{
	c->word[1] = atomic_load(&gp_seq);
	c->word[0] = seq_snap();
	c->word[2] = c->word[0] - c->word[1];
}

static bool srcu_poll_gp_state_full(const struct rcut_gp_full *c)
{
	return atomic_load(&gp_seq) - c->word[1] >= c->word[2];
}

static void srcu_start_gp_poll_full(struct rcut_gp_full *c)
{
	srcu_get_gp_state_full(c);
	need(c->word[0], false);
}

static void srcu_cond_sync_full(const struct rcut_gp_full *c)
{
	if (!srcu_poll_gp_state_full(c))
		srcu_synchronize();
}

/* stall_gp_kthread: the worker sleeps until ns from now. */
static void srcu_gp_stall(unsigned long long ns)
{
	uint64_t until = now_ns() + ns;

	atomic_store(&hold_until_ns, until);
	sleep_until_ns(until);
}

/* The policy's values for every tunable left at -1. */
static void apply_policy(void)
{
	long phase, nodelay;

	switch (policy) {
	case POLICY_V518:
		phase = LONG_MAX;
		nodelay = LONG_MAX;
		break;
	case POLICY_282D:
		phase = 1;
		nodelay = 100;
		break;
	case POLICY_640A:
		phase = 3;
		nodelay = 100;
		break;
	default: /* final: clamp(2 * USEC_PER_SEC / HZ / 5, 3, 1000) */
		phase = 2 * 1000000 / hz / 5;
		phase = phase < 3 ? 3 : phase > 1000 ? 1000 : phase;
		nodelay = phase > 100 ? phase : 100;
		break;
	}
	if (max_nodelay_phase < 0)
		max_nodelay_phase = phase;
	if (max_nodelay < 0)
		max_nodelay = nodelay;
	if (retry_check_delay < 0)
		retry_check_delay = 5;
}

static int init_monotonic_cond(pthread_cond_t *c)
{
	pthread_condattr_t a;
	int err = pthread_condattr_init(&a);

	if (!err)
		err = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
	return err;
}

static int srcu_init(void)
{
	apply_policy();
	nslots = rcut_nr_cpus() + 1;
	cpus = aligned_alloc(64, sizeof(*cpus) * (size_t)nslots);
	if (!cpus)
		return -1;
	for (int i = 0; i < nslots; i++)
		for (int k = 0; k < 2; k++) {
			atomic_init(&cpus[i].lock_count[k], 0);
			atomic_init(&cpus[i].unlock_count[k], 0);
		}
	/* Idle, gpwrap_lag grace periods before the counter wraps. */
	atomic_store(&gp_seq, (0UL - (unsigned long)gpwrap_lag) << 2);
	atomic_store(&gp_seq_needed, atomic_load(&gp_seq));
	atomic_store(&gp_seq_needed_exp, atomic_load(&gp_seq));
	atomic_store(&cb_seq, atomic_load(&gp_seq));
	cb_pending_at = 0;
	if (init_monotonic_cond(&done_cond) || init_monotonic_cond(&work_cond))
		return -1;
	atomic_store(&worker_stop, false);
	return pthread_create(&worker, NULL, worker_main, NULL) ? -1 : 0;
}

static void srcu_cleanup(void)
{
	pthread_mutex_lock(&wait_mutex);
	atomic_store(&worker_stop, true);
	pthread_cond_signal(&work_cond);
	pthread_mutex_unlock(&wait_mutex);
	pthread_join(worker, NULL);
	pthread_cond_destroy(&done_cond);
	pthread_cond_destroy(&work_cond);
}

/* Like the kernel's SRCU stats line: per-CPU counts of both indexes. */
static void srcu_stats(FILE *out)
{
	unsigned long idx = atomic_load(&srcu_idx) & 1;

	fprintf(out,
		"srcu: policy %s hz %ld max_nodelay_phase %ld max_nodelay %ld gp_seq %lu state %lu needed %lu needed_exp %lu gps %lu requeues nodelay %lu delayed %lu cbdelayed %lu autoexp %lu callbacks %ld per-CPU(idx=%lu):",
		policy_names[policy], hz, max_nodelay_phase, max_nodelay,
		atomic_load(&gp_seq), seq_state(atomic_load(&gp_seq)),
		atomic_load(&gp_seq_needed), atomic_load(&gp_seq_needed_exp),
		atomic_load(&n_gps), atomic_load(&n_nodelay),
		atomic_load(&n_delayed), atomic_load(&n_cbdelayed),
		atomic_load(&n_autoexp), cb_len, idx);
	for (int i = 0; i < nslots; i++)
		fprintf(out, " %d(%ld,%ld)", i,
			atomic_load(&cpus[i].lock_count[idx]) -
				atomic_load(&cpus[i].unlock_count[idx]),
			atomic_load(&cpus[i].lock_count[!idx]) -
				atomic_load(&cpus[i].unlock_count[!idx]));
	if (trust_wakeup)
		fprintf(out,
			" trust_wakeup (%lu waits ended by a wakeup before their grace period)",
			atomic_load(&n_trusted_early));
	fputc('\n', out);
}

static void srcu_ref_loop(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		srcu_read_unlock(srcu_read_lock());
}

const struct rcut_flavor rcut_flavor_srcu = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = "srcu",
	.description =
		"Tree-SRCU-style sleepable RCU: two-index per-CPU counters, flip-and-drain, the kernel's 2022 delay tunables",
	/*
	 * Signal-safe read side: per-CPU atomic counters and thread-local
	 * data only.  call() detects a head queued twice (srcu_call()).
	 */
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_READ_SIGNAL_SAFE | RCUT_CAP_DOUBLE_CALL,
	.params = srcu_params,
	.init = srcu_init,
	.cleanup = srcu_cleanup,
	.read_lock = srcu_read_lock,
	.read_unlock = srcu_read_unlock,
	.synchronize = srcu_synchronize,
	.synchronize_expedited = srcu_synchronize_expedited,
	.call = srcu_call,
	.barrier = srcu_barrier,
	.get_gp_seq = srcu_get_gp_seq,
	.gp_diff = srcu_gp_diff,
	.get_gp_state = srcu_get_gp_state,
	.start_gp_poll = srcu_start_gp_poll,
	.poll_gp_state = srcu_poll_gp_state,
	.cond_sync = srcu_cond_sync,
	.stats = srcu_stats,
	.ref_loop = srcu_ref_loop,
	.gp_stall = srcu_gp_stall,
	.get_gp_state_full = srcu_get_gp_state_full,
	.start_gp_poll_full = srcu_start_gp_poll_full,
	.poll_gp_state_full = srcu_poll_gp_state_full,
	.cond_sync_full = srcu_cond_sync_full,
	.down_read = srcu_down_read,
	.up_read = srcu_up_read,
};
