/* SPDX-License-Identifier: MIT */
/*
 * rtmbkf, the memory-ordering check (core/mbchk.c).
 */
#ifndef TORTURE_CORE_MBCHK_H
#define TORTURE_CORE_MBCHK_H

struct torture_run;
struct torture_thread;

/* --- rtmbkf, the memory-ordering check (torture/mbchk.c) --- */
struct torture_elem;
struct torture_mbchk;
int torture_mbchk_init(struct torture_run *run, int nreaders);
void torture_mbchk_cleanup(struct torture_run *run);
/* Reader t, inside a section, holds p: assign a check, carry one out. */
void torture_mbchk_read(struct torture_thread *t, struct torture_elem *p);
/* p is aged after a grace period: a check hung on it is ready. */
void torture_mbchk_gp_passed(struct torture_elem *p);

#endif /* TORTURE_CORE_MBCHK_H */
