// SPDX-License-Identifier: MIT
// libcds's general_instant URCU as a plugin (see cds_adapter.h).
#include <cds/urcu/general_instant.h>

#include <cstdio>

#define CDS_RCU(B) cds::urcu::gc<cds::urcu::general_instant<std::mutex, B>>
#define CDS_RCU_NEW(T) new T()
#include "cds_adapter.h"

namespace {

const struct rcut_param params[] = {
	{ "flush_ms",
	  "milliseconds between the flush thread's synchronize calls while callbacks are pending (instant runs them in retire_ptr)",
	  RCUT_PARAM_INT, 1, 10000, nullptr, &flush_ms },
	{ "backoff",
	  "libcds's Backoff for grace-period waits: default (exponential: spin, then yield) or sleep (20 us)",
	  RCUT_PARAM_ENUM, 0, 0, backoff_names, &backoff },
	{ nullptr, nullptr, RCUT_PARAM_INT, 0, 0, nullptr, nullptr },
};

// libcds exposes no counters for general_instant: the adapter's.
void stats(FILE *out)
{
	std::fprintf(
		out,
		"cds-instant: backoff %s retired %lu invoked %lu pending %ld flushes %lu barriers %lu\n",
		backoff_names[backoff], posted.load(), invoked.load(),
		pending[0].load() + pending[1].load(), flushes.load(),
		barriers.load());
}

} // namespace

#define CDS_NAME "cds-instant"
#define CDS_DESCRIPTION \
	"libcds 2.3 general_instant URCU (C++ plugin): retire_ptr waits for a grace period"
#define CDS_SB_DESCRIPTION "libcds 2.3 general_instant URCU: retire_ptr waits for a grace period"
#define CDS_PARAMS params
extern "C" const struct rcut_flavor rcutorture_flavor = { CDS_ADAPTER_OPS };
