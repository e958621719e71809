/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stability verdict of one routine's samples: is the estimate (the
 * median) trustworthy?  Robust figures only - a mean-based CV is ruled by
 * the few samples an interrupt hit, which the median ignores.  Each reason
 * names its figure and its threshold; the thresholds were set from
 * measurements on a real CPU (README.md, "The stability verdict").
 */
#ifndef KBENCHCTL_VERDICT_H
#define KBENCHCTL_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* Robust spread: 1.4826 MAD / median (the CV of a normal sample). */
#define KB_STABLE_RSD_MAX	0.05
/* Precision of the median: 95% CI half-width / median. */
#define KB_STABLE_PREC_MAX	0.005
/* Samples far above the median (kb_stats.far_high) / valid samples. */
#define KB_STABLE_FAR_MAX	0.10
/* Flagged and excluded samples / samples taken. */
#define KB_STABLE_FLAGGED_MAX	0.02
/*
 * Time order: lag-1 autocorrelation of the samples above this (the
 * overhead loop's reached 0.62 on a Xeon, add_n's 0.1-0.2 when steady) ...
 */
#define KB_STABLE_LAG1_MAX	0.50
/*
 * ... or medians of the first and second half apart by more than this
 * (relative) with their 95% CIs apart: a trend or a step within the run.
 */
#define KB_STABLE_HALVES_MAX	0.01
/* CPU time of the measuring thread / wall time of the run (userspace). */
#define KB_STABLE_CPU_SHARE_MIN	0.90

/* What the verdict looks at; NAN or 0 where a figure is not known. */
struct kb_verdict_in {
	const struct kb_stats *st;	/* of the valid samples */
	size_t excluded, samples;	/* flagged and excluded / taken */
	uint32_t iterations;
	bool counter_constant;
	bool timeout;
	double cpu_share;	/* NAN: not measured (kernel runs, saved) */
	double elapsed_s;	/* the run's wall time, for the message */
	/* the samples in time order (NAN: flagged); NULL: not known */
	const double *series;
	size_t nseries;
};

void kb_verdict(const struct kb_verdict_in *in, struct kb_stability *v);

/* 1.4826 MAD / |median|; NAN without samples or for a zero median. */
double kb_robust_rsd(const struct kb_stats *s);
/* max(median - CI lo, CI hi - median) / |median|. */
double kb_median_precision(const struct kb_stats *s);

/*
 * The medians of the two halves of @x (time order, NAN skipped) relative
 * to the whole's, (second - first) / median; *@apart: their 95% CIs do
 * not overlap.  NAN below 2 x 6 values.
 */
double kb_halves_change(const double *x, size_t n, bool *apart);

struct kb_run;
struct kb_result;
/* The verdict of one routine of a run (its samples in time order too). */
void kb_result_stability(const struct kb_run *r, const struct kb_result *res,
			 struct kb_stability *v);

#endif /* KBENCHCTL_VERDICT_H */
