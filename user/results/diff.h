/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbenchctl diff: two saved results compared routine by routine (and sweep
 * value by sweep value), with a verdict per routine and an exit status
 * for scripts (CI, git bisect run).  Its options are rows of run's table
 * (runopts.c), so that `run --baseline` takes exactly the same ones.
 */
#ifndef KBENCHCTL_DIFF_H
#define KBENCHCTL_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "resfile.h"

/*
 * Default noise threshold in percent: changes of the median smaller than
 * this are "no change" even when significant (RESULTS.md says why 2).
 */
#define KB_DIFF_DEFAULT_THRESHOLD	2
#define KB_DIFF_DEFAULT_SEED		1
#define KB_DIFF_MATCH_MAX		8

/* --fail-on */
enum kb_diff_fail_on { KB_DIFF_FAIL_REGRESSED, KB_DIFF_FAIL_CHANGED };
extern const char *const kb_diff_fail_on_choices[];

struct kb_diff_opts {
	double threshold;		/* percent */
	uint64_t seed;			/* bootstrap */
	int fail_on;			/* enum kb_diff_fail_on */
	bool markdown;
	bool bisect;			/* --bisect: 125 when it cannot tell */
	/* --trust-single: a change between single runs exits 1 too */
	bool trust_single;
	bool full;			/* -v: every figure, the notes */
	const char *metric;		/* --metric EVENT; NULL: cycles */
	/* given on the command line (run: only with --baseline) */
	bool has_threshold, has_seed, has_fail_on;
	unsigned int nmatch;		/* --match OLD=NEW */
	const char *match_old[KB_DIFF_MATCH_MAX];
	const char *match_new[KB_DIFF_MATCH_MAX];
	char match_buf[KB_DIFF_MATCH_MAX][2 * (KBENCH_NAME_MAX + 1)];
};

/* The defaults (the rows' given flags say what the user changed). */
void kb_diff_opts_init(struct kb_diff_opts *o);
/* "--threshold" etc.: the first diff option given, or NULL. */
const char *kb_diff_opts_given(const struct kb_diff_opts *o);

/* The verdict of one routine's row. */
enum kb_row_verdict {
	KB_ROW_NO_CHANGE, KB_ROW_IMPROVED, KB_ROW_REGRESSED, KB_ROW_NA
};
extern const char *const kb_row_verdict_name[];

/* One routine of the old result against the same one in the new. */
struct kb_diff_row {
	const struct kb_saved_run *os, *ns;
	const struct kb_result *o, *n;
	/* what is compared: the counter's samples, or --metric's event's */
	const double *osorted, *nsorted;
	const struct kb_stats *ost, *nst;
	bool ns_unit;			/* compared in ns (counters differ) */
	double old_med, new_med;	/* per iteration, in the unit */
	double old_med_ns, new_med_ns;
	struct kb_compare c;
	double u;
	enum kb_row_verdict verdict;
	const char *why_na;
	/*
	 * the medians in the file's unit (cycles, or the --metric event's
	 * counts; replicated: the geometric mean of the runs' medians) and
	 * the valid samples (of every run compared)
	 */
	double old_med_cyc, new_med_cyc;
	size_t old_valid, new_valid;
	/*
	 * replicated runs (c.runs_a or c.runs_b at least KB_RUNS_MIN): the
	 * interval between runs (model/replic.h), a prediction interval
	 * when one side is a single run (predicted); the threshold used
	 * (--threshold's; threshold_is_spread is never set now: the
	 * spread is reported as what the runs resolve)
	 */
	bool replicated, predicted;
	/* one run a side: its interval holds no run-to-run noise */
	bool single;
	double threshold_used;
	bool threshold_is_spread;
	double spread_old_pct, spread_new_pct;
	double df;
	double resolvable_pct;
};

/* What else differs between the two (warnings, notes), each once. */
#define KB_DIFF_NOTES_MAX	64
struct kb_diff_notes {
	unsigned int n;
	char text[KB_DIFF_NOTES_MAX][200];
};

/* The comparison of two results. */
struct kb_diff {
	struct kb_diff_row *rows;	/* the routines both have */
	size_t nrows;
	size_t counts[4];		/* rows per enum kb_row_verdict */
	size_t inconclusive;		/* of counts[KB_ROW_NO_CHANGE] */
	bool match_used[KB_DIFF_MATCH_MAX];	/* --match pairs that matched */
	/* [run][routine]: matched (or a duplicate); the others are "only in" */
	bool (*used_old)[KBENCH_RUN_ROUTINES_MAX];
	bool (*used_new)[KBENCH_RUN_ROUTINES_MAX];
	struct kb_diff_notes warn, note;
	size_t replicated;		/* rows compared between runs */
	/*
	 * a routine regressed (or changed, with --fail-on changed) between
	 * replicated runs, or between single runs with --trust-single
	 */
	bool regressed;
	/* rows that would have, between single runs (not an exit 1) */
	size_t untrusted;
	int status;			/* kb_diff_exit_status()'s verdict part */
};

/*
 * Compare @new against @old (their runs are analyzed here) into @d: 0, or
 * -ENOMEM (@d still to be freed).
 */
int kb_diff_compute(struct kb_diff *d, const char *old_name,
		    struct kb_resfile *old, const char *new_name,
		    struct kb_resfile *new, const struct kb_diff_opts *o);
void kb_diff_free(struct kb_diff *d);
/* The sweep argument of routine @r of @s into *@a: whether it has one. */
bool kb_diff_arg_of(const struct kb_saved_run *s, const struct kb_result *r,
		    uint64_t *a);

/* --bisect: git bisect run's "cannot test this commit" */
#define KB_DIFF_EXIT_SKIP	125

/*
 * The exit status of diff and run --baseline (kbenchctl.8): @status (0
 * no regression, or --help printed; 1 a regression; 125 with --bisect
 * when a routine is inconclusive or changed only between single runs)
 * unless @err, then 2 for any error of theirs (a bad option, an
 * unreadable or invalid result file, nothing in common).
 */
int kb_diff_exit_status(int err, int status);

/*
 * Results just measured: @n runs (one, or the kernel and the userspace
 * run of compare --kernel-vs-user) with their requests and the metadata
 * of now, as a result file that shares the runs' samples (nothing to
 * free; do not copy: rf.runs points into s).
 */
struct kb_results {
	struct kb_resfile rf;
	struct kb_saved_run s[2];
	struct kb_saved_run *many;	/* kb_results_build_runs() */
};

void kb_results_build(struct kb_results *x, const struct kb_run *const *runs,
		      const struct kb_run_req *const *reqs, unsigned int n,
		      int argc, char *argv[]);
/*
 * The same for @n replicated runs of one request @q (run --runs N): each
 * saved with its index ("replicate") when n > 1.  0 or -ENOMEM; free
 * with kb_results_free().
 */
int kb_results_build_runs(struct kb_results *x, const struct kb_run *runs,
			  unsigned int n, const struct kb_run_req *q,
			  int argc, char *argv[]);
void kb_results_free(struct kb_results *x);

/* --save FILE|NAME of run and compare: 0 or -errno (printed). */
int kb_results_save(const char *arg, const struct kb_results *x);

/* --baseline FILE|NAME, loaded before measuring: 0 or -errno (printed). */
int kb_baseline_load(const char *sub, const char *arg, struct kb_resfile *base);

#endif /* KBENCHCTL_DIFF_H */
