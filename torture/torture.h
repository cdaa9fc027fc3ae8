/* SPDX-License-Identifier: MIT */
/*
 * The harness core: the run context (struct torture_run) and the
 * subsystems whose state it holds: time, failures, counters, simulated
 * CPUs, threads, callbacks, the element pool, the memory-ordering check,
 * the barrier test, CPU hotplug and stutter.  Every torture/ file
 * includes this; nothing outside torture/ needs it.
 *
 * Nothing here is a global: a thread body reaches the run through its
 * struct torture_thread (t->run), a callback through its struct
 * torture_cb (cb->run).  The one exception is torture_signal_run below.
 */
#ifndef TORTURE_TORTURE_H
#define TORTURE_TORTURE_H

#include "config.h"
#include "../report/snapshot.h"

#include <pthread.h>
#include <rcutorture/flavor.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define relaxed memory_order_relaxed

struct torture_run;
struct torture_thread;
struct torture_test;

/* Add to a counter only its owning thread writes: no locked instruction. */
static inline void counter_inc_owned(_Atomic uint64_t *c)
{
	atomic_store_explicit(c, atomic_load_explicit(c, relaxed) + 1, relaxed);
}

/* Add to a counter several threads write. */
static inline void counter_inc(_Atomic uint64_t *c)
{
	atomic_fetch_add_explicit(c, 1, relaxed);
}

/* --- time (torture/time.c) --- */
struct torture_clock {
	uint64_t start_ns;	  /* when the threads started */
	_Atomic uint64_t stop_ns; /* when the stop began, 0 before */
};

uint64_t torture_now_ns(void); /* CLOCK_MONOTONIC */
/* Since the threads started, up to the stop once the run is stopping. */
uint64_t torture_elapsed_ns(struct torture_run *run);
void torture_mark_start(struct torture_run *run);
void torture_mark_stop(struct torture_run *run);
/* Sleep ns, waking at least every 10 ms to notice the stop flag. */
void torture_sleep_ns(struct torture_run *run, uint64_t ns);
/* Sleep ns even while stopping: for waits a grace period depends on. */
void torture_nap_ns(uint64_t ns);
/* Busy-wait ns (inside read sections), also noticing the stop flag. */
void torture_spin_ns(struct torture_run *run, uint64_t ns);

/* --- random numbers (torture/random.c) --- */
struct torture_rand {
	uint64_t state;
};
void torture_rand_seed(struct torture_rand *r, uint64_t seed, uint64_t stream);
uint64_t torture_random(struct torture_rand *r);

/* --- simulated CPUs (torture/cpus.c) --- */
struct hwloc_topology;
struct sim_cpu;

struct torture_cpus {
	struct hwloc_topology *topo;
	struct sim_cpu *cpu; /* n of them */
	int n, npus;
	int *pu_order;		  /* usable PUs, in the --pin order */
	_Atomic int online;	  /* CPUs in the online state */
	_Atomic int shuffle_idle; /* the CPU the shuffle keeps idle, or -1 */
	bool pinning;
};

/* PUs this process may use (the --cpus default). */
int torture_cpus_available(void);
/* Build the run's simulated CPUs from --cpus and --pin; -1 with a reason. */
int torture_cpus_init(struct torture_run *run, char *err, size_t len);
/* --verbose: the topology and the CPU-to-PU map. */
void torture_cpus_print(struct torture_run *run, FILE *out);
/*
 * Put the calling thread on a CPU at start, and take it off at exit.  The
 * functions below without a run act on the calling thread's own CPU
 * (thread-local, like the flavor ABI's rcut_current_cpu()).
 */
void torture_cpu_enter(struct torture_thread *t, int cpu);
void torture_cpu_exit(void);
/*
 * Off the CPU while sleeping or blocked; back (maybe elsewhere) after.
 * detach returns false if the thread was not on a CPU: then the caller
 * must not attach afterwards (the onoff thread stays off during its work).
 */
bool torture_cpu_detach(void);
void torture_cpu_attach(void);
/* Whether the calling thread's CPU is going offline or shuffled idle. */
bool torture_cpu_must_move(void);
void torture_cpu_checkpoint_slow(void);
/* At a safe point (outside read sections): leave an unusable CPU. */
static inline void torture_cpu_checkpoint(void)
{
	if (__builtin_expect(torture_cpu_must_move(), 0))
		torture_cpu_checkpoint_slow();
}
bool torture_cpu_is_online(struct torture_cpus *c, int cpu);
int torture_cpus_online(struct torture_cpus *c);
/* The onoff thread's transitions; 0 on success, -1 if refused/timed out. */
int torture_cpu_offline(struct torture_run *run, int cpu, uint64_t bound_ns);
int torture_cpu_online(struct torture_run *run, int cpu);
/* Count harness callbacks posted from cpu and not yet invoked. */
void torture_cpu_callback_posted(struct torture_cpus *c, int cpu, int delta);
/* An online CPU with callbacks posted from it still pending, or -1. */
int torture_cpu_with_pending_callbacks(struct torture_cpus *c,
				       struct torture_rand *r);
/* Shuffle: threads avoid this CPU (-1: none). */
void torture_cpu_set_idle(struct torture_cpus *c, int cpu);

/* --- failures (torture/failure.c) --- */
struct torture_failures {
	pthread_mutex_t lock;
	bool failed;
	uint64_t first_ns;	 /* the first failure: when, ... */
	const char *first_check; /* ... and which check caught it */
	atomic_bool internal;	 /* the harness itself failed */
};

/*
 * Record a failure: the first one's time and check are kept for the final
 * report and its details printed at once; with --stop-on-failure the run
 * stops.  Callable from any thread, including flavor callbacks.
 */
void torture_failure(struct torture_run *run, const char *check,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The harness itself failed (cannot bind a CPU, ...): stop, exit 5. */
void torture_internal_error(struct torture_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool torture_had_internal_error(struct torture_run *run);
/* Time and name of the first failure; false if none was seen. */
bool torture_first_failure(struct torture_run *run, uint64_t *at_ns,
			   const char **check);

/* --- counters shared by all threads (torture/stats.c) --- */
struct torture_counters {
	_Atomic uint64_t ver, rta, rtaf, rtf, rtmbe;
	_Atomic uint64_t mbchk_fail, mbchk_tries;
	_Atomic uint64_t rtbe, barrier_ok, barrier_attempts;
	_Atomic uint64_t barrier_ns_sum, barrier_ns_max; /* barrier test */
	_Atomic uint64_t read_exits;
	_Atomic uint64_t wcount[RCUT_HIST_LEN];
	_Atomic uint64_t sync_gps; /* GP waits completed by the harness */
	_Atomic uint64_t writer_gps[RCUT_GP_NKINDS]; /* writer's GP kinds */
	_Atomic uint64_t cbs_posted, cbs_invoked, cbs_early, cbs_dup;
	_Atomic uint64_t migrations; /* threads moved off unusable CPUs */
	_Atomic uint64_t floods;     /* callback floods completed */
};

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
	/* Odd while inside a read-side section (callback witnesses). */
	_Atomic uint64_t section;
	/* Watchdog: bumped as the thread gets on; what it is waiting in. */
	_Atomic uint64_t progress;
	const char *_Atomic op;
	_Atomic uint64_t op_since_ns;
	uint64_t wd_seen, wd_since_ns; /* the watchdog's own bookkeeping */
	/* Its backtrace, written by itself on request (watchdog.c). */
	char *bt;
	atomic_bool bt_done;
	/* Per-reader histograms, written only by the owning thread. */
	_Atomic uint64_t pipe[RCUT_HIST_LEN];
	_Atomic uint64_t batch[RCUT_HIST_LEN];
	_Atomic uint64_t reads;
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

/* The calling thread got on with its work (the watchdog looks at this). */
static inline void torture_progress(void)
{
	struct torture_thread *t = torture_self();

	if (t)
		counter_inc_owned(&t->progress);
}

/* The calling thread enters / leaves a flavor call that may block. */
void torture_op_begin(const char *op);
void torture_op_end(void);

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

/* --- fatal signals (torture/fatal.c) --- */
/* Report and exit 5 on SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT. */
void torture_fatal_init(void);
/* Give the calling thread an alternate signal stack; pass to _exit(). */
void *torture_fatal_thread_init(void);
void torture_fatal_thread_exit(void *altstack);

/* --- the stall watchdog (torture/watchdog.c) --- */
/* Install the backtrace-request signal handler; before threads start. */
void torture_watchdog_init(void);
/*
 * Look for a stall: a thread of the run's table without progress for
 * --stall-timeout.  Returns true with a description in what.
 */
bool torture_watchdog_check(struct torture_run *run, char *what, size_t len);
/* Print every live thread's backtrace (each unwinds itself on a signal). */
void torture_print_backtraces(struct torture_run *run);

/* Thread bodies. */
void torture_reader(struct torture_thread *t);
void torture_read_exit(struct torture_thread *t);
/* One read-side section with all checks; false if nothing to read yet. */
bool torture_one_read(struct torture_thread *t);

/* --- rtmbkf, the memory-ordering check (torture/mbchk.c) --- */
struct torture_elem;
struct torture_mbchk;
int torture_mbchk_init(struct torture_run *run, int nreaders);
void torture_mbchk_cleanup(struct torture_run *run);
/* Reader t, inside a section, holds p: assign a check, carry one out. */
void torture_mbchk_read(struct torture_thread *t, struct torture_elem *p);
/* p is aged after a grace period: a check hung on it is ready. */
void torture_mbchk_gp_passed(struct torture_elem *p);
void torture_writer(struct torture_thread *t);
void torture_fakewriter(struct torture_thread *t);
/* Preemption injection: signal random threads, readers above all. */
void torture_preempter(struct torture_thread *t);
void torture_onoff(struct torture_thread *t);
void torture_fwd_progress(struct torture_thread *t);
void torture_stutter(struct torture_thread *t);
void torture_shuffle(struct torture_thread *t);
/* Called by every torture loop: wait while the stutter pauses the test. */
void torture_stutter_wait(struct torture_thread *t);

/*
 * A thread count as the kernel resolves nreaders and nfakewriters
 * (torture/counts.c): RCUT_COUNT_AUTO gives auto_count, a negative value
 * ncpus - 2 - value (at least 1), anything else itself.
 */
long torture_resolve_count(long value, long auto_count, int ncpus);

/* The kernel's onoff statistics, in ms (torture/onoff.c). */
struct onoff_stats {
	long online_attempts, online_successes;
	long offline_attempts, offline_successes;
	long min_online_ms, max_online_ms, min_offline_ms, max_offline_ms;
	unsigned long sum_online_ms, sum_offline_ms;
};

struct torture_onoff {
	pthread_mutex_t lock;
	struct onoff_stats stats;
};

void torture_onoff_init(struct torture_onoff *o);
void torture_onoff_read(struct torture_run *run, struct onoff_stats *out);

/* --- accounted callbacks (torture/callbacks.c) --- */
#define TORTURE_CB_WITNESSES 4
enum { TORTURE_CB_IDLE, TORTURE_CB_POSTED };

/*
 * Every callback the harness posts goes through this layer, which checks
 * that it is invoked exactly once and not before a grace period: at post
 * time it notes up to four readers that are inside a read-side section
 * (their section counters); if one of them is still inside that same
 * section when the callback runs, the grace period was too short.
 */
struct torture_cb {
	struct rcut_head rh;
	struct torture_run *run; /* set at post: the invocation's context */
	_Atomic int state;	 /* posted or idle */
	const char *kind;	 /* for messages: "element aging", ... */
	void *owner;		 /* the object this callback belongs to */
	void (*fn)(struct torture_cb *cb);
	_Atomic uint64_t posted_ns; /* read by the watchdog */
	int cpu; /* simulated CPU it was posted from, or -1 */
	int nwitness;
	struct {
		int reader;
		uint64_t section;
	} witness[TORTURE_CB_WITNESSES];
};

/* Post cb through the flavor's call(); fn(cb) runs after a grace period. */
void torture_cb_post(struct torture_run *run, struct torture_cb *cb,
		     const char *kind, void (*fn)(struct torture_cb *cb));
/* Callbacks posted and not (yet) invoked. */
int64_t torture_cbs_in_flight(struct torture_run *run);

/* --- the barrier test (torture/barrier.c) --- */
struct torture_barrier {
	struct torture_cb *cbs; /* one per poster */
	_Atomic long phase;	/* bumped by the driver to start a phase */
	_Atomic long posted, invoked;
};

void torture_barrier_poster(struct torture_thread *t);
void torture_barrier_driver(struct torture_thread *t);
int torture_barrier_init(struct torture_run *run);
void torture_barrier_cleanup(struct torture_run *run);

/* --- the element pool (torture/elements.c) --- */
struct torture_elem {
	_Atomic int pipe_count;
	_Atomic int mbtest; /* 1 while allocated, 0 on the free list */
	/*
	 * Asynchronous aging alternates between two callback heads, so that
	 * a duplicate invocation of one post finds that head idle (and is
	 * reported) instead of looking like the next post.
	 */
	struct torture_cb cb[2];
	unsigned int cb_next;
	struct torture_elem *next; /* free list, writer's removed list */
	/* A reader's memory-ordering check, until a grace period passes. */
	struct torture_mbchk *_Atomic chkp;
};

#define TORTURE_POOL_SIZE (10 * RCUT_PIPE_LEN)

struct torture_pool {
	struct torture_elem elem[TORTURE_POOL_SIZE];
	struct torture_elem *free_list;
	pthread_mutex_t lock;		      /* of the free list */
	struct torture_elem *_Atomic current; /* what readers see */
};

void torture_pool_init(struct torture_pool *p);
/* An element off the free list; NULL (counted rtaf) if none is free. */
struct torture_elem *torture_elem_alloc(struct torture_run *run);
/* Age e by one stage; true if that freed it (it reached PIPE_LEN). */
bool torture_elem_age(struct torture_run *run, struct torture_elem *e);
/* Age e once per grace period via the flavor's call(), until freed. */
void torture_elem_age_async(struct torture_run *run, struct torture_elem *e);
bool torture_pool_empty(struct torture_pool *p);
/* An element's aging callback posted more than timeout ago, not invoked. */
bool torture_pool_stalled_callback(struct torture_pool *p, uint64_t now,
				   uint64_t timeout, char *what, size_t len);

/* Note the flavor's GP sequence at the start (torture/stats.c). */
void torture_stats_start(struct torture_run *run);
/* Fill s with the current counters of the run and its thread table. */
void torture_snapshot(struct torture_run *run, struct rcut_snapshot *s);

/* --- the run context (torture/context.c) --- */
struct torture_run {
	const struct rcut_config *cfg;	  /* the options, read-only */
	const struct rcut_flavor *flavor; /* the flavor under test */
	/* Every flavor under test (the ref test's list), flavor among them. */
	const struct rcut_flavor *const *flavors;
	int nflavors, flavor_index;
	const struct torture_test *test; /* what runs (lifecycle.h) */
	/* The output prefix after "<flavor>-": "torture", "scale", ... */
	const char *tag;
	long nreaders;	   /* resolved reader count */
	long nfakewriters; /* resolved fake-writer count */
	/* Reader features without an option of their own (--swarm sets). */
	bool read_nesting;     /* nested read-side sections, where allowed */
	bool read_delays;      /* the kernel's in-section delays */
	bool read_delays_long; /* and often a longer one (--swarm) */
	bool fast_gps; /* the writers pause 1/20, fake writers 1/100 as long */
	atomic_bool stopping; /* every loop polls this */
	int stop_signal;      /* the SIGINT/SIGTERM that stopped it, or 0 */
	struct torture_clock clock;
	struct torture_failures failure;
	struct torture_counters counters;
	struct torture_threads threads;
	struct torture_cpus cpus;
	struct torture_pool pool;
	struct torture_mbchk *mbchk; /* one slot per reader */
	struct torture_barrier barrier;
	struct torture_onoff onoff;
	unsigned long gp_seq_start;	   /* the flavor's, at the start */
	atomic_bool stutter_paused;	   /* the stutter pauses the test */
	_Atomic unsigned int witness_scan; /* callbacks.c: rotating start */
	void *test_state; /* the test's own (struct scale_state, ...) */
};

/*
 * A run that has not started: every subsystem in its idle state, nothing
 * allocated, no thread.  Unit tests build their context with this.
 */
void torture_run_init(struct torture_run *run, const struct rcut_config *cfg,
		      const struct rcut_flavor *flavor, const char *tag);

/*
 * The one process-wide pointer to the run in progress (NULL before), for
 * code that is handed no context: the fatal-signal handler and the flavor
 * ABI's rcut_nr_cpus().  Set by the lifecycle before the flavor's init;
 * it keeps the run reachable until exit.  Nothing else may read it.
 */
extern struct torture_run *torture_signal_run;

static inline bool torture_must_stop(struct torture_run *run)
{
	return atomic_load_explicit(&run->stopping, relaxed);
}

/* Set the stop flag: every loop ends soon. */
static inline void torture_stop(struct torture_run *run)
{
	atomic_store(&run->stopping, true);
}

#endif /* TORTURE_TORTURE_H */
