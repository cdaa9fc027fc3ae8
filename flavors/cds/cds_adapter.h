// SPDX-License-Identifier: MIT
/*
 * The body of a libcds 2.3.3 URCU flavor plugin, shared by instant.cc,
 * buffered.cc and signal.cc: each defines CDS_RCU(B) (its
 * cds::urcu::gc<...> type with Backoff B) and CDS_RCU_NEW(T) (an
 * expression that constructs a T), includes this file, and defines the
 * table with CDS_ADAPTER_OPS.
 * It shows a C++ RCU tortured through the C plugin ABI.
 *
 * libcds's contract: cds::Initialize() first, then the RCU singleton
 * (the gc object), then every thread that touches it attaches with
 * cds::threading::Manager::attachThread() and detaches at its end;
 * cds::Terminate() last.  The adapter attaches each harness thread in
 * register_thread and any other caller (the main thread's final
 * barrier) on first use.
 *
 * Mapping: read_lock/read_unlock are gc::access_lock/access_unlock
 * (libcds nests them per thread); synchronize is gc::synchronize; call()
 * is gc::retire_ptr with a function that runs the harness's callback:
 * general_instant waits for a grace period inside retire_ptr and runs
 * it at once, the buffered flavors queue it and free the buffer when it
 * is full or at the next synchronize.  libcds has no barrier: the adapter
 * counts callbacks in two generations and waits until the older one has
 * run, calling gc::synchronize to flush the buffer meanwhile.  So that a
 * buffered callback cannot wait forever for a full buffer, a flush
 * thread calls gc::synchronize every cds-*.flush_ms while callbacks are
 * pending (libcds's general_threaded flavor does the same job with its
 * own thread).  No expedited or polled grace periods; the GP sequence is
 * the adapter's (gp_advance()).
 *
 * Built again with the store-buffer SDK (RCUT_SB_PLUGIN: cds-instant-sb
 * ...): libcds's URCU is templates over std::atomic, so its read side and
 * grace periods compile into the plugin and run instrumented (buffered
 * stores, automatic race points); only thread attach and detach call
 * into libcds.so, after a drain (rcut_sb_lib_entry()).
 */
#ifndef FLAVORS_CDS_ADAPTER_H
#define FLAVORS_CDS_ADAPTER_H

#include <cds/init.h>

#include "../lib_entry.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <pthread.h>
#include <thread>

extern "C" {
#include <rcutorture/flavor.h>
}

namespace {

/*
 * libcds's Backoff template parameter, chosen at init: its default
 * (exponential: spin, then yield) or a 20 us sleep.  The two are
 * different types of one singleton, so every call that reaches the
 * singleton's type (synchronize, retire_ptr) goes through these
 * pointers; the read side is per thread and the same for both.
 */
const char *const backoff_names[] = { "default", "sleep", nullptr };
long backoff = 1;
using sleep_backoff =
	cds::backoff::make_delay_of<20, std::chrono::microseconds>::type;
using read_rcu = CDS_RCU(cds::backoff::Default);

struct rcu_ops {
	void (*make)();
	void (*destroy)();
	void (*synchronize)();
	void (*retire)(void *p, void (*fn)(void *));
};

// The singleton of type R: made, destroyed and called through rcu_ops.
template <class R> struct rcu_impl {
	static inline R *obj;
	static void make()
	{
		obj = CDS_RCU_NEW(R);
	}
	static void destroy()
	{
		delete obj; // detaches every thread still attached
		obj = nullptr;
	}
	static void synchronize()
	{
		R::synchronize();
	}
	static void retire(void *p, void (*fn)(void *))
	{
		R::retire_ptr(p, fn);
	}
	static constexpr rcu_ops ops = { make, destroy, synchronize, retire };
};

const rcu_ops *const rcu_by_backoff[] = {
	&rcu_impl<CDS_RCU(cds::backoff::Default)>::ops,
	&rcu_impl<CDS_RCU(sleep_backoff)>::ops,
};
const rcu_ops *rcu;
long flush_ms = 10;
thread_local bool attached;
std::mutex barrier_mutex; // one barrier at a time
pthread_rwlock_t gen_lock = PTHREAD_RWLOCK_INITIALIZER;
std::atomic<unsigned long> gen; // the generation new callbacks join
std::atomic<long> pending[2];	// callbacks not yet run, per generation
std::atomic<unsigned long> posted, invoked, flushes, barriers;
/*
 * A grace-period sequence (libcds exports none): a synchronize or a
 * callback that sampled it at s before its grace period began moves it
 * to at least s + 1 once that grace period has ended, never further.
 */
std::atomic<unsigned long> gp_seq;

unsigned long get_gp_seq()
{
	return gp_seq.load(std::memory_order_acquire);
}

void gp_advance(unsigned long started)
{
	unsigned long cur = get_gp_seq();

	while (cur < started + 1 &&
	       !gp_seq.compare_exchange_weak(cur, started + 1))
		;
}
std::atomic<bool> stopping;
std::thread flusher;

// Attach the calling thread to libcds once (its contract for any thread).
void attach()
{
	if (!attached) {
		rcut_sb_lib_entry();
		cds::threading::Manager::attachThread();
		attached = true;
	}
}

void register_thread()
{
	attach();
}

void unregister_thread()
{
	if (attached) {
		rcut_sb_lib_entry();
		cds::threading::Manager::detachThread();
		attached = false;
	}
}

int read_lock()
{
	attach();
	read_rcu::access_lock();
	rcut_race_point(RCUT_RACE_READ_LOCK);
	return 0;
}

void read_unlock(int)
{
	rcut_race_point(RCUT_RACE_READ_UNLOCK);
	read_rcu::access_unlock();
}

void synchronize()
{
	unsigned long started = get_gp_seq();

	attach();
	rcut_race_point(RCUT_RACE_GP_START);
	rcu->synchronize();
	rcut_race_point(RCUT_RACE_GP_END);
	gp_advance(started);
}

// libcds's free function: run the harness's callback, then count it.
void invoke(void *p)
{
	auto *h = static_cast<struct rcut_head *>(p);
	auto g = reinterpret_cast<uintptr_t>(h->flavor_priv[0]);

	gp_advance(reinterpret_cast<uintptr_t>(h->flavor_priv[1]));
	rcut_race_point(RCUT_RACE_CB_INVOKE);
	h->func(h);
	invoked.fetch_add(1);
	pending[g].fetch_sub(1);
}

void call(struct rcut_head *head, void (*func)(struct rcut_head *))
{
	attach();
	head->func = func;
	pthread_rwlock_rdlock(&gen_lock);
	uintptr_t g = gen.load() & 1;
	pending[g].fetch_add(1);
	pthread_rwlock_unlock(&gen_lock);
	head->flavor_priv[0] = reinterpret_cast<void *>(g);
	head->flavor_priv[1] = reinterpret_cast<void *>(get_gp_seq());
	posted.fetch_add(1);
	rcut_race_point(RCUT_RACE_CB_QUEUE);
	rcu->retire(static_cast<void *>(head), invoke);
}

// Wait until every callback of the generation before this call has run.
void barrier()
{
	std::lock_guard<std::mutex> one(barrier_mutex);

	attach();
	pthread_rwlock_wrlock(&gen_lock);
	unsigned long g = gen.fetch_add(1) & 1;
	pthread_rwlock_unlock(&gen_lock);
	while (pending[g].load() > 0) {
		rcu->synchronize(); // frees what the buffer holds
		if (pending[g].load() > 0)
			std::this_thread::sleep_for(
				std::chrono::microseconds(100));
	}
	barriers.fetch_add(1);
}

// The flush thread: a grace period every flush_ms while callbacks wait.
void flush_loop()
{
	attach();
	while (!stopping.load()) {
		std::this_thread::sleep_for(
			std::chrono::milliseconds(flush_ms));
		if (pending[0].load() + pending[1].load() > 0) {
			rcu->synchronize();
			flushes.fetch_add(1);
		}
	}
	unregister_thread();
}

int init()
{
	cds::Initialize();
	rcu = rcu_by_backoff[backoff];
	rcu->make();
	gen = 0;
	pending[0] = pending[1] = 0;
	posted = invoked = flushes = barriers = gp_seq = 0;
	stopping = false;
	flusher = std::thread(flush_loop);
	return 0;
}

void cleanup()
{
	stopping = true;
	flusher.join();
	unregister_thread();
	rcu->destroy();
	rcu = nullptr;
	cds::Terminate();
}

void ref_loop(unsigned long n)
{
	attach();
	for (unsigned long i = 0; i < n; i++) {
		read_rcu::access_lock();
		read_rcu::access_unlock();
	}
}

} // namespace

/* The instrumented build's name and description say so. */
#ifdef RCUT_SB_PLUGIN
#define CDS_TABLE_NAME CDS_NAME "-sb"
#define CDS_TABLE_DESCRIPTION CDS_SB_DESCRIPTION "; instrumented (store-buffer SDK)"
#else
#define CDS_TABLE_NAME CDS_NAME
#define CDS_TABLE_DESCRIPTION CDS_DESCRIPTION
#endif

#define CDS_ADAPTER_OPS                                                       \
	.abi_version = RCUT_FLAVOR_ABI_VERSION, .name = CDS_TABLE_NAME,       \
	.description = CDS_TABLE_DESCRIPTION,                                 \
	.caps = RCUT_CAP_READER_MAY_BLOCK | RCUT_CAP_NESTING |                \
		RCUT_CAP_CALL_MAY_BLOCK,                                      \
	.params = CDS_PARAMS, .init = init, .cleanup = cleanup,               \
	.register_thread = register_thread,                                   \
	.unregister_thread = unregister_thread, .read_lock = read_lock,       \
	.read_unlock = read_unlock, .synchronize = synchronize, .call = call, \
	.barrier = barrier, .get_gp_seq = get_gp_seq, .stats = stats,         \
	.ref_loop = ref_loop

#endif /* FLAVORS_CDS_ADAPTER_H */
