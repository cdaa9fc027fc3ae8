/* SPDX-License-Identifier: MIT */
/* The table of built-in flavors and the NAME.KEY=VALUE parameter handling. */
#ifndef FLAVORS_REGISTRY_H
#define FLAVORS_REGISTRY_H

#include <rcutorture/flavor.h>
#include <stdbool.h>
#include <stddef.h>

/* A built-in flavor's entry: its table and the names it also answers to. */
struct rcut_flavor_entry {
	const struct rcut_flavor *flavor;
	const char *const *aliases; /* NULL-ended, may be NULL */
	const char *library; /* "liburcu 0.13.2-1 (installed)"; NULL: ours */
};

/* The built-in flavors, NULL-ended, in --list-flavors order. */
extern const struct rcut_flavor_entry rcut_builtin_flavors[];

/* A flavor of an optional library that this build left out, and why. */
struct rcut_flavor_absent {
	const char *name;
	const char *why; /* one line: what was missing, how to get it */
};

/* The absent flavors, ended by a NULL name. */
extern const struct rcut_flavor_absent rcut_absent_flavors[];

/* Why the flavor NAME is absent from this build; NULL if it is not. */
const char *rcut_flavor_absent_why(const char *name);

/*
 * The library version built-in flavor f was built against (the
 * Makefile's LIBURCU_DIR), e.g. "liburcu 0.15.2-2 (static)", or a loaded
 * plugin names (RCUT_FLAVOR_LIBRARY_SYMBOL); NULL for a flavor of our own
 * or a plugin that names none.
 */
const char *rcut_flavor_library(const struct rcut_flavor *f);

/* Find a built-in flavor by name or alias; NULL if there is none. */
const struct rcut_flavor *rcut_flavor_find(const char *name);

/* Comma-separated names of the built-in flavors, for error messages. */
const char *rcut_flavor_names(void);

/* The primitives f offers, comma-separated ("sync,exp,call,..."). */
void rcut_flavor_caps(const struct rcut_flavor *f, char *buf, size_t len);

/*
 * Print the --list-flavors table: a line per flavor, and each one's
 * primitives, aliases and parameters under it with detail (or for one).
 */
void rcut_flavor_list(FILE *out, bool detail, const struct rcut_flavor *one);

/* Print one flavor's entry of that table (aliases may be NULL). */
void rcut_flavor_list_one(FILE *out, const struct rcut_flavor *f,
			  const char *const *aliases, bool detail);

/*
 * Apply one "NAME.KEY=VALUE" argument to flavor f.  Returns 0, or -1 after
 * writing a one-line reason (without the program name) to err.
 */
int rcut_flavor_set_param(const struct rcut_flavor *f, const char *arg,
			  char *err, size_t errlen);

/*
 * The value of flavor f's parameter key (e.g. the standard "gpwrap_lag"),
 * or NULL if it has none; *p is its table row.
 */
long *rcut_flavor_param(const struct rcut_flavor *f, const char *key,
			const struct rcut_param **p);

/* Whether "NAME.KEY=VALUE" arguments in params set key (any NAME). */
bool rcut_flavor_param_given(const char *const *params, int nparams,
			     const char *key);

/* Check the table a flavor or plugin supplies; -1 with a reason in err. */
int rcut_flavor_validate(const struct rcut_flavor *f, char *err, size_t errlen);

/* Built-in flavor tables (one file each under flavors/). */
extern const struct rcut_flavor rcut_flavor_memb;
extern const struct rcut_flavor rcut_flavor_mb;
extern const struct rcut_flavor rcut_flavor_signal;
extern const struct rcut_flavor rcut_flavor_qsbr;
extern const struct rcut_flavor rcut_flavor_bp;
extern const struct rcut_flavor rcut_flavor_prcu;
extern const struct rcut_flavor rcut_flavor_srcu;
extern const struct rcut_flavor rcut_flavor_ck_epoch;
extern const struct rcut_flavor rcut_flavor_dpdk_qsbr;
extern const struct rcut_flavor rcut_flavor_busted;
extern const struct rcut_flavor rcut_flavor_busted_cb;
extern const struct rcut_flavor rcut_flavor_busted_toggle;
extern const struct rcut_flavor rcut_flavor_busted_barrier;
extern const struct rcut_flavor rcut_flavor_busted_hotplug;
extern const struct rcut_flavor rcut_flavor_busted_hang;
extern const struct rcut_flavor rcut_flavor_busted_crash;
extern const struct rcut_flavor rcut_flavor_busted_irq;
extern const struct rcut_flavor rcut_flavor_busted_nr;

#endif /* FLAVORS_REGISTRY_H */
