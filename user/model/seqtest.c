// SPDX-License-Identifier: GPL-2.0
/*
 * The anytime comparison's alpha spending and a median's order-statistic
 * ranks at any level (seqtest.h).
 */
#include <math.h>

#include "seqtest.h"

/*
 * KB_SEQ_Z_05, computed (tests/unit/test_seqtest.c repeats it): the
 * looks see the statistic at n_k = 2^(k-1) n_1 samples, Z_k = W(n_k) /
 * sqrt(n_k) for a Brownian motion W (the paired influence sums, to first
 * order), so corr(Z_j, Z_k) = 2^(-|k-j|/2), a Markov chain in W.  The
 * probability that no |Z_k| reaches c is the mass left after
 * integrating W's density from look to look (Gaussian increments of
 * variance n_k - n_(k-1)) over |W(n_k)| < c sqrt(n_k), on a grid (the
 * boundary cell weighted by its share inside; steps 0.01 and 0.005 give
 * the same 5 digits, 0.04 is 6e-5 off); bisection in c for 5% gives
 * 2.64394 (4 million simulated paths: 0.04985 +- 0.00011 beyond
 * 2.64458), where Bonferroni's z(1 - 0.05 / 16) is 2.734 (3.9% in all).
 */
double kb_seq_alpha(double alpha, unsigned int look)
{
	if (look > KB_SEQ_LOOKS)
		return 0;
	if (fabs(alpha - 0.05) < 1e-12)
		return erfc(KB_SEQ_Z_05 / sqrt(2));
	return alpha / KB_SEQ_LOOKS;
}

void kb_median_ci_ranks_alpha(size_t n, double alpha, size_t *r, size_t *s,
			      double *coverage)
{
	double logp = -(double)n * log(2.0), cdf = 0, tail = 0;
	size_t k, rank = 0;

	/* walk the Bin(n, 1/2) cdf in log space: pmf(k+1) = pmf(k) (n-k)/(k+1) */
	for (k = 0; k < n; k++) {
		cdf += exp(logp);
		if (cdf > alpha / 2)
			break;
		rank = k + 1;
		tail = cdf;
		logp += log((double)(n - k) / (double)(k + 1));
	}
	if (!rank) {
		*r = n ? 1 : 0;
		*s = n;
		*coverage = n ? 1 - 2 * pow(0.5, (double)n) : 0;
		return;
	}
	*r = rank;
	*s = n - rank + 1;
	*coverage = 1 - 2 * tail;
}
