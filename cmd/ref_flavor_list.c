// SPDX-License-Identifier: MIT
/*
 * The ref test's --flavor list: flavors and baselines side by side, one
 * column each in its table.
 */
#include "options.h"

#include "bundled.h"

#include "../torture/util/parse.h"
#include "../flavors/registry.h"
#include "../torture/tests/ref.h"

#include <string.h>

/* Append f unless listed already; -1 if the list is full. */
static int add(const struct rcut_flavor **flavors, int *n,
	       const struct rcut_flavor *f)
{
	for (int i = 0; i < *n; i++)
		if (flavors[i] == f)
			return 0;
	if (*n >= RCUT_MAX_SWEEP)
		return -1;
	flavors[(*n)++] = f;
	return 0;
}

/* One list entry: a flavor (checked) or a baseline. */
static int find(const char *name, const struct rcut_flavor **f, char *err,
		size_t errlen)
{
	*f = rcut_flavor_find(name);
	if (!*f)
		*f = ref_baseline_find(name);
	if (!*f && rcut_flavor_absent_why(name)) {
		snprintf(err, errlen,
			 "--flavor: flavor '%s' is not in this build: %s", name,
			 rcut_flavor_absent_why(name));
		return 2;
	}
	if (!*f) {
		int ret = rcut_bundled_load(name, f, err, errlen);

		if (ret < 0)
			return 2;
		if (!ret)
			return rcut_flavor_validate(*f, err, errlen) ? 2 : 0;
	}
	if (!*f) {
		snprintf(
			err, errlen,
			"--flavor: unknown flavor '%s'; expected a comma-separated list of %s or the baselines %s",
			name, rcut_flavor_names(), ref_baseline_names());
		return 2;
	}
	return rcut_flavor_validate(*f, err, errlen) ? 2 : 0;
}

/* Apply a NAME.KEY=VALUE parameter to the listed flavor NAME. */
static int apply_param(const char *param, const struct rcut_flavor **flavors,
		       int n, char *err, size_t errlen)
{
	const char *dot = strchr(param, '.');
	size_t len = dot ? (size_t)(dot - param) : 0;

	for (int i = 0; i < n; i++)
		if (strlen(flavors[i]->name) == len &&
		    !strncmp(param, flavors[i]->name, len))
			return rcut_flavor_set_param(flavors[i], param, err,
						     errlen) ?
				       2 :
				       0;
	snprintf(
		err, errlen,
		"'%s': parameter for flavor '%.*s', which --flavor does not list",
		param, (int)len, param);
	return 2;
}

static int resolve_list(const struct rcut_config *cfg,
			const struct rcut_flavor **flavors, int *n, char *err,
			size_t errlen)
{
	const char *p = cfg->flavor_name;
	const struct rcut_flavor *f;
	char name[128];

	*n = 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (!len || len >= sizeof(name)) {
			snprintf(
				err, errlen,
				"--flavor: '%s' has an empty or overlong entry; expected a comma-separated list of flavors and baselines",
				cfg->flavor_name);
			return 2;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		if (find(name, &f, err, errlen))
			return 2;
		if (add(flavors, n, f))
			goto full;
		if (!comma)
			break;
		p = comma + 1;
	}
	for (int i = 0; cfg->ref.baselines && ref_baselines[i]; i++)
		if (add(flavors, n, ref_baselines[i]))
			goto full;
	for (int i = 0; i < cfg->nparams; i++)
		if (apply_param(cfg->params[i], flavors, *n, err, errlen))
			return 2;
	return 0;
full:
	snprintf(err, errlen, "--flavor: more than %d flavors and baselines",
		 RCUT_MAX_SWEEP);
	return 2;
}

int rcut_options_resolve_ref(const struct rcut_config *cfg,
			     const struct rcut_flavor **flavors, int *n,
			     char *err, size_t errlen)
{
	int ret = resolve_list(cfg, flavors, n, err, errlen);

	if (ret)
		rcut_one_line(err);
	return ret;
}
