// SPDX-License-Identifier: MIT
/*
 * The writer (the kernel's rcu_torture_writer): publish a fresh element
 * with a release store, retire the old one to pipe stage 1, then age it one
 * stage per grace period, either synchronously (every removed element ages
 * after each synchronize) or asynchronously (a callback per grace period).
 */
#include "../core/gp.h"
#include "threads.h"

#define WRITER_MAX_DELAY_NS 1000000ULL /* random pause between updates */

/*
 * Put old on the removed list (elements retired on the synchronous path,
 * aged after every GP) and age every removed element one stage.
 */
static void pipe_update(struct torture_run *run, struct torture_elem **removed,
			struct torture_elem *old)
{
	struct torture_elem **pp = removed;

	old->next = *removed;
	*removed = old;
	while (*pp) {
		struct torture_elem *e = *pp, *next = e->next;

		if (torture_elem_age(run, e))
			*pp = next;
		else
			pp = &e->next;
	}
}

void torture_writer(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	struct torture_elem *removed = NULL;

	while (!torture_must_stop(run)) {
		struct torture_elem *e, *old;
		enum rcut_gp_kind kind;

		torture_progress();
		torture_cpu_checkpoint();
		torture_stutter_wait(t);
		torture_sleep_ns(run,
				 torture_random(&t->rand) %
					 (__atomic_load_n(&run->fast_gps,
							  __ATOMIC_RELAXED) ?
						  WRITER_MAX_DELAY_NS / 20 :
						  WRITER_MAX_DELAY_NS));
		e = torture_elem_alloc(run);
		if (!e)
			continue;
		old = atomic_exchange_explicit(&run->pool.current, e,
					       memory_order_acq_rel);
		counter_inc(&run->counters.ver);
		if (!old)
			continue;
		/* Stage 1: removed from readers' view. */
		torture_elem_age(run, old);
		torture_gp_cookie_check(run, &t->rand); /* readers block polled GPs */
		kind = torture_gp_pick(run, &t->rand, true);
		counter_inc(&run->counters.writer_gps[kind]);
		if (kind == RCUT_GP_NORMAL) {
			torture_elem_age_async(run, old);
		} else {
			torture_gp_wait(run, &t->rand, kind);
			pipe_update(run, &removed, old);
		}
	}
}
