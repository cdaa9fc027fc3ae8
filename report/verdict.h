/* SPDX-License-Identifier: MIT */
/* Judging a run from its counters, with the kernel's rules. */
#ifndef REPORT_VERDICT_H
#define REPORT_VERDICT_H

#include "snapshot.h"

#include <stddef.h>

/* Exit statuses (DESIGN §6); also the verdict of a run. */
enum rcut_exit {
	RCUT_EXIT_SUCCESS = 0,
	RCUT_EXIT_FAILURE = 1,
	RCUT_EXIT_USAGE = 2,
	RCUT_EXIT_HOTPLUG = 3,
	RCUT_EXIT_STALL = 4,
	RCUT_EXIT_INTERNAL = 5,
};

/*
 * The kernel's "!!!" condition: a reader saw pipe stage >= 2, an element
 * marked free (rtmbe), a memory-barrier check failed, a barrier returned
 * early, or a callback was lost.  Writes the causes, comma-separated, to
 * why (if not NULL).  Returns true if the snapshot shows a failure.
 */
bool rcut_snapshot_failed(const struct rcut_snapshot *s, char *why, size_t len);

/* Whether a CPU online or offline attempt failed (RCU_HOTPLUG). */
bool rcut_snapshot_hotplug_failed(const struct rcut_snapshot *s);

/* "SUCCESS", "FAILURE", "RCU_HOTPLUG", "STALL", ... for an exit status. */
const char *rcut_exit_name(enum rcut_exit status);

#endif /* REPORT_VERDICT_H */
