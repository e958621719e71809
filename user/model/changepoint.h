/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Change points of a series (kbenchctl history): E-divisive means,
 * D. S. Matteson and N. A. James, "A Nonparametric Approach for Multiple
 * Change Point Analysis of Multivariate Data", JASA 109 (2014), as
 * MongoDB's performance CI (signal-processing, Daly et al., ICPE 2020)
 * and Apache Otava (formerly Hunter) use it on benchmark series: split
 * where the energy distance between the values before a point (tau) and
 * those from it to an end (kappa) searched as well is largest, keep the
 * split when a permutation test finds it significant, and repeat inside
 * the segments.  It finds several changes in one series, a change that
 * is later undone included.  The test is seeded: the same series give
 * the same change points.
 */
#ifndef KBENCHCTL_CHANGEPOINT_H
#define KBENCHCTL_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

#define KB_CP_SIGNIFICANCE	0.01	/* a split's permutation p at most */
#define KB_CP_PERMUTATIONS	499
#define KB_CP_MIN_SIZE		3	/* values on each side of a split */
#define KB_CP_MAX		64	/* change points reported at most */
/* values of a series at most (the search keeps n^2 prefix sums: 32 MiB) */
#define KB_CP_SERIES_MAX	2048

struct kb_cp_opts {
	double significance;
	unsigned int permutations;
	size_t min_size;
	uint64_t seed;
};

struct kb_cp {
	size_t index;		/* first value after the step */
	double p;		/* the permutation test's p-value */
	double q;		/* the energy statistic of the split */
};

void kb_cp_opts_init(struct kb_cp_opts *o);

/*
 * The change points of @x[0..@n), ascending by index, into @cp (at most
 * @max).  Returns their number, -E2BIG (more than KB_CP_SERIES_MAX
 * values) or -ENOMEM.
 */
int kb_edivisive(const double *x, size_t n, const struct kb_cp_opts *o,
		 struct kb_cp *cp, size_t max);

#endif /* KBENCHCTL_CHANGEPOINT_H */
