/* SPDX-License-Identifier: MIT */
/* The ref test (the kernel's refscale) and its baselines. */
#ifndef TORTURE_REF_H
#define TORTURE_REF_H

#include "../config/config.h"

#include <rcutorture/flavor.h>

/*
 * The baselines a read-side section is compared with, as flavor tables
 * with a read side and a ref_loop only: none (no protection), refcnt
 * (one shared atomic reference count), rwlock (the read side of one
 * pthread rwlock), mutex (one pthread mutex).  NULL-ended.
 */
extern const struct rcut_flavor *const ref_baselines[];

/* A baseline by name, or NULL. */
const struct rcut_flavor *ref_baseline_find(const char *name);

/* "none, refcnt, rwlock, mutex", for messages. */
const char *ref_baseline_names(void);

/*
 * Measure ns per read-side section for each of flavors[0..n) and each
 * reader count (--threads, or --nreaders), print the kernel's refscale
 * lines and the lookups/s table.  Returns the exit status.
 */
int ref_run(const struct rcut_config *cfg,
	    const struct rcut_flavor *const *flavors, int n);

#endif /* TORTURE_REF_H */
