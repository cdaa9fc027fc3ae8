/* SPDX-License-Identifier: MIT */
/*
 * The flavor's stats hook, called with a time bound (core/flavor_stats.c):
 * the main thread prints the stats blocks and runs the stall watchdog, so
 * a hook that blocks (on a lock a hung thread holds) must not stop it.
 */
#ifndef TORTURE_CORE_FLAVOR_STATS_H
#define TORTURE_CORE_FLAVOR_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct rcut_flavor;

/*
 * The flavor's stats line: its stats hook's output, trailing newline
 * removed, called on a helper thread and waited for at most bound_ns.
 * Returns a malloc'd line (the caller frees it), or NULL when the flavor
 * has no hook.  A hook that did not return in time gets a line saying
 * so, once, and is never called again in this process (NULL after).
 */
char *torture_flavor_stats(const struct rcut_flavor *f, uint64_t bound_ns);

/* The helper thread's ID (0 before its first call), for backtraces. */
pid_t torture_flavor_stats_tid(void);

#endif /* TORTURE_CORE_FLAVOR_STATS_H */
