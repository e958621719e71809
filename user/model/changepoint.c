// SPDX-License-Identifier: GPL-2.0
/*
 * E-divisive means (changepoint.h).  For a segment x[a..b) and a split
 * at t (m = t - a values left, k = b - t right), with alpha = 1:
 *
 *   E = 2/(mk) sum|X_i - Y_j| - 2/(m(m-1)) sum_{i<l}|X_i - X_l|
 *                             - 2/(k(k-1)) sum_{j<l}|Y_j - Y_l|
 *   q = mk/(m+k) E
 *
 * (Matteson and James 2014, eq. 4-6, with the segment's end as kappa, as
 * MongoDB's signal-processing and Otava take it).  Moving the split one
 * to the right moves one value from the right side to the left, so one
 * scan of a segment costs O(len^2).  The split of largest q over all
 * segments is tested against the same maximum over R random
 * permutations of the values within each segment: p = (1 + #{q_perm >=
 * q}) / (R + 1); significant at p <= significance.
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

/* The best split of x[a..b): its q into *q, its index, or 0 if none. */
static size_t best_split(const double *x, size_t a, size_t b, size_t min,
			 double *q)
{
	double within_l = 0, within_r = 0, between = 0, best = -INFINITY;
	size_t i, j, t, m, k, at = 0;

	*q = -INFINITY;
	if (b - a < 2 * min || min < 2)
		return 0;
	/* t = a: everything on the right */
	for (i = a; i < b; i++)
		for (j = i + 1; j < b; j++)
			within_r += fabs(x[i] - x[j]);
	for (t = a; t < b - 1; t++) {
		/* x[t] moves from the right to the left */
		double to_l = 0, to_r = 0;

		for (i = a; i < t; i++)
			to_l += fabs(x[i] - x[t]);
		for (j = t + 1; j < b; j++)
			to_r += fabs(x[t] - x[j]);
		within_l += to_l;
		within_r -= to_r;
		between += to_r - to_l;
		m = t + 1 - a;
		k = b - t - 1;
		if (m < min || k < min)
			continue;
		{
			double e = 2 * between / ((double)m * k) -
				   2 * within_l / ((double)m * (m - 1)) -
				   2 * within_r / ((double)k * (k - 1));
			double s = (double)m * k / (double)(m + k) * e;

			if (s > best) {
				best = s;
				at = t + 1;
			}
		}
	}
	*q = best;
	return at;
}

/* The largest q over the segments of @bounds (nb + 1 ends); its split. */
static size_t best_of(const double *x, const size_t *bounds, size_t nb,
		      size_t min, double *q)
{
	double s;
	size_t i, at = 0, t;

	*q = -INFINITY;
	for (i = 0; i < nb; i++) {
		t = best_split(x, bounds[i], bounds[i + 1], min, &s);
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
	double *perm, q, qp;
	unsigned int r, ge;
	struct kb_rng rng;

	bounds = malloc((n + 2) * sizeof(*bounds));
	perm = malloc((n ? n : 1) * sizeof(*perm));
	if (!bounds || !perm) {
		free(bounds);
		free(perm);
		return -ENOMEM;
	}
	kb_rng_seed(&rng, o->seed);
	bounds[0] = 0;
	bounds[1] = n;
	while (ncp < max) {
		at = best_of(x, bounds, nb, o->min_size, &q);
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
			best_of(perm, bounds, nb, o->min_size, &qp);
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
	qsort(cp, ncp, sizeof(*cp), cmp_cp);
	return (int)ncp;
}
