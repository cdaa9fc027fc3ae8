// SPDX-License-Identifier: MIT
/*
 * Fake writers (the kernel's rcu_torture_fakewriter): random sleeps, then
 * a grace-period wait that touches no data, sometimes a barrier, so that
 * grace periods overlap and concurrent updaters share them.
 */
#include "../core/gp.h"
#include "threads.h"

#define FAKEWRITER_MAX_SLEEP_NS 10000000ULL /* 0-10 ms, like 0-9 jiffies */

void torture_fakewriter(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	uint64_t barrier_odds = (uint64_t)run->nfakewriters * 8;

	while (!torture_must_stop(run)) {
		torture_sleep_ns(
			run, torture_random(&t->rand) %
				     (__atomic_load_n(&run->fast_gps,
						      __ATOMIC_RELAXED) ?
					      FAKEWRITER_MAX_SLEEP_NS / 100 :
					      FAKEWRITER_MAX_SLEEP_NS));
		torture_stutter_wait(t);
		if (torture_must_stop(run))
			break;
		/* A barrier now and then, or when the lost-callback check
		 * asks for one. */
		if (f->barrier &&
		    (torture_lostcb_take_request(run) ||
		     torture_random(&t->rand) % barrier_odds == 0))
			torture_lostcb_barrier(run, "barrier");
		else
			torture_gp_wait(run, &t->rand,
					torture_gp_pick(run, &t->rand, false));
	}
}
