// SPDX-License-Identifier: MIT
/*
 * Backtraces with local libunwind.  Capturing allocates nothing, so a
 * thread can take its own in a signal handler; names and file:line are
 * looked up when printing, outside the handler.
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include "backtrace.h"
#include "srcline.h"

#include <dlfcn.h>
#include <libunwind.h>
#include <stdio.h>
#include <string.h>

/* Record the cursor's frame: ip, libunwind's name, the function start. */
static void record(unw_cursor_t *c, struct rcut_frame *f, bool exact)
{
	unw_word_t ip = 0, off = 0;
	unw_proc_info_t pi;

	unw_get_reg(c, UNW_REG_IP, &ip);
	f->ip = (uintptr_t)ip;
	f->exact = exact;
	if (unw_get_proc_name(c, f->name, sizeof(f->name), &off))
		f->name[0] = '\0';
	f->off = (uintptr_t)off;
	f->start = unw_get_proc_info(c, &pi) ? 0 : (uintptr_t)pi.start_ip;
}

__attribute__((noinline)) int rcut_backtrace_capture(struct rcut_bt *bt,
						     int skip)
{
	unw_context_t uc;
	unw_cursor_t cursor;
	int frame = 0;

	bt->n = 0;
	if (unw_getcontext(&uc) || unw_init_local(&cursor, &uc))
		return 0;
	while (bt->n < RCUT_BT_FRAMES) {
		/* The frame after a signal frame was interrupted at its pc. */
		bool after_signal = unw_is_signal_frame(&cursor) > 0;

		if (unw_step(&cursor) <= 0)
			break;
		if (frame++ < skip)
			continue;
		record(&cursor, &bt->f[bt->n++], after_signal);
	}
	return bt->n;
}

bool rcut_frame_is_guess(const struct rcut_frame *f)
{
	return f->name[0] && (!f->start || f->ip - f->off != f->start);
}

void rcut_backtrace_of_pc(struct rcut_bt *bt, uintptr_t pc)
{
	struct rcut_frame *f = &bt->f[0];
	Dl_info info;

	memset(f, 0, sizeof(*f));
	bt->n = 1;
	f->ip = pc;
	f->exact = true;
	/* The nearest dynamic symbol: a guess (no start to check it by). */
	if (dladdr((void *)pc, &info) && info.dli_sname && info.dli_saddr) {
		snprintf(f->name, sizeof(f->name), "%s", info.dli_sname);
		f->off = pc - (uintptr_t)info.dli_saddr;
	}
}

/* The file name of the object holding pc, for a frame without a name. */
static const char *object_of(uintptr_t pc)
{
	Dl_info info;
	const char *slash;

	if (!dladdr((void *)pc, &info) || !info.dli_fname)
		return NULL;
	slash = strrchr(info.dli_fname, '/');
	return slash ? slash + 1 : info.dli_fname;
}

/* One frame's line: the best name known, then where it is. */
static void print_frame(FILE *out, int i, const struct rcut_frame *f)
{
	/* A return address: the call is the instruction before it. */
	uintptr_t pc = f->exact || !f->ip ? f->ip : f->ip - 1;
	struct rcut_srcline s;
	bool guess = rcut_frame_is_guess(f);
	const char *obj;

	rcut_srcline_lookup(pc, &s);
	if (s.func[0])
		fprintf(out, "    #%d %s+0x%lx", i, s.func,
			(unsigned long)(s.off + (f->ip - pc)));
	else if (f->name[0])
		fprintf(out, "    #%d %s+0x%lx%s", i, f->name,
			(unsigned long)f->off, guess ? "?" : "");
	else
		fprintf(out, "    #%d ??", i);
	fprintf(out, " [0x%lx]", (unsigned long)f->ip);
	if (s.line)
		fprintf(out, " %s:%d", s.file, s.line);
	else if ((!s.func[0] && (guess || !f->name[0])) &&
		 (obj = object_of(pc)))
		fprintf(out, " in %s", obj);
	fputc('\n', out);
}

void rcut_backtrace_print(FILE *out, const struct rcut_bt *bt)
{
	for (int i = 0; i < bt->n; i++)
		print_frame(out, i, &bt->f[i]);
}

int rcut_backtrace(char *buf, size_t len, int skip)
{
	struct rcut_bt bt;
	size_t used = 0;
	int written = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	rcut_backtrace_capture(&bt, skip + 1); /* not this function */
	for (int i = 0; i < bt.n; i++) {
		const struct rcut_frame *f = &bt.f[i];
		int n = snprintf(
			buf + used, len - used, "    #%d %s+0x%lx%s [0x%lx]\n",
			i, f->name[0] ? f->name : "??", (unsigned long)f->off,
			rcut_frame_is_guess(f) ? "?" : "",
			(unsigned long)f->ip);

		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
		written++;
	}
	return written;
}
