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

#endif /* RCUT_TORTURE_TASK_STAT_H */
