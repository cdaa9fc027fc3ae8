// SPDX-License-Identifier: MIT
/*
 * The ThreadSanitizer entry points that gcc and clang call from code built
 * with -fsanitize=thread, defined here instead of by the TSan runtime: the
 * atomic ones go to the store-buffer emulation (buffer.c), the plain ones
 * only keep plain accesses ordered with the thread's buffered stores.
 *
 * The list is the union of what gcc 12's libtsan and clang 14's runtime
 * define for compiled code (1 to 16-byte reads and writes, aligned,
 * unaligned and with a pc; ranges; C++ vptr accesses; function entry and
 * exit; 8- to 128-bit atomics and the two fences), plus the forms newer
 * clang emits (volatile, compound read-write, memcpy/memset/memmove).
 * Atomics follow x86: a seq_cst store is a store then a full fence, every
 * read-modify-write a locked instruction that drains the store buffer
 * first, a fence other than seq_cst nothing.  16-byte atomics are not
 * buffered: they drain and then run under one lock.  Every access and
 * fence is first a possible automatic race point (sched.c).
 */
#include "sb.h"

#include <string.h>

#define VIS __attribute__((visibility("hidden")))
#define SC __ATOMIC_SEQ_CST

typedef unsigned __int128 u128;

/* Every access with the same body, for sizes 1, 2, 4, 8, 16. */
#define PLAIN(NAME, FN, N)                           \
	VIS void NAME##N(void *addr);                \
	VIS void NAME##N(void *addr)                 \
	{                                            \
		sb_sched_point();                    \
		FN(addr, N);                         \
	}                                            \
	VIS void NAME##N##_pc(void *addr, void *pc); \
	VIS void NAME##N##_pc(void *addr, void *pc)  \
	{                                            \
		(void)pc;                            \
		sb_sched_point();                    \
		FN(addr, N);                         \
	}
#define PLAIN_ALL(NAME, FN) \
	PLAIN(NAME, FN, 1)  \
	PLAIN(NAME, FN, 2)  \
	PLAIN(NAME, FN, 4)  \
	PLAIN(NAME, FN, 8)  \
	PLAIN(NAME, FN, 16)

PLAIN_ALL(__tsan_read, sb_plain_read)
PLAIN_ALL(__tsan_write, sb_plain_write)
PLAIN_ALL(__tsan_unaligned_read, sb_plain_read)
PLAIN_ALL(__tsan_unaligned_write, sb_plain_write)
PLAIN_ALL(__tsan_volatile_read, sb_plain_read)
PLAIN_ALL(__tsan_volatile_write, sb_plain_write)
PLAIN_ALL(__tsan_unaligned_volatile_read, sb_plain_read)
PLAIN_ALL(__tsan_unaligned_volatile_write, sb_plain_write)
PLAIN_ALL(__tsan_read_write, sb_plain_write)
PLAIN_ALL(__tsan_unaligned_read_write, sb_plain_write)

VIS void __tsan_read_range(void *addr, unsigned long size);
VIS void __tsan_read_range(void *addr, unsigned long size)
{
	sb_sched_point();
	sb_plain_read(addr, size);
}

VIS void __tsan_write_range(void *addr, unsigned long size);
VIS void __tsan_write_range(void *addr, unsigned long size)
{
	sb_sched_point();
	sb_plain_write(addr, size);
}

VIS void __tsan_read_range_pc(void *addr, unsigned long size, void *pc);
VIS void __tsan_read_range_pc(void *addr, unsigned long size, void *pc)
{
	(void)pc;
	sb_sched_point();
	sb_plain_read(addr, size);
}

VIS void __tsan_write_range_pc(void *addr, unsigned long size, void *pc);
VIS void __tsan_write_range_pc(void *addr, unsigned long size, void *pc)
{
	(void)pc;
	sb_sched_point();
	sb_plain_write(addr, size);
}

VIS void __tsan_vptr_read(void **vptr_p);
VIS void __tsan_vptr_read(void **vptr_p)
{
	sb_plain_read(vptr_p, sizeof(*vptr_p));
}

VIS void __tsan_vptr_update(void **vptr_p, void *new_val);
VIS void __tsan_vptr_update(void **vptr_p, void *new_val)
{
	(void)new_val;
	sb_plain_write(vptr_p, sizeof(*vptr_p));
}

/* clang replaces memory intrinsics with these: they must do the work. */
VIS void *__tsan_memcpy(void *dst, const void *src, unsigned long n);
VIS void *__tsan_memcpy(void *dst, const void *src, unsigned long n)
{
	sb_sched_point();
	sb_plain_read(src, n);
	sb_plain_write(dst, n);
	return memcpy(dst, src, n);
}

VIS void *__tsan_memmove(void *dst, const void *src, unsigned long n);
VIS void *__tsan_memmove(void *dst, const void *src, unsigned long n)
{
	sb_sched_point();
	sb_plain_read(src, n);
	sb_plain_write(dst, n);
	return memmove(dst, src, n);
}

VIS void *__tsan_memset(void *dst, int c, unsigned long n);
VIS void *__tsan_memset(void *dst, int c, unsigned long n)
{
	sb_sched_point();
	sb_plain_write(dst, n);
	return memset(dst, c, n);
}

VIS void __tsan_func_entry(void *call_pc);
VIS void __tsan_func_entry(void *call_pc)
{
	(void)call_pc;
}

VIS void __tsan_func_exit(void);
VIS void __tsan_func_exit(void)
{
}

/*
 * ThreadSanitizer's happens-before annotations, which liburcu 0.15's
 * headers call from their fences and wakeups when built with
 * -fsanitize=thread (cmm_annotate_mem_acquire() and release()): they tell
 * TSan's model about an order the code already makes, and neither reads
 * nor writes memory, so the emulation has nothing to do.
 */
VIS void __tsan_acquire(void *addr);
VIS void __tsan_acquire(void *addr)
{
	(void)addr;
}

VIS void __tsan_release(void *addr);
VIS void __tsan_release(void *addr)
{
	(void)addr;
}

/* Called by the instrumented module's constructor: nothing to set up. */
VIS void __tsan_init(void);
VIS void __tsan_init(void)
{
}

VIS void __tsan_atomic_thread_fence(int mo);
VIS void __tsan_atomic_thread_fence(int mo)
{
	sb_sched_point();
	if ((mo & 0xffff) != __ATOMIC_RELAXED)
		sb_late_order(); /* orders the loads before it (Arm) */
	if ((mo & 0xffff) == SC) {
		sb_drain_own();
		__atomic_thread_fence(SC);
	}
}

VIS void __tsan_atomic_signal_fence(int mo);
VIS void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
	__atomic_signal_fence(SC);
}

/* One read-modify-write: drain (a locked instruction), then do it. */
#define RMW(N, T, OP)                                              \
	VIS T __tsan_atomic##N##_##OP(volatile T *a, T v, int mo); \
	VIS T __tsan_atomic##N##_##OP(volatile T *a, T v, int mo)  \
	{                                                          \
		(void)mo;                                          \
		sb_sched_point();                                  \
		sb_drain_own();                                    \
		return __atomic_##OP(a, v, SC);                    \
	}

/* Loads, stores, RMWs and CASes of one size up to 8 bytes. */
#define ATOMICS(N, T)                                                  \
	VIS T __tsan_atomic##N##_load(const volatile T *a, int mo);    \
	VIS T __tsan_atomic##N##_load(const volatile T *a, int mo)     \
	{                                                              \
		sb_sched_point();                                      \
		return (T)sb_load(a, sizeof(T), mo);                   \
	}                                                              \
	VIS void __tsan_atomic##N##_store(volatile T *a, T v, int mo); \
	VIS void __tsan_atomic##N##_store(volatile T *a, T v, int mo)  \
	{                                                              \
		sb_sched_point();                                      \
		sb_store(a, sizeof(T), v, mo);                         \
	}                                                              \
	RMW(N, T, exchange_n)                                          \
	RMW(N, T, fetch_add)                                           \
	RMW(N, T, fetch_sub)                                           \
	RMW(N, T, fetch_and)                                           \
	RMW(N, T, fetch_or)                                            \
	RMW(N, T, fetch_xor)                                           \
	RMW(N, T, fetch_nand)                                          \
	VIS T __tsan_atomic##N##_exchange(volatile T *a, T v, int mo); \
	VIS T __tsan_atomic##N##_exchange(volatile T *a, T v, int mo)  \
	{                                                              \
		return __tsan_atomic##N##_exchange_n(a, v, mo);        \
	}                                                              \
	CAS(N, T)

/* The three compare-and-swap forms of one size. */
#define CAS(N, T)                                                              \
	VIS int __tsan_atomic##N##_compare_exchange_strong(                    \
		volatile T *a, T *c, T v, int mo, int fmo);                    \
	VIS int __tsan_atomic##N##_compare_exchange_strong(                    \
		volatile T *a, T *c, T v, int mo, int fmo)                     \
	{                                                                      \
		(void)mo;                                                      \
		(void)fmo;                                                     \
		sb_sched_point();                                              \
		sb_drain_own();                                                \
		return __atomic_compare_exchange_n(a, c, v, 0, SC, SC);        \
	}                                                                      \
	VIS int __tsan_atomic##N##_compare_exchange_weak(                      \
		volatile T *a, T *c, T v, int mo, int fmo);                    \
	VIS int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c,  \
							 T v, int mo, int fmo) \
	{                                                                      \
		return __tsan_atomic##N##_compare_exchange_strong(a, c, v, mo, \
								  fmo);        \
	}                                                                      \
	VIS T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, \
						      int mo, int fmo);        \
	VIS T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, \
						      int mo, int fmo)         \
	{                                                                      \
		__tsan_atomic##N##_compare_exchange_strong(a, &c, v, mo, fmo); \
		return c;                                                      \
	}

ATOMICS(8, uint8_t)
ATOMICS(16, uint16_t)
ATOMICS(32, uint32_t)
ATOMICS(64, uint64_t)

/* 16-byte atomics: drained and done under one lock, never buffered. */
static int lock128;

static void take128(void)
{
	sb_sched_point();
	sb_drain_own();
	while (__atomic_exchange_n(&lock128, 1, __ATOMIC_ACQUIRE))
		;
}

static void give128(void)
{
	__atomic_store_n(&lock128, 0, __ATOMIC_RELEASE);
}

#define RMW128(OP, EXPR)                                                  \
	VIS u128 __tsan_atomic128_##OP(volatile u128 *a, u128 v, int mo); \
	VIS u128 __tsan_atomic128_##OP(volatile u128 *a, u128 v, int mo)  \
	{                                                                 \
		u128 old;                                                 \
                                                                          \
		(void)mo;                                                 \
		take128();                                                \
		old = *a;                                                 \
		*a = (EXPR);                                              \
		give128();                                                \
		return old;                                               \
	}

RMW128(exchange, v)
RMW128(fetch_add, old + v)
RMW128(fetch_sub, old - v)
RMW128(fetch_and, old &v)
RMW128(fetch_or, old | v)
RMW128(fetch_xor, old ^ v)
RMW128(fetch_nand, ~(old &v))

VIS u128 __tsan_atomic128_load(const volatile u128 *a, int mo);
VIS u128 __tsan_atomic128_load(const volatile u128 *a, int mo)
{
	u128 v;

	(void)mo;
	take128();
	v = *a;
	give128();
	return v;
}

VIS void __tsan_atomic128_store(volatile u128 *a, u128 v, int mo);
VIS void __tsan_atomic128_store(volatile u128 *a, u128 v, int mo)
{
	(void)mo;
	take128();
	*a = v;
	give128();
}

VIS int __tsan_atomic128_compare_exchange_strong(volatile u128 *a, u128 *c,
						 u128 v, int mo, int fmo);
VIS int __tsan_atomic128_compare_exchange_strong(volatile u128 *a, u128 *c,
						 u128 v, int mo, int fmo)
{
	int ok;

	(void)mo;
	(void)fmo;
	take128();
	ok = *a == *c;
	if (ok)
		*a = v;
	else
		*c = *a;
	give128();
	return ok;
}

VIS int __tsan_atomic128_compare_exchange_weak(volatile u128 *a, u128 *c,
					       u128 v, int mo, int fmo);
VIS int __tsan_atomic128_compare_exchange_weak(volatile u128 *a, u128 *c,
					       u128 v, int mo, int fmo)
{
	return __tsan_atomic128_compare_exchange_strong(a, c, v, mo, fmo);
}

VIS u128 __tsan_atomic128_compare_exchange_val(volatile u128 *a, u128 c, u128 v,
					       int mo, int fmo);
VIS u128 __tsan_atomic128_compare_exchange_val(volatile u128 *a, u128 c, u128 v,
					       int mo, int fmo)
{
	__tsan_atomic128_compare_exchange_strong(a, &c, v, mo, fmo);
	return c;
}
