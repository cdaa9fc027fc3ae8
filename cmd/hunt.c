// SPDX-License-Identifier: MIT
/*
 * The --hunt preset (hunt.h).  What it sets is listed in --help and in
 * rcutorture(1), "Hunting a bug in your RCU"; keep the three in step.
 */
#include "hunt.h"

#include "../torture/util/delay.h"
#include "../torture/config/options_table.h"

/* At most the stall rule's bound, so the preset never trips check_injection. */
static uint64_t bounded(uint64_t ns, const struct rcut_config *cfg)
{
	uint64_t bound = delay_stall_bound_ns(cfg->stall_timeout_ns);

	return ns < bound ? ns : bound;
}

void rcut_hunt_apply(struct rcut_config *cfg)
{
	cfg->swarm = true;
	if (!rcut_opt_given(cfg, "preempt-duration"))
		cfg->preempt_duration_ns =
			bounded(HUNT_PREEMPT_DURATION_NS, cfg);
	if (!rcut_opt_given(cfg, "preempt-interval"))
		cfg->preempt_interval_ns = HUNT_PREEMPT_INTERVAL_NS;
	if (!rcut_opt_given(cfg, "race-delay"))
		cfg->race_delay = HUNT_RACE_DELAY;
	if (!rcut_opt_given(cfg, "race-delay-max"))
		cfg->race_delay_max_ns = bounded(HUNT_RACE_DELAY_MAX_NS, cfg);
	if (!rcut_opt_given(cfg, "swarm-interval"))
		cfg->swarm_interval_ns = HUNT_SWARM_INTERVAL_NS;
	if (!rcut_opt_given(cfg, "store-buffer-delay"))
		cfg->store_buffer_delay_ns = HUNT_STORE_BUFFER_DELAY_NS;
	if (!rcut_opt_given(cfg, "auto-race"))
		cfg->auto_race = HUNT_AUTO_RACE;
}
