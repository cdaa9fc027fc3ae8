// SPDX-License-Identifier: MIT
/*
 * CPU offline simulation (the kernel's torture_onoff): every
 * --onoff-interval pick a simulated CPU, at random or (half the time) one
 * with harness callbacks still pending on it; offline it if it is online
 * (never the last one), else bring it back.  Offline = mark it going
 * offline, wait (at most ONOFF_BOUND_NS) for every thread on it to move,
 * run the flavor's offline hook, mark it offline.  Attempts, successes and
 * latencies are counted for the kernel's "onoff:" field, in milliseconds
 * (our HZ is 1000).
 */
#include "threads.h"

#include <stdio.h>

#define ONOFF_BOUND_NS 1000000000ULL /* threads must leave within 1 s */

/*
 * One transition, with the kernel's per-transition messages under -v
 * (torture_offline()/torture_online(): "offlining 3", "offlined 3").
 */
static int transition(struct torture_run *run, int cpu, bool online)
{
	bool say = run->cfg->verbose > 1;
	const char *name = run->flavor->name;
	int err;

	if (say)
		printf("%s-torture: torture_onoff task: %s %d\n", name,
		       online ? "onlining" : "offlining", cpu);
	err = online ? torture_cpu_online(run, cpu) :
		       torture_cpu_offline(run, cpu, ONOFF_BOUND_NS);
	if (say && err)
		printf("%s-torture: torture_onoff task: %s %d failed: errno %d\n",
		       name, online ? "online" : "offline", cpu, err);
	else if (say)
		printf("%s-torture: torture_onoff task: %s %d\n", name,
		       online ? "onlined" : "offlined", cpu);
	if (say)
		fflush(stdout);
	return err;
}

/* A CPU transition failed: the run's RCU_HOTPLUG verdict names it. */
static void transition_failed(struct torture_run *run, int cpu,
			      const char *what)
{
	torture_problem(
		run, true, "CPU hotplug",
		"simulated CPU %d failed to go %s (the flavor's hook refused, or its threads did not leave within 1 s)",
		cpu, what);
}

/* Bring every CPU back, so what a flavor stranded can still run. */
static void all_online(struct torture_run *run)
{
	torture_cpu_detach();
	for (int cpu = 0; cpu < run->cpus.n; cpu++) {
		uint64_t start = torture_now_ns();

		int err;

		if (torture_cpu_is_online(&run->cpus, cpu))
			continue;
		err = transition(run, cpu, true);
		torture_onoff_account(&run->onoff, true, err == 0,
				      torture_now_ns() - start);
		if (err)
			transition_failed(run, cpu, "online");
	}
}

/*
 * While a --hunt swarm draw has tight reads on, no CPU goes offline (one
 * offline comes back): runs with both failed to take a CPU offline within
 * its bound under heavy load (swarm.c, draw_tight), so they take turns.
 * An offline that began before a redraw turned them on finishes first:
 * readers start no tight read while run->offlining (reader.c).
 */
static bool offline_held(struct torture_run *run)
{
	return __atomic_load_n(&run->read_tight, __ATOMIC_RELAXED);
}

void torture_onoff(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	struct torture_cpus *cpus = &run->cpus;
	int ncpus = cpus->n;

	torture_sleep_ns(run, run->cfg->onoff_holdoff_ns);
	while (!torture_must_stop(run)) {
		int cpu = (int)((torture_random(&t->rand) >> 4) %
				(uint64_t)ncpus);
		uint64_t start = torture_now_ns();

		/*
		 * Half the time, go for a CPU that callbacks were posted from
		 * and are still pending on: that is where a flavor can
		 * strand them (the kernel picks uniformly; we aim).
		 */
		if (torture_random(&t->rand) & 1) {
			int target = torture_cpu_with_pending_callbacks(
				cpus, &t->rand);

			if (target >= 0)
				cpu = target;
		}

		torture_progress();
		/* Off our own CPU, or offlining it would wait for us. */
		torture_cpu_detach();
		if (!torture_cpu_is_online(cpus, cpu)) {
			int err = transition(run, cpu, true);

			torture_onoff_account(&run->onoff, true, err == 0,
					      torture_now_ns() - start);
			if (err)
				transition_failed(run, cpu, "online");
		} else if (torture_cpus_online(cpus) > 1 &&
			   !offline_held(run)) {
			int err;

			__atomic_store_n(&run->offlining, true,
					 __ATOMIC_SEQ_CST);
			err = transition(run, cpu, false);
			__atomic_store_n(&run->offlining, false,
					 __ATOMIC_RELAXED);

			torture_onoff_account(&run->onoff, false, err == 0,
					      torture_now_ns() - start);
			if (err)
				transition_failed(run, cpu, "offline");
			else if (run->cfg->onoff_call)
				torture_onoff_call(run, cpu);
		}
		torture_cpu_attach();
		torture_sleep_ns(run, run->cfg->onoff_interval_ns);
	}
	/*
	 * Bring every CPU back at the end, so that what a flavor stranded on
	 * an offline CPU can still run before the final barrier.
	 */
	all_online(run);
}
