// SPDX-License-Identifier: MIT
/*
 * The element pool of the kernel's rcutorture: the writer publishes an
 * element, then ages it one pipe stage per grace period; at PIPE_LEN it is
 * marked not-in-use (mbtest = 0) and returns to the free list.  A reader
 * that sees stage >= 2 held it across a full grace period: an RCU bug.
 * The pool memory is never given back while the run lasts, so readers of a
 * recycled element read valid (if wrong) data, which is what rtmbe catches.
 */
#include "run.h"
#include "mbchk.h"

#include <stdio.h>

void torture_pool_init(struct torture_pool *p)
{
	pthread_mutex_init(&p->lock, NULL);
	p->free_list = NULL;
	atomic_init(&p->current, NULL);
	for (int i = 0; i < TORTURE_POOL_SIZE; i++) {
		atomic_store(&p->elem[i].mbtest, 0);
		p->elem[i].next = p->free_list;
		p->free_list = &p->elem[i];
	}
}

bool torture_pool_empty(struct torture_pool *p)
{
	bool empty;

	pthread_mutex_lock(&p->lock);
	empty = !p->free_list;
	pthread_mutex_unlock(&p->lock);
	return empty;
}

struct torture_elem *torture_elem_alloc(struct torture_run *run)
{
	struct torture_pool *p = &run->pool;
	struct torture_elem *e;

	pthread_mutex_lock(&p->lock);
	e = p->free_list;
	if (e)
		p->free_list = e->next;
	pthread_mutex_unlock(&p->lock);
	if (!e) {
		counter_inc(&run->counters.rtaf);
		return NULL;
	}
	counter_inc(&run->counters.rta);
	atomic_store_explicit(&e->pipe_count, 0, memory_order_relaxed);
	/* Ordered before publication by the writer's release store. */
	atomic_store_explicit(&e->mbtest, 1, memory_order_relaxed);
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

static void elem_free(struct torture_run *run, struct torture_elem *e)
{
	struct torture_pool *p = &run->pool;

	elem_poison(e);
	counter_inc(&run->counters.rtf);
	pthread_mutex_lock(&p->lock);
	e->next = p->free_list;
	p->free_list = e;
	pthread_mutex_unlock(&p->lock);
}

bool torture_elem_age(struct torture_run *run, struct torture_elem *e)
{
	int i = atomic_load_explicit(&e->pipe_count, memory_order_relaxed);

	if (i >= 1) /* not the removal: a grace period passed since */
		torture_mbchk_gp_passed(e);
	counter_inc(
		&run->counters.wcount[i > RCUT_PIPE_LEN ? RCUT_PIPE_LEN : i]);
	atomic_store_explicit(&e->pipe_count, i + 1, memory_order_relaxed);
	if (i + 1 < RCUT_PIPE_LEN)
		return false;
	atomic_store_explicit(&e->mbtest, 0, memory_order_release);
	elem_free(run, e);
	return true;
}

static void elem_age_cb(struct torture_cb *cb);

/* Post the element's next aging callback. */
static void elem_post_aging(struct torture_run *run, struct torture_elem *e)
{
	struct torture_cb *cb = &e->cb[e->cb_next++ & 1];

	cb->owner = e;
	torture_cb_post(run, cb, "element aging", elem_age_cb);
}

/* The aging callback: one stage per grace period, re-posted until freed. */
static void elem_age_cb(struct torture_cb *cb)
{
	struct torture_elem *e = cb->owner;

	if (!torture_elem_age(cb->run, e))
		elem_post_aging(cb->run, e);
}

void torture_elem_age_async(struct torture_run *run, struct torture_elem *e)
{
	elem_post_aging(run, e);
}

bool torture_pool_stalled_callback(struct torture_pool *p, uint64_t now,
				   uint64_t timeout, char *what, size_t len)
{
	for (int i = 0; i < TORTURE_POOL_SIZE; i++) {
		for (int k = 0; k < 2; k++) {
			struct torture_cb *cb = &p->elem[i].cb[k];
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
