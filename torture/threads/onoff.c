// SPDX-License-Identifier: MIT
/*
 * CPU offline simulation (the kernel's torture_onoff): every
 * --onoff-interval pick a simulated CPU, at random or (half the time) one
 * with harness callbacks still pending on it; offline it if it is online
 * (never the last one), else bring it back.  Offline = mark it going
 * offline, wait (ONOFF_BOUND_NS, longer while one of them is runnable)
 * for every thread on it to move, run the flavor's offline hook, mark it
 * offline.  Attempts, successes and
 * latencies are counted for the kernel's "onoff:" field, in milliseconds
 * (our HZ is 1000).
 */
#include "threads.h"

#include <stdio.h>
#include <string.h>

/*
 * Threads must leave within 1 s (longer only while one of them is
 * runnable: then it waits for a real CPU, not for the flavor).
 */
#define ONOFF_BOUND_NS 1000000000ULL

/*
 * One transition, with the kernel's per-transition messages under -v
 * (torture_offline()/torture_online(): "offlining 3", "offlined 3"); on
 * a failure it says why (the failure message's tail).
 */
static int transition(struct torture_run *run, int cpu, bool online, char *why,
		      size_t len)
{
	bool say = run->cfg->verbose > 1;
	const char *name = run->flavor->name;
	int err;

	if (say)
		printf("%s-torture: torture_onoff task: %s %d\n", name,
		       online ? "onlining" : "offlining", cpu);
	err = online ? torture_cpu_online(run, cpu, why, len) :
		       torture_cpu_offline(run, cpu, ONOFF_BOUND_NS, why, len);
	if (say && err)
		printf("%s-torture: torture_onoff task: %s %d failed: errno %d (%s)\n",
		       name, online ? "online" : "offline", cpu, err, why);
	else if (say)
		printf("%s-torture: torture_onoff task: %s %d\n", name,
		       online ? "onlined" : "offlined", cpu);
	if (say)
		fflush(stdout);
	return err;
}

/*
 * A timed-out offline on a busy machine may be the machine's: say so at
 * the end of why, as a stall report does (machine.h).
 */
static void say_if_machine_busy(struct torture_run *run, char *why, size_t len)
{
	char what[128];
	size_t used = strlen(why);

	if (used < len &&
	    torture_machine_busy_since(&run->clock.machine, what, sizeof(what)))
		snprintf(why + used, len - used, " (machine busy: %s)", what);
}

/* One transition, counted; a failed one is the run's RCU_HOTPLUG. */
static void transition_counted(struct torture_run *run, int cpu, bool online)
{
	uint64_t start = torture_now_ns();
	char why[320];
	int err = transition(run, cpu, online, why, sizeof(why));

	torture_onoff_account(&run->onoff, online, err == 0,
			      torture_now_ns() - start);
	if (err == TORTURE_OFFLINE_TIMEOUT)
		say_if_machine_busy(run, why, sizeof(why));
	if (err) {
		torture_problem(run, true, "CPU hotplug",
				"simulated CPU %d failed to go %s: %s", cpu,
				online ? "online" : "offline", why);
		/* RCU_HOTPLUG is the run's verdict: --stop-on-failure ends it. */
		if (run->cfg->stop_on_failure)
			torture_stop(run);
	} else if (!online && run->cfg->onoff_call)
		torture_onoff_call(run, cpu);
}

/* Bring every CPU back, so what a flavor stranded can still run. */
static void all_online(struct torture_run *run)
{
	torture_cpu_detach();
	for (int cpu = 0; cpu < run->cpus.n; cpu++)
		if (!torture_cpu_is_online(&run->cpus, cpu))
			transition_counted(run, cpu, true);
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
			transition_counted(run, cpu, true);
		} else if (torture_cpus_online(cpus) > 1 &&
			   !offline_held(run)) {
			__atomic_store_n(&run->offlining, true,
					 __ATOMIC_SEQ_CST);
			transition_counted(run, cpu, false);
			__atomic_store_n(&run->offlining, false,
					 __ATOMIC_RELAXED);
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
