// SPDX-License-Identifier: MIT
/*
 * prcu: Preemptive RCU (Chen et al., TPDS 2016; the 2018 Linux RFC) in
 * userspace, on the harness's simulated CPUs.
 *
 * Grace periods are numbered: gp_started counts grace periods begun,
 * gp_done is the last one completed.  Readers count themselves in the
 * per-CPU counter of the current phase; a reader returns (cpu, phase) from
 * read_lock and unlocks that same counter wherever it then runs, so a
 * reader that blocked or migrated inside its section (the RFC's
 * "preempted reader") is simply still counted on the CPU it locked on.
 * Several threads share a simulated CPU, so counters are atomic, and they
 * come in two phases so that overlapping readers on one CPU cannot starve
 * a grace period: synchronize drains the idle phase, flips, and waits for
 * the old phase to drain, CPU by CPU.  A CPU whose old-phase count is zero
 * is acknowledged for the grace period at once (what the RFC's IPI handler
 * does on an idle CPU); the others are the stragglers it waits for.
 *
 * The RFC's IPIs become one membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)
 * broadcast per scan: it forces a full barrier on every running thread of
 * the process, so readers need no fence of their own (a sleeping thread
 * went through the kernel's barriers when it was switched out).  Without
 * membarrier the readers fall back to a full fence.
 *
 * Callbacks sit on the per-CPU list of the CPU call() ran on (or on an
 * extra list for threads on no CPU), tagged with gp_started as read after
 * a full fence; a callback tagged t is ready once gp_done >= t + 1.  A
 * "tick" thread, once a millisecond, runs the ready prefix of every online
 * CPU's list, and (the GP engine) starts a grace period whenever a
 * callback or poller needs one, so callbacks progress with no synchronize
 * callers.  CPU offline moves the dying CPU's callbacks, in order, to an
 * online CPU; barrier entrains a callback behind the last one of every
 * non-empty list, counting callbacks being invoked as still queued.
 *
 * The RFC's behaviours come back on demand: prcu.gp_engine=0 (callbacks
 * only advance inside synchronize calls), prcu.migrate_cbs=0 (offline does
 * nothing: callbacks on an offline CPU are stranded until it comes back,
 * and barrier skips offline CPUs), prcu.cb_tag=local (tag with the CPU's
 * last acknowledged version, which can be older than a grace period in
 * flight: too short), prcu.idle_tick_ms=N (as under the RFC authors'
 * NO_HZ_IDLE kernels, a CPU's callbacks run on its own tick, which an idle
 * CPU defers: a CPU no reader ran on since its last tick processes them
 * only every N ms), or all four with prcu.rfc2018=1 (N = 10).
 *
 * Race points (rcut_race_point()): read_lock between reading the phase
 * and counting the reader, read_unlock before the count drops and between
 * the drop and the version report, synchronize after the snapshot, around
 * the flip, between CPU scans and before publishing gp_done; call between
 * tagging and queueing; the tick between taking ready callbacks and
 * running them; offline before the splice; barrier before entraining.
 */
#define _GNU_SOURCE
#include "../registry.h"

#include <linux/membarrier.h>
#include <stddef.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TICK_NS 1000000L /* HZ=1000 */

enum { TAG_GLOBAL, TAG_LOCAL };

static long migrate_cbs = 1, gp_engine = 1, cb_tag = TAG_GLOBAL, rfc2018;
static long idle_tick_ms = 1, poll_full_early, late_migrate;
static long offline_call_leak, retire_drain, retire_drain_wait;
static long unchecked_barrier;
static long gpwrap_lag; /* the standard parameter (--gpwrap-lag) */
static const char *const tag_names[] = { "global", "local", NULL };

static const struct rcut_param prcu_params[] = {
	{ "migrate_cbs",
	  "move a dying CPU's callbacks to an online CPU (0: the RFC: stranded, and barrier skips offline CPUs)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &migrate_cbs },
	{ "gp_engine",
	  "start grace periods for callbacks and pollers (0: the RFC: callbacks advance only inside synchronize)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &gp_engine },
	{ "cb_tag",
	  "callback tag: global (the started-GP count after a fence) or local (the RFC: the CPU's last acknowledged version, too weak)",
	  RCUT_PARAM_ENUM, 0, 0, tag_names, &cb_tag },
	{ "idle_tick_ms",
	  "how often (ms) a CPU no reader ran on since its last tick processes its callbacks; the RFC ran them from the CPU's own tick, which NO_HZ_IDLE defers on idle CPUs",
	  RCUT_PARAM_INT, 1, 1000, NULL, &idle_tick_ms },
	{ "poll_full_early",
	  "a defect on demand: full cookies poll as done one grace period early (an off-by-one), so a cookie taken inside a read-side section polls done before the section ends",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &poll_full_early },
	{ "late_migrate",
	  "a reported bug on demand (Linux, 2017): CPU offline waits for the outgoing CPU's callbacks to be invoked before migrating them, but an outgoing CPU no longer invokes callbacks: the offline hangs (0: migrate first)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &late_migrate },
	{ "offline_call_leak",
	  "a reported bug on demand (Linux, 2012): call() on an offline CPU queues the callback there, where nothing invokes it and the barrier does not look, until the CPU comes back (0: queue it on an online CPU)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &offline_call_leak },
	{ "retire_drain",
	  "call() drains now and then, as folly's rcu_retire() does: once per 10 ms one call() takes the grace-period mutex, without waiting (try-lock), and hands its CPU's ready callbacks to the next tick",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &retire_drain },
	{ "retire_drain_wait",
	  "a reported bug on demand (folly issue 1211, 2019): with retire_drain=1 the drain waits for the grace-period mutex, which a synchronize holds while it waits for readers: a call() inside a read-side section deadlocks against it (0: try-lock, folly's 2023 fix)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &retire_drain_wait },
	{ "unchecked_barrier",
	  "barrier() called inside a read-side section or from a callback waits like any other, and deadlocks (liburcu's rcu_barrier() refuses the first with an error; 0: refuse both and report them)",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &unchecked_barrier },
	{ "gpwrap_lag",
	  "start the grace-period numbers this many grace periods before they wrap around (0: at 0)",
	  RCUT_PARAM_INT, 0, 1000000000, NULL, &gpwrap_lag },
	{ "rfc2018",
	  "the 2018 RFC as its authors ran it: migrate_cbs=0 gp_engine=0 cb_tag=local idle_tick_ms=10",
	  RCUT_PARAM_BOOL, 0, 1, NULL, &rfc2018 },
	{ NULL, NULL, RCUT_PARAM_INT, 0, 0, NULL, NULL },
};

/* One simulated CPU (the last slot is for threads on no CPU). */
struct prcu_cpu {
	_Atomic long locked[2]; /* readers in each phase that locked here */
	atomic_ulong version;	/* last grace period this CPU acknowledged */
	atomic_bool online;
	atomic_bool ran; /* a reader ran here since the last tick (RFC) */
	pthread_mutex_t cb_lock;
	struct rcut_head *head, **tail; /* callbacks, FIFO */
	/*
	 * Queued plus being invoked (changed under cb_lock) and the grace
	 * periods that waited for it: atomic because the stats hook reads
	 * them without the lock (ThreadSanitizer's data-race mode).
	 */
	_Atomic long len;
	atomic_ulong stragglers;
	struct rcut_head barrier_head;
} __attribute__((aligned(64)));

static struct prcu_cpu *cpus;
static int ncpus; /* simulated CPUs; cpus[ncpus] is the no-CPU slot */
static atomic_int phase;
static atomic_ulong gp_started, gp_done, need_ver;

/*
 * Grace-period numbers wrap around (--gpwrap-lag starts them just short
 * of it): compare them by their difference, as the kernel's
 * ULONG_CMP_GE() and ULONG_CMP_LT() do, never with a plain < or >=.
 */
static inline bool seq_ge(unsigned long a, unsigned long b)
{
	return (long)(a - b) >= 0;
}

static inline bool seq_lt(unsigned long a, unsigned long b)
{
	return (long)(a - b) < 0;
}
static pthread_mutex_t gp_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t barrier_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t hotplug_lock = PTHREAD_RWLOCK_INITIALIZER;
static atomic_long barrier_count;
static bool have_membarrier;
static pthread_t tick_thread;
static atomic_bool tick_stop;
static atomic_ulong n_invoked, n_migrated, n_offline_leaked, n_drains;
static atomic_ulong n_barriers_refused;
static _Atomic uint64_t drain_at;    /* ns: when the next drain is due */
static atomic_long drains_in_reader; /* waiting for gp_mutex in a section */
/* The calling thread's read-side nesting (a signal handler's nets to 0). */
static __thread int reader_depth;
static __thread bool invoking; /* this thread runs callbacks now */

/* A queued head's list link and tag live in its flavor_priv words. */
#define NEXT(h) (*(struct rcut_head **)&(h)->flavor_priv[0])

static inline unsigned long get_tag(const struct rcut_head *h)
{
	return (unsigned long)(uintptr_t)h->flavor_priv[1];
}

static inline void set_tag(struct rcut_head *h, unsigned long tag)
{
	h->flavor_priv[1] = (void *)(uintptr_t)tag;
}

static void nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/* The barrier every reader would otherwise need, issued by the writer. */
static void broadcast_barrier(void)
{
	if (have_membarrier &&
	    syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) ==
		    0)
		return;
	atomic_thread_fence(memory_order_seq_cst);
}

static int my_slot(void)
{
	int cpu = rcut_current_cpu();

	return cpu >= 0 && cpu < ncpus ? cpu : ncpus;
}

static int prcu_read_lock(void)
{
	int cpu = my_slot(),
	    ph = atomic_load_explicit(&phase, memory_order_relaxed);

	reader_depth++;
	rcut_race_point(RCUT_RACE_READ_LOCK); /* phase read, not counted */
	atomic_fetch_add_explicit(&cpus[cpu].locked[ph], 1,
				  memory_order_relaxed);
	if (!atomic_load_explicit(&cpus[cpu].ran, memory_order_relaxed))
		atomic_store_explicit(&cpus[cpu].ran, true,
				      memory_order_relaxed);
	if (have_membarrier)
		atomic_signal_fence(memory_order_seq_cst);
	else
		atomic_thread_fence(memory_order_seq_cst);
	return cpu << 1 | ph;
}

static void prcu_read_unlock(int idx)
{
	struct prcu_cpu *c = &cpus[idx >> 1];

	reader_depth--;
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	/* Release: the section's loads are done before the count drops. */
	if (atomic_fetch_sub_explicit(&c->locked[idx & 1], 1,
				      memory_order_release) == 1 &&
	    (idx & 1) != atomic_load_explicit(&phase, memory_order_relaxed)) {
		/* The outermost old-phase reader here: report (the RFC). */
		rcut_race_point(RCUT_RACE_READ_UNLOCK);
		atomic_store_explicit(&c->version, atomic_load(&gp_started),
				      memory_order_relaxed);
	}
}

/* Wait for every CPU's readers in phase ph; ack idle CPUs at once. */
static void wait_for_phase(int ph, unsigned long v)
{
	for (int i = 0; i <= ncpus; i++) {
		struct prcu_cpu *c = &cpus[i];
		long spins = 0;

		rcut_race_point(RCUT_RACE_GP_WAIT);
		if (atomic_load_explicit(&c->locked[ph],
					 memory_order_acquire)) {
			c->stragglers++;
			while (atomic_load_explicit(&c->locked[ph],
						    memory_order_acquire)) {
				if (++spins < 100)
					continue;
				if (spins < 200)
					sched_yield();
				else
					nap(20000);
			}
		}
		if (seq_lt(atomic_load(&c->version), v))
			atomic_store(&c->version, v);
	}
}

static void prcu_synchronize(void)
{
	unsigned long v, snap;
	int old;

	broadcast_barrier(); /* order the caller's removal before the scan */
	snap = atomic_load(&gp_started);
	rcut_race_point(RCUT_RACE_GP_START);
	pthread_mutex_lock(&gp_mutex);
	/* A grace period that began after our snapshot has ended: share it. */
	if (seq_ge(atomic_load(&gp_done), snap + 1)) {
		pthread_mutex_unlock(&gp_mutex);
		return;
	}
	v = atomic_fetch_add(&gp_started, 1) + 1;
	old = atomic_load(&phase);
	wait_for_phase(!old, v); /* stragglers that saw the phase late */
	rcut_race_point(RCUT_RACE_GP_FLIP);
	atomic_store(&phase, !old);
	rcut_race_point(RCUT_RACE_GP_FLIP);
	broadcast_barrier();
	wait_for_phase(old, v);
	broadcast_barrier(); /* the readers' loads before our return */
	rcut_race_point(RCUT_RACE_GP_END);
	if (seq_lt(atomic_load(&gp_done), v))
		atomic_store(&gp_done, v);
	pthread_mutex_unlock(&gp_mutex);
}

/* The tag of a callback posted now from CPU slot cpu. */
static unsigned long callback_tag(int cpu)
{
	if (cb_tag == TAG_LOCAL)
		return atomic_load(&cpus[cpu].version);
	atomic_thread_fence(memory_order_seq_cst);
	return atomic_load(&gp_started);
}

/* Ask the engine for grace period v (a no-op without the engine). */
static void need_gp(unsigned long v)
{
	unsigned long cur = atomic_load(&need_ver);

	while (seq_lt(cur, v) &&
	       !atomic_compare_exchange_weak(&need_ver, &cur, v))
		;
}

static void enqueue(int cpu, struct rcut_head *head, unsigned long tag)
{
	struct prcu_cpu *c = &cpus[cpu];

	set_tag(head, tag);
	NEXT(head) = NULL;
	pthread_mutex_lock(&c->cb_lock);
	*c->tail = head;
	c->tail = &NEXT(head);
	c->len++;
	pthread_mutex_unlock(&c->cb_lock);
	need_gp(tag + 1);
}

/* The first online CPU's slot, else the no-CPU one (hotplug locked). */
static int online_slot(void)
{
	for (int i = 0; i < ncpus; i++)
		if (atomic_load(&cpus[i].online))
			return i;
	return ncpus;
}

/*
 * call() on an offline CPU (code late in a CPU offline runs there): its
 * list is not served, and barrier skips it.  Fixed: queue on an online
 * CPU.  prcu.offline_call_leak=1, Linux before 2012 ("rcu: Disallow
 * callback registry on offline CPUs"): queue it there, leaked until the
 * CPU comes back.
 */
static void call_offline(int cpu, struct rcut_head *head)
{
	unsigned long tag;

	pthread_rwlock_rdlock(&hotplug_lock);
	if (atomic_load(&cpus[cpu].online))
		; /* back online meanwhile */
	else if (!offline_call_leak)
		cpu = online_slot();
	else
		atomic_fetch_add(&n_offline_leaked, 1);
	tag = callback_tag(cpu);
	rcut_race_point(RCUT_RACE_CB_QUEUE);
	enqueue(cpu, head, tag);
	pthread_rwlock_unlock(&hotplug_lock);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * prcu.retire_drain: folly's rcu_retire() drains the pending work now and
 * then (every 3.2 s there, every 10 ms here, so that a run sees many):
 * the call() that finds a drain due takes the grace-period mutex and
 * hands its CPU's ready callbacks to the next tick.  synchronize holds that mutex while it
 * waits for readers, so a drain that waits for it
 * (prcu.retire_drain_wait=1, folly issue 1211) from inside a read-side
 * section waits for a grace period that waits for it.  folly's fix
 * (2023) only try-locks, and skips the drain when the mutex is taken.
 */
static void retire_drain_maybe(int cpu)
{
	uint64_t now = now_ns(), due = atomic_load(&drain_at);

	if (now < due || !atomic_compare_exchange_strong(&drain_at, &due,
							 now + 10 * TICK_NS))
		return;
	if (retire_drain_wait) {
		bool in_reader = reader_depth > 0;

		if (in_reader)
			atomic_fetch_add(&drains_in_reader, 1);
		pthread_mutex_lock(&gp_mutex);
		if (in_reader)
			atomic_fetch_sub(&drains_in_reader, 1);
	} else if (pthread_mutex_trylock(&gp_mutex))
		return;
	atomic_fetch_add(&n_drains, 1);
	/* Its CPU's ready callbacks go to the next tick, idle or not. */
	atomic_store(&cpus[cpu].ran, true);
	pthread_mutex_unlock(&gp_mutex);
}

static void prcu_call(struct rcut_head *head, void (*func)(struct rcut_head *))
{
	int cpu = my_slot();
	unsigned long tag;

	head->func = func;
	if (cpu < ncpus && !atomic_load(&cpus[cpu].online)) {
		call_offline(cpu, head);
		return;
	}
	tag = callback_tag(cpu);
	rcut_race_point(RCUT_RACE_CB_QUEUE); /* tagged, not yet queued */
	enqueue(cpu, head, tag);
	if (retire_drain)
		retire_drain_maybe(cpu);
}

/* Run the ready prefix of one CPU's list (the tick's softirq). */
static void invoke_ready(struct prcu_cpu *c)
{
	unsigned long done = atomic_load(&gp_done);
	struct rcut_head *list, **end;
	long n = 0;

	pthread_mutex_lock(&c->cb_lock);
	list = c->head;
	end = &c->head;
	while (*end && seq_ge(done, get_tag(*end) + 1)) {
		end = &NEXT(*end);
		n++;
	}
	if (!n) {
		pthread_mutex_unlock(&c->cb_lock);
		return;
	}
	c->head = *end;
	if (!c->head)
		c->tail = &c->head;
	*end = NULL;
	pthread_mutex_unlock(&c->cb_lock);
	rcut_race_point(RCUT_RACE_CB_INVOKE);
	invoking = true;
	while (list) {
		struct rcut_head *next = NEXT(list);

		list->func(list);
		list = next;
	}
	invoking = false;
	atomic_fetch_add(&n_invoked, (unsigned long)n);
	pthread_mutex_lock(&c->cb_lock);
	c->len -= n;
	pthread_mutex_unlock(&c->cb_lock);
}

/* The tick: the GP engine, then callbacks on every online CPU. */
static void *tick_main(void *arg)
{
	unsigned long ticks = 0;

	(void)arg;
	while (!atomic_load(&tick_stop)) {
		bool idle_tick = ++ticks % (unsigned long)idle_tick_ms == 0;

		if (gp_engine &&
		    seq_lt(atomic_load(&gp_done), atomic_load(&need_ver)))
			prcu_synchronize();
		pthread_rwlock_rdlock(&hotplug_lock);
		for (int i = 0; i <= ncpus; i++) {
			struct prcu_cpu *c = &cpus[i];

			/* NO_HZ_IDLE: an idle CPU ticks only now and then. */
			if (!atomic_load(&c->online) ||
			    (!atomic_exchange(&c->ran, false) && !idle_tick))
				continue;
			invoke_ready(c);
		}
		pthread_rwlock_unlock(&hotplug_lock);
		nap(TICK_NS);
	}
	return NULL;
}

static void barrier_cb(struct rcut_head *head)
{
	(void)head;
	atomic_fetch_sub(&barrier_count, 1);
}

/*
 * barrier() where it would wait for itself: inside a read-side section
 * (its callbacks wait for a grace period that waits for the caller) or
 * from a callback (the tick that must run its callbacks is the caller).
 * Refused and reported, as liburcu's rcu_barrier() refuses the first;
 * prcu.unchecked_barrier=1 lets it wait, and hang.
 */
static bool barrier_refused(void)
{
	if (unchecked_barrier || (reader_depth <= 0 && !invoking))
		return false;
	atomic_fetch_add(&n_barriers_refused, 1);
	rcut_illegal_barrier();
	return true;
}

static void prcu_barrier(void)
{
	if (barrier_refused())
		return;
	pthread_mutex_lock(&barrier_mutex);
	atomic_store(&barrier_count, 1);
	pthread_rwlock_rdlock(&hotplug_lock);
	for (int i = 0; i <= ncpus; i++) {
		struct prcu_cpu *c = &cpus[i];
		unsigned long tag;

		/* The RFC: smp_call_function_single() to an offline CPU fails. */
		if (!atomic_load(&c->online))
			continue;
		pthread_mutex_lock(&c->cb_lock);
		if (!c->len && migrate_cbs) {
			pthread_mutex_unlock(&c->cb_lock);
			continue;
		}
		/* Behind the last callback: ready when it is, run after it. */
		tag = c->head ? get_tag((struct rcut_head
						 *)((char *)c->tail -
						    offsetof(struct rcut_head,
							     flavor_priv))) :
				atomic_load(&gp_started);
		pthread_mutex_unlock(&c->cb_lock);
		if (!migrate_cbs)
			tag = callback_tag(i); /* the RFC's call_prcu() */
		atomic_fetch_add(&barrier_count, 1);
		c->barrier_head.func = barrier_cb;
		rcut_race_point(RCUT_RACE_CB_QUEUE);
		enqueue(i, &c->barrier_head, tag);
	}
	pthread_rwlock_unlock(&hotplug_lock);
	atomic_fetch_sub(&barrier_count, 1);
	while (atomic_load(&barrier_count) > 0)
		nap(100000);
	pthread_mutex_unlock(&barrier_mutex);
}

/*
 * prcu.late_migrate: a hotplug step between "offline" and the migration
 * waits until the outgoing CPU's own callbacks have been invoked (as a
 * CPU-hotplug notifier calling rcu_barrier() did), but the tick serves
 * online CPUs only, so callbacks queued there never are: the offline
 * hangs, and the stall detector names the flavor's cpu_offline hook.
 */
static void wait_own_callbacks(struct prcu_cpu *c)
{
	for (;;) {
		long len;

		pthread_mutex_lock(&c->cb_lock);
		len = c->len;
		pthread_mutex_unlock(&c->cb_lock);
		if (!len)
			return;
		nap(TICK_NS);
	}
}

static int prcu_cpu_offline(int cpu)
{
	struct prcu_cpu *c = &cpus[cpu], *d = NULL;

	pthread_rwlock_wrlock(&hotplug_lock);
	atomic_store(&c->online, false);
	if (late_migrate) {
		pthread_rwlock_unlock(&hotplug_lock);
		wait_own_callbacks(c);
		pthread_rwlock_wrlock(&hotplug_lock);
	}
	if (migrate_cbs) {
		for (int i = 0; i < ncpus && !d; i++)
			if (i != cpu && atomic_load(&cpus[i].online))
				d = &cpus[i];
		if (!d)
			d = &cpus[ncpus];
		rcut_race_point(RCUT_RACE_CB_QUEUE);
		/*
		 * Splice in order, tags kept; the tick is locked out.  The two
		 * queue locks in address order: hotplug_lock already keeps two
		 * offlines apart, but ThreadSanitizer's deadlock detector sees
		 * only the inner pair (c then d, d then c) and reports it.
		 */
		pthread_mutex_lock(c < d ? &c->cb_lock : &d->cb_lock);
		pthread_mutex_lock(c < d ? &d->cb_lock : &c->cb_lock);
		if (c->head) {
			*d->tail = c->head;
			d->tail = c->tail;
			d->len += c->len;
			atomic_fetch_add(&n_migrated, (unsigned long)c->len);
			c->head = NULL;
			c->tail = &c->head;
			c->len = 0;
		}
		pthread_mutex_unlock(&d->cb_lock);
		pthread_mutex_unlock(&c->cb_lock);
	}
	pthread_rwlock_unlock(&hotplug_lock);
	return 0;
}

static int prcu_cpu_online(int cpu)
{
	pthread_rwlock_wrlock(&hotplug_lock);
	atomic_store(&cpus[cpu].version, atomic_load(&gp_started));
	atomic_store(&cpus[cpu].online, true);
	pthread_rwlock_unlock(&hotplug_lock);
	return 0;
}

static unsigned long prcu_get_gp_seq(void)
{
	return atomic_load(&gp_done);
}

static unsigned long prcu_get_gp_state(void)
{
	atomic_thread_fence(memory_order_seq_cst);
	return atomic_load(&gp_started);
}

static bool prcu_poll_gp_state(unsigned long cookie)
{
	return seq_ge(atomic_load(&gp_done), cookie + 1);
}

/*
 * The RFC has no polling API: without the GP engine nothing would ever
 * start the grace period a poller waits for, so the poller runs it.
 */
static unsigned long prcu_start_gp_poll(void)
{
	unsigned long cookie = prcu_get_gp_state();

	if (gp_engine)
		need_gp(cookie + 1);
	else
		prcu_synchronize();
	return cookie;
}

static void prcu_cond_sync(unsigned long cookie)
{
	if (!prcu_poll_gp_state(cookie))
		prcu_synchronize();
}

/*
 * Full cookies: the grace period's number and, to measure from, the
 * completed count when the cookie was taken.  The wait is a distance
 * between two samples of gp_done, which no counter wrap can confuse.
 */
static void prcu_get_gp_state_full(struct rcut_gp_full *c)
{
	c->word[1] = atomic_load(&gp_done);
	c->word[0] = prcu_get_gp_state();
	c->word[2] = c->word[0] + 1 - c->word[1]; /* grace periods to go */
}

static bool prcu_poll_gp_state_full(const struct rcut_gp_full *c)
{
	unsigned long need = c->word[2] - (poll_full_early ? 1 : 0);

	return atomic_load(&gp_done) - c->word[1] >= need;
}

static void prcu_start_gp_poll_full(struct rcut_gp_full *c)
{
	prcu_get_gp_state_full(c);
	if (gp_engine)
		need_gp(c->word[0] + 1);
	else
		prcu_synchronize();
}

static void prcu_cond_sync_full(const struct rcut_gp_full *c)
{
	if (!prcu_poll_gp_state_full(c))
		prcu_synchronize();
}

/*
 * stall_gp_kthread: hold the grace-period mutex, so that neither the
 * engine (the tick) nor any synchronize caller can run a grace period.
 */
static void prcu_gp_stall(unsigned long long ns)
{
	pthread_mutex_lock(&gp_mutex);
	while (ns) {
		long step = ns > 100000000ULL ? 100000000L : (long)ns;

		nap(step);
		ns -= (unsigned long long)step;
	}
	pthread_mutex_unlock(&gp_mutex);
}

static int prcu_init(void)
{
	/* gpwrap_lag grace periods before the numbers wrap (0: at 0). */
	unsigned long start = 0UL - (unsigned long)gpwrap_lag;

	atomic_store(&gp_started, start);
	atomic_store(&gp_done, start);
	atomic_store(&need_ver, start);
	if (rfc2018) {
		migrate_cbs = 0;
		gp_engine = 0;
		cb_tag = TAG_LOCAL;
		idle_tick_ms = 10;
	}
	ncpus = rcut_nr_cpus();
	cpus = aligned_alloc(64, sizeof(*cpus) * (size_t)(ncpus + 1));
	if (!cpus)
		return -1;
	for (int i = 0; i <= ncpus; i++) {
		atomic_init(&cpus[i].locked[0], 0);
		atomic_init(&cpus[i].locked[1], 0);
		atomic_init(&cpus[i].version, start);
		atomic_init(&cpus[i].online, true);
		atomic_init(&cpus[i].ran, false);
		pthread_mutex_init(&cpus[i].cb_lock, NULL);
		cpus[i].head = NULL;
		cpus[i].tail = &cpus[i].head;
		cpus[i].len = 0;
		cpus[i].stragglers = 0;
	}
	have_membarrier =
		syscall(__NR_membarrier,
			MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
	atomic_store(&tick_stop, false);
	return pthread_create(&tick_thread, NULL, tick_main, NULL) ? -1 : 0;
}

static void prcu_cleanup(void)
{
	atomic_store(&tick_stop, true);
	pthread_join(tick_thread, NULL);
}

static void prcu_stats(FILE *out)
{
	unsigned long queued = 0, stragglers = 0;
	int offline = 0;

	for (int i = 0; i <= ncpus; i++) {
		queued += (unsigned long)cpus[i].len;
		stragglers += cpus[i].stragglers;
		offline += !atomic_load(&cpus[i].online);
	}
	fprintf(out,
		"prcu: gp_started %lu gp_done %lu need %lu phase %d callbacks queued %lu invoked %lu migrated %lu straggler waits %lu offline CPUs %d %s%s%s%s%s%s%s",
		atomic_load(&gp_started), atomic_load(&gp_done),
		atomic_load(&need_ver), atomic_load(&phase), queued,
		atomic_load(&n_invoked), atomic_load(&n_migrated), stragglers,
		offline, have_membarrier ? "membarrier" : "fences",
		migrate_cbs ? "" : " migrate_cbs=0",
		gp_engine ? "" : " gp_engine=0",
		cb_tag == TAG_LOCAL ? " cb_tag=local" : "",
		idle_tick_ms > 1 ? " idle_tick_ms>1" : "",
		poll_full_early ? " poll_full_early" : "",
		late_migrate ? " late_migrate" : "");
	if (offline_call_leak)
		fprintf(out, " offline_call_leak (%lu queued on offline CPUs)",
			atomic_load(&n_offline_leaked));
	if (retire_drain)
		fprintf(out,
			" retire_drain%s (%lu drains, %ld inside read-side sections waiting for the grace-period mutex)",
			retire_drain_wait ? " retire_drain_wait" : "",
			atomic_load(&n_drains), atomic_load(&drains_in_reader));
	if (unchecked_barrier)
		fprintf(out, " unchecked_barrier");
	else if (atomic_load(&n_barriers_refused))
		fprintf(out, " (%lu illegal barriers refused)",
			atomic_load(&n_barriers_refused));
	fputc('\n', out);
}

static void prcu_ref_loop(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		prcu_read_unlock(prcu_read_lock());
}

const struct rcut_flavor rcut_flavor_prcu = {
	.abi_version = RCUT_FLAVOR_ABI_VERSION,
	.name = "prcu",
	.description =
		"PRCU (TPDS 2016, Linux RFC 2018): version consensus over per-CPU reader counts, membarrier for stragglers",
	/*
	 * Signal-safe read side: per-CPU atomic counters and thread-local
	 * data only; a handler's section on the same CPU nets to zero.
	 */
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |
		RCUT_CAP_EXP_IS_SYNC | RCUT_CAP_READ_SIGNAL_SAFE |
		RCUT_CAP_BARRIER_CHECK,
	.params = prcu_params,
	.init = prcu_init,
	.cleanup = prcu_cleanup,
	.read_lock = prcu_read_lock,
	.read_unlock = prcu_read_unlock,
	.synchronize = prcu_synchronize,
	.synchronize_expedited = prcu_synchronize,
	.call = prcu_call,
	.barrier = prcu_barrier,
	.get_gp_seq = prcu_get_gp_seq,
	.get_gp_state = prcu_get_gp_state,
	.start_gp_poll = prcu_start_gp_poll,
	.poll_gp_state = prcu_poll_gp_state,
	.cond_sync = prcu_cond_sync,
	.cpu_offline = prcu_cpu_offline,
	.cpu_online = prcu_cpu_online,
	.stats = prcu_stats,
	.ref_loop = prcu_ref_loop,
	.gp_stall = prcu_gp_stall,
	.get_gp_state_full = prcu_get_gp_state_full,
	.start_gp_poll_full = prcu_start_gp_poll_full,
	.poll_gp_state_full = prcu_poll_gp_state_full,
	.cond_sync_full = prcu_cond_sync_full,
};
