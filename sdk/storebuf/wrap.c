// SPDX-License-Identifier: MIT
/*
 * libc calls of an instrumented plugin that order memory on x86, wrapped
 * with the linker's --wrap (the link flags are in rcutorture-storebuf.pc
 * and the Makefile): membarrier(2) drains every thread's store buffer and
 * then makes the real call; the locking, waking and sleeping calls (all
 * locked instructions or system calls on x86) drain the caller's own
 * buffer first, so a store made before pthread_mutex_unlock() is visible
 * to the next locker as on real hardware.  sigaction() and signal() note
 * that the plugin has handlers of its own (buffer.c then blocks signals
 * while it updates a buffer).
 */
#define _GNU_SOURCE
#include "sb.h"

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define VIS __attribute__((visibility("hidden")))

long __real_syscall(long nr, ...);
VIS long __wrap_syscall(long nr, ...);

/* syscall(2): SYS_membarrier drains every buffer first, others our own. */
VIS long __wrap_syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_membarrier)
		sb_drain_all();
	else
		sb_drain_own();
	return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* glibc's membarrier() wrapper, where there is one. */
VIS int __wrap_membarrier(int cmd, unsigned int flags, int cpu_id);
VIS int __wrap_membarrier(int cmd, unsigned int flags, int cpu_id)
{
	sb_drain_all();
	return (int)__real_syscall(SYS_membarrier, cmd, flags, cpu_id);
}

int __real_sigaction(int sig, const struct sigaction *act,
		     struct sigaction *old);
VIS int __wrap_sigaction(int sig, const struct sigaction *act,
			 struct sigaction *old);
VIS int __wrap_sigaction(int sig, const struct sigaction *act,
			 struct sigaction *old)
{
	if (act && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN)
		sb_guard_signals();
	return __real_sigaction(sig, act, old);
}

sighandler_t __real_signal(int sig, sighandler_t handler);
VIS sighandler_t __wrap_signal(int sig, sighandler_t handler);
VIS sighandler_t __wrap_signal(int sig, sighandler_t handler)
{
	if (handler != SIG_DFL && handler != SIG_IGN)
		sb_guard_signals();
	return __real_signal(sig, handler);
}

/* A wrapper that drains the caller's buffer, then calls the real one. */
#define DRAIN_WRAP(RET, NAME, PARAMS, ARGS) \
	RET __real_##NAME PARAMS;           \
	VIS RET __wrap_##NAME PARAMS;       \
	VIS RET __wrap_##NAME PARAMS        \
	{                                   \
		sb_drain_own();             \
		return __real_##NAME ARGS;  \
	}

DRAIN_WRAP(int, pthread_mutex_lock, (pthread_mutex_t * m), (m))
DRAIN_WRAP(int, pthread_mutex_trylock, (pthread_mutex_t * m), (m))
DRAIN_WRAP(int, pthread_mutex_unlock, (pthread_mutex_t * m), (m))
DRAIN_WRAP(int, pthread_spin_lock, (pthread_spinlock_t * s), (s))
DRAIN_WRAP(int, pthread_spin_trylock, (pthread_spinlock_t * s), (s))
DRAIN_WRAP(int, pthread_spin_unlock, (pthread_spinlock_t * s), (s))
DRAIN_WRAP(int, pthread_rwlock_rdlock, (pthread_rwlock_t * l), (l))
DRAIN_WRAP(int, pthread_rwlock_wrlock, (pthread_rwlock_t * l), (l))
DRAIN_WRAP(int, pthread_rwlock_unlock, (pthread_rwlock_t * l), (l))
DRAIN_WRAP(int, pthread_cond_wait, (pthread_cond_t * c, pthread_mutex_t *m),
	   (c, m))
DRAIN_WRAP(int, pthread_cond_timedwait,
	   (pthread_cond_t * c, pthread_mutex_t *m, const struct timespec *t),
	   (c, m, t))
DRAIN_WRAP(int, pthread_cond_signal, (pthread_cond_t * c), (c))
DRAIN_WRAP(int, pthread_cond_broadcast, (pthread_cond_t * c), (c))
DRAIN_WRAP(int, sem_post, (sem_t * s), (s))
DRAIN_WRAP(int, sem_wait, (sem_t * s), (s))
DRAIN_WRAP(int, pthread_create,
	   (pthread_t * t, const pthread_attr_t *a, void *(*fn)(void *),
	    void *arg),
	   (t, a, fn, arg))
DRAIN_WRAP(int, pthread_join, (pthread_t t, void **ret), (t, ret))
DRAIN_WRAP(int, sched_yield, (void), ())
DRAIN_WRAP(int, nanosleep, (const struct timespec *r, struct timespec *rem),
	   (r, rem))
DRAIN_WRAP(int, usleep, (useconds_t us), (us))
DRAIN_WRAP(int, poll, (void *fds, unsigned long n, int timeout),
	   (fds, n, timeout))
