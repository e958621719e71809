// SPDX-License-Identifier: GPL-2.0
/*
 * The interval of a change between replicated runs (replic.h says which
 * and why) and Student's t distribution it needs.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include "replic.h"

/*
 * The continued fraction of the regularized incomplete beta function
 * I_x(a, b) (modified Lentz's method; converges fast for x < (a + 1) /
 * (a + b + 2)).
 */

/* One step of Lentz's method for a continued fraction: the factor. */
static double lentz_step(double aa, double *c, double *d)
{
	const double tiny = 1e-300;

	*d = 1 + aa * *d;
	*c = 1 + aa / *c;
	if (fabs(*d) < tiny)
		*d = tiny;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		h *= lentz_step(aa, &c, &d);
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		del = lentz_step(aa, &c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b) */
static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double kb_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	tail = 0.5 * inc_beta(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double kb_t_quantile(double p, double df)
{
	double lo = -1e4, hi = 1e4;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	/* bisection: the CDF is monotone; 100 halvings of 2e4 reach 1e-26 */
	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (kb_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Mean and variance (n - 1) of the logs of @m; false if one is <= 0. */
static bool log_moments(const double *m, unsigned int r, double *mean,
			double *var)
{
	double s = 0, ss = 0;
	unsigned int i;

	for (i = 0; i < r; i++) {
		if (!(m[i] > 0) || !isfinite(m[i]))
			return false;
		s += log(m[i]);
	}
	*mean = s / r;
	for (i = 0; i < r; i++)
		ss += (log(m[i]) - *mean) * (log(m[i]) - *mean);
	*var = r > 1 ? ss / (r - 1) : NAN;
	return true;
}

double kb_runs_spread_pct(const double *m, unsigned int r, double *gmean)
{
	double mean, var;

	if (gmean)
		*gmean = NAN;
	if (!r || !log_moments(m, r, &mean, &var))
		return NAN;
	if (gmean)
		*gmean = exp(mean);
	return r > 1 ? sqrt(var) * 100 : NAN;
}

static double to_pct(double log_ratio)
{
	return expm1(log_ratio) * 100;
}

/*
 * The interval, p and resolvable change from the difference of mean logs
 * @d, its standard error @se and degrees of freedom @df.
 */
static void finish(struct kb_runs_ci *ci, double d, double alpha)
{
	double t = ci->threshold_pct > 0 ? ci->threshold_pct : 0;
	double tq = kb_t_quantile(1 - alpha / 2, ci->df), up, down;

	ci->est_pct = to_pct(d);
	ci->lo_pct = to_pct(d - tq * ci->se);
	ci->hi_pct = to_pct(d + tq * ci->se);
	up = log1p(t / 100);
	down = t < 100 ? log1p(-t / 100) : -INFINITY;
	if (ci->se > 0) {
		double p_up = 1 - kb_t_cdf((d - up) / ci->se, ci->df);
		double p_down = kb_t_cdf((d - down) / ci->se, ci->df);

		ci->p = fmin(1, 2 * fmin(p_up, p_down));
	} else {
		ci->p = d > up || d < down ? 0 : 1;
	}
	ci->resolvable_pct = to_pct(up + (tq + kb_t_quantile(0.8, ci->df)) *
				    ci->se);
	ci->p_zero = ci->se > 0 ?
		     2 * kb_t_cdf(-fabs(d) / ci->se, ci->df) : d != 0 ? 0 : 1;
	ci->resolvable_est_pct = to_pct(fmax(up, tq * ci->se) +
					kb_t_quantile(0.8, ci->df) * ci->se);
}

static void clear(struct kb_runs_ci *ci)
{
	ci->est_pct = ci->lo_pct = ci->hi_pct = ci->p = NAN;
	ci->se = ci->df = ci->resolvable_pct = NAN;
	ci->p_zero = ci->resolvable_est_pct = NAN;
	ci->spread_a_pct = ci->spread_b_pct = ci->spread_pct = NAN;
	ci->gm_a = ci->gm_b = NAN;
}

int kb_runs_interval(const double *ma, unsigned int ra, const double *mb,
		     unsigned int rb, struct kb_runs_ci *ci)
{
	double mean_a, var_a, mean_b, var_b, va, vb;
	double alpha = ci->alpha > 0 && ci->alpha < 1 ? ci->alpha : 0.05;

	clear(ci);
	if (ra < 2 || rb < 2 || !log_moments(ma, ra, &mean_a, &var_a) ||
	    !log_moments(mb, rb, &mean_b, &var_b))
		return -EINVAL;
	ci->gm_a = exp(mean_a);
	ci->gm_b = exp(mean_b);
	ci->spread_a_pct = sqrt(var_a) * 100;
	ci->spread_b_pct = sqrt(var_b) * 100;
	ci->spread_pct = sqrt(((ra - 1) * var_a + (rb - 1) * var_b) /
			      (ra + rb - 2)) * 100;
	va = var_a / ra;
	vb = var_b / rb;
	ci->se = sqrt(va + vb);
	/* Welch-Satterthwaite; all runs alike (se 0): the pooled count */
	ci->df = va + vb > 0 ?
		 (va + vb) * (va + vb) /
		 (va * va / (ra - 1) + vb * vb / (rb - 1)) :
		 (double)(ra + rb - 2);
	finish(ci, mean_b - mean_a, alpha);
	return 0;
}

int kb_runs_predict(const double *m, unsigned int r, double y,
		    bool single_is_new, struct kb_runs_ci *ci)
{
	double alpha = ci->alpha > 0 && ci->alpha < 1 ? ci->alpha : 0.05;
	double mean, var;

	clear(ci);
	if (r < 2 || !(y > 0) || !isfinite(y) || !log_moments(m, r, &mean, &var))
		return -EINVAL;
	ci->gm_a = single_is_new ? exp(mean) : y;
	ci->gm_b = single_is_new ? y : exp(mean);
	ci->spread_a_pct = single_is_new ? sqrt(var) * 100 : NAN;
	ci->spread_b_pct = single_is_new ? NAN : sqrt(var) * 100;
	ci->spread_pct = sqrt(var) * 100;
	ci->se = sqrt(var * (1 + 1.0 / r));
	ci->df = r - 1;
	finish(ci, log(ci->gm_b) - log(ci->gm_a), alpha);
	return 0;
}

int kb_runs_paired(const double *ma, const double *mb, unsigned int r,
		   struct kb_runs_ci *ci)
{
	double alpha = ci->alpha > 0 && ci->alpha < 1 ? ci->alpha : 0.05;
	double mean_a, var_a, mean_b, var_b, mean = 0, ss = 0, d;
	unsigned int i;

	clear(ci);
	if (r < 2 || !log_moments(ma, r, &mean_a, &var_a) ||
	    !log_moments(mb, r, &mean_b, &var_b))
		return -EINVAL;
	ci->gm_a = exp(mean_a);
	ci->gm_b = exp(mean_b);
	ci->spread_a_pct = sqrt(var_a) * 100;
	ci->spread_b_pct = sqrt(var_b) * 100;
	for (i = 0; i < r; i++)
		mean += log(mb[i]) - log(ma[i]);
	mean /= r;
	for (i = 0; i < r; i++) {
		d = log(mb[i]) - log(ma[i]) - mean;
		ss += d * d;
	}
	/* the spread of the change from run to run: what pairing leaves */
	ci->spread_pct = sqrt(ss / (r - 1)) * 100;
	ci->se = sqrt(ss / (r - 1) / r);
	ci->df = r - 1;
	finish(ci, mean, alpha);
	return 0;
}
