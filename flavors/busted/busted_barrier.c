// SPDX-License-Identifier: MIT
/*
 * busted-barrier: liburcu's urcu-memb whose barrier returns at once,
 * before the callbacks queued ahead of it ran.  A negative control for
 * the barrier test: runs with --n-barrier-cbs must FAIL with rtbe > 0.
 */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define URCU_FLAVOR memb
#include "../registry.h"
#include "../urcu/urcu_adapter.h"

static void busted_barrier_barrier(void)
{
}

/* The shared adapter hooks, with the broken barrier replacing one. */
#pragma GCC diagnostic ignored "-Woverride-init"
const struct rcut_flavor rcut_flavor_busted_barrier = {
	URCU_ADAPTER_OPS.name = "busted-barrier",
	.description =
		"negative control: urcu-memb whose barrier does not wait (must FAIL with rtbe)",
	/* urcu-memb's read side: signal-safe, as memb.c says. */
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_EXP_IS_SYNC | RCUT_CAP_READ_SIGNAL_SAFE,
	.barrier = busted_barrier_barrier,
};
