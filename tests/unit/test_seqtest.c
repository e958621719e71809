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

/*
 * P(max over the looks of |W(n_k)| / sqrt(n_k) >= c), n_k = 2^(k-1): the
 * density of W integrated from look to look over the paths still inside,
 * on a grid of step @h, the cell at the boundary weighted by its share
 * inside (seqtest.c's computation of KB_SEQ_Z_05).
 */
/* the share of grid cell [x - h/2, x + h/2] inside |x| < b */
static double inside(double x, double b, double h)
{
	double w = (b - fabs(x)) / h + 0.5;

	return w <= 0 ? 0 : w >= 1 ? 1 : w;
}
static double doubling_cross(double c, unsigned int looks, double h)
{
	long n = (long)(c * sqrt(ldexp(1, (int)looks - 1)) / h) + 2, i, j;
	double *f = calloc(2 * n + 1, sizeof(*f));
	double *g = calloc(2 * n + 1, sizeof(*g)), mass = 0, *tmp;
	unsigned int k;

	if (!f || !g) {
		free(f);
		free(g);
		return NAN;
	}
	for (i = -n; i <= n; i++)
		f[i + n] = inside((double)i * h, c, h) *
			   exp(-(double)(i * i) * h * h / 2) / sqrt(2 * M_PI);
	for (k = 1; k < looks; k++) {
		double v = ldexp(1, (int)k - 1), b = c * sqrt(2 * v);
		long jp = (long)(c * sqrt(v) / h) + 1, jb = (long)(b / h) + 1;

		memset(g, 0, (2 * n + 1) * sizeof(*g));
		for (i = -jb; i <= jb; i++) {
			double s = 0;

			for (j = -jp; j <= jp; j++) {
				double d = (double)(i - j) * h;

				s += f[j + n] * exp(-d * d / (2 * v));
			}
			g[i + n] = inside((double)i * h, b, h) * s * h / sqrt(2 * M_PI * v);
		}
		tmp = f;
		f = g;
		g = tmp;
	}
	for (i = 0; i <= 2 * n; i++)
		mass += f[i] * h;
	free(f);
	free(g);
	return 1 - mass;
}
static void test_spending(void)
{
	double lo = 2.5, hi = 2.8, a = kb_seq_alpha(0.05, 1), x;
	unsigned int k;

	ok(fabs(a - erfc(KB_SEQ_Z_05 / sqrt(2))) < 1e-15 && kb_seq_alpha(0.05, 8) == a &&
	   kb_seq_alpha(0.05, 0) == a && kb_seq_alpha(0.05, 9) == 0 &&
	   kb_seq_alpha(0.01, 3) == 0.01 / 8,
	   "alpha_k = %.5f (z %.5f) for looks 1..8 at 5%%, nothing left for a 9th; alpha / 8 at other levels",
	   a, KB_SEQ_Z_05);
	for (k = 0; k < 16; k++) {
		double m = (lo + hi) / 2;

		if (doubling_cross(m, KB_SEQ_LOOKS, 0.04) > 0.05)
			lo = m;
		else
			hi = m;
	}
	x = doubling_cross(KB_SEQ_Z_05, KB_SEQ_LOOKS, 0.04);
	ok(fabs((lo + hi) / 2 - KB_SEQ_Z_05) < 2e-4 && fabs(x - 0.05) < 2e-4,
	   "8 doubling looks: the boundary crossed with probability 5%% is z %.5f (KB_SEQ_Z_05 %.5f crosses with %.5f; Bonferroni's 2.734 with %.4f)",
	   (lo + hi) / 2, KB_SEQ_Z_05, x, doubling_cross(2.734, KB_SEQ_LOOKS, 0.04));
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

/*
 * The cost of looking, measured: on paired AR(1) streams (phi 0.5) the
 * anytime mode's samples when a look's CI half-width first reaches a
 * target (the batches double from 50 rounds), against the rounds the
 * fixed 95% interval needs for it: its half-width on the same samples
 * scaled as 1 / sqrt(n); targets spread evenly in log over 4 octaves of
 * the fixed interval's samples.  1.82 x 1.44 = 2.6 times on average (the
 * wider boundary, then the doubling's overshoot) and at most 3.6 where
 * the blocks are many; the early looks hold few blocks (50 rounds in
 * blocks of several), where t's quantile at the look's tail outgrows
 * z's by more than at 95%: 3.70 on average here (1.79 to 10.6).
 */
#define COST_STREAMS	8
#define COST_TARGETS	6

static double half_width(const double *a, const double *b, size_t n,
			 bool look, unsigned int k)
{
	struct kb_compare c = { .threshold_pct = 0 };

	if (look)
		kb_until_compare_look(a, n, b, n, k, &c);
	else if (kb_compare_series_alpha(a, n, b, n, true, k, 0.05, &c))
		return NAN;
	return (c.ci_hi_pct - c.ci_lo_pct) / 2;
}

static void test_look_cost(void)
{
	static double a[SIM_FIRST << 7], b[SIM_FIRST << 7];
	double ea = 0, eb = 0, sum = 0, worst = 0, best = INFINITY;
	unsigned int s, t, k, done = 0;
	struct kb_rng rng;
	size_t i;

	kb_rng_seed(&rng, 95);
	for (s = 0; s < COST_STREAMS; s++) {
		double top;

		for (i = 0; i < (size_t)SIM_FIRST << 7; i++) {
			ea = 0.5 * ea + (draw(&rng, 0) - 100.3);
			eb = 0.5 * eb + (draw(&rng, 0) - 100.3);
			a[i] = 100 + ea;
			b[i] = 100 + eb;
		}
		top = half_width(a, b, 100, false, 1);
		for (t = 0; t < COST_TARGETS; t++) {
			/* 100 to 1600 rounds of the fixed interval */
			double h = top * pow(0.25, (t + 0.5) / COST_TARGETS);
			size_t n_any = 0;
			double hf, need;

			for (k = 1; k <= KB_SEQ_LOOKS && !n_any; k++)
				if (half_width(a, b, (size_t)SIM_FIRST << (k - 1), true, k) <= h)
					n_any = (size_t)SIM_FIRST << (k - 1);
			if (!n_any)
				continue;
			/*
			 * the fixed interval on the same samples, and the rounds
			 * it needs for h as the width goes, 1 / sqrt(n)
			 */
			hf = half_width(a, b, n_any, false, 1);
			need = (double)n_any * (hf / h) * (hf / h);
			sum += (double)n_any / need;
			worst = fmax(worst, (double)n_any / need);
			best = fmin(best, (double)n_any / need);
			done++;
		}
	}
	diag("the cost of looking: %u targets, the anytime mode took %.2f times the samples of a fixed 95%% interval on average (%.2f to %.2f)",
	     done, done ? sum / done : NAN, best, worst);
	ok(done >= COST_STREAMS * COST_TARGETS - 2 && sum / done > 2.2 && sum / done < 4.5 && worst < 12,
	   "the anytime mode's samples to reach a width: %.2f times a fixed interval's on average (1.82 for the boundary, 1.44 for the doubling, t at few blocks), at most %.2f",
	   done ? sum / done : NAN, worst);
}

void test_seqtest(void)
{
	test_ranks();
	test_spending();
	test_look_price();
	test_look();
	test_simulation();
	test_look_cost();
}
