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
#include "../core/run.h"

#define ONOFF_BOUND_NS 1000000000ULL /* threads must leave within 1 s */

void torture_onoff_init(struct torture_onoff *o)
{
	pthread_mutex_init(&o->lock, NULL);
	o->stats = (struct onoff_stats){
		.min_online_ms = -1,
		.min_offline_ms = -1,
	};
}

/* Count one transition in the kernel's min/max/sum style. */
static void account(struct torture_onoff *o, bool online, bool ok, uint64_t ns)
{
	struct onoff_stats *s = &o->stats;
	long ms = (long)(ns / 1000000);

	pthread_mutex_lock(&o->lock);
	if (online) {
		s->online_attempts++;
		if (ok) {
			s->online_successes++;
			s->sum_online_ms += (unsigned long)ms;
			if (s->min_online_ms < 0 || ms < s->min_online_ms)
				s->min_online_ms = ms;
			if (ms > s->max_online_ms)
				s->max_online_ms = ms;
		}
	} else {
		s->offline_attempts++;
		if (ok) {
			s->offline_successes++;
			s->sum_offline_ms += (unsigned long)ms;
			if (s->min_offline_ms < 0 || ms < s->min_offline_ms)
				s->min_offline_ms = ms;
			if (ms > s->max_offline_ms)
				s->max_offline_ms = ms;
		}
	}
	pthread_mutex_unlock(&o->lock);
}

void torture_onoff_read(struct torture_run *run, struct onoff_stats *out)
{
	pthread_mutex_lock(&run->onoff.lock);
	*out = run->onoff.stats;
	pthread_mutex_unlock(&run->onoff.lock);
}

/* Bring every CPU back, so what a flavor stranded can still run. */
static void all_online(struct torture_run *run)
{
	torture_cpu_detach();
	for (int cpu = 0; cpu < run->cpus.n; cpu++) {
		uint64_t start = torture_now_ns();

		if (!torture_cpu_is_online(&run->cpus, cpu))
			account(&run->onoff, true,
				torture_cpu_online(run, cpu) == 0,
				torture_now_ns() - start);
	}
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
			account(&run->onoff, true,
				torture_cpu_online(run, cpu) == 0,
				torture_now_ns() - start);
		} else if (torture_cpus_online(cpus) > 1) {
			int err = torture_cpu_offline(run, cpu, ONOFF_BOUND_NS);

			account(&run->onoff, false, err == 0,
				torture_now_ns() - start);
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
