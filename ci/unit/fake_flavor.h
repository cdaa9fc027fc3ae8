/* SPDX-License-Identifier: MIT */
/*
 * A fake flavor for the harness-core unit tests: call() only queues the
 * callback, and the test decides when a grace period "ends" by invoking
 * queued callbacks by hand (fake_invoke_next / fake_invoke_all).  So a
 * test controls exactly when, how often and from where a callback runs.
 * synchronize() only counts.  Thread-safe: torture threads may post.
 */
#ifndef CI_UNIT_FAKE_FLAVOR_H
#define CI_UNIT_FAKE_FLAVOR_H

#include <pthread.h>
#include <rcutorture/flavor.h>
#include <stdatomic.h>

#define FAKE_MAX_CBS 64

static struct {
	pthread_mutex_t lock;
	struct rcut_head *head[FAKE_MAX_CBS]; /* FIFO, n queued */
	int n;
	atomic_int syncs; /* synchronize() calls */
} fake = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* call(): remember the callback; nothing runs until the test says so. */
static inline void fake_call(struct rcut_head *head,
			     void (*func)(struct rcut_head *head))
{
	head->func = func;
	pthread_mutex_lock(&fake.lock);
	if (fake.n < FAKE_MAX_CBS)
		fake.head[fake.n++] = head;
	pthread_mutex_unlock(&fake.lock);
}

static inline void fake_synchronize(void)
{
	atomic_fetch_add(&fake.syncs, 1);
}

/* Forget every queued callback (between tests). */
static inline void fake_reset(void)
{
	pthread_mutex_lock(&fake.lock);
	fake.n = 0;
	pthread_mutex_unlock(&fake.lock);
	atomic_store(&fake.syncs, 0);
}

static inline int fake_queued(void)
{
	int n;

	pthread_mutex_lock(&fake.lock);
	n = fake.n;
	pthread_mutex_unlock(&fake.lock);
	return n;
}

/* The oldest queued callback's head, still queued; NULL if none. */
static inline struct rcut_head *fake_peek(void)
{
	struct rcut_head *h;

	pthread_mutex_lock(&fake.lock);
	h = fake.n ? fake.head[0] : NULL;
	pthread_mutex_unlock(&fake.lock);
	return h;
}

/* A grace period ended for the oldest callback: invoke it.  Its head. */
static inline struct rcut_head *fake_invoke_next(void)
{
	struct rcut_head *h = NULL;

	pthread_mutex_lock(&fake.lock);
	if (fake.n) {
		h = fake.head[0];
		for (int i = 1; i < fake.n; i++)
			fake.head[i - 1] = fake.head[i];
		fake.n--;
	}
	pthread_mutex_unlock(&fake.lock);
	if (h)
		h->func(h); /* may queue another (re-posting callbacks) */
	return h;
}

/* Invoke callbacks until none is queued; how many ran. */
static inline int fake_invoke_all(void)
{
	int n = 0;

	while (fake_invoke_next())
		n++;
	return n;
}

#endif /* CI_UNIT_FAKE_FLAVOR_H */
