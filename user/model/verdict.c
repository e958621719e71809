// SPDX-License-Identifier: GPL-2.0
/*
 * The stability verdict (verdict.h): robust spread, samples far above the
 * median, the precision of the median, flagged samples, the share of the
 * CPU the run had, the counter's rate.  Reasons in a fixed order, each
 * "figure > threshold".
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockboot.h"
#include "result.h"
#include "verdict.h"

static void add_reason(struct kb_stability *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_reason(struct kb_stability *v, const char *fmt, ...)
{
	va_list ap;

	v->stable = false;
	if (v->nreasons >= 10)
		return;
	va_start(ap, fmt);
	vsnprintf(v->buf[v->nreasons], sizeof(v->buf[0]), fmt, ap);
	va_end(ap);
	v->reason[v->nreasons] = v->buf[v->nreasons];
	v->nreasons++;
}

double kb_robust_rsd(const struct kb_stats *s)
{
	if (!s->count || s->median == 0)
		return NAN;
	return 1.4826 * s->mad / fabs(s->median);
}

double kb_median_precision(const struct kb_stats *s)
{
	double lo, hi;

	if (!s->count || s->median == 0)
		return NAN;
	lo = s->median - s->ci_lo;
	hi = s->ci_hi - s->median;
	return (lo > hi ? lo : hi) / fabs(s->median);
}

/* The valid values of @x[lo..hi), sorted, and their median and CI. */
static bool half_stats(const double *x, size_t lo, size_t hi,
		       struct kb_stats *st)
{
	double *v = malloc((hi - lo + 1) * sizeof(*v));
	size_t i, k = 0;

	if (!v)
		return false;
	for (i = lo; i < hi; i++)
		if (!isnan(x[i]))
			v[k++] = x[i];
	qsort(v, k, sizeof(*v), kb_cmp_double);
	kb_stats_sorted(v, k, st);
	free(v);
	return k >= 6;
}

double kb_halves_change(const double *x, size_t n, bool *apart)
{
	struct kb_stats h1, h2;
	double med = kb_median_of(x, n);

	*apart = false;
	if (!half_stats(x, 0, n / 2, &h1) || !half_stats(x, n / 2, n, &h2) ||
	    !(med != 0))
		return NAN;
	*apart = h1.ci_hi < h2.ci_lo || h2.ci_hi < h1.ci_lo;
	return (h2.median - h1.median) / fabs(med);
}

/*
 * The median of @x[from..to) relative to that of the rest of @x, in
 * percent (NAN skipped; NAN when either has none or the rest's is 0).
 */
static double shift_pct(const double *x, size_t n, size_t from, size_t to)
{
	double *rest = malloc((n ? n : 1) * sizeof(*rest)), in, out;
	size_t i, k = 0;

	if (!rest)
		return NAN;
	for (i = 0; i < n; i++)
		if (i < from || i >= to)
			rest[k++] = x[i];
	in = kb_median_of(x + from, to - from);
	out = kb_median_of(rest, k);
	free(rest);
	return out != 0 ? (in - out) / fabs(out) * 100 : NAN;
}

/* CPU time / wall time of a userspace run; NAN where not measured. */
static double kb_run_cpu_share(const struct kb_run *r)
{
	if (!r->wall_ns || !r->cpu_ns)
		return NAN;
	return (double)r->cpu_ns / (double)r->wall_ns;
}

void kb_result_stability(const struct kb_run *r, const struct kb_result *res,
			 struct kb_stability *v)
{
	double *x = kb_series_of(res->net, res->sflags, res->n, r->iterations);
	struct kb_verdict_in in = {
		.st = &res->st, .excluded = res->n - res->st.count,
		.samples = res->n, .iterations = r->iterations,
		.counter_constant = r->counter_constant,
		.timeout = r->status == KBENCH_RUN_TIMEOUT,
		.cpu_share = kb_run_cpu_share(r),
		.elapsed_s = (double)r->wall_ns / 1e9,
		.series = x, .nseries = x ? res->n : 0,
	};

	kb_verdict(&in, v);
	free(x);
}

void kb_verdict(const struct kb_verdict_in *in, struct kb_stability *v)
{
	const struct kb_stats *s = in->st;
	double rsd = kb_robust_rsd(s), prec = kb_median_precision(s);

	memset(v, 0, sizeof(*v));
	v->stable = true;
	if (s->count < KB_STABLE_SAMPLES_MIN)
		add_reason(v, "only %zu valid samples (want at least %d)",
			   s->count, KB_STABLE_SAMPLES_MIN);
	if (rsd > KB_STABLE_RSD_MAX)
		add_reason(v, "high spread: robust CV (1.4826 MAD / median) %.2f%% > %.0f%%",
			   rsd * 100, KB_STABLE_RSD_MAX * 100);
	if (s->count && (double)s->far_high > KB_STABLE_FAR_MAX * (double)s->count)
		add_reason(v, "%zu of %zu samples far above the median (%.1f%% > %.0f%%): interrupts or another task?",
			   s->far_high, s->count,
			   (double)s->far_high / (double)s->count * 100,
			   KB_STABLE_FAR_MAX * 100);
	if (prec > KB_STABLE_PREC_MAX)
		add_reason(v, "imprecise median: 95%% CI half-width %.2f%% of the median > %.1f%% (more samples: --precision)",
			   prec * 100, KB_STABLE_PREC_MAX * 100);
	if (in->series && in->nseries >= KB_STABLE_SAMPLES_MIN) {
		double rho = kb_lag1_autocorr(in->series, in->nseries), h;
		size_t len;
		bool apart;

		if (rho > KB_STABLE_LAG1_MAX)
			add_reason(v, "serially dependent: lag-1 autocorrelation %.2f > %.2f (drift or bursts: intervals use blocks of rounds)",
				   rho, KB_STABLE_LAG1_MAX);
		{
			/*
			 * level switching: the calibrated check of the ranks
			 * across time scales (blockboot.h), not the intervals'
			 * batch widening, which errs towards wide at about 5% a
			 * scale (independent samples called unstable 15% of the
			 * time with it and KPSS)
			 */
			double ratio, p = kb_scales_check(in->series, in->nseries,
							  &len, &ratio);

			if (p < KB_SCALES_P_CRIT)
				add_reason(v, "level switching or slow drift: the ranks in batches of %zu vary %.1fx what short-range dependence allows (p %.2g < %g across time scales)",
					   len, ratio, p, KB_SCALES_P_CRIT);
		}
		{
			/*
			 * a shifted stretch that the time scales miss: a short
			 * excursion, a shift near an edge (the segment scan of
			 * the ranks, blockboot.h; its false-alarm level and the
			 * scales' split the old 0.025 between them)
			 */
			struct kb_shift sh;
			double p = kb_shift_scan(in->series, in->nseries, &sh);
			size_t n = in->nseries;

			/*
			 * a segment and its complement are one split: the
			 * shorter named where it is one stretch
			 */
			if (sh.to - sh.from > n / 2 && (!sh.from || sh.to == n)) {
				size_t f = sh.from ? 0 : sh.to;

				sh.to = sh.from ? sh.from : n;
				sh.from = f;
			}
			if (p < KB_SHIFT_P_CRIT)
				add_reason(v, "level shift: samples %zu to %zu sat %+.2f%% from the others' median (standardized rank sum %.1f, p %.2g < %g, segment scan)",
					   sh.from, sh.to - 1,
					   shift_pct(in->series, in->nseries,
						     sh.from, sh.to),
					   sh.z, p, KB_SHIFT_P_CRIT);
		}
		h = kb_halves_change(in->series, in->nseries, &apart);
		if (apart && fabs(h) > KB_STABLE_HALVES_MAX)
			add_reason(v, "trend: the second half's median is %+.2f%% from the first's (> %.0f%%, CIs apart): the run drifted or stepped",
				   h * 100, KB_STABLE_HALVES_MAX * 100);
	}
	if (in->samples &&
	    (double)in->excluded > KB_STABLE_FLAGGED_MAX * (double)in->samples)
		add_reason(v, "%zu of %zu samples flagged and excluded (%.1f%% > %.0f%%; NMI/SMI/CPU change/window/reference/steal)",
			   in->excluded, in->samples,
			   (double)in->excluded / (double)in->samples * 100,
			   KB_STABLE_FLAGGED_MAX * 100);
	if (in->cpu_share < KB_STABLE_CPU_SHARE_MIN)
		add_reason(v, "the CPU was shared: the run had it %.0f%% of its %.2f s (< %.0f%%): another task on this CPU?",
			   in->cpu_share * 100, in->elapsed_s,
			   KB_STABLE_CPU_SHARE_MIN * 100);
	if (in->iterations < KB_STABLE_ITER_MIN)
		add_reason(v, "too few iterations per sample (%u < %d): counter reads and quantization dominate",
			   in->iterations, KB_STABLE_ITER_MIN);
	if (!in->counter_constant)
		add_reason(v, "counter rate not constant: frequency scaling changes the figures");
	if (in->timeout)
		add_reason(v, "run timed out before all samples were taken");
}
