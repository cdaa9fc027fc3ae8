// SPDX-License-Identifier: MIT
/*
 * The plugin loader: find the file, dlopen() it (RTLD_NOW, so a plugin
 * calling something the binary does not export fails here, not mid-run),
 * look up RCUT_FLAVOR_SYMBOL and validate the table.  Every failure is one
 * line naming --flavor; plugins are never unloaded, as their threads may
 * outlive the run.
 */
#define _GNU_SOURCE
#include "plugin.h"

#include "registry.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static char loaded_path[PATH_MAX];
static struct rcut_storebuf_ops storebuf;

/* The libraries the loaded plugins name (--list-flavors loads several). */
#define LIBRARIES_MAX 32
static struct {
	const struct rcut_flavor *flavor;
	const char *library;
} libraries[LIBRARIES_MAX];
static int n_libraries;

const char *rcut_plugin_library(const struct rcut_flavor *f)
{
	for (int i = 0; i < n_libraries; i++)
		if (libraries[i].flavor == f)
			return libraries[i].library;
	return NULL;
}

bool rcut_plugin_is_file(const char *spec)
{
	size_t n = strlen(spec);

	return strchr(spec, '/') || (n > 3 && !strcmp(spec + n - 3, ".so"));
}

const char *rcut_plugin_path(void)
{
	return loaded_path[0] ? loaded_path : NULL;
}

const struct rcut_storebuf_ops *rcut_plugin_storebuf(void)
{
	return storebuf.configure && storebuf.stats ? &storebuf : NULL;
}

/* An instrumented plugin's emulation calls (sdk/storebuf/api.c). */
static void find_storebuf(void *handle)
{
	*(void **)&storebuf.configure = dlsym(handle, RCUT_STOREBUF_CONFIGURE);
	*(void **)&storebuf.stats = dlsym(handle, RCUT_STOREBUF_STATS);
	*(void **)&storebuf.model = dlsym(handle, RCUT_STOREBUF_MODEL);
	*(void **)&storebuf.sched_configure =
		dlsym(handle, RCUT_SCHED_CONFIGURE);
	*(void **)&storebuf.sched_stats = dlsym(handle, RCUT_SCHED_STATS);
	if (!storebuf.sched_stats)
		storebuf.sched_configure = NULL;
	*(void **)&storebuf.late_loads =
		dlsym(handle, RCUT_STOREBUF_LATE_LOADS);
	*(void **)&storebuf.order_count =
		dlsym(handle, RCUT_STOREBUF_ORDER_COUNT);
	if (!storebuf.order_count)
		storebuf.late_loads = NULL;
}

/* Look for 'file' in the plugin directories; true with its path in buf. */
static bool search_dirs(const char *file, const char *const *dirs, int ndirs,
			char *buf, size_t len)
{
	struct stat st;

	for (int i = 0; i < ndirs; i++) {
		for (const char *d = dirs[i], *colon; d;
		     d = colon ? colon + 1 : NULL) {
			int dlen;

			colon = strchr(d, ':');
			dlen = (int)(colon ? (size_t)(colon - d) : strlen(d));
			if (!dlen)
				continue;
			snprintf(buf, len, "%.*s/%s", dlen, d, file);
			if (stat(buf, &st) == 0)
				return true;
		}
	}
	return false;
}

/* dlopen path, find the ops table and check it. */
static int load_file(const char *path, const struct rcut_flavor **flavor,
		     char *err, size_t errlen)
{
	const struct rcut_flavor *f;
	char why[256];
	struct stat st;
	void *handle;

	if (stat(path, &st)) {
		snprintf(err, errlen, "--flavor: plugin '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen,
			 "--flavor: plugin '%s' is not a regular file", path);
		return -1;
	}
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		snprintf(
			err, errlen,
			"--flavor: cannot load plugin '%s': %s; expected a shared object built with -shared -fPIC",
			path, dlerror());
		return -1;
	}
	f = dlsym(handle, RCUT_FLAVOR_SYMBOL);
	if (!f) {
		snprintf(
			err, errlen,
			"--flavor: plugin '%s' does not define the symbol %s; expected a struct rcut_flavor of that name (see <rcutorture/flavor.h>)",
			path, RCUT_FLAVOR_SYMBOL);
		dlclose(handle);
		return -1;
	}
	if (rcut_flavor_validate(f, why, sizeof(why))) {
		snprintf(err, errlen, "--flavor: plugin '%s': %s", path, why);
		dlclose(handle);
		return -1;
	}
	snprintf(loaded_path, sizeof(loaded_path), "%s", path);
	find_storebuf(handle);
	if (n_libraries < LIBRARIES_MAX) {
		libraries[n_libraries].flavor = f;
		libraries[n_libraries++].library =
			dlsym(handle, RCUT_FLAVOR_LIBRARY_SYMBOL);
	}
	*flavor = f;
	return 0;
}

int rcut_plugin_load(const char *spec, const char *const *dirs, int ndirs,
		     const struct rcut_flavor **flavor, char *err,
		     size_t errlen)
{
	char path[PATH_MAX], file[NAME_MAX + 1];

	if (strchr(spec, '/'))
		return load_file(spec, flavor, err, errlen);
	if (rcut_plugin_is_file(spec)) {
		if (!search_dirs(spec, dirs, ndirs, path, sizeof(path)))
			snprintf(path, sizeof(path), "./%s", spec);
		return load_file(path, flavor, err, errlen);
	}
	snprintf(file, sizeof(file), "%s.so", spec);
	if (search_dirs(file, dirs, ndirs, path, sizeof(path)))
		return load_file(path, flavor, err, errlen);
	snprintf(file, sizeof(file), "librcutorture-%s.so", spec);
	if (search_dirs(file, dirs, ndirs, path, sizeof(path)))
		return load_file(path, flavor, err, errlen);
	return 1;
}
