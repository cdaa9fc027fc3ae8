// SPDX-License-Identifier: MIT
/* Local unwinding with libunwind: function names and offsets, no malloc. */
#define UNW_LOCAL_ONLY
#include "backtrace.h"

#include <libunwind.h>
#include <stdio.h>

#define MAX_FRAMES 48

int rcut_backtrace(char *buf, size_t len, int skip)
{
	unw_context_t uc;
	unw_cursor_t cursor;
	size_t used = 0;
	int frame = 0, written = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	if (unw_getcontext(&uc) || unw_init_local(&cursor, &uc))
		return 0;
	while (unw_step(&cursor) > 0 && frame < MAX_FRAMES + skip) {
		char name[128];
		unw_word_t ip = 0, off = 0;
		int n;

		if (frame++ < skip)
			continue;
		unw_get_reg(&cursor, UNW_REG_IP, &ip);
		if (unw_get_proc_name(&cursor, name, sizeof(name), &off))
			snprintf(name, sizeof(name), "??");
		n = snprintf(buf + used, len - used,
			     "    #%d %s+0x%lx [0x%lx]\n", written, name,
			     (unsigned long)off, (unsigned long)ip);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
		written++;
	}
	return written;
}
