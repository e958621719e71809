/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replicated runs (run --runs R): the change between two sets of runs,
 * with an interval that holds the spread between runs.
 *
 * The model is the two-level one of Kalibera and Jones ("Rigorous
 * benchmarking in reasonable time", ISMM 2013): a run (its own probe,
 * warm-up, load, placement) draws an effect, and the samples of the run
 * vary around it.  Each run is summed up by one value, the natural log of
 * its median per iteration; a side's run values are taken as independent
 * draws of one normal distribution (the run effect plus the error of the
 * run's median: both levels are in their spread, which is why an
 * interval made from them holds the between-run noise, as the
 * between-unit mean square is the error term of a nested design).  The
 * change is exp(mean_b - mean_a) - 1 (the ratio of the geometric means of
 * the runs' medians) and its interval Welch's t interval of the
 * difference of the two means of logs (Welch, Biometrika 34, 1947:
 * unequal variances and run counts, Welch-Satterthwaite degrees of
 * freedom), mapped back to percent.  With 3 to 10 runs a side a bootstrap
 * over runs has too few distinct resamples to be trusted at 95%; the t
 * interval is exact under the model.
 *
 * The p-value tests what the interval decides (H0: -T <= change <= T):
 * p = 2 min(P(t >= (d - ln(1 + T)) / se), P(t <= (d - ln(1 - T)) / se)),
 * capped at 1, so that p <= alpha exactly when the interval lies beyond
 * +T or beyond -T.
 */
#ifndef KBENCHCTL_REPLIC_H
#define KBENCHCTL_REPLIC_H

#include <stdbool.h>
#include <stddef.h>

/* --runs R: at most this many runs in one invocation */
#define KB_RUNS_MAX		100
/*
 * --spacing's default: seconds between replicated runs.  Back to back,
 * runs share the host's state for the second they take, and their
 * spread missed the noise between invocations (RESULTS.md: A/A pairs of
 * separate --runs 5 invocations at --threshold 0 called a change in 6 of
 * 60 back to back, 0 of 20 with a pause of 0.3 s).
 */
#define KB_RUNS_DEFAULT_SPACING	0.3
/*
 * runs a side needs before diff uses the spread between them (with 2 the
 * t interval has 1 degree of freedom a side: wide, but honest)
 */
#define KB_RUNS_MIN		2

struct kb_runs_ci {
	/* in (zero: alpha 0.05) */
	double alpha;
	double threshold_pct;	/* T of the p-value */
	/* out */
	double est_pct;		/* exp(mean ln b - mean ln a) - 1, percent */
	double lo_pct, hi_pct;	/* the interval */
	double p;		/* H0: -T <= change <= T */
	double se, df;		/* of the difference of the mean logs */
	double gm_a, gm_b;	/* geometric means of the runs' medians */
	/* standard deviation of ln(median) x 100 (about the CV in percent) */
	double spread_a_pct, spread_b_pct;
	double spread_pct;	/* the two pooled (by their degrees of freedom) */
	/*
	 * the smallest change these runs would call 4 times in 5 beyond the
	 * threshold (80% power at this spread): T + (t(1 - alpha/2) +
	 * t(0.8)) se, as a change in percent
	 */
	double resolvable_pct;
	/* H0: change = 0 (two-sided t): what significance means */
	double p_zero;
	/*
	 * the smallest change called 4 times in 5 by the estimate rule
	 * (significant, the estimate beyond T: stats.h,
	 * kb_compare_decide_estimate()): max(T, t(1 - alpha/2) se) + t(0.8) se
	 */
	double resolvable_est_pct;
};

/*
 * The spread of @r run values @m (> 0): the standard deviation of their
 * logs x 100; *@gmean (may be NULL) their geometric mean.  NAN for fewer
 * than 2 values or one not above 0.
 */
double kb_runs_spread_pct(const double *m, unsigned int r, double *gmean);

/*
 * The change from @ra runs of a (their medians @ma) to @rb of b (@mb):
 * 0, or -EINVAL (fewer than 2 runs a side, a median not above 0).
 */
int kb_runs_interval(const double *ma, unsigned int ra, const double *mb,
		     unsigned int rb, struct kb_runs_ci *ci);

/*
 * One side a single run (its median @y), the other @r runs (@m): the
 * change from old to new (@single_is_new: the single run is the new
 * side) with the t prediction interval of one more run of the
 * replicated side, d -+ t(r - 1) s sqrt(1 + 1/r), s the replicated
 * side's spread of log medians: the single run is taken as a draw of the
 * same two-level distribution (its spread unseen, assumed the other
 * side's).  0 or -EINVAL (fewer than 2 runs, a median not above 0).
 */
int kb_runs_predict(const double *m, unsigned int r, double y,
		    bool single_is_new, struct kb_runs_ci *ci);

/*
 * Paired runs (compare --runs R: A and B interleaved in each run, so that
 * what a run shares cancels in its ratio): the one-sample t interval of
 * the runs' ln(median_b / median_a), r - 1 degrees of freedom; spread_pct
 * is their standard deviation x 100 (the between-run spread of the
 * change), spread_a_pct and spread_b_pct each routine's.  0 or -EINVAL.
 */
int kb_runs_paired(const double *ma, const double *mb, unsigned int r,
		   struct kb_runs_ci *ci);

/* Student's t with @df degrees of freedom (df > 0): CDF and quantile. */
double kb_t_cdf(double t, double df);
double kb_t_quantile(double p, double df);

#endif /* KBENCHCTL_REPLIC_H */
