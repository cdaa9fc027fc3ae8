// SPDX-License-Identifier: MIT
/*
 * Stutter and shuffle (kernel/torture.c).  Stutter: the whole test runs
 * for --stutter, then pauses for as long, repeatedly, so grace periods see
 * load come and go (rcutorture.stutter: the pause comes first, as in the
 * kernel); without --stutter, --hunt's quiet spells (swarm.c), whose
 * length each swarm draw sets, 0 for none.  Shuffle: every
 * --shuffle-interval the next simulated CPU becomes idle (threads move
 * off it; after the last CPU, none is), so each CPU periodically goes
 * quiet.
 */
#include "threads.h"

#include <string.h>

void torture_stutter_wait(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	bool qsbr_offline;

	if (!atomic_load_explicit(&run->stutter_paused, memory_order_relaxed))
		return;
	/* A paused QSBR reader must not hold grace periods up. */
	qsbr_offline = f->thread_offline && !strcmp(t->kind, "reader");
	if (qsbr_offline)
		hold_thread_offline(f);
	while (atomic_load_explicit(&run->stutter_paused,
				    memory_order_relaxed) &&
	       !torture_must_stop(run))
		torture_sleep_ns(run, 1000000);
	if (qsbr_offline)
		hold_thread_online(f);
}

#define QUIET_LOOK_NS 10000000ULL /* how often an off draw is looked at */

void torture_stutter(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	uint64_t period;
	bool pause_first = run->cfg->stutter_pause_first;

	while (!torture_must_stop(run)) {
		period = run->cfg->stutter_ns;
		if (!period)
			period = __atomic_load_n(&run->quiet_ns,
						 __ATOMIC_RELAXED);
		if (!period) {
			torture_sleep_ns(run, QUIET_LOOK_NS);
			continue;
		}
		/* The kernel's stutter (rcutorture.stutter) pauses first. */
		if (!pause_first)
			torture_sleep_ns(run, period);
		pause_first = false;
		atomic_fetch_add(&run->stutter_pauses, 1);
		atomic_store(&run->stutter_paused, true);
		torture_sleep_ns(run, period);
		atomic_store(&run->stutter_paused, false);
		atomic_fetch_add(&run->stutter_pauses, 1); /* and its end */
	}
	atomic_store(&run->stutter_paused, false);
}

void torture_shuffle(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	int idle = -1, ncpus = run->cpus.n;

	while (!torture_must_stop(run)) {
		torture_sleep_ns(run, run->cfg->shuffle_interval_ns);
		idle = idle + 1 < ncpus ? idle + 1 : -1;
		torture_cpu_set_idle(&run->cpus, idle);
	}
	torture_cpu_set_idle(&run->cpus, -1);
}
