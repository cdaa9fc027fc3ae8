/* SPDX-License-Identifier: MIT */
/* Flavors bundled as plugins: their directory and names (bundled.c). */
#ifndef CMD_BUNDLED_H
#define CMD_BUNDLED_H

#include <rcutorture/flavor.h>
#include <stddef.h>
#include <stdio.h>

/* A bundled plugin flavor: its name, and why it is absent (NULL: built). */
struct rcut_bundled {
	const char *name;
	const char *absent;
};

/* Where the bundled plugins are; "" in a build that has none. */
const char *rcut_bundled_dir(void);

/* The bundled plugin flavors, ended by a NULL name. */
const struct rcut_bundled *rcut_bundled_plugins(void);

/*
 * Load the bundled plugin NAME.  Returns 1 if NAME is none of them, 0
 * with *flavor set, -1 with a one-line reason naming --flavor in err (an
 * absent flavor: why; a missing file: where it was looked for).
 */
int rcut_bundled_load(const char *name, const struct rcut_flavor **flavor,
		      char *err, size_t errlen);

/*
 * The bundled plugins' entries of --list-flavors (or why each is absent),
 * with their details if detail or for the one named one.
 */
void rcut_bundled_list(FILE *out, bool detail, const char *one);

#endif /* CMD_BUNDLED_H */
