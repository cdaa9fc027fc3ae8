// SPDX-License-Identifier: MIT
/*
 * Address to symbol and file:line with elfutils libdw: one Dwfl session
 * over this process's mappings, built on first use and rebuilt once when
 * an address falls in no module (a library loaded since).
 */
#define _GNU_SOURCE
#include "srcline.h"

#include <stdio.h>
#include <string.h>

#ifdef RCUT_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#include <unistd.h>

static Dwfl *dwfl;

/* Report this process's modules to a fresh session; NULL on failure. */
static Dwfl *session_open(void)
{
	static char *debuginfo_path;
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_linux_proc_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.debuginfo_path = &debuginfo_path,
	};
	Dwfl *d = dwfl_begin(&cb);

	if (!d)
		return NULL;
	if (dwfl_linux_proc_report(d, getpid()) ||
	    dwfl_report_end(d, NULL, NULL)) {
		dwfl_end(d);
		return NULL;
	}
	return d;
}

/* The module holding pc, opening (or once reopening) the session. */
static Dwfl_Module *module_of(uintptr_t pc)
{
	Dwfl_Module *m = NULL;

	if (dwfl)
		m = dwfl_addrmodule(dwfl, pc);
	if (!m) {
		if (dwfl)
			dwfl_end(dwfl);
		dwfl = session_open();
		m = dwfl ? dwfl_addrmodule(dwfl, pc) : NULL;
	}
	return m;
}

/* The file name relative to its compilation directory when inside it. */
static void set_file(struct rcut_srcline *s, Dwfl_Line *l, const char *file)
{
	const char *dir = dwfl_line_comp_dir(l);
	size_t n = dir ? strlen(dir) : 0;

	if (n && !strncmp(file, dir, n) && file[n] == '/')
		file += n + 1;
	snprintf(s->file, sizeof(s->file), "%s", file);
}

bool rcut_srcline_lookup(uintptr_t pc, struct rcut_srcline *s)
{
	Dwfl_Module *m = module_of(pc);
	GElf_Sym sym;
	GElf_Off off = 0;
	const char *name, *file;
	Dwfl_Line *l;
	int line = 0;

	memset(s, 0, sizeof(*s));
	if (!m)
		return false;
	name = dwfl_module_addrinfo(m, pc, &off, &sym, NULL, NULL, NULL);
	/* A sized symbol that covers pc, not the nearest one before it. */
	if (name && sym.st_size && off < sym.st_size) {
		snprintf(s->func, sizeof(s->func), "%s", name);
		s->off = (uintptr_t)off;
	}
	l = dwfl_module_getsrc(m, pc);
	file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
	if (file && line > 0) {
		set_file(s, l, file);
		s->line = line;
	}
	return s->func[0] || s->line;
}

bool rcut_srcline_available(void)
{
	return true;
}

#else /* !RCUT_HAVE_LIBDW */

bool rcut_srcline_available(void)
{
	return false;
}

bool rcut_srcline_lookup(uintptr_t pc, struct rcut_srcline *s)
{
	(void)pc;
	memset(s, 0, sizeof(*s));
	return false;
}

#endif
