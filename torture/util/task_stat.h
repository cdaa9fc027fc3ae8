/* SPDX-License-Identifier: MIT */
/*
 * One thread of this process as the kernel sees it (task_stat.c): its
 * scheduler state and the CPU time it has used, from
 * /proc/self/task/TID/stat.  The watchdog and the CPU-offline check use
 * them to tell a thread waiting for a real CPU from one stuck in a flavor.
 */
#ifndef RCUT_TORTURE_TASK_STAT_H
#define RCUT_TORTURE_TASK_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct task_stat {
	char state;	 /* 'R' runnable or running, 'S', 'D', ... */
	uint64_t cpu_ns; /* user + system time (USER_HZ ticks, as ns) */
};

/* false if thread tid of this process cannot be read (gone, no /proc). */
bool task_stat_read(pid_t tid, struct task_stat *st);

/*
 * Whether thread tid of this process is blocked in futex(2) waiting on one
 * word (FUTEX_WAIT or FUTEX_WAIT_BITSET, private or not), and on which:
 * from /proc/self/task/TID/syscall.  For checks that judge a sleep rather
 * than a time (a grace-period wait asleep on the flavor's word while
 * nothing can wake it is a lost wakeup, whatever the load).  false when
 * it runs, sleeps elsewhere, or cannot be read.
 */
bool task_futex_waiting(pid_t tid, uintptr_t *addr);

/* A look at any sleep: asleep (not 'R'), and the switches around it. */
struct task_sleep_look {
	bool asleep;
	uint64_t nvcsw_before, nvcsw_after;
};

/* false if thread tid cannot be read (gone, no /proc). */
bool task_sleep_look(pid_t tid, struct task_sleep_look *look);

/* Asleep at both looks, with no voluntary switch in between. */
bool task_slept_through(const struct task_sleep_look *a,
			const struct task_sleep_look *b);

/* A look at a thread asleep in futex(2): the word, and its sleep. */
struct task_futex_look {
	uintptr_t word;
	struct task_sleep_look sleep;
};

/* false unless thread tid sleeps in FUTEX_WAIT (task_futex_waiting). */
bool task_futex_look(pid_t tid, struct task_futex_look *look);

/*
 * Whether the thread slept on one word from look a to look b without
 * waking: the same word, and no voluntary switch from a's first count to
 * b's last (a thread woken and asleep again switched once more; one
 * woken and not yet back on a CPU is runnable, not seen asleep).
 */
bool task_futex_slept_through(const struct task_futex_look *a,
			      const struct task_futex_look *b);

/*
 * The process's thread IDs, up to max, in *tids; how many.  A listing of
 * /proc/self/task stops short at a thread that exits while it is read
 * (the kernel's next_tid() gives up at a dead task): two listings are
 * merged: a thread missed by both needs an exit during each.
 */
int task_list(pid_t *tids, int max);

#endif /* RCUT_TORTURE_TASK_STAT_H */
