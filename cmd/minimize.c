// SPDX-License-Identifier: MIT
/*
 * --minimize (minimize.h): delta debugging over a failing command.  The
 * command is the repro line's arguments (torture/config/repro.h) plus
 * --stop-on-failure; the flavor, the seed and --stop-on-failure stay.
 * Phases: the baseline (does the command fail k of n?), then with
 * --swarm the drawn features turned off one at a time, then ddmin over
 * the other arguments (remove chunks, then single ones), then each
 * remaining count or interval halved while the failure stays, then
 * confirmation runs of the result.  A candidate is kept only after k
 * runs of it failed the same way (the same exit status); so the result
 * is always a command seen failing.
 */
#define _GNU_SOURCE
#include "minimize.h"
#include "minimize_run.h"

#include "../torture/config/options_table.h"
#include "../torture/config/repro.h"
#include "../torture/core/cpus.h"
#include "../torture/util/parse.h"
#include "../report/verdict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MZ_ARG_LEN 512
#define MZ_CONFIRM_RUNS 10
#define MZ_MAX_TIMES 256
#define MZ_MAX_REJECTED 1024
#define MZ_MAX_HISTORY 32 /* kept commands remembered for the confirmation */
#define NS 1000000000ULL

struct mz_item {
	char arg[MZ_ARG_LEN];
	const struct rcut_opt *row; /* NULL: a flavor parameter, plugin dir */
	bool fixed;		    /* never removed or changed */
	bool kept;		    /* never removed, but may be halved */
};

struct mz_cmd {
	int n;
	struct mz_item it[RCUT_REPRO_MAX_ARGS];
};

/* How a command fared: runs, failures, failure times. */
struct mz_stats {
	int runs, fails;
	int ntimes;
	double times[MZ_MAX_TIMES];
};

struct mz {
	const struct rcut_config *cfg;
	int k, n;
	uint64_t start, deadline;
	uint64_t full_limit_ns;	 /* a run's longest life: its duration */
	uint64_t trial_limit_ns; /* a candidate's run, from the baseline */
	bool out_of_budget;
	int trials, runs, orig_n;
	int status;			/* the failure: exit status ... */
	char check[MZ_CHECK_LEN];	/* ... and first check ("" any) */
	char features[MZ_FEATURES_LEN]; /* --swarm: the baseline's draw */
	char dir[128], json[160];
	struct mz_cmd best, cand;
	struct mz_stats best_stats;
	int nrejected;
	char *rejected[MZ_MAX_REJECTED]; /* command lines, each once */
	/* The commands kept before the best one, the latest last. */
	int nhistory;
	struct mz_saved {
		struct rcut_repro args;
		struct mz_stats stats;
	} history[MZ_MAX_HISTORY];
};

/* The row of "--NAME=VALUE" or "--NAME", or NULL. */
static const struct rcut_opt *row_of(const char *arg)
{
	char name[64];

	if (strncmp(arg, "--", 2))
		return NULL;
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg + 2, "="),
		 arg + 2);
	return rcut_opt_find(name);
}

static bool is_row(const struct mz_item *it, const char *name)
{
	return it->row && !strcmp(it->row->name, name);
}

/* Append arg to c (fixed or not); -1 if full. */
static int add_item(struct mz_cmd *c, const char *arg, bool fixed)
{
	struct mz_item *it;

	if (c->n >= RCUT_REPRO_MAX_ARGS || strlen(arg) >= MZ_ARG_LEN)
		return -1;
	it = &c->it[c->n++];
	snprintf(it->arg, sizeof(it->arg), "%s", arg);
	it->row = row_of(arg);
	it->fixed = fixed || is_row(it, "flavor") || is_row(it, "seed") ||
		    is_row(it, "stop-on-failure");
	it->kept = is_row(it, "cpus");
	return 0;
}

/*
 * The command from the parsed options, with --stop-on-failure and the
 * simulated CPU count spelled out (its default depends on the machine).
 */
static int cmd_from_config(struct mz *m)
{
	static struct rcut_repro r;
	long cpus =
		m->cfg->ncpus > 0 ? m->cfg->ncpus : torture_cpus_available();

	if (rcut_repro_build(&r, m->cfg, cpus))
		return -1;
	m->best.n = 0;
	for (int i = 0; i < r.n; i++)
		if (add_item(&m->best, r.arg[i], false))
			return -1;
	if (!m->cfg->stop_on_failure &&
	    add_item(&m->best, "--stop-on-failure", true))
		return -1;
	return 0;
}

/* "rcutorture ARG..." of c, quoted as the repro line is. */
static void cmd_line(const struct mz_cmd *c, char *buf, size_t len)
{
	static struct rcut_repro r;

	r.n = 0;
	r.used = 0;
	for (int i = 0; i < c->n; i++)
		rcut_repro_add(&r, c->it[i].arg);
	rcut_repro_line(&r, buf, len);
}

/* "65.3s": the time since the start. */
static void elapsed(const struct mz *m, char *buf, size_t len)
{
	snprintf(buf, len, "%.1fs", (double)(mz_now_ns() - m->start) / 1e9);
}

/*
 * Whether a run failed as the command does: with the same exit status.
 * Not the same first check: one race is caught by different checks in
 * different runs (busted's too-short grace period or early callback).
 */
static bool same_failure(const struct mz *m, const struct mz_outcome *o)
{
	return o->counted && o->status == m->status;
}

/* One run of c; false if the budget cut it (nothing counted). */
static bool run_once(struct mz *m, const struct mz_cmd *c, uint64_t limit,
		     struct mz_outcome *o)
{
	const char *args[RCUT_REPRO_MAX_ARGS];
	uint64_t now = mz_now_ns(), end = now + limit;
	bool cut_by_limit;

	for (int i = 0; i < c->n; i++)
		args[i] = c->it[i].arg;
	if (end > m->deadline)
		end = m->deadline;
	cut_by_limit = end < m->deadline;
	if (now >= m->deadline || mz_run(args, c->n, m->json, end, o)) {
		m->out_of_budget = true;
		return false;
	}
	m->runs++;
	if (!o->counted && cut_by_limit) {
		/* Past the trial limit: a run that did not fail in time. */
		o->counted = true;
		o->status = RCUT_EXIT_SUCCESS;
		return true;
	}
	if (!o->counted)
		m->out_of_budget = true;
	return o->counted;
}

/* Count o into s. */
static void tally(struct mz_stats *s, const struct mz_outcome *o, bool failed)
{
	s->runs++;
	if (!failed)
		return;
	s->fails++;
	if (s->ntimes < MZ_MAX_TIMES && o->fail_s >= 0)
		s->times[s->ntimes++] = o->fail_s;
}

/* Whether candidate c (as its command line) was rejected already. */
static bool rejected_before(const struct mz *m, const struct mz_cmd *c)
{
	static char line[RCUT_REPRO_BUF];

	cmd_line(c, line, sizeof(line));
	for (int i = 0; i < m->nrejected; i++)
		if (!strcmp(m->rejected[i], line))
			return true;
	return false;
}

/* Remember c as rejected, so that ddmin's later rounds skip it. */
static void remember_rejected(struct mz *m, const struct mz_cmd *c)
{
	static char line[RCUT_REPRO_BUF];

	if (m->nrejected >= MZ_MAX_REJECTED)
		return;
	cmd_line(c, line, sizeof(line));
	m->rejected[m->nrejected] = strdup(line);
	if (m->rejected[m->nrejected])
		m->nrejected++;
}

/*
 * Run candidate c until k runs failed the same way (kept: true) or too
 * many did not (n - k + 1), a run was a usage error, or the budget ran
 * out.  Prints the trial's progress line.
 */
static bool try_cmd(struct mz *m, const struct mz_cmd *c, const char *what,
		    struct mz_stats *s)
{
	struct mz_outcome o;
	char t[32], b[32];
	bool kept;

	memset(s, 0, sizeof(*s));
	if (rejected_before(m, c)) {
		printf("minimize: %s: rejected before, not run again\n", what);
		return false;
	}
	m->trials++;
	while (s->fails < m->k && s->runs - s->fails <= m->n - m->k) {
		if (!run_once(m, c, m->trial_limit_ns, &o))
			break;
		tally(s, &o, same_failure(m, &o));
		if (o.status == RCUT_EXIT_USAGE)
			break;
	}
	kept = s->fails >= m->k;
	if (!kept && !m->out_of_budget)
		remember_rejected(m, c);
	elapsed(m, t, sizeof(t));
	rcut_format_duration(m->cfg->minimize_budget_ns, b, sizeof(b));
	printf("minimize: [%s of %s] trial %d: %s: failed %d of %d runs: %s\n",
	       t, b, m->trials, what, s->fails, s->runs,
	       kept		? "kept" :
	       m->out_of_budget ? "budget spent, stopping" :
				  "rejected");
	fflush(stdout);
	return kept;
}

/* Accept candidate m->cand as the new best, with its figures. */
static void take(struct mz *m, const struct mz_stats *s)
{
	struct mz_saved *h;

	if (m->nhistory == MZ_MAX_HISTORY) { /* forget the oldest */
		memmove(&m->history[0], &m->history[1],
			(MZ_MAX_HISTORY - 1) * sizeof(m->history[0]));
		m->nhistory--;
	}
	h = &m->history[m->nhistory++];
	memset(&h->args, 0, offsetof(struct rcut_repro, buf));
	h->args.used = 0;
	for (int i = 0; i < m->best.n; i++)
		rcut_repro_add(&h->args, m->best.it[i].arg);
	h->stats = m->best_stats;
	m->best = m->cand;
	m->best_stats = *s;
}

/* Back to the command kept before the best one. */
static void step_back(struct mz *m)
{
	const struct mz_saved *h = &m->history[--m->nhistory];

	m->best.n = 0;
	for (int i = 0; i < h->args.n; i++)
		add_item(&m->best, h->args.arg[i], false);
	m->best_stats = h->stats;
}

/*
 * The baseline: the command as given, up to n runs with its whole
 * duration.  Its first failing run says what "the failure" is; k runs
 * must show it.  Later candidates' runs are cut at three times the
 * slowest failure seen here (at least 3 s): a candidate that fails later
 * counts as not failing, which can only keep more than needed.
 */
static bool baseline(struct mz *m)
{
	struct mz_outcome o;
	struct mz_stats *s = &m->best_stats;
	double slowest = 0;

	memset(s, 0, sizeof(*s));
	m->trials++;
	while (s->fails < m->k && s->runs - s->fails <= m->n - m->k) {
		if (!run_once(m, &m->best, m->full_limit_ns, &o))
			break;
		if (!m->status && o.status != RCUT_EXIT_SUCCESS &&
		    o.status != RCUT_EXIT_USAGE) {
			m->status = o.status;
			snprintf(m->check, sizeof(m->check), "%s", o.check);
			snprintf(m->features, sizeof(m->features), "%s",
				 o.features);
		}
		tally(s, &o, m->status && same_failure(m, &o));
		if (same_failure(m, &o) && o.fail_s > slowest)
			slowest = o.fail_s;
		if (o.status == RCUT_EXIT_USAGE)
			break;
	}
	printf("minimize: trial 1: the command as given: failed %d of %d runs\n",
	       s->fails, s->runs);
	if (m->status)
		printf("minimize: the failure: exit %d (%s); first check of the first failing run: %s\n",
		       m->status, rcut_exit_name(m->status),
		       m->check[0] ? m->check : "none recorded");
	/*
	 * At least 10 s: the wall time of a run includes its start, which a
	 * loaded machine stretches (an ASan run that fails at 0.04 s went
	 * past a 3 s cut once, beside the suite, and its candidate was
	 * wrongly rejected).
	 */
	m->trial_limit_ns = (uint64_t)(slowest * 3 * 1e9);
	if (m->trial_limit_ns < 10 * NS)
		m->trial_limit_ns = 10 * NS;
	if (m->trial_limit_ns > m->full_limit_ns)
		m->trial_limit_ns = m->full_limit_ns;
	return s->fails >= m->k;
}

/* The argument that turns a drawn swarm feature off, or NULL. */
static const char *feature_off(const char *key, const char *value)
{
	static const char *const map[][2] = {
		{ "preempt", "--preempt-duration=0" },
		{ "race", "--race-delay=0" },
		{ "onoff", "--onoff-interval=0" },
		{ "floods", "--fwd-progress=0" },
		{ "barrier", "--n-barrier-cbs=0" },
		{ "stutter", "--stutter=0" },
		{ "nesting", "--reader-nesting=1" },
	};

	if (!strcmp(value, "off") || !strcmp(value, "given"))
		return NULL;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(key, map[i][0]))
			return map[i][1];
	return NULL;
}

/* --swarm: turn each feature the baseline drew off, one at a time. */
static void phase_swarm(struct mz *m)
{
	char features[MZ_FEATURES_LEN], what[MZ_ARG_LEN + 32];
	struct mz_stats s;
	char *save = NULL;

	snprintf(features, sizeof(features), "%s", m->features);
	for (char *kv = strtok_r(features, " ", &save); kv && !m->out_of_budget;
	     kv = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(kv, '=');
		const char *off;

		if (!eq)
			continue;
		*eq = '\0';
		off = feature_off(kv, eq + 1);
		if (!off)
			continue;
		m->cand = m->best;
		if (add_item(&m->cand, off, true))
			return;
		snprintf(what, sizeof(what), "swarm feature %s off (%s)", kv,
			 off);
		if (try_cmd(m, &m->cand, what, &s))
			take(m, &s);
	}
}

/* The indexes of the arguments ddmin may remove. */
static int removable(const struct mz *m, int *idx)
{
	int n = 0;

	for (int i = 0; i < m->best.n; i++)
		if (!m->best.it[i].fixed && !m->best.it[i].kept)
			idx[n++] = i;
	return n;
}

/* m->cand: m->best without its arguments idx[lo..hi); what names them. */
static void without(struct mz *m, const int *idx, int lo, int hi, char *what,
		    size_t len)
{
	size_t used = (size_t)snprintf(what, len, "without");

	m->cand.n = 0;
	for (int i = 0, j = lo; i < m->best.n; i++) {
		if (j < hi && i == idx[j]) {
			if (used < len)
				used += (size_t)snprintf(what + used,
							 len - used, " %s",
							 m->best.it[i].arg);
			j++;
			continue;
		}
		m->cand.it[m->cand.n++] = m->best.it[i];
	}
}

/*
 * ddmin (Zeller and Hildebrandt, 2002) over the removable arguments,
 * complements only: remove one of `gran` chunks; on success coarsen,
 * else refine, until single arguments have been tried.
 */
static void phase_ddmin(struct mz *m)
{
	int idx[RCUT_REPRO_MAX_ARGS], gran = 2;
	char what[1024];
	struct mz_stats s;

	for (;;) {
		int nr = removable(m, idx);
		bool reduced = false;

		if (!nr || m->out_of_budget)
			return;
		if (gran > nr)
			gran = nr;
		for (int c = 0; c < gran && !reduced && !m->out_of_budget;
		     c++) {
			without(m, idx, c * nr / gran, (c + 1) * nr / gran,
				what, sizeof(what));
			reduced = try_cmd(m, &m->cand, what, &s);
		}
		if (reduced) {
			take(m, &s);
			gran = gran > 2 ? gran - 1 : 2;
		} else if (gran >= nr) {
			return;
		} else {
			gran = 2 * gran < nr ? 2 * gran : nr;
		}
	}
}

/* Whether item it holds a count or interval worth halving. */
static bool halvable(const struct mz_item *it)
{
	static const char *const skip[] = { "stall-timeout",	"stat-interval",
					    "fwd-progress-div", "race-delay",
					    "preempt-interval", NULL };

	if (it->fixed || !it->row || !strchr(it->arg, '=') ||
	    (it->row->type != RCUT_OPT_COUNT &&
	     it->row->type != RCUT_OPT_DURATION))
		return false;
	for (int i = 0; skip[i]; i++)
		if (is_row(it, skip[i]))
			return false;
	return true;
}

/* The next smaller value of item it into arg; false if none. */
static bool halved(const struct mz_item *it, char *arg, size_t len)
{
	const struct rcut_opt *o = it->row;
	const char *val = strchr(it->arg, '=') + 1;
	char text[32];

	if (o->type == RCUT_OPT_COUNT) {
		long v, floor = o->min > 1 ? (long)o->min : 1;

		if (rcut_parse_long(val, 1, RCUT_MAX_THREADS * 1000L, &v) ||
		    v <= floor)
			return false;
		snprintf(arg, len, "--%s=%ld", o->name,
			 v / 2 > floor ? v / 2 : floor);
		return true;
	} else {
		uint64_t v, floor = is_row(it, "duration") ? NS : NS / 1000;

		if (o->min > 0 && (uint64_t)o->min > floor)
			floor = (uint64_t)o->min;
		if (rcut_parse_duration(val, &v) || v <= floor)
			return false;
		rcut_format_duration(v / 2 > floor ? v / 2 : floor, text,
				     sizeof(text));
		snprintf(arg, len, "--%s=%s", o->name, text);
		return true;
	}
}

/* Halve each remaining count and interval while the failure stays. */
static void phase_values(struct mz *m)
{
	char arg[MZ_ARG_LEN], what[2 * MZ_ARG_LEN];
	struct mz_stats s;

	for (int i = 0; i < m->best.n && !m->out_of_budget; i++) {
		while (halvable(&m->best.it[i]) &&
		       halved(&m->best.it[i], arg, sizeof(arg)) &&
		       !m->out_of_budget) {
			m->cand = m->best;
			snprintf(m->cand.it[i].arg, MZ_ARG_LEN, "%s", arg);
			snprintf(what, sizeof(what), "%s instead of %s", arg,
				 m->best.it[i].arg);
			if (!try_cmd(m, &m->cand, what, &s))
				break;
			take(m, &s);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "failed in F of R runs ...; time to fail: median, max" of s. */
static void print_figures(const struct mz *m, struct mz_stats *s,
			  const char *runs)
{
	printf("minimize: it failed in %d of %d %s (%s; the baseline's first check: %s)",
	       s->fails, s->runs, runs, rcut_exit_name(m->status),
	       m->check[0] ? m->check : "none recorded");
	if (s->ntimes) {
		qsort(s->times, (size_t)s->ntimes, sizeof(double), cmp_double);
		printf("; time to fail: median %.3f s, max %.3f s",
		       s->times[s->ntimes / 2], s->times[s->ntimes - 1]);
	}
	printf("\n");
}

/*
 * MZ_CONFIRM_RUNS runs of the best command, each of its whole duration,
 * as far as the budget allows, stopped once it cannot reach bar
 * failures.  Whether it did.
 */
static bool confirm(struct mz *m, struct mz_stats *c, int bar)
{
	struct mz_outcome o;

	memset(c, 0, sizeof(*c));
	while (c->runs < MZ_CONFIRM_RUNS &&
	       c->fails + MZ_CONFIRM_RUNS - c->runs >= bar) {
		if (!run_once(m, &m->best, m->full_limit_ns, &o))
			break;
		tally(c, &o, same_failure(m, &o));
		printf("minimize: confirming: run %d of %d: %s, exit %d (%s)",
		       c->runs, MZ_CONFIRM_RUNS,
		       same_failure(m, &o) ? "failed" : "did not fail",
		       o.status, rcut_exit_name(o.status));
		if (o.fail_s >= 0)
			printf(", first failure at %.3f s: %s", o.fail_s,
			       o.check);
		printf("\n");
		fflush(stdout);
	}
	return c->fails >= bar;
}

/*
 * The result: the smallest command that fails in at least k/n of its
 * confirmation runs (a kept change may have made the failure rarer than
 * its k of n runs showed: then the command kept before it is
 * confirmed), how often and how fast; without any confirmation run (the
 * budget), the search's runs of it.
 */
static void confirm_and_report(struct mz *m)
{
	static char line[RCUT_REPRO_BUF];
	int bar = (MZ_CONFIRM_RUNS * m->k + m->n - 1) / m->n;
	struct mz_stats c;
	char t[32];

	while (!confirm(m, &c, bar) && !m->out_of_budget && m->nhistory) {
		printf("minimize: it failed in %d of %d confirmation runs, short of %d of %d: back to the command kept before it\n",
		       c.fails, c.runs, bar, MZ_CONFIRM_RUNS);
		step_back(m);
	}
	cmd_line(&m->best, line, sizeof(line));
	printf("minimize: smallest failing command found (%d arguments, was %d):\n%s\n",
	       m->best.n, m->orig_n, line);
	if (c.runs)
		print_figures(m, &c, "confirmation runs");
	else
		print_figures(m, &m->best_stats, "runs during the search");
	elapsed(m, t, sizeof(t));
	printf("minimize: %d runs in %d trials, %s%s\n", m->runs, m->trials, t,
	       m->out_of_budget ? " (the budget ran out)" : "");
}

/* A private directory for the runs' reports. */
static int make_dir(struct mz *m)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(m->dir, sizeof(m->dir), "%.80s/rcutorture-minimize-XXXXXX",
		 tmp && tmp[0] && strlen(tmp) < 80 ? tmp : "/tmp");
	if (!mkdtemp(m->dir))
		return -1;
	snprintf(m->json, sizeof(m->json), "%s/run.json", m->dir);
	return 0;
}

int rcut_minimize(const struct rcut_config *cfg,
		  const struct rcut_flavor *flavor)
{
	static struct mz m;
	char line[RCUT_REPRO_BUF];
	bool failing;

	(void)flavor;
	memset(&m, 0, sizeof(m));
	m.cfg = cfg;
	m.n = (int)cfg->minimize_runs;
	m.k = (int)(cfg->minimize_fails < cfg->minimize_runs ?
			    cfg->minimize_fails :
			    cfg->minimize_runs);
	m.start = mz_now_ns();
	m.deadline = m.start + cfg->minimize_budget_ns;
	m.full_limit_ns =
		cfg->duration_ns ?
			cfg->duration_ns + cfg->stall_timeout_ns + 10 * NS :
			cfg->minimize_budget_ns;
	if (cmd_from_config(&m) || make_dir(&m)) {
		fprintf(stderr, "rcutorture: --minimize: cannot set up: %m\n");
		return RCUT_EXIT_INTERNAL;
	}
	m.orig_n = m.best.n;
	cmd_line(&m.best, line, sizeof(line));
	printf("minimize: %s\nminimize: keeping a change when it fails in %d of %d runs; budget ",
	       line, m.k, m.n);
	rcut_format_duration(cfg->minimize_budget_ns, line, sizeof(line));
	printf("%s\n", line);
	failing = baseline(&m);
	if (failing) {
		phase_swarm(&m);
		phase_ddmin(&m);
		phase_values(&m);
		confirm_and_report(&m);
	} else {
		printf("minimize: the command failed in %d of %d runs%s; expected %d: nothing to minimize\n",
		       m.best_stats.fails, m.best_stats.runs,
		       m.out_of_budget ? " before the budget ran out" : "",
		       m.k);
	}
	unlink(m.json);
	rmdir(m.dir);
	for (int i = 0; i < m.nrejected; i++)
		free(m.rejected[i]);
	return failing ? 0 : RCUT_EXIT_FAILURE;
}
