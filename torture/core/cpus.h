/* SPDX-License-Identifier: MIT */
/*
 * Simulated CPUs (core/cpus.c): the CPU-to-PU map, a thread's current
 * CPU, offline/online hand-off and the shuffle's idle CPU.
 */
#ifndef TORTURE_CORE_CPUS_H
#define TORTURE_CORE_CPUS_H

#include "../util/random.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct torture_run;
struct torture_thread;

/* --- simulated CPUs (torture/cpus.c) --- */
struct hwloc_topology;
struct sim_cpu;

struct torture_cpus {
	struct hwloc_topology *topo;
	struct sim_cpu *cpu; /* n of them */
	int n, npus;
	int *pu_order;		  /* usable PUs, in the --pin order */
	_Atomic int online;	  /* CPUs in the online state */
	_Atomic int shuffle_idle; /* the CPU the shuffle keeps idle, or -1 */
	bool pinning;
};

/* PUs this process may use (the --cpus default). */
int torture_cpus_available(void);
/* Build the run's simulated CPUs from --cpus and --pin; -1 with a reason. */
int torture_cpus_init(struct torture_run *run, char *err, size_t len);
/* --verbose: the topology and the CPU-to-PU map. */
void torture_cpus_print(struct torture_run *run, FILE *out);
/*
 * Put the calling thread on a CPU at start, and take it off at exit.  The
 * functions below without a run act on the calling thread's own CPU
 * (thread-local, like the flavor ABI's rcut_current_cpu()).
 */
void torture_cpu_enter(struct torture_thread *t, int cpu);
void torture_cpu_exit(void);
/*
 * Off the CPU while sleeping or blocked; back (maybe elsewhere) after.
 * detach returns false if the thread was not on a CPU: then the caller
 * must not attach afterwards (the onoff thread stays off during its work).
 */
bool torture_cpu_detach(void);
void torture_cpu_attach(void);
/* The onoff thread on an offline CPU, for --onoff-call (cpus.c). */
void torture_cpu_attach_offline(struct torture_cpus *c, int cpu);
/* Whether the calling thread's CPU is going offline or shuffled idle. */
bool torture_cpu_must_move(void);
void torture_cpu_checkpoint_slow(void);
/* At a safe point (outside read sections): leave an unusable CPU. */
static inline void torture_cpu_checkpoint(void)
{
	if (__builtin_expect(torture_cpu_must_move(), 0))
		torture_cpu_checkpoint_slow();
}
bool torture_cpu_is_online(struct torture_cpus *c, int cpu);
int torture_cpus_online(struct torture_cpus *c);
/* How many times cpu has begun to go offline. */
uint64_t torture_cpu_offlines(struct torture_cpus *c, int cpu);
/*
 * The onoff thread's transitions: 0 on success, -1 if not possible or
 * the flavor's hook refused, TORTURE_OFFLINE_TIMEOUT if threads did not
 * leave the CPU in time; why (if not NULL) says which, naming the threads
 * still on it.  Threads must leave within bound_ns; while one of those
 * left is runnable (waiting for a real CPU: the machine's load, not the
 * flavor) the wait goes on, up to half the --stall-timeout.
 */
#define TORTURE_OFFLINE_TIMEOUT (-2)
int torture_cpu_offline(struct torture_run *run, int cpu, uint64_t bound_ns,
			char *why, size_t len);
int torture_cpu_online(struct torture_run *run, int cpu, char *why, size_t len);
/* Count harness callbacks posted from cpu and not yet invoked. */
void torture_cpu_callback_posted(struct torture_cpus *c, int cpu, int delta);
/* An online CPU with callbacks posted from it still pending, or -1. */
int torture_cpu_with_pending_callbacks(struct torture_cpus *c,
				       struct torture_rand *r);
/* Shuffle: threads avoid this CPU (-1: none). */
void torture_cpu_set_idle(struct torture_cpus *c, int cpu);

#endif /* TORTURE_CORE_CPUS_H */
