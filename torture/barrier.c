// SPDX-License-Identifier: MIT
/*
 * The barrier test (the kernel's rcu_torture_barrier): each phase, the
 * --n-barrier-cbs poster threads post one callback each, from whatever
 * simulated CPU they are on; once all are posted, the driver calls the
 * flavor's barrier, which must not return before all of them ran.  If it
 * does, rtbe counts it, and the driver waits for the stragglers before the
 * next phase ("Recovered"), so heads are never reposted while queued.
 */
#include "torture.h"

#include <stdio.h>
#include <stdlib.h>

#define POST_SPREAD_NS 50000000ULL /* posters post within 50 ms */

static struct torture_cb *barrier_cbs;
static _Atomic long phase; /* bumped by the driver to start a phase */
static _Atomic long posted, invoked;

static void barrier_cb(struct torture_cb *cb)
{
	(void)cb;
	atomic_fetch_add(&invoked, 1);
}

int torture_barrier_init(void)
{
	barrier_cbs = calloc((size_t)torture_cfg->n_barrier_cbs,
			     sizeof(*barrier_cbs));
	return barrier_cbs ? 0 : -1;
}

/* A poster: one callback per phase, from its current CPU. */
void torture_barrier_poster(struct torture_thread *t)
{
	long seen = 0;

	while (!torture_must_stop()) {
		long p = atomic_load(&phase);

		if (p == seen) {
			torture_sleep_ns(1000000);
			continue;
		}
		seen = p;
		/*
		 * Post at a random moment of the phase (the kernel posts at
		 * once), so callbacks meet CPU offline at every stage.
		 */
		torture_sleep_ns(torture_random(&t->rand) % POST_SPREAD_NS);
		if (torture_must_stop())
			break;
		torture_cpu_checkpoint();
		torture_cb_post(&barrier_cbs[t->id], "barrier", barrier_cb);
		atomic_fetch_add(&posted, 1);
	}
}

/* Wait until every poster posted this phase's callback; false on stop. */
static bool wait_for_posters(long n)
{
	while (atomic_load(&posted) < n) {
		if (torture_must_stop())
			return false;
		torture_sleep_ns(100000);
	}
	return true;
}

void torture_barrier_driver(struct torture_thread *t)
{
	const struct rcut_flavor *f = torture_flavor;
	long n = torture_cfg->n_barrier_cbs;

	(void)t;
	while (!torture_must_stop()) {
		uint64_t start, took;
		long ran;

		torture_stutter_wait();
		atomic_store(&posted, 0);
		atomic_store(&invoked, 0);
		atomic_fetch_add(&phase, 1);
		if (!wait_for_posters(n))
			break;
		counter_inc(&torture_counters.barrier_attempts);
		start = torture_now_ns();
		torture_op_begin("barrier (barrier test)");
		f->barrier();
		torture_op_end();
		took = torture_now_ns() - start;
		atomic_fetch_add(&torture_counters.barrier_ns_sum, took);
		if (took > atomic_load(&torture_counters.barrier_ns_max))
			atomic_store(&torture_counters.barrier_ns_max, took);
		ran = atomic_load(&invoked);
		if (ran != n) {
			counter_inc(&torture_counters.rtbe);
			torture_failure(
				"rtbe",
				"barrier returned after %ld of %ld barrier callbacks had run",
				ran, n);
			/* Recover: the rest must still come, or it is a stall. */
			torture_op_begin(
				"waiting for callbacks after an early barrier");
			while (atomic_load(&invoked) < n &&
			       !torture_must_stop())
				torture_nap_ns(1000000);
			torture_op_end();
		} else {
			counter_inc(&torture_counters.barrier_ok);
		}
		torture_sleep_ns(100000000); /* HZ/10 between phases */
	}
}
