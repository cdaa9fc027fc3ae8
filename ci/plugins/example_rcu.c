// SPDX-License-Identifier: MIT
/*
 * "example": a small, correct userspace RCU written only against
 * <rcutorture/flavor.h>, to show how a flavor plugin is made:
 *
 *   cc $(pkg-config --cflags rcutorture) -O2 -fPIC -shared -pthread \
 *      -o librcutorture-example.so example_rcu.c
 *   rcutorture --flavor ./librcutorture-example.so
 *
 * The read side is the classic two-phase counter flip (SRCU's, or
 * liburcu's with per-thread counters): every thread has two reader
 * counters, one per phase.  read_lock adds one to the counter of the
 * current phase and returns the phase; read_unlock takes it off again.
 * synchronize, one at a time, first waits until no thread has a reader in
 * the other phase (readers that fetched the phase before an earlier flip
 * but counted themselves after that flip's wait), then flips the phase and
 * waits until no thread has a reader in the old one.  A reader that began
 * before synchronize is counted in one of the two phases, so one of the
 * two waits covers it; one whose count came too late for the wait sees the
 * updater's changes (the sequentially consistent fences pair like the
 * kernel's smp_mb()s).
 *
 * call() queues callbacks for a worker thread that takes the queue as a
 * batch, waits for a grace period and invokes the batch in order;
 * barrier() queues a marker callback and waits for it.  Grace periods poll
 * the counters, so this is slow, but correct.
 *
 * Race points (rcut_race_point(), flavor ABI version 2) mark the windows
 * where a stopped thread exposes a race: with --race-delay the harness
 * sometimes yields, spins or sleeps there.
 *
 * ci/plugins/broken_rcu.c builds the same file with EXAMPLE_BROKEN: its
 * synchronize skips the wait after the flip, and rcutorture must catch it.
 * ci/plugins/example_v1.c builds it as an ABI version 1 plugin.
 * ci/plugins/silent_barrier_rcu.c builds it with EXAMPLE_SILENT_BARRIER:
 * it declares barrier checks (RCUT_CAP_BARRIER_CHECK) and its barrier()
 * returns at once inside a read-side section or from a callback, but
 * never reports it (rcut_illegal_barrier()): --illegal-barrier must FAIL.
 */
#define _GNU_SOURCE
#include <rcutorture/flavor.h>

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef EXAMPLE_NAME
#define EXAMPLE_NAME "example"
#define EXAMPLE_DESCRIPTION \
	"plugin: a two-phase counter-flip RCU (ci/plugins/example_rcu.c)"
#endif

#ifdef EXAMPLE_SILENT_BARRIER
#define EXAMPLE_EXTRA_CAPS RCUT_CAP_BARRIER_CHECK
#else
#define EXAMPLE_EXTRA_CAPS 0
#endif

#define MAX_CPUS 1024 /* per-CPU statistics beyond this are not kept */

/* One per thread that ever read: its readers in progress, per phase. */
struct reader {
	_Atomic long count[2];
	atomic_bool in_use;  /* owned by a live, registered thread */
	struct reader *next; /* the registry: push-only, never unlinked */
} __attribute__((aligned(64)));

static struct reader *_Atomic registry;
static __thread struct reader *self;
static _Atomic unsigned int phase;   /* 0 or 1 */
static _Atomic unsigned long gp_seq; /* grace periods completed */
static pthread_mutex_t gp_lock = PTHREAD_MUTEX_INITIALIZER;

/* The callback queue and its worker. */
static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cb_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t cb_done = PTHREAD_COND_INITIALIZER;
static struct rcut_head *cb_head, **cb_tail = &cb_head;
static unsigned long gp_wanted; /* start_gp_poll(): drive GPs up to this */
static bool worker_stop;
static pthread_t worker;
static _Atomic unsigned long cbs_queued, cbs_invoked;
static _Atomic unsigned long cbs_by_cpu[MAX_CPUS]; /* who posted them */
static __thread bool in_worker; /* this thread invokes the callbacks */

static long poll_us = 100;     /* example.poll_us */
static long register_delay_us; /* example.register_delay_us */

static const struct rcut_param example_params[] = {
	{ "poll_us", "longest sleep between reader scans in synchronize, us",
	  RCUT_PARAM_INT, 1, 100000, NULL, &poll_us },
	{ "register_delay_us",
	  "sleep this long in each thread's registration, us (a library whose first touch allocates and maps)",
	  RCUT_PARAM_INT, 0, 10000000, NULL, &register_delay_us },
	{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
};

/* Take a free registry entry, or push a new one. */
static void example_register(void)
{
	struct reader *r;

	if (self)
		return;
	if (register_delay_us) {
		struct timespec ts = { register_delay_us / 1000000,
				       register_delay_us % 1000000 * 1000 };

		nanosleep(&ts, NULL);
	}
	for (r = atomic_load(&registry); r; r = r->next) {
		bool expected = false;

		if (atomic_compare_exchange_strong(&r->in_use, &expected, true))
			break;
	}
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r)
			abort();
		atomic_store(&r->in_use, true);
		r->next = atomic_load(&registry);
		while (!atomic_compare_exchange_weak(&registry, &r->next, r))
			;
	}
	self = r;
}

/* Outside any read-side section: the counters are zero. */
static void example_unregister(void)
{
	if (!self)
		return;
	atomic_store(&self->in_use, false);
	self = NULL;
}

static int example_read_lock(void)
{
	int idx;

	if (!self)
		example_register(); /* a thread the harness did not register */
	idx = (int)(atomic_load(&phase) & 1);
	rcut_race_point(RCUT_RACE_READ_LOCK); /* phase read, not counted */
	atomic_fetch_add(&self->count[idx], 1);
	atomic_thread_fence(memory_order_seq_cst); /* count, then read */
	return idx;
}

static void example_read_unlock(int idx)
{
	atomic_thread_fence(memory_order_seq_cst); /* reads, then uncount */
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	atomic_fetch_sub(&self->count[idx], 1);
}

/* Yield a few times, then sleep 1, 2, 4, ... us, at most poll_us. */
static void backoff(unsigned long round)
{
	struct timespec ts = { 0, 0 };
	long us;

	if (round < 8) {
		sched_yield();
		return;
	}
	us = round - 8 < 20 ? 1l << (round - 8) : poll_us;
	ts.tv_nsec = (us < poll_us ? us : poll_us) * 1000;
	nanosleep(&ts, NULL);
}

/* Wait until no registered thread has a reader in phase p. */
static void wait_for_readers(unsigned int p)
{
	for (unsigned long round = 0;; round++) {
		struct reader *r;

		atomic_thread_fence(memory_order_seq_cst);
		for (r = atomic_load(&registry); r; r = r->next)
			if (atomic_load(&r->count[p]))
				break;
		if (!r)
			break;
		rcut_race_point(RCUT_RACE_GP_WAIT);
		backoff(round);
	}
	atomic_thread_fence(memory_order_seq_cst);
}

static void example_synchronize(void)
{
	unsigned int cur;

	pthread_mutex_lock(&gp_lock);
	atomic_thread_fence(memory_order_seq_cst); /* updates, then scan */
	cur = atomic_load(&phase);
	rcut_race_point(RCUT_RACE_GP_START);
	wait_for_readers(cur ^ 1);
	atomic_store(&phase, cur ^ 1);
	rcut_race_point(RCUT_RACE_GP_FLIP);
#ifndef EXAMPLE_BROKEN
	wait_for_readers(cur);
#endif
	rcut_race_point(RCUT_RACE_GP_END);
	atomic_fetch_add(&gp_seq, 1);
	pthread_mutex_unlock(&gp_lock);
}

static unsigned long example_get_gp_seq(void)
{
	return atomic_load(&gp_seq);
}

/*
 * Grace periods run one at a time, so the second one to complete after
 * the cookie was taken began after it: that one is a full grace period.
 */
static unsigned long example_get_gp_state(void)
{
	return atomic_load(&gp_seq) + 2;
}

static bool example_poll_gp_state(unsigned long cookie)
{
	return (long)(atomic_load(&gp_seq) - cookie) >= 0;
}

static void example_cond_sync(unsigned long cookie)
{
	while (!example_poll_gp_state(cookie))
		example_synchronize();
}

/* A cookie whose grace period the worker will drive, without callers. */
static unsigned long example_start_gp_poll(void)
{
	unsigned long cookie = example_get_gp_state();

	pthread_mutex_lock(&cb_lock);
	if ((long)(cookie - gp_wanted) > 0)
		gp_wanted = cookie;
	pthread_cond_signal(&cb_wake);
	pthread_mutex_unlock(&cb_lock);
	return cookie;
}

static void example_call(struct rcut_head *head,
			 void (*func)(struct rcut_head *head))
{
	int cpu = rcut_current_cpu();

	if (cpu >= 0 && cpu < MAX_CPUS)
		atomic_fetch_add_explicit(&cbs_by_cpu[cpu], 1,
					  memory_order_relaxed);
	head->func = func;
	head->flavor_priv[0] = NULL; /* the queue's next pointer */
	rcut_race_point(RCUT_RACE_CB_QUEUE);
	pthread_mutex_lock(&cb_lock);
	*cb_tail = head;
	cb_tail = (struct rcut_head **)&head->flavor_priv[0];
	atomic_fetch_add(&cbs_queued, 1);
	pthread_cond_signal(&cb_wake);
	pthread_mutex_unlock(&cb_lock);
}

/* The worker: a batch, a grace period, the batch's callbacks in order. */
static void *example_worker(void *arg)
{
	(void)arg;
	in_worker = true;
	pthread_mutex_lock(&cb_lock);
	for (;;) {
		struct rcut_head *batch, *next;

		while (!cb_head && !worker_stop &&
		       (long)(gp_wanted - atomic_load(&gp_seq)) <= 0)
			pthread_cond_wait(&cb_wake, &cb_lock);
		if (worker_stop && !cb_head)
			break;
		batch = cb_head;
		cb_head = NULL;
		cb_tail = &cb_head;
		pthread_mutex_unlock(&cb_lock);
		rcut_race_point(
			RCUT_RACE_CB_QUEUE); /* batch taken, no GP yet */
		example_synchronize();
		rcut_race_point(RCUT_RACE_CB_INVOKE);
		for (; batch; batch = next) {
			/* The callback may post its head again: read first. */
			next = batch->flavor_priv[0];
			atomic_fetch_add(&cbs_invoked, 1);
			batch->func(batch);
		}
		pthread_mutex_lock(&cb_lock);
	}
	pthread_mutex_unlock(&cb_lock);
	return NULL;
}

/* barrier(): a marker queued behind every earlier callback. */
struct marker {
	struct rcut_head head; /* first: the callback gets its address */
	bool done;
};

static void marker_reached(struct rcut_head *head)
{
	struct marker *m = (struct marker *)head;

	rcut_race_point(RCUT_RACE_GP_END); /* before waking the waiter */
	pthread_mutex_lock(&cb_lock);
	m->done = true;
	pthread_cond_broadcast(&cb_done);
	pthread_mutex_unlock(&cb_lock);
}

#ifdef EXAMPLE_SILENT_BARRIER
/* Is this barrier() illegal: inside this thread's section, or a callback? */
static bool barrier_illegal(void)
{
	return in_worker || (self && (atomic_load(&self->count[0]) ||
				      atomic_load(&self->count[1])));
}
#endif

static void example_barrier(void)
{
	struct marker m = { .done = false };

#ifdef EXAMPLE_SILENT_BARRIER
	/* Refused, as liburcu's rcu_barrier() does, but never reported. */
	if (barrier_illegal())
		return;
#endif

	example_call(&m.head, marker_reached);
	pthread_mutex_lock(&cb_lock);
	while (!m.done)
		pthread_cond_wait(&cb_done, &cb_lock);
	pthread_mutex_unlock(&cb_lock);
}

/*
 * The worker must not take the signals the harness handles (SIGINT and
 * SIGTERM stop the run from the main thread).  rcutorture blocks them
 * before init, but a plugin should not rely on its caller's mask: block
 * everything except the faults, which must stay deliverable so that a
 * crash is reported.
 */
static int example_init(void)
{
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				      SIGABRT };
	sigset_t all, old;
	int err;

	sigfillset(&all);
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		sigdelset(&all, faults[i]);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&worker, NULL, example_worker, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err ? -1 : 0;
}

static void example_cleanup(void)
{
	pthread_mutex_lock(&cb_lock);
	worker_stop = true;
	pthread_cond_signal(&cb_wake);
	pthread_mutex_unlock(&cb_lock);
	pthread_join(worker, NULL);
	/* Every torture thread is gone: nobody uses the registry now. */
	for (struct reader *r = atomic_load(&registry), *next; r; r = next) {
		next = r->next;
		free(r);
	}
	atomic_store(&registry, NULL);
}

static void example_stats(FILE *out)
{
	int ncpus = rcut_nr_cpus(), posting = 0;

	for (int cpu = 0; cpu < ncpus && cpu < MAX_CPUS; cpu++)
		posting += atomic_load(&cbs_by_cpu[cpu]) != 0;
	fprintf(out,
		"%s: gp_seq: %lu phase: %u callbacks queued: %lu invoked: %lu, posted from %d of %d CPUs\n",
		EXAMPLE_NAME, atomic_load(&gp_seq), atomic_load(&phase),
		atomic_load(&cbs_queued), atomic_load(&cbs_invoked), posting,
		ncpus);
}

/* The one symbol rcutorture looks up (RCUT_FLAVOR_SYMBOL). */
__attribute__((visibility("default")))
const struct rcut_flavor rcutorture_flavor = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = EXAMPLE_NAME,
	.description = EXAMPLE_DESCRIPTION,
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		EXAMPLE_EXTRA_CAPS,
	.params = example_params,
	.init = example_init,
	.cleanup = example_cleanup,
	.register_thread = example_register,
	.unregister_thread = example_unregister,
	.read_lock = example_read_lock,
	.read_unlock = example_read_unlock,
	.synchronize = example_synchronize,
	.call = example_call,
	.barrier = example_barrier,
	.get_gp_seq = example_get_gp_seq,
	.get_gp_state = example_get_gp_state,
	.start_gp_poll = example_start_gp_poll,
	.poll_gp_state = example_poll_gp_state,
	.cond_sync = example_cond_sync,
	.stats = example_stats,
};
