// SPDX-License-Identifier: MIT
/*
 * busted-crash: the busted flavor (no grace periods) whose call() touches
 * the callback head again after invoking it.  The harness poisons the
 * heads of a freed element, so the first element freed through a
 * callback makes this flavor jump through a poisoned pointer: a negative
 * control for the fatal-signal report (exit 5 with a backtrace).
 */
#include "../registry.h"

static int busted_crash_read_lock(void)
{
	return 0;
}

static void busted_crash_read_unlock(int idx)
{
	(void)idx;
}

static void busted_crash_synchronize(void)
{
}

static void busted_crash_call(struct rcut_head *head,
			      void (*func)(struct rcut_head *))
{
	head->func = func;
	func(head);
	/* A use after free: the head may belong to a freed element now. */
	head->func(head);
}

static void busted_crash_barrier(void)
{
}

const struct rcut_flavor rcut_flavor_busted_crash = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = "busted-crash",
	.description =
		"negative control: invokes freed callback heads (must crash: exit 5)",
	.caps = RCUT_CAP_NESTING,
	.read_lock = busted_crash_read_lock,
	.read_unlock = busted_crash_read_unlock,
	.synchronize = busted_crash_synchronize,
	.call = busted_crash_call,
	.barrier = busted_crash_barrier,
};
