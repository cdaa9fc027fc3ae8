// SPDX-License-Identifier: MIT
/*
 * The kernel's rcu_busted: synchronize returns at once and call invokes the
 * callback at once.  A negative control: every run with it must FAIL.
 */
#include "../registry.h"

static int busted_read_lock(void)
{
	return 0;
}

static void busted_read_unlock(int idx)
{
	(void)idx;
}

static void busted_synchronize(void)
{
}

static void busted_call(struct rcut_head *head,
			void (*func)(struct rcut_head *))
{
	head->func = func;
	func(head);
}

static void busted_barrier(void)
{
}

const struct rcut_flavor rcut_flavor_busted = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = "busted",
	.description = "negative control: no grace periods at all (must FAIL)",
	/* Its read side does nothing at all: safe anywhere. */
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_READ_SIGNAL_SAFE,
	.read_lock = busted_read_lock,
	.read_unlock = busted_read_unlock,
	.synchronize = busted_synchronize,
	.synchronize_expedited = busted_synchronize,
	.call = busted_call,
	.barrier = busted_barrier,
};
