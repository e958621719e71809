/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intervals of the relative difference of two medians that hold when the
 * samples are serially dependent (drift, caches, the host: the samples of
 * one run are), by resampling blocks of consecutive samples instead of
 * single samples.
 *
 *   paired       one interleaved run: sample i of A and sample i of B were
 *                taken in round i (the engine's rotation), so rounds are
 *                resampled whole, A and B together: what the two share
 *                (drift, a noisy neighbour) stays matched in every
 *                resample and cancels in the difference as it does in the
 *                estimate.
 *   independent  two runs (diff of two files): each series resampled in
 *                blocks of its own, the two independently.
 *   runs         R replicated runs per side (run --runs): runs resampled,
 *                then blocks of rounds within each drawn run (a two-stage
 *                bootstrap), so that the spread between runs is in the
 *                interval.
 *
 * The resampling is the circular block bootstrap (Politis and Romano,
 * "A circular block-resampling procedure for stationary data", 1992; the
 * moving-block bootstrap of Kuensch, 1989, without its end effects).  The
 * block length is chosen from the data by the automatic rule of Politis
 * and White (Econometric Reviews 23, 2004) with the correction of Patton,
 * Politis and White (2009), applied to the median's influence function
 * sign(x - median) (the median is, to first order, a mean of it), capped
 * at min(3 sqrt(n), n / 3).  What the block bootstrap's variance still
 * misses at that length (G / (b g), Kuensch 1989; the bias term of
 * Politis and White's rule, estimated by it) is put back by scaling each
 * resampled median's deviation from the estimate (at most by sqrt(2)),
 * and by t / z for the few blocks (Student's t with n / (2 b) - 1
 * degrees of freedom, as batch means do).
 *
 * The interval is the percentile interval of the resampled relative
 * differences, its bounds order statistics: the 95% interval of R
 * resamples is the (floor(0.025 R) + 1)-th smallest to the as many-th
 * largest.  The p-value comes from the same resamples and tests what the
 * interval decides: p = 2 min(#{d* <= T}, #{d* >= -T}) / R (capped at 1)
 * for the threshold T >= 0, so that p <= 0.05 exactly when the whole
 * interval lies beyond +T or beyond -T.  Above KB_BOOT_WORK_MAX drawn
 * values per side fewer resamples are drawn and the interval is the
 * normal one from their standard deviation (est +- z sd; p likewise).
 * Deterministic: the same seed gives the same interval.
 */
#ifndef KBENCHCTL_BLOCKBOOT_H
#define KBENCHCTL_BLOCKBOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KB_BOOT_RESAMPLES	2000
/* values drawn per side over all resamples before the normal interval */
#define KB_BOOT_WORK_MAX	100000000.0
#define KB_BOOT_RESAMPLES_MIN	100

struct kb_boot {
	/* in (zero: the defaults: 2000 resamples, alpha 0.05) */
	unsigned int resamples;
	uint64_t seed;
	double alpha;		/* two-sided level of the interval */
	double threshold_pct;	/* T of the p-value */
	bool want_normal;	/* the normal interval whatever n (small alpha) */
	/*
	 * paired: the blocks' degrees of freedom (n / (2 b) - 1, at least
	 * 2; 0: none), so that a normal interval at a level other than 95%
	 * takes t's quantile at its tail in place of z's (the resamples
	 * carry t / z at 95% already: inflation())
	 */
	double df;
	/* out */
	double est_pct;		/* median(b) / median(a) - 1, percent */
	double lo_pct, hi_pct;	/* the interval */
	double sd_pct;		/* standard deviation of the resamples */
	double p;		/* H0: -T <= change <= T (T = 0: no change) */
	double block_a, block_b;	/* block lengths (samples or rounds) */
	size_t rounds;		/* paired: rounds; else samples of a */
	unsigned int drawn;	/* resamples drawn */
	bool normal;		/* the normal interval (large n) */
	/*
	 * runs: the spread between runs, the standard deviation of the
	 * runs' medians in percent of their median (not a MAD)
	 */
	double spread_a_pct, spread_b_pct;
};

/*
 * Politis-White block length (circular block bootstrap) of the mean of
 * @x (NAN values count as the mean); 1 for fewer than 8 values or no
 * dependence.  @g_ratio (may be NULL): G / g of the estimate, so that the
 * block bootstrap's variance falls short by G / (b g).
 */
double kb_block_length_mean(const double *x, size_t n, double *g_ratio);
/* The same for the median: of sign(x - median(x)). */
double kb_block_length_median(const double *x, size_t n, double *g_ratio);
/*
 * The check across time scales (batch medians at n/2 ... n/32 against
 * the block length @b): the factor (>= 1) that widens the interval of
 * the median of @x when a longer scale varies significantly more than
 * the blocks allow (level switching); *@ratio, *@len (may be NULL): that
 * scale's variance ratio and batch length (0: none counts).  The scales
 * of 2 and 3 batches widen at most KB_BATCH_FEW_CAP times what the
 * others do (blockboot.c).
 */
#define KB_BATCH_FEW_CAP	2.0
double kb_batch_widen(const double *x, size_t n, double b, double *ratio,
		      size_t *len);
/*
 * The 95% interval of the median of the series @x[0..n) (time order, NAN
 * excluded), whose @k valid values are @sorted and whose statistics
 * (kb_stats_sorted()) are @st: @st's order-statistic interval (which
 * takes the samples as independent) widened about the median by the factor the
 * block bootstrap's interval would have (the block length, its bias, t
 * for few blocks, the check across time scales: blockboot.c); returns
 * the factor (1: left as it was; never below 1).  Identical values keep
 * [x, x].  @st->ci_coverage stays the order-statistic interval's.
 */
struct kb_stats;
double kb_median_ci_series(const double *x, size_t n, const double *sorted,
			   size_t k, struct kb_stats *st);
/*
 * The stability verdict's check across time scales (level switching):
 * the samples' van der Waerden normal scores (ranks: the check is
 * distribution-free for independent samples, and a level shift moves
 * the scores of every sample, where sgn(x - median) keeps a third of
 * it), their long-run variance from overlapping batch means at n/2, n/3,
 * n/4, n/8, n/16, n/32 against the same at twice their Politis-White
 * block length (at most 2 n^(1/3): switching would lengthen it until the
 * reference held the switching); each scale's ratio as
 * chi-square(1.5 (k - 1)) / df for its k
 * batches (Wilson-Hilferty) to a p-value.  Returns the smallest p (1: no
 * scale, fewer than 64 values); *@len, *@ratio (may be NULL): that
 * scale's batch length and ratio.  The verdict flags a p below
 * KB_SCALES_P_CRIT: half of 0.025, the point at which this check alone
 * flagged independent samples of 1000 5% of the time (simulated;
 * RESULTS.md); the other half is the segment scan's (kb_shift_scan()),
 * the two together flagging about 4.3%.
 */
#define KB_SCALES_P_CRIT	0.0125
double kb_scales_check(const double *x, size_t n, size_t *len,
		       double *ratio);
/*
 * The stability verdict's scan for a shifted stretch (an excursion to
 * another level and back, or one shift, near an edge too): circular
 * binary segmentation's statistic (Olshen, Venkatraman, Lucito and
 * Wigler, Biostatistics 5, 2004) on the samples' van der Waerden normal
 * scores, the largest over all segments (i, j] of |S(i, j) - m S / n| /
 * sqrt(sigma^2 m (n - m) / n), m = j - i at least the scores' block
 * length (and KB_SHIFT_MIN), sigma^2 the scores' variance times the
 * dependence factor (long-run variance over variance) of their residuals
 * around the two levels of the best segment (prewhitened by AR(1), then
 * the flat-top lag window: the short-range dependence a stationary run
 * has); its p from Siegmund's
 * approximation of the maximum's tail (blockboot.c).  Above
 * KB_SHIFT_GRID samples the segments start and end on KB_SHIFT_GRID
 * even grid points.  Returns p (1: fewer than 64 values, nothing to
 * scan); @sh: the segment [from, to) and the statistic.  The verdict
 * flags p below KB_SHIFT_P_CRIT.
 */
#define KB_SHIFT_MIN		10
#define KB_SHIFT_GRID		2048
#define KB_SHIFT_P_CRIT		0.0125
struct kb_shift {
	size_t from, to;	/* the segment, samples [from, to) */
	double z;		/* its standardized rank sum */
	double p;
};
double kb_shift_scan(const double *x, size_t n, struct kb_shift *sh);
/*
 * The scan's p for the statistic @z over @n values (grid points),
 * segments of @m0 values or more: Siegmund's approximation.
 */
double kb_shift_p(double z, size_t n, size_t m0);
/*
 * KPSS's stationarity statistic of the median's sign series at block
 * length @b (blockboot.c); above KB_KPSS_CRIT_5 the series wanders more
 * than stationarity at that dependence allows (5%).  NAN: too few values.
 */
#define KB_KPSS_CRIT_5	0.463
double kb_sign_kpss(const double *x, size_t n, double b);
/* Lag-1 autocorrelation of @x (NAN values skipped); NAN below 3 values. */
double kb_lag1_autocorr(const double *x, size_t n);

/*
 * Rounds @a[i], @b[i] (time order, NAN where a sample was excluded):
 * 0, -EINVAL (no valid value on a side, a non-positive median of a) or
 * -ENOMEM.
 */
int kb_boot_paired(const double *a, const double *b, size_t n,
		   struct kb_boot *bt);
/* Two independent series in time order (NAN: excluded). */
int kb_boot_independent(const double *a, size_t na, const double *b,
			size_t nb, struct kb_boot *bt);
/*
 * @ra runs of a and @rb of b, each a series in time order: runs drawn
 * with replacement, then blocks within each drawn run.
 */
int kb_boot_runs(const double *const *a, const size_t *na, unsigned int ra,
		 const double *const *b, const size_t *nb, unsigned int rb,
		 struct kb_boot *bt);

struct kb_compare;
/*
 * The comparison of b against a from series in time order (NAN:
 * excluded): paired by round when @paired (na == nb), else independent;
 * @c's threshold_pct set by the caller; rel_median_pct, the CI, p,
 * basis and block filled and decided (kb_compare_decide()).  0, -EINVAL
 * (nothing to compare), -ENOMEM.
 */
int kb_compare_series(const double *a, size_t na, const double *b, size_t nb,
		      bool paired, uint64_t seed, struct kb_compare *c);
/* The same at level 1 - @alpha, the normal interval (anytime looks). */
int kb_compare_series_alpha(const double *a, size_t na, const double *b,
			    size_t nb, bool paired, uint64_t seed,
			    double alpha, struct kb_compare *c);

/* Median of @n values (NAN skipped) without changing them; NAN if none. */
double kb_median_of(const double *x, size_t n);

#endif /* KBENCHCTL_BLOCKBOOT_H */
