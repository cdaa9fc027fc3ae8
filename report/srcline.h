/* SPDX-License-Identifier: MIT */
/*
 * Symbol and source line of a code address in this process, from the
 * symbol tables and DWARF debug information (elfutils libdw).  Built
 * without libdw (no RCUT_HAVE_LIBDW), every lookup finds nothing.
 */
#ifndef REPORT_SRCLINE_H
#define REPORT_SRCLINE_H

#include <stdbool.h>
#include <stdint.h>

struct rcut_srcline {
	char func[96];	/* the symbol that contains pc, "" if none */
	uintptr_t off;	/* pc - its start */
	char file[192]; /* source file, "" without line information */
	int line;
};

/*
 * Look pc up: a symbol only when pc lies inside its size (never the
 * nearest preceding one), the file and line when debug information
 * covers pc.  Returns false when neither was found.  Not signal-safe.
 */
bool rcut_srcline_lookup(uintptr_t pc, struct rcut_srcline *s);

/* Whether this build reads debug information (was built with libdw). */
bool rcut_srcline_available(void);

#endif /* REPORT_SRCLINE_H */
