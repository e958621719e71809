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
	/*
	 * KB_O_AUTO only: the data cannot tell the classes apart (fewer
	 * than KB_FIT_DISTINCT_MIN distinct n, or @rival fits about as
	 * well: its RMS under KB_FIT_RIVAL_FACTOR x the best's plus
	 * KB_FIT_RIVAL_SLACK); @complexity is then only the closest.
	 */
	bool undetermined;
	enum kb_big_o rival;	/* the runner-up; KB_O_COUNT when none */
	size_t distinct;	/* distinct n */
};

/*
 * One coefficient per class: 2 points are fitted by every class after
 * rescaling, and the choice rests on one residual; 3 distinct n are the
 * fewest that can refute a class.  A class is told from its runner-up
 * when the runner-up's normalized RMS is at least twice the best's plus
 * half a percent (noise of a percent or two leaves the best near its
 * level and the wrong classes far above it: tests/unit/test_sweep.c).
 */
#define KB_FIT_DISTINCT_MIN	3
#define KB_FIT_RIVAL_FACTOR	2.0
#define KB_FIT_RIVAL_SLACK	0.005

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
