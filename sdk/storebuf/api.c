// SPDX-License-Identifier: MIT
/*
 * The two calls an instrumented plugin exports for the harness
 * (<rcutorture/storebuf.h>), found with dlsym() when it is loaded.
 */
#include "sb.h"

__attribute__((visibility("default"))) void
rcut_storebuf_configure(uint64_t seed, uint64_t max_delay_ns);
__attribute__((visibility("default"))) void
rcut_storebuf_stats(struct rcut_storebuf_stats *out);
__attribute__((visibility("default"))) void
rcut_storebuf_model(enum rcut_storebuf_model model);

void rcut_storebuf_model(enum rcut_storebuf_model model)
{
	__atomic_store_n(&sb_model, (int)model, __ATOMIC_RELAXED);
}

void rcut_storebuf_configure(uint64_t seed, uint64_t max_delay_ns)
{
	sb_configure(seed, max_delay_ns, true);
}

void rcut_storebuf_stats(struct rcut_storebuf_stats *out)
{
	sb_sum(out);
}
