// SPDX-License-Identifier: MIT
/*
 * A writer's grace-period durations: what is counted (only grace periods
 * that ended before the stop), and a bounded store that stays a uniform
 * sample of the whole run however long it is (reservoir sampling, with a
 * stateless hash so that callbacks on any thread may add).
 */
#include "scale.h"

#include <stdlib.h>

/* splitmix64's finalizer: a well-mixed function of k. */
static uint64_t mix(uint64_t k)
{
	k += 0x9e3779b97f4a7c15ULL;
	k = (k ^ (k >> 30)) * 0xbf58476d1ce4e5b9ULL;
	k = (k ^ (k >> 27)) * 0x94d049bb133111ebULL;
	return k ^ (k >> 31);
}

int scale_samples_init(struct scale_samples *s, size_t cap)
{
	s->ns = calloc(cap, sizeof(*s->ns));
	s->cap = cap;
	atomic_init(&s->seen, 0);
	atomic_init(&s->discarded, 0);
	return s->ns ? 0 : -1;
}

void scale_samples_free(struct scale_samples *s)
{
	free((void *)s->ns);
	s->ns = NULL;
}

void scale_samples_add(struct scale_samples *s, uint64_t ns, bool stopping)
{
	uint64_t k, slot;

	if (stopping) {
		atomic_fetch_add_explicit(&s->discarded, 1,
					  memory_order_relaxed);
		return;
	}
	k = atomic_fetch_add_explicit(&s->seen, 1, memory_order_relaxed);
	slot = k < s->cap ? k : mix(k) % (k + 1);
	if (slot < s->cap)
		atomic_store_explicit(&s->ns[slot], ns, memory_order_relaxed);
}

size_t scale_samples_kept(const struct scale_samples *s)
{
	uint64_t seen = atomic_load(&s->seen);

	return seen < s->cap ? (size_t)seen : s->cap;
}
