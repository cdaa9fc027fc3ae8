// SPDX-License-Identifier: MIT
// libcds's signal_buffered URCU as a plugin (see cds_adapter.h).
#include <cds/urcu/signal_buffered.h>

#include <csignal>
#include <cstdio>

namespace {
long capacity = 256;
long signo = SIGUSR1;
} // namespace

#define CDS_RCU(B)                                     \
	cds::urcu::gc<cds::urcu::signal_buffered<      \
		cds::container::VyukovMPMCCycleQueue<  \
			cds::urcu::epoch_retired_ptr>, \
		std::mutex, B>>
#define CDS_RCU_NEW(T) new T((size_t)capacity, (int)signo)
#include "cds_adapter.h"

namespace {

const struct rcut_param params[] = {
	{ "capacity",
	  "retired-pointer buffer capacity: a full buffer makes retire_ptr synchronize and free it (libcds's default: 256)",
	  RCUT_PARAM_INT, 2, 1048576, nullptr, &capacity },
	{ "signal",
	  "the signal libcds sends readers for its memory barriers (libcds's default: SIGUSR1 = 10)",
	  RCUT_PARAM_INT, 1, 31, nullptr, &signo },
	{ "flush_ms",
	  "milliseconds between the flush thread's synchronize calls while callbacks are pending",
	  RCUT_PARAM_INT, 1, 10000, nullptr, &flush_ms },
	{ "backoff",
	  "libcds's Backoff for grace-period waits: default (exponential: spin, then yield) or sleep (20 us)",
	  RCUT_PARAM_ENUM, 0, 0, backoff_names, &backoff },
	{ nullptr, nullptr, RCUT_PARAM_INT, 0, 0, nullptr, nullptr },
};

// libcds exposes the buffer's capacity and its signal; the rest is ours.
void stats(FILE *out)
{
	std::fprintf(
		out,
		"cds-signal: backoff %s capacity %zu signal %d retired %lu invoked %lu pending %ld flushes %lu barriers %lu\n",
		backoff_names[backoff], (size_t)capacity, (int)signo,
		posted.load(), invoked.load(),
		pending[0].load() + pending[1].load(), flushes.load(),
		barriers.load());
}

} // namespace

#define CDS_NAME "cds-signal"
#define CDS_DESCRIPTION \
	"libcds 2.3 signal_buffered URCU (C++ plugin): signal-driven barriers, buffered frees"
#define CDS_SB_DESCRIPTION "libcds 2.3 signal_buffered URCU: signal-driven barriers, buffered frees"
#define CDS_PARAMS params
extern "C" const struct rcut_flavor rcutorture_flavor = { CDS_ADAPTER_OPS };
