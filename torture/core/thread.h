/* SPDX-License-Identifier: MIT */
/*
 * Torture threads (core/threads.c): the table, the start gate, the
 * calling thread's identity and the progress the watchdog looks at.
 */
#ifndef TORTURE_CORE_THREAD_H
#define TORTURE_CORE_THREAD_H

#include "counters.h"
#include "../util/random.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct torture_run;

/* --- threads (torture/threads.c) --- */
struct torture_thread {
	struct torture_run *run; /* the run it belongs to */
	const char *kind;	 /* "reader", "writer", "fakewriter", ... */
	int id;			 /* index among threads of its kind */
	void (*fn)(struct torture_thread *t);
	pthread_t tid;
	_Atomic pid_t os_tid; /* its kernel thread ID, once it runs */
	bool created;
	atomic_bool exited;
	struct torture_rand rand;
	int cpu; /* the simulated CPU it is (or was last) on */
	/* The simulated CPU it counts on now, plus one (0: none). */
	_Atomic int attached_cpu1;
	/* Odd while inside a read-side section (callback witnesses). */
	_Atomic uint64_t section;
	/* Watchdog: bumped as the thread gets on; what it is waiting in. */
	_Atomic uint64_t progress;
	const char *_Atomic op;
	_Atomic uint64_t op_since_ns;
	uint64_t wd_seen, wd_since_ns; /* the watchdog's own bookkeeping */
	/* Stopped outside a flavor call: the time charged (watchdog.c). */
	uint64_t wd_charged_ns, wd_look_ns, wd_cpu_ns;
	bool wd_looked, wd_cpu_known;
	/* The last look's wait for a CPU (0 if not looked at, or asleep). */
	uint64_t wd_waited_ns;
	/* In a flavor call: the time not charged, behind a starved reader. */
	uint64_t wd_excused_ns, wd_excused_op_since_ns;
	const char *wd_op; /* the op as this check saw it */
	/* Per-reader histograms, written only by the owning thread. */
	_Atomic uint64_t pipe[RCUT_HIST_LEN];
	_Atomic uint64_t batch[RCUT_HIST_LEN];
	_Atomic uint64_t reads;
	/*
	 * --irqreader (threads/irqreader.c): the reads the signal handler
	 * did on this thread, written only by that handler (it never nests
	 * in itself); the first bad one it saw, for the thread to report.
	 */
	_Atomic uint64_t irq_pipe[RCUT_HIST_LEN];
	atomic_bool irq_armed; /* the handler reads only while set */
	void *irq_timer;       /* its timer_t, while armed */
	_Atomic int irq_bad;   /* 0, or the pipe stage (-1: freed element) */
	void *_Atomic irq_bad_elem;
	bool irq_reported;
	uint64_t irq_rand; /* the handler's random stream */
	/* Callback order (cborder.c): posts numbered, the newest invoked. */
	_Atomic uint64_t cb_posts;
	_Atomic uint64_t cb_invoked_last;
};

/*
 * The run's threads.  The gate holds every new thread back, once it is
 * on its CPU, until the gate opens: no thread loops while the main thread
 * is still creating the others.
 */
struct torture_threads {
	struct torture_thread *t; /* the table: n used of cap */
	int n, cap;
	/* The readers, for callback witnesses and the rtmbkf check. */
	struct torture_thread **readers;
	int nreaders;
	_Atomic int next_cpu; /* initial placement: round robin */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cond;
	bool gate_open;
};

/* The calling torture thread, NULL in other threads. */
struct torture_thread *torture_self(void);

void torture_deadline_check(struct torture_run *run); /* core/clock.c */
#define TORTURE_DEADLINE_EVERY 256 /* progress steps between clock reads */

/*
 * The calling thread got on with its work (the watchdog looks at this);
 * now and then it also checks the run's deadline.
 */
static inline void torture_progress(void)
{
	struct torture_thread *t = torture_self();
	uint64_t p;

	if (!t)
		return;
	p = atomic_load_explicit(&t->progress, memory_order_relaxed);
	atomic_store_explicit(&t->progress, p + 1, memory_order_relaxed);
	if (!((p + 1) % TORTURE_DEADLINE_EVERY))
		torture_deadline_check(t->run);
}

/* The calling thread enters / leaves a flavor call that may block. */
void torture_op_begin(const char *op);

/*
 * torture_op_begin(op) unless the caller is already inside an op (a
 * callback run from within a blocking flavor call posts another one);
 * returns whether it began one, to pass to torture_op_end_if().
 */
bool torture_op_try_begin(const char *op);
/* torture_op_begin() for a call inside a read-side section: no detach. */
void torture_op_begin_on_cpu(const char *op);

/* torture_op_end() if began. */
void torture_op_end_if(bool began);
void torture_op_end(void);
/* The op the calling thread is in (NULL: none) and since when (ns). */
const char *torture_op_current(uint64_t *since_ns);

/* The next thread started goes on simulated CPU 0, the next on 1, ... */
void torture_threads_reset_placement(struct torture_run *run);
/*
 * Create a thread of the given kind in slot t; it waits at the gate
 * before fn.  -1 (and errno) if it could not be created.
 */
int torture_thread_start(struct torture_run *run, struct torture_thread *t,
			 const char *kind, int id,
			 void (*fn)(struct torture_thread *t));
/* Let the threads waiting at the gate (and every later one) run fn. */
void torture_gate_open(struct torture_run *run);
/* Join t if it exits by deadline_ns (monotonic); false if it did not. */
bool torture_thread_join(struct torture_thread *t, uint64_t deadline_ns);

#endif /* TORTURE_CORE_THREAD_H */
