// SPDX-License-Identifier: MIT
/*
 * The reproduction command (repro.h), from the option table: a row's
 * default and type say whether and how its value is printed.
 */
#include "repro.h"

#include "options_table.h"
#include "../util/parse.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

int rcut_repro_add(struct rcut_repro *r, const char *arg)
{
	size_t len = strlen(arg) + 1;

	if (r->n >= RCUT_REPRO_MAX_ARGS || r->used + len > sizeof(r->buf))
		return -1;
	memcpy(r->buf + r->used, arg, len);
	r->arg[r->n++] = r->buf + r->used;
	r->used += len;
	return 0;
}

bool rcut_repro_row(int i)
{
	const struct rcut_opt *o = &rcut_opts[i];

	if (o->group == RCUT_GROUP_MINIMIZE || o->type == RCUT_OPT_ACTION)
		return false;
	/* Output destinations and a check-only run reproduce nothing. */
	if (!strcmp(o->name, "json") || !strcmp(o->name, "dry-run"))
		return false;
	return o->type != RCUT_OPT_NONE;
}

/* Whether row o holds something other than its default in cfg. */
static bool differs(const struct rcut_config *cfg, const struct rcut_opt *o)
{
	const void *v = (const char *)cfg + o->off;

	switch (o->type) {
	case RCUT_OPT_FLAG:
		return *(const bool *)v != (o->def != 0);
	case RCUT_OPT_COUNT:
		return *(const long *)v != (long)o->def;
	case RCUT_OPT_DURATION:
	case RCUT_OPT_U64:
		return *(const uint64_t *)v != (uint64_t)o->def;
	case RCUT_OPT_INT:
	case RCUT_OPT_CHOICE:
		return *(const int *)v != (int)o->def;
	case RCUT_OPT_STRING:
		return *(const char *const *)v && o->def_str &&
		       strcmp(*(const char *const *)v, o->def_str);
	case RCUT_OPT_LIST:
		return *(const int *)((const char *)cfg + o->count_off) > 0;
	case RCUT_OPT_GP:
		return (cfg->gp_mask >> o->min) & 1;
	default:
		return false;
	}
}

/* "--NAME=VALUE" (or "--NAME" for a flag) of row o into buf. */
static void row_arg(const struct rcut_config *cfg, const struct rcut_opt *o,
		    char *buf, size_t len)
{
	const void *v = (const char *)cfg + o->off;
	int n = snprintf(buf, len, "--%s", o->name);
	char *val = buf + n;
	size_t left = len - (size_t)n;

	switch (o->type) {
	case RCUT_OPT_COUNT:
		snprintf(val, left, "=%ld", *(const long *)v);
		break;
	case RCUT_OPT_DURATION:
		val[0] = '=';
		rcut_format_duration(*(const uint64_t *)v, val + 1, left - 1);
		break;
	case RCUT_OPT_U64:
		snprintf(val, left, "=%llu",
			 (unsigned long long)*(const uint64_t *)v);
		break;
	case RCUT_OPT_CHOICE:
		snprintf(val, left, "=%s", o->names[*(const int *)v]);
		break;
	case RCUT_OPT_STRING:
		snprintf(val, left, "=%s", *(const char *const *)v);
		break;
	case RCUT_OPT_LIST: {
		const long *l = v;
		int cnt = *(const int *)((const char *)cfg + o->count_off);

		for (int i = 0; i < cnt && left > 1; i++) {
			int w = snprintf(val, left, "%c%ld", i ? ',' : '=',
					 l[i]);
			val += w;
			left -= (size_t)w < left ? (size_t)w : left;
		}
		break;
	}
	default: /* a flag or a primitive: the name says it */
		break;
	}
}

/*
 * Options whose default the flavor decides (cmd/main.c): the barrier
 * test, the counter lag and the store-buffer emulation are off for a
 * flavor that cannot have them.
 */
static bool flavor_default(const struct rcut_opt *o)
{
	return o->off == offsetof(struct rcut_config, n_barrier_cbs) ||
	       o->off == offsetof(struct rcut_config, gpwrap_lag) ||
	       o->off == offsetof(struct rcut_config, store_buffer_delay_ns);
}

/* The argument of row i, or "" if the command leaves it out. */
static void one_row(const struct rcut_config *cfg, int i, long ncpus, char *buf,
		    size_t len)
{
	const struct rcut_opt *o = &rcut_opts[i];
	bool keep = differs(cfg, o);

	buf[0] = '\0';
	if (!rcut_repro_row(i))
		return;
	if (cfg->swarm && cfg->given[i] && o->type != RCUT_OPT_GP)
		keep = true; /* the draw keeps what was given */
	if (cfg->hunt && !cfg->given[i] && strcmp(o->name, "hunt"))
		keep = false; /* the preset sets it again */
	if (!cfg->given[i] && flavor_default(o))
		keep = false; /* the flavor's default comes back by itself */
	if (o->custom == RCUT_CUSTOM_FLAVOR || o->custom == RCUT_CUSTOM_SEED)
		keep = true;
	if (o->custom == RCUT_CUSTOM_VERBOSE) {
		if (cfg->verbose != 1)
			snprintf(buf, len, "%s",
				 cfg->verbose ? "--verbose" : "--quiet");
		return;
	}
	if (!strcmp(o->name, "cpus") && ncpus > 0) {
		snprintf(buf, len, "--cpus=%ld", ncpus);
		return;
	}
	if (keep)
		row_arg(cfg, o, buf, len);
}

int rcut_repro_build(struct rcut_repro *r, const struct rcut_config *cfg,
		     long ncpus)
{
	char arg[4200];

	memset(r, 0, offsetof(struct rcut_repro, buf));
	r->used = 0;
	for (int i = 0; i < rcut_nopts; i++) {
		one_row(cfg, i, ncpus, arg, sizeof(arg));
		if (arg[0] && rcut_repro_add(r, arg))
			return -1;
	}
	for (int i = 0; i < cfg->nplugin_dirs; i++) {
		snprintf(arg, sizeof(arg), "--plugin-dir=%s",
			 cfg->plugin_dirs[i]);
		if (rcut_repro_add(r, arg))
			return -1;
	}
	for (int i = 0; i < cfg->nparams; i++)
		if (rcut_repro_add(r, cfg->params[i]))
			return -1;
	return 0;
}

/* Whether arg reads the same unquoted in a POSIX shell. */
static bool shell_safe(const char *arg)
{
	if (!*arg)
		return false;
	for (; *arg; arg++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-.,:/=+@%",
			    *arg))
			return false;
	return true;
}

void rcut_repro_line(const struct rcut_repro *r, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "rcutorture");

	for (int i = 0; i < r->n && used + 1 < len; i++) {
		const char *a = r->arg[i];

		if (shell_safe(a)) {
			used += (size_t)snprintf(buf + used, len - used, " %s",
						 a);
			continue;
		}
		used += (size_t)snprintf(buf + used, len - used, " '");
		for (; *a && used + 5 < len; a++) {
			if (*a == '\'')
				used += (size_t)snprintf(buf + used, len - used,
							 "'\\''");
			else
				buf[used++] = *a;
		}
		buf[used] = '\0';
		used += (size_t)snprintf(buf + used, len - used, "'");
	}
	if (used >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

void rcut_repro_print(FILE *out, const char *tag, const struct rcut_config *cfg,
		      long ncpus)
{
	static struct rcut_repro r;
	static char line[RCUT_REPRO_BUF];

	if (rcut_repro_build(&r, cfg, ncpus))
		fprintf(stderr,
			"rcutorture: the reproduction command is too long; it is cut short\n");
	rcut_repro_line(&r, line, sizeof(line));
	fprintf(out, "%s: Reproduce: %s\n", tag, line);
}
