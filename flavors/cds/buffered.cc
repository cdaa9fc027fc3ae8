// SPDX-License-Identifier: MIT
// libcds's general_buffered URCU as a plugin (see cds_adapter.h).
#include <cds/urcu/general_buffered.h>

#include <cstdio>

namespace {
long capacity = 256;
}

#define CDS_RCU(B)                                     \
	cds::urcu::gc<cds::urcu::general_buffered<     \
		cds::container::VyukovMPMCCycleQueue<  \
			cds::urcu::epoch_retired_ptr>, \
		std::mutex, B>>
#define CDS_RCU_NEW(T) new T((size_t)capacity)
#include "cds_adapter.h"

namespace {

const struct rcut_param params[] = {
	{ "capacity",
	  "retired-pointer buffer capacity: a full buffer makes retire_ptr synchronize and free it (libcds's default: 256)",
	  RCUT_PARAM_INT, 2, 1048576, nullptr, &capacity },
	{ "flush_ms",
	  "milliseconds between the flush thread's synchronize calls while callbacks are pending",
	  RCUT_PARAM_INT, 1, 10000, nullptr, &flush_ms },
	{ "backoff",
	  "libcds's Backoff for grace-period waits: default (exponential: spin, then yield) or sleep (20 us)",
	  RCUT_PARAM_ENUM, 0, 0, backoff_names, &backoff },
	{ nullptr, nullptr, RCUT_PARAM_INT, 0, 0, nullptr, nullptr },
};

// libcds exposes the buffer's capacity; the rest is the adapter's.
void stats(FILE *out)
{
	std::fprintf(
		out,
		"cds-buffered: backoff %s capacity %zu retired %lu invoked %lu pending %ld flushes %lu barriers %lu\n",
		backoff_names[backoff], (size_t)capacity, posted.load(),
		invoked.load(), pending[0].load() + pending[1].load(),
		flushes.load(), barriers.load());
}

} // namespace

#define CDS_NAME "cds-buffered"
#define CDS_DESCRIPTION \
	"libcds 2.3 general_buffered URCU (C++ plugin): retired pointers freed when the buffer fills"
#define CDS_SB_DESCRIPTION "libcds 2.3 general_buffered URCU: frees when the buffer fills"
#define CDS_PARAMS params
extern "C" const struct rcut_flavor rcutorture_flavor = { CDS_ADAPTER_OPS };
