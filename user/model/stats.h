/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbenchctl statistics, all in double precision.  Definitions (the unit
 * tests hold them to numpy/scipy reference values):
 *   quantiles   linear interpolation between order statistics (numpy's
 *               default, Hyndman-Fan type 7); median = mean of the two middle
 *               values for even n
 *   stddev      sample standard deviation (n - 1)
 *   mad         median(|x - median|), unscaled
 *   cv          stddev / mean
 *   median CI   order statistics x(r) .. x(n-r+1) (1-based) with r the
 *               largest rank such that P(B <= r - 1) <= 0.025, B ~ Bin(n, 1/2);
 *               coverage = 1 - 2 P(B <= r - 1).  For n < 6 no rank qualifies:
 *               the interval is min..max and its coverage is reported.
 *   outliers    Tukey fences on p25/p75: beyond 1.5 IQR mild, beyond 3 IQR
 *               severe (mild does not include severe)
 *   far_high    above p75 + 3 max(IQR, 0.001 |median|): far above the
 *               median (the floor: quantized samples can have IQR 0)
 *   mode        iterative max-bin filtering (see kb_mode)
 */
#ifndef KBENCHCTL_STATS_H
#define KBENCHCTL_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KB_MODE_BINS		20
#define KB_BOOTSTRAP_RESAMPLES	2000
/*
 * Up to this many values a bootstrap resample is drawn value by value;
 * above it its median is drawn from the order statistics' distribution,
 * which is the same distribution in O(1) (see stats.c).
 */
#define KB_BOOTSTRAP_COUNTING_MAX	20000

struct kb_mode {
	double mode;		/* centre of the final set */
	double share;		/* samples in the final set / all samples */
	size_t count;		/* samples in the final set */
	bool pure;		/* the final set holds one distinct value */
	unsigned int rounds;	/* re-binning rounds */
};

struct kb_stats {
	size_t count;		/* values in the statistics */
	double min, max, mean, stddev, median, mad;
	double p1, p5, p25, p75, p95, p99;
	double cv;
	double ci_lo, ci_hi, ci_coverage;	/* 95% CI of the median */
	/*
	 * the factor by which kb_median_ci_series() widened the
	 * order-statistic interval about the median for the samples' serial
	 * dependence (1: not widened; NAN without samples)
	 */
	double ci_widen;
	size_t mild, severe;			/* Tukey outliers */
	size_t far_high;			/* far above the median */
	struct kb_mode mode;
};

/* Fill @s from a sorted array (no allocation). */
void kb_stats_sorted(const double *sorted, size_t n, struct kb_stats *s);

double kb_quantile_sorted(const double *sorted, size_t n, double q);
double kb_median_sorted(const double *sorted, size_t n);
/* Ranks (1-based) r, s of the order-statistic 95% CI; coverage. */
void kb_median_ci_ranks(size_t n, size_t *r, size_t *s, double *coverage);
void kb_mode_sorted(const double *sorted, size_t n, struct kb_mode *m);
int kb_cmp_double(const void *a, const void *b);

/* PRNG: xoshiro256** seeded with splitmix64; reproducible everywhere. */
struct kb_rng {
	uint64_t s[4];
};
void kb_rng_seed(struct kb_rng *r, uint64_t seed);
uint64_t kb_rng_next(struct kb_rng *r);
/* Uniform in [0, n) (Lemire's multiply-shift, unbiased). */
uint64_t kb_rng_below(struct kb_rng *r, uint64_t n);

/*
 * 95% percentile-bootstrap CI of (median(b) - median(a)) / median(a), in
 * percent, over @resamples resamples of both groups.  @a and @b sorted.
 */
int kb_bootstrap_rel_median_ci(const double *a, size_t na, const double *b,
			       size_t nb, unsigned int resamples,
			       uint64_t seed, double *lo, double *hi);

/*
 * Mann-Whitney U (scipy.stats.mannwhitneyu, method="asymptotic",
 * use_continuity=True, two-sided) of sorted @a and @b: @u is U of @a, @p
 * the two-sided p-value with tie correction.  One merge, O(na + nb), no
 * allocation.
 */
int kb_mann_whitney_sorted(const double *a, size_t na, const double *b,
			   size_t nb, double *u, double *p);

/* Z = |mean_a - mean_b| / sqrt(sd_a^2/n_a + sd_b^2/n_b). */
double kb_z(const struct kb_stats *a, const struct kb_stats *b);

/* Comparison verdict. */
enum kb_verdict {
	KB_VERDICT_EQUAL,	/* no change called (see inconclusive) */
	KB_VERDICT_FASTER,	/* b is faster than a */
	KB_VERDICT_SLOWER,	/* b is slower than a */
};

struct kb_compare {
	double rel_median_pct;	/* (median_b - median_a) / median_a * 100 */
	double ci_lo_pct, ci_hi_pct;
	/*
	 * the p-value of what the CI decides (blockboot.h): H0 |change| <=
	 * threshold, from the same resamples; p <= 0.05 exactly when a
	 * change beyond the threshold is called.  NAN: none.
	 */
	double p;
	double mw_p;		/* Mann-Whitney's, reported as an extra */
	double threshold_pct;
	enum kb_verdict verdict;
	bool below_threshold;	/* significant (CI excludes 0) but not called */
	/*
	 * neither beyond +-threshold nor within it: the CI reaches across a
	 * threshold (with threshold 0: never; the CI holding 0 is "no
	 * significant difference")
	 */
	bool inconclusive;
	/* inconclusive: the CI half-width that would resolve it at this estimate */
	double resolve_halfwidth_pct;
	bool sequential;	/* the CI is an anytime-valid one (seqtest.h) */
	/* how the CI was made (JSON "verdict_basis"), e.g. "paired block bootstrap" */
	const char *basis;
	double block;		/* block length, in rounds or samples */
	unsigned int runs_a, runs_b;	/* replicated runs (0: one run) */
	double spread_pct;	/* between-run spread (largest side); NAN: unseen */
	/* decided by kb_compare_decide_estimate() (else kb_compare_decide()) */
	bool estimate_rule;
	/* a call with the CI reaching inside +-threshold (the estimate rule) */
	bool by_estimate;
};

/*
 * The whole CI decides (criterion's compare_to_threshold): slower when it
 * lies beyond +threshold, faster beyond -threshold; no change when it
 * lies within +-threshold (threshold 0: when it holds 0, "no significant
 * difference"); otherwise inconclusive.  @p is not consulted (the
 * bootstrap p agrees with it by construction).
 */
void kb_compare_decide(struct kb_compare *c);
/*
 * The estimate rule (diff of replicated runs; RESULTS.md, "Replicated
 * runs"): slower (faster) when the change is significant (the CI excludes
 * 0) and its estimate lies beyond +threshold (-threshold), by_estimate
 * set when the CI reaches inside the threshold; no change only when the
 * whole CI lies within +-threshold; otherwise inconclusive.  At threshold
 * 0 it decides as kb_compare_decide().
 */
void kb_compare_decide_estimate(struct kb_compare *c);
/*
 * One plain line, no newline: "b is 3.1% faster than a (95% CI ...)"; no
 * p-value; " [A/A: ...]" when @a and @b are the same label.
 */
void kb_compare_text(const struct kb_compare *c, const char *a,
		     const char *b, char *buf, size_t len);
const char *kb_verdict_name(enum kb_verdict v);
/* The call in words: kb_verdict_name(), or "inconclusive". */
const char *kb_compare_call_name(const struct kb_compare *c);

/* Stability verdict for one routine's samples (verdict.c, verdict.h). */
struct kb_stability {
	bool stable;
	unsigned int nreasons;
	const char *reason[10];
	char buf[10][160];
};

#define KB_STABLE_ITER_MIN	100	/* iterations per sample */
#define KB_STABLE_SAMPLES_MIN	30

/* Binary-prefixed throughput: "1.50 GiB/s" / "312.5 Mops/s". */
void kb_format_rate(double per_s, bool bytes, char *buf, size_t len);
/* A p-value as reports print it: "0.042", "< 0.001", "-" when not finite. */
void kb_format_p(double p, char *buf, size_t len);

#endif /* KBENCHCTL_STATS_H */
