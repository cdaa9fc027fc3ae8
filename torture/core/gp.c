// SPDX-License-Identifier: MIT
/*
 * Choosing and calling grace-period primitives for the update-side
 * threads: synchronous, expedited, asynchronous, and the cond/poll cookie
 * styles, restricted by --gp-sync/--gp-exp/--gp-normal/--gp-cond/--gp-poll.
 */
#include "gp.h"
#include "failure.h"
#include "holds.h"
#include "run.h"

#include <stdio.h>

const char *const torture_gp_names[RCUT_GP_NKINDS] = {
	[RCUT_GP_SYNC] = "sync",	   [RCUT_GP_EXP] = "exp",
	[RCUT_GP_NORMAL] = "normal",	   [RCUT_GP_COND] = "cond",
	[RCUT_GP_POLL] = "poll",	   [RCUT_GP_COND_FULL] = "cond-full",
	[RCUT_GP_POLL_FULL] = "poll-full",
};

static const char *const gp_needs[RCUT_GP_NKINDS] = {
	[RCUT_GP_SYNC] = "synchronize",
	[RCUT_GP_EXP] = "expedited synchronize",
	[RCUT_GP_NORMAL] = "asynchronous callbacks (call)",
	[RCUT_GP_COND] = "grace-period cookies (get_gp_state, cond_sync)",
	[RCUT_GP_POLL] = "polled grace periods (start_gp_poll, poll_gp_state)",
	[RCUT_GP_COND_FULL] =
		"full grace-period cookies (get_gp_state_full, cond_sync_full)",
	[RCUT_GP_POLL_FULL] =
		"full polled grace periods (start_gp_poll_full, poll_gp_state_full)",
};

/* Each kind's wait, as a message names it ("an expedited synchronize"). */
static const char *const gp_waits[RCUT_GP_NKINDS] = {
	[RCUT_GP_SYNC] = "a synchronize",
	[RCUT_GP_EXP] = "an expedited synchronize",
	[RCUT_GP_NORMAL] = "a wait for a callback (call)",
	[RCUT_GP_COND] = "a cond_sync",
	[RCUT_GP_POLL] = "a poll_gp_state wait",
	[RCUT_GP_COND_FULL] = "a cond_sync_full",
	[RCUT_GP_POLL_FULL] = "a poll_gp_state_full wait",
};

bool torture_gp_available(const struct rcut_flavor *f, enum rcut_gp_kind kind)
{
	switch (kind) {
	case RCUT_GP_SYNC:
		return f->synchronize != NULL;
	case RCUT_GP_EXP:
		return f->synchronize_expedited != NULL;
	case RCUT_GP_NORMAL:
		return f->call != NULL;
	case RCUT_GP_COND:
		return f->get_gp_state && f->cond_sync;
	case RCUT_GP_POLL:
		return f->start_gp_poll && f->poll_gp_state;
	case RCUT_GP_COND_FULL:
		return RCUT_FLAVOR_V3(f, get_gp_state_full) &&
		       RCUT_FLAVOR_V3(f, cond_sync_full);
	case RCUT_GP_POLL_FULL:
		return RCUT_FLAVOR_V3(f, start_gp_poll_full) &&
		       RCUT_FLAVOR_V3(f, poll_gp_state_full);
	case RCUT_GP_NKINDS:
		break;
	}
	return false;
}

int torture_gp_check(const struct rcut_flavor *f, unsigned int mask, char *err,
		     size_t len)
{
	for (int k = 0; k < RCUT_GP_NKINDS; k++) {
		if (!(mask & (1u << k)) ||
		    torture_gp_available(f, (enum rcut_gp_kind)k))
			continue;
		snprintf(err, len, "--gp-%s: flavor %s has no %s",
			 torture_gp_names[k], f->name, gp_needs[k]);
		return -1;
	}
	return 0;
}

/* Whether the run may use kind: the flavor has it and --gp-* allow it. */
static bool gp_allowed(struct torture_run *run, enum rcut_gp_kind kind)
{
	/* Atomic: --swarm-interval draws it again while the run goes on. */
	unsigned int mask =
		__atomic_load_n(&run->cfg->gp_mask, __ATOMIC_RELAXED);

	return torture_gp_available(run->flavor, kind) &&
	       (!mask || (mask & (1u << kind)));
}

enum rcut_gp_kind torture_gp_pick(struct torture_run *run,
				  struct torture_rand *r, bool allow_async)
{
	enum rcut_gp_kind avail[RCUT_GP_NKINDS];
	int n = 0;

	for (int k = 0; k < RCUT_GP_NKINDS; k++) {
		if (k == RCUT_GP_NORMAL && !allow_async)
			continue;
		if (gp_allowed(run, (enum rcut_gp_kind)k))
			avail[n++] = (enum rcut_gp_kind)k;
	}
	/* Only --gp-normal was asked for: fake writers fall back to sync. */
	if (!n)
		return RCUT_GP_SYNC;
	return avail[torture_random(r) % (uint64_t)n];
}

/* A random wait below wi (--gp-cond-wi, --gp-poll-wi), the kernel's. */
static void wait_below(struct torture_rand *r, uint64_t wi)
{
	torture_nap_ns(torture_random(r) % wi);
}

/* Poll a cookie to completion, sleeping a random while between polls. */
static void poll_until_done(struct torture_run *run, struct torture_rand *r,
			    unsigned long cookie)
{
	while (!run->flavor->poll_gp_state(cookie))
		wait_below(r, run->cfg->gp_poll_wi_ns);
}

/* The full-cookie kinds (ABI version 3 hooks). */
static void gp_wait_full(struct torture_run *run, struct torture_rand *r,
			 enum rcut_gp_kind kind)
{
	const struct rcut_flavor *f = run->flavor;
	struct rcut_gp_full c;

	if (kind == RCUT_GP_COND_FULL) {
		f->get_gp_state_full(&c);
		wait_below(r, run->cfg->gp_cond_wi_ns);
		torture_op_begin("cond_sync_full");
		f->cond_sync_full(&c);
		return;
	}
	torture_op_begin("poll_gp_state_full loop");
	f->start_gp_poll_full(&c);
	while (!f->poll_gp_state_full(&c))
		wait_below(r, run->cfg->gp_poll_wi_ns);
}

/*
 * The readers noted before the wait began must have left the sections
 * they were in (the callbacks' witness check, for the synchronous kinds
 * and the cookies: a cookie's full grace period also outlasts them).
 */
static void check_gp_witnesses(struct torture_run *run, enum rcut_gp_kind kind,
			       const struct torture_witness *w, int n)
{
	int i = torture_witnesses_check(run, w, n);

	if (i < 0)
		return;
	torture_failure(
		run, "early grace period",
		"%s returned while reader %d was still in the read-side section it was in before the wait began",
		gp_waits[kind], w[i].reader);
}

#define EXP_BOUND_MIN_GPS 100 /* expedited GPs timed before a verdict */
/*
 * Before the end of the run, a verdict waits for ten times as many: a
 * correct srcu's first 100 took 0.5 s at load 12.5 (other processes 80 %
 * of their time) and 94 were over 8 ms, a burst the run as a whole (74 %
 * of 1386) did not show; the 2022 regression stays at 97 %.
 */
#define EXP_BOUND_EARLY_GPS 1000

/* Nine in ten over the bound: fail the run, once. */
static void exp_bound_fail(struct torture_run *run, uint64_t n, uint64_t over,
			   const char *detail)
{
	struct torture_counters *c = &run->counters;

	if (atomic_load(&c->exp_failed) ||
	    atomic_exchange(&c->exp_failed, true))
		return;
	torture_failure(
		run, "expedited grace-period latency",
		"%llu of %llu expedited grace periods took longer than --exp-gp-bound=%.3f ms (%s): nine in ten or more are above the bound",
		(unsigned long long)over, (unsigned long long)n,
		(double)run->cfg->exp_gp_bound_ns / 1e6, detail);
}

/* Whether over of n (at least min) is nine in ten or more. */
static bool exp_bound_broken(uint64_t n, uint64_t over, uint64_t min)
{
	return n >= min && over * 10 >= n * 9;
}

/*
 * --exp-gp-bound: an expedited grace period that took ns.  Nine in ten or
 * more of at least 100 above the bound fail the run: a latency floor,
 * such as the 2022 Tree SRCU regression's (expedited grace periods slept
 * a jiffy each: 97 % over), which waiting for a CPU on a loaded machine
 * does not make.  The median did: beside two busy loops the fixed code
 * had 67 % of its expedited grace periods over 3 ms (issue 29), the
 * buggy one 97 %; pinned to one CPU with a busy loop 77 to 81 % against
 * 98.6 %.
 */
static void exp_bound_check(struct torture_run *run, uint64_t ns)
{
	struct torture_counters *c = &run->counters;
	uint64_t bound = run->cfg->exp_gp_bound_ns, n, over;

	n = atomic_fetch_add(&c->exp_timed, 1) + 1;
	over = atomic_load(&c->exp_over);
	if (ns > bound)
		over = atomic_fetch_add(&c->exp_over, 1) + 1;
	if (exp_bound_broken(n, over, EXP_BOUND_EARLY_GPS)) {
		char detail[48];

		snprintf(detail, sizeof(detail), "this one %.3f ms",
			 (double)ns / 1e6);
		exp_bound_fail(run, n, over, detail);
	}
}

void torture_gp_exp_final(struct torture_run *run)
{
	struct torture_counters *c = &run->counters;
	uint64_t n = atomic_load(&c->exp_timed),
		 over = atomic_load(&c->exp_over);

	if (run->cfg->exp_gp_bound_ns &&
	    exp_bound_broken(n, over, EXP_BOUND_MIN_GPS))
		exp_bound_fail(run, n, over, "over the whole run");
}

void torture_gp_exp_report(struct torture_run *run, FILE *out)
{
	struct torture_counters *c = &run->counters;

	if (!run->cfg->exp_gp_bound_ns)
		return;
	fprintf(out,
		"%s-torture: exp-gp-bound: %llu expedited grace periods, %llu longer than %.3f ms\n",
		run->flavor->name,
		(unsigned long long)atomic_load(&c->exp_timed),
		(unsigned long long)atomic_load(&c->exp_over),
		(double)run->cfg->exp_gp_bound_ns / 1e6);
}

void torture_gp_wait(struct torture_run *run, struct torture_rand *r,
		     enum rcut_gp_kind kind)
{
	const struct rcut_flavor *f = run->flavor;
	uint64_t start = torture_lostcb_now_us();
	struct torture_witness w[TORTURE_CB_WITNESSES];
	int nw = run->threads.readers ? torture_witnesses_take(run, w) : 0;
	unsigned long cookie;
	const char *op;
	uint64_t since = 0;

	switch (kind) {
	case RCUT_GP_EXP:
		torture_op_begin("synchronize_expedited");
		f->synchronize_expedited();
		if (run->cfg->exp_gp_bound_ns)
			exp_bound_check(run, torture_lostcb_now_us() * 1000 -
						     start * 1000);
		break;
	case RCUT_GP_COND:
		cookie = f->get_gp_state();
		wait_below(r, run->cfg->gp_cond_wi_ns);
		torture_op_begin("cond_sync");
		f->cond_sync(cookie);
		break;
	case RCUT_GP_POLL:
		torture_op_begin("poll_gp_state loop");
		poll_until_done(run, r, f->start_gp_poll());
		break;
	case RCUT_GP_COND_FULL:
	case RCUT_GP_POLL_FULL:
		gp_wait_full(run, r, kind);
		break;
	case RCUT_GP_SYNC:
	case RCUT_GP_NORMAL:
	case RCUT_GP_NKINDS:
		torture_op_begin("synchronize");
		f->synchronize();
		break;
	}
	op = torture_op_current(&since);
	torture_op_end();
	torture_overtaken_done(run, op, since);
	check_gp_witnesses(run, kind, w, nw);
	counter_inc(&run->counters.sync_gps);
	torture_lostcb_gp_done(run, start);
}

/* Whether the cookies taken (plain, full) poll as done; fails the run if so. */
static bool cookie_polled_done(struct torture_run *run, bool plain,
			       unsigned long cookie,
			       bool (*poll_full)(const struct rcut_gp_full *),
			       const struct rcut_gp_full *c)
{
	if (plain && run->flavor->poll_gp_state(cookie)) {
		torture_failure(
			run, "cookie check",
			"a cookie (%lu) taken inside a read-side section polled as done before the section ended",
			cookie);
		return true;
	}
	if (poll_full && poll_full(c)) {
		torture_failure(
			run, "cookie check",
			"a full cookie (%lu %lu %lu) taken inside a read-side section polled as done before the section ended",
			c->word[0], c->word[1], c->word[2]);
		return true;
	}
	return false;
}

/*
 * The kernel's cookie checks 1 and 5: a cookie taken inside a read-side
 * section must not poll as done before the section ends, since the
 * grace period it names must wait for this reader.  One check in
 * COOKIE_REPOLL_ODDS keeps the section open and polls COOKIE_REPOLLS more
 * times, a random spin below --gp-poll-wi apart: the grace period in
 * progress at the cookie, then the next, have time to end there, and a
 * flavor whose poll lets them end under its caller (a poll counted as a
 * quiescent state) shows a done cookie at the next poll.
 */
#define COOKIE_REPOLL_ODDS 4
#define COOKIE_REPOLLS 3

void torture_gp_cookie_check(struct torture_run *run, struct torture_rand *r)
{
	const struct rcut_flavor *f = run->flavor;
	bool (*poll_full)(const struct rcut_gp_full *) =
		RCUT_FLAVOR_V3(f, poll_gp_state_full);
	struct rcut_gp_full c;
	unsigned long cookie = 0;
	bool plain = f->get_gp_state && f->poll_gp_state;
	int polls = 1, idx;

	if (!plain && !(poll_full && f->get_gp_state_full))
		return;
	if (!f->get_gp_state_full)
		poll_full = NULL;
	if (torture_random(r) % COOKIE_REPOLL_ODDS == 0)
		polls += COOKIE_REPOLLS;
	if (f->thread_online)
		hold_thread_online(f);
	idx = hold_read_lock(f);
	if (plain)
		cookie = f->get_gp_state();
	if (poll_full)
		f->get_gp_state_full(&c);
	for (int i = 0; i < polls; i++) {
		if (i)
			torture_spin_ns(run, torture_random(r) %
						     run->cfg->gp_poll_wi_ns);
		if (cookie_polled_done(run, plain, cookie, poll_full, &c))
			break;
	}
	hold_read_unlock(f, idx);
	if (f->thread_offline)
		hold_thread_offline(f);
}
