/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbenchctl: the subcommand table, usage and exit statuses (cli/cli.c)
 * and each subcommand's entry point (cmd/).
 */
#ifndef KBENCHCTL_H
#define KBENCHCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KBENCHCTL_VERSION	"0.1"

/* Exit codes (documented in JSON.md and the man page). */
#define EXIT_OK		0
#define EXIT_FAIL	1	/* kernel error, measurement failure */
#define EXIT_USAGE	2	/* usage error or module missing */
/* diff and run --baseline: 1 is a regression, 2 any error of theirs */
#define EXIT_REGRESSED	1

extern const char *prog;	/* "kbenchctl" */
extern bool opt_json;		/* global --json */

struct kb_opt;

struct subcommand {
	const char *name;		/* NULL: kbenchctl itself (global options) */
	int (*fn)(const struct subcommand *sc, int argc, char *argv[]);
	const char *description;
	/* after "Usage: kbenchctl "; more forms on following lines */
	const char *synopsis;
	const struct kb_opt *opts;	/* its option table, or NULL */
	unsigned int opts_in;		/* the rows of @opts it takes (their .in) */
	const char *notes;		/* printed after the options, or NULL */
};

extern const struct subcommand subcommands[];
extern const struct subcommand kb_global;	/* kbenchctl [options] */
const struct subcommand *subcommand_find(const char *name);
/* --help of @sc (the global usage for &kb_global). */
void subcommand_usage(FILE *f, const struct subcommand *sc);
/* "kbenchctl SUB: msg" + a hint to stderr; returns EXIT_USAGE. */
int usage_error(const char *sub, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The usage error for an unknown subcommand (with the known ones). */
int unknown_subcommand(const char *name);
/*
 * The exit status of a step: 0 for 0 or a positive "done" (--help was
 * printed); for -errno, a bad argument (-EINVAL)
 * or something named that does not exist (-ENOENT: a routine, a run, the
 * module) is a usage error (2); anything else a failure (1).  Only the
 * *_main functions call it: everything below them returns -errno.
 */
int kb_exit_status(int err);

int info_main(const struct subcommand *sc, int argc, char *argv[]);
int list_main(const struct subcommand *sc, int argc, char *argv[]);
int clocks_main(const struct subcommand *sc, int argc, char *argv[]);
int run_main(const struct subcommand *sc, int argc, char *argv[]);
int compare_main(const struct subcommand *sc, int argc, char *argv[]);
int samples_main(const struct subcommand *sc, int argc, char *argv[]);
int events_main(const struct subcommand *sc, int argc, char *argv[]);
int diff_main(const struct subcommand *sc, int argc, char *argv[]);
int new_main(const struct subcommand *sc, int argc, char *argv[]);
int tune_main(const struct subcommand *sc, int argc, char *argv[]);

#endif /* KBENCHCTL_H */
