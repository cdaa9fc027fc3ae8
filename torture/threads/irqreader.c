// SPDX-License-Identifier: MIT
/*
 * Interrupt readers (--irqreader, the kernel's rcu_torture_timer): each
 * reader thread has a 1 ms POSIX timer that sends IRQREADER_SIGNAL to
 * that thread alone; the handler runs a short read-side section on the
 * interrupted reader, wherever it was: between sections, inside its own
 * (nested), or inside the flavor's read_lock or read_unlock.  It checks
 * the element like any reader and bins its pipe stage into the thread's
 * irq_pipe, which the Reader Pipe sums in; the stats line's nt: counts
 * the handler runs.  Only for flavors that declare their read side
 * async-signal-safe (RCUT_CAP_READ_SIGNAL_SAFE).
 *
 * The handler uses only the flavor's read side, atomics and thread-local
 * data; what it finds wrong it leaves in the thread for the thread to
 * report (torture_failure() takes a lock and prints: not for a handler).
 */
#define _GNU_SOURCE
#include "irqreader.h"
#include "../core/holds.h"

#include "../util/delay.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define IRQ_PERIOD_NS 1000000L /* one jiffy at HZ=1000 */
/*
 * The kernel's timer readers take rcu_read_delay()'s rare delays: here
 * one handler read in IRQ_DELAY_ODDS holds its section up to
 * IRQ_DELAY_MAX_NS (spinning: the interrupted thread is held too), long
 * enough for grace periods to end under a reader the flavor missed.
 */
#define IRQ_DELAY_ODDS 64
/*
 * A handler read that interrupted its thread outside the thread's own
 * section is covered by the handler's protection alone: hold those four
 * times as often.  Most timer signals land nested (~90 %: a signal that
 * comes while the thread is off its CPU is delivered where it resumes,
 * often a yield or a nested lock inside its section), so without this a
 * handler-only bug (busted-irq) waited on the few bare reads: 60 seeds,
 * mean time to failure 0.60 s at 1/64, 0.17 s at 1/16, 0.10 s at 1/8
 * (0.36 s at 1/64 before reads extended their sections).
 */
#define IRQ_BARE_DELAY_ODDS 16
#define IRQ_DELAY_MAX_NS 3000000ULL

/* Now and then hold the handler's section a while (a random spin). */
static void irq_delay(struct torture_thread *t, bool nested)
{
	uint64_t r;

	if (!t->irq_rand)
		t->irq_rand = (uint64_t)t->id * 0x9e3779b97f4a7c15ULL + 1;
	r = delay_rand(&t->irq_rand);
	if (r % (nested ? IRQ_DELAY_ODDS : IRQ_BARE_DELAY_ODDS) == 0)
		delay_spin_ns((r >> 16) % IRQ_DELAY_MAX_NS);
}

/* One read-side section from the handler; the thread is t. */
static void irq_one_read(struct torture_thread *t)
{
	struct torture_run *run = t->run;
	const struct rcut_flavor *f = run->flavor;
	struct torture_elem *p;
	int idx, pipe = 0, bad = 0;
	/* Odd: the interrupted reader is inside its own section. */
	bool nested =
		atomic_load_explicit(&t->section, memory_order_relaxed) & 1;

	counter_inc(&run->counters.irq_reads);
	if (nested)
		counter_inc(&run->counters.irq_nested);
	idx = hold_read_lock(f);
	p = atomic_load_explicit(&run->pool.current, memory_order_consume);
	if (p) {
		if (!atomic_load_explicit(&p->mbtest, memory_order_relaxed)) {
			counter_inc(&run->counters.rtmbe);
			bad = -1;
		}
		irq_delay(t, nested);
		pipe = atomic_load_explicit(&p->pipe_count,
					    memory_order_relaxed);
	}
	hold_read_unlock(f, idx);
	if (!p)
		return;
	if (pipe > RCUT_PIPE_LEN || pipe < 0)
		pipe = RCUT_PIPE_LEN;
	counter_inc_owned(&t->irq_pipe[pipe]);
	if (pipe > 1)
		bad = pipe;
	if (bad && !atomic_load_explicit(&t->irq_bad, memory_order_relaxed)) {
		atomic_store_explicit(&t->irq_bad_elem, p,
				      memory_order_relaxed);
		atomic_store_explicit(&t->irq_bad, bad, memory_order_release);
	}
}

/* The signal handler: a read on the interrupted reader, if it is armed. */
static void irq_handler(int sig)
{
	int saved_errno = errno;
	struct torture_thread *t = torture_self();

	(void)sig;
	if (t && atomic_load_explicit(&t->irq_armed, memory_order_acquire))
		irq_one_read(t);
	errno = saved_errno;
}

int irqreader_signal(void)
{
	return IRQREADER_SIGNAL;
}

bool irqreader_possible(const struct rcut_flavor *f)
{
	return rcut_flavor_caps_of(f) & RCUT_CAP_READ_SIGNAL_SAFE;
}

int irqreader_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = irq_handler;
	/* As an interrupt: other signals (preemption) may nest in it. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(IRQREADER_SIGNAL, &sa, NULL);
}

int irqreader_arm(struct torture_thread *t)
{
	struct sigevent sev;
	struct itimerspec its;
	timer_t timer;
	long first = IRQ_PERIOD_NS / 2 +
		     (long)(torture_random(&t->rand) % IRQ_PERIOD_NS);

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = IRQREADER_SIGNAL;
	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer))
		return -1;
	t->irq_timer = (void *)timer;
	atomic_store_explicit(&t->irq_armed, true, memory_order_release);
	its.it_value = (struct timespec){ 0, first };
	its.it_interval = (struct timespec){ 0, IRQ_PERIOD_NS };
	if (timer_settime(timer, 0, &its, NULL)) {
		irqreader_disarm(t);
		return -1;
	}
	return 0;
}

void irqreader_disarm(struct torture_thread *t)
{
	if (!atomic_exchange(&t->irq_armed, false))
		return;
	/* A signal still pending finds the thread disarmed and returns. */
	timer_delete((timer_t)t->irq_timer);
	t->irq_timer = NULL;
}

void irqreader_summary(struct torture_run *run, FILE *out)
{
	if (!run->cfg->irqreader || !irqreader_possible(run->flavor))
		return;
	fprintf(out,
		"%s-torture: irqreader: %llu signal-handler reads, %llu of them nested in the interrupted reader's own section\n",
		run->flavor->name,
		(unsigned long long)atomic_load(&run->counters.irq_reads),
		(unsigned long long)atomic_load(&run->counters.irq_nested));
}

void irqreader_check(struct torture_thread *t)
{
	int bad = atomic_load_explicit(&t->irq_bad, memory_order_acquire);
	void *p;

	if (!bad || t->irq_reported)
		return;
	t->irq_reported = true;
	p = atomic_load_explicit(&t->irq_bad_elem, memory_order_relaxed);
	if (bad < 0)
		torture_failure(
			t->run, "rtmbe",
			"%s %d's signal-handler reader (irqreader) saw element %p freed (mbtest 0)",
			t->kind, t->id, p);
	else
		torture_failure(
			t->run, "too-short grace period",
			"%s %d's signal-handler reader (irqreader) saw element %p at pipe stage %d",
			t->kind, t->id, p, bad);
}
