/* SPDX-License-Identifier: MIT */
/*
 * Backtraces with libunwind: captured (async-signal-safe) by the thread
 * itself, printed later with file:line from the debug information
 * (elfutils libdw, when the build found it: report/srcline.c).
 */
#ifndef REPORT_BACKTRACE_H
#define REPORT_BACKTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RCUT_BT_FRAMES 48
#define RCUT_BT_NAME 96

/* One frame: its address when captured, libunwind's name once resolved. */
struct rcut_frame {
	uintptr_t ip;		 /* the return address (the pc in frame 0) */
	bool exact;		 /* ip is the pc itself (interrupted there) */
	bool resolved;		 /* name, off and start are filled in */
	uintptr_t off;		 /* ip - the start of the symbol named */
	uintptr_t start;	 /* the function's start per its unwind info */
	char name[RCUT_BT_NAME]; /* "" when libunwind found no symbol */
};

/* A thread's stack, frame 0 innermost. */
struct rcut_bt {
	int n;
	struct rcut_frame f[RCUT_BT_FRAMES];
};

/*
 * Capture the calling thread's stack into bt, leaving out the first 'skip'
 * frames (the caller's own, a signal handler, its trampoline): addresses
 * only, with libunwind's async-signal-safe calls, so a thread can take
 * its own from a signal handler.  Returns the number of frames.
 */
int rcut_backtrace_capture(struct rcut_bt *bt, int skip);

/* Fill in libunwind's names of bt's frames (not in a signal handler). */
void rcut_backtrace_resolve(struct rcut_bt *bt);

/*
 * A libunwind name is a guess when the symbol it names does not start
 * where the function's unwind information says the function starts (the
 * nearest exported symbol of a library without a full symbol table), or
 * when there is no unwind information to check it against.
 */
bool rcut_frame_is_guess(const struct rcut_frame *f);

/* A one-frame backtrace of pc alone (a thread that cannot unwind). */
void rcut_backtrace_of_pc(struct rcut_bt *bt, uintptr_t pc);

/*
 * Print bt, one "    #N function+0xoff [0xip] file:line" line per frame:
 * file:line where debug information covers the address, a trailing '?'
 * after the offset when the name is a guess, "??" when nothing is known.
 * Not for signal handlers (libdw allocates).
 */
void rcut_backtrace_print(FILE *out, struct rcut_bt *bt);

/*
 * Capture and format the calling thread's backtrace into buf without
 * debug information (names, offsets, guesses marked): for a fatal-signal
 * handler.  Returns the number of frames written.
 */
int rcut_backtrace(char *buf, size_t len, int skip);

#endif /* REPORT_BACKTRACE_H */
