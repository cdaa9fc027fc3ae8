// SPDX-License-Identifier: MIT
/*
 * Torture-thread lifecycle: every thread goes on its simulated CPU, waits
 * at the run's gate until every thread of its round exists, registers
 * with the flavor, runs its loop until the stop flag, and unregisters.
 * Joins are bounded so a thread stuck in the flavor cannot hold the
 * report hostage.
 */
#define _GNU_SOURCE
#include "run.h"
#include "fatal.h"
#include "holds.h"

#include <errno.h>
#include <unistd.h>
#include <string.h>
#include <time.h>

static __thread struct torture_thread *self;
static __thread bool op_detached; /* op_begin took us off our CPU */

struct torture_thread *torture_self(void)
{
	return self;
}

void torture_op_begin(const char *op)
{
	if (!self)
		return;
	atomic_store_explicit(&self->op_since_ns, torture_now_ns(),
			      memory_order_relaxed);
	atomic_store_explicit(&self->op, op, memory_order_release);
	op_detached = torture_cpu_detach(); /* blocked: off its CPU */
}

/*
 * The watchdog's name for a flavor call made where the thread must stay
 * on its simulated CPU (inside a read-side section): torture_op_begin()
 * without the detach.  torture_op_end() ends it.
 */
void torture_op_begin_on_cpu(const char *op)
{
	if (!self)
		return;
	atomic_store_explicit(&self->op_since_ns, torture_now_ns(),
			      memory_order_relaxed);
	atomic_store_explicit(&self->op, op, memory_order_release);
	op_detached = false;
}

bool torture_op_try_begin(const char *op)
{
	if (!self || atomic_load_explicit(&self->op, memory_order_acquire))
		return false;
	torture_op_begin(op);
	return true;
}

void torture_op_end_if(bool began)
{
	if (began)
		torture_op_end();
}

const char *torture_op_current(uint64_t *since_ns)
{
	const char *op;

	if (!self)
		return NULL;
	op = atomic_load_explicit(&self->op, memory_order_acquire);
	*since_ns =
		atomic_load_explicit(&self->op_since_ns, memory_order_relaxed);
	return op;
}

void torture_op_end(void)
{
	if (!self)
		return;
	if (op_detached)
		torture_cpu_attach();
	op_detached = false;
	atomic_store_explicit(&self->op, NULL, memory_order_release);
	counter_inc_owned(&self->progress);
}

/*
 * Wait until the gate opens: a thread that looped at once could starve
 * the main thread still creating the others (issue 13: 1024 readers).
 */
static void gate_wait(struct torture_threads *th)
{
	pthread_mutex_lock(&th->gate_lock);
	while (!th->gate_open)
		pthread_cond_wait(&th->gate_cond, &th->gate_lock);
	pthread_mutex_unlock(&th->gate_lock);
}

void torture_gate_open(struct torture_run *run)
{
	struct torture_threads *th = &run->threads;

	pthread_mutex_lock(&th->gate_lock);
	th->gate_open = true;
	pthread_cond_broadcast(&th->gate_cond);
	pthread_mutex_unlock(&th->gate_lock);
}

static void *thread_main(void *arg)
{
	struct torture_thread *t = arg;
	const struct rcut_flavor *f = t->run->flavor;
	void *altstack = torture_fatal_thread_init();

	self = t;
	atomic_store(&t->os_tid, gettid());
	torture_cpu_enter(t, t->cpu);
	gate_wait(&t->run->threads);
	hold_register_thread(f);
	/* QSBR: threads that do not read stay offline, or GPs would wait. */
	if (f->thread_offline && strcmp(t->kind, "reader") != 0)
		hold_thread_offline(f);
	t->fn(t);
	hold_unregister_thread(f);
	torture_cpu_exit();
	torture_fatal_thread_exit(altstack);
	atomic_store(&t->exited, true);
	return NULL;
}

void torture_threads_reset_placement(struct torture_run *run)
{
	atomic_store(&run->threads.next_cpu, 0);
}

int torture_thread_start(struct torture_run *run, struct torture_thread *t,
			 const char *kind, int id,
			 void (*fn)(struct torture_thread *t))
{
	int err;

	t->run = run;
	t->kind = kind;
	t->id = id;
	t->fn = fn;
	/* Placement in creation order: writer 0 goes on CPU 0, and so on. */
	t->cpu = atomic_fetch_add(&run->threads.next_cpu, 1);
	torture_rand_seed(&t->rand, run->cfg->seed,
			  ((uint64_t)(unsigned char)kind[0] << 32) ^
				  ((uint64_t)(unsigned char)kind[1] << 40) ^
				  (uint64_t)id);
	err = pthread_create(&t->tid, NULL, thread_main, t);
	if (err) {
		errno = err;
		return -1;
	}
	t->created = true;
	return 0;
}

bool torture_thread_join(struct torture_thread *t, uint64_t deadline_ns)
{
	struct timespec abs;
	uint64_t now = torture_now_ns(), wait;

	if (!t->created)
		return true;
	wait = deadline_ns > now ? deadline_ns - now : 0;
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_sec += (time_t)(wait / 1000000000ULL);
	abs.tv_nsec += (long)(wait % 1000000000ULL);
	if (abs.tv_nsec >= 1000000000L) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000L;
	}
	if (pthread_timedjoin_np(t->tid, NULL, &abs))
		return false;
	t->created = false;
	return true;
}
