// SPDX-License-Identifier: MIT
/*
 * Backtraces with local libunwind.  Capturing uses only libunwind's
 * async-signal-safe calls and allocates nothing, so a thread can take its
 * own in a signal handler; names and file:line are looked up afterwards,
 * outside the handler.
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include "backtrace.h"
#include "srcline.h"

#include <dlfcn.h>
#include <libunwind.h>
#include <stdio.h>
#include <string.h>

/*
 * Only getcontext, init_local, step, get_reg and is_signal_frame here
 * (libunwind's signal-safe calls): names come later.
 */
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
		struct rcut_frame *f;
		unw_word_t ip = 0;

		if (unw_step(&cursor) <= 0)
			break;
		if (frame++ < skip)
			continue;
		f = &bt->f[bt->n++];
		unw_get_reg(&cursor, UNW_REG_IP, &ip);
		f->ip = (uintptr_t)ip;
		f->exact = after_signal;
		f->resolved = false;
	}
	return bt->n;
}

/* A return address: the call is the instruction before it. */
static uintptr_t lookup_pc(const struct rcut_frame *f)
{
	return f->exact || !f->ip ? f->ip : f->ip - 1;
}

/*
 * Name f the way libunwind names a frame (unw_get_proc_name on a cursor
 * moved to its pc) and find its function's start in the unwind
 * information.  Not for signal handlers: libunwind may read the ELF file.
 */
static void resolve(struct rcut_frame *f)
{
	uintptr_t pc = lookup_pc(f);
	unw_context_t uc;
	unw_cursor_t c;
	unw_word_t off = 0;
	unw_proc_info_t pi;

	f->name[0] = '\0';
	f->off = f->start = 0;
	f->resolved = true;
	if (unw_getcontext(&uc) || unw_init_local(&c, &uc) ||
	    unw_set_reg(&c, UNW_REG_IP, (unw_word_t)pc))
		return;
	if (!unw_get_proc_name(&c, f->name, sizeof(f->name), &off))
		f->off = (uintptr_t)off + (f->ip - pc);
	else
		f->name[0] = '\0';
	if (!unw_get_proc_info(&c, &pi))
		f->start = (uintptr_t)pi.start_ip;
}

void rcut_backtrace_resolve(struct rcut_bt *bt)
{
	for (int i = 0; i < bt->n; i++)
		if (!bt->f[i].resolved)
			resolve(&bt->f[i]);
}

bool rcut_frame_is_guess(const struct rcut_frame *f)
{
	return f->name[0] && (!f->start || f->ip - f->off != f->start);
}

void rcut_backtrace_of_pc(struct rcut_bt *bt, uintptr_t pc)
{
	struct rcut_frame *f = &bt->f[0];

	memset(f, 0, sizeof(*f));
	bt->n = 1;
	f->ip = pc;
	f->exact = true;
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
	uintptr_t pc = lookup_pc(f);
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

void rcut_backtrace_print(FILE *out, struct rcut_bt *bt)
{
	rcut_backtrace_resolve(bt);
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
	rcut_backtrace_resolve(&bt);
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
