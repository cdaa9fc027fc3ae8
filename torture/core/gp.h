/* SPDX-License-Identifier: MIT */
/* The grace-period primitives the writer and fake writers choose among. */
#ifndef TORTURE_GP_H
#define TORTURE_GP_H

#include "run.h"

#include <rcutorture/flavor.h>

/* Option names (--gp-sync, ...), indexed by enum rcut_gp_kind. */
extern const char *const torture_gp_names[RCUT_GP_NKINDS];

/* Whether flavor f has this primitive. */
bool torture_gp_available(const struct rcut_flavor *f, enum rcut_gp_kind kind);

/*
 * Check the --gp-* restriction against f: -1 with a one-line reason if it
 * asks for a primitive f lacks or leaves the writer without any.
 */
int torture_gp_check(const struct rcut_flavor *f, unsigned int mask, char *err,
		     size_t len);

/* A random allowed primitive; the asynchronous one only if allow_async. */
enum rcut_gp_kind torture_gp_pick(struct torture_run *run,
				  struct torture_rand *r, bool allow_async);

/* Wait for a full grace period with a synchronous kind (not NORMAL). */
void torture_gp_wait(struct torture_run *run, struct torture_rand *r,
		     enum rcut_gp_kind kind);

/*
 * Take a cookie (plain and full, as the flavor has them) inside a
 * read-side section and fail the run if it polls as done there, at once
 * or (sometimes, r draws) at later polls in the same section.
 */
void torture_gp_cookie_check(struct torture_run *run, struct torture_rand *r);

/*
 * --exp-gp-bound at the end of the run: nine in ten or more of the
 * expedited grace periods timed (at least 100) above the bound fail the
 * run, if no earlier check did.  Before the final report's snapshot.
 */
void torture_gp_exp_final(struct torture_run *run);

/* --exp-gp-bound's line in the final report (nothing without it). */
void torture_gp_exp_report(struct torture_run *run, FILE *out);

#endif /* TORTURE_GP_H */
