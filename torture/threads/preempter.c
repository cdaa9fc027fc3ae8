// SPDX-License-Identifier: MIT
/*
 * The preempter thread (--preempt-duration): the userspace form of the
 * kernel's rcu_torture_preempt().  Every --preempt-interval on average it
 * picks a torture thread, a reader three times in four, and sends it the
 * preemption signal (preempt.c); the handler keeps that thread away for
 * a random time wherever it was, inside the flavor's read_lock included.
 * A reader stopped between reading a phase and counting itself, or with
 * a store still buffered, is what the classic RCU races need.
 */
#define _GNU_SOURCE
#include "../core/preempt.h"
#include "threads.h"

#include <string.h>

#define READER_PICKS 3 /* of PICK_OUT_OF: a reader */
#define PICK_OUT_OF 4
#define READER_TRIES 4	    /* readers looked at for one between sections */
#define IDLE_NS 10000000ULL /* preemption drawn off: look again in 10 ms */

/* A random live thread of the first n of the table, not self; or NULL. */
static struct torture_thread *pick_any(struct torture_thread *self, int n)
{
	struct torture_thread *t = self->run->threads.t;

	for (int tries = 0; tries < 8 && n > 1; tries++) {
		struct torture_thread *c =
			&t[torture_random(&self->rand) % (uint64_t)n];

		if (c != self &&
		    !atomic_load_explicit(&c->exited, memory_order_relaxed))
			return c;
	}
	return NULL;
}

/*
 * A random reader, preferably one between its marked sections (its
 * section counter even): then it is in read_lock, read_unlock or between
 * reads, where the phase-read-to-count windows are.
 */
static struct torture_thread *pick_reader(struct torture_thread *self)
{
	struct torture_threads *th = &self->run->threads;
	struct torture_thread *c = NULL;

	for (int tries = 0; tries < READER_TRIES; tries++) {
		c = th->readers[torture_random(&self->rand) %
				(uint64_t)th->nreaders];
		if (!(atomic_load_explicit(&c->section, memory_order_relaxed) &
		      1))
			break;
	}
	return c;
}

/* The thread to preempt next: mostly a reader. */
static struct torture_thread *pick(struct torture_thread *self, int n)
{
	struct torture_threads *th = &self->run->threads;

	if (th->nreaders > 0 &&
	    torture_random(&self->rand) % PICK_OUT_OF < READER_PICKS)
		return pick_reader(self);
	return pick_any(self, n);
}

void torture_preempter(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	/*
	 * Every thread of the round exists once the gate opened; the drain
	 * adds its own later (lifecycle_spawn), which are not picked.
	 */
	int n = __atomic_load_n(&run->threads.n, __ATOMIC_ACQUIRE);

	while (!torture_must_stop(run)) {
		struct torture_thread *victim;
		pid_t tid;
		/* --swarm-interval draws these again as the run goes on. */
		uint64_t mean = __atomic_load_n(&run->cfg->preempt_interval_ns,
						__ATOMIC_RELAXED);

		if (!__atomic_load_n(&run->cfg->preempt_duration_ns,
				     __ATOMIC_RELAXED)) {
			torture_sleep_ns(run, IDLE_NS); /* drawn off */
			continue;
		}

		/* Uniform in [0, 2 * mean): the kernel fuzzes its interval. */
		torture_sleep_ns(run, torture_random(&t->rand) % (2 * mean));
		torture_progress();
		torture_stutter_wait(t);
		victim = pick(t, n);
		tid = victim ? atomic_load_explicit(&victim->os_tid,
						    memory_order_relaxed) :
			       0;
		if (tid > 0 && !atomic_load_explicit(&victim->exited,
						     memory_order_relaxed))
			preempt_thread(tid);
	}
}
