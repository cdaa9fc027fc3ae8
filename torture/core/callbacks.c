// SPDX-License-Identifier: MIT
/*
 * Callback accounting: exactly once, never early, none lost.  The early
 * check does not trust the flavor's own bookkeeping: it uses the readers'
 * section counters as witnesses (see struct torture_cb).
 */
#include "run.h"
#include "cborder.h"
#include "holds.h"

#include <stddef.h>

#define WITNESS_SCAN 16 /* readers looked at per post, from a rotating start */

int torture_witnesses_take(struct torture_run *run, struct torture_witness *w)
{
	struct torture_thread **readers = run->threads.readers;
	int n = run->threads.nreaders,
	    scan = n < WITNESS_SCAN ? n : WITNESS_SCAN;
	unsigned int start =
		n ? atomic_fetch_add_explicit(&run->witness_scan, 1,
					      memory_order_relaxed) :
		    0;

	int nw = 0;

	for (int i = 0; i < scan && nw < TORTURE_CB_WITNESSES; i++) {
		int r = (int)((start + (unsigned int)i) % (unsigned int)n);
		uint64_t sec = atomic_load_explicit(&readers[r]->section,
						    memory_order_relaxed);

		if (!(sec & 1))
			continue;
		w[nw].reader = r;
		w[nw].section = sec;
		nw++;
	}
	/* The witnesses' sections began before the grace period can. */
	atomic_thread_fence(memory_order_seq_cst);
	return nw;
}

int torture_witnesses_check(struct torture_run *run,
			    const struct torture_witness *w, int n)
{
	atomic_thread_fence(memory_order_seq_cst);
	for (int i = 0; i < n; i++)
		if (atomic_load_explicit(
			    &run->threads.readers[w[i].reader]->section,
			    memory_order_relaxed) == w[i].section)
			return i;
	return -1;
}

/* Note readers that are inside a section now, before the call() begins. */
static void take_witnesses(struct torture_run *run, struct torture_cb *cb)
{
	cb->nwitness = torture_witnesses_take(run, cb->witness);
}

/* A witness still in its section: the callback ran before a full GP. */
static void check_witnesses(struct torture_cb *cb, uint64_t age_ns)
{
	struct torture_run *run = cb->run;
	int i = torture_witnesses_check(run, cb->witness, cb->nwitness);

	if (i >= 0) {
		int r = cb->witness[i].reader;

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

	/* After the report (torture_cbs_close()), nothing to check. */
	if (atomic_load_explicit(&run->cbs_closed, memory_order_relaxed))
		return;
	/* A callback reported lost that comes late is let through. */
	if (!atomic_compare_exchange_strong(&cb->state, &expected,
					    TORTURE_CB_IDLE) &&
	    (expected != TORTURE_CB_LOST ||
	     !atomic_compare_exchange_strong(&cb->state, &expected,
					     TORTURE_CB_IDLE))) {
		counter_inc(&run->counters.cbs_dup);
		torture_failure(
			run, "duplicate callback",
			"%s callback %p invoked again %.3f ms after its call() (already invoked once)",
			cb->kind, (void *)cb, (double)age / 1e6);
		return;
	}
	check_witnesses(cb, age);
	torture_cborder_invoke(run, cb); /* before fn posts it again */
	torture_overtaken_cb(run, cb->posted_ns);
	if (cb->cpu >= 0)
		torture_cpu_callback_posted(&run->cpus, cb->cpu, -1);
	cb->fn(cb);
	/*
	 * Counted once fn has returned: an aging callback re-posts itself
	 * from fn, and counting before would show nothing in flight for a
	 * moment, so the final barrier could stop one stage early.  A
	 * release: the shutdown frees the callbacks once it reads none in
	 * flight (torture_cbs_in_flight), after this invocation's last use
	 * of cb (ThreadSanitizer saw the barrier test's freed under a
	 * relaxed count: the flavor's own barrier, in an uninstrumented
	 * library, orders nothing it can see).
	 */
	atomic_fetch_add_explicit(&run->counters.cbs_invoked, 1,
				  memory_order_release);
}

/*
 * cb is still queued: a second call() on it is a duplicate (the kernel's
 * debug-objects "double call_rcu()").  A flavor that declares it detects
 * this gets the head and must report it with rcut_double_call() without
 * queueing it; any other flavor never sees the duplicate, which the
 * harness flags here instead.  Outside --object-debug's deliberate test
 * (expected) a duplicate is a failure.
 */
static void cb_double_post(struct torture_run *run, struct torture_cb *cb,
			   bool expected)
{
	uint64_t before;

	counter_inc(&run->counters.cbs_double);
	if (!(rcut_flavor_caps_of(run->flavor) & RCUT_CAP_DOUBLE_CALL)) {
		counter_inc(&run->counters.cbs_double_harness);
		if (!expected)
			torture_failure(
				run, "duplicate call",
				"%s callback %p passed to call() again while still queued (flagged by the harness, not passed to the flavor)",
				cb->kind, (void *)cb);
		return;
	}
	before = atomic_load(&run->counters.cbs_double_flavor);
	hold_call(run->flavor, &cb->rh, cb_invoke);
	if (atomic_load(&run->counters.cbs_double_flavor) == before)
		torture_failure(
			run, "undetected duplicate call",
			"flavor %s declares duplicate call() detection, but did not report %s callback %p passed to call() again while still queued",
			run->flavor->name, cb->kind, (void *)cb);
	else if (!expected)
		torture_failure(
			run, "duplicate call",
			"%s callback %p passed to call() again while still queued (reported by the flavor)",
			cb->kind, (void *)cb);
}

bool torture_cb_post_again(struct torture_run *run, struct torture_cb *cb)
{
	if (atomic_load(&cb->state) != TORTURE_CB_POSTED)
		return false;
	cb_double_post(run, cb, true);
	return true;
}

void torture_cb_post(struct torture_run *run, struct torture_cb *cb,
		     const char *kind, void (*fn)(struct torture_cb *cb))
{
	uint64_t gen, stamp;
	int cpu;

	if (atomic_load(&cb->state) == TORTURE_CB_POSTED) {
		cb_double_post(run, cb, false);
		return;
	}
	cb->run = run;
	/* Relaxed: the stamp stored below publishes them to the check. */
	atomic_store_explicit(&cb->kind, kind, memory_order_relaxed);
	cb->fn = fn;
	cb->posted_ns = torture_now_ns();
	cpu = rcut_current_cpu();
	atomic_store_explicit(&cb->cpu, cpu, memory_order_relaxed);
	if (cpu >= 0) {
		torture_cpu_callback_posted(&run->cpus, cpu, 1);
		atomic_store_explicit(&cb->cpu_offlines,
				      torture_cpu_offlines(&run->cpus, cpu),
				      memory_order_relaxed);
	}
	take_witnesses(run, cb);
	torture_cborder_post(run, cb);
	gen = ((atomic_load(&cb->stamp) >> TORTURE_CB_STAMP_SHIFT) + 1) &
	      0xffff;
	stamp = gen << TORTURE_CB_STAMP_SHIFT;
	atomic_store(&cb->stamp, stamp); /* call() in progress */
	atomic_store(&cb->state, TORTURE_CB_POSTED);
	counter_inc(&run->counters.cbs_posted);
	if (run->flavor->caps & RCUT_CAP_CALL_MAY_BLOCK) {
		bool began = torture_op_try_begin("call (may block)");

		hold_call(run->flavor, &cb->rh, cb_invoke);
		torture_op_end_if(began);
	} else {
		hold_call(run->flavor, &cb->rh, cb_invoke);
	}
	/* Unless the callback already ran and was posted again. */
	atomic_compare_exchange_strong(
		&cb->stamp, &stamp,
		stamp | TORTURE_CB_STAMP_US(torture_lostcb_now_us()));
}

void rcut_double_call(struct rcut_head *head)
{
	struct torture_run *run = torture_signal_run;

	(void)head;
	if (run)
		counter_inc(&run->counters.cbs_double_flavor);
}

int64_t torture_cbs_in_flight(struct torture_run *run)
{
	return (int64_t)(atomic_load(&run->counters.cbs_posted) -
			 atomic_load(&run->counters.cbs_invoked));
}

void torture_cbs_close(struct torture_run *run)
{
	atomic_store(&run->cbs_closed, true);
}

/* The acquire load pairs with cb_invoke()'s release count. */
bool torture_cbs_settled(struct torture_run *run)
{
	return torture_cbs_in_flight(run) <= 0;
}
