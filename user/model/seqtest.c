// SPDX-License-Identifier: GPL-2.0
/*
 * The anytime-valid comparison of two medians (seqtest.h for the method).
 */
#include <errno.h>
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

int kb_seq_rel_ci(const double *a, size_t na, const double *b, size_t nb,
		  double alpha, double *lo_pct, double *hi_pct)
{
	size_t ra, sa, rb, sb;
	double cov;

	*lo_pct = *hi_pct = NAN;
	if (!na || !nb)
		return -EINVAL;
	/* each median's interval at 1 - alpha/2: both hold with >= 1 - alpha */
	kb_median_ci_ranks_alpha(na, alpha / 2, &ra, &sa, &cov);
	kb_median_ci_ranks_alpha(nb, alpha / 2, &rb, &sb, &cov);
	if (!(a[ra - 1] > 0) || !(b[rb - 1] >= 0))
		return -EINVAL;
	*lo_pct = (b[rb - 1] / a[sa - 1] - 1) * 100;
	*hi_pct = (b[sb - 1] / a[ra - 1] - 1) * 100;
	return 0;
}
