// SPDX-License-Identifier: MIT
/*
 * busted-toggle: liburcu's urcu-memb whose call-queue toggling loses
 * callbacks, a negative control for --nocbs-nthreads.  Outside the
 * global layout, call() parks callbacks on the flavor's own "offload"
 * list, to be handed to liburcu at the next switch; the bug: a switch
 * drops that list instead (a de-offload that forgets the offloaded
 * callbacks).  Every run with toggling must FAIL (lost callbacks).
 */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define URCU_FLAVOR memb
#include "../registry.h"
#include "../urcu/urcu_adapter.h"

#define PARKED_NEXT(h) (*(struct rcut_head **)&(h)->flavor_priv[0])

static pthread_mutex_t park_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rcut_head *parked; /* the offload list */

static void busted_toggle_call(struct rcut_head *head,
			       void (*func)(struct rcut_head *))
{
	if (atomic_load(&ua_call_mode) == RCUT_CALL_GLOBAL) {
		ua_call(head, func);
		return;
	}
	head->func = func;
	pthread_mutex_lock(&park_lock);
	PARKED_NEXT(head) = parked;
	parked = head;
	pthread_mutex_unlock(&park_lock);
}

/* The bug: the parked callbacks are dropped, not handed to liburcu. */
static int busted_toggle_switch(enum rcut_call_mode mode)
{
	pthread_mutex_lock(&park_lock);
	parked = NULL;
	pthread_mutex_unlock(&park_lock);
	return ua_switch_call_mode(mode);
}

/* The shared adapter hooks, with .call and the switch replaced. */
#pragma GCC diagnostic ignored "-Woverride-init"
const struct rcut_flavor rcut_flavor_busted_toggle = {
	URCU_ADAPTER_OPS.name = "busted-toggle",
	.description =
		"negative control: urcu-memb whose call-queue toggling drops the offloaded callbacks (must FAIL)",
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_EXP_IS_SYNC,
	.call = busted_toggle_call,
	.switch_call_mode = busted_toggle_switch,
};
