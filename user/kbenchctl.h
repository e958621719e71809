/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbenchctl: shared declarations of the subcommands and their helpers.
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

extern const char *prog;	/* "kbenchctl" */
extern bool opt_json;		/* global --json */

struct subcommand {
	const char *name;
	int (*fn)(int argc, char *argv[]);
	const char *description;
	const char *usage;	/* synopsis and options, for --help / help SUB */
};

extern const struct subcommand subcommands[];
const struct subcommand *subcommand_find(const char *name);
void subcommand_usage(FILE *f, const struct subcommand *sc);
/* Print "kbenchctl SUB: msg" + a hint to stderr; returns EXIT_USAGE. */
int usage_error(const char *sub, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int info_main(int argc, char *argv[]);
int list_main(int argc, char *argv[]);
int clocks_main(int argc, char *argv[]);
int run_main(int argc, char *argv[]);
int compare_main(int argc, char *argv[]);
int samples_main(int argc, char *argv[]);
int diff_main(int argc, char *argv[]);

/* Strict number parsing: whole string, base 10, within range. 0 or -1. */
int parse_u32(const char *s, uint32_t *out);
int parse_u64(const char *s, uint64_t *out);
int parse_double(const char *s, double *out);

#endif /* KBENCHCTL_H */
