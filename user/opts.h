/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Option parsing shared by the subcommands: getopt_long with our own error
 * messages (exit status 2) and the common --json / --help.
 */
#ifndef KBENCHCTL_OPTS_H
#define KBENCHCTL_OPTS_H

#include <getopt.h>

#include "kbenchctl.h"

#define OPT_JSON	0x1000
#define OPT_HELP	'h'

#define OPTS_COMMON \
	{ "json", no_argument, NULL, OPT_JSON }, \
	{ "help", no_argument, NULL, OPT_HELP }

/*
 * Next option, or -1 at the end.  Handles --json and --help itself
 * (*exit_code = EXIT_OK, returns -2) and errors (*exit_code = EXIT_USAGE,
 * returns -2).
 */
int opts_next(int argc, char *argv[], const char *shortopts,
	      const struct option *longopts, int *exit_code);

struct kb_nl;

/*
 * For subcommands that take only the common options: parse them and open
 * the kbench family.  -1 with @nl open, or the exit status to return
 * (--help, a usage error, the module missing).
 */
int opts_none_open(int argc, char *argv[], const char *sub, struct kb_nl *nl);

/* The value of a numeric option, or a usage error. */
int opt_u32(const char *sub, const char *name, const char *arg, uint32_t *v);

#endif /* KBENCHCTL_OPTS_H */
