// SPDX-License-Identifier: MIT
/*
 * The barrier test (the kernel's rcu_torture_barrier): each phase, the
 * --n-barrier-cbs poster threads post one callback each, from whatever
 * simulated CPU they are on; once all are posted, the driver calls the
 * flavor's barrier, which must not return before all of them ran.  If it
 * does, rtbe counts it, and the driver waits for the stragglers before the
 * next phase ("Recovered"), so heads are never reposted while queued.
 */
#include "../core/run.h"
#include "threads.h"

#include <stdio.h>
#include <stdlib.h>

#define POST_SPREAD_NS 50000000ULL /* posters post within 50 ms */

static void barrier_cb(struct torture_cb *cb)
{
	atomic_fetch_add(&cb->run->barrier.invoked, 1);
}

int torture_barrier_init(struct torture_run *run)
{
	run->barrier.cbs = calloc((size_t)run->cfg->n_barrier_cbs,
				  sizeof(*run->barrier.cbs));
	return run->barrier.cbs ? 0 : -1;
}

void torture_barrier_cleanup(struct torture_run *run)
{
	free(run->barrier.cbs);
	run->barrier.cbs = NULL;
}

/* A poster: one callback per phase, from its current CPU. */
void torture_barrier_poster(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	struct torture_barrier *b = &run->barrier;
	long seen = 0;

	while (!torture_must_stop(run)) {
		long p = atomic_load(&b->phase);

		if (p == seen) {
			torture_sleep_ns(run, 1000000);
			continue;
		}
		seen = p;
		/*
		 * Post at a random moment of the phase (the kernel posts at
		 * once), so callbacks meet CPU offline at every stage.
		 */
		torture_sleep_ns(run,
				 torture_random(&t->rand) % POST_SPREAD_NS);
		if (torture_must_stop(run))
			break;
		torture_cpu_checkpoint();
		torture_cb_post(run, &b->cbs[t->id], "barrier", barrier_cb);
		atomic_fetch_add(&b->posted, 1);
	}
}

/* Wait until every poster posted this phase's callback; false on stop. */
static bool wait_for_posters(struct torture_run *run, long n)
{
	while (atomic_load(&run->barrier.posted) < n) {
		if (torture_must_stop(run))
			return false;
		torture_sleep_ns(run, 100000);
	}
	return true;
}

/* One barrier call of the test: timed, and checked against the posters. */
static void barrier_once(struct torture_run *run, long n)
{
	struct torture_counters *c = &run->counters;
	struct torture_barrier *b = &run->barrier;
	uint64_t start = torture_now_ns(), took;
	long ran;

	counter_inc(&c->barrier_attempts);
	torture_lostcb_barrier(run, "barrier (barrier test)");
	took = torture_now_ns() - start;
	atomic_fetch_add(&c->barrier_ns_sum, took);
	if (took > atomic_load(&c->barrier_ns_max))
		atomic_store(&c->barrier_ns_max, took);
	ran = atomic_load(&b->invoked);
	if (ran == n) {
		counter_inc(&c->barrier_ok);
		return;
	}
	counter_inc(&c->rtbe);
	torture_failure(
		run, "rtbe",
		"barrier returned after %ld of %ld barrier callbacks had run",
		ran, n);
	/* Recover: the rest must still come, or it is a stall. */
	torture_op_begin("waiting for callbacks after an early barrier");
	while (atomic_load(&b->invoked) < n && !torture_must_stop(run))
		torture_nap_ns(1000000);
	torture_op_end();
}

void torture_barrier_driver(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	struct torture_barrier *b = &run->barrier;
	long n = run->cfg->n_barrier_cbs;

	while (!torture_must_stop(run)) {
		torture_stutter_wait(t);
		atomic_store(&b->posted, 0);
		atomic_store(&b->invoked, 0);
		atomic_fetch_add(&b->phase, 1);
		if (!wait_for_posters(run, n))
			break;
		barrier_once(run, n);
		torture_sleep_ns(run, 100000000); /* HZ/10 between phases */
	}
}
