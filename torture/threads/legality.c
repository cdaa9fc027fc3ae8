// SPDX-License-Identifier: MIT
/*
 * Calls made on purpose where the kernel's rules decide what is legal
 * (issue 18, core/legality.h):
 *
 * - call() inside a read-side section is legal (call_rcu() never
 *   blocks): with --reader-cbs a reader posts one from inside its section
 *   now and then.  A flavor whose call() may block (RCUT_CAP_CALL_MAY_BLOCK)
 *   is spared, as the kernel forbids blocking in a section.
 * - call() on an offline CPU (--onoff-call): the onoff thread, on the CPU
 *   it has just offlined, posts a callback, then calls the barrier while
 *   the CPU is still offline.  The barrier must not return before the
 *   callback ran: Linux leaked such callbacks until 2012 ("rcu: Disallow
 *   callback registry on offline CPUs" made the leak loud).
 * - barrier() inside a read-side section or from a callback is illegal:
 *   it waits for a grace period that waits for the caller, or for the
 *   callback it runs in.  --illegal-barrier makes both calls, but only on
 *   flavors that declare RCUT_CAP_BARRIER_CHECK: such a barrier() must
 *   return at once and report it (rcut_illegal_barrier()), and one that
 *   does not is a failure; one that hangs instead is a stall, which the
 *   watchdog ends.  Other flavors are never handed the illegal call.
 */
#include "threads.h"

#define ILLEGAL_PERIOD_NS \
	100000000ULL /* one pair of illegal calls per 100 ms */

#include <stddef.h>

/* The function of every callback posted here: it may be posted again. */
static void legal_cb_done(struct torture_cb *cb)
{
	struct torture_legal_cb *l =
		(struct torture_legal_cb *)((char *)cb -
					    offsetof(struct torture_legal_cb,
						     cb));

	atomic_store(&l->busy, false);
}

/* Post l's callback with fn (legal_cb_done's job included by fn). */
static void legal_post(struct torture_run *run, struct torture_legal_cb *l,
		       const char *kind, void (*fn)(struct torture_cb *cb))
{
	atomic_store(&l->busy, true);
	torture_cb_post(run, &l->cb, kind, fn);
}

void torture_reader_section_post(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	struct torture_legality *l = &run->legality;
	struct torture_legal_cb *cb;

	if (!l->reader_cbs || t->id >= run->threads.nreaders ||
	    run->threads.readers[t->id] != t ||
	    torture_random(&t->rand) % (uint64_t)run->cfg->reader_cbs)
		return;
	cb = &l->reader_cbs[t->id];
	if (atomic_load(&cb->busy))
		return; /* the last one has not run yet */
	torture_op_begin_on_cpu("call() inside a read-side section");
	legal_post(run, cb, "reader", legal_cb_done);
	torture_op_end();
	atomic_fetch_add(&l->reader_posts, 1);
}

/*
 * The same from an up/down section (--n-up-down): the down thread, right
 * after its down_read, one section in --reader-cbs.  The section may end
 * on the up thread before or after the callback runs.
 */
void torture_updown_section_post(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	struct torture_legality *l = &run->legality;

	if (!l->reader_cbs || atomic_load(&l->updown_cb.busy) ||
	    torture_random(&t->rand) % (uint64_t)run->cfg->reader_cbs)
		return;
	torture_op_begin_on_cpu("call() inside an up/down section");
	legal_post(run, &l->updown_cb, "up/down reader", legal_cb_done);
	torture_op_end();
	atomic_fetch_add(&l->updown_posts, 1);
}

bool torture_reader_cbs_possible(const struct rcut_flavor *f)
{
	return f->call && !(f->caps & RCUT_CAP_CALL_MAY_BLOCK);
}

void torture_onoff_call(struct torture_run *run, int cpu)
{
	struct torture_legality *l = &run->legality;
	struct torture_legal_cb *cb = &l->offline_cb;

	if (!run->flavor->call || !run->flavor->barrier ||
	    atomic_load(&cb->busy))
		return; /* the last one is still leaked somewhere */
	torture_cpu_attach_offline(&run->cpus, cpu);
	legal_post(run, cb, "offline-CPU", legal_cb_done);
	torture_cpu_detach();
	atomic_fetch_add(&l->offline_posts, 1);
	torture_lostcb_barrier(run, "barrier after a call() on an offline CPU");
	if (atomic_load(&cb->cb.state) != TORTURE_CB_POSTED)
		return;
	atomic_fetch_add(&l->offline_leaks, 1);
	counter_inc(&run->counters.cbs_lost);
	torture_failure(
		run, "lost callback",
		"callback %p posted by call() on offline simulated CPU %d was not invoked by a barrier that began after that call() returned: leaked on the offline CPU",
		(void *)&cb->cb, cpu);
}

/* A barrier call the flavor must refuse; false if it did not report it. */
static bool refused(struct torture_run *run, const char *op, bool on_cpu)
{
	struct torture_legality *l = &run->legality;
	uint64_t before = atomic_load(&l->illegal_reported);

	atomic_fetch_add(&l->illegal_tries, 1);
	if (on_cpu)
		torture_op_begin_on_cpu(op);
	run->flavor->barrier();
	if (on_cpu)
		torture_op_end();
	return atomic_load(&l->illegal_reported) != before;
}

/* Set by the callback below: 1 refused and reported, -1 not. */
static _Atomic int cb_verdict;

static void barrier_in_callback(struct torture_cb *cb)
{
	atomic_store(&cb_verdict,
		     refused(cb->run, "barrier() from a callback", false) ? 1 :
									    -1);
}

static void undetected(struct torture_run *run, const char *where)
{
	torture_failure(
		run, "undetected illegal barrier",
		"flavor %s declares barrier checks (RCUT_CAP_BARRIER_CHECK), but its barrier() called %s returned without reporting it",
		run->flavor->name, where);
}

/* barrier() from a callback: post one and wait for its verdict. */
static void barrier_from_callback(struct torture_thread *t)
{
	struct torture_run *run = t->run;

	if (atomic_load(&run->legality.barrier_cb.busy))
		return; /* its callback is still queued or running */
	atomic_store(&cb_verdict, 0);
	legal_post(run, &run->legality.barrier_cb, "illegal-barrier",
		   barrier_in_callback);
	torture_op_begin("waiting for a callback that calls barrier()");
	/*
	 * Not given up at the stop: a flavor that hangs here is the stall
	 * the watchdog must name (and it bounds the wait).
	 */
	while (!atomic_load(&cb_verdict))
		torture_nap_ns(1000000);
	torture_op_end();
	if (atomic_load(&cb_verdict) < 0)
		undetected(run, "from a callback");
}

void torture_illegal_barrier(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;

	while (!torture_must_stop(run)) {
		int idx = hold_read_lock(f);
		bool ok = refused(run, "barrier() inside a read-side section",
				  true);

		hold_read_unlock(f, idx);
		if (!ok)
			undetected(run, "inside a read-side section");
		barrier_from_callback(t);
		torture_progress();
		torture_cpu_checkpoint();
		torture_sleep_ns(run, ILLEGAL_PERIOD_NS);
	}
}

bool torture_illegal_barrier_possible(const struct rcut_flavor *f)
{
	return f->call && f->barrier && RCUT_FLAVOR_HAS(f, 3) &&
	       (f->caps & RCUT_CAP_BARRIER_CHECK);
}
