/* SPDX-License-Identifier: MIT */
/*
 * Included first in the instrumented (-sb) builds of the liburcu adapters
 * (the Makefile's -include): liburcu 0.13's inlined read side written so
 * that ThreadSanitizer's instrumentation, and so the store-buffer
 * emulation, sees how it orders memory, as liburcu 0.14 compiles it with
 * CONFIG_RCU_USE_ATOMIC_BUILTINS.
 * - Its shared loads and stores (CMM_LOAD_SHARED, CMM_STORE_SHARED, and
 *   uatomic_read/uatomic_set on x86) are volatile accesses, which the
 *   instrumentation reports as plain ones: the emulation cannot hold a
 *   plain store back (the compiled code makes it).  As relaxed atomics
 *   they are the emulation's to buffer, as the CPU's store buffer does.
 * - Its fences are inline asm (mfence): the same full fence written as a
 *   builtin is an instrumented one, cmm_smp_mb() too (below).  The
 *   compiler-only barriers (cmm_smp_rmb, cmm_smp_wmb on x86) stay: TSO
 *   needs nothing more.
 */
#ifndef FLAVORS_URCU_STOREBUF_LIBURCU_H
#define FLAVORS_URCU_STOREBUF_LIBURCU_H

#include <urcu/arch.h>
#include <urcu/system.h>

#undef cmm_mb
#define cmm_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)

/*
 * liburcu 0.15.7 on: its x86 header defines cmm_smp_mb() as its own
 * "lock; addl" (faster than mfence), not as cmm_mb().  Unseen, the fence
 * after the seq_cst stores of its fix (CMM_SEQ_CST_FENCE) was missing to
 * the emulation, and --store-buffer-model arm failed the fixed library
 * ("early grace period" within 0.3 s).  Earlier versions reach cmm_mb().
 */
#undef cmm_smp_mb
#define cmm_smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)

#undef _CMM_LOAD_SHARED
#define _CMM_LOAD_SHARED(p) __atomic_load_n(&(p), __ATOMIC_RELAXED)

#undef _CMM_STORE_SHARED
#define _CMM_STORE_SHARED(x, v)                                  \
	__extension__({                                          \
		__typeof__(x) _sb_v = (v);                       \
		__atomic_store_n(&(x), _sb_v, __ATOMIC_RELAXED); \
		_sb_v;                                           \
	})

#endif /* FLAVORS_URCU_STOREBUF_LIBURCU_H */
