// SPDX-License-Identifier: MIT
/*
 * busted-hotplug: liburcu's urcu-memb whose CPU-offline hook fails every
 * other time, as a CPU that refuses to go offline.  A negative control for
 * the onoff accounting: with --onoff-interval the run must end RCU_HOTPLUG
 * (exit 3), and nothing else may fail.
 */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define URCU_FLAVOR memb
#include "../registry.h"
#include "../urcu/urcu_adapter.h"

static atomic_uint offline_calls;

static int busted_hotplug_cpu_offline(int cpu)
{
	if (atomic_fetch_add(&offline_calls, 1) % 2)
		return -1;
	return ua_cpu_offline(cpu);
}

/* The shared adapter hooks, with the failing offline hook replacing one. */
#pragma GCC diagnostic ignored "-Woverride-init"
const struct rcut_flavor rcut_flavor_busted_hotplug = {
	URCU_ADAPTER_OPS.name = "busted-hotplug",
	.description =
		"negative control: urcu-memb whose CPU offline fails every other time (must end RCU_HOTPLUG)",
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_EXP_IS_SYNC,
	.cpu_offline = busted_hotplug_cpu_offline,
};
