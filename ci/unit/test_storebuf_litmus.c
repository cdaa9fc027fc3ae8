// SPDX-License-Identifier: MIT
/*
 * Unit tests: litmus tests of the store-buffer emulation's two models
 * (--store-buffer-model tso and arm) against what C11 allows; the table
 * "Litmus tests" in rcutorture(1) is this file's.  Each test is two short
 * programs; every interleaving of their accesses runs on two real
 * threads, stepped one access at a time by the main thread, with the
 * emulation's clock stopped, so that a buffered store stays buffered
 * until something drains it.  The weak outcome is shown by a model when
 * some interleaving gives it.  A model must never show an outcome that
 * C11 forbids; where it shows fewer than C11 allows, the table says so.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <cmocka.h>

#include "../../sdk/storebuf/sb.h"

#define MAX_NS 1000000ULL /* 1 ms: never reached, the clock stands still */
#define NOPS 3		  /* accesses per program, at most */

uint64_t __tsan_atomic64_fetch_add(volatile uint64_t *a, uint64_t v, int mo);
void __tsan_atomic_thread_fence(int mo);

enum kind { ST, LD, FENCE, RMW };
enum { X, Y, NVARS };

/* One access: a store of val, a load or a fetch_add of 0 into reg. */
struct op {
	enum kind kind;
	int var, mo, reg;
	uint64_t val;
};

struct litmus {
	const char *name;
	struct op prog[2][NOPS];
	int len[2];
	/* The weak outcome, from the registers r[0..3]. */
	bool (*weak)(const uint64_t *r);
	bool c11, tso, arm; /* whether C11 allows it, each model shows it */
};

static uint64_t mem[NVARS];
static uint64_t reg[4];

/* One program on its own thread, an access each time the main says go. */
struct proc {
	const struct op *ops;
	int len, go, done;
};

static uint64_t stopped_clock(void)
{
	return 1000;
}

/* Wait until *p reaches at least v (the machine may be busy: yield). */
static void wait_for(const int *p, int v)
{
	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < v)
		sched_yield();
}

static void do_op(const struct op *o)
{
	switch (o->kind) {
	case ST:
		sb_store(&mem[o->var], 8, o->val, o->mo);
		break;
	case LD:
		reg[o->reg] = sb_load(&mem[o->var], 8, o->mo);
		break;
	case FENCE:
		__tsan_atomic_thread_fence(o->mo);
		break;
	case RMW:
		reg[o->reg] = __tsan_atomic64_fetch_add(&mem[o->var], 0, o->mo);
		break;
	}
}

static void *proc_main(void *arg)
{
	struct proc *p = arg;

	for (int i = 0; i < p->len; i++) {
		wait_for(&p->go, i + 1);
		do_op(&p->ops[i]);
		__atomic_store_n(&p->done, i + 1, __ATOMIC_RELEASE);
	}
	/*
	 * Exit only when told: the exit drains the thread's buffer, which
	 * must not race with the other program's last loads.
	 */
	wait_for(&p->go, p->len + 1);
	return NULL;
}

/* Run one interleaving (bit k of order: which program takes step k). */
static bool run_once(const struct litmus *t, unsigned int order)
{
	struct proc p[2];
	pthread_t th[2];
	int steps = t->len[0] + t->len[1];

	memset(mem, 0, sizeof(mem));
	memset(reg, 0, sizeof(reg));
	for (int i = 0; i < 2; i++) {
		p[i] = (struct proc){ .ops = t->prog[i], .len = t->len[i] };
		assert_int_equal(pthread_create(&th[i], NULL, proc_main, &p[i]),
				 0);
	}
	for (int k = 0; k < steps; k++) {
		struct proc *q = &p[(order >> k) & 1];
		int next = q->go + 1;

		__atomic_store_n(&q->go, next, __ATOMIC_RELEASE);
		wait_for(&q->done, next);
	}
	for (int i = 0; i < 2; i++) {
		__atomic_store_n(&p[i].go, p[i].len + 1, __ATOMIC_RELEASE);
		pthread_join(th[i], NULL);
	}
	return t->weak(reg);
}

/* Whether some interleaving of t shows its weak outcome under model. */
static bool model_shows(const struct litmus *t, int model)
{
	int steps = t->len[0] + t->len[1];
	bool seen = false;

	sb_clock = stopped_clock;
	sb_configure(1, MAX_NS, false);
	sb_model = model;
	for (unsigned int order = 0; order < 1u << steps; order++) {
		if (__builtin_popcount(order) != t->len[1])
			continue; /* not len[0] steps of program 0 */
		if (run_once(t, order))
			seen = true;
	}
	sb_model = RCUT_STOREBUF_TSO;
	return seen;
}

#define RLX __ATOMIC_RELAXED
#define ACQ __ATOMIC_ACQUIRE
#define REL __ATOMIC_RELEASE
#define AR __ATOMIC_ACQ_REL
#define SC __ATOMIC_SEQ_CST

static bool both_zero(const uint64_t *r)
{
	return r[0] == 0 && r[1] == 0;
}

#define OP(kind, var, mo, reg, val)     \
	{                               \
		kind, var, mo, reg, val \
	}
#define ROW2(name, a0, a1, b0, b1, weak, c11, tso, arm)                     \
	{                                                                   \
		name, { { a0, a1 }, { b0, b1 } }, { 2, 2 }, weak, c11, tso, \
			arm                                                 \
	}

/*
 * Store buffering: each thread stores one variable, then loads (LD) or
 * fetch_adds 0 to (RMW) the other.
 */
#define SB(name, smo, kind, lmo, c11, tso, arm)                            \
	ROW2(name, OP(ST, X, smo, 0, 1), OP(kind, Y, lmo, 0, 0),           \
	     OP(ST, Y, smo, 0, 1), OP(kind, X, lmo, 1, 0), both_zero, c11, \
	     tso, arm)

/* The same with a fence between the store and the load. */
#define SB_FENCE(name, fmo, c11, tso, arm)                                 \
	{                                                                  \
		name,                                                      \
			{ { OP(ST, X, RLX, 0, 1), OP(FENCE, 0, fmo, 0, 0), \
			    OP(LD, Y, RLX, 0, 0) },                        \
			  { OP(ST, Y, RLX, 0, 1), OP(FENCE, 0, fmo, 0, 0), \
			    OP(LD, X, RLX, 1, 0) } },                      \
			{ 3, 3 }, both_zero, c11, tso, arm                 \
	}

/* Message passing: r0 the flag, r1 the data. */
static bool flag_without_data(const uint64_t *r)
{
	return r[0] == 1 && r[1] == 0;
}

#define MP(name, smo, lmo, c11, tso, arm)                                   \
	ROW2(name, OP(ST, X, RLX, 0, 1), OP(ST, Y, smo, 0, 1),              \
	     OP(LD, Y, lmo, 0, 0), OP(LD, X, RLX, 1, 0), flag_without_data, \
	     c11, tso, arm)

/* Store buffering with each thread reading its own store first. */
static bool own_seen_other_not(const uint64_t *r)
{
	return r[0] == 1 && r[1] == 0 && r[2] == 1 && r[3] == 0;
}

static const struct litmus tests[] = {
	SB("SB relaxed store, relaxed load", RLX, LD, RLX, true, true, true),
	SB("SB release store, acquire load", REL, LD, ACQ, true, true, true),
	SB("SB seq_cst store, relaxed load", SC, LD, RLX, true, false, true),
	SB("SB seq_cst store, acquire load", SC, LD, ACQ, true, false, true),
	SB("SB seq_cst store, seq_cst load", SC, LD, SC, false, false, false),
	SB_FENCE("SB relaxed, acq_rel fence", AR, true, true, true),
	SB_FENCE("SB relaxed, seq_cst fence", SC, false, false, false),
	SB("SB release store, relaxed fetch_add", REL, RMW, RLX, true, false,
	   false),
	SB("SB seq_cst store, seq_cst fetch_add", SC, RMW, SC, false, false,
	   false),
	MP("MP relaxed flag", RLX, RLX, true, false, false),
	MP("MP release flag, acquire load", REL, ACQ, false, false, false),
	{ "SB with forwarding (SB+rfi)",
	  { { { ST, X, RLX, 0, 1 },
	      { LD, X, RLX, 0, 0 },
	      { LD, Y, RLX, 1, 0 } },
	    { { ST, Y, RLX, 0, 1 },
	      { LD, Y, RLX, 2, 0 },
	      { LD, X, RLX, 3, 0 } } },
	  { 3, 3 },
	  own_seen_other_not,
	  true,
	  true,
	  true },
};

/*
 * Every row: each model shows the weak outcome exactly where the table
 * says, and never where C11 forbids it.
 */
static void litmus_table(void **state)
{
	int wrong = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		const struct litmus *t = &tests[i];
		bool tso = model_shows(t, RCUT_STOREBUF_TSO);
		bool arm = model_shows(t, RCUT_STOREBUF_ARM);

		if ((tso && !t->c11) || (arm && !t->c11) || tso != t->tso ||
		    arm != t->arm) {
			printf("%s: C11 %s, tso %s (expected %s), arm %s (expected %s)\n",
			       t->name, t->c11 ? "allows" : "forbids",
			       tso ? "shows" : "hides",
			       t->tso ? "shows" : "hides",
			       arm ? "shows" : "hides",
			       t->arm ? "shows" : "hides");
			wrong++;
		}
	}
	assert_int_equal(wrong, 0);
}

/* The emulation off: stores are visible at once, no weak outcome. */
static void off_shows_nothing(void **state)
{
	(void)state;
	sb_configure(1, 0, false);
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		int steps = tests[i].len[0] + tests[i].len[1];

		for (unsigned int order = 0; order < 1u << steps; order++)
			if (__builtin_popcount(order) == tests[i].len[1])
				assert_false(run_once(&tests[i], order));
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(litmus_table),
		cmocka_unit_test(off_shows_nothing),
	};

	return cmocka_run_group_tests(t, NULL, NULL);
}
