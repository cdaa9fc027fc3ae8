/* SPDX-License-Identifier: MIT */
/*
 * The element pool and pipe ageing (core/elements.c).
 */
#ifndef TORTURE_CORE_ELEMENTS_H
#define TORTURE_CORE_ELEMENTS_H

#include "callbacks.h"
#include "../../report/snapshot.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct torture_run;
struct torture_mbchk;

/* --- the element pool (torture/elements.c) --- */
struct torture_elem {
	_Atomic int pipe_count;
	_Atomic int mbtest; /* 1 while allocated, 0 on the free list */
	/*
	 * Asynchronous aging alternates between two callback heads, so that
	 * a duplicate invocation of one post finds that head idle (and is
	 * reported) instead of looking like the next post.
	 */
	struct torture_cb cb[2];
	unsigned int cb_next;
	struct torture_elem *next; /* free list, writer's removed list */
	/* A reader's memory-ordering check, until a grace period passes. */
	struct torture_mbchk *_Atomic chkp;
};

#define TORTURE_POOL_SIZE (10 * RCUT_PIPE_LEN)

struct torture_pool {
	struct torture_elem elem[TORTURE_POOL_SIZE];
	struct torture_elem *free_list;
	pthread_mutex_t lock;		      /* of the free list */
	struct torture_elem *_Atomic current; /* what readers see */
};

void torture_pool_init(struct torture_pool *p);
/* An element off the free list; NULL (counted rtaf) if none is free. */
struct torture_elem *torture_elem_alloc(struct torture_run *run);
/* Age e by one stage; true if that freed it (it reached PIPE_LEN). */
bool torture_elem_age(struct torture_run *run, struct torture_elem *e);
/* Age e once per grace period via the flavor's call(), until freed. */
void torture_elem_age_async(struct torture_run *run, struct torture_elem *e);
bool torture_pool_empty(struct torture_pool *p);
/* An element's aging callback posted more than timeout ago, not invoked. */
bool torture_pool_stalled_callback(struct torture_pool *p, uint64_t now,
				   uint64_t timeout, char *what, size_t len);

#endif /* TORTURE_CORE_ELEMENTS_H */
