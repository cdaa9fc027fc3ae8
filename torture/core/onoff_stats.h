/* SPDX-License-Identifier: MIT */
/*
 * The kernel's onoff statistics (core/onoff_stats.c): what the CPU
 * hotplug thread counts and the stats line prints, in ms.
 */
#ifndef TORTURE_CORE_ONOFF_STATS_H
#define TORTURE_CORE_ONOFF_STATS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct torture_run;

/* The kernel's onoff statistics, in ms (core/onoff_stats.c). */
struct onoff_stats {
	long online_attempts, online_successes;
	long offline_attempts, offline_successes;
	long min_online_ms, max_online_ms, min_offline_ms, max_offline_ms;
	unsigned long sum_online_ms, sum_offline_ms;
};

struct torture_onoff {
	pthread_mutex_t lock;
	struct onoff_stats stats;
};

void torture_onoff_init(struct torture_onoff *o);
/* Count one transition (online or offline) that took ns. */
void torture_onoff_account(struct torture_onoff *o, bool online, bool ok,
			   uint64_t ns);
void torture_onoff_read(struct torture_run *run, struct onoff_stats *out);

#endif /* TORTURE_CORE_ONOFF_STATS_H */
