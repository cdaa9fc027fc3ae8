// SPDX-License-Identifier: MIT
/*
 * The flavor's stats hook on a helper thread, waited for with a bound.
 * The helper is created on the first call and then waits for requests;
 * the hook writes to a memory stream whose text the helper hands back.
 * If the hook does not return in time the helper is left where it is,
 * stuck in the flavor, and no request is ever made again.
 */
#define _GNU_SOURCE
#include "flavor_stats.h"
#include "run.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond; /* on CLOCK_MONOTONIC */
static bool started, hung;
static void (*req_hook)(FILE *out);
static uint64_t req_seq, done_seq;
static char *result;
static _Atomic pid_t helper_tid;

pid_t torture_flavor_stats_tid(void)
{
	return atomic_load(&helper_tid);
}

/* The hook's output as a malloc'd string (NULL if out of memory). */
static char *call_hook(void (*hook)(FILE *out))
{
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);

	if (!m)
		return NULL;
	hook(m);
	fclose(m);
	return text;
}

/* The helper: one hook call per request, the text handed back. */
static void *helper(void *arg)
{
	(void)arg;
	atomic_store(&helper_tid, (pid_t)syscall(SYS_gettid));
	pthread_mutex_lock(&lock);
	for (;;) {
		void (*hook)(FILE * out);
		uint64_t seq;
		char *text;

		while (req_seq == done_seq)
			pthread_cond_wait(&cond, &lock);
		hook = req_hook;
		seq = req_seq;
		pthread_mutex_unlock(&lock);
		text = call_hook(hook);
		pthread_mutex_lock(&lock);
		free(result);
		result = text;
		done_seq = seq;
		pthread_cond_broadcast(&cond);
	}
	return NULL;
}

/* Create the helper (detached) on first use; false if it cannot be. */
static bool start_helper(void)
{
	pthread_condattr_t a;
	pthread_attr_t attr;
	pthread_t tid;
	bool ok;

	if (started)
		return true;
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&cond, &a);
	pthread_condattr_destroy(&a);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	ok = !pthread_create(&tid, &attr, helper, NULL);
	pthread_attr_destroy(&attr);
	if (ok)
		pthread_setname_np(tid, "rcut-stats");
	started = ok;
	return ok;
}

/* Request one call and wait for it until bound_ns; false on a timeout. */
static bool request(void (*hook)(FILE *out), uint64_t bound_ns, char **text)
{
	uint64_t end = torture_now_ns() + bound_ns;
	struct timespec ts = { (time_t)(end / 1000000000ULL),
			       (long)(end % 1000000000ULL) };
	uint64_t seq;

	pthread_mutex_lock(&lock);
	req_hook = hook;
	seq = ++req_seq;
	pthread_cond_broadcast(&cond);
	while (done_seq != seq &&
	       pthread_cond_timedwait(&cond, &lock, &ts) == 0)
		;
	if (done_seq == seq) {
		*text = result;
		result = NULL;
	}
	pthread_mutex_unlock(&lock);
	return done_seq == seq;
}

char *torture_flavor_stats(const struct rcut_flavor *f, uint64_t bound_ns)
{
	char *text = NULL, *line;

	if (!f->stats || hung)
		return NULL;
	if (!start_helper())
		return strdup(
			"(the flavor's stats hook was not called: no helper thread)");
	if (!request(f->stats, bound_ns, &text)) {
		hung = true;
		if (asprintf(
			    &line,
			    "(the flavor's stats hook did not return within %.2f s: not called again in this run)",
			    (double)bound_ns / 1e9) < 0)
			return NULL;
		return line;
	}
	if (!text)
		return strdup("(the flavor's stats hook: out of memory)");
	/* One line, as the ABI asks: inner newlines become spaces. */
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = p[1] ? ' ' : '\0';
	return text;
}
