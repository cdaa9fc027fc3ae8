// SPDX-License-Identifier: MIT
/*
 * The holdout reader of --pd-test (the kernel's rcuscale pd_test, where a
 * thread busy-waits with preemption disabled): it stays inside one
 * read-side section for --pd-busy-wait each loop, so every grace period
 * that starts meanwhile waits for it.  A QSBR flavor's read side is empty,
 * so there it simply reports no quiescent state for that long.  With
 * --pd-resched the wait is broken up every 1 ms "tick": it leaves the
 * section and re-enters it (QSBR: reports a quiescent state), as the
 * kernel's cond_resched() lets a grace period through.  With --pd-sleep
 * it sleeps instead of spinning: a reader blocked in its section, which
 * costs the flavor's updaters whatever their polling costs (SRCU before
 * 2022 spun a whole CPU on it).
 */
#include "scale.h"

#define TICK_NS 1000000ULL /* 1 ms: HZ=1000 */

void scale_holdout(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	const struct rcut_scale_config *sc = &run->cfg->scale;

	/* threads.c takes non-reader threads of a QSBR flavor offline. */
	if (f->thread_online)
		f->thread_online();
	for (bool first = true; !torture_must_stop(run); first = false) {
		uint64_t end = torture_now_ns() + sc->pd_busy_wait_ns, now;
		int idx = f->read_lock();

		if (first)
			scale_load_ready(scale_state(run));
		/* Wall-clock time, however often the thread is preempted. */
		while ((now = torture_now_ns()) < end &&
		       !torture_must_stop(run)) {
			uint64_t chunk =
				end - now < TICK_NS ? end - now : TICK_NS;

			if (sc->pd_sleep)
				torture_sleep_ns(run, sc->pd_resched ?
							      chunk :
							      end - now);
			else
				torture_spin_ns(run, chunk);
			torture_progress(); /* spinning is not being stuck */
			if (!sc->pd_resched || torture_now_ns() >= end)
				continue;
			f->read_unlock(idx);
			if (f->quiescent_state)
				f->quiescent_state();
			idx = f->read_lock();
		}
		f->read_unlock(idx);
		if (f->quiescent_state)
			f->quiescent_state();
	}
}
