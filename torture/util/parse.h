/* SPDX-License-Identifier: MIT */
/* Parsers for option values: durations, counts, booleans, seeds. */
#ifndef CMD_PARSE_H
#define CMD_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

/*
 * "1.5s", "200ms", "10m", "2h", "1d", "250us", "100ns" or a bare number
 * of seconds into nanoseconds (a fraction of a nanosecond is dropped).
 * Returns 0, or -1 if the text is not a duration or exceeds 365 days.
 */
int rcut_parse_duration(const char *text, uint64_t *ns);

/* A decimal integer in [min, max].  Returns 0 or -1. */
int rcut_parse_long(const char *text, long min, long max, long *value);

/*
 * A comma-separated list of 1 to maxn decimal integers in [min, max]
 * ("1,2,4") into values[0..*n).  Returns 0 or -1.
 */
int rcut_parse_long_list(const char *text, long min, long max, long *values,
			 int maxn, int *n);

/* A decimal or 0x-hex 64-bit unsigned number.  Returns 0 or -1. */
int rcut_parse_u64(const char *text, uint64_t *value);

/* 1/0, y/n, yes/no, true/false, on/off.  Returns 0 or -1. */
int rcut_parse_bool(const char *text, bool *value);

/*
 * Make an error message safe to print as one line: control characters
 * (a newline inside an argument, say) become '?'.
 */
void rcut_one_line(char *msg);

/*
 * Format ns exactly, in the largest whole unit ("3s", "1500ms", "100us",
 * "7ns"); rcut_parse_duration() reads it back as ns.
 */
void rcut_format_duration(uint64_t ns, char *buf, unsigned long len);

#endif /* CMD_PARSE_H */
