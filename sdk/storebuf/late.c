// SPDX-License-Identifier: MIT
/*
 * Loads that pass a later store (--store-buffer-model arm): Armv8, unlike
 * x86, lets a load be satisfied after a store that follows it in program
 * order has become visible, unless a barrier, a release store or an
 * acquire between them orders the two.  A read_unlock() that takes a
 * reader out with a relaxed store and no barrier before it lets the
 * section's loads happen after the grace period saw the reader leave.
 *
 * The loads that matter are the harness's own, made before it calls
 * read_unlock() and not instrumented, so the emulation cannot hold them
 * back.  Instead the harness arms the calling thread before the
 * outermost read_unlock(): if the thread's first store after that is
 * weaker than release, and no fence, read-modify-write, release store,
 * plain write or libc synchronisation call came first, that store is made
 * visible at once (with the thread's earlier buffered stores, in order)
 * and the harness's callback runs right there, inside the store, to load
 * again what the section loaded: those loads are then as late as Arm
 * allows.  Anything else first disarms it without a call.
 *
 * How long such a load may stay late: until the thread orders its
 * accesses (a fence, a read-modify-write, a release store or a libc call,
 * its signal handlers' included) or any thread's membarrier(2), which
 * runs a full barrier on every running thread.  sb_late_order_count()
 * moves at each; the callback discards what it loaded if it moved since
 * the harness armed the thread (not since the callback began: a grace
 * period may see the store, membarrier and end before the callback
 * runs).
 */
#include "sb.h"

#include <stddef.h>

static __thread void (*armed_fn)(void *arg);
static __thread void *armed_arg;
static __thread uint64_t own_orders; /* this thread's ordering events */
static uint64_t membarriers;	     /* every thread's membarrier(2) */

int sb_late_arm(void (*fn)(void *arg), void *arg)
{
	if (fn &&
	    (!__atomic_load_n(&sb_active, __ATOMIC_RELAXED) ||
	     __atomic_load_n(&sb_model, __ATOMIC_RELAXED) != RCUT_STOREBUF_ARM))
		return -1;
	armed_arg = arg;
	__atomic_store_n(&armed_fn, fn, __ATOMIC_RELAXED);
	return 0;
}

void sb_late_order(void)
{
	__atomic_store_n(&armed_fn, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&own_orders, own_orders + 1, __ATOMIC_RELAXED);
}

/* A plain write happens after the hook returns: no store to make visible. */
void sb_late_plain_write(void)
{
	if (__builtin_expect(armed_fn != NULL, 0))
		__atomic_store_n(&armed_fn, NULL, __ATOMIC_RELAXED);
}

void sb_late_membarrier(void)
{
	__atomic_add_fetch(&membarriers, 1, __ATOMIC_SEQ_CST);
}

uint64_t sb_late_order_count(void)
{
	return __atomic_load_n(&membarriers, __ATOMIC_SEQ_CST) +
	       __atomic_load_n(&own_orders, __ATOMIC_RELAXED);
}

bool sb_late_store(volatile void *addr, unsigned int size, uint64_t val, int mo)
{
	void (*fn)(void *) = __atomic_load_n(&armed_fn, __ATOMIC_RELAXED);

	if (__builtin_expect(!fn, 1))
		return false;
	if ((mo & 0xffff) >= __ATOMIC_RELEASE) {
		sb_late_order();
		return false;
	}
	__atomic_store_n(&armed_fn, NULL, __ATOMIC_RELAXED);
	sb_flush_own(); /* the older stores first, but no barrier */
	sb_write_now(addr, size, val);
	fn(armed_arg);
	return true;
}
