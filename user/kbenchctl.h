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

#include "base.h"	/* prog, opt_json, EXIT_*, kb_exit_status() */

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
	/* kb_global: the subcommands its --help lists */
	const struct subcommand *subs;
};

extern const struct subcommand subcommands[];
extern const struct subcommand kb_global;	/* kbenchctl [options] */
const struct subcommand *subcommand_find(const char *name);
/* --help of @sc (the global usage for &kb_global; cli/opts.c). */
void subcommand_usage(FILE *f, const struct subcommand *sc);
/* The usage error for an unknown subcommand (with the known ones). */
int unknown_subcommand(const char *name);
/*
 * The option or argument behind attribute @attr of request @cmd, with its
 * value from the request (@data, @len): "--cpu 7", "routine 'foo'".
 * Returns false when no option maps to it.  kbenchctl hands it to the
 * netlink layer (kb_nl_set_attr_namer()), which names the option of a
 * kernel error with it.
 */
bool kb_opts_name_attr(uint8_t cmd, uint16_t attr, const void *data,
		       size_t len, char *buf, size_t size);

int info_main(const struct subcommand *sc, int argc, char *argv[]);
int list_main(const struct subcommand *sc, int argc, char *argv[]);
int clocks_main(const struct subcommand *sc, int argc, char *argv[]);
int run_main(const struct subcommand *sc, int argc, char *argv[]);
int compare_main(const struct subcommand *sc, int argc, char *argv[]);
int samples_main(const struct subcommand *sc, int argc, char *argv[]);
int events_main(const struct subcommand *sc, int argc, char *argv[]);
int diff_main(const struct subcommand *sc, int argc, char *argv[]);
int new_main(const struct subcommand *sc, int argc, char *argv[]);
int export_main(const struct subcommand *sc, int argc, char *argv[]);
int history_main(const struct subcommand *sc, int argc, char *argv[]);
int tune_main(const struct subcommand *sc, int argc, char *argv[]);

#endif /* KBENCHCTL_H */
