/* SPDX-License-Identifier: MIT */
/*
 * Fatal signals (core/fatal.c): report and exit 5.
 */
#ifndef TORTURE_CORE_FATAL_H
#define TORTURE_CORE_FATAL_H

/* Report and exit 5 on SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT. */
void torture_fatal_init(void);
/* Give the calling thread an alternate signal stack; pass to _exit(). */
void *torture_fatal_thread_init(void);
void torture_fatal_thread_exit(void *altstack);

#endif /* TORTURE_CORE_FATAL_H */
