/* SPDX-License-Identifier: MIT */
/*
 * The torture test's thread bodies: each takes its struct
 * torture_thread and reaches the run through t->run.
 */
#ifndef TORTURE_THREADS_THREADS_H
#define TORTURE_THREADS_THREADS_H

#include "../core/holds.h"
#include "../core/run.h"
#include <stdbool.h>
#include <stdio.h>

/* Thread bodies. */
void torture_reader(struct torture_thread *t);
void torture_read_exit(struct torture_thread *t);
/* One read-side section with all checks; false if nothing to read yet. */
bool torture_one_read(struct torture_thread *t);
/* The same built from --extendables' random segments (reader_segments.c). */
bool torture_one_read_segments(struct torture_thread *t);
/*
 * The kernel's rcu_torture_one_read_extend() for a classic read that holds
 * its element in its outer section: 1 to 4 more segments in that section
 * (a nested section coming and going where sections nest, a delay, a
 * preemption point, and the kinds --extendables asks for), then the outer
 * section alone again; the caller checks the element it read first.
 * Returns the segments written to segs, the read's own first.
 */
int torture_read_extend(struct torture_thread *t, struct torture_seg *segs);
/* Keep a failed extended read's segments for the report. */
void torture_read_extend_failed(struct torture_thread *t,
				const struct torture_seg *segs, int n);
/* The first failing reader's segments, if any, in the kernel's format. */
void torture_segments_print(struct torture_run *run, FILE *out);
/*
 * The outermost read_unlock(idx) of a section that read p; under
 * --store-buffer-model arm, sometimes with p's pipe stage loaded again
 * late, inside an unlock store nothing ordered after the section's loads
 * (late_loads.c): that stage, or -1 when no such load was made.
 */
int torture_late_unlock(struct torture_thread *t, struct torture_elem *p,
			int idx);
/* rtmbe: p must still be in use while a reader holds it (reader.c). */
void torture_read_check_in_use(struct torture_thread *t, struct torture_elem *p,
			       const char *when);

void torture_writer(struct torture_thread *t);
void torture_fakewriter(struct torture_thread *t);
/* Preemption injection: signal random threads, readers above all. */
void torture_preempter(struct torture_thread *t);
void torture_onoff(struct torture_thread *t);
void torture_fwd_progress(struct torture_thread *t);
/* The need_resched forward-progress test: one round (fwd_nr.c). */
void torture_fwd_nr(struct torture_thread *t, int *tested, int *tries);
/* Call-queue toggling (--nocbs-nthreads). */
void torture_call_toggle(struct torture_thread *t);
/* Deliberate stalls (--stall-cpu, --stall-gp-kthread). */
void torture_stall(struct torture_thread *t);
void torture_stutter(struct torture_thread *t);
void torture_shuffle(struct torture_thread *t);
/* Called by every torture loop: wait while the stutter pauses the test. */
void torture_stutter_wait(struct torture_thread *t);

/*
 * --n-up-down (threads/updown.c): sections begun by down_read on the
 * "updown-down" thread and ended by up_read on the "updown-up" one.
 */
bool torture_updown_possible(const struct rcut_flavor *f);
int torture_updown_init(struct torture_run *run, int n);
void torture_updown_cleanup(struct torture_run *run);
void torture_updown_down(struct torture_thread *t);
void torture_updown_up(struct torture_thread *t);

/* --object-debug: the duplicate call() test, once; then idle. */
void torture_object_debug(struct torture_thread *t);

/*
 * Calls the kernel's rules allow or forbid, made on purpose (legality.c):
 * a reader's call() inside its section (--reader-cbs), call() on a CPU
 * just offlined (--onoff-call), barrier() inside a section and from a
 * callback (--illegal-barrier, on flavors with RCUT_CAP_BARRIER_CHECK).
 */
bool torture_reader_cbs_possible(const struct rcut_flavor *f);
void torture_reader_section_post(struct torture_thread *t);
void torture_updown_section_post(struct torture_thread *t);
void torture_onoff_call(struct torture_run *run, int cpu);
bool torture_illegal_barrier_possible(const struct rcut_flavor *f);
void torture_illegal_barrier(struct torture_thread *t);

void torture_barrier_poster(struct torture_thread *t);
void torture_barrier_driver(struct torture_thread *t);
int torture_barrier_init(struct torture_run *run);
void torture_barrier_cleanup(struct torture_run *run);

#endif /* TORTURE_THREADS_THREADS_H */
