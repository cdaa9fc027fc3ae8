// SPDX-License-Identifier: MIT
/*
 * Built only against another liburcu (the Makefile's LIBURCU_DIR), whose
 * static libraries are linked into the binary.  The library's membarrier,
 * lock and sleep calls order memory where the store-buffer SDK of an -sb
 * plugin cannot see it; for a shared liburcu the SDK rewrites the
 * library's GOT (sdk/storebuf/libhook.c), but here the library's calls
 * would share the binary's GOT with the harness.  So the Makefile copies
 * the static libraries with those calls renamed (objcopy --redefine-sym
 * poll=rcut_urcu_poll, ...: the library's code is unchanged), they land
 * here and go on through rcut_lib_hooks, libc's functions until an SDK
 * sets its wrappers there.  Exported by static_liburcu.dynlist.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

/* A call the SDK may take over: its libc name, the function to call. */
struct rcut_lib_hook {
	const char *name;
	void *fn;
};

enum { H_SYSCALL, H_POLL, H_LOCK, H_UNLOCK, H_WAIT, H_BROADCAST };

extern struct rcut_lib_hook rcut_lib_hooks[];
struct rcut_lib_hook rcut_lib_hooks[] = {
	[H_SYSCALL] = { "syscall", NULL },
	[H_POLL] = { "poll", NULL },
	[H_LOCK] = { "pthread_mutex_lock", NULL },
	[H_UNLOCK] = { "pthread_mutex_unlock", NULL },
	[H_WAIT] = { "pthread_cond_wait", NULL },
	[H_BROADCAST] = { "pthread_cond_broadcast", NULL },
	{ NULL, NULL },
};

static void *hook(int i, void *libc)
{
	void *fn = __atomic_load_n(&rcut_lib_hooks[i].fn, __ATOMIC_ACQUIRE);

	return fn ? fn : libc;
}

long rcut_urcu_syscall(long nr, ...);
int rcut_urcu_poll(struct pollfd *fds, nfds_t n, int timeout);
int rcut_urcu_pthread_mutex_lock(pthread_mutex_t *m);
int rcut_urcu_pthread_mutex_unlock(pthread_mutex_t *m);
int rcut_urcu_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int rcut_urcu_pthread_cond_broadcast(pthread_cond_t *c);

long rcut_urcu_syscall(long nr, ...)
{
	long (*fn)(long, ...) = hook(H_SYSCALL, (void *)syscall);
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return fn(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int rcut_urcu_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	int (*fn)(struct pollfd *, nfds_t, int) = hook(H_POLL, (void *)poll);

	return fn(fds, n, timeout);
}

int rcut_urcu_pthread_mutex_lock(pthread_mutex_t *m)
{
	int (*fn)(pthread_mutex_t *) = hook(H_LOCK, (void *)pthread_mutex_lock);

	return fn(m);
}

int rcut_urcu_pthread_mutex_unlock(pthread_mutex_t *m)
{
	int (*fn)(pthread_mutex_t *) =
		hook(H_UNLOCK, (void *)pthread_mutex_unlock);

	return fn(m);
}

int rcut_urcu_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	int (*fn)(pthread_cond_t *, pthread_mutex_t *) =
		hook(H_WAIT, (void *)pthread_cond_wait);

	return fn(c, m);
}

int rcut_urcu_pthread_cond_broadcast(pthread_cond_t *c)
{
	int (*fn)(pthread_cond_t *) =
		hook(H_BROADCAST, (void *)pthread_cond_broadcast);

	return fn(c);
}
