// SPDX-License-Identifier: MIT
/*
 * Callback accounting: exactly once, never early, none lost.  The early
 * check does not trust the flavor's own bookkeeping: it uses the readers'
 * section counters as witnesses (see struct torture_cb).
 */
#include "run.h"

#include <stddef.h>

#define WITNESS_SCAN 16 /* readers looked at per post, from a rotating start */

/* Note readers that are inside a section now, before the call() begins. */
static void take_witnesses(struct torture_run *run, struct torture_cb *cb)
{
	struct torture_thread **readers = run->threads.readers;
	int n = run->threads.nreaders,
	    scan = n < WITNESS_SCAN ? n : WITNESS_SCAN;
	unsigned int start =
		n ? atomic_fetch_add_explicit(&run->witness_scan, 1,
					      memory_order_relaxed) :
		    0;

	cb->nwitness = 0;
	for (int i = 0; i < scan && cb->nwitness < TORTURE_CB_WITNESSES; i++) {
		int r = (int)((start + (unsigned int)i) % (unsigned int)n);
		uint64_t sec = atomic_load_explicit(&readers[r]->section,
						    memory_order_relaxed);

		if (!(sec & 1))
			continue;
		cb->witness[cb->nwitness].reader = r;
		cb->witness[cb->nwitness].section = sec;
		cb->nwitness++;
	}
	/* The witnesses' sections began before the grace period can. */
	atomic_thread_fence(memory_order_seq_cst);
}

/* A witness still in its section: the callback ran before a full GP. */
static void check_witnesses(struct torture_cb *cb, uint64_t age_ns)
{
	struct torture_run *run = cb->run;

	atomic_thread_fence(memory_order_seq_cst);
	for (int i = 0; i < cb->nwitness; i++) {
		int r = cb->witness[i].reader;

		if (atomic_load_explicit(&run->threads.readers[r]->section,
					 memory_order_relaxed) !=
		    cb->witness[i].section)
			continue;
		counter_inc(&run->counters.cbs_early);
		torture_failure(
			run, "early callback",
			"%s callback %p invoked %.3f ms after call(), while reader %d was still in the read-side section it was in at call() time",
			cb->kind, (void *)cb, (double)age_ns / 1e6, r);
		return;
	}
}

static void cb_invoke(struct rcut_head *rh)
{
	struct torture_cb *cb =
		(struct torture_cb *)((char *)rh -
				      offsetof(struct torture_cb, rh));
	uint64_t age = torture_now_ns() - cb->posted_ns;
	int expected = TORTURE_CB_POSTED;
	struct torture_run *run = cb->run;

	if (!atomic_compare_exchange_strong(&cb->state, &expected,
					    TORTURE_CB_IDLE)) {
		counter_inc(&run->counters.cbs_dup);
		torture_failure(
			run, "duplicate callback",
			"%s callback %p invoked again %.3f ms after its call() (already invoked once)",
			cb->kind, (void *)cb, (double)age / 1e6);
		return;
	}
	check_witnesses(cb, age);
	if (cb->cpu >= 0)
		torture_cpu_callback_posted(&run->cpus, cb->cpu, -1);
	cb->fn(cb);
	/*
	 * Counted once fn has returned: an aging callback re-posts itself
	 * from fn, and counting before would show nothing in flight for a
	 * moment, so the final barrier could stop one stage early.
	 */
	counter_inc(&run->counters.cbs_invoked);
}

void torture_cb_post(struct torture_run *run, struct torture_cb *cb,
		     const char *kind, void (*fn)(struct torture_cb *cb))
{
	cb->run = run;
	cb->kind = kind;
	cb->fn = fn;
	cb->posted_ns = torture_now_ns();
	cb->cpu = rcut_current_cpu();
	if (cb->cpu >= 0)
		torture_cpu_callback_posted(&run->cpus, cb->cpu, 1);
	take_witnesses(run, cb);
	atomic_store(&cb->state, TORTURE_CB_POSTED);
	counter_inc(&run->counters.cbs_posted);
	if (run->flavor->caps & RCUT_CAP_CALL_MAY_BLOCK) {
		bool began = torture_op_try_begin("call (may block)");

		run->flavor->call(&cb->rh, cb_invoke);
		torture_op_end_if(began);
	} else {
		run->flavor->call(&cb->rh, cb_invoke);
	}
}

int64_t torture_cbs_in_flight(struct torture_run *run)
{
	return (int64_t)(atomic_load(&run->counters.cbs_posted) -
			 atomic_load(&run->counters.cbs_invoked));
}
