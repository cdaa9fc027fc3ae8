/* SPDX-License-Identifier: MIT */
/*
 * Out-of-tree flavors: a shared object that defines RCUT_FLAVOR_SYMBOL,
 * loaded with dlopen() by --flavor FILE.so or --flavor NAME with
 * --plugin-dir.  The binary exports rcut_current_cpu() and rcut_nr_cpus()
 * (flavors/plugin.dynlist) for plugins to call.
 */
#ifndef FLAVORS_PLUGIN_H
#define FLAVORS_PLUGIN_H

#include <rcutorture/flavor.h>
#include <rcutorture/storebuf.h>
#include <stdbool.h>
#include <stddef.h>

/* Whether --flavor SPEC names a plugin file: it has a '/' or ends in .so. */
bool rcut_plugin_is_file(const char *spec);

/*
 * Load the plugin SPEC: a FILE (rcut_plugin_is_file; one ending in .so
 * without a '/' is looked for in the plugin directories, then in the
 * current one) or a NAME found as NAME.so or librcutorture-NAME.so in the
 * plugin directories (dirs[0..ndirs), each a colon-separated list).
 * Returns 0 with *flavor set and validated; 1 if SPEC is a NAME no
 * directory holds; -1 with a one-line reason naming --flavor in err.
 */
int rcut_plugin_load(const char *spec, const char *const *dirs, int ndirs,
		     const struct rcut_flavor **flavor, char *err,
		     size_t errlen);

/* The file the running flavor was loaded from; NULL for a built-in one. */
const char *rcut_plugin_path(void);

/* The library a loaded plugin's flavor f names (RCUT_FLAVOR_LIBRARY_SYMBOL). */
const char *rcut_plugin_library(const struct rcut_flavor *f);

/* An instrumented plugin's store-buffer emulation calls (storebuf.h). */
struct rcut_storebuf_ops {
	rcut_storebuf_configure_fn configure;
	rcut_storebuf_stats_fn stats;
	rcut_storebuf_model_fn model; /* NULL: an older library, TSO only */
	/* Automatic race points; NULL: an older library without them. */
	rcut_sched_configure_fn sched_configure;
	rcut_sched_stats_fn sched_stats;
	/* Loads that pass a later store (Arm); NULL: an older library. */
	rcut_storebuf_late_loads_fn late_loads;
	rcut_storebuf_order_count_fn order_count;
};

/* The loaded plugin's, or NULL: a built-in flavor, or not instrumented. */
const struct rcut_storebuf_ops *rcut_plugin_storebuf(void);

#endif /* FLAVORS_PLUGIN_H */
