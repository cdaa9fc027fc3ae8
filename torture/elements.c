// SPDX-License-Identifier: MIT
/*
 * The element pool of the kernel's rcutorture: the writer publishes an
 * element, then ages it one pipe stage per grace period; at PIPE_LEN it is
 * marked not-in-use (mbtest = 0) and returns to the free list.  A reader
 * that sees stage >= 2 held it across a full grace period: an RCU bug.
 * The pool memory is never given back while the run lasts, so readers of a
 * recycled element read valid (if wrong) data, which is what rtmbe catches.
 */
#include "torture.h"

#include <stdio.h>

static struct torture_elem pool[TORTURE_POOL_SIZE];
static struct torture_elem *free_list;
static pthread_mutex_t free_lock = PTHREAD_MUTEX_INITIALIZER;

struct torture_elem *_Atomic torture_current;

void torture_pool_init(void)
{
	for (int i = 0; i < TORTURE_POOL_SIZE; i++) {
		atomic_store(&pool[i].mbtest, 0);
		pool[i].next = free_list;
		free_list = &pool[i];
	}
}

bool torture_pool_empty(void)
{
	bool empty;

	pthread_mutex_lock(&free_lock);
	empty = !free_list;
	pthread_mutex_unlock(&free_lock);
	return empty;
}

struct torture_elem *torture_elem_alloc(void)
{
	struct torture_elem *e;

	pthread_mutex_lock(&free_lock);
	e = free_list;
	if (e)
		free_list = e->next;
	pthread_mutex_unlock(&free_lock);
	if (!e) {
		counter_inc(&torture_counters.rtaf);
		return NULL;
	}
	counter_inc(&torture_counters.rta);
	atomic_store_explicit(&e->pipe_count, 0, relaxed);
	/* Ordered before publication by the writer's release store. */
	atomic_store_explicit(&e->mbtest, 1, relaxed);
	return e;
}

/*
 * A freed element's callback heads are poisoned: a flavor that invokes or
 * requeues one after it was freed jumps through a non-canonical address
 * and crashes (exit 5 with a backtrace) instead of corrupting quietly.
 */
#define POISON_PTR ((void *)0xdead4ead00000000ULL)

static void elem_poison(struct torture_elem *e)
{
	for (int k = 0; k < 2; k++) {
		struct rcut_head *rh = &e->cb[k].rh;

		for (size_t i = 0; i < sizeof(rh->flavor_priv) / sizeof(void *);
		     i++)
			rh->flavor_priv[i] = POISON_PTR;
		rh->func = (void (*)(struct rcut_head *))POISON_PTR;
	}
}

static void elem_free(struct torture_elem *e)
{
	elem_poison(e);
	counter_inc(&torture_counters.rtf);
	pthread_mutex_lock(&free_lock);
	e->next = free_list;
	free_list = e;
	pthread_mutex_unlock(&free_lock);
}

bool torture_elem_age(struct torture_elem *e)
{
	int i = atomic_load_explicit(&e->pipe_count, relaxed);

	if (i >= 1) /* not the removal: a grace period passed since */
		torture_mbchk_gp_passed(e);
	counter_inc(&torture_counters
			     .wcount[i > RCUT_PIPE_LEN ? RCUT_PIPE_LEN : i]);
	atomic_store_explicit(&e->pipe_count, i + 1, relaxed);
	if (i + 1 < RCUT_PIPE_LEN)
		return false;
	atomic_store_explicit(&e->mbtest, 0, memory_order_release);
	elem_free(e);
	return true;
}

static void elem_age_cb(struct torture_cb *cb);

/* Post the element's next aging callback. */
static void elem_post_aging(struct torture_elem *e)
{
	struct torture_cb *cb = &e->cb[e->cb_next++ & 1];

	cb->owner = e;
	torture_cb_post(cb, "element aging", elem_age_cb);
}

/* The aging callback: one stage per grace period, re-posted until freed. */
static void elem_age_cb(struct torture_cb *cb)
{
	struct torture_elem *e = cb->owner;

	if (!torture_elem_age(e))
		elem_post_aging(e);
}

void torture_elem_age_async(struct torture_elem *e)
{
	elem_post_aging(e);
}

bool torture_pool_stalled_callback(uint64_t now, uint64_t timeout, char *what,
				   size_t len)
{
	for (int i = 0; i < TORTURE_POOL_SIZE; i++) {
		for (int k = 0; k < 2; k++) {
			struct torture_cb *cb = &pool[i].cb[k];
			uint64_t posted = cb->posted_ns;

			if (atomic_load(&cb->state) != TORTURE_CB_POSTED ||
			    now < posted || now - posted < timeout)
				continue;
			snprintf(
				what, len,
				"%s callback %p not invoked %.1f s after call()",
				cb->kind, (void *)cb,
				(double)(now - posted) / 1e9);
			return true;
		}
	}
	return false;
}
