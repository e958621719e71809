// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl statistics: summary, median CI, mode filtering, bootstrap,
 * Mann-Whitney U and the comparison verdict (the stability verdict:
 * verdict.c).  See stats.h for the
 * exact definitions.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seqtest.h"
#include "stats.h"

int kb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double kb_quantile_sorted(const double *x, size_t n, double q)
{
	double h, f;
	size_t i;

	if (!n)
		return NAN;
	h = (double)(n - 1) * q;
	i = (size_t)floor(h);
	if (i >= n - 1)
		return x[n - 1];
	f = h - (double)i;
	/* a + f (b - a) is exact when a == b, unlike (1 - f) a + f b */
	return x[i] + f * (x[i + 1] - x[i]);
}

double kb_median_sorted(const double *x, size_t n)
{
	if (!n)
		return NAN;
	if (n & 1)
		return x[n / 2];
	return (x[n / 2 - 1] + x[n / 2]) / 2;
}

void kb_median_ci_ranks(size_t n, size_t *r, size_t *s, double *coverage)
{
	kb_median_ci_ranks_alpha(n, 0.05, r, s, coverage);
}

/*
 * Mode by iterative max-bin filtering: bin the current set into
 * KB_MODE_BINS equal bins between its min and max, keep the tallest bin
 * (the lowest on a tie) and repeat, until the set holds one distinct value
 * (pure) or stops shrinking or its tallest bin has fewer than two samples
 * (stable: the mode is the median of the set).
 */
void kb_mode_sorted(const double *x, size_t n, struct kb_mode *m)
{
	size_t b = 0, e = n;

	memset(m, 0, sizeof(*m));
	if (!n) {
		m->mode = NAN;
		return;
	}
	for (;;) {
		double lo = x[b], hi = x[e - 1], width;
		size_t i, best_b = b, best_e = b, cur_b = b;
		size_t k, cur_k;

		if (lo == hi) {
			m->pure = true;
			break;
		}
		if (m->rounds >= 64)
			break;
		width = (hi - lo) / KB_MODE_BINS;
		cur_k = 0;
		for (i = b; i <= e; i++) {
			if (i < e) {
				k = (size_t)((x[i] - lo) / width);
				if (k >= KB_MODE_BINS)
					k = KB_MODE_BINS - 1;
				if (k == cur_k)
					continue;
			}
			if (i - cur_b > best_e - best_b) {
				best_b = cur_b;
				best_e = i;
			}
			if (i < e) {
				cur_b = i;
				cur_k = k;
			}
		}
		if (best_e - best_b == e - b || best_e - best_b < 2)
			break;
		b = best_b;
		e = best_e;
		m->rounds++;
	}
	m->mode = m->pure ? x[b] : kb_median_sorted(x + b, e - b);
	m->count = e - b;
	m->share = (double)(e - b) / (double)n;
}

void kb_stats_sorted(const double *x, size_t n, struct kb_stats *s)
{
	double sum = 0, ss = 0, iqr, far;
	double *dev;
	size_t i, r, rs;

	memset(s, 0, sizeof(*s));
	s->count = n;
	s->ci_widen = 1;
	if (!n) {
		s->ci_widen = NAN;
		s->min = s->max = s->mean = s->stddev = s->median = NAN;
		s->mad = s->p1 = s->p5 = s->p25 = s->p75 = s->p95 = NAN;
		s->p99 = s->cv = s->ci_lo = s->ci_hi = NAN;
		s->mode.mode = NAN;
		return;
	}
	s->min = x[0];
	s->max = x[n - 1];
	for (i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
	s->cv = s->mean != 0 ? s->stddev / s->mean : NAN;
	s->median = kb_median_sorted(x, n);
	s->p1 = kb_quantile_sorted(x, n, 0.01);
	s->p5 = kb_quantile_sorted(x, n, 0.05);
	s->p25 = kb_quantile_sorted(x, n, 0.25);
	s->p75 = kb_quantile_sorted(x, n, 0.75);
	s->p95 = kb_quantile_sorted(x, n, 0.95);
	s->p99 = kb_quantile_sorted(x, n, 0.99);

	/* MAD: |x - median| is V-shaped over sorted x; merge both arms */
	dev = malloc(n * sizeof(*dev));
	if (dev) {
		size_t lo, hi, k = 0;

		hi = 0;
		while (hi < n && x[hi] < s->median)
			hi++;
		lo = hi;
		while (k < n) {
			double dl = lo > 0 ? s->median - x[lo - 1] : INFINITY;
			double dh = hi < n ? x[hi] - s->median : INFINITY;

			if (dl <= dh) {
				dev[k++] = dl;
				lo--;
			} else {
				dev[k++] = dh;
				hi++;
			}
		}
		s->mad = kb_median_sorted(dev, n);
		free(dev);
	} else {
		s->mad = NAN;
	}

	kb_median_ci_ranks(n, &r, &rs, &s->ci_coverage);
	s->ci_lo = x[r - 1];
	s->ci_hi = x[rs - 1];

	iqr = s->p75 - s->p25;
	far = 3 * (iqr > 0.001 * fabs(s->median) ? iqr : 0.001 * fabs(s->median));
	for (i = 0; i < n; i++) {
		if (x[i] > s->p75 + far)
			s->far_high++;
		if (x[i] < s->p25 - 3 * iqr || x[i] > s->p75 + 3 * iqr)
			s->severe++;
		else if (x[i] < s->p25 - 1.5 * iqr || x[i] > s->p75 + 1.5 * iqr)
			s->mild++;
	}
	kb_mode_sorted(x, n, &s->mode);
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void kb_rng_seed(struct kb_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t kb_rng_next(struct kb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t kb_rng_below(struct kb_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)kb_rng_next(r) * n;
	uint64_t l = (uint64_t)m;

	if (l < n) {
		uint64_t t = -n % n;

		while (l < t) {
			m = (unsigned __int128)kb_rng_next(r) * n;
			l = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/*
 * Median of a resample with replacement of sorted @x: count how often each
 * rank is drawn and walk the counts; O(n) per resample, no sort.
 */
static double resample_median(const double *x, size_t n, uint32_t *counts,
			      struct kb_rng *rng)
{
	size_t i, k1 = (n - 1) / 2, k2 = n / 2, cum = 0;
	double v1 = NAN;

	memset(counts, 0, n * sizeof(*counts));
	for (i = 0; i < n; i++)
		counts[kb_rng_below(rng, n)]++;
	for (i = 0; i < n; i++) {
		cum += counts[i];
		if (isnan(v1) && cum > k1)
			v1 = x[i];
		if (cum > k2)
			return (v1 + x[i]) / 2;
	}
	return v1;
}

/* Uniform in (0, 1), never 0 (logarithms below). */
static double rng_open01(struct kb_rng *rng)
{
	return ((double)(kb_rng_next(rng) >> 11) + 0.5) * 0x1.0p-53;
}

/* Standard normal (Box-Muller, one of the pair). */
static double rng_normal(struct kb_rng *rng)
{
	double u1 = rng_open01(rng), u2 = rng_open01(rng);

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* Gamma(a, 1) for a >= 1: Marsaglia and Tsang (2000). */
static double rng_gamma(struct kb_rng *rng, double a)
{
	double d = a - 1.0 / 3, c = 1 / sqrt(9 * d);

	for (;;) {
		double x = rng_normal(rng), v = 1 + c * x, u;

		if (v <= 0)
			continue;
		v = v * v * v;
		u = rng_open01(rng);
		if (u < 1 - 0.0331 * x * x * x * x ||
		    log(u) < 0.5 * x * x + d * (1 - v + log(v)))
			return d * v;
	}
}

/*
 * The same in O(1) for large n.  A resample draws n indices floor(n U_i);
 * its k-th smallest index is floor(n U_(k)) with U_(k) ~ Beta(k, n + 1 - k),
 * and given U_(k) = u the next order statistic is u + (1 - u) (1 - V^(1/(n-k))).
 * So the resample's median has exactly the distribution of the counting
 * method above, at the cost of three gamma variates instead of n draws:
 * what makes a million-sample bootstrap (kbenchctl diff) take milliseconds.
 */
static double resample_median_os(const double *x, size_t n, struct kb_rng *rng)
{
	size_t k1 = (n - 1) / 2, k2 = n / 2, i1, i2;
	double ga = rng_gamma(rng, (double)(k1 + 1));
	double gb = rng_gamma(rng, (double)(n - k1));
	double u = ga / (ga + gb);

	i1 = (size_t)((double)n * u);
	if (i1 >= n)
		i1 = n - 1;
	if (k2 == k1)
		return x[i1];
	u += (1 - u) * -expm1(log(rng_open01(rng)) / (double)(n - k1 - 1));
	i2 = (size_t)((double)n * u);
	if (i2 >= n)
		i2 = n - 1;
	return (x[i1] + x[i2]) / 2;
}

static double resample(const double *x, size_t n, uint32_t *counts,
		       struct kb_rng *rng)
{
	if (n > KB_BOOTSTRAP_COUNTING_MAX)
		return resample_median_os(x, n, rng);
	return resample_median(x, n, counts, rng);
}

int kb_bootstrap_rel_median_ci(const double *a, size_t na, const double *b,
			       size_t nb, unsigned int resamples,
			       uint64_t seed, double *lo, double *hi)
{
	struct kb_rng rng;
	uint32_t *counts;
	double *rel;
	unsigned int i;

	*lo = *hi = NAN;
	if (!na || !nb || !resamples)
		return -EINVAL;
	counts = malloc(((na > nb ? na : nb) < KB_BOOTSTRAP_COUNTING_MAX ?
			 (na > nb ? na : nb) : KB_BOOTSTRAP_COUNTING_MAX) *
			sizeof(*counts));
	rel = malloc(resamples * sizeof(*rel));
	if (!counts || !rel) {
		free(counts);
		free(rel);
		return -ENOMEM;
	}
	kb_rng_seed(&rng, seed);
	for (i = 0; i < resamples; i++) {
		double ma = resample(a, na, counts, &rng);
		double mb = resample(b, nb, counts, &rng);

		rel[i] = (mb - ma) / ma * 100;
	}
	qsort(rel, resamples, sizeof(*rel), kb_cmp_double);
	*lo = kb_quantile_sorted(rel, resamples, 0.025);
	*hi = kb_quantile_sorted(rel, resamples, 0.975);
	free(counts);
	free(rel);
	return 0;
}

int kb_mann_whitney_sorted(const double *a, size_t na, const double *b,
			   size_t nb, double *u, double *p)
{
	size_t n = na + nb, i = 0, j = 0;
	double r1 = 0, tie = 0, u1, u2, umax, mu, sd, z;

	*u = *p = NAN;
	if (!na || !nb)
		return -EINVAL;
	/* merge: each run of equal values shares the average of its ranks */
	while (i < na || j < nb) {
		double v = i < na && (j >= nb || a[i] <= b[j]) ? a[i] : b[j];
		size_t ca = 0, cb = 0, first = i + j + 1, t;

		while (i < na && a[i] == v) {
			i++;
			ca++;
		}
		while (j < nb && b[j] == v) {
			j++;
			cb++;
		}
		t = ca + cb;
		r1 += (double)ca * ((double)first + (double)(first + t - 1)) / 2;
		tie += (double)t * (double)t * (double)t - (double)t;
	}
	u1 = r1 - (double)na * ((double)na + 1) / 2;
	u2 = (double)na * (double)nb - u1;
	umax = u1 > u2 ? u1 : u2;
	mu = (double)na * (double)nb / 2;
	sd = sqrt((double)na * (double)nb / 12 *
		  (((double)n + 1) - tie / ((double)n * ((double)n - 1))));
	*u = u1;
	if (!(sd > 0)) {
		*p = 1;
		return 0;
	}
	z = (umax - mu - 0.5) / sd;
	*p = erfc(z / sqrt(2.0));
	if (*p > 1)
		*p = 1;
	return 0;
}

double kb_z(const struct kb_stats *a, const struct kb_stats *b)
{
	double se = sqrt(a->stddev * a->stddev / (double)a->count +
			 b->stddev * b->stddev / (double)b->count);

	if (se == 0)
		return a->mean == b->mean ? 0 : INFINITY;
	return fabs(a->mean - b->mean) / se;
}

const char *kb_verdict_name(enum kb_verdict v)
{
	switch (v) {
	case KB_VERDICT_FASTER:
		return "faster";
	case KB_VERDICT_SLOWER:
		return "slower";
	default:
		return "equal";
	}
}

const char *kb_compare_call_name(const struct kb_compare *c)
{
	return c->inconclusive ? "inconclusive" : kb_verdict_name(c->verdict);
}

/*
 * The whole CI decides (stats.h): a call needs every value the CI holds
 * to be beyond the threshold, so that a true change just under it is not
 * called from a lucky point estimate.
 */
void kb_compare_decide(struct kb_compare *c)
{
	double t = c->threshold_pct, lo = c->ci_lo_pct, hi = c->ci_hi_pct;

	c->below_threshold = false;
	c->inconclusive = false;
	c->estimate_rule = false;
	c->by_estimate = false;
	c->resolve_halfwidth_pct = NAN;
	if (isnan(lo) || isnan(hi)) {
		c->verdict = KB_VERDICT_EQUAL;
		c->inconclusive = true;
		return;
	}
	if (lo > t) {
		c->verdict = KB_VERDICT_SLOWER;
	} else if (hi < -t) {
		c->verdict = KB_VERDICT_FASTER;
	} else {
		c->verdict = KB_VERDICT_EQUAL;
		c->below_threshold = lo > 0 || hi < 0;
		if (t > 0 && !(lo >= -t && hi <= t)) {
			c->inconclusive = true;
			/* the estimate stays; the CI must not reach the nearer side */
			c->resolve_halfwidth_pct = fabs(fabs(c->rel_median_pct) - t);
		}
	}
}

void kb_compare_decide_estimate(struct kb_compare *c)
{
	double t = c->threshold_pct, lo = c->ci_lo_pct, hi = c->ci_hi_pct;
	double est = c->rel_median_pct;
	bool sig = lo > 0 || hi < 0;

	kb_compare_decide(c);
	c->estimate_rule = true;
	if (isnan(lo) || isnan(hi) || isnan(est))
		return;
	c->inconclusive = false;
	c->below_threshold = false;
	c->resolve_halfwidth_pct = NAN;
	if (sig && (est > t || est < -t)) {
		c->verdict = est > t ? KB_VERDICT_SLOWER : KB_VERDICT_FASTER;
		c->by_estimate = est > t ? !(lo > t) : !(hi < -t);
		return;
	}
	c->verdict = KB_VERDICT_EQUAL;
	c->below_threshold = sig;
	if (t > 0 && !(lo >= -t && hi <= t)) {
		c->inconclusive = true;
		/*
		 * beyond the threshold by its estimate: the CI must stop short
		 * of 0; within it: of the nearer side of the threshold
		 */
		c->resolve_halfwidth_pct = fabs(est) > t ? fabs(est) :
					   t - fabs(est);
	}
}

void kb_format_p(double p, char *buf, size_t len)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "< 0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

void kb_compare_text(const struct kb_compare *c, const char *a,
		     const char *b, char *buf, size_t len)
{
	int prec = fabs(c->rel_median_pct) < 1 ? 2 : 1;
	const char *ci = c->sequential ? "95% anytime CI" : "95% CI";
	const char *aa = strcmp(a, b) ? "" : " [A/A: the same routine twice]";

	switch (c->verdict) {
	case KB_VERDICT_FASTER:
		snprintf(buf, len, "%s is %.*f%% faster than %s (%s %.*f\u2013%.*f%%)%s",
			 b, prec, -c->rel_median_pct, a, ci, prec, -c->ci_hi_pct,
			 prec, -c->ci_lo_pct, aa);
		break;
	case KB_VERDICT_SLOWER:
		snprintf(buf, len, "%s is %.*f%% slower than %s (%s %.*f\u2013%.*f%%)%s",
			 b, prec, c->rel_median_pct, a, ci, prec, c->ci_lo_pct,
			 prec, c->ci_hi_pct, aa);
		break;
	default:
		if (c->inconclusive && isnan(c->ci_lo_pct))
			snprintf(buf, len, "inconclusive between %s and %s: no interval could be made%s",
				 a, b, aa);
		else if (c->inconclusive)
			snprintf(buf, len, "inconclusive between %s and %s at the %g%% threshold (%+.*f%%, %s %+.*f%% to %+.*f%% reaches across %s%g%%): a CI half-width under %.2f%% (now %.2f%%) would resolve it: more samples (--samples, --precision) or replicated runs (--runs)%s",
				 a, b, c->threshold_pct, prec,
				 c->rel_median_pct, ci, prec, c->ci_lo_pct,
				 prec, c->ci_hi_pct,
				 c->ci_hi_pct > c->threshold_pct ? "+" : "-",
				 c->threshold_pct, c->resolve_halfwidth_pct,
				 (c->ci_hi_pct - c->ci_lo_pct) / 2, aa);
		else if (c->below_threshold)
			snprintf(buf, len, "no difference beyond the %g%% threshold between %s and %s (%+.*f%%, %s %+.*f%% to %+.*f%%)%s",
				 c->threshold_pct, a, b, prec,
				 c->rel_median_pct, ci, prec, c->ci_lo_pct,
				 prec, c->ci_hi_pct, aa);
		else
			snprintf(buf, len, "no significant difference between %s and %s (%+.*f%%, %s %+.*f%% to %+.*f%%)%s",
				 a, b, prec, c->rel_median_pct, ci, prec,
				 c->ci_lo_pct, prec, c->ci_hi_pct, aa);
	}
}

void kb_format_rate(double per_s, bool bytes, char *buf, size_t len)
{
	static const char *const bin[] = { "B/s", "KiB/s", "MiB/s", "GiB/s",
					   "TiB/s", "PiB/s" };
	static const char *const dec[] = { "ops/s", "Kops/s", "Mops/s",
					   "Gops/s", "Tops/s", "Pops/s" };
	double base = bytes ? 1024 : 1000;
	unsigned int i = 0;

	if (!isfinite(per_s)) {
		snprintf(buf, len, "-");
		return;
	}
	while (per_s >= base && i < 5) {
		per_s /= base;
		i++;
	}
	snprintf(buf, len, "%.2f %s", per_s, bytes ? bin[i] : dec[i]);
}
