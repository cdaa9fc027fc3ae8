/* SPDX-License-Identifier: MIT */
/*
 * The lost-wakeup check (core/lostwake.c, issue 46): a grace period
 * asleep in FUTEX_WAIT on the flavor's wakeup word (gp_wait_word, flavor
 * ABI 4) from one look to the next without waking, while every thread it
 * could be waiting for left the section it was in or went offline in
 * between (holds.h) and every thread the harness does not track slept
 * through, was owed a wakeup that nobody gave.  Judged by sleeps and
 * holds, never by time: a woken grace period is runnable, not asleep, at
 * the second look, however busy the machine.
 */
#ifndef TORTURE_CORE_LOSTWAKE_H
#define TORTURE_CORE_LOSTWAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct torture_run;

#define LOSTWAKE_LOOK_NS 100000000ULL /* between two looks */
/*
 * --hunt's: a wakeup lost while every reader is parked for a 20 ms quiet
 * spell lasts only until the first unlock after it (urcu-mb), so the two
 * looks must fit inside the spell.  Soundness does not depend on it.
 */
#define LOSTWAKE_HUNT_LOOK_NS 5000000ULL

/* Whether the run's flavor and options let the check look at all. */
bool torture_lost_wakeup_possible(const struct torture_run *run);

/*
 * Look again if LOSTWAKE_LOOK_NS (--hunt: LOSTWAKE_HUNT_LOOK_NS) passed
 * since the last look, whether it found a sleeper or not (main thread
 * only); true, with what filled, on a lost wakeup.
 */
bool torture_lost_wakeup_look(struct torture_run *run, uint64_t now, char *what,
			      size_t len);

#endif /* TORTURE_CORE_LOSTWAKE_H */
