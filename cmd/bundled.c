// SPDX-License-Identifier: MIT
/*
 * The flavors this build bundles as plugins (libcds's, C++; liburcu's
 * DPDK's, ck's and libcds's instrumented with the store-buffer SDK,
 * memb-sb ..., dpdk-qsbr-sb, ck-epoch-sb, cds-instant-sb ...): where they are and which names to look for.  Built
 * twice, like scenario.c: the binary in the source tree looks in the
 * build's lib/ folder, the one make install copies in PREFIX/lib/rcutorture
 * (see the Makefile).
 */
#include "bundled.h"

#include "../flavors/plugin.h"
#include "../flavors/registry.h"

#include <stddef.h>
#include <string.h>

#ifdef RCUT_BUNDLED_DIR
#define BUNDLED_DIR RCUT_BUNDLED_DIR
#else
#define BUNDLED_DIR "" /* a test build: no bundled plugins */
#endif

#ifdef RCUT_CDS_ABSENT
#define CDS_WHY RCUT_CDS_ABSENT
#elif defined(RCUT_HAVE_CDS)
#define CDS_WHY NULL
#else
#define CDS_WHY "built without libcds"
#endif

#ifdef RCUT_CK_ABSENT
#define CK_WHY RCUT_CK_ABSENT
#elif defined(RCUT_HAVE_CK)
#define CK_WHY NULL
#else
#define CK_WHY "built without Concurrency Kit"
#endif

#ifdef RCUT_DPDK_ABSENT
#define DPDK_WHY RCUT_DPDK_ABSENT
#elif defined(RCUT_HAVE_DPDK)
#define DPDK_WHY NULL
#else
#define DPDK_WHY "built without DPDK"
#endif

#define URCU_SB_WHY NULL /* built against whichever liburcu the binary is */

static const struct rcut_bundled bundled[] = {
	{ "cds-instant", CDS_WHY },
	{ "cds-buffered", CDS_WHY },
	{ "cds-signal", CDS_WHY },
	{ "memb-sb", URCU_SB_WHY },
	{ "mb-sb", URCU_SB_WHY },
	{ "qsbr-sb", URCU_SB_WHY },
	{ "bp-sb", URCU_SB_WHY },
	{ "dpdk-qsbr-sb", DPDK_WHY },
	{ "ck-epoch-sb", CK_WHY },
	{ "cds-instant-sb", CDS_WHY },
	{ "cds-buffered-sb", CDS_WHY },
	{ "cds-signal-sb", CDS_WHY },
	{ NULL, NULL },
};

const char *rcut_bundled_dir(void)
{
	return BUNDLED_DIR;
}

const struct rcut_bundled *rcut_bundled_plugins(void)
{
	return bundled;
}

int rcut_bundled_load(const char *name, const struct rcut_flavor **flavor,
		      char *err, size_t errlen)
{
	const char *dir = BUNDLED_DIR;
	int ret;

	for (const struct rcut_bundled *b = bundled; b->name; b++) {
		if (strcmp(name, b->name))
			continue;
		if (b->absent) {
			snprintf(
				err, errlen,
				"--flavor: flavor '%s' is not in this build: %s",
				name, b->absent);
			return -1;
		}
		ret = rcut_plugin_load(name, &dir, 1, flavor, err, errlen);
		if (ret > 0)
			snprintf(
				err, errlen,
				"--flavor: flavor '%s' was built but its plugin is not in %s (run make, or make install)",
				name, dir);
		return ret ? -1 : 0;
	}
	return 1;
}

void rcut_bundled_list(FILE *out, bool detail, const char *one)
{
	const struct rcut_flavor *f;
	char err[512];

	for (const struct rcut_bundled *b = bundled; b->name; b++) {
		if (b->absent) {
			fprintf(out, "%s (absent: %s)\n", b->name, b->absent);
			continue;
		}
		if (rcut_bundled_load(b->name, &f, err, sizeof(err))) {
			fprintf(out, "%s (absent: %s)\n", b->name, err);
			continue;
		}
		if (!detail && !(one && !strcmp(one, b->name))) {
			rcut_flavor_list_one(out, f, NULL, false);
			continue;
		}
		rcut_flavor_list_one(out, f, NULL, true);
		fprintf(out, "   plugin: %s\n", rcut_plugin_path());
	}
}
