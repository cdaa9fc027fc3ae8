// SPDX-License-Identifier: MIT
/*
 * Updater CPU time.  The writers read their own thread CPU clocks.  Work
 * a flavor does in threads of its own (liburcu's call_rcu workers, which
 * run the grace periods of asynchronous callbacks) is read from
 * /proc/self/task/<tid>/schedstat (on-CPU ns; /proc/.../stat's clock
 * ticks where schedstat is missing), for every thread that is neither a
 * harness thread nor the main thread.  Not measured: what readers spend
 * on a grace period's behalf (signal handlers, membarrier IPIs).
 */
#define _GNU_SOURCE
#include "scale.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t scale_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* A thread's CPU time so far, ns; 0 if it is gone. */
static uint64_t task_cpu_ns(pid_t tid)
{
	char path[64], line[512], *p;
	unsigned long long ns = 0, utime, stime;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
		return ns;
	}
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
	fclose(f);
	/* After "(comm)": state and 10 fields, then utime and stime. */
	if (!p ||
	    sscanf(p + 1,
		   " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
		   &utime, &stime) != 2)
		return 0;
	return (utime + stime) *
	       (1000000000ULL / (uint64_t)sysconf(_SC_CLK_TCK));
}

static bool is_ours(pid_t tid, const struct torture_thread *ours, int nours)
{
	if (tid == getpid())
		return true;
	for (int i = 0; i < nours; i++)
		if (atomic_load(&ours[i].os_tid) == tid)
			return true;
	return false;
}

/* Call fn for every thread of the process that is not ours. */
static void for_each_other(const struct torture_thread *ours, int nours,
			   void (*fn)(pid_t tid, void *arg), void *arg)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid > 0 && !is_ours(tid, ours, nours))
			fn(tid, arg);
	}
	closedir(d);
}

/* Note a thread's CPU time so far (once: a later listing repeats it). */
static void note(pid_t tid, void *arg)
{
	struct scale_task_cpu *snap = arg;
	pid_t *t;
	uint64_t *ns;

	for (int i = 0; i < snap->n; i++)
		if (snap->tid[i] == tid)
			return;
	t = realloc(snap->tid, sizeof(*t) * (size_t)(snap->n + 1));
	if (!t)
		return;
	snap->tid = t;
	ns = realloc(snap->ns, sizeof(*ns) * (size_t)(snap->n + 1));
	if (!ns)
		return;
	snap->ns = ns;
	snap->tid[snap->n] = tid;
	snap->ns[snap->n++] = task_cpu_ns(tid);
}

static void forget(struct scale_task_cpu *snap)
{
	free(snap->tid);
	free(snap->ns);
	memset(snap, 0, sizeof(*snap));
}

void scale_worker_cpu_begin(struct scale_worker_cpu *w,
			    const struct torture_thread *ours, int nours)
{
	memset(w, 0, sizeof(*w));
	for_each_other(ours, nours, note, &w->start);
}

void scale_worker_cpu_end(struct scale_worker_cpu *w,
			  const struct torture_thread *ours, int nours)
{
	for_each_other(ours, nours, note, &w->end);
}

uint64_t scale_worker_cpu_settle(struct scale_worker_cpu *w,
				 const struct torture_thread *ours, int nours,
				 int *nthreads)
{
	uint64_t sum = 0;

	for_each_other(ours, nours, note, &w->end);
	for (int i = 0; i < w->end.n; i++) {
		uint64_t then = 0;

		for (int k = 0; k < w->start.n; k++)
			if (w->start.tid[k] == w->end.tid[i])
				then = w->start.ns[k];
		sum += w->end.ns[i] > then ? w->end.ns[i] - then : 0;
	}
	*nthreads = w->end.n;
	forget(&w->start);
	forget(&w->end);
	return sum;
}
