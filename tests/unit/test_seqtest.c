// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling until answered: the alpha spending, the order-statistic ranks
 * at any level (exact binomial values, computed with Python's fractions),
 * and a simulation of the false-alarm rate of the anytime comparison
 * under repeated looks, against the naive fixed 95% CI looked at as often.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockboot.h"
#include "seqtest.h"
#include "stats.h"
#include "until.h"
#include "tap.h"
#include "tests.h"

static void ranks_case(size_t n, double alpha, size_t want_r, size_t want_s,
		       double want_cov)
{
	size_t r, s;
	double cov;

	kb_median_ci_ranks_alpha(n, alpha, &r, &s, &cov);
	ok(r == want_r && s == want_s && fabs(cov - want_cov) < 1e-9,
	   "n %zu alpha %g: x(%zu)..x(%zu) coverage %.10f (want %zu..%zu, %.10f)",
	   n, alpha, r, s, cov, want_r, want_s, want_cov);
}

static void test_ranks(void)
{
	size_t r, s, r2, s2;
	double c, c2;

	/* exact: the largest r with P(Bin(n, 1/2) <= r - 1) <= alpha / 2 */
	ranks_case(100, 0.05, 40, 61, 0.9647997997822951);
	ranks_case(1000, 0.05, 469, 532, 0.9537088026395019);
	ranks_case(1000, 0.001, 448, 553, 0.9991100140352307);
	ranks_case(10000, 0.05 / 6, 4868, 5133, 0.9919539917070505);
	kb_median_ci_ranks_alpha(777, 0.05, &r, &s, &c);
	kb_median_ci_ranks(777, &r2, &s2, &c2);
	ok(r == r2 && s == s2 && c == c2, "alpha 0.05 is kb_median_ci_ranks()");
	kb_median_ci_ranks_alpha(5, 0.05, &r, &s, &c);
	ok(r == 1 && s == 5 && fabs(c - (1 - 2 * pow(0.5, 5))) < 1e-15,
	   "n 5: too few for 95%%: min..max, coverage %.4f", c);
}

static void test_spending(void)
{
	double sum = 0;
	unsigned int k;

	ok(kb_seq_alpha(0.05, 1) == 0.05 / 8 && kb_seq_alpha(0.05, 8) == 0.05 / 8 &&
	   kb_seq_alpha(0.05, 0) == 0.05 / 8 && kb_seq_alpha(0.05, 9) == 0,
	   "alpha_k = alpha / 8 for looks 1..8, nothing left for a 9th");
	for (k = 1; k <= 1000; k++)
		sum += kb_seq_alpha(0.05, k);
	ok(fabs(sum - 0.05) < 1e-15, "any number of looks spends at most %.15f = 0.05", sum);
}

/* A sample of cycles per iteration: integer ticks / N, a noisy tail. */
static double draw(struct kb_rng *rng, double shift)
{
	double u = ((double)(kb_rng_next(rng) >> 11) + 0.5) * 0x1.0p-53;
	double v = ((double)(kb_rng_next(rng) >> 11) + 0.5) * 0x1.0p-53;
	double ticks = 100000 * (1 + shift) + floor(-300 * log(u));

	if (v < 0.02)	/* interrupts: 2% of samples far above */
		ticks += 50000 * v;
	return floor(ticks) / 1000;
}

/*
 * The price of looking, on the interval itself: at the same samples the
 * look's interval (alpha / 8) is at most sqrt(2) times as wide as the
 * fixed 95% one, so it takes at most twice the samples to be as narrow
 * (the width goes as 1 / sqrt(n)).  Paired AR(1) samples, phi 0.5.
 */
static void test_look_price(void)
{
	static double a[4000], b[4000];
	struct kb_compare fixed = { .threshold_pct = 1 };
	struct kb_compare look = { .threshold_pct = 1 };
	double ea = 0, eb = 0, ratio, worst = 0;
	struct kb_rng rng;
	unsigned int i, k;
	bool good = true;

	kb_rng_seed(&rng, 8);
	for (k = 0; k < 4; k++) {
		for (i = 0; i < 4000; i++) {
			ea = 0.5 * ea + (draw(&rng, 0) - 100.3);
			eb = 0.5 * eb + (draw(&rng, 0) - 100.3);
			a[i] = 100 + ea;
			b[i] = 100 * (1 + 0.002 * k) + eb;
		}
		kb_until_compare_look(a, 4000, b, 4000, k + 1, &look);
		if (kb_compare_series_alpha(a, 4000, b, 4000, true, k + 1, 0.05, &fixed) ||
		    !isfinite(look.ci_lo_pct) || !isfinite(look.ci_hi_pct)) {
			good = false;
			break;
		}
		ratio = (look.ci_hi_pct - look.ci_lo_pct) /
			(fixed.ci_hi_pct - fixed.ci_lo_pct);
		if (!(ratio > 1 && ratio * ratio <= 2))
			good = false;
		if (ratio > worst)
			worst = ratio;
	}
	ok(good, "a look's interval is at most sqrt(2) as wide as the fixed 95%% one on the same samples "
	   "(widest %.3f: at most %.2f times the samples for the same width)", worst, worst * worst);
}

#define SIM_TRIALS	100
#define SIM_FIRST	50
#define SIM_LOOKS	5	/* 50, 100, ..., 800 rounds */

/*
 * One trial of compare's anytime mode on paired AR(1) samples (phi 0.5:
 * what one run's samples look like): batches doubling the rounds, a look
 * after each with the interval compare uses.  Returns the look at which
 * the CI excluded 0 (a "difference"), or 0.  @naive: the fixed 95%
 * interval at every look instead of the spending.
 */
static unsigned int trial(struct kb_rng *rng, double shift, bool naive,
			  double *a, double *b)
{
	struct kb_compare c = { .threshold_pct = 0 };
	size_t n = 0, want = SIM_FIRST;
	double ea = 0, eb = 0;
	unsigned int look;

	for (look = 1; look <= SIM_LOOKS; look++, want *= 2) {
		for (; n < want; n++) {
			ea = 0.5 * ea + (draw(rng, 0) - 100.3);
			eb = 0.5 * eb + (draw(rng, 0) - 100.3);
			a[n] = 100 + ea;
			b[n] = 100 * (1 + shift) + eb;
		}
		if (naive) {
			if (kb_compare_series_alpha(a, n, b, n, true, look, 0.05, &c))
				continue;
		} else {
			kb_until_compare_look(a, n, b, n, look, &c);
		}
		if (c.ci_lo_pct > 0 || c.ci_hi_pct < 0)
			return look;
	}
	return 0;
}

static void test_simulation(void)
{
	double *a = malloc(((size_t)SIM_FIRST << SIM_LOOKS) * sizeof(double));
	double *b = malloc(((size_t)SIM_FIRST << SIM_LOOKS) * sizeof(double));
	unsigned int i, alarms = 0, naive = 0, found = 0, looks = 0, l;
	struct kb_rng rng;

	if (!a || !b) {
		ok(0, "out of memory");
		free(a);
		free(b);
		return;
	}
	kb_rng_seed(&rng, 22);
	for (i = 0; i < SIM_TRIALS; i++) {
		alarms += trial(&rng, 0, false, a, b) != 0;
		naive += trial(&rng, 0, true, a, b) != 0;
		l = trial(&rng, 0.003, false, a, b);
		found += l != 0;
		looks += l;
	}
	/*
	 * Under the null at most 5% may err over all 5 looks: 100 trials of
	 * a true 5% give at most 9 alarms 96% of the time.
	 */
	ok(alarms <= 9, "A/A, 5 looks, alpha spending: %u of %d trials a false alarm (<= 9)",
	   alarms, SIM_TRIALS);
	ok(naive > 9 && naive > 2 * alarms,
	   "the fixed 95%% interval looked at 5 times errs more than 5%% allows: %u of %d",
	   naive, SIM_TRIALS);
	ok(found >= SIM_TRIALS * 90 / 100,
	   "+0.3%% found in %u of %d trials (>= 90%%), at look %.1f on average",
	   found, SIM_TRIALS, found ? (double)looks / found : 0);
	free(a);
	free(b);
}

/* The compare look: resolved either way, by the threshold. */
static void test_look(void)
{
	double a[2000], b[2000];
	struct kb_compare c = { .threshold_pct = 0.1 };
	unsigned int i;

	bool resolved;

	for (i = 0; i < 2000; i++) {
		a[i] = 100 + i * 0.0001;
		b[i] = 101 + i * 0.0001;
	}
	resolved = kb_until_compare_look(a, 2000, b, 2000, 1, &c);
	ok(resolved && c.verdict == KB_VERDICT_SLOWER && c.sequential,
	   "1%% apart: resolved slower at look 1 (CI %.3f..%.3f)", c.ci_lo_pct,
	   c.ci_hi_pct);
	for (i = 0; i < 2000; i++)
		b[i] = a[i];
	resolved = kb_until_compare_look(a, 2000, b, 2000, 3, &c);
	ok(resolved && c.verdict == KB_VERDICT_EQUAL && c.ci_lo_pct > -0.1 && c.ci_hi_pct < 0.1,
	   "A/A: resolved equal, CI %.4f..%.4f within +-0.1%%", c.ci_lo_pct,
	   c.ci_hi_pct);
	/* the same values in other rounds: paired, no longer identical */
	for (i = 0; i < 2000; i++)
		b[i] = a[(i * 7 + 3) % 2000];
	c.threshold_pct = 0.001;
	ok(!kb_until_compare_look(a, 2000, b, 2000, 3, &c),
	   "A/A at a 0.001%% threshold: not resolved yet");
}

void test_seqtest(void)
{
	test_ranks();
	test_spending();
	test_look_price();
	test_look();
	test_simulation();
}
