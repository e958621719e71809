/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Option tables (after ethtool's param_parser): one row per option says its
 * name, the kind of its argument, the accepted range, the field it fills,
 * the netlink attribute that carries it and its help line.  One parser
 * reads every subcommand's options from its table, with the same checks
 * and messages everywhere, and `--help` is generated from the same rows.
 *
 * Adding an option is adding a row, plus the code that uses the value.
 */
#ifndef KBENCHCTL_OPTS_H
#define KBENCHCTL_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base.h"

struct kb_opt;

/* A subcommand (subcommands.c's table): what the parser and --help read. */
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

/* --help of @sc (the global usage for &kb_global; cli/opts.c). */
void subcommand_usage(FILE *f, const struct subcommand *sc);

enum kb_opt_kind {
	KB_OPT_FLAG,		/* bool; no argument */
	KB_OPT_U32,		/* uint32_t within [min, max] */
	KB_OPT_U64,		/* uint64_t within [min, max] */
	KB_OPT_DOUBLE,		/* finite double within [min, max] */
	KB_OPT_STRING,		/* const char *: the argument itself */
	KB_OPT_CHOICE,		/* int: index of the argument in choices[] */
};

struct kb_opt {
	const char *name;		/* long name, without "--" */
	char short_name;		/* -x, or 0 */
	enum kb_opt_kind kind;
	const char *metavar;		/* "N", "FILE", "PCT" (not for flags) */
	/*
	 * Numbers: the accepted range.  min == max == 0: the whole range of
	 * the type (no range is shown).  For doubles max == 0 means no upper
	 * bound.
	 */
	double min, max;
	const char *const *choices;	/* KB_OPT_CHOICE: NULL-terminated */
	/*
	 * Instead of the kind's own parser (argument lists, sweeps): store
	 * @arg's value into @field; on error print a message with
	 * kb_opt_error() and return -EINVAL.
	 */
	int (*parse)(const struct kb_opt *o, const char *arg, void *field);
	size_t off;			/* the field in the target struct */
	size_t given;			/* KB_OPT_GIVEN(): a bool set when given */
	unsigned int in;		/* subcommands of the table (mask); 0: all */
	/*
	 * The request attribute that carries the value: names the option
	 * when the kernel's extended ack points at that attribute.
	 */
	uint8_t cmd;
	uint16_t attr;
	bool kernel_only;		/* refused with --user (needs .given) */
	/* INFO attribute holding the module's own maximum (x info_scale) */
	uint16_t info_max;
	uint32_t info_scale;
	const char *info_param;		/* the module parameter behind it */
	const char *help;		/* one line, lower case, no period */
	/*
	 * The default, shown in --help.  Rows without a `given` flag get it
	 * parsed into their field before the arguments; with one it is the
	 * consumer's default (the kernel's or the twins'), shown only.
	 */
	const char *def;
};

/* .off and .given of a row (the given flag is optional). */
#define KB_OPT_FIELD(type, field)	.off = offsetof(type, field)
#define KB_OPT_GIVEN(type, flag)	.given = offsetof(type, flag) + 1

/* the subcommands' tables */
extern const struct kb_opt kb_info_table[];
extern const struct kb_opt kb_list_table[];
extern const struct kb_opt kb_clocks_table[];
extern const struct kb_opt kb_samples_table[];
extern const struct kb_opt kb_events_table[];
extern const struct kb_opt kb_tune_table[];
extern const struct kb_opt kb_run_table[];	/* run and compare */
extern const struct kb_opt kb_new_table[];
extern const struct kb_opt kb_export_table[];
extern const struct kb_opt kb_history_table[];
extern const struct kb_opt kb_baseline_table[];

/* the options every subcommand takes */
struct kb_common_opts {
	bool json, help, version;
	int color;			/* enum kb_color_when (color.h) */
};
extern struct kb_common_opts kb_common;
extern const struct kb_opt kb_common_table[];

/*
 * Parse @argv (argv[0]: the subcommand, or the program for sc->name NULL)
 * into @target with @sc's table and the common options.  The global
 * options stop at the first argument that is not an option; a
 * subcommand's may come anywhere.  Returns 0 with *first the index of the
 * first positional argument, 1 when --help was printed, or -EINVAL after
 * a message on stderr.
 */
int kb_opts_parse(const struct subcommand *sc, int argc, char *argv[],
		  void *target, int *first);

/* The option lines of @sc's --help. */
void kb_opts_usage(FILE *f, const struct subcommand *sc);

/* The kind's own parser (for .parse hooks that check more). */
int kb_opt_parse_value(const struct kb_opt *o, const char *arg, void *field);

/*
 * A .parse hook for --cpu N (a uint32_t field): a number, and a CPU that
 * is online here ("--cpu 7: no such CPU (online: 0-1)").
 */
int kb_opt_parse_cpu(const struct kb_opt *o, const char *arg, void *field);

/* "kbenchctl SUB: --name ARG: <message>" on stderr; returns -EINVAL. */
int kb_opt_error(const struct kb_opt *o, const char *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The value of a given option row whose module maximum comes from INFO:
 * checked against @info_u32[attr] (0: unknown).  -EINVAL with
 * "--samples 2000000: at most 1000000 (module parameter max_samples)".
 */
int kb_opts_check_info(const struct kb_opt *t, unsigned int in,
		       const void *target, const uint32_t *info_u32,
		       size_t ninfo);

/* Levenshtein distance (for "did you mean"), capped at 9. */
unsigned int kb_edit_distance(const char *a, const char *b);

/*
 * For subcommands without positional arguments: kb_opts_parse() and an
 * error for any argument left.  0, 1 after --help, or -EINVAL (printed).
 */
int kb_opts_parse_noargs(const struct subcommand *sc, int argc, char *argv[],
			 void *target);

/* Strict number parsing: whole string, base 10, within range. 0 or -1. */
int parse_u32(const char *s, uint32_t *out);
int parse_u64(const char *s, uint64_t *out);
int parse_double(const char *s, double *out);

#endif /* KBENCHCTL_OPTS_H */
