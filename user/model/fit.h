/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The complexity fit of a sweep, as Google Benchmark computes it
 * (src/complexity.cc): for each candidate f(n) in O(1), O(log n), O(n),
 * O(n log n), O(n^2), O(n^3) the least-squares coefficient of
 * time = coef x f(n) (no constant term), and its root-mean-square error
 * normalized by the mean time; automatically, the candidate with the
 * smallest normalized RMS (O(1) on a tie, then the earlier in that order).
 * Logarithms are base 2.
 */
#ifndef KBENCHCTL_FIT_H
#define KBENCHCTL_FIT_H

#include <stdbool.h>
#include <stddef.h>

enum kb_big_o {
	KB_O_1,
	KB_O_LOGN,
	KB_O_N,
	KB_O_NLOGN,
	KB_O_N2,
	KB_O_N3,
	KB_O_COUNT,
	KB_O_AUTO = KB_O_COUNT,	/* kb_fit(): the best of them */
};

/* --fit's choices: "auto", then the candidates in enum order. */
extern const char *const kb_fit_choices[];

struct kb_fit {
	enum kb_big_o complexity;
	double coef;		/* time per unit of f(n) */
	double rms;		/* normalized: RMS error / mean time */
	bool valid;		/* false: f(n) is 0 at every n (O(log n) of 1) */
};

/* f(n) of @c; n > 0. */
double kb_big_o_f(enum kb_big_o c, double n);
/* "1", "logn", "n", ... (as --fit and JSON spell them) */
const char *kb_big_o_name(enum kb_big_o c);
/* "O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)" */
const char *kb_big_o_text(enum kb_big_o c);

/* One candidate over @count points (n > 0). */
void kb_fit_one(const double *n, const double *t, size_t count,
		enum kb_big_o c, struct kb_fit *fit);

/*
 * @c, or with KB_O_AUTO the best candidate, into @best; every candidate
 * into @all (when not NULL).  -EINVAL with fewer than 2 points or an
 * n <= 0 (log n needs n > 0), else 0.
 */
int kb_fit(const double *n, const double *t, size_t count, enum kb_big_o c,
	   struct kb_fit *best, struct kb_fit all[KB_O_COUNT]);

#endif /* KBENCHCTL_FIT_H */
