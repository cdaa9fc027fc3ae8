/* SPDX-License-Identifier: MIT */
/*
 * Before an adapter calls into its library's own code (not the inlined
 * functions of the library's headers): in an instrumented build
 * (RCUT_SB_PLUGIN, the Makefile's -sb plugins) the library is not
 * instrumented, so its loads cannot see the calling thread's stores
 * still in the emulated store buffer, as a CPU's own loads always do.
 * The caller's buffer drains first.  Nothing in the other builds.
 */
#ifndef FLAVORS_LIB_ENTRY_H
#define FLAVORS_LIB_ENTRY_H

static inline void rcut_sb_lib_entry(void)
{
#ifdef RCUT_SB_PLUGIN
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

#endif /* FLAVORS_LIB_ENTRY_H */
