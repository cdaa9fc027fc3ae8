/* SPDX-License-Identifier: MIT */
/*
 * Callback order (core/cborder.c): for a flavor that declares
 * RCUT_CAP_CB_FIFO, the callbacks a harness thread posts are invoked in
 * the order it posted them.
 */
#ifndef TORTURE_CORE_CBORDER_H
#define TORTURE_CORE_CBORDER_H

#include "callbacks.h"

/* At call(): number cb among its poster's posts (when the check applies). */
void torture_cborder_post(struct torture_run *run, struct torture_cb *cb);
/* At invocation, before its function: a failure if a later post ran first. */
void torture_cborder_invoke(struct torture_run *run, struct torture_cb *cb);

#endif /* TORTURE_CORE_CBORDER_H */
