/* SPDX-License-Identifier: MIT */
/*
 * urcu_loop: the reference loop `make bench` compares rcutorture with.  It
 * measures what liburcu's tests/benchmark/test_urcu.c measures (written
 * here from its description, not copied): N reader threads in a tight
 * loop of read_lock, rcu_dereference of one shared pointer, a check that
 * the int it points to is live, read_unlock; QSBR readers report a
 * quiescent state every 1024 reads.  One writer loops: allocate a new int,
 * publish it with rcu_xchg_pointer, synchronize_rcu, poison and free the
 * old one.  A reader that sees the poison counts an error.
 *
 * Two parts.  Always: what urcu_loop_main.c and the flavor files share.
 * With URCU_FLAVOR defined (ci/bench/urcu_loop_<flavor>.c, after its one
 * liburcu header with _LGPL_SOURCE): the loop bodies for that flavor and
 * its table urcu_loop_<flavor>.  liburcu's flavor headers must not be
 * mixed in one translation unit, hence one file per flavor.
 */
#ifndef CI_BENCH_URCU_LOOP_H
#define CI_BENCH_URCU_LOOP_H

#include <pthread.h>
#include <stdatomic.h>

/* The value of a published int, and what the writer leaves in a freed one. */
#define URCU_LOOP_LIVE 0x5eed
#define URCU_LOOP_POISON 0x0dead

/* One thread's result, on its own cache line. */
struct urcu_loop_slot {
	unsigned long long count;  /* reads (reader) or updates (writer) */
	unsigned long long errors; /* reads that saw a non-live value */
} __attribute__((aligned(64)));

struct urcu_loop_flavor {
	const char *name;
	void (*publish_first)(void); /* before any thread starts */
	void (*free_last)(void);     /* after every thread has been joined */
	void *(*reader)(void *slot);
	void *(*writer)(void *slot);
};

/* Defined in urcu_loop_main.c. */
extern atomic_int urcu_loop_stop;
/* Every thread waits here once registered; main releases them all. */
extern pthread_barrier_t urcu_loop_start;

extern const struct urcu_loop_flavor urcu_loop_memb, urcu_loop_mb,
	urcu_loop_signal, urcu_loop_qsbr, urcu_loop_bp;

#endif /* CI_BENCH_URCU_LOOP_H */

#ifdef URCU_FLAVOR
#ifndef CI_BENCH_URCU_LOOP_BODY
#define CI_BENCH_URCU_LOOP_BODY

#include <stdlib.h>

#define UL_CAT3_(a, b, c) a##b##c
#define UL_CAT3(a, b, c) UL_CAT3_(a, b, c)
/* UL(read_lock) is urcu_<flavor>_read_lock. */
#define UL(name) UL_CAT3(urcu_, URCU_FLAVOR, _##name)

/* The shared pointer; each flavor file has its own. */
static int *ul_shared;

static int *ul_new_live(void)
{
	int *p = malloc(sizeof(*p));

	if (!p)
		abort();
	*p = URCU_LOOP_LIVE;
	return p;
}

static void ul_publish_first(void)
{
	rcu_assign_pointer(ul_shared, ul_new_live());
}

static void ul_free_last(void)
{
	free(rcu_xchg_pointer(&ul_shared, NULL));
}

static int ul_stopped(void)
{
	return atomic_load_explicit(&urcu_loop_stop, memory_order_relaxed);
}

static void *ul_reader(void *arg)
{
	struct urcu_loop_slot *slot = arg;
	unsigned long long reads = 0, errors = 0;

	UL(register_thread)();
	pthread_barrier_wait(&urcu_loop_start);
	do {
		int *p;

		UL(read_lock)();
		p = rcu_dereference(ul_shared);
		/* The value is used: the loop cannot be optimised away. */
		if (__builtin_expect(!p || *p != URCU_LOOP_LIVE, 0))
			errors++;
		UL(read_unlock)();
		reads++;
#ifdef URCU_LOOP_QSBR
		if (__builtin_expect((reads & 1023) == 0, 0))
			UL(quiescent_state)();
#endif
	} while (!ul_stopped());
	UL(unregister_thread)();
	slot->count = reads;
	slot->errors = errors;
	return NULL;
}

/* The writer is not a reader, so it needs no registration (QSBR included). */
static void *ul_writer(void *arg)
{
	struct urcu_loop_slot *slot = arg;
	unsigned long long updates = 0;

	pthread_barrier_wait(&urcu_loop_start);
	do {
		int *old = rcu_xchg_pointer(&ul_shared, ul_new_live());

		UL(synchronize_rcu)();
		/* volatile: a store just before free() is otherwise dropped. */
		*(volatile int *)old = URCU_LOOP_POISON;
		free(old);
		updates++;
	} while (!ul_stopped());
	slot->count = updates;
	slot->errors = 0;
	return NULL;
}

/* This flavor's table: urcu_loop_<flavor>. */
#define UL_STR_(x) #x
#define UL_STR(x) UL_STR_(x)
const struct urcu_loop_flavor UL_CAT3(urcu_loop_, URCU_FLAVOR, ) = {
	.name = UL_STR(URCU_FLAVOR),
	.publish_first = ul_publish_first,
	.free_last = ul_free_last,
	.reader = ul_reader,
	.writer = ul_writer,
};

#endif /* CI_BENCH_URCU_LOOP_BODY */
#endif /* URCU_FLAVOR */
