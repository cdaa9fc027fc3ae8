// SPDX-License-Identifier: MIT
/*
 * The data-race mode, the userspace counterpart of the kernel's KCSAN
 * runs (make tsan): ThreadSanitizer calls __tsan_on_report() for every
 * report it prints.  A race one of whose two accesses is a flavor's code
 * (a plugin, a flavor's source, a library's inlined read side) fails the
 * run's "data race" check, with both stacks; a race between two accesses
 * of the harness is our bug and keeps TSan's own exit status.
 */
#include "data_race.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_THREAD__)
#define RCUT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RCUT_TSAN 1
#endif
#endif

#ifndef RCUT_TSAN

int torture_data_race_exit(int status)
{
	return status;
}

void torture_data_race_poll(struct torture_run *run)
{
	(void)run;
}

#else /* RCUT_TSAN */

#include "failure.h"
#include "run.h"

/* ThreadSanitizer's report interface (tsan_interface.h, tsan_debugging). */
int __tsan_get_report_data(void *report, const char **description, int *count,
			   int *stack_count, int *mop_count, int *loc_count,
			   int *mutex_count, int *thread_count,
			   int *unique_tid_count, void **sleep_trace,
			   unsigned long trace_size);
int __tsan_get_report_mop(void *report, unsigned long idx, int *tid,
			  void **addr, int *size, int *write, int *atomic,
			  void **trace, unsigned long trace_size);
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out,
			      unsigned long size);
void __tsan_on_report(void *report);
const char *__tsan_default_options(void);
const char *__tsan_default_suppressions(void);

#define STACK_DEPTH 16

static atomic_int harness_reports;

/*
 * A stall ends the run without joining the stuck threads, on purpose
 * (their stacks are in the report): not a leak to report.
 */
const char *__tsan_default_options(void)
{
	return "report_thread_leaks=0";
}

/*
 * liburcu 0.13 has no TSan annotations (urcu/annotate.h came in 0.15)
 * and Debian's libraries are not instrumented, so TSan cannot see the
 * order liburcu's own atomics and queues give: its futex word, its
 * barrier's completion, and the adapter's callback hand-off through
 * liburcu's queue (docs/sanitizers.md, kinds 1 to 3).  Nothing of ours.
 */
const char *__tsan_default_suppressions(void)
{
	return "called_from_lib:liburcu-common.so\n"
	       "called_from_lib:liburcu-memb.so\n"
	       "called_from_lib:liburcu-mb.so\n"
	       "called_from_lib:liburcu-signal.so\n"
	       "called_from_lib:liburcu-qsbr.so\n"
	       "called_from_lib:liburcu-bp.so\n"
	       "race_top:urcu_*\n"
	       "race_top:ua_invoke\n";
}

/* The source tree's root as this file was compiled: "" or "/x/y/". */
__attribute__((no_sanitize_thread)) static size_t root_len(void)
{
	const char *tail = "torture/core/data_race.c";
	size_t n = strlen(__FILE__), t = strlen(tail);

	return n >= t ? n - t : 0;
}

/* The harness's own code: the torture, cmd and report layers. */
__attribute__((no_sanitize_thread)) static bool harness_file(const char *file)
{
	static const char *const dirs[] = { "torture/", "cmd/", "report/" };
	size_t r = root_len();

	if (strncmp(file, __FILE__, r))
		return false;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(file + r, dirs[i], strlen(dirs[i])))
			return true;
	return false;
}

/* The runtime's interceptors and libc: not whose access it was. */
__attribute__((no_sanitize_thread)) static bool
runtime_module(const char *module)
{
	return strstr(module, "libtsan") || strstr(module, "libc.so") ||
	       strstr(module, "ld-linux");
}

/*
 * Whose access a stack shows: its first frame outside the runtime and
 * libc.  A frame without a source file is a flavor's when it lies
 * outside the executable (a plugin or a library), ours otherwise.
 */
__attribute__((no_sanitize_thread)) static bool flavor_stack(void *const *trace)
{
	char file[512], module[512];

	for (int i = 0; i < STACK_DEPTH && trace[i]; i++) {
		__sanitizer_symbolize_pc(trace[i], "%m", module,
					 sizeof(module));
		if (runtime_module(module))
			continue;
		__sanitizer_symbolize_pc(trace[i], "%s", file, sizeof(file));
		if (file[0] && strcmp(file, "<null>") && strcmp(file, "??"))
			return !harness_file(file);
		return !strstr(module, "rcutorture");
	}
	return false;
}

struct access {
	int tid, size, write, atomic;
	void *addr;
	void *trace[STACK_DEPTH + 1];
};

/*
 * The first race in a flavor, as the hook saw it.  The hook runs inside
 * ThreadSanitizer's report, with its thread registry locked: an access
 * of instrumented code there that raced would report again and deadlock
 * on that lock, so the hook only copies, uninstrumented, and the
 * lifecycle's poll (an ordinary thread) formats and fails the run.
 */
static struct {
	char kind[32];
	struct access a[2];
} first_race;
static atomic_int first_race_state; /* RACE_* */
enum { RACE_NONE, RACE_TAKEN, RACE_READY, RACE_REPORTED };

__attribute__((no_sanitize_thread)) void __tsan_on_report(void *report)
{
	int count, stacks, mops, locs, mutexes, threads, tids, none = RACE_NONE;
	const char *kind = "";
	struct access a[2];
	void *sleep;

	__tsan_get_report_data(report, &kind, &count, &stacks, &mops, &locs,
			       &mutexes, &threads, &tids, &sleep, 1);
	/* A race, or a use after free (a free and an access racing). */
	if ((strncmp(kind, "data-race", 9) &&
	     strncmp(kind, "heap-use-after-free", 19)) ||
	    mops < 2) {
		atomic_fetch_add(&harness_reports, 1);
		return;
	}
	memset(a, 0, sizeof(a));
	for (int i = 0; i < 2; i++)
		__tsan_get_report_mop(report, (unsigned long)i, &a[i].tid,
				      &a[i].addr, &a[i].size, &a[i].write,
				      &a[i].atomic, a[i].trace, STACK_DEPTH);
	if (!flavor_stack(a[0].trace) && !flavor_stack(a[1].trace)) {
		atomic_fetch_add(&harness_reports, 1);
		return;
	}
	if (!atomic_compare_exchange_strong(&first_race_state, &none,
					    RACE_TAKEN))
		return;
	snprintf(first_race.kind, sizeof(first_race.kind), "%s", kind);
	memcpy(first_race.a, a, sizeof(a));
	atomic_store(&first_race_state, RACE_READY);
}

/* "name file:line" of a frame. */
static void frame_text(void *pc, char *out, size_t size)
{
	__sanitizer_symbolize_pc(pc, "%f %s:%l", out, size);
}

static void print_stack(struct torture_run *run, const char *which,
			const struct access *a)
{
	char frame[512];

	printf("%s-%s: data race: %s: %s of %d bytes at %p by thread T%d%s:\n",
	       run->flavor->name, run->tag, which, a->write ? "write" : "read",
	       a->size, a->addr, a->tid, a->atomic ? " (atomic)" : "");
	for (int i = 0; i < STACK_DEPTH && a->trace[i]; i++) {
		frame_text(a->trace[i], frame, sizeof(frame));
		printf("%s-%s: data race:     #%d %s\n", run->flavor->name,
		       run->tag, i, frame);
	}
}

void torture_data_race_poll(struct torture_run *run)
{
	const struct access *a = first_race.a;
	int ready = RACE_READY;
	char top[2][512];

	if (atomic_load_explicit(&first_race_state, memory_order_relaxed) !=
		    RACE_READY ||
	    !atomic_compare_exchange_strong(&first_race_state, &ready,
					    RACE_REPORTED))
		return;
	for (int i = 0; i < 2; i++)
		frame_text(a[i].trace[0], top[i], sizeof(top[i]));
	torture_failure(run, "data race",
			"ThreadSanitizer: %s: %s by T%d at %s, %s by T%d at %s",
			first_race.kind, a[0].write ? "write" : "read",
			a[0].tid, top[0], a[1].write ? "write" : "read",
			a[1].tid, top[1]);
	flockfile(stdout);
	print_stack(run, "this access", &a[0]);
	print_stack(run, "the earlier one", &a[1]);
	funlockfile(stdout);
	fflush(stdout);
}

int torture_data_race_exit(int status)
{
	if (atomic_load(&first_race_state) == RACE_REPORTED &&
	    !atomic_load(&harness_reports)) {
		fflush(NULL);
		/* TSan's _exit keeps a status that is not 0. */
		_exit(status ? status : 1);
	}
	return status;
}

#endif /* RCUT_TSAN */
