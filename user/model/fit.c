// SPDX-License-Identifier: GPL-2.0
/*
 * The complexity fit (fit.h), after Google Benchmark's src/complexity.cc.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "fit.h"

const char *const kb_fit_choices[] = {
	"auto", "1", "logn", "n", "nlogn", "n2", "n3", NULL
};

double kb_big_o_f(enum kb_big_o c, double n)
{
	switch (c) {
	case KB_O_LOGN:
		return log2(n);
	case KB_O_N:
		return n;
	case KB_O_NLOGN:
		return n * log2(n);
	case KB_O_N2:
		return n * n;
	case KB_O_N3:
		return n * n * n;
	default:
		return 1;
	}
}

const char *kb_big_o_name(enum kb_big_o c)
{
	return c < KB_O_COUNT ? kb_fit_choices[c + 1] : "auto";
}

const char *kb_big_o_text(enum kb_big_o c)
{
	static const char *const text[KB_O_COUNT] = {
		"O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)"
	};

	return c < KB_O_COUNT ? text[c] : "O(?)";
}

/*
 * Least squares of t = coef x g(n) without a constant term:
 * coef = sum(t g) / sum(g^2); the RMS of the residuals over the mean of t.
 */
void kb_fit_one(const double *n, const double *t, size_t count,
		enum kb_big_o c, struct kb_fit *fit)
{
	double sg2 = 0, stg = 0, st = 0, ss = 0, g, r, mean;
	size_t i;

	fit->complexity = c;
	fit->undetermined = false;
	fit->rival = KB_O_COUNT;
	fit->distinct = 0;
	for (i = 0; i < count; i++) {
		g = kb_big_o_f(c, n[i]);
		sg2 += g * g;
		stg += t[i] * g;
		st += t[i];
	}
	fit->valid = sg2 > 0 && count > 0;
	fit->coef = fit->valid ? stg / sg2 : NAN;
	if (!fit->valid) {
		fit->rms = INFINITY;
		return;
	}
	for (i = 0; i < count; i++) {
		r = t[i] - fit->coef * kb_big_o_f(c, n[i]);
		ss += r * r;
	}
	mean = st / (double)count;
	if (mean != 0)
		fit->rms = sqrt(ss / (double)count) / fabs(mean);
	else
		fit->rms = ss == 0 ? 0 : INFINITY;
}

int kb_fit(const double *n, const double *t, size_t count, enum kb_big_o c,
	   struct kb_fit *best, struct kb_fit all[KB_O_COUNT])
{
	struct kb_fit every[KB_O_COUNT];
	size_t i, j, distinct = 0;
	int k, rival;

	if (count < 2)
		return -EINVAL;
	for (i = 0; i < count; i++)
		if (!(n[i] > 0))
			return -EINVAL;
	if (c != KB_O_AUTO) {
		kb_fit_one(n, t, count, c, best);
		if (all)
			for (k = 0; k < KB_O_COUNT; k++)
				kb_fit_one(n, t, count, k, &all[k]);
		return 0;
	}
	/* O(1) first; another replaces it only when strictly better */
	kb_fit_one(n, t, count, KB_O_1, &every[KB_O_1]);
	*best = every[KB_O_1];
	for (k = KB_O_LOGN; k < KB_O_COUNT; k++) {
		kb_fit_one(n, t, count, k, &every[k]);
		if (every[k].valid && every[k].rms < best->rms)
			*best = every[k];
	}
	/* the runner-up, and whether the data tell the two apart */
	rival = KB_O_COUNT;
	for (k = 0; k < KB_O_COUNT; k++)
		if (k != (int)best->complexity && every[k].valid &&
		    (rival == KB_O_COUNT || every[k].rms < every[rival].rms))
			rival = k;
	for (i = 0; i < count; i++) {
		for (j = 0; j < i && n[j] != n[i]; j++)
			;
		distinct += j == i;
	}
	best->distinct = distinct;
	best->rival = rival;
	best->undetermined = distinct < KB_FIT_DISTINCT_MIN ||
		(rival != KB_O_COUNT &&
		 every[rival].rms < KB_FIT_RIVAL_FACTOR * best->rms + KB_FIT_RIVAL_SLACK);
	if (all)
		memcpy(all, every, sizeof(every));
	return 0;
}
