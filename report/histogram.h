/* SPDX-License-Identifier: MIT */
/* The 11-slot histograms of the kernel's stats block. */
#ifndef REPORT_HISTOGRAM_H
#define REPORT_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

/* The slot a value falls in: values past the last slot go to the last. */
static inline unsigned int rcut_hist_slot(uint64_t value, unsigned int nslots)
{
	return value >= nslots ? nslots - 1 : (unsigned int)value;
}

/* Highest slot with a non-zero count, or -1 if all are zero. */
int rcut_hist_highest(const uint64_t *hist, unsigned int nslots);

/* Sum of all slots from 'from' up. */
uint64_t rcut_hist_sum_from(const uint64_t *hist, unsigned int nslots,
			    unsigned int from);

/* " %llu" for each slot, as the kernel prints them; returns buf. */
char *rcut_hist_format(const uint64_t *hist, unsigned int nslots, char *buf,
		       size_t len);

#endif /* REPORT_HISTOGRAM_H */
