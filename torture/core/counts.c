// SPDX-License-Identifier: MIT
/* Thread counts resolved like the kernel's nreaders/nfakewriters. */
#include "run.h"

long torture_resolve_count(long value, long auto_count, int ncpus)
{
	long n;

	if (value == RCUT_COUNT_AUTO)
		return auto_count;
	if (value >= 0)
		return value;
	/* rcu_torture_init(): num_online_cpus() - 2 - nreaders, min 1. */
	n = (long)ncpus - 2 - value;
	return n > 0 ? n : 1;
}

long torture_resolve_scale_count(long value, long auto_count, int ncpus)
{
	long n;

	if (value == RCUT_COUNT_AUTO)
		return auto_count;
	if (value >= 0)
		return value;
	/* rcuscale's compute_real(): num_online_cpus() + 1 + n, min 1. */
	n = (long)ncpus + 1 + value;
	return n > 0 ? n : 1;
}
