/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling until the question is answered: an anytime-valid comparison of
 * two medians under repeated looks, and the precision of one median.
 *
 * The method (Documentation/kbench.rst, "Sampling until answered"): look k
 * (1, 2, ...) spends alpha_k = alpha / (k (k + 1)) of the false-alarm
 * budget, so sum_k alpha_k = alpha for any number of looks and any
 * stopping rule (a union bound over the looks: the alpha-spending idea of
 * Lan and DeMets, 1983, with a spending that never runs out, as in the
 * union-bound confidence sequences of Darling and Robbins, 1967, refined
 * by Howard et al., 2021).  At each look the CI of each median is the
 * distribution-free order-statistic interval at level 1 - alpha_k / 2
 * (exact binomial ranks), and the CI of the relative difference
 * median_b / median_a - 1 is [b_lo / a_hi - 1, b_hi / a_lo - 1]: it holds
 * the true value at every look at once with probability >= 1 - alpha.
 */
#ifndef KBENCHCTL_SEQTEST_H
#define KBENCHCTL_SEQTEST_H

#include <stddef.h>

/* alpha / (look (look + 1)), look >= 1. */
double kb_seq_alpha(double alpha, unsigned int look);

/*
 * Ranks r <= s (1-based) of the order-statistic CI x(r) .. x(s) of the
 * median of n samples at level 1 - @alpha: r the largest rank with
 * P(B <= r - 1) <= alpha / 2, B ~ Bin(n, 1/2), s = n + 1 - r; @coverage
 * = 1 - 2 P(B <= r - 1).  Too few samples for the level: r = 1, s = n,
 * coverage 1 - 2^(1-n).  (kb_median_ci_ranks() is alpha = 0.05.)
 */
void kb_median_ci_ranks_alpha(size_t n, double alpha, size_t *r, size_t *s,
			      double *coverage);

/*
 * The CI, in percent, of median(b) / median(a) - 1 at level 1 - @alpha
 * from sorted positive samples: 0, or -EINVAL (no samples, or a
 * non-positive bound of a's median, where the ratio has no bound).
 */
int kb_seq_rel_ci(const double *a, size_t na, const double *b, size_t nb,
		  double alpha, double *lo_pct, double *hi_pct);

#endif /* KBENCHCTL_SEQTEST_H */
