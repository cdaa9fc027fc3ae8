/* SPDX-License-Identifier: MIT */
/*
 * Pieces every liburcu adapter shares.  Included once per adapter file,
 * after that file's single liburcu flavor header (liburcu's headers must
 * not be mixed in one translation unit).
 */
#ifndef FLAVORS_URCU_COMMON_H
#define FLAVORS_URCU_COMMON_H

#include <rcutorture/flavor.h>
#include <stdatomic.h>

_Static_assert(sizeof(struct rcu_head) <=
		       sizeof(((struct rcut_head *)0)->flavor_priv),
	       "liburcu's rcu_head must fit in rcut_head.flavor_priv");

/* liburcu hands back its own rcu_head; find the harness's head around it. */
static inline struct rcut_head *urcu_to_rcut_head(struct rcu_head *h)
{
	return (struct rcut_head *)(void *)h;
}

/* Trampoline from liburcu's callback signature to the harness's. */
static void urcu_adapter_invoke(struct rcu_head *h)
{
	struct rcut_head *rh = urcu_to_rcut_head(h);

	rh->func(rh);
}

/*
 * liburcu 0.13 exports no grace-period counter, so each adapter keeps one:
 * a synchronize call that sampled the counter at s before it began moves
 * it to at least s + 1 when it returns.  Concurrent callers that share one
 * grace period therefore advance it once, and a reader that sees it move
 * by two or more overlapped a grace period that began and ended inside its
 * section (Reader Batch >= 2).
 */
#define URCU_ADAPTER_GP_SEQ(prefix)                                          \
	static atomic_ulong prefix##_gp_seq;                                 \
	static unsigned long prefix##_get_gp_seq(void)                       \
	{                                                                    \
		return atomic_load_explicit(&prefix##_gp_seq,                \
					    memory_order_acquire);           \
	}                                                                    \
	static void prefix##_gp_completed(unsigned long started)             \
	{                                                                    \
		unsigned long cur = prefix##_get_gp_seq();                   \
		while (cur < started + 1 &&                                  \
		       !atomic_compare_exchange_weak(&prefix##_gp_seq, &cur, \
						     started + 1))           \
			;                                                    \
	}

#endif /* FLAVORS_URCU_COMMON_H */
