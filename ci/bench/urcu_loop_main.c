// SPDX-License-Identifier: MIT
/*
 * urcu_loop FLAVOR NREADERS SECONDS: run the reference loop of urcu_loop.h
 * for one liburcu flavor and print one line:
 *
 *   urcu-loop flavor=memb readers=2 seconds=3.00 reads=... updates=...
 *   errors=0 reads/s=... updates/s=...
 *
 * Exit 0; 1 if a reader saw a freed value; 2 on bad arguments (one-line
 * message); 5 if a thread could not be created.
 */
#include "urcu_loop.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_READERS 4096
#define MAX_SECONDS 86400.0

atomic_int urcu_loop_stop;
pthread_barrier_t urcu_loop_start;

static const struct urcu_loop_flavor *const flavors[] = {
	&urcu_loop_memb, &urcu_loop_mb, &urcu_loop_signal,
	&urcu_loop_qsbr, &urcu_loop_bp,
};

static const char usage[] =
	"usage: urcu_loop FLAVOR NREADERS SECONDS (FLAVOR: memb mb signal qsbr bp; NREADERS: 1 to 4096; SECONDS: > 0, at most 86400)";

/* One line naming the argument and what it accepts; exit 2. */
static void __attribute__((noreturn))
bad_arg(const char *name, const char *arg, const char *accepted)
{
	fprintf(stderr, "urcu_loop: bad %s '%s': expected %s\n", name, arg,
		accepted);
	exit(2);
}

static const struct urcu_loop_flavor *find_flavor(const char *name)
{
	for (size_t i = 0; i < sizeof(flavors) / sizeof(flavors[0]); i++)
		if (!strcmp(flavors[i]->name, name))
			return flavors[i];
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep until 'seconds' after 'start' (monotonic), whatever interrupts. */
static void sleep_until(double start, double seconds)
{
	struct timespec ts;
	double end = start + seconds;

	ts.tv_sec = (time_t)end;
	ts.tv_nsec = (long)((end - (double)ts.tv_sec) * 1e9);
	if (ts.tv_nsec >= 1000000000L)
		ts.tv_nsec = 999999999L;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

int main(int argc, char **argv)
{
	const struct urcu_loop_flavor *fl;
	struct urcu_loop_slot *slots;
	pthread_t *threads;
	unsigned long nreaders;
	unsigned long long reads = 0, updates, errors = 0;
	double seconds, start, elapsed;
	char *end;
	int err;

	if (argc != 4) {
		fprintf(stderr, "%s\n", usage);
		return 2;
	}
	fl = find_flavor(argv[1]);
	if (!fl)
		bad_arg("FLAVOR", argv[1], "memb, mb, signal, qsbr or bp");
	errno = 0;
	nreaders = strtoul(argv[2], &end, 10);
	if (errno || end == argv[2] || *end || argv[2][0] == '-' ||
	    nreaders < 1 || nreaders > MAX_READERS)
		bad_arg("NREADERS", argv[2], "an integer from 1 to 4096");
	errno = 0;
	seconds = strtod(argv[3], &end);
	if (errno || end == argv[3] || *end || !isfinite(seconds) ||
	    seconds <= 0 || seconds > MAX_SECONDS)
		bad_arg("SECONDS", argv[3], "a number > 0 and <= 86400");

	/* Slot i < nreaders: reader i; slot nreaders: the writer. */
	slots = aligned_alloc(64, (nreaders + 1) * sizeof(*slots));
	threads = calloc(nreaders + 1, sizeof(*threads));
	if (!slots || !threads) {
		fprintf(stderr, "urcu_loop: out of memory\n");
		return 5;
	}
	memset(slots, 0, (nreaders + 1) * sizeof(*slots));
	pthread_barrier_init(&urcu_loop_start, NULL, (unsigned)nreaders + 2);
	fl->publish_first();
	for (unsigned long i = 0; i <= nreaders; i++) {
		err = pthread_create(&threads[i], NULL,
				     i < nreaders ? fl->reader : fl->writer,
				     &slots[i]);
		if (err) {
			fprintf(stderr, "urcu_loop: pthread_create: %s\n",
				strerror(err));
			/* The others wait at the barrier forever: just go. */
			_exit(5);
		}
	}
	pthread_barrier_wait(&urcu_loop_start);
	start = now();
	sleep_until(start, seconds);
	atomic_store_explicit(&urcu_loop_stop, 1, memory_order_relaxed);
	elapsed = now() - start;
	for (unsigned long i = 0; i <= nreaders; i++)
		pthread_join(threads[i], NULL);
	fl->free_last();
	pthread_barrier_destroy(&urcu_loop_start);

	for (unsigned long i = 0; i < nreaders; i++) {
		reads += slots[i].count;
		errors += slots[i].errors;
	}
	updates = slots[nreaders].count;
	printf("urcu-loop flavor=%s readers=%lu seconds=%.2f reads=%llu updates=%llu errors=%llu reads/s=%.0f updates/s=%.1f\n",
	       fl->name, nreaders, elapsed, reads, updates, errors,
	       reads / elapsed, updates / elapsed);
	free(slots);
	free(threads);
	return errors ? 1 : 0;
}
