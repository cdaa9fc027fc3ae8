/* SPDX-License-Identifier: MIT */
/*
 * Accounted callbacks (core/callbacks.c).
 */
#ifndef TORTURE_CORE_CALLBACKS_H
#define TORTURE_CORE_CALLBACKS_H

#include <rcutorture/flavor.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct torture_run;

/* --- accounted callbacks (torture/callbacks.c) --- */
#define TORTURE_CB_WITNESSES 4
/* LOST: posted, and reported lost by the lost-callback check. */
enum { TORTURE_CB_IDLE, TORTURE_CB_POSTED, TORTURE_CB_LOST };

/* A callback's stamp: its post's generation and when call() returned. */
#define TORTURE_CB_STAMP_SHIFT 48
#define TORTURE_CB_STAMP_US(stamp) \
	((stamp) & ((UINT64_C(1) << TORTURE_CB_STAMP_SHIFT) - 1))

/* A reader seen inside a read-side section: which, and its counter then. */
struct torture_witness {
	int reader;
	uint64_t section;
};

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
	/* for messages: "element aging", ...; read by the lost-callback check */
	_Atomic(const char *) kind;
	void *owner; /* the object this callback belongs to */
	void (*fn)(struct torture_cb *cb);
	_Atomic uint64_t posted_ns; /* read by the watchdog */
	/*
	 * Generation (high 16 bits) and the time in us at which this post's
	 * call() returned (0 while it runs): read by the lost-callback check.
	 */
	_Atomic uint64_t stamp;
	/*
	 * The simulated CPU it was posted from (or -1) and that CPU's offline
	 * count at the post: read by the lost-callback check, which a new
	 * post of the same callback may overtake (it then sees a new stamp).
	 */
	_Atomic int cpu;
	_Atomic uint64_t cpu_offlines;
	int nwitness;
	struct torture_witness witness[TORTURE_CB_WITNESSES];
	/* The harness thread that posted it and its post's number there. */
	struct torture_thread *order_by;
	uint32_t order_n, order_key; /* cborder.c */
};

/*
 * Note up to TORTURE_CB_WITNESSES readers that are inside a read-side
 * section now, then a full fence: a grace period (or a callback, or a
 * cookie) that begins after this must outlast their sections.  Returns
 * how many were noted.
 */
int torture_witnesses_take(struct torture_run *run, struct torture_witness *w);

/*
 * After a full fence: the index (into w) of the first witness still in
 * the section it was in when noted, or -1.
 */
int torture_witnesses_check(struct torture_run *run,
			    const struct torture_witness *w, int n);

/* Post cb through the flavor's call(); fn(cb) runs after a grace period. */
void torture_cb_post(struct torture_run *run, struct torture_cb *cb,
		     const char *kind, void (*fn)(struct torture_cb *cb));
/*
 * --object-debug: pass cb, still queued, to call() a second time on
 * purpose; true if it was queued (the duplicate was then flagged by the
 * flavor or the harness, see callbacks.c), false if it was not.
 */
bool torture_cb_post_again(struct torture_run *run, struct torture_cb *cb);
/* Callbacks posted and not (yet) invoked. */
int64_t torture_cbs_in_flight(struct torture_run *run);
/*
 * Whether what callbacks use (their heads, the thread table and the
 * reader table their checks read) may be freed: none is in flight, and
 * every invocation's last use happens before the caller's free.  Lost
 * callbacks, or a barrier that returned early, may still be invoked
 * after the report: their memory is then left to the process's exit.
 */
bool torture_cbs_settled(struct torture_run *run);
/* The report is out: callbacks invoked from now on are ignored. */
void torture_cbs_close(struct torture_run *run);

#endif /* TORTURE_CORE_CALLBACKS_H */
