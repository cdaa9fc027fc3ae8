// SPDX-License-Identifier: MIT
/*
 * A stall report's backtraces: every task of /proc/self/task, not only
 * the torture threads (the flavor's own workers, liburcu's call_rcu
 * thread, can be where the hang is).  Each thread unwinds its own stack
 * in a handler for a real-time signal (SIGUSR1 belongs to liburcu's
 * signal flavor) sent with tgkill; the handler only captures addresses,
 * the main thread names them afterwards.  A thread that blocks the
 * signal gets the pc of the system call it is in, from /proc.
 */
#define _GNU_SOURCE
#include "watchdog.h"
#include "flavor_stats.h"
#include "run.h"
#include "../../report/backtrace.h"
#include "../util/task_stat.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BT_SIGNAL (SIGRTMIN + 1)
#define BT_WAIT_NS 1000000000ULL /* how long the threads get to answer */
#define MAX_TASKS 65536

/* One request: the thread that should answer and where it writes. */
struct bt_req {
	pid_t tid;
	bool asked; /* signalled (set before the signal is sent) */
	atomic_bool done;
	struct rcut_bt bt;
};

/* Every thread asked at once: the requests, published to the handler. */
static struct bt_req *_Atomic bt_reqs;
static _Atomic int bt_nreqs;

static pid_t current_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* The requested thread captures its stack; any other ignores the signal. */
static void bt_handler(int sig)
{
	struct bt_req *r = atomic_load(&bt_reqs);
	int n = atomic_load(&bt_nreqs), saved_errno = errno;
	pid_t me = current_tid();

	(void)sig;
	for (int i = 0; r && i < n; i++) {
		if (r[i].tid != me || atomic_load(&r[i].done))
			continue;
		rcut_backtrace_capture(&r[i].bt, 2); /* not the handler */
		atomic_store(&r[i].done, true);
		break;
	}
	errno = saved_errno;
}

void torture_watchdog_init(void)
{
	static struct rcut_bt warm; /* static: main thread only, large */
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = bt_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(BT_SIGNAL, &sa, NULL);
	/*
	 * libunwind sets up its state lazily, with its own locks, which
	 * ThreadSanitizer cannot see (libunwind is not instrumented): a
	 * first stack walk here, before any thread starts, keeps the
	 * stalled threads' walks from racing on that set-up.
	 */
	rcut_backtrace_capture(&warm, 0);
}

static int by_tid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/*
 * The process's thread IDs, ascending, from two merged listings (one can
 * miss a thread while another exits); NULL if /proc cannot be read.
 */
static pid_t *list_tasks(int *n)
{
	pid_t *tids = malloc(MAX_TASKS * sizeof(*tids));

	*n = tids ? task_list(tids, MAX_TASKS) : 0;
	if (*n <= 0) {
		free(tids);
		return NULL;
	}
	qsort(tids, (size_t)*n, sizeof(*tids), by_tid);
	return tids;
}

/* One line of /proc/self/task/TID/FILE into buf, newline removed. */
static bool task_file(pid_t tid, const char *file, const char *prefix,
		      char *buf, size_t len)
{
	char path[64];
	size_t plen = prefix ? strlen(prefix) : 0;
	FILE *f;
	bool found = false;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", (int)tid, file);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(buf, (int)len, f))
		found = !plen || !strncmp(buf, prefix, plen);
	fclose(f);
	if (found)
		buf[strcspn(buf, "\n")] = '\0';
	return found;
}

/* Whether the thread blocks BT_SIGNAL (liburcu's workers block all). */
static bool blocks_signal(pid_t tid)
{
	char line[128];
	unsigned long long mask;

	if (!task_file(tid, "status", "SigBlk:", line, sizeof(line)) ||
	    sscanf(line, "SigBlk: %llx", &mask) != 1)
		return false;
	return mask >> (BT_SIGNAL - 1) & 1;
}

/* The torture thread with this thread ID, or NULL. */
static struct torture_thread *torture_thread_of(struct torture_run *run,
						pid_t tid)
{
	for (int i = 0; i < run->threads.n; i++)
		if (run->threads.t[i].created &&
		    atomic_load(&run->threads.t[i].os_tid) == tid)
			return &run->threads.t[i];
	return NULL;
}

/* What the thread is: a torture thread's role, else its name. */
static void label(struct torture_run *run, pid_t tid, char *buf, size_t len)
{
	struct torture_thread *t = torture_thread_of(run, tid);
	const char *op = t ? atomic_load(&t->op) : NULL;
	char comm[32] = "?";

	if (t) {
		snprintf(buf, len, "%s %d (torture thread, tid %d)%s%s",
			 t->kind, t->id, (int)tid, op ? ", in " : "",
			 op ? op : "");
		return;
	}
	task_file(tid, "comm", NULL, comm, sizeof(comm));
	if (tid == getpid())
		snprintf(buf, len, "the main thread (tid %d, the watchdog)",
			 (int)tid);
	else if (tid == torture_flavor_stats_tid())
		snprintf(
			buf, len,
			"the stats helper thread (tid %d, calling the flavor's stats hook)",
			(int)tid);
	else
		snprintf(buf, len, "flavor thread %s (tid %d)", comm, (int)tid);
}

/* The pc of the system call the thread is in, from /proc; 0 if none. */
static uintptr_t syscall_pc(pid_t tid)
{
	char line[256];
	const char *last;

	if (!task_file(tid, "syscall", NULL, line, sizeof(line)) ||
	    !strncmp(line, "running", 7))
		return 0;
	last = strrchr(line, ' ');
	return last ? (uintptr_t)strtoull(last + 1, NULL, 16) : 0;
}

/*
 * Ask every thread that can unwind itself to do so, all at once, and
 * wait until each answered or BT_WAIT_NS passed (a loaded machine may
 * take a while to schedule them all).  The requests are never freed: a
 * late answer may still write into them.
 */
static struct bt_req *ask_all(const pid_t *tids, int n)
{
	struct bt_req *r = calloc((size_t)n, sizeof(*r));
	uint64_t deadline;
	bool all;

	if (!r)
		return NULL;
	for (int i = 0; i < n; i++)
		r[i].tid = tids[i];
	atomic_store(&bt_nreqs, n);
	atomic_store(&bt_reqs, r);
	for (int i = 0; i < n; i++) {
		if (tids[i] == current_tid() || blocks_signal(tids[i]))
			continue;
		r[i].asked = !syscall(SYS_tgkill, getpid(), tids[i], BT_SIGNAL);
	}
	deadline = torture_now_ns() + BT_WAIT_NS;
	do {
		all = true;
		for (int i = 0; i < n && all; i++)
			all = !r[i].asked || atomic_load(&r[i].done);
		if (!all)
			torture_nap_ns(1000000);
	} while (!all && torture_now_ns() < deadline);
	return r;
}

/* One thread's backtrace, however it could be had. */
static void task_backtrace(pid_t tid, struct bt_req *r)
{
	struct rcut_bt bt;
	uintptr_t pc;

	if (tid == current_tid()) {
		rcut_backtrace_capture(&bt, 0);
		rcut_backtrace_print(stdout, &bt);
	} else if (r && atomic_load(&r->done)) {
		rcut_backtrace_print(stdout, &r->bt);
	} else if (r && r->asked) {
		printf("    (no answer within %.1f s: signals blocked in the flavor?)\n",
		       (double)BT_WAIT_NS / 1e9);
	} else if ((pc = syscall_pc(tid))) {
		printf("    (the thread blocks signals: only the pc of its system call, from /proc)\n");
		rcut_backtrace_of_pc(&bt, pc);
		rcut_backtrace_print(stdout, &bt);
	} else {
		printf("    (the thread blocks signals and is not in a system call)\n");
	}
}

void torture_print_backtraces(struct torture_run *run)
{
	const char *name = run->flavor->name;
	int n;
	pid_t *tids = list_tasks(&n);
	struct bt_req *reqs;

	if (!tids) {
		printf("%s-%s: cannot list /proc/self/task: no backtraces\n",
		       name, run->tag);
		return;
	}
	reqs = ask_all(tids, n);
	for (int i = 0; i < n; i++) {
		char what[160];

		label(run, tids[i], what, sizeof(what));
		printf("%s-%s: backtrace of %s:\n", name, run->tag, what);
		task_backtrace(tids[i], reqs ? &reqs[i] : NULL);
		fflush(stdout);
	}
	atomic_store(&bt_reqs, NULL);
	free(tids);
}
