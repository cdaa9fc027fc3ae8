/* SPDX-License-Identifier: MIT */
/*
 * The store-buffer emulation's core (buffer.c), called by the
 * ThreadSanitizer entry points (tsan.c) and the libc wrappers (wrap.c) of
 * an instrumented plugin, and by the unit test.  Sizes are 1, 2, 4 or 8
 * bytes; memory orders are the __ATOMIC_* values.
 */
#ifndef SDK_STOREBUF_SB_H
#define SDK_STOREBUF_SB_H

#include <rcutorture/storebuf.h>
#include <stdbool.h>
#include <stdint.h>

/* Non-zero while stores are buffered (rcut_storebuf_configure). */
extern int sb_active;

/* enum rcut_storebuf_model: which stores wait, which loads drain. */
extern int sb_model;

/* The clock entries age by, in ns; the unit test replaces it. */
extern uint64_t (*sb_clock)(void);

/* An atomic store: buffered, or (seq_cst) drain first and write. */
void sb_store(volatile void *addr, unsigned int size, uint64_t val, int mo);

/* An atomic load: the newest own buffered store to it, else memory. */
uint64_t sb_load(const volatile void *addr, unsigned int size, int mo);

/* Make every store of the calling thread visible, in order. */
void sb_drain_own(void);
/* The same without counting an ordering event (late.c's store). */
void sb_flush_own(void);

/* Make every thread's buffered stores visible (membarrier). */
void sb_drain_all(void);

/* A plain access: keep it ordered with the own buffered stores. */
void sb_plain_read(const volatile void *addr, unsigned long size);
void sb_plain_write(const volatile void *addr, unsigned long size);

/* Entries still buffered by the calling thread (unit test). */
unsigned int sb_pending(void);

/* Commit the calling thread's entries whose delay ran out (unit test). */
void sb_expire_own(void);

/* Start or stop buffering; the drainer thread runs when run_drainer. */
void sb_configure(uint64_t seed, uint64_t max_delay_ns, bool run_drainer);

/* The figures, summed over every thread's buffer. */
void sb_sum(struct rcut_storebuf_stats *out);

/*
 * Send the calls of the libraries the plugin links (not libc's) to the
 * wrappers of wrap.c too (libhook.c); once, when buffering starts.
 */
void sb_hook_libraries(void);

/* Block signals around buffer updates (a plugin installed a handler). */
void sb_guard_signals(void);

/* Automatic race points (sched.c): enum rcut_sched_mode, 0 when off. */
extern int sb_sched_mode;

/* One instrumented access: maybe a race point or a PCT wait. */
void sb_sched_access(void);

/* What every entry point calls first: one relaxed load when off. */
static inline void sb_sched_point(void)
{
	if (__builtin_expect(__atomic_load_n(&sb_sched_mode, __ATOMIC_RELAXED),
			     0))
		sb_sched_access();
}

/* Write one value to memory now, past the buffer (late.c). */
void sb_write_now(volatile void *addr, unsigned int size, uint64_t val);

/*
 * Loads that pass a later store (late.c, the Arm model): arm the calling
 * thread (fn NULL disarms; -1 unless buffering under the Arm model); an
 * ordering event disarms it and counts; a membarrier counts for every
 * thread; a store is first offered to sb_late_store(), which returns true
 * when it made the store visible and ran the armed callback.
 */
int sb_late_arm(void (*fn)(void *arg), void *arg);
void sb_late_order(void);
void sb_late_plain_write(void);
void sb_late_membarrier(void);
uint64_t sb_late_order_count(void);
bool sb_late_store(volatile void *addr, unsigned int size, uint64_t val,
		   int mo);

/* Start or stop the automatic race points; the figures so far. */
void sb_sched_configure(const struct rcut_sched_params *p);
void sb_sched_sum(struct rcut_sched_stats *out);

#endif /* SDK_STOREBUF_SB_H */
