/* SPDX-License-Identifier: MIT */
/*
 * The kernel's torture parameters that have no counterpart in userspace
 * (the parity table's "not applicable" rows, man/rcutorture.1): given on
 * the command line or in a scenario, they are ignored with a note rather
 * than rejected, so a kernel scenario's boot line runs as it is.
 */
#ifndef TORTURE_CONFIG_KERNEL_NA_H
#define TORTURE_CONFIG_KERNEL_NA_H

#include <stddef.h>

/*
 * Why the kernel parameter NAME (with its prefix, "rcutorture.fqs_duration";
 * len bytes of name) does not apply here, or NULL if it is not one of them.
 */
const char *rcut_kernel_na_reason(const char *name, size_t len);

#endif /* TORTURE_CONFIG_KERNEL_NA_H */
