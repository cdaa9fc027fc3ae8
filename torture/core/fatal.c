// SPDX-License-Identifier: MIT
/*
 * Fatal signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) in any thread:
 * print which thread died where, its backtrace, and the report so far,
 * then exit 5.  Runs on an alternate stack so a stack overflow reports
 * too.  Printing from a dying process is best effort by nature.
 */
#define _GNU_SOURCE
#include "fatal.h"
#include "run.h"
#include "lifecycle.h"
#include "../../report/backtrace.h"
#include "../../report/verdict.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ALT_STACK_SIZE (64 * 1024)

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static atomic_flag in_fatal = ATOMIC_FLAG_INIT;
static char bt[8192];

/*
 * In any thread, on the alternate stack.  The handler has no context: it
 * reaches the run through torture_signal_run, and the test's closing
 * lines through the test description's crash_report hook.
 */
static void fatal_handler(int sig, siginfo_t *info, void *uctx)
{
	struct torture_run *run = torture_signal_run;
	struct torture_thread *t = torture_self();
	const char *name =
		run && run->flavor ? run->flavor->name : "rcutorture";
	const char *tag = run ? run->tag : "torture";

	(void)uctx;
	/* A second thread dying meanwhile waits for the first to finish. */
	if (atomic_flag_test_and_set(&in_fatal)) {
		for (;;)
			pause();
	}
	fflush(stdout);
	printf("%s-%s: !!! fatal signal SIG%s (%s) in %s %d at %.3f s, fault address %p\n",
	       name, tag, sigabbrev_np(sig), strsignal(sig),
	       t ? t->kind : "thread", t ? t->id : -1,
	       run ? (double)torture_elapsed_ns(run) / 1e9 : 0.0,
	       info->si_addr);
	rcut_backtrace(bt, sizeof(bt),
		       2); /* not the handler, nor the signal trampoline */
	printf("%s-%s: backtrace of the faulting thread:\n%s", name, tag, bt);
	if (run && run->test && run->test->crash_report)
		run->test->crash_report(run);
	fflush(stdout);
	fflush(stderr);
	_exit(RCUT_EXIT_INTERNAL);
}

void torture_fatal_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fatal_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]);
	     i++)
		sigaction(fatal_signals[i], &sa, NULL);
}

void *torture_fatal_thread_init(void)
{
	stack_t ss = { .ss_size = ALT_STACK_SIZE };

	ss.ss_sp = malloc(ALT_STACK_SIZE);
	if (ss.ss_sp && sigaltstack(&ss, NULL)) {
		free(ss.ss_sp);
		return NULL;
	}
	return ss.ss_sp;
}

void torture_fatal_thread_exit(void *altstack)
{
	stack_t ss = { .ss_flags = SS_DISABLE };

	if (!altstack)
		return;
	sigaltstack(&ss, NULL);
	free(altstack);
}
