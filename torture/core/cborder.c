// SPDX-License-Identifier: MIT
/*
 * Callback order.  A flavor whose call() queues are FIFO (RCUT_CAP_CB_FIFO)
 * invokes the callbacks one thread posted to one queue in the order it
 * posted them; barriers that queue a marker behind the callbacks rely on
 * it.  Each harness thread numbers its posts and remembers the last of
 * them invoked: a callback invoked right after a later post of the same
 * thread to the same queue is a failure ("callback order").  The queue
 * is the one queue under --call-rcu global or perthread; under percpu it
 * is the simulated CPU of the post and that CPU's offline count (an
 * offline moves the CPU's callbacks elsewhere; the CPU comes back with a
 * new queue).  Nothing is checked with call-queue toggling (callbacks
 * move between queues at any time), nor for posts made outside harness
 * threads (a callback posting itself again from the flavor's worker).
 * Each queue's callbacks run in one worker, one after the other, so the
 * previous invocation seen from the same queue is always an earlier one.
 */
#include "cborder.h"

#include "run.h"

#define KEY_OFFLINES_BITS 20 /* the offline count's bits in a queue key */
#define N_BITS 32 /* the post number's bits in the last-invoked word */

/* The queue a post went to, as far as the harness can tell (0: the one). */
static uint32_t queue_key(const struct torture_run *run,
			  const struct torture_cb *cb)
{
	int cpu = atomic_load_explicit(&cb->cpu, memory_order_relaxed);

	if (run->cfg->call_mode != RCUT_CALL_PERCPU)
		return 0;
	return (uint32_t)(cpu + 2) << KEY_OFFLINES_BITS |
	       (uint32_t)(atomic_load_explicit(&cb->cpu_offlines,
					       memory_order_relaxed) &
			  ((1u << KEY_OFFLINES_BITS) - 1));
}

void torture_cborder_post(struct torture_run *run, struct torture_cb *cb)
{
	struct torture_thread *t = NULL;

	if ((rcut_flavor_caps_of(run->flavor) & RCUT_CAP_CB_FIFO) &&
	    !run->cfg->nocbs_nthreads)
		t = torture_self();
	cb->order_by = t && t->run == run ? t : NULL;
	if (!cb->order_by)
		return;
	cb->order_n = (uint32_t)(atomic_fetch_add(&t->cb_posts, 1) + 1);
	cb->order_key = queue_key(run, cb);
}

void torture_cborder_invoke(struct torture_run *run, struct torture_cb *cb)
{
	struct torture_thread *t = cb->order_by;
	uint64_t mine, prev;
	uint32_t prev_n;

	if (!t)
		return;
	mine = (uint64_t)cb->order_key << N_BITS | cb->order_n;
	prev = atomic_exchange(&t->cb_invoked_last, mine);
	prev_n = (uint32_t)prev;
	if (!prev || (uint32_t)(prev >> N_BITS) != cb->order_key ||
	    (int32_t)(cb->order_n - prev_n) > 0)
		return;
	torture_failure(
		run, "callback order",
		"%s callback %p, post %u of %s %d, invoked after its post %u to the same queue (--call-rcu %s): the flavor declares FIFO call() queues (RCUT_CAP_CB_FIFO)",
		cb->kind, (void *)cb, cb->order_n, t->kind, t->id, prev_n,
		rcut_call_mode_names[run->cfg->call_mode]);
}
