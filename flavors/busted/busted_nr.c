// SPDX-License-Identifier: MIT
/*
 * busted-nr: liburcu's urcu-qsbr whose quiescent_state() reports a
 * quiescent state only if the thread slept since its last one (a
 * voluntary context switch, as getrusage() counts them), the way RCU
 * Tasks counts only voluntary context switches.  Going offline still
 * counts.  A thread that loops through read-side sections and yields
 * (sched_yield() is an involuntary switch) without ever sleeping then
 * holds up every grace period: a negative control for the need_resched
 * forward-progress test (--fwd-progress-need-resched, the kernel's
 * rcu_torture_fwd_prog_nr), which must FAIL on it.  The harness's
 * readers go offline or sleep now and then, so a run without that test
 * sees slow grace periods, but grace periods.
 */
#define _GNU_SOURCE
#define _LGPL_SOURCE
#include <urcu/urcu-qsbr.h>

#define URCU_FLAVOR qsbr
#define URCU_ADAPTER_QSBR
#include "../registry.h"
#include "../urcu/urcu_adapter.h"

#include <sys/resource.h>

static __thread long nr_last_nvcsw = -1;

/* Whether this thread slept since the last call (the first call: yes). */
static bool nr_slept(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return true;
	if (ru.ru_nvcsw == nr_last_nvcsw)
		return false;
	nr_last_nvcsw = ru.ru_nvcsw;
	return true;
}

/* The bug: a thread that only ran or yielded reports nothing. */
static void busted_nr_quiescent_state(void)
{
	if (nr_slept())
		urcu_qsbr_quiescent_state();
}

#pragma GCC diagnostic ignored "-Woverride-init"
const struct rcut_flavor rcut_flavor_busted_nr = {
	URCU_ADAPTER_OPS.name = "busted-nr",
	.description =
		"negative control: urcu-qsbr counting quiescent states only after a sleep (--fwd-progress-need-resched must FAIL)",
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING | RCUT_CAP_QSBR |
		RCUT_CAP_EXP_IS_SYNC,
	.quiescent_state = busted_nr_quiescent_state,
};
