/* SPDX-License-Identifier: MIT */
/* The kernel-format text report: the stats block and the closing lines. */
#ifndef REPORT_TEXT_H
#define REPORT_TEXT_H

#include "snapshot.h"

#include <stdio.h>

/*
 * Print the four-line stats block with the "<flavor>-torture:" prefix;
 * "!!! " precedes Reader Pipe when the snapshot shows a failure.
 */
void rcut_report_stats(FILE *out, const char *flavor,
		       const struct rcut_snapshot *s);

/* The end-of-run rates: reads/s, updates/s, GPs/s, callbacks/s. */
void rcut_report_rates(FILE *out, const char *flavor,
		       const struct rcut_snapshot *s);

#endif /* REPORT_TEXT_H */
