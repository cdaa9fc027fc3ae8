// SPDX-License-Identifier: MIT
/* liburcu's urcu-memb flavor (sys_membarrier readers), read side inlined. */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#include "registry.h"
#include "urcu_common.h"

URCU_ADAPTER_GP_SEQ(memb)

static int memb_read_lock(void)
{
	urcu_memb_read_lock();
	return 0;
}

static void memb_read_unlock(int idx)
{
	(void)idx;
	urcu_memb_read_unlock();
}

static void memb_synchronize(void)
{
	unsigned long started = memb_get_gp_seq();

	urcu_memb_synchronize_rcu();
	memb_gp_completed(started);
}

static void memb_call(struct rcut_head *head, void (*func)(struct rcut_head *))
{
	head->func = func;
	urcu_memb_call_rcu((struct rcu_head *)(void *)head,
			   urcu_adapter_invoke);
}

static void memb_ref_loop(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		urcu_memb_read_lock();
		urcu_memb_read_unlock();
	}
}

const struct rcut_flavor rcut_flavor_memb = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = "memb",
	.description = "liburcu urcu-memb: sys_membarrier-based readers",
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING,
	.register_thread = urcu_memb_register_thread,
	.unregister_thread = urcu_memb_unregister_thread,
	.read_lock = memb_read_lock,
	.read_unlock = memb_read_unlock,
	.synchronize = memb_synchronize,
	.call = memb_call,
	.barrier = urcu_memb_barrier,
	.get_gp_seq = memb_get_gp_seq,
	.ref_loop = memb_ref_loop,
};
