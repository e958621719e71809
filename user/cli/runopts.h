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

#include "asm.h"
#include "diff.h"
#include "result.h"
#include "sweep.h"
#include "sysfs.h"

/* the rows' .in: which of the subcommands takes them */
#define KB_IN_RUN	0x1
#define KB_IN_COMPARE	0x2
#define KB_IN_DIFF	0x4
#define KB_IN_MEASURE	(KB_IN_RUN | KB_IN_COMPARE)
#define KB_IN_ALL	(KB_IN_MEASURE | KB_IN_DIFF)

/* the userspace twins keep every sample in memory */
#define KB_RUN_USER_SAMPLES_MAX	10000000

/* --precision, --max-time: how long sampling until answered may take */
#define KB_UNTIL_DEFAULT_MAX_TIME	10
/* compare's --threshold, percent (with --precision P: P) */
#define KB_COMPARE_DEFAULT_THRESHOLD	1

/* What the module (ROUTINE_GET) or the twin table says of a routine. */
struct kb_routine_info {
	bool found;
	bool has_arg;
	char arg_name[KBENCH_ARG_NAME_MAX + 1];
	uint64_t arg_min, arg_max, arg_def;
	uint32_t flags;
};

/* --cpus LIST|all and --each-cpu */
struct kb_cpus_sel {
	const char *spec;	/* --cpus as given; NULL: not given */
	struct kb_cpuset set;	/* its CPUs */
	bool each;		/* --each-cpu: one after another */
	unsigned int lo, hi;	/* --cpus A..K: CPU counts (hi 0: a list) */
};

/*
 * A .parse hook for --cpus LIST|all|A..K (a struct kb_cpus_sel field):
 * distinct online CPUs, as taskset lists them ("--cpus 0,0: CPU 0 is
 * listed twice"), every online one, or a sweep over CPU counts.
 */
struct kb_opt;
int kb_opt_parse_cpus(const struct kb_opt *o, const char *arg, void *field);

/* --unit: what the figures count (kb_unit_choices) */
enum { KB_UNIT_TICKS, KB_UNIT_CORE };
extern const char *const kb_unit_choices[];

struct kb_run_opts {
	struct kb_run_req q;	/* routines, cpu, samples, iterations, ... */
	struct kb_sweep sweep;	/* --arg */
	bool has_sweep;
	int fit;		/* --fit: index in kb_fit_choices */
	bool has_fit;
	bool routine_args;	/* NAME:ARG given: q.args are per routine */
	struct kb_routine_info info[KBENCH_RUN_ROUTINES_MAX];
	bool user, verbose;
	int unit;			/* --unit: KB_UNIT_* */
	struct kb_asm asm_;		/* --asm, --unroll, --keep */
	bool has_unroll;
	bool hist, log, raw, csv;	/* run */
	const char *svg;
	bool log_x;
	double threshold;		/* compare */
	bool has_threshold;
	double precision;		/* --precision PCT (0: none) */
	bool has_precision;
	bool until_resolved;		/* compare --until-resolved */
	double max_time;		/* --max-time S */
	bool has_max_time;
	bool kvu;			/* compare --kernel-vs-user */
	const char *save;		/* run, compare: FILE|NAME */
	const char *baseline;		/* run */
	const char *commit;		/* run, compare: --commit REV (meta.c keeps it) */
	struct kb_diff_opts diff;	/* diff, run --baseline; compare's seed */
	bool check;			/* diff --check */
	struct kb_cpus_sel cpus;	/* run --cpus, --each-cpu */
	uint32_t runs;			/* run --runs R: replicated runs */
	bool has_runs;
	const char *between;		/* run --between CMD: before runs 2..R */
	double spacing;			/* --spacing S: a pause before runs 2..R */
	bool has_spacing;
};

/*
 * Parse run's or compare's arguments (the routines included) and check
 * how the options go together.  0, 1 after --help, or -EINVAL (printed).
 * (diff parses its own arguments, diff.c.)
 */
int kb_run_opts_parse(const struct subcommand *sc, int argc, char *argv[],
		      struct kb_run_opts *o);

/*
 * Before a kernel run: the routines are registered, the options within
 * the module's own limits (INFO) and the arguments within the routines'
 * ranges (ROUTINE_GET, into o->info).  0, or -errno after a message
 * naming the routine or the option (-ENOENT: the module or a routine
 * missing; -EINVAL: an argument out of range or for a routine without
 * one).
 */
int kb_run_opts_check_module(struct kb_run_opts *o,
			     const struct subcommand *sc);

/* The same for the userspace twins (--user): o->info from their table. */
int kb_run_opts_check_twins(struct kb_run_opts *o, const char *sub);

struct nlattr;
/* A ROUTINE_GET entry's argument and flags into @in. */
void kb_routine_info_fill(struct nlattr **tb, struct kb_routine_info *in);
/*
 * Are @names registered?  0, or -ENOENT after
 * "no routine 'x' (kbenchctl list shows 6)" (with a near name if any).
 * @info (may be NULL): what ROUTINE_GET says of each.
 */
struct kb_nl;
int kb_routines_check(struct kb_nl *nl, const char *const *names,
		      unsigned int n, struct kb_routine_info *info);

/*
 * Count event @name too, unless @q counts it already (perhaps by another
 * name).  0, -EINVAL (no event name), -E2BIG (KBENCH_EVENTS_MAX already).
 */
int kb_run_req_add_event(struct kb_run_req *q, const char *name);

#endif /* KBENCHCTL_RUNOPTS_H */
