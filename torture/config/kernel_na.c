// SPDX-License-Identifier: MIT
/* The kernel parameters that do not apply here, and why (kernel_na.h). */
#include "kernel_na.h"

#include <string.h>

#define FQS "no flavor has a force-quiescent-state operation to call in bursts"
#define BOOST \
	"priority boosting needs kernel RCU's boost kthreads; no userspace flavor boosts"
#define KFREE "kfree_rcu() is a kernel allocator interface no userspace RCU has"
#define SLEEP "it throttles a VM console; standard output needs no throttling"

static const struct {
	const char *name, *why;
} na[] = {
	{ "rcutorture.fqs_duration", FQS },
	{ "rcutorture.fqs_holdoff", FQS },
	{ "rcutorture.fqs_stutter", FQS },
	{ "rcutorture.leakpointer",
	  "it provokes lockdep and KCSAN splats on purpose; the busted flavors are the deliberate failures here" },
	{ "rcutorture.stall_cpu_irqsoff",
	  "userspace cannot disable interrupts; the spinning stall is the closest" },
	{ "rcutorture.stall_cpu_repeat",
	  "a stall ends the run with status 4, so there is no second one" },
	{ "rcutorture.stall_no_softlockup",
	  "there is no soft-lockup detector in userspace" },
	{ "rcutorture.test_boost", BOOST },
	{ "rcutorture.test_boost_duration", BOOST },
	{ "rcutorture.test_boost_holdoff", BOOST },
	{ "rcutorture.test_boost_interval", BOOST },
	{ "rcutorture.test_nmis", "NMIs and dump_cpu_task() are kernel-only" },
	{ "rcutorture.test_srcu_lockdep",
	  "it tests lockdep's SRCU deadlock detection, which userspace lacks" },
	{ "torture.ftrace_dump_at_shutdown",
	  "there is no ftrace buffer; failures print their state at once" },
	{ "torture.verbose_sleep_duration", SLEEP },
	{ "torture.verbose_sleep_frequency", SLEEP },
	{ "rcuscale.kfree_alloc_num", KFREE },
	{ "rcuscale.kfree_by_call_rcu", KFREE },
	{ "rcuscale.kfree_loops", KFREE },
	{ "rcuscale.kfree_mult", KFREE },
	{ "rcuscale.kfree_nthreads", KFREE },
	{ "rcuscale.kfree_rcu_test", KFREE },
	{ "rcuscale.kfree_rcu_test_double", KFREE },
	{ "rcuscale.kfree_rcu_test_single", KFREE },
	{ "refscale.guest_os_delay",
	  "it pads warm-up for guest OSes sharing a host; there is no guest" },
	{ "refscale.lookup_instances",
	  "the SLAB_TYPESAFE_BY_RCU lookups need the kernel's slab allocator" },
	{ "refscale.verbose_batched",
	  "it batches console output for slow VM consoles" },
};

const char *rcut_kernel_na_reason(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(na) / sizeof(na[0]); i++)
		if (strlen(na[i].name) == len &&
		    !strncmp(name, na[i].name, len))
			return na[i].why;
	return NULL;
}
