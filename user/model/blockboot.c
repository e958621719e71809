// SPDX-License-Identifier: GPL-2.0
/*
 * Block bootstrap intervals of the relative difference of two medians
 * (blockboot.h says which and why).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blockboot.h"
#include "replic.h"
#include "stats.h"

/* The k-th smallest (0-based) of @x[0..n), reordering @x (Hoare). */
static double select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = x[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;

		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				double t = x[i];

				x[i] = x[j];
				x[j] = t;
				i++;
				if (!j)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return x[k];
}

/* Median of @x[0..n) (n > 0), reordering @x. */
static double median_inplace(double *x, size_t n)
{
	double hi = select_kth(x, n, n / 2), lo;
	size_t i;

	if (n & 1)
		return hi;
	/* the lower middle is the largest of the lower half */
	lo = x[0];
	for (i = 1; i < n / 2; i++)
		if (x[i] > lo)
			lo = x[i];
	return (lo + hi) / 2;
}

double kb_median_of(const double *x, size_t n)
{
	double *v = malloc((n ? n : 1) * sizeof(*v)), m;
	size_t i, k = 0;

	if (!v)
		return NAN;
	for (i = 0; i < n; i++)
		if (!isnan(x[i]))
			v[k++] = x[i];
	m = k ? median_inplace(v, k) : NAN;
	free(v);
	return m;
}

double kb_lag1_autocorr(const double *x, size_t n)
{
	double mean = 0, num = 0, den = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(x[i])) {
			mean += x[i];
			k++;
		}
	if (k < 3)
		return NAN;
	mean /= (double)k;
	for (i = 0; i < n; i++) {
		if (isnan(x[i]))
			continue;
		den += (x[i] - mean) * (x[i] - mean);
		if (i + 1 < n && !isnan(x[i + 1]))
			num += (x[i] - mean) * (x[i + 1] - mean);
	}
	return den > 0 ? num / den : 0;
}

/*
 * Politis and White (2004), as corrected by Patton, Politis and White
 * (2009): the autocovariances up to m_max = ceil(sqrt(n)) + K_n; m^ the
 * first lag after which K_n = max(5, log10 n) autocorrelations in a row
 * are insignificant (|rho| < 2 sqrt(log10(n) / n)); M = 2 m^; with the
 * flat-top window lambda, G = sum 2 lambda(k/M) k R(k) and
 * g = R(0) + sum 2 lambda(k/M) R(k); the circular block bootstrap's
 * b = (2 G^2 / D)^(1/3) n^(1/3) with D = 4/3 g^2.  Excluded values
 * (NAN) count as the mean: they keep their place in time.  *@lrv (may
 * be NULL): g, the flat-top estimate of the long-run variance (Politis
 * and Romano 1995), NAN where there is none.
 */
static double pw_length(const double *x, size_t n, double *g_ratio,
			double *lrv)
{
	size_t kn, m_max, i, k, cnt = 0, m = 0;
	double mean = 0, cv, *acv, g = 0, lr, b, b_max;

	for (i = 0; i < n; i++)
		if (!isnan(x[i])) {
			mean += x[i];
			cnt++;
		}
	if (g_ratio)
		*g_ratio = 0;
	if (lrv)
		*lrv = NAN;
	if (n < 8 || cnt < 8)
		return 1;
	mean /= (double)cnt;
	kn = (size_t)log10((double)n);
	if (kn < 5)
		kn = 5;
	m_max = (size_t)ceil(sqrt((double)n)) + kn;
	if (m_max > n - 2)
		m_max = n - 2;
	acv = calloc(m_max + 1, sizeof(*acv));
	if (!acv)
		return 1;
	for (k = 0; k <= m_max; k++) {
		double s = 0;

		for (i = 0; i + k < n; i++) {
			double u = isnan(x[i]) ? 0 : x[i] - mean;
			double v = isnan(x[i + k]) ? 0 : x[i + k] - mean;

			s += u * v;
		}
		acv[k] = s / (double)n;
	}
	if (!(acv[0] > 0)) {
		free(acv);
		return 1;
	}
	cv = 2 * sqrt(log10((double)n) / (double)n);
	for (k = 1; k + kn <= m_max + 1 && !m; k++) {
		size_t j;

		for (j = 0; j < kn; j++)
			if (fabs(acv[k + j] / acv[0]) >= cv)
				break;
		if (j == kn)
			m = k;
	}
	/* m^ is the last significant lag: the run starts after it */
	m = m ? 2 * (m - 1 > 0 ? m - 1 : 1) : m_max;
	if (m > m_max)
		m = m_max;
	lr = acv[0];
	for (k = 1; k <= m; k++) {
		double t = (double)k / (double)m;
		double lam = t <= 0.5 ? 1 : 2 * (1 - t);

		g += 2 * lam * (double)k * acv[k];
		lr += 2 * lam * acv[k];
	}
	free(acv);
	if (!(lr > 0))
		return 1;
	if (lrv)
		*lrv = lr;
	if (g_ratio)
		*g_ratio = g / lr > 0 ? g / lr : 0;
	b = cbrt(2 * g * g / (4.0 / 3 * lr * lr)) * cbrt((double)n);
	b_max = ceil(fmin(3 * sqrt((double)n), (double)n / 3));
	if (b > b_max)
		b = b_max;
	return b < 1 || isnan(b) ? 1 : b;
}

double kb_block_length_mean(const double *x, size_t n, double *g_ratio)
{
	return pw_length(x, n, g_ratio, NULL);
}

double kb_block_length_median(const double *x, size_t n, double *g_ratio)
{
	double med = kb_median_of(x, n), *s, b;
	size_t i;

	s = malloc((n ? n : 1) * sizeof(*s));
	if (g_ratio)
		*g_ratio = 0;
	if (!s || isnan(med)) {
		free(s);
		return 1;
	}
	for (i = 0; i < n; i++)
		s[i] = isnan(x[i]) ? NAN : (x[i] > med) - (x[i] < med);
	b = kb_block_length_mean(s, n, g_ratio);
	free(s);
	return b;
}

/* A length in whole samples, at least 1. */
static size_t block_of(double b)
{
	return b < 1.5 ? 1 : (size_t)(b + 0.5);
}

/*
 * The block bootstrap's variance of a mean falls short of the true one by
 * G / (b g) (relative; Kuensch 1989, the bias term Politis and White
 * balance against the variance when they choose b): each resampled
 * median's deviation from the estimate is scaled up by
 * 1 / sqrt(1 - G / (b g)), at most sqrt(2).
 */
static double inflation(double g_ratio, size_t b, size_t n)
{
	double short_by = g_ratio / (double)b, z = 1.959964, df, t;

	/*
	 * The spread of a few blocks is itself uncertain: as batch means do
	 * (Schmeiser 1982), Student's t in place of the normal, with
	 * n / (2 b) - 1 degrees of freedom: half the blocks, for blocks that
	 * overlap (Cornish-Fisher to 1/df^2).  Chosen by simulation: AR(1)
	 * at phi 0.9 covered 93% with n / b - 1 and 95% with this
	 * (tests/unit/test_blockboot.c).
	 */
	df = (double)n / (2 * (double)b) - 1;
	if (df < 2)
		df = 2;
	t = z + (z * z * z + z) / (4 * df) +
	    (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * df * df);
	if (!(short_by > 0))
		short_by = 0;
	return t / z / sqrt(1 - (short_by < 0.5 ? short_by : 0.5));
}

/*
 * The long-run variance of the mean of @s from overlapping batch means
 * of length L (Meketon and Schmeiser 1984): n L / ((n - L + 1)(n - L))
 * x the sum of squared deviations of the n - L + 1 window means from the
 * mean, with about 1.5 (n / L - 1) degrees of freedom.
 */
static double batch_lrv(const double *s, size_t n, size_t l)
{
	double *c = malloc((n + 1) * sizeof(*c)), mean, ss = 0;
	size_t i;

	if (!c || l >= n) {
		free(c);
		return NAN;
	}
	c[0] = 0;
	for (i = 0; i < n; i++)
		c[i + 1] = c[i] + s[i];
	mean = c[n] / (double)n;
	for (i = 0; i + l <= n; i++) {
		double m = (c[i + l] - c[i]) / (double)l - mean;

		ss += m * m;
	}
	free(c);
	return (double)n * (double)l * ss /
	       ((double)(n - l + 1) * (double)(n - l));
}

/*
 * Batch medians across time scales: the long-run variance of the median's
 * influence series s = sgn(x - median) (NAN: 0) from overlapping batch
 * means of L values (batch_lrv()), at L = n/2, n/3, n/4, n/8, n/16,
 * n/32, against the same at the block length @b that the bootstrap used.
 * Level switching (a frequency state, an SMT neighbour coming and going)
 * with stays of hundreds of samples has a small lag-1 autocorrelation and
 * a Politis-White length far shorter than its stays: there the batches
 * of the longer scales vary more than the blocks allow.  A scale counts
 * when its ratio exceeds the 95% point of chi-square(df) / df, df =
 * 1.5 (k - 1) for its k = n / L batches (Wilson-Hilferty), a chance
 * excess of independent batches; its widening is the square root of the
 * ratio times t(0.975, df) / z(0.975) for the few batches, and the
 * widest that counts is taken.
 *
 * Bounded: the scales of 4 batches or more (df >= 4.5) widen as they
 * measure; the scales of 2 and 3 batches (df 1.5 and 3, where t is 4.4
 * and 3.2) only up to KB_BATCH_FEW_CAP times what those give (1 when
 * none counts).  They are what sees a run of 1000 samples that holds
 * only two or three stays (the two-level test: 8 of 100 A/A pairs called
 * with them, 14 without), and uncapped their t turned a +164% change
 * measured in plain TCG's noise into "inconclusive".  1: no scale
 * counts (or too few values).
 */
double kb_batch_widen(const double *x, size_t n, double b, double *ratio,
		      size_t *len)
{
	static const unsigned int ks[] = { 2, 3, 4, 8, 16, 32 };
	double med = kb_median_of(x, n), ref, best = 1, *s, w = 1, w4 = 1;
	size_t bl = b < 1.5 ? 1 : (size_t)(b + 0.5), i, at = 0;
	unsigned int j;

	if (ratio)
		*ratio = 1;
	if (len)
		*len = 0;
	if (isnan(med) || n < 8 * 8 || bl * 4 > n)
		return 1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return 1;
	for (i = 0; i < n; i++)
		s[i] = isnan(x[i]) ? 0 : (double)((x[i] > med) - (x[i] < med));
	ref = batch_lrv(s, n, bl);
	for (j = 0; ref > 0 && j < sizeof(ks) / sizeof(ks[0]); j++) {
		size_t l = n / ks[j];
		double r, df = 1.5 * (ks[j] - 1), z = 1.644854, c, wj;

		if (l <= bl)
			continue;
		r = batch_lrv(s, n, l) / ref;
		c = pow(1 - 2 / (9 * df) + z * sqrt(2 / (9 * df)), 3);
		if (!(r > c))
			continue;
		wj = sqrt(r) * kb_t_quantile(0.975, df) / 1.959964;
		if (ks[j] >= 4 && wj > w4)
			w4 = wj;
		if (wj > w) {
			w = wj;
			best = r;
			at = l;
		}
	}
	free(s);
	if (w > KB_BATCH_FEW_CAP * w4)
		w = KB_BATCH_FEW_CAP * w4;
	if (ratio)
		*ratio = best;
	if (len)
		*len = at;
	return w;
}



/*
 * The stationarity test of Kwiatkowski, Phillips, Schmidt and Shin
 * (J. Econometrics 54, 1992) on s = sgn(x - median) (NAN: 0): eta =
 * sum of the squared partial sums of s - mean(s) over n^2 times s's
 * long-run variance, estimated by overlapping batch means at the block
 * length @b.  Under stationarity with dependence shorter than b it tends
 * to the integral of a squared Brownian bridge: 0.463 at 5%
 * (KB_KPSS_CRIT_5).  A run whose level switches a few times wanders in
 * its partial sums far beyond what blocks of b allow.  NAN: too few
 * values.
 */
double kb_sign_kpss(const double *x, size_t n, double b)
{
	double med = kb_median_of(x, n), *s, mean = 0, part = 0, sum = 0, lrv;
	size_t bl = block_of(b), i;

	if (isnan(med) || n < 8 * 8 || bl * 4 > n)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	for (i = 0; i < n; i++) {
		s[i] = isnan(x[i]) ? 0 : (double)((x[i] > med) - (x[i] < med));
		mean += s[i];
	}
	mean /= (double)n;
	lrv = batch_lrv(s, n, bl);
	for (i = 0; i < n; i++) {
		part += s[i] - mean;
		sum += part * part;
	}
	free(s);
	return lrv > 0 ? sum / ((double)n * (double)n * lrv) : NAN;
}

static double normal_quantile(double p);

struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->v < y->v ? -1 : x->v > y->v;
}

/*
 * The van der Waerden normal scores of @x (time order kept): z_i =
 * Phi^-1((r_i - 1/2) / m), r_i the mid-rank of x_i among the m valid
 * values (ties share their average rank), NAN values 0.  false: no
 * memory.
 */
static bool normal_scores(const double *x, size_t n, double *z)
{
	struct ranked *r = malloc((n ? n : 1) * sizeof(*r));
	size_t m = 0, i, j;

	if (!r)
		return false;
	for (i = 0; i < n; i++) {
		z[i] = 0;
		if (!isnan(x[i])) {
			r[m].v = x[i];
			r[m++].i = i;
		}
	}
	qsort(r, m, sizeof(*r), cmp_ranked);
	for (i = 0; i < m; i = j) {
		double mid;

		for (j = i + 1; j < m && r[j].v == r[i].v; j++)
			;
		/* ranks i + 1 .. j: their average */
		mid = ((double)i + 1 + (double)j) / 2;
		for (; i < j; i++)
			z[r[i].i] = normal_quantile((mid - 0.5) / (double)m);
	}
	free(r);
	return true;
}

double kb_scales_check(const double *x, size_t n, size_t *len,
		       double *ratio)
{
	static const unsigned int ks[] = { 2, 3, 4, 8, 16, 32 };
	double *z, b, ref, pmin = 1;
	unsigned int j;
	size_t bl;

	if (len)
		*len = 0;
	if (ratio)
		*ratio = 1;
	if (n < 8 * 8)
		return 1;
	z = malloc(n * sizeof(*z));
	if (!z || !normal_scores(x, n, z)) {
		free(z);
		return 1;
	}
	/*
	 * short-range dependence: twice the scores' Politis-White length
	 * (halving the batch means' bias G / (L g) there: AR(1) at phi 0.5
	 * was flagged 7% of the time at once the length, 4% at twice), at
	 * most 2 n^(1/3) (level switching lengthens it until the reference
	 * holds the switching it is to find)
	 */
	b = kb_block_length_mean(z, n, NULL);
	bl = block_of(fmin(2 * b, 2 * cbrt((double)n)));
	ref = bl * 4 <= n ? batch_lrv(z, n, bl) : 0;
	for (j = 0; ref > 0 && j < sizeof(ks) / sizeof(ks[0]); j++) {
		size_t l = n / ks[j];
		double df = 1.5 * (ks[j] - 1), r, u, p;

		if (l <= bl)
			continue;
		r = batch_lrv(z, n, l) / ref;
		/* Wilson-Hilferty: chi-square(df) / df to a normal deviate */
		u = (cbrt(r) - (1 - 2 / (9 * df))) / sqrt(2 / (9 * df));
		p = 0.5 * erfc(u / sqrt(2));
		if (p < pmin) {
			pmin = p;
			if (len)
				*len = l;
			if (ratio)
				*ratio = r;
		}
	}
	free(z);
	return pmin;
}

/*
 * Siegmund's nu(x) = 2 x^-2 exp(-2 sum_k Phi(-x sqrt(k) / 2) / k), the
 * overshoot correction of a discrete random walk's maximum, by the
 * approximation of Siegmund and Yakir ("The statistics of gene mapping",
 * 2007): (2 / x)(Phi(x / 2) - 1/2) / ((x / 2) Phi(x / 2) + phi(x / 2)).
 */
static double siegmund_nu(double x)
{
	double h = x / 2, cdf, pdf;

	if (x < 1e-6)
		return 1;
	cdf = 0.5 * erfc(-h / sqrt(2));
	pdf = exp(-h * h / 2) / sqrt(2 * M_PI);
	return 2 / x * (cdf - 0.5) / (h * cdf + pdf);
}

/*
 * P(max |Z| > @b) for the circular binary segmentation statistic of @k
 * independent standard normal values, segments of a fraction @delta to
 * 1 - @delta of them: Siegmund's approximation (Ann. Probab. 16, 1988)
 * as Olshen, Venkatraman, Lucito and Wigler (Biostatistics 5, 2004) use
 * it: 2 (b^3 phi(b) / 4) times the integral over t from 1/2 to
 * 1 - delta of nu(b / sqrt(k t (1 - t)))^2 / (t (1 - t))^2 (the factor 2:
 * two-sided; a segment and its complement are one split of the circle).
 * Cells even in log(1 - t); 1/(t (1 - t))^2 integrated exactly over each,
 * nu^2 at its middle.
 */
static double cbs_tail(double b, size_t k, double delta)
{
	const unsigned int cells = 200;
	double lo = log(0.5), hi = log(delta), sum = 0;
	unsigned int c;

	if (!(delta > 0 && delta < 0.5))
		return 1;
	for (c = 0; c < cells; c++) {
		double u0 = exp(lo + (hi - lo) * c / cells);
		double u1 = exp(lo + (hi - lo) * (c + 1) / cells);
		double um = sqrt(u0 * u1), t = 1 - um, y0 = 0.5 - u0,
		       y1 = 0.5 - u1, nu, f0, f1;

		/* the antiderivative of 1/(t (1 - t))^2, y = t - 1/2 */
		f0 = 8 * y0 / (1 - 4 * y0 * y0) +
		     2 * log((1 + 2 * y0) / (1 - 2 * y0));
		f1 = 8 * y1 / (1 - 4 * y1 * y1) +
		     2 * log((1 + 2 * y1) / (1 - 2 * y1));
		nu = siegmund_nu(b / sqrt((double)k * t * (1 - t)));
		sum += nu * nu * (f1 - f0);
	}
	return fmin(1, 2 * b * b * b * exp(-b * b / 2) /
		       (4 * sqrt(2 * M_PI)) * sum);
}

/*
 * The long-run variance of @r (mean 0) prewhitened by an AR(1) fit
 * (Andrews and Monahan, Econometrica 60, 1992): rho the lag-1
 * autocorrelation (at most 0.97), the flat-top estimate of e_i = r_i -
 * rho r_(i-1) over (1 - rho)^2.  The flat-top window alone truncates
 * after the last significant lag and fell short for AR(1) at phi 0.3
 * (its 0.09 at lag 2 left out: 1.6 for 1.86; the scan flagged 36 of
 * 1000 such runs from seed 46 with it, 17 prewhitened).  NAN: none.
 */
static double prewhitened_lrv(double *r, size_t n)
{
	double rho = kb_lag1_autocorr(r, n), lrv;
	size_t i;

	if (isnan(rho))
		return NAN;
	if (rho > 0.97)
		rho = 0.97;
	if (rho < -0.97)
		rho = -0.97;
	/* in place, from the end: e_i needs r_(i-1) */
	for (i = n; i-- > 1;)
		r[i] -= rho * r[i - 1];
	pw_length(r, n, NULL, &lrv);
	return lrv / ((1 - rho) * (1 - rho));
}

double kb_shift_p(double z, size_t n, size_t m0)
{
	return n ? cbs_tail(z, n, (double)m0 / (double)n) : 1;
}

double kb_shift_scan(const double *x, size_t n, struct kb_shift *sh)
{
	size_t k = n < KB_SHIFT_GRID ? n : KB_SHIFT_GRID, *g, a, c, m0, bl;
	double *z, *cs, b, lrv, best = -1, in, out, tot, var = 0, rvar = 0;
	size_t i, from = 0, to = 0;

	memset(sh, 0, sizeof(*sh));
	sh->p = 1;
	if (n < 8 * 8)
		return 1;
	z = malloc(n * sizeof(*z));
	cs = malloc((n + 1) * sizeof(*cs));
	g = malloc((k + 1) * sizeof(*g));
	if (!z || !cs || !g || !normal_scores(x, n, z))
		goto out;
	cs[0] = 0;
	for (i = 0; i < n; i++)
		cs[i + 1] = cs[i] + z[i];
	tot = cs[n];
	/* segments of k grid points (all samples up to KB_SHIFT_GRID) */
	for (a = 0; a <= k; a++)
		g[a] = (size_t)((double)a * (double)n / (double)k + 0.5);
	/*
	 * the shortest segment: the scores' block length (shorter ones are
	 * the short-range dependence the long-run variance allows for), at
	 * least KB_SHIFT_MIN samples
	 */
	b = kb_block_length_mean(z, n, NULL);
	bl = block_of(fmin(2 * b, 2 * cbrt((double)n)));
	m0 = bl > KB_SHIFT_MIN ? bl : KB_SHIFT_MIN;
	for (a = 0; a < k; a++)
		for (c = a + 1; c <= k; c++) {
			size_t m = g[c] - g[a];
			double s, v;

			if (m < m0 || n - m < m0)
				continue;
			s = cs[g[c]] - cs[g[a]] - (double)m * tot / (double)n;
			v = s * s / ((double)m * (double)(n - m) / (double)n);
			if (v > best) {
				best = v;
				from = g[a];
				to = g[c];
			}
		}
	if (!(best > 0))
		goto out;
	/*
	 * the dependence from the residuals around the two levels the best
	 * split leaves (short-range dependence, not the shift, in it)
	 */
	in = (cs[to] - cs[from]) / (double)(to - from);
	out = (tot - (cs[to] - cs[from])) / (double)(n - (to - from));
	for (i = 0; i < n; i++) {
		double d = z[i] - tot / (double)n;

		var += d * d / (double)n;
		z[i] -= i >= from && i < to ? in : out;
		rvar += z[i] * z[i] / (double)n;
	}
	lrv = prewhitened_lrv(z, n);
	if (!(lrv > 0 && rvar > 0))
		goto out;
	/*
	 * the variance is the scores' own about their mean (the rank
	 * test's permutation variance: the best segment's fit, chosen as
	 * the largest, does not shrink it), times the dependence factor
	 * of the residuals (their long-run variance over their variance)
	 */
	lrv = var * lrv / rvar;
	sh->from = from;
	sh->to = to;
	sh->z = sqrt(best / lrv);
	sh->p = kb_shift_p(sh->z, k, m0);
out:
	free(z);
	free(cs);
	free(g);
	return sh->p;
}

/*
 * The interval of one median from the machinery of the comparisons: the
 * median's variance is its influence series' long-run variance over n
 * (times 1 / (4 f^2)), and the order-statistic interval takes that
 * series as independent (long-run variance = variance).  The circular
 * block bootstrap's variance of a mean at block length b is, to first
 * order, the overlapping batch means estimate at batch length b
 * (Kuensch 1989, section 3): so tau = batch_lrv(s, b) / batch_lrv(s, 1)
 * is what blocks of the Politis-White length see beyond independence,
 * and each end's distance from the median is scaled by sqrt(tau), by
 * inflation() (the bias at b, t for few blocks) and by kb_batch_widen()
 * (level switching), as kb_boot_independent()'s resampled medians'
 * deviations are.  Never narrower than the order-statistic interval.
 * An interval of one value stays one value: identical samples (qemu
 * icount) and quantized ones whose middle ranks all hold the median's
 * value.
 */
double kb_median_ci_series(const double *x, size_t n, const double *sorted,
			   size_t k, struct kb_stats *st)
{
	double med, g, bl, tau, w, *s;
	size_t i, bs;

	(void)sorted;	/* @st holds the order statistics the interval needs */
	if (k < 8 || n < 8 || !(st->ci_hi > st->ci_lo))
		return 1;
	med = st->median;
	s = malloc(n * sizeof(*s));
	if (!s)
		return 1;
	for (i = 0; i < n; i++)
		s[i] = isnan(x[i]) ? 0 : (double)((x[i] > med) - (x[i] < med));
	bl = kb_block_length_median(x, n, &g);
	bs = block_of(bl);
	tau = bs > 1 && bs < n ? batch_lrv(s, n, bs) / batch_lrv(s, n, 1) : 1;
	free(s);
	if (!(tau > 1))
		tau = 1;
	w = sqrt(tau) * inflation(g, bs, n) * kb_batch_widen(x, n, bl, NULL, NULL);
	if (!(w > 1))
		return 1;
	/*
	 * each end's distance from the median scaled, as the bootstrap
	 * scales each resampled median's deviation: ranks widened instead
	 * would reach the tails, where the density is thin, and turn a
	 * factor of a few into min .. max
	 */
	st->ci_lo = med - w * (med - st->ci_lo);
	st->ci_hi = med + w * (st->ci_hi - med);
	st->ci_widen = w;
	return w;
}

/*
 * One circular block resample of @n positions: blocks of @b consecutive
 * positions (wrapping) from uniform starts until n positions; calls
 * @take for each.  The number of blocks is ceil(n / b), the last cut.
 */
struct side {
	const double *x;
	size_t n;
	size_t b;
	double *buf;
	size_t k;
};

static inline void take(struct side *s, size_t i)
{
	double v = s->x[i];

	if (v == v)	/* not NAN */
		s->buf[s->k++] = v;
}

/* One series resampled in blocks into its buffer (appending). */
static void resample_series(struct side *s, struct kb_rng *rng)
{
	size_t done = 0, i, j;

	while (done < s->n) {
		i = (size_t)kb_rng_below(rng, s->n);
		for (j = 0; j < s->b && done < s->n; j++, done++) {
			take(s, i);
			if (++i == s->n)
				i = 0;
		}
	}
}

/* Rounds resampled in blocks: a and b of a round together. */
static void resample_paired(struct side *a, struct side *b,
			    struct kb_rng *rng)
{
	size_t done = 0, i, j, n = a->n;

	while (done < n) {
		i = (size_t)kb_rng_below(rng, n);
		for (j = 0; j < a->b && done < n; j++, done++) {
			take(a, i);
			take(b, i);
			if (++i == n)
				i = 0;
		}
	}
}

static double normal_quantile(double p)
{
	/* Acklam's rational approximation, refined by one Newton step */
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02,
		-3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01,
		-1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00,
		4.374664141464968e+00, 2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r, x, e;

	if (p <= 0)
		return -INFINITY;
	if (p >= 1)
		return INFINITY;
	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else if (p <= 1 - 0.02425) {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	} else {
		q = sqrt(-2 * log(1 - p));
		x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	}
	e = 0.5 * erfc(-x / sqrt(2)) - p;
	return x - e * sqrt(2 * M_PI) * exp(x * x / 2);
}

/* The interval and p from the resampled differences @d[0..r). */
static void summarize(double *d, unsigned int r, struct kb_boot *bt)
{
	double t = bt->threshold_pct, mean = 0, ss = 0, z, sd;
	size_t le = 0, ge = 0, j;
	unsigned int i;

	for (i = 0; i < r; i++)
		mean += d[i];
	mean /= r;
	for (i = 0; i < r; i++)
		ss += (d[i] - mean) * (d[i] - mean);
	bt->sd_pct = r > 1 ? sqrt(ss / (r - 1)) : NAN;
	bt->drawn = r;
	if (bt->normal) {
		z = normal_quantile(1 - bt->alpha / 2);
		sd = bt->sd_pct;
		/*
		 * another level than 95% (the anytime looks): t's quantile at
		 * that tail in place of z's, at the blocks' df; the resamples
		 * carry t(0.975) / z(0.975) already (inflation()), so that
		 * factor is taken out
		 */
		if (bt->df > 0 && fabs(bt->alpha - 0.05) > 1e-9)
			sd *= kb_t_quantile(1 - bt->alpha / 2, bt->df) / z *
			      1.959964 / kb_t_quantile(0.975, bt->df);
		bt->lo_pct = bt->est_pct - z * sd;
		bt->hi_pct = bt->est_pct + z * sd;
		if (!(sd > 0)) {
			bt->p = fabs(bt->est_pct) > t ? 0 : 1;
			return;
		}
		/* P(N(est, sd) <= T) and P(N(est, sd) >= -T), the smaller, x 2 */
		bt->p = fmin(0.5 * erfc((bt->est_pct - t) / sd / sqrt(2)),
			     0.5 * erfc((-t - bt->est_pct) / sd / sqrt(2)));
		bt->p = fmin(1, 2 * bt->p);
		return;
	}
	qsort(d, r, sizeof(*d), kb_cmp_double);
	j = (size_t)floor(bt->alpha / 2 * r);
	bt->lo_pct = d[j];
	bt->hi_pct = d[r - 1 - j];
	for (i = 0; i < r; i++) {
		le += d[i] <= t;
		ge += d[i] >= -t;
	}
	bt->p = fmin(1, 2.0 * (double)(le < ge ? le : ge) / r);
}

static void boot_init(struct kb_boot *bt, size_t work)
{
	double r;

	if (!bt->resamples)
		bt->resamples = KB_BOOT_RESAMPLES;
	if (!(bt->alpha > 0 && bt->alpha < 1))
		bt->alpha = 0.05;
	bt->lo_pct = bt->hi_pct = bt->sd_pct = bt->p = NAN;
	bt->df = 0;
	bt->normal = bt->want_normal;
	r = KB_BOOT_WORK_MAX / (double)(work ? work : 1);
	if (r < bt->resamples) {
		bt->normal = true;
		bt->resamples = r < KB_BOOT_RESAMPLES_MIN ?
				KB_BOOT_RESAMPLES_MIN : (unsigned int)r;
	}
}

static double rel(double ma, double mb)
{
	return (mb - ma) / ma * 100;
}

int kb_boot_paired(const double *a, const double *b, size_t n,
		   struct kb_boot *bt)
{
	struct side sa = { .x = a, .n = n }, sb = { .x = b, .n = n };
	double ma = kb_median_of(a, n), mb = kb_median_of(b, n), *d, ba, bb;
	double ga, gb, k, wd;
	struct kb_rng rng;
	unsigned int i;

	boot_init(bt, n);
	bt->rounds = n;
	if (isnan(ma) || isnan(mb) || !(ma > 0))
		return -EINVAL;
	bt->est_pct = rel(ma, mb);
	/*
	 * one length for both, from the paired differences: the change's
	 * influence per round is sgn(b - mb) - sgn(a - ma) (the medians'
	 * influence functions, equal densities), so drift that A and B
	 * share cancels in it and does not lengthen the blocks
	 */
	d = malloc(n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		d[i] = isnan(a[i]) || isnan(b[i]) ? NAN :
		       (double)((b[i] > mb) - (b[i] < mb)) -
		       (double)((a[i] > ma) - (a[i] < ma));
	ba = kb_block_length_mean(d, n, &ga);
	/* the batch check on the change's own series, its median 0 */
	wd = kb_batch_widen(d, n, ba, NULL, NULL);
	free(d);
	bb = ba;
	gb = ga;
	bt->block_a = ba;
	bt->block_b = bb;
	sa.b = sb.b = block_of(ba);
	k = fmax(inflation(ga, sa.b, n), inflation(gb, sb.b, n)) * wd;
	/* inflation()'s degrees of freedom */
	bt->df = fmax(2, (double)n / (2 * (double)sa.b) - 1);
	sa.buf = malloc(n * sizeof(double));
	sb.buf = malloc(n * sizeof(double));
	d = malloc(bt->resamples * sizeof(*d));
	if (!sa.buf || !sb.buf || !d) {
		free(sa.buf);
		free(sb.buf);
		free(d);
		return -ENOMEM;
	}
	kb_rng_seed(&rng, bt->seed);
	for (i = 0; i < bt->resamples; i++) {
		double ra, rb;

		do {
			sa.k = sb.k = 0;
			resample_paired(&sa, &sb, &rng);
		} while (!sa.k || !sb.k);
		ra = ma + k * (median_inplace(sa.buf, sa.k) - ma);
		rb = mb + k * (median_inplace(sb.buf, sb.k) - mb);
		d[i] = ra > 0 ? rel(ra, rb) : INFINITY;
	}
	summarize(d, bt->resamples, bt);
	free(sa.buf);
	free(sb.buf);
	free(d);
	return 0;
}

int kb_boot_independent(const double *a, size_t na, const double *b,
			size_t nb, struct kb_boot *bt)
{
	const double *const xa[1] = { a }, *const xb[1] = { b };

	return kb_boot_runs(xa, &na, 1, xb, &nb, 1, bt);
}

/*
 * The spread between runs: the standard deviation of the runs' medians
 * in percent of their median (*@pooled_med).
 */
static double runs_spread(const double *const *x, const size_t *n,
			  unsigned int r, double *pooled_med)
{
	double *m = malloc(r * sizeof(*m)), mean = 0, ss = 0, med;
	unsigned int i, k = 0;

	if (!m)
		return NAN;
	for (i = 0; i < r; i++) {
		m[k] = kb_median_of(x[i], n[i]);
		if (!isnan(m[k]))
			k++;
	}
	for (i = 0; i < k; i++)
		mean += m[i];
	mean /= k ? k : 1;
	for (i = 0; i < k; i++)
		ss += (m[i] - mean) * (m[i] - mean);
	med = k ? median_inplace(m, k) : NAN;
	free(m);
	if (pooled_med)
		*pooled_med = med;
	return k > 1 && med > 0 ? sqrt(ss / (k - 1)) / med * 100 : NAN;
}

/* All of a side's values (NAN skipped) and their median. */
static double pooled_median(const double *const *x, const size_t *n,
			    unsigned int r, size_t total)
{
	double *v = malloc((total ? total : 1) * sizeof(*v)), m;
	size_t i, k = 0;
	unsigned int j;

	if (!v)
		return NAN;
	for (j = 0; j < r; j++)
		for (i = 0; i < n[j]; i++)
			if (!isnan(x[j][i]))
				v[k++] = x[j][i];
	m = k ? median_inplace(v, k) : NAN;
	free(v);
	return m;
}

struct runs_side {
	const double *const *x;
	const size_t *n;
	unsigned int r;
	size_t *b;		/* block length of each run */
	double k;		/* inflation (the largest of the runs') */
	double med;		/* of all values */
	size_t total;
	double *buf;
};

static int runs_side_init(struct runs_side *s, const double *const *x,
			  const size_t *n, unsigned int r, double *block)
{
	unsigned int j;
	double bmax = 1;

	s->x = x;
	s->n = n;
	s->r = r;
	s->total = 0;
	s->k = 1;
	s->b = calloc(r, sizeof(*s->b));
	if (!s->b)
		return -ENOMEM;
	for (j = 0; j < r; j++) {
		double g, bl = kb_block_length_median(x[j], n[j], &g);

		s->b[j] = block_of(bl);
		s->k = fmax(s->k, inflation(g, s->b[j], n[j] * r) *
			    kb_batch_widen(x[j], n[j], bl, NULL, NULL));
		if (bl > bmax)
			bmax = bl;
		s->total += n[j];
	}
	*block = bmax;
	/* a resample of runs holds at most r times the longest run */
	s->buf = NULL;
	return 0;
}

/* A resample of a side: runs with replacement, blocks within each. */
static double runs_side_draw(struct runs_side *s, struct kb_rng *rng)
{
	struct side one;
	size_t k = 0;
	unsigned int j;

	for (j = 0; j < s->r; j++) {
		unsigned int w = s->r > 1 ? (unsigned int)kb_rng_below(rng, s->r) : 0;

		one.x = s->x[w];
		one.n = s->n[w];
		one.b = s->b[w];
		one.buf = s->buf + k;
		one.k = 0;
		if (one.n)
			resample_series(&one, rng);
		k += one.k;
	}
	return k ? s->med + s->k * (median_inplace(s->buf, k) - s->med) : NAN;
}

int kb_boot_runs(const double *const *a, const size_t *na, unsigned int ra,
		 const double *const *b, const size_t *nb, unsigned int rb,
		 struct kb_boot *bt)
{
	struct runs_side sa = { 0 }, sb = { 0 };
	size_t max_a = 0, max_b = 0;
	double ma, mb, *d = NULL;
	struct kb_rng rng;
	unsigned int i;
	int err = -ENOMEM;

	if (!ra || !rb)
		return -EINVAL;
	if (runs_side_init(&sa, a, na, ra, &bt->block_a) ||
	    runs_side_init(&sb, b, nb, rb, &bt->block_b))
		goto out_free;
	boot_init(bt, sa.total > sb.total ? sa.total : sb.total);
	bt->rounds = sa.total;
	bt->spread_a_pct = runs_spread(a, na, ra, NULL);
	bt->spread_b_pct = runs_spread(b, nb, rb, NULL);
	for (i = 0; i < ra; i++)
		max_a = na[i] > max_a ? na[i] : max_a;
	for (i = 0; i < rb; i++)
		max_b = nb[i] > max_b ? nb[i] : max_b;
	ma = sa.med = pooled_median(a, na, ra, sa.total);
	mb = sb.med = pooled_median(b, nb, rb, sb.total);
	err = -EINVAL;
	if (isnan(ma) || isnan(mb) || !(ma > 0))
		goto out_free;
	bt->est_pct = rel(ma, mb);
	err = -ENOMEM;
	sa.buf = malloc((max_a * ra + 1) * sizeof(double));
	sb.buf = malloc((max_b * rb + 1) * sizeof(double));
	d = malloc(bt->resamples * sizeof(*d));
	if (!sa.buf || !sb.buf || !d)
		goto out_free;
	kb_rng_seed(&rng, bt->seed);
	for (i = 0; i < bt->resamples; i++) {
		double xa = runs_side_draw(&sa, &rng);
		double xb = runs_side_draw(&sb, &rng);

		d[i] = xa > 0 && !isnan(xb) ? rel(xa, xb) : INFINITY;
	}
	summarize(d, bt->resamples, bt);
	err = 0;
out_free:
	free(sa.b);
	free(sb.b);
	free(sa.buf);
	free(sb.buf);
	free(d);
	return err;
}

int kb_compare_series(const double *a, size_t na, const double *b, size_t nb,
		      bool paired, uint64_t seed, struct kb_compare *c)
{
	return kb_compare_series_alpha(a, na, b, nb, paired, seed, 0, c);
}

int kb_compare_series_alpha(const double *a, size_t na, const double *b,
			    size_t nb, bool paired, uint64_t seed,
			    double alpha, struct kb_compare *c)
{
	struct kb_boot bt = { .seed = seed, .threshold_pct = c->threshold_pct,
			      .est_pct = NAN, .alpha = alpha,
			      .want_normal = alpha > 0 };
	int err;

	paired = paired && na == nb;
	err = paired ? kb_boot_paired(a, b, na, &bt) :
		       kb_boot_independent(a, na, b, nb, &bt);
	c->rel_median_pct = bt.est_pct;
	c->ci_lo_pct = bt.lo_pct;
	c->ci_hi_pct = bt.hi_pct;
	c->p = bt.p;
	c->block = fmax(bt.block_a, bt.block_b);
	c->basis = paired ? "paired block bootstrap over rounds" :
			    "block bootstrap within each run";
	c->spread_pct = NAN;
	c->sequential = false;
	kb_compare_decide(c);
	return err;
}
