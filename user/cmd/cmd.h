/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands' entry points, one file each under cmd/; the table
 * that names them is subcommands.c.  A header without a .c of its own,
 * so that cmd/ and the table do not depend on each other.
 */
#ifndef KBENCHCTL_CMD_H
#define KBENCHCTL_CMD_H

#include "base.h"	/* prog, opt_json, EXIT_*, kb_exit_status() */
#include "opts.h"	/* struct subcommand, kb_opts_parse() */

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
int baseline_main(const struct subcommand *sc, int argc, char *argv[]);

#endif /* KBENCHCTL_CMD_H */
