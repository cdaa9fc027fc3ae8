/* SPDX-License-Identifier: MIT */
/*
 * Store-buffer emulation (sdk/storebuf/): the two calls an instrumented
 * plugin exports for the harness.  A plugin compiled with
 * -fsanitize=thread and linked with librcutorture-storebuf.a (pkg-config
 * rcutorture-storebuf) routes every C11/__atomic access through the
 * emulation, which delays its stores in a per-thread FIFO as an x86 store
 * buffer does, only much longer.  The harness finds these two symbols with
 * dlsym() when it loads the plugin; a plugin without them is not
 * instrumented.
 */
#ifndef RCUTORTURE_STOREBUF_H
#define RCUTORTURE_STOREBUF_H

#include <stdint.h>

#define RCUT_STOREBUF_CONFIGURE "rcut_storebuf_configure"
#define RCUT_STOREBUF_STATS "rcut_storebuf_stats"
#define RCUT_STOREBUF_MODEL "rcut_storebuf_model"

/* Which reorderings the emulation shows (rcut_storebuf_model_fn). */
enum rcut_storebuf_model {
	RCUT_STOREBUF_TSO, /* x86: seq_cst stores and RMWs drain the buffer */
	RCUT_STOREBUF_ARM, /* Armv8: seq_cst stores are buffered too; a
			      seq_cst load, fence or RMW drains */
};

/* What the emulation did so far, summed over every thread. */
struct rcut_storebuf_stats {
	uint64_t buffered;	    /* atomic stores put in a store buffer */
	uint64_t forwarded;	    /* loads served from the own buffer */
	uint64_t drains;	    /* own-buffer drains: fence, sc op, RMW */
	uint64_t membarrier_drains; /* every buffer drained (membarrier) */
	uint64_t aged;	     /* entries committed when their delay ran out */
	uint64_t max_age_ns; /* longest an entry stayed buffered */
};

/*
 * Start (max_delay_ns > 0) or stop (0) buffering.  Each buffered store
 * becomes visible after a random delay of at most max_delay_ns (later if
 * its thread is descheduled), or earlier at a drain.  seed seeds the
 * delays.  Call it while no plugin thread runs (before the flavor's init).
 */
typedef void (*rcut_storebuf_configure_fn)(uint64_t seed,
					   uint64_t max_delay_ns);

/* Copy the figures into *out. */
typedef void (*rcut_storebuf_stats_fn)(struct rcut_storebuf_stats *out);

/* Pick the model before configure (optional: absent means TSO only). */
typedef void (*rcut_storebuf_model_fn)(enum rcut_storebuf_model model);

#endif /* RCUTORTURE_STOREBUF_H */
