// SPDX-License-Identifier: GPL-2.0
/*
 * The anytime comparison's alpha spending and a median's order-statistic
 * ranks at any level (seqtest.h).
 */
#include <math.h>

#include "seqtest.h"

double kb_seq_alpha(double alpha, unsigned int look)
{
	if (look > KB_SEQ_LOOKS)
		return 0;
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
