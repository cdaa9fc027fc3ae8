// SPDX-License-Identifier: MIT
/*
 * The kernel's onoff statistics: attempts, successes and min/max/sum
 * latencies of CPU offline and online transitions, in milliseconds.
 */
#include "run.h"

void torture_onoff_init(struct torture_onoff *o)
{
	pthread_mutex_init(&o->lock, NULL);
	o->stats = (struct onoff_stats){
		.min_online_ms = -1,
		.min_offline_ms = -1,
	};
}

/* Count one transition in the kernel's min/max/sum style. */
void torture_onoff_account(struct torture_onoff *o, bool online, bool ok,
			   uint64_t ns)
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
