// SPDX-License-Identifier: MIT
/*
 * The calls an instrumented plugin exports for the harness
 * (<rcutorture/storebuf.h>), found with dlsym() when it is loaded: the
 * store-buffer emulation's and the automatic race points'.
 */
#include "sb.h"

__attribute__((visibility("default"))) void
rcut_storebuf_configure(uint64_t seed, uint64_t max_delay_ns);
__attribute__((visibility("default"))) void
rcut_storebuf_stats(struct rcut_storebuf_stats *out);
__attribute__((visibility("default"))) void
rcut_storebuf_model(enum rcut_storebuf_model model);
__attribute__((visibility("default"))) void
rcut_sched_configure(const struct rcut_sched_params *p);
__attribute__((visibility("default"))) void
rcut_sched_stats(struct rcut_sched_stats *out);

__attribute__((visibility("default"))) int
rcut_storebuf_late_loads(void (*fn)(void *arg), void *arg);
__attribute__((visibility("default"))) uint64_t rcut_storebuf_order_count(void);

int rcut_storebuf_late_loads(void (*fn)(void *arg), void *arg)
{
	return sb_late_arm(fn, arg);
}

uint64_t rcut_storebuf_order_count(void)
{
	return sb_late_order_count();
}

void rcut_sched_configure(const struct rcut_sched_params *p)
{
	sb_sched_configure(p);
}

void rcut_sched_stats(struct rcut_sched_stats *out)
{
	sb_sched_sum(out);
}

void rcut_storebuf_model(enum rcut_storebuf_model model)
{
	__atomic_store_n(&sb_model, (int)model, __ATOMIC_RELAXED);
}

void rcut_storebuf_configure(uint64_t seed, uint64_t max_delay_ns)
{
	if (max_delay_ns)
		sb_hook_libraries();
	sb_configure(seed, max_delay_ns, true);
}

void rcut_storebuf_stats(struct rcut_storebuf_stats *out)
{
	sb_sum(out);
}
