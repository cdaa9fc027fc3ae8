// SPDX-License-Identifier: MIT
/*
 * Automatic race points (auto_race.h).  PCT redraws priorities every N
 * microseconds, with PCT's depth 3 (two change points an epoch): most
 * concurrency bugs have depth 1 or 2.
 */
#include "auto_race.h"

#include "../core/inject.h"
#include "../../flavors/plugin.h"

int torture_auto_race_configure(const struct rcut_config *c, uint64_t seed)
{
	const struct rcut_storebuf_ops *sb = rcut_plugin_storebuf();
	struct rcut_sched_params p = {
		.mode = c->auto_race_mode ? RCUT_SCHED_PCT : RCUT_SCHED_UNIFORM,
		.rate = (uint64_t)c->auto_race,
		.depth = 3,
		.epoch_ns = (uint64_t)c->auto_race * 1000,
		.seed = seed,
	};

	if (!c->auto_race || !sb || !sb->sched_configure)
		return 0;
	if (inject_auto_configure(c->race_delay_max_ns, seed))
		return -1;
	sb->sched_configure(&p);
	return 0;
}
