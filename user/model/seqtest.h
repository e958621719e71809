/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling until the question is answered: an anytime-valid comparison of
 * two medians under repeated looks, and the precision of one median.
 *
 * The method (Documentation/kbench.rst, "Sampling until answered"): the
 * batches double the samples, and each of at most KB_SEQ_LOOKS looks
 * spends alpha_k = alpha / KB_SEQ_LOOKS of the false-alarm budget, so the
 * looks together spend at most alpha under any stopping rule (a union
 * bound over the looks: the alpha-spending of Lan and DeMets, 1983, with
 * a spending matched to doubling batches).  Eight looks cover 128 times
 * the first batch's samples; each look's interval at 1 - alpha / 8 is
 * z(0.003125) / z(0.025) = 1.395 times as wide as a fixed 95% interval on
 * the same samples, so it needs at most 1.95 times the samples of the
 * fixed interval to be as narrow.  (A spending that never runs out, such
 * as alpha / (k (k + 1)), pays more at each later look: 2.4 times the
 * samples at look 4, 3 times at look 8.)  At each look the interval is
 * the paired block bootstrap's at level 1 - alpha_k (until.c,
 * kb_until_compare_look(); blockboot.h).  Below: the exact ranks of a
 * median's order-statistic interval at any level (stats.c's at 95%).
 */
#ifndef KBENCHCTL_SEQTEST_H
#define KBENCHCTL_SEQTEST_H

#include <stddef.h>

#define KB_SEQ_LOOKS	8	/* looks at most; the last is final */

/* alpha / KB_SEQ_LOOKS for look 1 .. KB_SEQ_LOOKS (0 taken as 1), else 0. */
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

#endif /* KBENCHCTL_SEQTEST_H */
