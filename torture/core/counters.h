/* SPDX-License-Identifier: MIT */
/*
 * The counters every thread adds to (the kernel's rtc, rta, rtbe, ...),
 * and the two ways of adding: owned (one writer) and shared.
 */
#ifndef TORTURE_CORE_COUNTERS_H
#define TORTURE_CORE_COUNTERS_H

#include "../config/config.h"
#include "../../report/snapshot.h"
#include <stdatomic.h>
#include <stdint.h>

/* Add to a counter only its owning thread writes: no locked instruction. */
static inline void counter_inc_owned(_Atomic uint64_t *c)
{
	atomic_store_explicit(c,
			      atomic_load_explicit(c, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/* Add to a counter several threads write. */
static inline void counter_inc(_Atomic uint64_t *c)
{
	atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}

/* --- counters shared by all threads (torture/stats.c) --- */
struct torture_counters {
	_Atomic uint64_t ver, rta, rtaf, rtf, rtmbe;
	_Atomic uint64_t mbchk_fail, mbchk_tries;
	_Atomic uint64_t rtbe, barrier_ok, barrier_attempts;
	_Atomic uint64_t barrier_ns_sum, barrier_ns_max; /* barrier test */
	_Atomic uint64_t read_exits;
	_Atomic uint64_t wcount[RCUT_HIST_LEN];
	_Atomic uint64_t sync_gps; /* GP waits completed by the harness */
	_Atomic uint64_t writer_gps[RCUT_GP_NKINDS]; /* writer's GP kinds */
	_Atomic uint64_t cbs_posted, cbs_invoked, cbs_early, cbs_dup;
	_Atomic uint64_t cbs_lost; /* reported by the lost-callback check */
	/* --exp-gp-bound: expedited waits timed, longer than the bound. */
	_Atomic uint64_t exp_timed, exp_over;
	atomic_bool exp_failed;
	_Atomic uint64_t failed_checks; /* torture_failure() reports */
	/* call() on a queued head: all, reported by the flavor, by us. */
	_Atomic uint64_t cbs_double, cbs_double_flavor, cbs_double_harness;
	_Atomic uint64_t irq_reads;  /* --irqreader: signal-handler reads */
	_Atomic uint64_t irq_nested; /* of them inside the reader's section */
	_Atomic uint64_t updown_downs, updown_ups; /* --n-up-down */
	_Atomic uint64_t migrations; /* threads moved off unusable CPUs */
	_Atomic uint64_t floods;     /* callback floods completed */
	/* Call-queue toggles: to a percpu/perthread layout, back to global. */
	_Atomic uint64_t nocb_offloads, nocb_deoffloads;
	/* --store-buffer-model arm: section loads made late (late_loads.c). */
	_Atomic uint64_t late_loads;
};

#endif /* TORTURE_CORE_COUNTERS_H */
