// SPDX-License-Identifier: MIT
/*
 * The libraries an instrumented plugin links (liburcu, DPDK, ...) are not
 * instrumented: their membarrier(2), their locks and their sleeps order
 * memory without the emulation knowing, and liburcu-memb's grace period
 * relies on its membarrier making every reader's store visible.  The
 * linker's --wrap reaches the plugin's own calls only, so the libraries'
 * calls are sent to the same wrappers (wrap.c) by rewriting their GOT
 * entries once, when buffering starts.  libc and the other system
 * libraries keep theirs.  A binary with liburcu's static libraries linked
 * in (the Makefile's LIBURCU_DIR) sends the library's calls through a
 * table of its own instead (rcut_lib_hooks, flavors/urcu/static_liburcu.c),
 * since its GOT is also the harness's: the wrappers go there.
 */
#define _GNU_SOURCE
#include "sb.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define VIS __attribute__((visibility("hidden")))

/* The wrappers of wrap.c, by the name a library imports. */
#define W(name) VIS extern char __wrap_##name[];
#define WRAPS(X)                                                               \
	X(syscall)                                                             \
	X(membarrier)                                                          \
	X(pthread_mutex_lock)                                                  \
	X(pthread_mutex_trylock) X(pthread_mutex_unlock) X(pthread_spin_lock)  \
		X(pthread_spin_trylock) X(pthread_spin_unlock) X(              \
			pthread_rwlock_rdlock) X(pthread_rwlock_wrlock)        \
			X(pthread_rwlock_unlock) X(pthread_cond_wait) X(       \
				pthread_cond_timedwait) X(pthread_cond_signal) \
				X(pthread_cond_broadcast) X(sem_post)          \
					X(sem_wait) X(sched_yield)             \
						X(nanosleep) X(usleep) X(poll)
WRAPS(W)
#undef W

struct wrap {
	const char *name;
	void *fn;
};

#define ROW(name) { #name, __wrap_##name },
static const struct wrap wraps[] = { WRAPS(ROW) };
#undef ROW

/* System libraries: their calls are libc's business, not a flavor's. */
static const char *const system_libs[] = { "libc.so",	  "libpthread.so",
					   "ld-linux",	  "libm.so",
					   "libdl.so",	  "librt.so",
					   "libgcc_s.so", "libstdc++.so" };

#define MAX_NEEDED 32

struct needed {
	const char *name[MAX_NEEDED];
	int n;
};

/* What an object's dynamic section says; pointers already relocated. */
struct dyn {
	const char *strtab;
	const ElfW(Sym) * symtab;
	const ElfW(Rela) * jmprel, *rela;
	size_t jmprelsz, relasz;
};

static uintptr_t reloc(uintptr_t base, uintptr_t p)
{
	/* glibc relocates these entries in place; others may not. */
	return p < base ? base + p : p;
}

static const ElfW(Dyn) * dynamic_of(const struct dl_phdr_info *info)
{
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			return (const ElfW(Dyn) *)(info->dlpi_addr +
						   info->dlpi_phdr[i].p_vaddr);
	return NULL;
}

static void read_dyn(const struct dl_phdr_info *info, const ElfW(Dyn) * d,
		     struct dyn *out)
{
	uintptr_t b = info->dlpi_addr;

	memset(out, 0, sizeof(*out));
	for (; d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_STRTAB:
			out->strtab = (const char *)reloc(b, d->d_un.d_ptr);
			break;
		case DT_SYMTAB:
			out->symtab =
				(const ElfW(Sym) *)reloc(b, d->d_un.d_ptr);
			break;
		case DT_JMPREL:
			out->jmprel =
				(const ElfW(Rela) *)reloc(b, d->d_un.d_ptr);
			break;
		case DT_PLTRELSZ:
			out->jmprelsz = d->d_un.d_val;
			break;
		case DT_RELA:
			out->rela = (const ElfW(Rela) *)reloc(b, d->d_un.d_ptr);
			break;
		case DT_RELASZ:
			out->relasz = d->d_un.d_val;
			break;
		}
	}
}

/* Whether the object holds the address (one of its PT_LOAD segments). */
static bool holds(const struct dl_phdr_info *info, uintptr_t addr)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + p->p_vaddr;

		if (p->p_type == PT_LOAD && addr >= lo &&
		    addr < lo + p->p_memsz)
			return true;
	}
	return false;
}

/* The plugin's own DT_NEEDED names (this file is linked into it). */
static int find_needed(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct needed *nd = arg;
	const ElfW(Dyn) *d = dynamic_of(info), *e;
	struct dyn dy;

	(void)size;
	if (!d || !holds(info, (uintptr_t)find_needed))
		return 0;
	read_dyn(info, d, &dy);
	for (e = d; e->d_tag != DT_NULL && nd->n < MAX_NEEDED; e++)
		if (e->d_tag == DT_NEEDED && dy.strtab)
			nd->name[nd->n++] = dy.strtab + e->d_un.d_val;
	return 1;
}

static bool is_system(const char *base)
{
	for (size_t i = 0; i < sizeof(system_libs) / sizeof(system_libs[0]);
	     i++)
		if (!strncmp(base, system_libs[i], strlen(system_libs[i])))
			return true;
	return false;
}

static void patch_slot(uintptr_t slot, void *fn)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t start = slot & ~((uintptr_t)page - 1);

	/* A BIND_NOW library's GOT is read-only after relocation. */
	if (mprotect((void *)start, (size_t)page, PROT_READ | PROT_WRITE))
		return;
	__atomic_store_n((void **)slot, fn, __ATOMIC_RELEASE);
}

static void patch_relocs(const struct dl_phdr_info *info, const struct dyn *dy,
			 const ElfW(Rela) * r, size_t bytes)
{
	for (size_t i = 0; r && i < bytes / sizeof(*r); i++) {
		unsigned long type = ELF64_R_TYPE(r[i].r_info);
		const char *name;

		if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT)
			continue;
		name = dy->strtab +
		       dy->symtab[ELF64_R_SYM(r[i].r_info)].st_name;
		for (size_t w = 0; w < sizeof(wraps) / sizeof(wraps[0]); w++)
			if (!strcmp(name, wraps[w].name))
				patch_slot(info->dlpi_addr + r[i].r_offset,
					   wraps[w].fn);
	}
}

/* Rewrite the GOT of every library the plugin needs, system ones aside. */
static int patch_needed(struct dl_phdr_info *info, size_t size, void *arg)
{
	const struct needed *nd = arg;
	const ElfW(Dyn) *d = dynamic_of(info);
	const char *slash = strrchr(info->dlpi_name, '/');
	const char *base = slash ? slash + 1 : info->dlpi_name;
	struct dyn dy;
	bool wanted = false;

	(void)size;
	for (int i = 0; i < nd->n && !wanted; i++)
		wanted = !strcmp(base, nd->name[i]);
	if (!d || !wanted || is_system(base))
		return 0;
	read_dyn(info, d, &dy);
	if (!dy.strtab || !dy.symtab)
		return 0;
	patch_relocs(info, &dy, dy.jmprel, dy.jmprelsz);
	patch_relocs(info, &dy, dy.rela, dy.relasz);
	return 0;
}

/* The binary's table of a statically linked library's calls. */
struct lib_hook {
	const char *name;
	void *fn;
};

static void hook_static_library(void)
{
	struct lib_hook *h = dlsym(RTLD_DEFAULT, "rcut_lib_hooks");

	for (; h && h->name; h++)
		for (size_t w = 0; w < sizeof(wraps) / sizeof(wraps[0]); w++)
			if (!strcmp(h->name, wraps[w].name))
				__atomic_store_n(&h->fn, wraps[w].fn,
						 __ATOMIC_RELEASE);
}

void sb_hook_libraries(void)
{
#if defined(__x86_64__)
	static bool done;
	struct needed nd = { .n = 0 };

	if (__atomic_exchange_n(&done, true, __ATOMIC_ACQ_REL))
		return;
	dl_iterate_phdr(find_needed, &nd);
	if (nd.n)
		dl_iterate_phdr(patch_needed, &nd);
	hook_static_library();
#endif
}
