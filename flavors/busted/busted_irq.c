// SPDX-License-Identifier: MIT
/*
 * busted-irq: liburcu's urcu-memb that declares its read side
 * async-signal-safe, but whose read_lock protects nothing while the
 * thread is in a real-time signal's handler (it finds that signal
 * blocked): as if the author assumed no reader ever runs in a handler.
 * Thread readers are fine; only --irqreader's signal-handler readers see
 * too-short grace periods.  A negative control for --irqreader: a run
 * with it must FAIL, caught by the signal-handler reader.
 */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define URCU_FLAVOR memb
#include "../registry.h"
#include "../urcu/urcu_adapter.h"

#include <signal.h>

/* Whether a real-time signal is blocked: we are in its handler, say. */
static bool in_rt_handler(void)
{
	sigset_t set;

	if (pthread_sigmask(SIG_BLOCK, NULL, &set))
		return false;
	for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
		if (sigismember(&set, s))
			return true;
	return false;
}

/* The index says whether the section really holds urcu's read lock. */
static int busted_irq_read_lock(void)
{
	if (in_rt_handler())
		return 1;
	return ua_read_lock();
}

static void busted_irq_read_unlock(int idx)
{
	if (!idx)
		ua_read_unlock(idx);
}

#pragma GCC diagnostic ignored "-Woverride-init"
const struct rcut_flavor rcut_flavor_busted_irq = {
	URCU_ADAPTER_OPS.name = "busted-irq",
	.description =
		"negative control: urcu-memb whose readers in signal handlers hold nothing (--irqreader must FAIL)",
	.caps = RCUT_CAP_NESTING | RCUT_CAP_EXP_IS_SYNC |
		RCUT_CAP_READ_SIGNAL_SAFE,
	.read_lock = busted_irq_read_lock,
	.read_unlock = busted_irq_read_unlock,
};
