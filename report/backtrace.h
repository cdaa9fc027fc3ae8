/* SPDX-License-Identifier: MIT */
/* Symbolized backtraces of the calling thread, with libunwind. */
#ifndef REPORT_BACKTRACE_H
#define REPORT_BACKTRACE_H

#include <stddef.h>

/*
 * Write the calling thread's backtrace, one "    #N function+0xoff [ip]"
 * line per frame, to buf; the first 'skip' frames (the unwinder's own
 * callers, a signal handler) are left out.  Usable from a signal handler:
 * it allocates nothing.  Returns the number of frames written.
 */
int rcut_backtrace(char *buf, size_t len, int skip);

#endif /* REPORT_BACKTRACE_H */
