// SPDX-License-Identifier: MIT
/*
 * Preemption injection (preempt.h): the signal handler that keeps a
 * thread away, and the sender.  Only atomics, clock_gettime, nanosleep
 * and thread-local variables of the executable (static TLS) are used in
 * the handler.
 */
#define _GNU_SOURCE
#include "preempt.h"

#include "../util/delay.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * A thread runs at least as long as its last injected delay, and at
 * least MIN_RUN_NS, before the handler delays it again.
 */
#define MIN_RUN_NS 100000ULL

static uint64_t max_ns = 1000000;    /* until preempt_configure() */
static struct delay_streams streams; /* reseeded by every configure */

static struct preempt_stats stats;

/* Per thread: the handler's random stream and its last delay. */
static __thread struct delay_stream rng;
static __thread uint64_t last_end_ns, last_len_ns;
static __thread uint64_t self_delays; /* preempt_self_delays() */

int preempt_configure(uint64_t max_duration_ns, uint64_t seed)
{
	if (max_duration_ns < DELAY_MIN_NS)
		return -1;
	__atomic_store_n(&max_ns, max_duration_ns, __ATOMIC_RELAXED);
	delay_streams_reseed(&streams, seed);
	return 0;
}

int preempt_signal(void)
{
	return PREEMPT_SIGNAL;
}

static void add(uint64_t *counter, uint64_t n)
{
	__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

/* This thread's handler stream, reseeded after every configure. */
static uint64_t *handler_rng(void)
{
	return delay_stream(&streams, &rng, 0x9fb21c651e98df25ULL);
}

/* Keep the interrupted thread away for a random time. */
static void preempt_handler(int sig)
{
	int saved_errno = errno;
	uint64_t start = delay_now_ns(), d, took;

	(void)sig;
	if (last_end_ns &&
	    start < last_end_ns + (last_len_ns > MIN_RUN_NS ? last_len_ns :
							      MIN_RUN_NS)) {
		add(&stats.skipped, 1);
		errno = saved_errno;
		return;
	}
	d = delay_draw_ns(handler_rng(),
			  __atomic_load_n(&max_ns, __ATOMIC_RELAXED));
	if (delay_wait_ns(d))
		add(&stats.sleeps, 1);
	else
		add(&stats.spins, 1);
	last_end_ns = delay_now_ns();
	took = last_end_ns - start;
	last_len_ns = took;
	add(&stats.delay_ns_total, took);
	delay_max_u64(&stats.delay_ns_max, took);
	self_delays++;
	/* Last, so that a reader who sees the count sees its time. */
	__atomic_fetch_add(&stats.delays, 1, __ATOMIC_RELEASE);
	errno = saved_errno;
}

int preempt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = preempt_handler;
	/*
	 * Restart interrupted system calls; block nothing extra, so that
	 * liburcu's SIGUSR1 and the watchdog's backtrace request still
	 * reach a thread held in the handler.
	 */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(PREEMPT_SIGNAL, &sa, NULL);
}

int preempt_thread(pid_t os_tid)
{
	if (syscall(SYS_tgkill, getpid(), os_tid, PREEMPT_SIGNAL)) {
		add(&stats.send_failed, 1);
		return -1;
	}
	add(&stats.sent, 1);
	return 0;
}

void preempt_snapshot(struct preempt_stats *out)
{
	/* First: every delay counted has its time in the totals below. */
	out->delays = __atomic_load_n(&stats.delays, __ATOMIC_ACQUIRE);
	out->sent = __atomic_load_n(&stats.sent, __ATOMIC_RELAXED);
	out->send_failed =
		__atomic_load_n(&stats.send_failed, __ATOMIC_RELAXED);
	out->skipped = __atomic_load_n(&stats.skipped, __ATOMIC_RELAXED);
	out->spins = __atomic_load_n(&stats.spins, __ATOMIC_RELAXED);
	out->sleeps = __atomic_load_n(&stats.sleeps, __ATOMIC_RELAXED);
	out->delay_ns_total =
		__atomic_load_n(&stats.delay_ns_total, __ATOMIC_RELAXED);
	out->delay_ns_max =
		__atomic_load_n(&stats.delay_ns_max, __ATOMIC_RELAXED);
}

uint64_t preempt_self_delays(void)
{
	return __atomic_load_n(&self_delays, __ATOMIC_RELAXED);
}

void preempt_reset_stats(void)
{
	/* Field by field, atomically: the handler may run meanwhile. */
	__atomic_store_n(&stats.sent, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stats.send_failed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stats.delays, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stats.skipped, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stats.spins, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stats.sleeps, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stats.delay_ns_total, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stats.delay_ns_max, 0, __ATOMIC_RELAXED);
}
