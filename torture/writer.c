// SPDX-License-Identifier: MIT
/*
 * The writer (the kernel's rcu_torture_writer): publish a fresh element
 * with a release store, retire the old one to pipe stage 1, then age it one
 * stage per grace period, either synchronously (every removed element ages
 * after each synchronize) or asynchronously (a callback per grace period).
 */
#include "gp.h"

#define WRITER_MAX_DELAY_NS 1000000ULL /* random pause between updates */

/* Elements retired on the synchronous path, aged after every GP. */
static struct torture_elem *removed;

/* Put old on the removed list and age every removed element one stage. */
static void pipe_update(struct torture_elem *old)
{
	struct torture_elem **pp = &removed;

	old->next = removed;
	removed = old;
	while (*pp) {
		struct torture_elem *e = *pp, *next = e->next;

		if (torture_elem_age(e))
			*pp = next;
		else
			pp = &e->next;
	}
}

void torture_writer(struct torture_thread *t)
{
	while (!torture_must_stop()) {
		struct torture_elem *e, *old;
		enum rcut_gp_kind kind;

		torture_progress();
		torture_cpu_checkpoint();
		torture_stutter_wait();
		torture_sleep_ns(torture_random(&t->rand) %
				 WRITER_MAX_DELAY_NS);
		e = torture_elem_alloc();
		if (!e)
			continue;
		old = atomic_exchange_explicit(&torture_current, e,
					       memory_order_acq_rel);
		counter_inc(&torture_counters.ver);
		if (!old)
			continue;
		torture_elem_age(old); /* stage 1: removed from readers' view */
		kind = torture_gp_pick(&t->rand, true);
		counter_inc(&torture_counters.writer_gps[kind]);
		if (kind == RCUT_GP_NORMAL) {
			torture_elem_age_async(old);
		} else {
			torture_gp_wait(&t->rand, kind);
			pipe_update(old);
		}
	}
}
