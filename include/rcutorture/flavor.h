/* SPDX-License-Identifier: MIT */
/*
 * rcutorture flavor ABI: the ops table an RCU implementation fills in so that
 * the rcutorture harness can torture and measure it.  Built-in flavors and
 * out-of-tree plugins (loaded with --flavor ./libx.so) use the same table.
 *
 * A plugin exports one symbol, RCUT_FLAVOR_SYMBOL, pointing at a
 * struct rcut_flavor whose abi_version is RCUT_FLAVOR_ABI_VERSION.
 *
 * ABI versions: 1 is the ops table below; 2 adds race points
 * (rcut_race_point(), at the end of this file), calls into the harness
 * that leave struct rcut_flavor unchanged; 3 adds the capability flags
 * RCUT_CAP_READ_SIGNAL_SAFE and RCUT_CAP_DOUBLE_CALL, the harness call
 * rcut_double_call() and optional hooks at the end of struct rcut_flavor
 * (read them with RCUT_FLAVOR_V3()); 4 adds gp_wait_word at the end of
 * struct rcut_flavor.  The harness loads tables of
 * any version from RCUT_FLAVOR_ABI_MIN_VERSION to RCUT_FLAVOR_ABI_VERSION.
 * Fields added to struct rcut_flavor by a later version go at its end,
 * and the harness reads them only from tables that declare that version.
 *
 * Every hook marked "optional" may be NULL; the harness then disables the
 * tests that need it, as the kernel's rcutorture does for NULL ops.
 */
#ifndef RCUTORTURE_FLAVOR_H
#define RCUTORTURE_FLAVOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RCUT_FLAVOR_ABI_VERSION 4
#define RCUT_FLAVOR_ABI_MIN_VERSION 1 /* oldest table the harness loads */
#define RCUT_FLAVOR_SYMBOL "rcutorture_flavor"
/*
 * Optional: a plugin built against a library names it and its version in
 * a string of this name (const char rcutorture_flavor_library[] =
 * "liburcu 0.15.2-2 (static)"), shown in --list-flavors and under the
 * run's Start line.
 */
#define RCUT_FLAVOR_LIBRARY_SYMBOL "rcutorture_flavor_library"

/*
 * A callback head.  The harness embeds it in its own objects; the flavor may
 * use flavor_priv as its own storage (a liburcu adapter keeps its
 * struct rcu_head there) and must eventually call func(head) exactly once,
 * after a full grace period has elapsed since call() was invoked.
 */
struct rcut_head {
	void *flavor_priv[3];
	void (*func)(struct rcut_head *head);
};

/* Types of flavor parameters (NAME.KEY=VALUE on the command line). */
enum rcut_param_type {
	RCUT_PARAM_INT,	 /* a decimal integer in [min, max] */
	RCUT_PARAM_BOOL, /* 0/1, y/n, yes/no, true/false, on/off */
	RCUT_PARAM_ENUM, /* one of choices[]; *value is its index */
};

/* One flavor parameter; the harness parses and range-checks the value. */
struct rcut_param {
	const char *name;
	const char *help;
	enum rcut_param_type type;
	long min, max;		    /* RCUT_PARAM_INT only */
	const char *const *choices; /* RCUT_PARAM_ENUM only, NULL-ended */
	long *value; /* where the parsed value goes; holds the default */
};

/* Capability flags: what the flavor's read side allows. */
#define RCUT_CAP_READER_MAY_BLOCK (1u << 0) /* sleeping inside a section */
#define RCUT_CAP_QSBR (1u << 1)	   /* readers must report quiescent states */
#define RCUT_CAP_NESTING (1u << 2) /* read sections nest */
/* synchronize_expedited is the normal synchronize (no expedited GPs). */
#define RCUT_CAP_EXP_IS_SYNC (1u << 3)
/*
 * ABI version 3: read_lock and read_unlock are async-signal-safe: a
 * signal handler may run a whole read-side section on a thread it
 * interrupted anywhere, inside that thread's own section or its
 * read_lock/read_unlock included (the kernel's irq_capable; --irqreader
 * runs such readers).  The harness reads it only from version 3 tables.
 */
#define RCUT_CAP_READ_SIGNAL_SAFE (1u << 4)
/*
 * ABI version 3: call() detects a head passed to it again while still
 * queued (the kernel's debug_objects): it then calls rcut_double_call()
 * and does not queue the head a second time (--object-debug checks it).
 */
#define RCUT_CAP_DOUBLE_CALL (1u << 5)
/*
 * call() may block for a grace period (a library whose deferred free
 * waits inside it, as libcds's general_instant retire_ptr does): the
 * harness treats the caller as blocked, off its simulated CPU, meanwhile.
 * Harnesses that predate the bit ignore it.
 */
#define RCUT_CAP_CALL_MAY_BLOCK (1u << 6)
/*
 * barrier() refuses to be called where the kernel forbids rcu_barrier():
 * inside a read-side section of the calling thread (it would wait for a
 * grace period that waits for the caller) or from a callback the flavor
 * is invoking (it would wait for that very callback).  It then returns at
 * once, waiting for nothing, and calls rcut_illegal_barrier() (as
 * liburcu's rcu_barrier() prints an error and returns).  --illegal-barrier
 * makes such calls only on flavors that declare the bit.  Harnesses that
 * predate the bit ignore it.
 */
#define RCUT_CAP_BARRIER_CHECK (1u << 7)
/*
 * Callbacks one thread posts to one queue are invoked in the order it
 * posted them (FIFO queues, as the kernel's per-CPU lists are), and a
 * CPU's queue keeps its order when an offline moves it: the harness
 * checks that order (per simulated CPU and online period under
 * --call-rcu percpu; not with call-queue toggling).  Harnesses that
 * predate the bit ignore it.
 */
#define RCUT_CAP_CB_FIFO (1u << 8)

/*
 * Where call() queues callbacks (--call-rcu): one queue for the process,
 * one per simulated CPU, or one per calling thread.
 */
enum rcut_call_mode {
	RCUT_CALL_GLOBAL,
	RCUT_CALL_PERCPU,
	RCUT_CALL_PERTHREAD,
	RCUT_CALL_NMODES,
};

/*
 * A full polled-GP cookie (ABI version 3; the kernel's struct
 * rcu_gp_oldstate): enough state that a cookie cannot be mistaken for
 * another across a counter wrap or between normal and expedited grace
 * periods.  Its contents are the flavor's; the harness only copies it.
 */
struct rcut_gp_full {
	unsigned long word[3];
};

struct rcut_flavor {
	unsigned int abi_version;	 /* RCUT_FLAVOR_ABI_VERSION */
	const char *name;		 /* what --flavor matches */
	const char *description;	 /* one line for --list-flavors */
	unsigned int caps;		 /* RCUT_CAP_* */
	const struct rcut_param *params; /* optional, ended by a NULL name */

	/* Called once before any thread starts, after parameters are set. */
	int (*init)(void);     /* optional; non-zero = cannot run */
	void (*cleanup)(void); /* optional; after every thread stopped */

	/* Every torture thread calls these around its lifetime. */
	void (*register_thread)(void);	 /* optional */
	void (*unregister_thread)(void); /* optional */

	/* Read side.  read_lock's return value is passed to read_unlock. */
	int (*read_lock)(void);
	void (*read_unlock)(int idx);
	void (*quiescent_state)(void); /* optional (QSBR) */
	void (*thread_offline)(void);  /* optional (QSBR) */
	void (*thread_online)(void);   /* optional (QSBR) */

	/* Update side. */
	void (*synchronize)(void);
	void (*synchronize_expedited)(void); /* optional */
	void (*call)(struct rcut_head *head,
		     void (*func)(struct rcut_head *head)); /* optional */
	void (*barrier)(void); /* optional; waits for all call()s before it */
	/*
	 * Optional: choose the callback queue layout before init().  Flavors
	 * without it support RCUT_CALL_GLOBAL only.  Returns 0 or -1.
	 */
	int (*set_call_mode)(enum rcut_call_mode mode);

	/*
	 * Optional grace-period sequence (for Reader Batch): a number that
	 * grows as grace periods complete; gp_diff(new, old) says how many
	 * grace periods lie between two samples (NULL: new - old).
	 */
	unsigned long (*get_gp_seq)(void);
	unsigned long (*gp_diff)(unsigned long new_seq, unsigned long old_seq);

	/*
	 * Optional polled grace periods: get_gp_state() returns a cookie,
	 * poll_gp_state(cookie) says whether a full grace period has elapsed
	 * since the cookie was taken, cond_sync(cookie) waits only if not.
	 * start_gp_poll() is get_gp_state() that also makes sure a grace
	 * period will start.
	 */
	unsigned long (*get_gp_state)(void);
	unsigned long (*start_gp_poll)(void);
	bool (*poll_gp_state)(unsigned long cookie);
	void (*cond_sync)(unsigned long cookie);

	/* Optional simulated-CPU hotplug hooks; cpu is in [0, ncpus). */
	int (*cpu_offline)(int cpu);
	int (*cpu_online)(int cpu);

	/* Optional: one line of flavor internals for the stats block. */
	void (*stats)(FILE *out);

	/* Optional: n read-side sections with the read side inlined. */
	void (*ref_loop)(unsigned long n);

	/*
	 * --- ABI version 3 (deliberate stalls, full cookies, call-queue
	 * toggling, up/down readers).  A table of version 1 or 2 ends above: the harness
	 * reads these fields only through RCUT_FLAVOR_V3().  All optional.
	 */
	/*
	 * Hold the grace-period worker for ns nanoseconds: no grace period
	 * ends meanwhile (the kernel's stall_gp_kthread).  Returns when the
	 * hold ends; called from a torture thread.
	 */
	void (*gp_stall)(unsigned long long ns);
	/*
	 * Full polled-GP cookies, the kernel's get_state_synchronize_*_full()
	 * family: as get_gp_state, start_gp_poll, poll_gp_state and
	 * cond_sync, with the cookie in *c.
	 */
	void (*get_gp_state_full)(struct rcut_gp_full *c);
	void (*start_gp_poll_full)(struct rcut_gp_full *c);
	bool (*poll_gp_state_full)(const struct rcut_gp_full *c);
	void (*cond_sync_full)(const struct rcut_gp_full *c);
	/*
	 * Switch where call() queues callbacks while threads run (the
	 * kernel's nocbs_toggle): callbacks already queued must each still
	 * be invoked exactly once.  Returns 0, or -1 if mode is not offered.
	 */
	int (*switch_call_mode)(enum rcut_call_mode mode);
	/*
	 * Optional up/down read-side sections (the kernel's srcu_down_read
	 * and srcu_up_read): a section that down_read() begins on one
	 * thread and up_read(idx) ends on another, which need not be
	 * registered on the same simulated CPU.  A grace period waits for
	 * it like for any reader.  Both or neither (--n-up-down uses them).
	 */
	int (*down_read)(void);
	void (*up_read)(int idx);
	/* --- end of ABI version 3 --- */

	/*
	 * --- ABI version 4 (read it only where RCUT_FLAVOR_HAS(f, 4)).
	 * Optional: the word a grace period sleeps on in FUTEX_WAIT while it
	 * waits for readers, which a reader leaving its section (or a QSBR
	 * quiescent state, or going offline) must wake when the grace period
	 * waits for it (liburcu's urcu_<flavor>_gp.futex).  The harness only
	 * compares its address with the futex a thread sleeps on, to tell a
	 * lost wakeup: a grace period asleep on it while every reader has
	 * left the sections it could be waiting for.
	 */
	int *(*gp_wait_word)(void);
	/* --- end of ABI version 4 --- */
};

/* A version-3 hook of f, or NULL for older tables (which end before it). */
#define RCUT_FLAVOR_V3(f, hook) ((f)->abi_version >= 3 ? (f)->hook : NULL)

/* A version-4 hook of f, or NULL for older tables. */
#define RCUT_FLAVOR_V4(f, hook) ((f)->abi_version >= 4 ? (f)->hook : NULL)

/* Whether table f has the fields of ABI version v (read them only then). */
#define RCUT_FLAVOR_HAS(f, v) ((f)->abi_version >= (v))

/* f's capability flags as the harness reads them: v3 bits only from v3. */
static inline unsigned int rcut_flavor_caps_of(const struct rcut_flavor *f)
{
	return RCUT_FLAVOR_HAS(f, 3) ? f->caps :
				       f->caps & ~(RCUT_CAP_READ_SIGNAL_SAFE |
						   RCUT_CAP_DOUBLE_CALL);
}

/*
 * The simulated CPU the calling torture thread runs on, for flavors with
 * per-CPU state; provided by the harness.  -1 outside torture threads and
 * while the thread is blocked in the flavor (it is off its CPU then, and
 * may come back on another one).
 */
int rcut_current_cpu(void);

/* How many simulated CPUs the run has (--cpus); provided by the harness. */
int rcut_nr_cpus(void);

/*
 * Called by a thread of the flavor's (or of the store-buffer SDK's) that
 * never takes a read-side section and never goes online under QSBR, such
 * as a timer or the SDK's drainer: the lost-wakeup check, which otherwise
 * waits for every thread it does not track to sleep through its two
 * looks, leaves it out.  Provided by the harness (declare it weak to run
 * outside rcutorture too).
 */
void rcut_thread_holds_nothing(void);

/*
 * Race points (ABI version 2).  A flavor calls rcut_race_point(where) at
 * the places where a thread stopped for a while exposes a race: after
 * reading the phase and before publishing the reader's count, between a
 * flip and the wait for readers, before waking waiters, in callback queue
 * hand-offs.  When the run enables race delays, the harness sometimes
 * yields, spins or sleeps there (microseconds mostly, now and then longer
 * than a grace period); otherwise the call costs one relaxed load and a
 * not-taken branch, so it may sit in read_lock's fast path.  The harness
 * counts hits per kind.  A race point may block (spin, yield or sleep),
 * so call one only where the flavor may be delayed; it is
 * async-signal-safe, so a read_lock that runs in a signal handler
 * (RCUT_CAP_READ_SIGNAL_SAFE) may keep its race point.
 */
enum rcut_race_where {
	RCUT_RACE_READ_LOCK,   /* read_lock: phase read, count not published */
	RCUT_RACE_READ_UNLOCK, /* read_unlock: before the count is withdrawn */
	RCUT_RACE_GP_START,    /* a grace period began, before its flip */
	RCUT_RACE_GP_FLIP,     /* between a flip and the wait for readers */
	RCUT_RACE_GP_WAIT,     /* inside the wait, between reader scans */
	RCUT_RACE_GP_END,      /* before publishing the end / waking waiters */
	RCUT_RACE_CB_QUEUE,    /* callback hand-off: enqueue, splice, migrate */
	RCUT_RACE_CB_INVOKE,   /* callbacks taken as ready, not yet invoked */
	RCUT_RACE_OTHER,       /* any other window; unknown values count here */
	/*
	 * An automatic race point: the store-buffer SDK chose this access
	 * (storebuf.h, rcut_sched_configure); the harness always delays it.
	 */
	RCUT_RACE_AUTO,
	RCUT_RACE_NWHERE /* the number of kinds (not a kind) */
};

/* Non-zero while race delays are on; read it only via rcut_race_point(). */
extern int rcut_race_enabled;

/* The slow path of rcut_race_point(): maybe delay the caller. */
void rcut_race_delay(enum rcut_race_where where);

/*
 * Built with RCUT_NO_RACE_POINTS defined, a flavor's race points are
 * compiled out: it is measured as a flavor without them (the mutant
 * catalogue's "bare" builds; with the store-buffer SDK it still has the
 * automatic ones, storebuf.h).
 */
static inline void rcut_race_point(enum rcut_race_where where)
{
#ifdef RCUT_NO_RACE_POINTS
	(void)where;
#else
	if (__builtin_expect(
		    __atomic_load_n(&rcut_race_enabled, __ATOMIC_RELAXED), 0))
		rcut_race_delay(where);
#endif
}

/*
 * ABI version 3: a flavor that declares RCUT_CAP_DOUBLE_CALL calls this
 * from call() when head is already queued, instead of queueing it again.
 * The harness counts it (and --object-debug expects it).
 */
void rcut_double_call(struct rcut_head *head);

/*
 * A flavor that declares RCUT_CAP_BARRIER_CHECK calls this from barrier()
 * when it refuses a call made inside a read-side section or from a
 * callback.  The harness counts it (and --illegal-barrier expects it).
 */
void rcut_illegal_barrier(void);

#endif /* RCUTORTURE_FLAVOR_H */
