/* SPDX-License-Identifier: MIT */
/*
 * The machine the run shares (machine.c): its load average, its CPUs and
 * the share of their time that other processes (and, in a VM, the
 * hypervisor's steal) took since the threads started.  Shown in the stats
 * block and beside a stall or a timed-out CPU offline: on a busy shared
 * machine a correct flavor's thread can wait long enough to look stuck.
 * The share, not the load average, judges "busy": the run's own spinning
 * readers raise the load average too.
 */
#ifndef RCUT_TORTURE_MACHINE_H
#define RCUT_TORTURE_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The machine's CPU time and ours at one moment. */
struct torture_machine_mark {
	bool ok;	      /* false: /proc/stat could not be read */
	uint64_t busy_ticks;  /* all CPUs' non-idle time (USER_HZ ticks) */
	uint64_t total_ticks; /* all CPUs' time, idle included */
	uint64_t self_ns;     /* this process's user + system time */
};

struct torture_machine {
	double load1; /* 1-minute load average; negative if unknown */
	long cpus;    /* CPUs online on the machine (not the simulated ones) */
	/* Others' share of all CPUs' time since the mark, 0..1; < 0 unknown. */
	double others;
};

/* Others' share needs this much CPU time (all CPUs) between two marks. */
#define TORTURE_MACHINE_MIN_TICKS 50
/* Busy: others took at least this share of the machine's CPU time. */
#define TORTURE_MACHINE_BUSY_SHARE 0.5

/* Read the machine's and this process's CPU time now. */
void torture_machine_mark(struct torture_machine_mark *m);
/*
 * Others' share of the CPU time between marks a and b (b later), from
 * their busy time minus ours, clamped to 0..1; -1 if either mark failed
 * or less than TORTURE_MACHINE_MIN_TICKS passed.  ticks_per_s: USER_HZ.
 */
double torture_machine_share(const struct torture_machine_mark *a,
			     const struct torture_machine_mark *b,
			     long ticks_per_s);
/* The load average and CPUs now, and others' share since start. */
struct torture_machine
torture_machine_since(const struct torture_machine_mark *start);
/* Whether others took TORTURE_MACHINE_BUSY_SHARE or more. */
bool torture_machine_busy(const struct torture_machine *m);
/* "load average L on N CPUs[, other processes P% of their time]". */
void torture_machine_describe(const struct torture_machine *m, char *buf,
			      size_t len);
/*
 * Whether the machine has been busy since start; if so, describe it in
 * buf: for the notes beside a stall and a timed-out CPU offline.
 */
bool torture_machine_busy_since(const struct torture_machine_mark *start,
				char *buf, size_t len);

#endif
