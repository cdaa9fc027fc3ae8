/* SPDX-License-Identifier: MIT */
/* --hunt: the preset we recommend for "find the bug in this RCU". */
#ifndef CMD_HUNT_H
#define CMD_HUNT_H

#include "../torture/config/config.h"

/* The preset's values (also the swarm draw's ceilings under --hunt). */
#define HUNT_PREEMPT_DURATION_NS 5000000ULL  /* 5 ms */
#define HUNT_PREEMPT_INTERVAL_NS 500000ULL   /* 0.5 ms */
#define HUNT_RACE_DELAY 20		     /* one race-point pass in 20 */
#define HUNT_RACE_DELAY_MAX_NS 2000000ULL    /* 2 ms */
#define HUNT_SWARM_INTERVAL_NS 1000000000ULL /* a new draw every 1 s */
/* Store-buffer emulation (instrumented plugins only; cmd/main.c). */
#define HUNT_STORE_BUFFER_DELAY_NS 200000ULL /* 0.2 ms */
/* An instrumented plugin: an automatic race point at one access in 500. */
#define HUNT_AUTO_RACE 500

/*
 * Apply --hunt to cfg: --swarm, and the preset's preemption and race
 * delays and a new swarm draw every second, for each of those options
 * not given explicitly (cfg->given).
 * The reader count (two per simulated CPU, at least 4, unless
 * --nreaders) is resolved when the run knows its CPUs.  Delays are kept
 * within the stall rule's bound of the run's --stall-timeout.
 */
void rcut_hunt_apply(struct rcut_config *cfg);

#endif /* CMD_HUNT_H */
