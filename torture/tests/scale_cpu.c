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

static void note_start(pid_t tid, void *arg)
{
	struct scale_worker_cpu *w = arg;
	pid_t *t = realloc(w->tid, sizeof(*t) * (size_t)(w->n + 1));
	uint64_t *ns;

	if (!t)
		return;
	w->tid = t;
	ns = realloc(w->ns, sizeof(*ns) * (size_t)(w->n + 1));
	if (!ns)
		return;
	w->ns = ns;
	w->tid[w->n] = tid;
	w->ns[w->n++] = task_cpu_ns(tid);
}

void scale_worker_cpu_begin(struct scale_worker_cpu *w,
			    const struct torture_thread *ours, int nours)
{
	memset(w, 0, sizeof(*w));
	for_each_other(ours, nours, note_start, w);
}

struct sum {
	const struct scale_worker_cpu *start;
	uint64_t ns;
	int n;
};

/* Add a thread's CPU time since the start (all of it if it is new). */
static void add_since_start(pid_t tid, void *arg)
{
	struct sum *s = arg;
	uint64_t now = task_cpu_ns(tid), then = 0;

	for (int i = 0; i < s->start->n; i++)
		if (s->start->tid[i] == tid)
			then = s->start->ns[i];
	s->ns += now > then ? now - then : 0;
	s->n++;
}

uint64_t scale_worker_cpu_end(struct scale_worker_cpu *w,
			      const struct torture_thread *ours, int nours,
			      int *nthreads)
{
	struct sum s = { w, 0, 0 };

	for_each_other(ours, nours, add_since_start, &s);
	free(w->tid);
	free(w->ns);
	memset(w, 0, sizeof(*w));
	*nthreads = s.n;
	return s.ns;
}
