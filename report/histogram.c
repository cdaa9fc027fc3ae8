// SPDX-License-Identifier: MIT
/* Histogram helpers shared by the stats block, the verdict and JSON. */
#include "histogram.h"

#include <stdio.h>

int rcut_hist_highest(const uint64_t *hist, unsigned int nslots)
{
	for (int i = (int)nslots - 1; i >= 0; i--)
		if (hist[i])
			return i;
	return -1;
}

uint64_t rcut_hist_sum_from(const uint64_t *hist, unsigned int nslots,
			    unsigned int from)
{
	uint64_t sum = 0;

	for (unsigned int i = from; i < nslots; i++)
		sum += hist[i];
	return sum;
}

char *rcut_hist_format(const uint64_t *hist, unsigned int nslots, char *buf,
		       size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < nslots && used < len; i++) {
		int n = snprintf(buf + used, len - used, " %llu",
				 (unsigned long long)hist[i]);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}
