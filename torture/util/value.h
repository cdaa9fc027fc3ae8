/* SPDX-License-Identifier: MIT */
/*
 * A named, typed value: one run parameter as the option table hands it
 * to the report (the JSON "config" object), so that report/ never needs
 * the configuration itself.
 */
#ifndef TORTURE_UTIL_VALUE_H
#define TORTURE_UTIL_VALUE_H

#include <stdint.h>

#define RCUT_VALUE_KEY_LEN 48

/* The HZ the tool reports ("onoff: ... (HZ=1000)"): kernel jiffies. */
#define RCUT_HZ 1000 /* a parameter key, JSON suffix included */

enum rcut_value_kind {
	RCUT_VAL_INT,
	RCUT_VAL_BOOL,
	RCUT_VAL_SECS, /* ns, shown as seconds in JSON */
	RCUT_VAL_TEXT,
};

/* Its text is as the Start line has it. */
struct rcut_value {
	char key[RCUT_VALUE_KEY_LEN];
	enum rcut_value_kind kind;
	long long i; /* INT, BOOL */
	uint64_t ns; /* SECS */
	char text[32];
};

#endif /* TORTURE_UTIL_VALUE_H */
