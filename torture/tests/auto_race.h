/* SPDX-License-Identifier: MIT */
/*
 * Automatic race points (--auto-race, --auto-race-mode): the instrumented
 * plugin's library picks the accesses (sdk/storebuf/sched.c), the harness
 * delays them (inject.c).  Started before the threads run, and again by
 * each swarm draw that draws another mode.
 */
#ifndef TORTURE_AUTO_RACE_H
#define TORTURE_AUTO_RACE_H

#include "../config/config.h"

#include <stdint.h>

/*
 * Configure them from c (auto_race, auto_race_mode, race_delay_max_ns)
 * with seed; nothing for a plugin without them.  0, or -1 if the delays
 * could not be set up.
 */
int torture_auto_race_configure(const struct rcut_config *c, uint64_t seed);

#endif /* TORTURE_AUTO_RACE_H */
