// SPDX-License-Identifier: MIT
/*
 * The stall watchdog: run from the main thread, which never calls into
 * the flavor, so it notices when the flavor under test hangs.  A thread
 * whose progress counter has not moved for --stall-timeout, or a posted
 * callback not invoked for that long, is a stall.  Backtraces come from
 * the threads themselves: each unwinds its own stack in a handler for a
 * real-time signal (SIGUSR1 belongs to liburcu's signal flavor).
 */
#define _GNU_SOURCE
#include "watchdog.h"
#include "run.h"
#include "../../report/backtrace.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BT_SIGNAL (SIGRTMIN + 1)
#define BT_BUF_LEN 4096
#define BT_WAIT_NS 300000000ULL /* how long a thread gets to answer */

static void bt_handler(int sig)
{
	struct torture_thread *t = torture_self();
	int saved_errno = errno;

	(void)sig;
	if (!t || !t->bt)
		return;
	rcut_backtrace(t->bt, BT_BUF_LEN, 2); /* not this handler */
	atomic_store(&t->bt_done, true);
	errno = saved_errno;
}

void torture_watchdog_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = bt_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(BT_SIGNAL, &sa, NULL);
}

/* A thread that has not got on with its work for the stall timeout. */
static bool thread_stalled(struct torture_thread *t, uint64_t now,
			   uint64_t timeout, char *what, size_t len)
{
	uint64_t p = atomic_load_explicit(&t->progress, memory_order_relaxed);
	const char *op;

	if (!t->created || atomic_load(&t->exited))
		return false;
	if (p != t->wd_seen || !t->wd_since_ns) {
		t->wd_seen = p;
		t->wd_since_ns = now;
		return false;
	}
	if (now - t->wd_since_ns < timeout)
		return false;
	op = atomic_load_explicit(&t->op, memory_order_acquire);
	if (op)
		snprintf(what, len, "%s %d stuck in %s for %.1f s", t->kind,
			 t->id, op,
			 (double)(now - atomic_load(&t->op_since_ns)) / 1e9);
	else
		snprintf(what, len, "%s %d made no progress for %.1f s",
			 t->kind, t->id, (double)(now - t->wd_since_ns) / 1e9);
	return true;
}

bool torture_watchdog_check(struct torture_run *run, char *what, size_t len)
{
	uint64_t now = torture_now_ns();

	for (int i = 0; i < run->threads.n; i++)
		if (thread_stalled(&run->threads.t[i], now,
				   run->cfg->stall_timeout_ns, what, len))
			return true;
	return false;
}

void torture_print_backtraces(struct torture_run *run)
{
	const char *name = run->flavor->name;

	for (int i = 0; i < run->threads.n; i++) {
		struct torture_thread *t = &run->threads.t[i];
		const char *op;
		uint64_t deadline;

		if (!t->created || atomic_load(&t->exited))
			continue;
		if (!t->bt)
			t->bt = calloc(1, BT_BUF_LEN);
		op = atomic_load(&t->op);
		printf("%s-%s: backtrace of %s %d%s%s:\n", name, run->tag,
		       t->kind, t->id, op ? ", in " : "", op ? op : "");
		atomic_store(&t->bt_done, false);
		if (!t->bt || pthread_kill(t->tid, BT_SIGNAL)) {
			printf("    (could not signal the thread)\n");
			continue;
		}
		deadline = torture_now_ns() + BT_WAIT_NS;
		while (!atomic_load(&t->bt_done) && torture_now_ns() < deadline)
			torture_nap_ns(1000000);
		if (atomic_load(&t->bt_done))
			fputs(t->bt, stdout);
		else
			printf("    (no answer within %.1f s: signals blocked in the flavor?)\n",
			       (double)BT_WAIT_NS / 1e9);
	}
	fflush(stdout);
}
