/* SPDX-License-Identifier: MIT */
/*
 * --replay FILE.json: read back what a --json report says about its run
 * (the "config.args" list: the arguments that reproduce it, as the repro
 * line has them) so that cmd/options.c can apply them as if given there.
 */
#ifndef CMD_REPLAY_H
#define CMD_REPLAY_H

#include <stddef.h>

struct rcut_replay {
	char *path;
	int argc;    /* argv[0] is "rcutorture", then config.args */
	char **argv; /* NULL-ended, each string owned */
};

/*
 * Read FILE as a report of rcutorture's JSON format 1 and take its
 * config.args.  Returns 0, or -1 with a one-line reason naming --replay
 * and the file in err; r must be freed with rcut_replay_free() either way.
 */
int rcut_replay_load(struct rcut_replay *r, const char *file, char *err,
		     size_t errlen);

/* Free what r holds (not r itself). */
void rcut_replay_free(struct rcut_replay *r);

/*
 * The member key of o if o is a JSON object that has it, else NULL (for
 * reading our own reports: --replay and --minimize's trial runs).
 */
struct json_object;
struct json_object *rcut_json_member(struct json_object *o, const char *key);

#endif /* CMD_REPLAY_H */
