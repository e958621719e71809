/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbenchctl diff: two saved results compared routine by routine (and sweep
 * value by sweep value), with a verdict per routine and an exit status
 * for scripts (CI, git bisect run).
 */
#ifndef KBENCHCTL_DIFF_H
#define KBENCHCTL_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "opts.h"
#include "resfile.h"

/*
 * Default noise threshold in percent: changes of the median smaller than
 * this are "no change" even when significant (RESULTS.md says why 2).
 */
#define KB_DIFF_DEFAULT_THRESHOLD	2.0
#define KB_DIFF_DEFAULT_SEED		1
#define KB_DIFF_MATCH_MAX		8

/* Exit status of diff and run --baseline (kbenchctl.8). */
#define EXIT_REGRESSED	1

struct kb_diff_opts {
	double threshold;		/* percent */
	uint64_t seed;			/* bootstrap */
	bool fail_changed;		/* --fail-on changed (else regressed) */
	bool markdown;
	unsigned int nmatch;		/* --match OLD=NEW */
	const char *match_old[KB_DIFF_MATCH_MAX];
	const char *match_new[KB_DIFF_MATCH_MAX];
};

void kb_diff_opts_init(struct kb_diff_opts *o);

/*
 * Parse one of the diff options shared by `diff` and `run --baseline`
 * (--threshold, --seed, --fail-on, --markdown, --match) given as getopt
 * option @c with @arg.  1 handled, 0 not a diff option, -1 usage error
 * (printed for subcommand @sub).
 */
enum {
	OPT_DIFF_THRESHOLD = 0x3000, OPT_DIFF_SEED, OPT_DIFF_FAIL_ON,
	OPT_DIFF_MARKDOWN, OPT_DIFF_MATCH,
};
#define OPTS_DIFF \
	{ "threshold", required_argument, NULL, OPT_DIFF_THRESHOLD }, \
	{ "seed", required_argument, NULL, OPT_DIFF_SEED }, \
	{ "fail-on", required_argument, NULL, OPT_DIFF_FAIL_ON }, \
	{ "markdown", no_argument, NULL, OPT_DIFF_MARKDOWN }, \
	{ "match", required_argument, NULL, OPT_DIFF_MATCH }
int kb_diff_opt(struct kb_diff_opts *o, const char *sub, int c, char *arg);

/*
 * Compare @new against @old (their runs are analyzed here) and print the
 * report: a table (or Markdown with o->markdown), or the members of a JSON
 * object opened as @key (NULL: the document's top level).  Returns the exit
 * status: EXIT_OK, EXIT_REGRESSED (a regression beyond the threshold, or
 * any change with fail_changed), EXIT_USAGE (nothing in common, or out of
 * memory: printed).
 */
int kb_diff_print(const char *key, const char *old_name, struct kb_resfile *old,
		  const char *new_name, struct kb_resfile *new,
		  const struct kb_diff_opts *o);

/*
 * --save and --baseline of `run` (and --save of `compare`): the options,
 * the baseline loaded before measuring (a bad file fails fast), and the
 * report after it.
 */
struct kb_results_opts {
	const char *save, *baseline;
	struct kb_diff_opts diff;
	bool diff_opt_seen;		/* a diff option without --baseline */
	struct kb_resfile base;
	bool base_loaded;
};

enum { OPT_RESULTS_SAVE = 0x3100, OPT_RESULTS_BASELINE };
#define OPTS_RESULTS \
	OPTS_DIFF, \
	{ "save", required_argument, NULL, OPT_RESULTS_SAVE }, \
	{ "baseline", required_argument, NULL, OPT_RESULTS_BASELINE }

void kb_results_init(struct kb_results_opts *x);
/* As kb_diff_opt, for OPTS_RESULTS. */
int kb_results_opt(struct kb_results_opts *x, const char *sub, int c,
		   char *arg);
/* After parsing: check the combination, load the baseline.  0 or EXIT_USAGE. */
int kb_results_prepare(struct kb_results_opts *x, const char *sub);
/*
 * Save @n runs with their requests (--save); @argv is the subcommand's.
 * 0, or EXIT_FAIL (printed).
 */
int kb_results_save(struct kb_results_opts *x, const struct kb_run *const *runs,
		    const struct kb_run_req *const *reqs, unsigned int n,
		    int argc, char *argv[]);
/*
 * Print run @r (as `run` does) and, with --baseline, the diff against it
 * ({"run": ..., "diff": ...} in JSON).  Returns the diff's exit status
 * (EXIT_OK without --baseline).
 */
int kb_results_report(struct kb_results_opts *x, const struct kb_run *r,
		      const struct kb_run_req *q, unsigned int print_flags,
		      int argc, char *argv[]);
void kb_results_free(struct kb_results_opts *x);

#endif /* KBENCHCTL_DIFF_H */
