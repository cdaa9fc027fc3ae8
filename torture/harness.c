// SPDX-License-Identifier: MIT
/* The scale and ref tests' thread lifecycle (see harness.h). */
#define _GNU_SOURCE
#include "harness.h"

#include "../report/verdict.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TICK_NS 10000000ULL		/* main loop period: 10 ms */
#define WATCHDOG_PERIOD_NS 100000000ULL /* stall checks: every 100 ms */

int harness_setup(const struct rcut_config *cfg, const char *tag)
{
	char err[256];

	torture_cfg = cfg;
	torture_tag = tag;
	if (torture_cpus_init(err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return RCUT_EXIT_INTERNAL;
	}
	torture_watchdog_init();
	torture_fatal_init();
	return 0;
}

int harness_flavor_init(const struct rcut_flavor *f)
{
	const struct rcut_config *c = torture_cfg;

	torture_flavor = f;
	if (f->set_call_mode &&
	    f->set_call_mode((enum rcut_call_mode)c->call_mode)) {
		fprintf(stderr,
			"rcutorture: flavor %s rejected --call-rcu %s\n",
			f->name, rcut_call_mode_names[c->call_mode]);
		return RCUT_EXIT_USAGE;
	}
	if (f->init && f->init()) {
		fprintf(stderr, "rcutorture: flavor %s failed to initialize\n",
			f->name);
		return RCUT_EXIT_INTERNAL;
	}
	return 0;
}

int harness_begin(struct harness *h, int cap)
{
	h->threads = calloc((size_t)cap, sizeof(*h->threads));
	h->n = 0;
	h->cap = cap;
	if (!h->threads) {
		fprintf(stderr,
			"rcutorture: cannot allocate the thread table\n");
		return -1;
	}
	sigemptyset(&h->sigs);
	sigaddset(&h->sigs, SIGINT);
	sigaddset(&h->sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &h->sigs, NULL);
	return 0;
}

int harness_start(struct harness *h, const char *kind, int id,
		  void (*fn)(struct torture_thread *t))
{
	struct torture_thread *t = &h->threads[h->n];

	if (h->n >= h->cap || torture_thread_start(t, kind, id, fn)) {
		fprintf(stderr, "rcutorture: cannot create %s thread %d: %s\n",
			kind, id, strerror(h->n >= h->cap ? ENOMEM : errno));
		return -1;
	}
	h->n++;
	/* Its thread ID tells the flavor's own threads from ours. */
	while (!atomic_load(&t->os_tid))
		torture_nap_ns(10000);
	return 0;
}

/* A stall: what is stuck, the flavor's view, every backtrace; exit 4. */
static void __attribute__((noreturn))
stall_exit(struct harness *h, const char *what)
{
	const struct rcut_flavor *f = torture_flavor;

	torture_mark_stop();
	printf("%s-%s: !!! STALL at %.3f s: %s (--stall-timeout %.1f s)\n",
	       f->name, torture_tag, (double)torture_elapsed_ns() / 1e9, what,
	       (double)torture_cfg->stall_timeout_ns / 1e9);
	if (f->stats) {
		printf("%s-%s: flavor state: ", f->name, torture_tag);
		f->stats(stdout);
	}
	torture_print_backtraces(h->threads, h->n);
	atomic_store(&torture_stopping, true);
	if (h->on_stall)
		h->on_stall();
	fflush(stdout);
	fflush(stderr);
	_exit(RCUT_EXIT_STALL);
}

static void watchdog(struct harness *h)
{
	char what[256];

	if (torture_watchdog_check(h->threads, h->n, what, sizeof(what)) ||
	    (h->stalled && h->stalled(torture_now_ns(), what, sizeof(what))))
		stall_exit(h, what);
}

static bool all_exited(struct harness *h)
{
	for (int i = 0; i < h->n; i++)
		if (!atomic_load(&h->threads[i].exited))
			return false;
	return true;
}

int harness_wait(struct harness *h, bool (*done)(void))
{
	struct timespec tick = { 0, (long)TICK_NS };
	uint64_t next_watchdog = 0;

	while (!torture_must_stop() && !(done && done()) && !all_exited(h)) {
		int sig = sigtimedwait(&h->sigs, NULL, &tick);
		uint64_t now = torture_now_ns();

		if (sig > 0) {
			printf("%s-%s: SIG%s received, stopping\n",
			       torture_flavor->name, torture_tag,
			       sigabbrev_np(sig));
			return sig;
		}
		if (now >= next_watchdog) {
			next_watchdog = now + WATCHDOG_PERIOD_NS;
			watchdog(h);
		}
	}
	return 0;
}

void harness_stop(struct harness *h)
{
	atomic_store(&torture_stopping, true);
	torture_mark_stop();
	signal(SIGINT, torture_second_signal);
	signal(SIGTERM, torture_second_signal);
	pthread_sigmask(SIG_UNBLOCK, &h->sigs, NULL);
}

void harness_join(struct harness *h)
{
	for (;;) {
		bool all = true;

		for (int i = 0; i < h->n; i++)
			if (!torture_thread_join(&h->threads[i], 0))
				all = false;
		if (all)
			return;
		watchdog(h);
		torture_nap_ns(TICK_NS);
	}
}

void harness_end(struct harness *h)
{
	free(h->threads);
	h->threads = NULL;
	h->n = h->cap = 0;
}
