// SPDX-License-Identifier: MIT
/*
 * The JSON document (--json), built with json-c.  Its keys follow the
 * text report's field names where there is one (ver, rtmbe, ...); times
 * are seconds, the seed is a decimal string (it may not fit a double).
 */
#define _GNU_SOURCE
#include "json.h"

#include "verdict.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RCUT_VERSION
#define RCUT_VERSION "unknown"
#endif

static FILE *out;
static struct rcut_snapshot *intervals;
static size_t nintervals, intervals_cap;
static uint64_t intervals_dropped;
static bool write_failed;

int rcut_json_open(const char *path, char *err, size_t errlen)
{
	int fd;

	if (strcmp(path, "-") != 0) {
		out = fopen(path, "w");
		if (!out) {
			snprintf(err, errlen, "--json: cannot write '%s': %s",
				 path, strerror(errno));
			return -1;
		}
		return 0;
	}
	/* The document gets the real stdout; the text goes to stderr. */
	fflush(stdout);
	fd = dup(STDOUT_FILENO);
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!out || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		snprintf(err, errlen, "--json: cannot use standard output: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

int rcut_json_check(const char *path, char *err, size_t errlen)
{
	bool created = false;
	int fd;

	if (strcmp(path, "-") == 0)
		return 0;
	/* No O_TRUNC: a dry run leaves an existing file as it was. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0)
		created = true;
	else if (errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "--json: cannot write '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	close(fd);
	if (created)
		unlink(path);
	return 0;
}

bool rcut_json_write_failed(void)
{
	return write_failed;
}

bool rcut_json_enabled(void)
{
	return out != NULL;
}

void rcut_json_add_interval(const struct rcut_snapshot *s)
{
	if (!out)
		return;
	if (nintervals == intervals_cap) {
		size_t cap = intervals_cap ? 2 * intervals_cap : 64;
		struct rcut_snapshot *grown;

		if (cap > RCUT_JSON_MAX_INTERVALS)
			cap = RCUT_JSON_MAX_INTERVALS;
		grown = cap > intervals_cap ?
				realloc(intervals, cap * sizeof(*intervals)) :
				NULL;
		if (!grown) {
			intervals_dropped++;
			return;
		}
		intervals = grown;
		intervals_cap = cap;
	}
	intervals[nintervals++] = *s;
}

/* Small constructors, so the builders below read like the document. */
static void put(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static void put_u64(json_object *o, const char *key, uint64_t v)
{
	put(o, key, json_object_new_uint64(v));
}

static void put_i64(json_object *o, const char *key, int64_t v)
{
	put(o, key, json_object_new_int64(v));
}

static void put_str(json_object *o, const char *key, const char *v)
{
	put(o, key, v ? json_object_new_string(v) : NULL);
}

/* A number printed with 'decimals' digits after the point. */
static void put_num(json_object *o, const char *key, double v, int decimals)
{
	char text[64];

	snprintf(text, sizeof(text), "%.*f", decimals, v);
	put(o, key, json_object_new_double_s(v, text));
}

static void put_secs(json_object *o, const char *key, uint64_t ns)
{
	put_num(o, key, (double)ns / 1e9, 3);
}

/* An option's value as the table typed it. */
static json_object *param(const struct rcut_value *p)
{
	char text[64];

	switch (p->kind) {
	case RCUT_VAL_BOOL:
		return json_object_new_boolean(p->i != 0);
	case RCUT_VAL_SECS: /* ms as the lines; finer values keep their us */
		snprintf(text, sizeof(text), "%.*f", p->ns % 1000000 ? 6 : 3,
			 (double)p->ns / 1e9);
		return json_object_new_double_s((double)p->ns / 1e9, text);
	case RCUT_VAL_TEXT:
		return json_object_new_string(p->text);
	default:
		return json_object_new_int64(p->i);
	}
}

static json_object *histogram(const uint64_t *h)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < RCUT_HIST_LEN; i++)
		json_object_array_add(a, json_object_new_uint64(h[i]));
	return a;
}

static json_object *onoff(const struct rcut_snapshot *s)
{
	json_object *o = json_object_new_object();

	put_i64(o, "online_successes", s->online_successes);
	put_i64(o, "online_attempts", s->online_attempts);
	put_i64(o, "offline_successes", s->offline_successes);
	put_i64(o, "offline_attempts", s->offline_attempts);
	put_i64(o, "min_online_ms", s->min_online_ms);
	put_i64(o, "max_online_ms", s->max_online_ms);
	put_i64(o, "min_offline_ms", s->min_offline_ms);
	put_i64(o, "max_offline_ms", s->max_offline_ms);
	put_u64(o, "sum_online_ms", s->sum_online_ms);
	put_u64(o, "sum_offline_ms", s->sum_offline_ms);
	return o;
}

/* Every counter of a snapshot: a stats block as an object. */
static json_object *snapshot(const struct rcut_snapshot *s,
			     const char *const *gp_names)
{
	json_object *o = json_object_new_object(), *sub;
	char rtc[32];

	put_secs(o, "elapsed_s", s->elapsed_ns);
	snprintf(rtc, sizeof(rtc), "%p", s->rtc);
	put_str(o, "rtc", s->rtc ? rtc : NULL);
	put_u64(o, "ver", s->ver);
	put_i64(o, "tfle", s->tfle);
	put_u64(o, "rta", s->rta);
	put_u64(o, "rtaf", s->rtaf);
	put_u64(o, "rtf", s->rtf);
	put_u64(o, "rtmbe", s->rtmbe);
	sub = json_object_new_object();
	put_u64(sub, "failures", s->mbchk_fail);
	put_u64(sub, "tries", s->mbchk_tries);
	put(o, "rtmbkf", sub);
	put_u64(o, "rtbe", s->rtbe);
	put_u64(o, "rtbke", s->rtbke);
	put_u64(o, "rtbf", s->rtbf);
	put_u64(o, "rtb", s->rtb);
	put_u64(o, "nt", s->nt);
	put(o, "onoff", onoff(s));
	sub = json_object_new_object();
	put_u64(sub, "successes", s->barrier_ok);
	put_u64(sub, "attempts", s->barrier_attempts);
	put_u64(sub, "errors", s->barrier_errors);
	put(o, "barrier", sub);
	put_u64(o, "read_exits", s->read_exits);
	sub = json_object_new_object();
	put_u64(sub, "sent", s->preempt_sent);
	put_u64(sub, "delays", s->preempt_delays);
	put_num(sub, "max_delay_s", (double)s->preempt_ns_max / 1e9, 6);
	put(o, "preempts", sub);
	sub = json_object_new_object();
	put_u64(sub, "hits", s->race_hits);
	put_u64(sub, "delays", s->race_delays);
	put_num(sub, "max_delay_s", (double)s->race_ns_max / 1e9, 6);
	put(o, "races", sub);
	if (s->auto_race) {
		sub = json_object_new_object();
		put_u64(sub, "accesses", s->ar_accesses);
		put_u64(sub, "points", s->ar_points);
		put_u64(sub, "waits", s->ar_waits);
		put_u64(sub, "demotions", s->ar_demotions);
		put_num(sub, "max_delay_s", (double)s->ar_delay_ns_max / 1e9,
			6);
		put(o, "auto_races", sub);
	}
	if (s->storebuf) {
		sub = json_object_new_object();
		put_u64(sub, "buffered", s->sb_buffered);
		put_u64(sub, "forwarded", s->sb_forwarded);
		put_u64(sub, "drains", s->sb_drains);
		put_u64(sub, "membarrier_drains", s->sb_membarrier_drains);
		put_u64(sub, "aged", s->sb_aged);
		put_num(sub, "max_age_s", (double)s->sb_max_age_ns / 1e9, 6);
		put_u64(sub, "late_loads", s->sb_late_loads);
		put(o, "store_buffer", sub);
	}
	put_u64(o, "migrations", s->migrations);
	put_u64(o, "floods", s->floods);
	put_u64(o, "max_rss_kib", s->max_rss_kib);
	if (s->machine.load1 >= 0)
		put_num(o, "load_avg", s->machine.load1, 2);
	else
		put(o, "load_avg", NULL);
	put_i64(o, "host_cpus", s->machine.cpus);
	if (s->machine.others >= 0)
		put_num(o, "others_cpu_share", s->machine.others, 2);
	else
		put(o, "others_cpu_share", NULL);
	put(o, "reader_pipe", histogram(s->pipe));
	put(o, "reader_batch", histogram(s->batch));
	put(o, "free_block_circulation", histogram(s->wcount));
	put_u64(o, "reads", s->reads);
	put_u64(o, "gps", s->gps);
	sub = json_object_new_object();
	put_u64(sub, "invoked", s->cbs_invoked);
	put_u64(sub, "early", s->cbs_early);
	put_u64(sub, "duplicate", s->cbs_dup);
	put_u64(sub, "lost", s->cbs_lost);
	put(o, "callbacks", sub);
	put_u64(o, "failed_checks", s->failed_checks);
	sub = json_object_new_object();
	for (int k = 0; k < RCUT_SNAP_GP_KINDS; k++)
		put_u64(sub, gp_names[k], s->writer_gps[k]);
	put(o, "writer_gps", sub);
	put(o, "failed",
	    json_object_new_boolean(rcut_snapshot_failed(s, NULL, 0)));
	return o;
}

static json_object *rates(const struct rcut_snapshot *s)
{
	json_object *o = json_object_new_object();

	put_secs(o, "over_s", s->elapsed_ns);
	put_num(o, "reads_per_s", rcut_per_second(s->reads, s->elapsed_ns), 0);
	put_num(o, "updates_per_s", rcut_per_second(s->ver, s->elapsed_ns), 1);
	put_num(o, "gps_per_s", rcut_per_second(s->gps, s->elapsed_ns), 1);
	put_num(o, "callbacks_per_s",
		rcut_per_second(s->cbs_invoked, s->elapsed_ns), 1);
	return o;
}

/* The seed in decimal: a JSON number may not hold 64 bits exactly. */
static const char *seed_text(uint64_t seed, char buf[24])
{
	snprintf(buf, 24, "%llu", (unsigned long long)seed);
	return buf;
}

/* Every option of the run, as resolved where it was resolved. */
static json_object *config(const struct rcut_json_run *run)
{
	json_object *o = json_object_new_object(), *a;

	/* The option table's JSON list, then the lists that are no rows. */
	for (int i = 0; i < run->nparams; i++)
		put(o, run->params[i].key, param(&run->params[i]));
	a = json_object_new_array();
	for (int k = 0; k < RCUT_SNAP_GP_KINDS; k++)
		if (run->gp_kinds & (1u << k))
			json_object_array_add(
				a, json_object_new_string(run->gp_names[k]));
	put(o, "gp", a);
	a = json_object_new_array();
	for (int i = 0; i < run->nflavor_params; i++)
		json_object_array_add(
			a, json_object_new_string(run->flavor_params[i]));
	put(o, "params", a);
	a = json_object_new_array();
	for (int i = 0; i < run->nrepro_args; i++)
		json_object_array_add(
			a, json_object_new_string(run->repro_args[i]));
	put(o, "args", a);
	return o;
}

/* --swarm: the draw as printed, and each feature's value; else null. */
static json_object *swarm(const struct rcut_json_run *run)
{
	json_object *o, *f;

	if (!run->swarm)
		return NULL;
	o = json_object_new_object();
	put_str(o, "draw", run->swarm);
	f = json_object_new_object();
	for (int i = 0; i < run->nswarm; i++)
		put_str(f, run->swarm_items[i].key, run->swarm_items[i].value);
	put(o, "features", f);
	if (run->swarm_draws) {
		put_i64(o, "draws", run->swarm_draws);
		if (run->swarm_failure_draw) {
			f = json_object_new_object();
			put_i64(f, "index", run->swarm_failure_index);
			put_num(f, "from_s", run->swarm_failure_from_s, 3);
			put_str(f, "draw", run->swarm_failure_draw);
			put(o, "at_first_failure", f);
		}
	}
	return o;
}

static json_object *document(const struct rcut_json_run *run)
{
	json_object *doc = json_object_new_object(), *o, *a;
	char seed[24];

	put_i64(doc, "format", RCUT_JSON_FORMAT);
	o = json_object_new_object();
	put_str(o, "name", "rcutorture");
	put_str(o, "version", RCUT_VERSION);
	put_i64(o, "flavor_abi", RCUT_FLAVOR_ABI_VERSION);
	put(doc, "tool", o);
	o = json_object_new_object();
	put_str(o, "name", run->flavor->name);
	put_str(o, "description", run->flavor->description);
	put_str(o, "plugin", run->plugin);
	put(doc, "flavor", o);
	o = NULL;
	if (run->scenario_name) {
		o = json_object_new_object();
		put_str(o, "name", run->scenario_name);
		put_str(o, "path", run->scenario_path);
		put_str(o, "expect", run->scenario_expect);
	}
	put(doc, "scenario", o);
	put(doc, "config", config(run));
	put_str(doc, "seed", seed_text(run->seed, seed));
	put(doc, "swarm", swarm(run));
	put_str(doc, "verdict", run->verdict);
	put_str(doc, "repro", run->repro);
	put_i64(doc, "exit_status", run->exit_status);
	o = NULL;
	if (run->failed) {
		o = json_object_new_object();
		put_num(o, "time_s", run->failure_s, 3);
		put_str(o, "check", run->failure_check);
		if (run->failure_detail)
			put_str(o, "detail", run->failure_detail);
	}
	put(doc, "first_failure", o);
	a = json_object_new_array();
	for (int i = 0; i < run->nchecks; i++) {
		o = json_object_new_object();
		put_str(o, "check", run->checks[i].check);
		put_u64(o, "count", run->checks[i].count);
		put_num(o, "first_s", run->checks[i].first_s, 3);
		put_str(o, "first", run->checks[i].first);
		json_object_array_add(a, o);
	}
	put(doc, "checks_failed", a);
	put_str(doc, "stall", run->stall);
	put(doc, "final", snapshot(run->final, run->gp_names));
	put(doc, "rates", rates(run->final));
	a = json_object_new_array();
	for (size_t i = 0; i < nintervals; i++)
		json_object_array_add(a,
				      snapshot(&intervals[i], run->gp_names));
	put(doc, "intervals", a);
	put_u64(doc, "intervals_dropped", intervals_dropped);
	return doc;
}

int rcut_json_write(const struct rcut_json_run *run)
{
	json_object *doc;
	int ret = 0;

	if (!out)
		return 0;
	doc = document(run);
	if (fprintf(out, "%s\n",
		    json_object_to_json_string_ext(
			    doc, JSON_C_TO_STRING_PRETTY |
					 JSON_C_TO_STRING_SPACED |
					 JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		ret = -1;
	if (fclose(out))
		ret = -1;
	out = NULL;
	if (ret) {
		fprintf(stderr, "rcutorture: --json: writing failed: %s\n",
			strerror(errno));
		write_failed = true;
	}
	json_object_put(doc);
	free(intervals);
	intervals = NULL;
	nintervals = intervals_cap = 0;
	return ret;
}
