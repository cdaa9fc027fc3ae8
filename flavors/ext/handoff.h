/* SPDX-License-Identifier: MIT */
/*
 * A callback hand-off queue for flavors whose library lets only one
 * thread queue and dispatch callbacks on a record (Concurrency Kit's
 * ck_epoch_call() and ck_epoch_poll() on one ck_epoch_record_t) or has
 * no callback API that works here (DPDK's defer queue needs the EAL):
 * callers append under a mutex, one worker takes the whole list, in the
 * order it was queued.  The queue also counts what was queued and what
 * was invoked, and lets a barrier wait for a count.  The callback's
 * link is rcut_head.flavor_priv[2]; [0] and [1] stay the flavor's.
 */
#ifndef FLAVORS_EXT_HANDOFF_H
#define FLAVORS_EXT_HANDOFF_H

#include <pthread.h>
#include <rcutorture/flavor.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

struct handoff {
	pthread_mutex_t lock;
	pthread_cond_t wake; /* the worker: work queued or stop */
	pthread_cond_t done; /* barriers: invoked or barrier_done moved */
	struct rcut_head *head, **tail;
	unsigned long queued, invoked;		 /* callbacks, ever */
	unsigned long barrier_req, barrier_done; /* worker-run barriers */
	bool stop;
};

/* Empty the queue and its counters (init, before the worker starts). */
static inline void handoff_init(struct handoff *q)
{
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->wake, NULL);
	pthread_cond_init(&q->done, NULL);
	q->head = NULL;
	q->tail = &q->head;
	q->queued = q->invoked = 0;
	q->barrier_req = q->barrier_done = 0;
	q->stop = false;
}

/* Append h (its func set by the caller) and wake the worker. */
static inline void handoff_push(struct handoff *q, struct rcut_head *h)
{
	h->flavor_priv[2] = NULL;
	pthread_mutex_lock(&q->lock);
	*q->tail = h;
	q->tail = (struct rcut_head **)&h->flavor_priv[2];
	q->queued++;
	pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->lock);
}

/* The next callback of a list taken by handoff_take(). */
static inline struct rcut_head *handoff_next(struct rcut_head *h)
{
	return h->flavor_priv[2];
}

/*
 * The worker: take the whole queue, and in *barrier_req the barrier
 * requests made before it was taken.  Waits up to wait_ns for work when
 * the queue is empty (0: do not wait); *stop says the flavor is closing.
 */
static inline struct rcut_head *handoff_take(struct handoff *q, long wait_ns,
					     unsigned long *barrier_req,
					     bool *stop)
{
	struct rcut_head *list;

	pthread_mutex_lock(&q->lock);
	if (!q->head && !q->stop && q->barrier_req == q->barrier_done &&
	    wait_ns > 0) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += wait_ns % 1000000000L;
		ts.tv_sec += wait_ns / 1000000000L + ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&q->wake, &q->lock, &ts);
	}
	list = q->head;
	q->head = NULL;
	q->tail = &q->head;
	*barrier_req = q->barrier_req;
	*stop = q->stop;
	pthread_mutex_unlock(&q->lock);
	return list;
}

/* The worker invoked n more callbacks, or finished barriers up to req. */
static inline void handoff_progress(struct handoff *q, unsigned long n,
				    unsigned long barrier_req)
{
	pthread_mutex_lock(&q->lock);
	q->invoked += n;
	if ((long)(barrier_req - q->barrier_done) > 0)
		q->barrier_done = barrier_req;
	pthread_cond_broadcast(&q->done);
	pthread_mutex_unlock(&q->lock);
}

/* Wait until every callback queued before this call was invoked. */
static inline void handoff_wait_invoked(struct handoff *q)
{
	pthread_mutex_lock(&q->lock);
	unsigned long target = q->queued;

	while ((long)(q->invoked - target) < 0)
		pthread_cond_wait(&q->done, &q->lock);
	pthread_mutex_unlock(&q->lock);
}

/* Ask the worker for one barrier of its own and wait until it ran it. */
static inline void handoff_worker_barrier(struct handoff *q)
{
	pthread_mutex_lock(&q->lock);
	unsigned long target = ++q->barrier_req;

	pthread_cond_signal(&q->wake);
	while ((long)(q->barrier_done - target) < 0)
		pthread_cond_wait(&q->done, &q->lock);
	pthread_mutex_unlock(&q->lock);
}

/* Tell the worker to finish; the caller joins it. */
static inline void handoff_stop(struct handoff *q)
{
	pthread_mutex_lock(&q->lock);
	q->stop = true;
	pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->lock);
}

/* Callbacks queued and not yet invoked. */
static inline unsigned long handoff_backlog(struct handoff *q)
{
	pthread_mutex_lock(&q->lock);
	unsigned long n = q->queued - q->invoked;

	pthread_mutex_unlock(&q->lock);
	return n;
}

/*
 * A grace-period sequence for libraries that export none (ck, DPDK), as
 * the liburcu adapter keeps one: a wait or a callback that sampled it at
 * s before its grace period began moves it to at least s + 1 once that
 * grace period has ended.  It never runs ahead of real grace periods, so
 * the harness may count grace periods with it (Reader Batch, the
 * callback flood's progress check).
 */
static inline unsigned long gpseq_get(atomic_ulong *seq)
{
	return atomic_load_explicit(seq, memory_order_acquire);
}

/* A grace period that began after the sequence read 'started' ended. */
static inline void gpseq_advance(atomic_ulong *seq, unsigned long started)
{
	unsigned long cur = gpseq_get(seq);

	while (cur < started + 1 &&
	       !atomic_compare_exchange_weak(seq, &cur, started + 1))
		;
}

#endif /* FLAVORS_EXT_HANDOFF_H */
