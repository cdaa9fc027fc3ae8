// SPDX-License-Identifier: MIT
/*
 * Per-thread pseudo-random numbers (splitmix64): each thread's stream is a
 * function of --seed and its identity only, so a seed repeats the choices.
 */
#include "random.h"

void torture_rand_seed(struct torture_rand *r, uint64_t seed, uint64_t stream)
{
	r->state = seed ^ (stream * 0x9e3779b97f4a7c15ULL);
	(void)torture_random(r);
}

uint64_t torture_random(struct torture_rand *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
