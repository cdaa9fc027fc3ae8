// SPDX-License-Identifier: MIT
/* Choosing and calling grace-period primitives for the update-side threads. */
#include "gp.h"

const char *const torture_gp_names[GP_NKINDS] = {
	[GP_SYNC] = "sync",
	[GP_EXP] = "exp",
	[GP_NORMAL] = "normal",
};

bool torture_gp_available(enum torture_gp_kind kind)
{
	const struct rcut_flavor *f = torture_flavor;

	switch (kind) {
	case GP_SYNC:
		return true;
	case GP_EXP:
		return f->synchronize_expedited != NULL;
	case GP_NORMAL:
		return f->call != NULL;
	case GP_NKINDS:
		break;
	}
	return false;
}

enum torture_gp_kind torture_gp_pick(struct torture_rand *r, bool allow_async)
{
	enum torture_gp_kind avail[GP_NKINDS];
	int n = 0;

	for (int k = 0; k < GP_NKINDS; k++) {
		if (k == GP_NORMAL && !allow_async)
			continue;
		if (torture_gp_available((enum torture_gp_kind)k))
			avail[n++] = (enum torture_gp_kind)k;
	}
	return avail[torture_random(r) % (uint64_t)n];
}

void torture_gp_wait(enum torture_gp_kind kind)
{
	if (kind == GP_EXP)
		torture_flavor->synchronize_expedited();
	else
		torture_flavor->synchronize();
	counter_inc(&torture_counters.sync_gps);
}
