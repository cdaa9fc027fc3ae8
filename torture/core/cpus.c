// SPDX-License-Identifier: MIT
/*
 * Simulated CPUs (DESIGN §4).  --cpus N of them, each mapped to a PU the
 * process may use (compact: in topology order; scatter: spread over cores
 * and packages first), possibly several per PU.  A torture thread is "on"
 * one simulated CPU while it runs harness or read-side code, and bound to
 * that CPU's PU with hwloc; while it sleeps or waits inside the flavor it
 * is detached, as a blocked task is in the kernel, and on waking it moves
 * if its CPU went offline meanwhile.  Several threads may share a CPU:
 * per-CPU state is shared, so everything here is atomic.
 *
 * Offlining is a handshake: the onoff thread marks the CPU going offline
 * and waits for its thread count to drop to zero; a thread attaching to a
 * CPU increments the count, then checks the CPU is still online.  With
 * sequentially consistent atomics at least one side sees the other.
 */
#define _GNU_SOURCE
#include "run.h"
#include "../util/task_stat.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CPU_ONLINE, CPU_GOING_OFFLINE, CPU_OFFLINE };

struct sim_cpu {
	_Atomic int state;
	_Atomic int nthreads;	  /* torture threads currently on it */
	_Atomic long pending_cbs; /* harness callbacks posted here, pending */
	_Atomic uint64_t last_post_ns; /* when one was last posted here */
	_Atomic uint64_t offlines;     /* times it began to go offline */
	int pu;			       /* OS index of its PU */
	hwloc_bitmap_t set;	       /* that PU, for binding */
} __attribute__((aligned(64)));

/*
 * The calling thread's CPU (thread-local, like the kernel's per-task
 * CPU): -1 if none, -cpu-2 while detached (remembered, not attached).
 */
static __thread int current_cpu = -1;
static __thread int bound_cpu = -1; /* the CPU whose PU we are bound to */
static __thread struct torture_cpus *my_cpus; /* the run's, once entered */

int rcut_current_cpu(void)
{
	return current_cpu >= 0 ? current_cpu : -1;
}

/* The flavor ABI has no context: the run's CPU count via the one pointer. */
int rcut_nr_cpus(void)
{
	return torture_signal_run ? torture_signal_run->cpus.n : 0;
}

/* The PUs we may run on, in compact (topology) or scatter order. */
static int collect_pus(struct torture_cpus *c, bool scatter, char *err,
		       size_t len)
{
	hwloc_topology_t topo = c->topo;
	hwloc_bitmap_t allowed = hwloc_bitmap_alloc();
	int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU), k = 0, *pu_order;

	if (!allowed || hwloc_get_cpubind(topo, allowed, HWLOC_CPUBIND_PROCESS))
		hwloc_bitmap_copy(allowed,
				  hwloc_topology_get_allowed_cpuset(topo));
	pu_order = calloc((size_t)(n > 0 ? n : 1), sizeof(*pu_order));
	c->pu_order = pu_order;
	if (!pu_order) {
		snprintf(err, len, "cannot allocate the PU table");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		hwloc_obj_t pu =
			hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);

		if (pu && hwloc_bitmap_isset(allowed, pu->os_index))
			pu_order[k++] = (int)pu->os_index;
	}
	hwloc_bitmap_free(allowed);
	if (!k) {
		snprintf(err, len, "hwloc found no PU this process may run on");
		return -1;
	}
	c->npus = k;
	if (scatter && k > 2) {
		/*
		 * Scatter: take every other PU, then the rest, so neighbours
		 * in the list (hyperthreads, cores of one package) split up.
		 */
		int *tmp = malloc(sizeof(*tmp) * (size_t)k), j = 0;

		if (tmp) {
			for (int i = 0; i < k; i += 2)
				tmp[j++] = pu_order[i];
			for (int i = 1; i < k; i += 2)
				tmp[j++] = pu_order[i];
			memcpy(pu_order, tmp, sizeof(*tmp) * (size_t)k);
			free(tmp);
		}
	}
	return 0;
}

int torture_cpus_available(void)
{
	hwloc_topology_t t;
	hwloc_bitmap_t set;
	int n = 1;

	if (hwloc_topology_init(&t) || hwloc_topology_load(t))
		return 1;
	set = hwloc_bitmap_alloc();
	if (set && hwloc_get_cpubind(t, set, HWLOC_CPUBIND_PROCESS) == 0)
		n = hwloc_bitmap_weight(set);
	hwloc_bitmap_free(set);
	hwloc_topology_destroy(t);
	return n > 0 ? n : 1;
}

int torture_cpus_init(struct torture_run *run, char *err, size_t len)
{
	const struct rcut_config *cfg = run->cfg;
	struct torture_cpus *c = &run->cpus;
	struct sim_cpu *cpus;

	if (hwloc_topology_init(&c->topo) || hwloc_topology_load(c->topo)) {
		snprintf(err, len, "hwloc cannot read the machine's topology");
		return -1;
	}
	if (collect_pus(c, cfg->pin == RCUT_PIN_SCATTER, err, len))
		return -1;
	c->n = cfg->ncpus > 0 ? (int)cfg->ncpus : c->npus;
	c->pinning = cfg->pin != RCUT_PIN_NONE;
	cpus = c->cpu = aligned_alloc(64, sizeof(*cpus) * (size_t)c->n);
	if (!cpus) {
		snprintf(err, len, "cannot allocate %d simulated CPUs", c->n);
		return -1;
	}
	for (int i = 0; i < c->n; i++) {
		atomic_init(&cpus[i].state, CPU_ONLINE);
		atomic_init(&cpus[i].nthreads, 0);
		atomic_init(&cpus[i].pending_cbs, 0);
		atomic_init(&cpus[i].last_post_ns, 0);
		cpus[i].pu = c->pu_order[i % c->npus];
		cpus[i].set = hwloc_bitmap_alloc();
		if (!cpus[i].set) {
			snprintf(err, len, "cannot allocate a cpuset");
			return -1;
		}
		hwloc_bitmap_only(cpus[i].set, (unsigned)cpus[i].pu);
	}
	atomic_store(&c->online, c->n);
	return 0;
}

void torture_cpus_print(struct torture_run *run, FILE *out)
{
	const char *name = run->flavor->name;
	struct torture_cpus *c = &run->cpus;

	fprintf(out,
		"%s-%s: topology: %d packages, %d cores, %d PUs; this process may use %d PUs\n",
		name, run->tag,
		hwloc_get_nbobjs_by_type(c->topo, HWLOC_OBJ_PACKAGE),
		hwloc_get_nbobjs_by_type(c->topo, HWLOC_OBJ_CORE),
		hwloc_get_nbobjs_by_type(c->topo, HWLOC_OBJ_PU), c->npus);
	fprintf(out, "%s-%s: %d simulated CPUs, pinning %s:", name, run->tag,
		c->n, rcut_pin_names[run->cfg->pin]);
	for (int i = 0; i < c->n; i++)
		fprintf(out, " %d->PU%d", i, c->cpu[i].pu);
	fputc('\n', out);
}
/* Whether threads may be on cpu now. */
static bool cpu_usable(struct torture_cpus *c, int cpu)
{
	return atomic_load(&c->cpu[cpu].state) == CPU_ONLINE &&
	       (cpu != atomic_load_explicit(&c->shuffle_idle,
					    memory_order_relaxed) ||
		atomic_load_explicit(&c->online, memory_order_relaxed) <= 1);
}

/* Bind the calling thread to cpu's PU; false (and a report) on failure. */
static void bind_to(struct torture_cpus *c, int cpu)
{
	struct sim_cpu *cpus = c->cpu;
	int err;

	if (!c->pinning || bound_cpu == cpu ||
	    (bound_cpu >= 0 && cpus[bound_cpu].pu == cpus[cpu].pu)) {
		bound_cpu = cpu;
		return;
	}
	err = hwloc_set_cpubind(c->topo, cpus[cpu].set, HWLOC_CPUBIND_THREAD);
	if (err) {
		struct torture_thread *t = torture_self();

		torture_internal_error(
			t->run,
			"cannot bind %s %d to PU %d (simulated CPU %d) with hwloc",
			t->kind, t->id, cpus[cpu].pu, cpu);
		return;
	}
	bound_cpu = cpu;
}

/* Where the calling torture thread counts, for an offline's message. */
static void note_attached(int cpu)
{
	struct torture_thread *t = torture_self();

	if (t)
		atomic_store_explicit(&t->attached_cpu1, cpu + 1,
				      memory_order_relaxed);
}

/* Try to put the calling thread on cpu; false if cpu is not usable. */
static bool try_attach(struct torture_cpus *c, int cpu)
{
	atomic_fetch_add(&c->cpu[cpu].nthreads, 1);
	if (cpu_usable(c, cpu)) {
		current_cpu = cpu;
		note_attached(cpu);
		bind_to(c, cpu);
		return true;
	}
	atomic_fetch_sub(&c->cpu[cpu].nthreads, 1);
	return false;
}

/* Attach to some usable CPU, starting the search at a random one. */
static void attach_anywhere(struct torture_cpus *c, struct torture_rand *r)
{
	for (;;) {
		int start = (int)(torture_random(r) % (uint64_t)c->n);

		for (int i = 0; i < c->n; i++)
			if (try_attach(c, (start + i) % c->n))
				return;
		/* Every CPU is in transition: give the onoff thread a moment. */
		torture_nap_ns(100000);
	}
}

void torture_cpu_enter(struct torture_thread *t, int cpu)
{
	struct torture_run *run = t->run;
	struct torture_cpus *c = &run->cpus;

	my_cpus = c;
	t->cpu = cpu % c->n;
	if (!try_attach(c, t->cpu))
		attach_anywhere(c, &t->rand);
	t->cpu = current_cpu;
	if (run->cfg->verbose > 1)
		printf("%s-%s: %s %d on simulated CPU %d (PU %d)\n",
		       run->flavor->name, run->tag, t->kind, t->id, t->cpu,
		       c->cpu[t->cpu].pu);
}

void torture_cpu_exit(void)
{
	torture_cpu_detach();
}

bool torture_cpu_detach(void)
{
	if (current_cpu < 0)
		return false;
	atomic_fetch_sub(&my_cpus->cpu[current_cpu].nthreads, 1);
	note_attached(-1);
	current_cpu = -current_cpu - 2; /* remembered, not attached */
	return true;
}

void torture_cpu_attach(void)
{
	struct torture_thread *t = torture_self();
	int cpu = current_cpu;

	if (cpu >= -1 || !t)
		return;
	cpu = -cpu - 2;
	if (!try_attach(my_cpus, cpu))
		attach_anywhere(my_cpus, &t->rand);
	t->cpu = current_cpu;
}

void torture_cpu_checkpoint_slow(void)
{
	struct torture_thread *t = torture_self();

	torture_cpu_detach();
	attach_anywhere(my_cpus, &t->rand);
	t->cpu = current_cpu;
	counter_inc(&t->run->counters.migrations);
}

/*
 * Put the calling thread (the onoff thread, detached) on cpu although it
 * is offline, as code late in a CPU-offline sequence runs on the outgoing
 * CPU: the flavor sees rcut_current_cpu() == cpu.  torture_cpu_detach()
 * takes it off again; only the onoff thread, which alone changes CPU
 * states, may do this.
 */
void torture_cpu_attach_offline(struct torture_cpus *c, int cpu)
{
	my_cpus = c;
	atomic_fetch_add(&c->cpu[cpu].nthreads, 1);
	current_cpu = cpu;
	note_attached(cpu);
}

bool torture_cpu_must_move(void)
{
	return current_cpu >= 0 && !cpu_usable(my_cpus, current_cpu);
}

bool torture_cpu_is_online(struct torture_cpus *c, int cpu)
{
	return atomic_load(&c->cpu[cpu].state) == CPU_ONLINE;
}

uint64_t torture_cpu_offlines(struct torture_cpus *c, int cpu)
{
	return atomic_load(&c->cpu[cpu].offlines);
}

int torture_cpus_online(struct torture_cpus *c)
{
	return atomic_load(&c->online);
}

/* Undo a started offline: the CPU is online again. */
static int offline_abort(struct torture_cpus *c, int cpu, int err)
{
	atomic_fetch_add(&c->online, 1);
	atomic_store(&c->cpu[cpu].state, CPU_ONLINE);
	return err;
}

/* A thread's scheduler state ('R' runnable or running, 'S', ...), or '?'. */
static char task_state(pid_t tid)
{
	struct task_stat st;

	return task_stat_read(tid, &st) ? st.state : '?';
}

/*
 * The torture threads still on cpu, for the failure message ("reader 3
 * (runnable)"); true if one of them is runnable, i.e. waits for a real
 * CPU rather than for the flavor.
 */
static bool laggards(struct torture_run *run, int cpu, char *buf, size_t len)
{
	struct torture_threads *th = &run->threads;
	bool runnable = false;
	size_t used = 0;

	if (len)
		buf[0] = 0;
	for (int i = 0; i < th->n; i++) {
		struct torture_thread *t = &th->t[i];
		const char *op;
		char state;
		int w;

		if (atomic_load_explicit(&t->attached_cpu1,
					 memory_order_relaxed) != cpu + 1 ||
		    atomic_load(&t->exited))
			continue;
		state = task_state(atomic_load(&t->os_tid));
		runnable |= state == 'R';
		op = atomic_load_explicit(&t->op, memory_order_acquire);
		w = len > used ?
			    snprintf(buf + used, len - used, "%s%s %d (%s%s%s)",
				     used ? ", " : "", t->kind, t->id,
				     state == 'R' ? "runnable" : "waiting",
				     op ? ", in " : "", op ? op : "") :
			    0;
		if (w > 0)
			used += (size_t)w;
	}
	return runnable;
}

/* Wait for cpu's threads to leave; false (why filled) if they did not. */
static bool threads_left(struct torture_run *run, int cpu, uint64_t bound_ns,
			 char *why, size_t len)
{
	struct torture_cpus *c = &run->cpus;
	uint64_t start = torture_now_ns(), deadline = start + bound_ns;
	uint64_t limit = start + run->cfg->stall_timeout_ns / 2;
	char who[256];

	while (atomic_load(&c->cpu[cpu].nthreads) > 0) {
		uint64_t now = torture_now_ns();

		if (now <= deadline) {
			torture_nap_ns(50000);
			continue;
		}
		if (laggards(run, cpu, who, sizeof(who)) && now < limit) {
			deadline = now + 10000000; /* look again in 10 ms */
			continue;
		}
		if (why)
			snprintf(why, len, "%s did not leave it within %.1f s",
				 who[0] ? who : "a thread",
				 (double)(now - start) / 1e9);
		return false;
	}
	return true;
}

int torture_cpu_offline(struct torture_run *run, int cpu, uint64_t bound_ns,
			char *why, size_t len)
{
	const struct rcut_flavor *f = run->flavor;
	struct torture_cpus *c = &run->cpus;
	int expected = CPU_ONLINE;

	/*
	 * A CPU going offline no longer counts as online, so that a
	 * shuffle-idle CPU becomes usable if it is the only one left: a
	 * thread must always find a CPU, or (QSBR) the offline hook's grace
	 * period would wait for a thread that waits for a CPU.
	 */
	if (atomic_load(&c->online) <= 1 ||
	    !atomic_compare_exchange_strong(&c->cpu[cpu].state, &expected,
					    CPU_GOING_OFFLINE)) {
		if (why)
			snprintf(why, len, "it was not online, or the last");
		return -1;
	}
	atomic_fetch_add(&c->cpu[cpu].offlines, 1);
	atomic_fetch_sub(&c->online, 1);
	if (!threads_left(run, cpu, bound_ns, why, len))
		return offline_abort(c, cpu, TORTURE_OFFLINE_TIMEOUT);
	if (f->cpu_offline) {
		int err;

		torture_op_begin("the flavor's cpu_offline hook");
		err = f->cpu_offline(cpu);
		torture_op_end();
		if (err) {
			if (why)
				snprintf(
					why, len,
					"the flavor's cpu_offline hook refused");
			return offline_abort(c, cpu, -1);
		}
	}
	atomic_store(&c->cpu[cpu].state, CPU_OFFLINE);
	return 0;
}

int torture_cpu_online(struct torture_run *run, int cpu, char *why, size_t len)
{
	const struct rcut_flavor *f = run->flavor;
	struct torture_cpus *c = &run->cpus;

	if (atomic_load(&c->cpu[cpu].state) != CPU_OFFLINE) {
		if (why)
			snprintf(why, len, "it was not offline");
		return -1;
	}
	if (f->cpu_online) {
		int err;

		torture_op_begin("the flavor's cpu_online hook");
		err = f->cpu_online(cpu);
		torture_op_end();
		if (err) {
			if (why)
				snprintf(
					why, len,
					"the flavor's cpu_online hook refused");
			return -1;
		}
	}
	atomic_fetch_add(&c->online, 1);
	atomic_store(&c->cpu[cpu].state, CPU_ONLINE);
	return 0;
}

void torture_cpu_callback_posted(struct torture_cpus *c, int cpu, int delta)
{
	atomic_fetch_add_explicit(&c->cpu[cpu].pending_cbs, delta,
				  memory_order_relaxed);
	if (delta > 0)
		atomic_store_explicit(&c->cpu[cpu].last_post_ns,
				      torture_now_ns(), memory_order_relaxed);
}

/*
 * The online CPU whose pending callbacks were posted most recently: the
 * likeliest to hold callbacks the flavor has not even started on.
 */
int torture_cpu_with_pending_callbacks(struct torture_cpus *c,
				       struct torture_rand *r)
{
	int start = (int)(torture_random(r) % (uint64_t)c->n), best = -1;
	uint64_t best_ns = 0;

	for (int i = 0; i < c->n; i++) {
		int cpu = (start + i) % c->n;
		struct sim_cpu *s = &c->cpu[cpu];
		uint64_t t = atomic_load_explicit(&s->last_post_ns,
						  memory_order_relaxed);

		if (atomic_load(&s->state) == CPU_ONLINE &&
		    atomic_load_explicit(&s->pending_cbs,
					 memory_order_relaxed) > 0 &&
		    (best < 0 || t > best_ns)) {
			best = cpu;
			best_ns = t;
		}
	}
	return best;
}

void torture_cpu_set_idle(struct torture_cpus *c, int cpu)
{
	atomic_store(&c->shuffle_idle, cpu);
}
