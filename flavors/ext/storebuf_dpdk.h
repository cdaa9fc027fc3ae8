/* SPDX-License-Identifier: MIT */
/*
 * Included first (after rte_config.h) in the instrumented (-sb) build of
 * the DPDK adapter, dpdk-qsbr-sb: DPDK 22.11's x86 rte_atomic_thread_fence
 * makes its full fence with inline asm (a locked add below the stack
 * pointer), which ThreadSanitizer's instrumentation, and so the
 * store-buffer emulation, cannot see.  rte_rcu_qsbr_thread_online()
 * orders its counter store before the caller's reads with exactly that
 * fence; unseen, the emulation would hold the store past it.  The
 * header's definition is renamed out of the way and every later use is
 * the same fence written as a builtin.  DPDK's other shared accesses are
 * __atomic builtins already, which the instrumentation sees.
 */
#ifndef FLAVORS_EXT_STOREBUF_DPDK_H
#define FLAVORS_EXT_STOREBUF_DPDK_H

#define rte_atomic_thread_fence rte_atomic_thread_fence_asm
#include <rte_atomic.h>
#undef rte_atomic_thread_fence
#define rte_atomic_thread_fence(memorder) __atomic_thread_fence(memorder)

#endif /* FLAVORS_EXT_STOREBUF_DPDK_H */
