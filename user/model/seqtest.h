/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling until the question is answered: an anytime-valid comparison of
 * two medians under repeated looks, and the precision of one median.
 *
 * The method (Documentation/kbench.rst, "Sampling until answered"): the
 * batches double the samples, and each of at most KB_SEQ_LOOKS looks
 * uses one boundary, z = KB_SEQ_Z_05 (two-sided level alpha_k =
 * 0.00818 a look), the exact constant for which the statistics of 8
 * looks at doubling sample sizes, correlated 2^(-|j-k|/2), stay inside
 * together with probability 95% (seqtest.c says how it is computed):
 * the looks together err at most 5% under any stopping rule (a
 * group-sequential boundary of Pocock's kind, 1977, on a doubling
 * schedule; Bonferroni's union bound over the same looks needs 2.734).
 * At each look the interval is the paired block bootstrap's normal one
 * at level 1 - alpha_k, with t's quantile at that tail in place of z's
 * at the blocks' degrees of freedom (until.c, kb_until_compare_look();
 * blockboot.h).  Eight looks cover 128 times the first batch's samples.
 * A look's interval is z 2.644 / 1.960 = 1.349 times as wide as a fixed
 * 95% interval on the same samples (more at few blocks: t), so it needs
 * 1.82 times the samples to be as narrow; the batches double, so the
 * look that reaches a width overshoots it by up to 2x (1 / ln 2 = 1.44x
 * on average over widths): about 2.6 times a fixed interval's samples
 * in all, up to 3.6, more at few blocks, where t's tail grows (measured
 * 3.7 on average from 50 rounds of AR(1): tests/unit/test_seqtest.c).
 * Other levels than 5%: alpha / KB_SEQ_LOOKS a look (Bonferroni).
 * Below: the exact ranks of a median's order-statistic interval at any
 * level (stats.c's at 95%).
 */
#ifndef KBENCHCTL_SEQTEST_H
#define KBENCHCTL_SEQTEST_H

#include <stddef.h>

#define KB_SEQ_LOOKS	8	/* looks at most; the last is final */
/* the boundary of KB_SEQ_LOOKS doubling looks at 5% over all (seqtest.c) */
#define KB_SEQ_Z_05	2.64394

/*
 * The two-sided level of look 1 .. KB_SEQ_LOOKS (0 taken as 1), else 0:
 * at @alpha 0.05 that of KB_SEQ_Z_05 (0.00818), otherwise alpha /
 * KB_SEQ_LOOKS.
 */
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
