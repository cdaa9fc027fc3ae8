// SPDX-License-Identifier: MIT
/*
 * Fake writers (the kernel's rcu_torture_fakewriter): random sleeps, then
 * a grace-period wait that touches no data, sometimes a barrier, so that
 * grace periods overlap and concurrent updaters share them.
 */
#include "gp.h"

#define FAKEWRITER_MAX_SLEEP_NS 10000000ULL /* 0-10 ms, like 0-9 jiffies */

void torture_fakewriter(struct torture_thread *t)
{
	const struct rcut_flavor *f = torture_flavor;
	uint64_t barrier_odds = (uint64_t)torture_cfg->nfakewriters * 8;

	while (!torture_must_stop()) {
		torture_sleep_ns(torture_random(&t->rand) %
				 FAKEWRITER_MAX_SLEEP_NS);
		torture_stutter_wait();
		if (torture_must_stop())
			break;
		if (f->barrier &&
		    torture_random(&t->rand) % barrier_odds == 0) {
			torture_op_begin("barrier");
			f->barrier();
			torture_op_end();
		} else
			torture_gp_wait(&t->rand,
					torture_gp_pick(&t->rand, false));
	}
}
