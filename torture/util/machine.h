/* SPDX-License-Identifier: MIT */
/*
 * The machine the run shares (machine.c): its load average and CPU count,
 * shown in the stats block and beside a stall, because on a busy shared
 * machine a correct flavor's thread can wait long enough to look stuck.
 */
#ifndef RCUT_TORTURE_MACHINE_H
#define RCUT_TORTURE_MACHINE_H

#include <stdbool.h>

struct torture_machine {
	double load1; /* 1-minute load average; negative if unknown */
	long cpus;    /* CPUs online on the machine (not the simulated ones) */
};

/* Read the machine's load average and online CPU count now. */
struct torture_machine torture_machine_now(void);

/*
 * Whether the machine is busy enough to explain a stall: its load
 * average is over twice its CPUs (TORTURE_MACHINE_BUSY_FACTOR).
 */
#define TORTURE_MACHINE_BUSY_FACTOR 2
bool torture_machine_busy(const struct torture_machine *m);

#endif
