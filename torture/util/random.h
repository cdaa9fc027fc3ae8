/* SPDX-License-Identifier: MIT */
/*
 * Per-thread pseudo-random numbers: a stream per thread, a function of
 * the seed and the thread's identity only (util/random.c).
 */
#ifndef TORTURE_UTIL_RANDOM_H
#define TORTURE_UTIL_RANDOM_H

#include <stdint.h>

struct torture_rand {
	uint64_t state;
};
void torture_rand_seed(struct torture_rand *r, uint64_t seed, uint64_t stream);
uint64_t torture_random(struct torture_rand *r);

#endif /* TORTURE_UTIL_RANDOM_H */
