// SPDX-License-Identifier: MIT
/* Clocks and stop-aware sleeps: no torture thread sleeps past the stop. */
#include "run.h"
#include "../util/delay.h"

#include <errno.h>
#include <time.h>

#define STOP_POLL_NS 10000000ULL /* threads notice the stop within 10 ms */

uint64_t torture_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The threads start now: elapsed time counts from here (and not stopped). */
void torture_mark_start(struct torture_run *run)
{
	run->clock.start_ns = torture_now_ns();
	torture_machine_mark(&run->clock.machine);
	atomic_store(&run->clock.stop_ns, 0);
	atomic_store(&run->clock.deadline_ns, 0);
}

/* The stop began: elapsed time freezes here (at the first stop). */
void torture_mark_stop(struct torture_run *run)
{
	uint64_t none = 0;

	atomic_compare_exchange_strong(&run->clock.stop_ns, &none,
				       torture_now_ns());
}

void torture_deadline_check(struct torture_run *run)
{
	uint64_t deadline = atomic_load_explicit(&run->clock.deadline_ns,
						 memory_order_relaxed);

	if (!deadline || torture_must_stop(run) || torture_now_ns() < deadline)
		return;
	torture_mark_stop(run);
	torture_stop(run);
}

uint64_t torture_elapsed_ns(struct torture_run *run)
{
	uint64_t stop = atomic_load(&run->clock.stop_ns);

	return (stop ? stop : torture_now_ns()) - run->clock.start_ns;
}

void torture_sleep_ns(struct torture_run *run, uint64_t ns)
{
	uint64_t end = torture_now_ns() + ns;

	while (!torture_must_stop(run)) {
		uint64_t now = torture_now_ns(), chunk;
		struct timespec ts;

		if (now >= end)
			return;
		chunk = end - now < STOP_POLL_NS ? end - now : STOP_POLL_NS;
		ts.tv_sec = (time_t)(chunk / 1000000000ULL);
		ts.tv_nsec = (long)(chunk % 1000000000ULL);
		bool detached = torture_cpu_detach();

		nanosleep(&ts, NULL);
		if (detached)
			torture_cpu_attach();
		torture_progress(); /* sleeping is not being stuck */
	}
}

void torture_spin_ns(struct torture_run *run, uint64_t ns)
{
	uint64_t end = torture_now_ns() + ns;

	while (torture_now_ns() < end && !torture_must_stop(run))
		delay_cpu_relax();
}

void torture_nap_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL),
			       (long)(ns % 1000000000ULL) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
