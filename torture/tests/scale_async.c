// SPDX-License-Identifier: MIT
/*
 * --test scale --gp-async: a writer posts callbacks with the flavor's
 * call() and each sample is the time from call() to the callback's
 * invocation, the grace-period latency a call_rcu user sees.  (The
 * kernel's rcuscale times only the call itself, plus a barrier whenever
 * gp_async_max callbacks are in flight; it has no other way to time an
 * asynchronous grace period.)  At most --gp-async-max callbacks per
 * writer are in flight: at the cap the writer waits in the flavor's
 * barrier, as the kernel's does, or polls without one.
 */
#include "scale.h"

#include <stdio.h>
#include <stdlib.h>

#define POLL_NS 100000ULL /* waiting for callbacks without a barrier */

struct scale_cb {
	struct rcut_head rh; /* first: the flavor hands it back */
	struct scale_writer *w;
	_Atomic uint64_t posted_ns; /* set before busy, read after it */
	atomic_bool busy;
};

int scale_async_init(struct scale_writer *w, long max)
{
	w->cbs = calloc((size_t)max, sizeof(*w->cbs));
	if (!w->cbs)
		return -1;
	for (long i = 0; i < max; i++)
		w->cbs[i].w = w;
	return 0;
}

void scale_async_free(struct scale_writer *w)
{
	free(w->cbs);
	w->cbs = NULL;
}

static void scale_cb_invoked(struct rcut_head *rh)
{
	struct scale_cb *cb = (struct scale_cb *)rh;
	struct scale_writer *w = cb->w;

	scale_samples_add(&w->samples, torture_now_ns() - cb->posted_ns,
			  torture_must_stop(w->run));
	atomic_store_explicit(&cb->busy, false, memory_order_release);
	atomic_fetch_sub(&w->inflight, 1);
}

/* Wait until fewer than max callbacks are in flight (or the stop). */
static void wait_below(struct scale_writer *w, long max)
{
	const struct rcut_flavor *f = w->run->flavor;

	if (atomic_load(&w->inflight) < max)
		return;
	if (f->barrier) {
		torture_op_begin("barrier");
		f->barrier();
		torture_op_end();
		return;
	}
	torture_op_begin("waiting for callbacks");
	while (atomic_load(&w->inflight) >= max && !torture_must_stop(w->run))
		torture_nap_ns(POLL_NS);
	torture_op_end();
}

void scale_async_post(struct scale_writer *w)
{
	long max = w->run->cfg->scale.gp_async_max;
	struct scale_cb *cb;

	wait_below(w, max);
	if (atomic_load(&w->inflight) >= max)
		return; /* the barrier left some: the stall check looks */
	do {
		cb = &w->cbs[w->next];
		w->next = (w->next + 1) % max;
	} while (atomic_load_explicit(&cb->busy, memory_order_acquire));
	atomic_fetch_add(&w->inflight, 1);
	atomic_store(&cb->posted_ns, torture_now_ns());
	atomic_store_explicit(&cb->busy, true, memory_order_release);
	w->run->flavor->call(&cb->rh, scale_cb_invoked);
}

long scale_async_inflight(struct scale_state *s)
{
	long n = 0;

	for (int i = 0; i < s->nwriters; i++)
		n += atomic_load(&s->writers[i].inflight);
	return n;
}

bool scale_async_stalled(struct torture_run *run, uint64_t now, char *what,
			 size_t len)
{
	struct scale_state *s = scale_state(run);
	long max = run->cfg->scale.gp_async_max;
	uint64_t timeout = run->cfg->stall_timeout_ns;

	for (int i = 0; i < s->nwriters; i++) {
		for (long k = 0; k < max; k++) {
			struct scale_cb *cb = &s->writers[i].cbs[k];
			uint64_t posted;

			if (!atomic_load_explicit(&cb->busy,
						  memory_order_acquire))
				continue;
			posted = atomic_load(&cb->posted_ns);
			if (now < posted || now - posted < timeout)
				continue;
			snprintf(
				what, len,
				"writer %d's callback %p not invoked %.1f s after call()",
				i, (void *)cb, (double)(now - posted) / 1e9);
			return true;
		}
	}
	return false;
}

void scale_async_drain(struct torture_thread *t)
{
	const struct rcut_flavor *f = t->run->flavor;

	torture_op_begin(f->barrier ? "final barrier" :
				      "waiting for the last callbacks");
	if (f->barrier)
		f->barrier();
	while (scale_async_inflight(scale_state(t->run)) > 0)
		torture_nap_ns(POLL_NS);
	torture_op_end();
}
