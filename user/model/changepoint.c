// SPDX-License-Identifier: GPL-2.0
/*
 * E-divisive means (changepoint.h).  For a segment x[a..b), a split at
 * tau and an end kappa (a < tau < kappa <= b; m = tau - a values left,
 * k = kappa - tau right), with alpha = 1:
 *
 *   E = 2/(mk) sum|X_i - Y_j| - 2/(m(m-1)) sum_{i<l}|X_i - X_l|
 *                             - 2/(k(k-1)) sum_{j<l}|Y_j - Y_l|
 *   q = mk/(m+k) E
 *
 * with X = x[a..tau), Y = x[tau..kappa) (Matteson and James 2014, eq. 4-6
 * and the search of section 2.2 over both tau and kappa, as their R
 * package ecp's e.divisive does).  Searching the end kappa as well as
 * the split is what finds a change that is later undone (a regression
 * fixed ten commits on): with kappa fixed at the segment's end the two
 * sides of any single split mix the bump with the values around it.
 * The sums over a side are read from row prefix sums of the distance
 * matrix, so that one search of a segment costs O(len^2).  The split of
 * largest q over all segments is tested against the same maximum over R
 * random permutations of the values within each segment: p = (1 +
 * #{q_perm >= q}) / (R + 1); significant at p <= significance.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "stats.h"

void kb_cp_opts_init(struct kb_cp_opts *o)
{
	o->significance = KB_CP_SIGNIFICANCE;
	o->permutations = KB_CP_PERMUTATIONS;
	o->min_size = KB_CP_MIN_SIZE;
	o->seed = 1;
}

/*
 * The distances of @x[0..@n) as row prefix sums: p[i * (n + 1) + j] =
 * sum_{l < j} |x[i] - x[l]|.
 */
static void prefix_sums(const double *x, size_t n, double *p)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		double *r = p + i * (n + 1);

		r[0] = 0;
		for (j = 0; j < n; j++)
			r[j + 1] = r[j] + fabs(x[i] - x[j]);
	}
}

/* sum_{l in [lo, hi)} |x[i] - x[l]| */
static double dsum(const double *p, size_t n, size_t i, size_t lo, size_t hi)
{
	const double *r = p + i * (n + 1);

	return r[hi] - r[lo];
}

/*
 * The best split of x[a..b) over every end kappa: its q into *q, its
 * index, or 0 if none.  @p: prefix_sums() of the whole series (@n).
 */
static size_t best_split(const double *p, size_t n, size_t a, size_t b,
			 size_t min, double *q)
{
	double within_l = 0, best = -INFINITY;
	size_t tau, kappa, at = 0;

	*q = -INFINITY;
	if (b - a < 2 * min || min < 2)
		return 0;
	for (tau = a + 1; tau + min <= b; tau++) {
		double within_r = 0, between = 0, m = (double)(tau - a);

		/* x[tau - 1] joined the left side */
		within_l += dsum(p, n, tau - 1, a, tau - 1);
		if (tau - a < min)
			continue;
		for (kappa = tau + 1; kappa <= b; kappa++) {
			double k = (double)(kappa - tau), e, s;

			/* x[kappa - 1] joined the right side */
			within_r += dsum(p, n, kappa - 1, tau, kappa - 1);
			between += dsum(p, n, kappa - 1, a, tau);
			if (kappa - tau < min)
				continue;
			e = 2 * between / (m * k) -
			    2 * within_l / (m * (m - 1)) -
			    2 * within_r / (k * (k - 1));
			s = m * k / (m + k) * e;
			if (s > best) {
				best = s;
				at = tau;
			}
		}
	}
	*q = best;
	return at;
}

/* The largest q over the segments of @bounds (nb + 1 ends); its split. */
static size_t best_of(const double *x, double *p, size_t n,
		      const size_t *bounds, size_t nb, size_t min, double *q)
{
	double s;
	size_t i, at = 0, t;

	prefix_sums(x, n, p);
	*q = -INFINITY;
	for (i = 0; i < nb; i++) {
		t = best_split(p, n, bounds[i], bounds[i + 1], min, &s);
		if (t && s > *q) {
			*q = s;
			at = t;
		}
	}
	return at;
}

static int cmp_cp(const void *a, const void *b)
{
	const struct kb_cp *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

int kb_edivisive(const double *x, size_t n, const struct kb_cp_opts *o,
		 struct kb_cp *cp, size_t max)
{
	size_t *bounds, nb = 1, ncp = 0, i, j, at, s;
	double *perm, *p, q, qp;
	unsigned int r, ge;
	struct kb_rng rng;

	if (n > KB_CP_SERIES_MAX)
		return -E2BIG;
	bounds = malloc((n + 2) * sizeof(*bounds));
	perm = malloc((n ? n : 1) * sizeof(*perm));
	p = malloc((n ? n * (n + 1) : 1) * sizeof(*p));
	if (!bounds || !perm || !p) {
		free(bounds);
		free(perm);
		free(p);
		return -ENOMEM;
	}
	kb_rng_seed(&rng, o->seed);
	bounds[0] = 0;
	bounds[1] = n;
	while (ncp < max) {
		at = best_of(x, p, n, bounds, nb, o->min_size, &q);
		if (!at)
			break;
		ge = 0;
		for (r = 0; r < o->permutations; r++) {
			memcpy(perm, x, n * sizeof(*perm));
			/* Fisher-Yates within each segment */
			for (s = 0; s < nb; s++)
				for (i = bounds[s + 1] - 1; i > bounds[s]; i--) {
					double t;

					j = bounds[s] + (size_t)kb_rng_below(&rng, i - bounds[s] + 1);
					t = perm[i];
					perm[i] = perm[j];
					perm[j] = t;
				}
			best_of(perm, p, n, bounds, nb, o->min_size, &qp);
			if (qp >= q)
				ge++;
		}
		cp[ncp].index = at;
		cp[ncp].q = q;
		cp[ncp].p = (1.0 + ge) / (1.0 + o->permutations);
		if (cp[ncp].p > o->significance)
			break;
		ncp++;
		/* the split becomes a segment bound */
		for (i = nb; i > 0 && bounds[i] > at; i--)
			bounds[i + 1] = bounds[i];
		bounds[i + 1] = at;
		nb++;
	}
	free(bounds);
	free(perm);
	free(p);
	qsort(cp, ncp, sizeof(*cp), cmp_cp);
	return (int)ncp;
}
