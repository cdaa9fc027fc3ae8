// SPDX-License-Identifier: MIT
/*
 * Built only against another liburcu (the Makefile's LIBURCU_DIR): the
 * static libraries of Debian 13 and later were compiled with glibc 2.38's
 * headers, which send strtol() and strtoul() to their C23 versions (which
 * also read a "0b" prefix).  liburcu parses CPU counts and lists with them
 * (decimal), so the older glibc's functions do the same job.
 */
#include <stdlib.h>

long __isoc23_strtol(const char *s, char **end, int base);
unsigned long __isoc23_strtoul(const char *s, char **end, int base);

long __isoc23_strtol(const char *s, char **end, int base)
{
	return strtol(s, end, base);
}

unsigned long __isoc23_strtoul(const char *s, char **end, int base)
{
	return strtoul(s, end, base);
}
