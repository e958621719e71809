/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options of run, compare and diff: one table, parsed once, with the
 * same checks for all (see opts.h for the table's rows); run --baseline
 * takes diff's own rows.
 */
#ifndef KBENCHCTL_RUNOPTS_H
#define KBENCHCTL_RUNOPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "diff.h"
#include "run.h"

/* the rows' .in: which of the subcommands takes them */
#define KB_IN_RUN	0x1
#define KB_IN_COMPARE	0x2
#define KB_IN_DIFF	0x4
#define KB_IN_MEASURE	(KB_IN_RUN | KB_IN_COMPARE)
#define KB_IN_ALL	(KB_IN_MEASURE | KB_IN_DIFF)

/* the userspace twins keep every sample in memory */
#define KB_RUN_USER_SAMPLES_MAX	10000000

struct kb_run_opts {
	struct kb_run_req q;	/* routines, cpu, samples, iterations, ... */
	bool user, verbose;
	bool hist, log, raw, csv;	/* run */
	const char *svg;
	bool log_x;
	double threshold;		/* compare */
	bool kvu;			/* compare --kernel-vs-user */
	const char *save;		/* run, compare: FILE|NAME */
	const char *baseline;		/* run */
	struct kb_diff_opts diff;	/* diff, run --baseline; compare's seed */
	bool check;			/* diff --check */
};

/*
 * Parse run's or compare's arguments (the routines included) and check
 * how the options go together.  0, 1 after --help, or -EINVAL (printed).
 * (diff parses its own arguments, diff.c.)
 */
int kb_run_opts_parse(const struct subcommand *sc, int argc, char *argv[],
		      struct kb_run_opts *o);

/*
 * Before a kernel run: the routines are registered and the options within
 * the module's own limits (INFO).  0, or -errno after a message naming
 * the routine or the option (-ENOENT: the module or a routine missing).
 */
int kb_run_opts_check_module(const struct kb_run_opts *o, unsigned int in);

/*
 * Are @names registered?  0, or -ENOENT after
 * "no routine 'x' (kbenchctl list shows 6)" (with a near name if any).
 */
struct kb_nl;
int kb_routines_check(struct kb_nl *nl, const char *const *names,
		      unsigned int n);

/*
 * Count event @name too, unless @q counts it already (perhaps by another
 * name).  0, -EINVAL (no event name), -E2BIG (KBENCH_EVENTS_MAX already).
 */
int kb_run_req_add_event(struct kb_run_req *q, const char *name);

#endif /* KBENCHCTL_RUNOPTS_H */
