/* SPDX-License-Identifier: MIT */
/*
 * The private configuration header liburcu's sources are compiled with
 * (their build passes "-include config.h"), written for Debian 12: what
 * its configure script finds there.  Our own file, so that a variant of
 * liburcu's source builds without running configure.  The public one,
 * urcu/config.h, comes from Debian's liburcu-dev.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#define HAVE_SCHED_GETCPU 1
#define HAVE_SCHED_SETAFFINITY 1
#define HAVE_SYSCONF 1
#define HAVE_RAND_R 1
