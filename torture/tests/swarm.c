// SPDX-License-Identifier: MIT
/*
 * The swarm draw (swarm.h).  One random stream from the seed, drawn in a
 * fixed order, so a seed always gives the same draw for the same flavor
 * and options.
 */
#include "swarm.h"

#include "../util/delay.h"
#include "../core/gp.h"
#include "../core/lostwake.h"
#include "../config/options_table.h"
#include "../util/parse.h"
#include "../threads/threads.h"
#include "../../flavors/registry.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SWARM_STREAM 0x5357524d57ULL /* "SWRMW": apart from the threads' */
#define MS 1000000ULL

/* Plain --swarm's preemption and race-delay bases (--hunt: the preset's). */
#define SWARM_PREEMPT_DURATION_NS (2 * MS)
#define SWARM_PREEMPT_INTERVAL_NS (1 * MS)
#define SWARM_RACE_DELAY 20
#define SWARM_RACE_DELAY_MAX_NS (1 * MS)

/* The reader and writer switches a draw sets (struct torture_run's). */
struct switches {
	bool nesting, delays, delays_long, fast_gps, tight;
	uint64_t quiet_ns;
};

struct draw {
	struct torture_swarm *sw;
	struct rcut_config *cfg;
	struct torture_run *run; /* flavor, CPUs; quiet_drawn is set */
	struct switches sw_on;
	struct torture_rand rand;
};

/* A number in [0, n). */
static uint64_t pick(struct draw *d, uint64_t n)
{
	return torture_random(&d->rand) % n;
}

/* True one time in n. */
static bool one_in(struct draw *d, uint64_t n)
{
	return pick(d, n) == 0;
}

static void item(struct draw *d, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record what was drawn for key. */
static void item(struct draw *d, const char *key, const char *fmt, ...)
{
	struct swarm_item *it = &d->sw->item[d->sw->n++];
	va_list ap;

	it->key = key;
	va_start(ap, fmt);
	vsnprintf(it->value, sizeof(it->value), fmt, ap);
	va_end(ap);
}

/* Whether any of the options (NULL-ended) was given: keep the feature. */
static bool given(struct draw *d, const char *key, const char *const *names)
{
	for (; *names; names++)
		if (rcut_opt_given(d->cfg, *names)) {
			item(d, key, "given");
			return true;
		}
	return false;
}

static const char *dur(uint64_t ns, char *buf)
{
	rcut_format_duration(ns, buf, SWARM_VALUE_LEN);
	return buf;
}

/* Preemption: on (always under --hunt), a ceiling and a mean interval. */
static void draw_preempt(struct draw *d)
{
	static const char *const opts[] = { "preempt-duration",
					    "preempt-interval", NULL };
	struct rcut_config *c = d->cfg;
	uint64_t bound = delay_stall_bound_ns(c->stall_timeout_ns);
	uint64_t base =
		c->hunt ? c->preempt_duration_ns : SWARM_PREEMPT_DURATION_NS;
	uint64_t every =
		c->hunt ? c->preempt_interval_ns : SWARM_PREEMPT_INTERVAL_NS;
	char a[SWARM_VALUE_LEN], b[SWARM_VALUE_LEN];

	if (given(d, "preempt", opts))
		return;
	if (!c->hunt && one_in(d, 2)) {
		c->preempt_duration_ns = 0;
		item(d, "preempt", "off");
		return;
	}
	base >>= pick(d, 3); /* the ceiling, a half or a quarter of it */
	c->preempt_duration_ns = base < bound ? base : bound;
	if (c->preempt_duration_ns < DELAY_MIN_NS)
		c->preempt_duration_ns = DELAY_MIN_NS;
	/* 1x or 4x the base (--hunt: 1x or 2x) */
	c->preempt_interval_ns = every << ((c->hunt ? 1 : 2) * pick(d, 2));
	item(d, "preempt", "%s/%s", dur(c->preempt_duration_ns, a),
	     dur(c->preempt_interval_ns, b));
}

/* Race delays: on (always under --hunt), a rate and a ceiling. */
static void draw_race(struct draw *d)
{
	static const char *const opts[] = { "race-delay", "race-delay-max",
					    NULL };
	struct rcut_config *c = d->cfg;
	uint64_t bound = delay_stall_bound_ns(c->stall_timeout_ns);
	uint64_t max = c->hunt ? c->race_delay_max_ns : SWARM_RACE_DELAY_MAX_NS;
	long rate = c->hunt ? c->race_delay : SWARM_RACE_DELAY;
	char a[SWARM_VALUE_LEN];

	if (given(d, "race", opts))
		return;
	if (!c->hunt && one_in(d, 2)) {
		c->race_delay = 0;
		item(d, "race", "off");
		return;
	}
	c->race_delay = rate << (2 * pick(d, 2)); /* 1x or 4x rarer */
	max >>= pick(d, 3);
	c->race_delay_max_ns = max < bound ? max : bound;
	if (c->race_delay_max_ns < DELAY_MIN_NS)
		c->race_delay_max_ns = DELAY_MIN_NS;
	item(d, "race", "1/%ld,%s", c->race_delay,
	     dur(c->race_delay_max_ns, a));
}

/* Simulated CPU offlining: half the runs, at one of three rates. */
static void draw_onoff(struct draw *d)
{
	static const char *const opts[] = { "onoff-interval", NULL };
	static const uint64_t every[] = { 20 * MS, 50 * MS, 200 * MS };
	struct rcut_config *c = d->cfg;
	char a[SWARM_VALUE_LEN];

	if (given(d, "onoff", opts))
		return;
	c->onoff_interval_ns = 0;
	if (d->run->cpus.n > 1 && one_in(d, 2))
		c->onoff_interval_ns = every[pick(d, 3)];
	item(d, "onoff", "%s",
	     c->onoff_interval_ns ? dur(c->onoff_interval_ns, a) : "off");
}

/* Callback floods: a third of the runs (they starve the readers). */
static void draw_floods(struct draw *d)
{
	static const char *const opts[] = { "fwd-progress",
					    "fwd-progress-holdoff", NULL };
	const struct rcut_flavor *f = d->run->flavor;
	struct rcut_config *c = d->cfg;
	char a[SWARM_VALUE_LEN];

	if (given(d, "floods", opts))
		return;
	c->fwd_progress = f->call && f->barrier && one_in(d, 3);
	if (c->fwd_progress)
		c->fwd_progress_holdoff_ns = (2 + 3 * pick(d, 2)) * 1000 * MS;
	item(d, "floods", "%s",
	     c->fwd_progress ? dur(c->fwd_progress_holdoff_ns, a) : "off");
}

/* The barrier test: half the runs, with 2 or 4 posters. */
static void draw_barrier(struct draw *d)
{
	static const char *const opts[] = { "n-barrier-cbs", NULL };
	struct rcut_config *c = d->cfg;

	if (given(d, "barrier", opts))
		return;
	c->n_barrier_cbs = 0;
	/*
	 * Half the runs; --hunt: every run.  The barrier thread is cheap and
	 * suppresses no other feature, and a barrier bug shows only while it
	 * runs (barrier-skip was missed in the one seed of eight that drew
	 * it off).  The pick is made either way: the draws after it stay.
	 */
	if (d->run->flavor->barrier && (pick(d, 8) >= 4u || c->hunt))
		c->n_barrier_cbs = 2 << pick(d, 2);
	if (c->n_barrier_cbs)
		item(d, "barrier", "%ld", c->n_barrier_cbs);
	else
		item(d, "barrier", "off");
}

/* The stutter: a quarter of the runs (it hides reader overlap). */
static void draw_stutter(struct draw *d)
{
	static const char *const opts[] = { "stutter", NULL };
	static const uint64_t len[] = { 200 * MS, 500 * MS, 1000 * MS };
	struct rcut_config *c = d->cfg;
	char a[SWARM_VALUE_LEN];

	if (given(d, "stutter", opts))
		return;
	c->stutter_ns = one_in(d, 4) ? len[pick(d, 3)] : 0;
	item(d, "stutter", "%s", c->stutter_ns ? dur(c->stutter_ns, a) : "off");
}

/* The reader switches and the grace-period rate. */
static void draw_reader(struct draw *d)
{
	struct switches *on = &d->sw_on;

	on->nesting = (d->run->flavor->caps & RCUT_CAP_NESTING) && one_in(d, 2);
	item(d, "nesting", "%s", on->nesting ? "on" : "off");
	on->delays = !one_in(d, 3);
	on->delays_long = on->delays && one_in(d, 2);
	item(d, "delays", "%s",
	     on->delays_long ? "long" :
	     on->delays	     ? "on" :
			       "off");
	on->fast_gps = one_in(d, 2);
	item(d, "gprate", "%s", on->fast_gps ? "fast" : "normal");
}

/* A non-empty random subset of the primitives the flavor has. */
static void draw_gp(struct draw *d)
{
	static const char *const opts[] = { "gp-sync",	    "gp-exp",
					    "gp-normal",    "gp-cond",
					    "gp-poll",	    "gp-cond-full",
					    "gp-poll-full", NULL };
	struct rcut_config *c = d->cfg;
	unsigned int avail = 0, mask = 0;
	char text[SWARM_VALUE_LEN] = "";

	if (given(d, "gp", opts))
		return;
	/* The full-cookie kinds are not drawn: old seeds draw as before. */
	for (int k = 0; k <= RCUT_GP_POLL; k++)
		if (torture_gp_available(d->run->flavor, (enum rcut_gp_kind)k))
			avail |= 1u << k;
	/*
	 * Each primitive in half the runs; --hunt keeps them all three runs
	 * in four (a bug in one primitive needs it drawn).
	 */
	if (c->hunt && pick(d, 4) != 0)
		mask = avail;
	while (avail && !mask)
		for (int k = 0; k <= RCUT_GP_POLL; k++)
			if (one_in(d, 2))
				mask |= avail & (1u << k);
	c->gp_mask = mask;
	for (int k = 0; k < RCUT_GP_NKINDS; k++)
		if (mask & (1u << k))
			snprintf(text + strlen(text),
				 sizeof(text) - strlen(text), "%s%s",
				 text[0] ? "," : "", torture_gp_names[k]);
	item(d, "gp", "%s", text);
}

/*
 * Tight reads: half the draws.  The first half of the readers read back
 * to back with their store buffer stuffed (reader.c), the window that a
 * missing read-side fence needs.  Plain --swarm: never with CPU
 * offlining: on the loaded two-core machine, runs of correct flavors
 * with both failed to take a CPU offline within its 1 s bound
 * (RCU_HOTPLUG), not understood yet.  --hunt draws them in runs with
 * offlining too (else the half of its runs that offline could never
 * catch a missing read-side fence), and the onoff thread takes no CPU
 * offline while a draw has tight reads on (onoff.c): the two take turns.
 */
static void draw_tight(struct draw *d)
{
	bool can = !d->cfg->onoff_interval_ns || d->cfg->hunt;

	d->sw_on.tight = one_in(d, 2) && can;
	item(d, "tight", "%s", d->sw_on.tight ? "on" : "off");
}

/*
 * Counter wrap: a flavor with the standard gpwrap_lag parameter starts
 * its grace-period counters 10, 100 or 1000 grace periods short of the
 * wrap, so the run crosses it early; half the runs (--hunt: every run, as
 * the counters cross the wrap once at most per run, and a correct flavor
 * loses nothing by it).  The pick is made either way: later draws stay.
 */
static void draw_gpwrap(struct draw *d)
{
	static const char *const opts[] = { "gpwrap-lag", NULL };
	static const long lags[] = { 10, 100, 1000 };
	struct rcut_config *c = d->cfg;
	const struct rcut_param *p;
	long *v = rcut_flavor_param(d->run->flavor, "gpwrap_lag", &p);

	if (given(d, "gpwrap", opts))
		return;
	if (rcut_flavor_param_given(c->params, c->nparams, "gpwrap_lag")) {
		item(d, "gpwrap", "given");
		return;
	}
	if (!v) {
		item(d, "gpwrap", "none"); /* the flavor cannot */
		return;
	}
	c->gpwrap_lag = 0;
	if (pick(d, 4) >= 2u || c->hunt)
		c->gpwrap_lag = lags[pick(d, 3)];
	if (c->gpwrap_lag > p->max)
		c->gpwrap_lag = p->max;
	*v = c->gpwrap_lag; /* before the flavor's init */
	if (c->gpwrap_lag)
		item(d, "gpwrap", "%ld", c->gpwrap_lag);
	else
		item(d, "gpwrap", "off");
}

/*
 * The automatic race points' mode, for a plugin that has them: uniform
 * or pct, half the draws each.  Neither won on the catalogue's
 * unannotated builds (docs/race-points.md): uniform caught flip-once in
 * 3 of 3 seeds where pct caught it in 1, pct caught poll-qs in 3 of 3
 * where uniform caught it in none.
 */
static void draw_autorace(struct draw *d)
{
	static const char *const opts[] = { "auto-race-mode", NULL };
	struct rcut_config *c = d->cfg;

	if (!c->auto_race || given(d, "autorace", opts))
		return;
	c->auto_race_mode = (int)pick(d, 2);
	item(d, "autorace", "%s", rcut_auto_race_mode_names[c->auto_race_mode]);
}

/*
 * The callback queues, for a flavor that can lay them out (the liburcu
 * ones): global, percpu or perthread, a third of the draws each, since a
 * bug in one queue layout shows in no other.  Fixed for the run: the
 * layout is chosen before the flavor's init.  A mode the flavor refuses
 * falls back to global.
 */
static void draw_callmode(struct draw *d)
{
	static const char *const opts[] = { "call-rcu", NULL };
	const struct rcut_flavor *f = d->run->flavor;
	struct rcut_config *c = d->cfg;

	if (!f->set_call_mode || given(d, "call", opts))
		return;
	c->call_mode = (int)pick(d, RCUT_CALL_NMODES);
	if (c->call_mode != RCUT_CALL_GLOBAL &&
	    f->set_call_mode((enum rcut_call_mode)c->call_mode))
		c->call_mode = RCUT_CALL_GLOBAL;
	item(d, "call", "%s", rcut_call_mode_names[c->call_mode]);
}

/*
 * Callbacks posted from inside read-side sections (--reader-cbs), for a
 * flavor whose call() may be made there: one section in 10, 100 or 1000
 * (a call() parked inside a section shows only when readers post);
 * a quarter of the runs off, --hunt never.  Drawn last, so that adding
 * it left every earlier pick of a seed as it was.
 */
static void draw_reader_cbs(struct draw *d)
{
	static const char *const opts[] = { "reader-cbs", NULL };
	static const long every[] = { 10, 100, 1000 };
	struct rcut_config *c = d->cfg;
	bool off = one_in(d, 4) && !c->hunt;
	long rate = every[pick(d, 3)];

	if (!torture_reader_cbs_possible(d->run->flavor) ||
	    given(d, "readercbs", opts))
		return;
	c->reader_cbs = off ? 0 : rate;
	if (c->reader_cbs)
		item(d, "readercbs", "%ld", c->reader_cbs);
	else
		item(d, "readercbs", "off");
}

/*
 * Quiet spells: under --hunt, for a flavor whose grace periods sleep on
 * a wakeup word (the lost-wakeup check's), half the draws make every
 * reader park 20 ms in 40 (QSBR ones offline), as --stutter 20ms does.
 * A wakeup lost while every reader is quiet stays lost: no later unlock
 * rescues the sleeping updater (Debian 13's liburcu 0.15.2, caught in
 * seconds with them; docs/findings/liburcu-0.15-lost-wakeup.md).  Drawn
 * again with the rates, so every run has spells with and without; none
 * with --stutter given, or a stutter drawn.  Drawn last, so that adding it
 * left every earlier pick of a seed as it was.
 */
#define QUIET_NS (20 * MS)
static void draw_quiet(struct draw *d, bool first)
{
	struct rcut_config *c = d->cfg;
	bool on = one_in(d, 2);

	if (first)
		d->run->quiet_drawn = c->hunt && !c->stutter_ns &&
				      !rcut_opt_given(c, "stutter") &&
				      torture_lost_wakeup_possible(d->run);
	if (!d->run->quiet_drawn)
		return;
	d->sw_on.quiet_ns = on ? QUIET_NS : 0;
	item(d, "quiet", "%s", on ? "20ms" : "off");
}

/* The threads' features of an earlier draw, kept as they were. */
static void keep_threads(struct draw *d, const struct torture_swarm *first)
{
	static const char *const keys[] = { "onoff",	"floods", "barrier",
					    "stutter",	"gpwrap", "call",
					    "readercbs" };

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		for (int i = 0; i < first->n; i++)
			if (!strcmp(first->item[i].key, keys[k]))
				item(d, keys[k], "%s", first->item[i].value);
}

/* The draw's text: every item, and the live ones only. */
static void draw_text(struct torture_swarm *sw)
{
	static const char *const fixed =
		" onoff floods barrier stutter gpwrap call readercbs ";
	size_t used = 0, lused = 0;
	char key[SWARM_VALUE_LEN + 2];

	for (int i = 0; i < sw->n && used < sizeof(sw->text); i++)
		used += (size_t)snprintf(
			sw->text + used, sizeof(sw->text) - used, "%s%s=%s",
			i ? " " : "", sw->item[i].key, sw->item[i].value);
	for (int i = 0; i < sw->n && lused < sizeof(sw->live); i++) {
		snprintf(key, sizeof(key), " %s ", sw->item[i].key);
		if (strstr(fixed, key))
			continue;
		lused += (size_t)snprintf(
			sw->live + lused, sizeof(sw->live) - lused, "%s%s=%s",
			lused ? " " : "", sw->item[i].key, sw->item[i].value);
	}
}

/* Put the drawn switches into the run (plain stores: nothing runs yet). */
static void set_switches(struct torture_run *run, const struct switches *on)
{
	run->read_nesting = on->nesting;
	run->read_delays = on->delays;
	run->read_delays_long = on->delays_long;
	run->fast_gps = on->fast_gps;
	run->read_tight = on->tight;
	run->quiet_ns = on->quiet_ns;
}

void torture_swarm_draw(struct torture_swarm *sw, struct rcut_config *cfg,
			struct torture_run *run)
{
	struct draw d = { .sw = sw, .cfg = cfg, .run = run };

	memset(sw, 0, sizeof(*sw));
	torture_rand_seed(&d.rand, cfg->seed, SWARM_STREAM);
	draw_preempt(&d);
	draw_race(&d);
	draw_onoff(&d);
	draw_floods(&d);
	draw_barrier(&d);
	draw_stutter(&d);
	draw_reader(&d);
	draw_gp(&d);
	draw_tight(&d);
	draw_gpwrap(&d);
	draw_autorace(&d);
	draw_callmode(&d);
	draw_reader_cbs(&d);
	draw_quiet(&d, true);
	draw_text(sw);
	set_switches(run, &d.sw_on);
}

void torture_swarm_redraw(struct torture_swarm *sw,
			  const struct torture_swarm *first,
			  struct rcut_config *cfg, struct torture_run *run,
			  int index)
{
	struct draw d = { .sw = sw, .cfg = cfg, .run = run };

	memset(sw, 0, sizeof(*sw));
	sw->index = index;
	/* Draw k's own stream: k = 0 is torture_swarm_draw()'s. */
	torture_rand_seed(&d.rand,
			  cfg->seed ^ ((uint64_t)index * 0xd1b54a32d192ed03ULL),
			  SWARM_STREAM);
	draw_preempt(&d);
	draw_race(&d);
	keep_threads(&d, first);
	draw_reader(&d);
	draw_gp(&d);
	draw_tight(&d);
	draw_autorace(&d);
	draw_quiet(&d, false);
	draw_text(sw);
	/* The threads read these while they run. */
	__atomic_store_n(&run->read_nesting, d.sw_on.nesting, __ATOMIC_RELAXED);
	__atomic_store_n(&run->read_delays, d.sw_on.delays, __ATOMIC_RELAXED);
	__atomic_store_n(&run->read_delays_long, d.sw_on.delays_long,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&run->fast_gps, d.sw_on.fast_gps, __ATOMIC_RELAXED);
	__atomic_store_n(&run->read_tight, d.sw_on.tight, __ATOMIC_RELAXED);
	__atomic_store_n(&run->quiet_ns, d.sw_on.quiet_ns, __ATOMIC_RELAXED);
}
