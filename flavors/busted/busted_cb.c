// SPDX-License-Identifier: MIT
/*
 * busted-cb: liburcu's urcu-memb with a broken call(), a negative control
 * for the harness's callback accounting.  One callback in busted-cb.every
 * is invoked before any grace period (fault=early), invoked twice
 * (fault=twice), never invoked (fault=lose) or held back until the
 * flavor's cleanup, after the report (fault=late: the harness must not
 * have freed what such a callback uses).  Every run must FAIL.
 */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define URCU_FLAVOR memb
#include "../registry.h"
#include "../urcu/urcu_adapter.h"

#include <pthread.h>

enum { FAULT_EARLY, FAULT_TWICE, FAULT_LOSE, FAULT_LATE };

static const char *const fault_names[] = { "early", "twice", "lose", "late",
					   NULL };
static long fault = FAULT_EARLY;
static long every = 16;
static atomic_ulong ncalls;

static const struct rcut_param busted_cb_params[] = {
	{ "fault", "how call() is broken: early, twice, lose or late",
	  RCUT_PARAM_ENUM, 0, 0, fault_names, &fault },
	{ "every", "break one callback in this many", RCUT_PARAM_INT, 1,
	  1000000, NULL, &every },
	{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
};

/* liburcu's callback, invoking the harness's callback twice. */
static void invoke_twice(struct rcu_head *h)
{
	struct rcut_head *rh = (struct rcut_head *)(void *)h;
	void (*func)(struct rcut_head *) = rh->func;

	func(rh);
	func(rh);
}

/* fault=late: the held-back callbacks, invoked at cleanup. */
static pthread_mutex_t late_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rcut_head *late_heads;

static void busted_cb_cleanup(void)
{
	struct rcut_head *h;

	pthread_mutex_lock(&late_lock);
	h = late_heads;
	late_heads = NULL;
	pthread_mutex_unlock(&late_lock);
	while (h) {
		struct rcut_head *next = h->flavor_priv[0];

		h->func(h);
		h = next;
	}
}

static void busted_cb_call(struct rcut_head *head,
			   void (*func)(struct rcut_head *))
{
	if (atomic_fetch_add(&ncalls, 1) % (unsigned long)every != 0) {
		ua_call(head, func);
		return;
	}
	head->func = func;
	switch (fault) {
	case FAULT_EARLY:
		func(head);
		break;
	case FAULT_TWICE:
		urcu_memb_call_rcu((struct rcu_head *)(void *)head,
				   invoke_twice);
		break;
	case FAULT_LOSE:
		break;
	case FAULT_LATE:
		pthread_mutex_lock(&late_lock);
		head->flavor_priv[0] = late_heads;
		late_heads = head;
		pthread_mutex_unlock(&late_lock);
		break;
	}
}

/* The shared adapter hooks, with .call replaced by the broken one. */
#pragma GCC diagnostic ignored "-Woverride-init"
const struct rcut_flavor rcut_flavor_busted_cb = {
	URCU_ADAPTER_OPS.name = "busted-cb",
	.description =
		"negative control: urcu-memb whose call() is broken (must FAIL)",
	/* urcu-memb's read side: signal-safe, as memb.c says. */
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_EXP_IS_SYNC | RCUT_CAP_READ_SIGNAL_SAFE,
	.params = busted_cb_params,
	.call = busted_cb_call,
	.cleanup = busted_cb_cleanup,
};
