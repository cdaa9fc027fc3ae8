// SPDX-License-Identifier: MIT
/*
 * A deterministic reproducer for librte_rcu's (DPDK 22.11) acked_token
 * race, the cause of docs/findings/dpdk-qsbr-early-callback.md: a scan
 * by rte_rcu_qsbr_check() skips a thread it sees offline, and caches as
 * v->acked_token the least counter it saw among the others, read at
 * different times.  A thread that comes online after the scan passed it,
 * and reads the structure before a later token t2 is issued, is then
 * not covered by t2, yet check(t2) returns 1 from the cache.
 *
 * Thread ids 0 (A), 1 (C), 2 (B) and 3 (D, offline throughout) of a QS
 * variable for 4, all registered, so that the check scans them in id
 * order and waits on each in turn (__rte_rcu_qsbr_check_all; with fewer
 * registered, the selective scan starts over after each wait, and the
 * same race needs the checker preempted between two counters).  The
 * checker thread runs check(t1, wait=true) and spins on C; meanwhile A
 * comes online and "reads element E", E is unlinked and t2 = start(),
 * B and C report their quiescent states.  The checker then returns 1
 * for t1 (right) and caches acked_token = t2 (wrong): check(t2, false)
 * returns 1 while A, online with a counter below t2, still holds E.
 *
 * The reporting calls for A, B and C are made from the main thread:
 * librte_rcu keeps no thread-local state, a thread id is only an index
 * into v->qsbr_cnt[], so this is the same memory traffic as three reader
 * threads making them in this order.
 *
 * Build: cc $(pkg-config --cflags libdpdk) dpdk-qsbr-acked-token.c \
 *            -lrte_rcu -lrte_eal -pthread
 * Exit 1 and "EARLY" if the race shows (up to 5 attempts, in case the
 * checker got no CPU in time), 0 if check(t2) waits for A every time.
 */
#include <pthread.h>
#include <rte_rcu_qsbr.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { A, C, B, D, NTHREADS = 4, ATTEMPTS = 5 };

static struct rte_rcu_qsbr *v;
static uint64_t t1;
static volatile int checker_started;

/* The checker: waits in rte_rcu_qsbr_check(t1) (at C, after passing A). */
static void *checker(void *arg)
{
	(void)arg;
	checker_started = 1;
	return (void *)(long)rte_rcu_qsbr_check(v, t1, true);
}

/*
 * One attempt; returns whether check(t2) returned 1 early.  The checker
 * must have read A's counter before A comes online: it gets 200 ms after
 * it started, which a loaded machine may not give it, hence attempts.
 */
static int attempt(void)
{
	pthread_t th;
	void *ret;
	uint64_t t2;
	int early;

	if (rte_rcu_qsbr_init(v, NTHREADS))
		exit(2);
	for (int id = A; id <= D; id++)
		rte_rcu_qsbr_thread_register(v, id);
	rte_rcu_qsbr_thread_online(v, C); /* A (and D) stay offline for now */
	rte_rcu_qsbr_thread_online(v, B);

	t1 = rte_rcu_qsbr_start(v);
	checker_started = 0;
	pthread_create(&th, NULL, checker, NULL);
	while (!checker_started)
		usleep(1000);
	usleep(200000); /* the checker has seen A offline, spins at C */

	rte_rcu_qsbr_thread_online(v, A); /* A reads element E from here */
	t2 = rte_rcu_qsbr_start(v);	  /* after E was unlinked */
	rte_rcu_qsbr_quiescent(v, B);
	rte_rcu_qsbr_quiescent(v, C);
	pthread_join(th, &ret);

	early = rte_rcu_qsbr_check(v, t2, false);
	printf("check(t1=%llu) by the checker: %ld; acked_token now %llu\n",
	       (unsigned long long)t1, (long)ret,
	       (unsigned long long)v->acked_token);
	printf("A online, counter %llu < t2=%llu, has not reported since t2; check(t2) = %d: %s\n",
	       (unsigned long long)v->qsbr_cnt[A].cnt, (unsigned long long)t2,
	       early, early ? "EARLY (grace period ended under A)" : "waits");
	return early;
}

int main(void)
{
	size_t sz = rte_rcu_qsbr_get_memsize(NTHREADS);

	v = aligned_alloc(RTE_CACHE_LINE_SIZE,
			  (sz + RTE_CACHE_LINE_SIZE - 1) &
				  ~(size_t)(RTE_CACHE_LINE_SIZE - 1));
	if (!v)
		return 2;
	for (int i = 1; i <= ATTEMPTS; i++)
		if (attempt()) {
			printf("early grace period at attempt %d of %d\n", i,
			       ATTEMPTS);
			return 1;
		}
	return 0;
}
