/* SPDX-License-Identifier: MIT */
/* The grace-period primitives the writer and fake writers choose among. */
#ifndef TORTURE_GP_H
#define TORTURE_GP_H

#include "torture.h"

enum torture_gp_kind {
	GP_SYNC,   /* synchronize() */
	GP_EXP,	   /* synchronize_expedited() */
	GP_NORMAL, /* call(): asynchronous */
	GP_NKINDS,
};

/* Names for messages, indexed by enum torture_gp_kind. */
extern const char *const torture_gp_names[GP_NKINDS];

/* Whether the flavor under test has this primitive. */
bool torture_gp_available(enum torture_gp_kind kind);

/* A random primitive among those available (async ones only if allowed). */
enum torture_gp_kind torture_gp_pick(struct torture_rand *r, bool allow_async);

/* Wait for a full grace period with a synchronous primitive. */
void torture_gp_wait(enum torture_gp_kind kind);

#endif /* TORTURE_GP_H */
