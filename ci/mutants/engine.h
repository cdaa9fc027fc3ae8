// SPDX-License-Identifier: MIT
/*
 * The update side shared by the mutant catalogue's correct bases
 * (ci/mutants/flip.c, ci/mutants/qsbr.c): callback queues, a grace-period
 * worker, synchronize through the worker, an expedited synchronize in the
 * caller, polled grace periods and a barrier.  Each base includes this file
 * after defining its read side and these hooks:
 *
 *   static void run_gp(void);        one full grace period, gp_lock held
 *   static void caller_wait_begin(void);  before the caller blocks (QSBR:
 *   static void caller_wait_end(void);    offline while it waits)
 *
 * Race points (rcut_race_point(), docs/race-points.md) mark the windows of
 * the bases and of this engine, as in ci/plugins/example_rcu.c: every
 * mutant inherits them unchanged from its base, so --race-delay widens the
 * same windows in the correct base (which must still pass) as in each
 * mutant.
 *
 * Design: call() appends to the caller's queue (one queue, or one per
 * simulated CPU).  The worker sleeps until there is work; then, under
 * eng_lock, it moves every queue's "next" callbacks to its "wait" segment
 * and takes the list of synchronize() waiters, runs a grace period, and
 * afterwards wakes those waiters and invokes those callbacks.  Anything
 * queued during the grace period waits for the next one.  Grace periods
 * (worker's and expedited ones) run one at a time under gp_lock, and
 * gp_seq counts the completed ones, so the second grace period to
 * complete after a cookie is taken is a full one: cookies are gp_seq + 2.
 *
 * Every MUTANT_* below is one bug of the catalogue (ci/mutants/CATALOGUE).
 */
#ifndef MUTANTS_ENGINE_H
#define MUTANTS_ENGINE_H

#define _GNU_SOURCE
#include <rcutorture/flavor.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The grace-period counter's width. */
#ifdef MUTANT_GP_WRAP
typedef uint16_t gp_seq_t; /* bug: a 16-bit counter, compared with >= */
#else
typedef unsigned long gp_seq_t;
#endif

/* One callback queue: "next" awaits a grace period, "wait" has one. */
struct cbq {
	struct rcut_head *next_head, **next_tail;
	struct rcut_head *wait_head, **wait_tail;
};

/* A synchronize() caller asleep until the worker's grace period ends. */
struct waiter {
	pthread_cond_t cond;
	bool done;
	struct waiter *next;
};

/*
 * A base's thread registry: a push-only list (HEAD) of per-thread records
 * of type TYPE, each with an atomic_bool in_use and a next pointer.  The
 * generated registry_claim() takes a free record or pushes a new one;
 * registry_free() frees them all at cleanup.
 */
#define REGISTRY_CLAIM(TYPE, HEAD)                                           \
	static TYPE *registry_claim(void)                                    \
	{                                                                    \
		TYPE *r;                                                     \
                                                                             \
		for (r = atomic_load(&HEAD); r; r = r->next) {               \
			bool expected = false;                               \
                                                                             \
			if (atomic_compare_exchange_strong(&r->in_use,       \
							   &expected, true)) \
				return r;                                    \
		}                                                            \
		r = calloc(1, sizeof(*r));                                   \
		if (!r)                                                      \
			abort();                                             \
		atomic_store(&r->in_use, true);                              \
		r->next = atomic_load(&HEAD);                                \
		while (!atomic_compare_exchange_weak(&HEAD, &r->next, r))    \
			;                                                    \
		return r;                                                    \
	}                                                                    \
                                                                             \
	/* At cleanup: every torture thread is gone, nobody uses it. */      \
	static void registry_free(void)                                      \
	{                                                                    \
		for (TYPE *r = atomic_load(&HEAD), *next; r; r = next) {     \
			next = r->next;                                      \
			free(r);                                             \
		}                                                            \
		atomic_store(&HEAD, NULL);                                   \
	}

static void run_gp(void);
static void caller_wait_begin(void);
static void caller_wait_end(void);

static pthread_mutex_t gp_lock = PTHREAD_MUTEX_INITIALIZER; /* one GP */
static pthread_mutex_t eng_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t eng_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t barrier_done = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t barrier_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cbq *queues;
static int nqueues = 1;
static enum rcut_call_mode call_mode = RCUT_CALL_GLOBAL;
static struct waiter *waiters;	/* synchronize() callers, newest first */
static _Atomic gp_seq_t gp_seq; /* grace periods completed */
static gp_seq_t gp_wanted;	/* start_gp_poll(): drive GPs up to this */
static bool eng_stop;
static pthread_t eng_worker;
static _Atomic unsigned long cbs_queued, cbs_invoked;

/*
 * The standard parameter gpwrap_lag (--gpwrap-lag): gp_seq starts this
 * many grace periods before it wraps around.
 */
static long gpwrap_lag;

static const struct rcut_param engine_params[] = {
	{ "gpwrap_lag",
	  "start the grace-period counter this many grace periods before it wraps around (0: at 0)",
	  RCUT_PARAM_INT, 0, 1000000000, NULL, &gpwrap_lag },
	{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
};

/*
 * Whether a is at or after b: by their difference, which stays right
 * across the wrap (the kernel's ULONG_CMP_GE()).
 */
static bool seq_reached(gp_seq_t a, gp_seq_t b)
{
#ifdef MUTANT_GP_WRAP
	return a >= b; /* bug: wrong once the counter wraps */
#else
	return (long)(a - b) >= 0;
#endif
}

/* A grace period under gp_lock, counted when it is over. */
static void one_gp(void)
{
	pthread_mutex_lock(&gp_lock);
	run_gp();
	atomic_store(&gp_seq, (gp_seq_t)(atomic_load(&gp_seq) + 1));
	pthread_mutex_unlock(&gp_lock);
}

/* Whether the worker has something to do; eng_lock held. */
static bool work_pending(void)
{
	for (int i = 0; i < nqueues; i++)
		if (queues[i].next_head || queues[i].wait_head)
			return true;
	return waiters || !seq_reached(atomic_load(&gp_seq), gp_wanted);
}

/* Move every queue's next segment behind its wait segment; eng_lock held. */
static void segment_callbacks(void)
{
	for (int i = 0; i < nqueues; i++) {
		struct cbq *q = &queues[i];

		if (!q->next_head)
			continue;
		*q->wait_tail = q->next_head;
		q->wait_tail = q->next_tail;
		q->next_head = NULL;
		q->next_tail = &q->next_head;
	}
}

/* Take the callbacks that are due, as one list; eng_lock held. */
static struct rcut_head *take_due_callbacks(void)
{
	struct rcut_head *head = NULL, **tail = &head;

#ifdef MUTANT_EARLY_CB
	/* bug: segments after the grace period, not before it */
	segment_callbacks();
#endif
	for (int i = 0; i < nqueues; i++) {
		struct cbq *q = &queues[i];

		if (!q->wait_head)
			continue;
		*tail = q->wait_head;
		tail = q->wait_tail;
		q->wait_head = NULL;
		q->wait_tail = &q->wait_head;
	}
	return head;
}

/* Wake the waiters of a completed grace period; eng_lock held. */
static void wake_waiters(struct waiter *w)
{
	rcut_race_point(RCUT_RACE_GP_END); /* before waking the waiters */
	while (w) {
		struct waiter *next = w->next;

		w->done = true;
		pthread_cond_signal(&w->cond);
		w = next;
	}
}

/* Invoke a list of callbacks in order; no lock held. */
static void invoke_callbacks(struct rcut_head *cb)
{
#ifdef MUTANT_CB_LIFO
	/* bug: the batch is pushed onto a stack and popped, newest first */
	struct rcut_head *stack = NULL;

	while (cb) {
		struct rcut_head *next = cb->flavor_priv[0];

		cb->flavor_priv[0] = stack;
		stack = cb;
		cb = next;
	}
	cb = stack;
#endif
	while (cb) {
		/* The callback may post its head again: read next first. */
		struct rcut_head *next = cb->flavor_priv[0];

		atomic_fetch_add(&cbs_invoked, 1);
		rcut_race_point(RCUT_RACE_CB_INVOKE);
		cb->func(cb);
		cb = next;
	}
}

/* The worker: snapshot waiters and callbacks, a grace period, wake/invoke. */
static void *engine_worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&eng_lock);
	for (;;) {
		struct waiter *snap;
		struct rcut_head *due;

		while (!eng_stop && !work_pending())
			pthread_cond_wait(&eng_wake, &eng_lock);
		if (eng_stop && !work_pending())
			break;
		snap = waiters;
#ifndef MUTANT_LOST_WAKEUP
		waiters = NULL;
#endif
#ifndef MUTANT_EARLY_CB
		segment_callbacks();
#endif
		pthread_mutex_unlock(&eng_lock);
		one_gp();
		pthread_mutex_lock(&eng_lock);
#ifdef MUTANT_LOST_WAKEUP
		waiters = NULL; /* bug: drops waiters that came during the GP */
#endif
		wake_waiters(snap);
		due = take_due_callbacks();
		pthread_mutex_unlock(&eng_lock);
		invoke_callbacks(due);
		pthread_mutex_lock(&eng_lock);
	}
	pthread_mutex_unlock(&eng_lock);
	return NULL;
}

/* synchronize(): queue as a waiter for the worker's next grace period. */
static void engine_synchronize(void)
{
	struct waiter w = { .done = false };

	pthread_cond_init(&w.cond, NULL);
	caller_wait_begin();
	pthread_mutex_lock(&eng_lock);
	w.next = waiters;
	waiters = &w;
	pthread_cond_signal(&eng_wake);
	while (!w.done)
		pthread_cond_wait(&w.cond, &eng_lock);
	pthread_mutex_unlock(&eng_lock);
	caller_wait_end();
	pthread_cond_destroy(&w.cond);
}

/* synchronize_expedited(): a grace period right here, in the caller. */
static void engine_synchronize_expedited(void)
{
	caller_wait_begin();
	one_gp();
	caller_wait_end();
}

static unsigned long engine_get_gp_seq(void)
{
	return atomic_load(&gp_seq);
}

static unsigned long engine_get_gp_state(void)
{
#ifdef MUTANT_POLL_EARLY
	/* bug: counts the grace period in progress as a full one */
	return (gp_seq_t)(atomic_load(&gp_seq) + 1);
#else
	return (gp_seq_t)(atomic_load(&gp_seq) + 2);
#endif
}

#ifdef MUTANT_POLL_QS
static void caller_quiescent(void);
#endif

/*
 * A poll may come from inside a section (the kernel's cookie check does
 * so), so it is no quiescent state.
 */
static bool engine_poll_gp_state(unsigned long cookie)
{
#ifdef MUTANT_POLL_QS
	/* bug: a poll made inside a section lets the grace period end */
	caller_quiescent();
#endif
	return seq_reached(atomic_load(&gp_seq), (gp_seq_t)cookie);
}

static void engine_cond_sync(unsigned long cookie)
{
	while (!seq_reached(atomic_load(&gp_seq), (gp_seq_t)cookie))
		engine_synchronize();
}

/* A cookie whose grace period the worker will drive, without callers. */
static unsigned long engine_start_gp_poll(void)
{
	gp_seq_t cookie = (gp_seq_t)engine_get_gp_state();

	pthread_mutex_lock(&eng_lock);
	if (!seq_reached(gp_wanted, cookie))
		gp_wanted = cookie;
	pthread_cond_signal(&eng_wake);
	pthread_mutex_unlock(&eng_lock);
	return cookie;
}

/* The caller's queue: its simulated CPU's in percpu mode, else the one. */
static struct cbq *my_queue(void)
{
	int cpu = rcut_current_cpu();

	if (call_mode != RCUT_CALL_PERCPU || cpu < 0 || cpu >= nqueues)
		return &queues[0];
	return &queues[cpu];
}

/* Append a callback to q; eng_lock held. */
static void enqueue(struct cbq *q, struct rcut_head *head,
		    void (*func)(struct rcut_head *head))
{
	head->func = func;
	head->flavor_priv[0] = NULL; /* the queue's next pointer */
	rcut_race_point(RCUT_RACE_CB_QUEUE);
	*q->next_tail = head;
	q->next_tail = (struct rcut_head **)&head->flavor_priv[0];
	atomic_fetch_add(&cbs_queued, 1);
}

#ifdef MUTANT_CALL_PARKED
/* The caller's read-side nesting, counted by the base's read_lock/unlock. */
static __thread int parked_depth;
static __thread struct rcut_head *parked;
#define PARKED_ENTER() (parked_depth++)
#define PARKED_LEAVE() (parked_depth--)
#else
#define PARKED_ENTER() ((void)0)
#define PARKED_LEAVE() ((void)0)
#endif

static void engine_call(struct rcut_head *head,
			void (*func)(struct rcut_head *head))
{
#ifdef MUTANT_CALL_PARKED
	/* bug: a call() inside a section is parked for the outermost
	 * unlock to hand over, and no unlock ever does */
	if (parked_depth) {
		head->func = func;
		head->flavor_priv[0] = parked;
		parked = head;
		return;
	}
#endif
#ifdef MUTANT_CALL_NOLOCK
	static __thread unsigned int calls;

	if (++calls % 100 == 0) {
		enqueue(my_queue(), head, func);
		pthread_cond_signal(&eng_wake);
		return;
	}
#endif
	pthread_mutex_lock(&eng_lock);
	enqueue(my_queue(), head, func);
	pthread_cond_signal(&eng_wake);
	pthread_mutex_unlock(&eng_lock);
}

/* barrier(): a marker behind every queue's callbacks; wait for them all. */
struct marker {
	struct rcut_head head; /* first: the callback gets its address */
	int *pending;
};

static void marker_reached(struct rcut_head *head)
{
	struct marker *m = (struct marker *)head;

	pthread_mutex_lock(&eng_lock);
	if (--*m->pending == 0)
		pthread_cond_broadcast(&barrier_done);
	pthread_mutex_unlock(&eng_lock);
}

static void engine_barrier(void)
{
	struct marker *m = calloc((size_t)nqueues, sizeof(*m));
	int pending = 0;

	if (!m)
		abort();
	caller_wait_begin();
	pthread_mutex_lock(&barrier_lock); /* one barrier at a time */
	pthread_mutex_lock(&eng_lock);
	for (int i = 0; i < nqueues; i++) {
#ifdef MUTANT_BARRIER_SKIP
		/* bug: misses the wait segment, already handed to a GP */
		if (!queues[i].next_head)
			continue;
#endif
		m[i].pending = &pending;
		enqueue(&queues[i], &m[i].head, marker_reached);
		pending++;
	}
	pthread_cond_signal(&eng_wake);
	while (pending)
		pthread_cond_wait(&barrier_done, &eng_lock);
	pthread_mutex_unlock(&eng_lock);
	pthread_mutex_unlock(&barrier_lock);
	caller_wait_end();
	free(m);
}

/* Before init(): global queue or one per simulated CPU. */
static int engine_set_call_mode(enum rcut_call_mode mode)
{
	if (mode != RCUT_CALL_GLOBAL && mode != RCUT_CALL_PERCPU)
		return -1;
	call_mode = mode;
	return 0;
}

/* Allocate the queues and start the worker with no signal but faults. */
static int engine_init(void)
{
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
				      SIGABRT };
	sigset_t all, old;
	int err;

	atomic_store(&gp_seq, (gp_seq_t)(0UL - (unsigned long)gpwrap_lag));
	gp_wanted = atomic_load(&gp_seq);
	nqueues = call_mode == RCUT_CALL_PERCPU ? rcut_nr_cpus() : 1;
	queues = calloc((size_t)nqueues, sizeof(*queues));
	if (!queues)
		return -1;
	for (int i = 0; i < nqueues; i++) {
		queues[i].next_tail = &queues[i].next_head;
		queues[i].wait_tail = &queues[i].wait_head;
	}
	sigfillset(&all);
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		sigdelset(&all, faults[i]);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&eng_worker, NULL, engine_worker, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err ? -1 : 0;
}

/* Stop the worker once it has run every queued callback. */
static void engine_cleanup(void)
{
	pthread_mutex_lock(&eng_lock);
	eng_stop = true;
	pthread_cond_signal(&eng_wake);
	pthread_mutex_unlock(&eng_lock);
	pthread_join(eng_worker, NULL);
	free(queues);
	queues = NULL;
}

static void engine_stats(FILE *out, const char *name)
{
	fprintf(out, "%s: gp_seq: %lu callbacks queued: %lu invoked: %lu\n",
		name, (unsigned long)atomic_load(&gp_seq),
		atomic_load(&cbs_queued), atomic_load(&cbs_invoked));
}

/* The update-side half of a struct rcut_flavor initializer. */
#define ENGINE_OPS                                                            \
	.synchronize = engine_synchronize,                                    \
	.synchronize_expedited = engine_synchronize_expedited,                \
	.call = engine_call, .barrier = engine_barrier,                       \
	.set_call_mode = engine_set_call_mode,                                \
	.get_gp_seq = engine_get_gp_seq, .get_gp_state = engine_get_gp_state, \
	.start_gp_poll = engine_start_gp_poll,                                \
	.poll_gp_state = engine_poll_gp_state, .cond_sync = engine_cond_sync, \
	.params = engine_params

#endif /* MUTANTS_ENGINE_H */
