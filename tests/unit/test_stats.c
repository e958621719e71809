// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics against numpy/scipy reference values (fixtures/, made by
 * gen_fixtures.py), plus the bootstrap, verdicts and stability.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "verdict.h"
#include "tap.h"
#include "tests.h"

/* fixtures/@name, or NULL after a failed check that names it */
static FILE *fixture(const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fixtures_dir, name);
	f = fopen(path, "r");
	if (!f)
		ok(0, "fixture %s readable", path);
	return f;
}

/* Parse "word v1 v2 ..." into a malloc'd array. */
static double *parse_values(char *line, size_t *n)
{
	size_t cap = 64;
	double *v = malloc(cap * sizeof(*v));
	char *tok = strtok(line, " \n");

	*n = 0;
	for (tok = strtok(NULL, " \n"); tok; tok = strtok(NULL, " \n")) {
		if (*n == cap)
			v = realloc(v, (cap *= 2) * sizeof(*v));
		v[(*n)++] = strtod(tok, NULL);
	}
	return v;
}

static int check(const char *ds, const char *key, double got, double want,
		 double rel)
{
	if (close_to(got, want, rel))
		return 1;
	diag("%s: %s = %.17g, want %.17g", ds, key, got, want);
	return 0;
}

static void stats_fixtures(void)
{
	static char line[1 << 16];
	char name[64] = "";
	double *x = NULL;
	size_t n = 0;
	struct kb_stats s;
	int good = 1, datasets = 0;
	FILE *f = fixture("stats.txt");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char key[32];
		double want;

		if (line[0] == '#')
			continue;
		if (!strncmp(line, "dataset ", 8)) {
			sscanf(line + 8, "%63s", name);
			good = 1;
			continue;
		}
		if (!strncmp(line, "data ", 5)) {
			free(x);
			x = parse_values(line, &n);
			qsort(x, n, sizeof(*x), kb_cmp_double);
			kb_stats_sorted(x, n, &s);
			continue;
		}
		if (!strncmp(line, "end", 3)) {
			ok(good, "stats of %s (n=%zu) match numpy/scipy", name, n);
			datasets++;
			continue;
		}
		if (sscanf(line, "%31s %lf", key, &want) != 2)
			continue;
#define K(k, v, rel) else if (!strcmp(key, k)) good &= check(name, k, v, want, rel)
		if (0)
			;
		K("count", (double)s.count, 0);
		K("min", s.min, 1e-12);
		K("max", s.max, 1e-12);
		K("mean", s.mean, 1e-12);
		K("stddev", s.stddev, 1e-10);
		K("median", s.median, 1e-12);
		K("mad", s.mad, 1e-12);
		K("p1", s.p1, 1e-12);
		K("p5", s.p5, 1e-12);
		K("p25", s.p25, 1e-12);
		K("p75", s.p75, 1e-12);
		K("p95", s.p95, 1e-12);
		K("p99", s.p99, 1e-12);
		K("cv", s.cv, 1e-10);
		K("ci_lo", s.ci_lo, 0);
		K("ci_hi", s.ci_hi, 0);
		K("ci_coverage", s.ci_coverage, 1e-9);
		K("mild", (double)s.mild, 0);
		K("severe", (double)s.severe, 0);
		K("mode", s.mode.mode, 1e-12);
		K("mode_share", s.mode.share, 1e-12);
		K("mode_pure", (double)s.mode.pure, 0);
		K("mode_count", (double)s.mode.count, 0);
#undef K
	}
	free(x);
	fclose(f);
	ok(datasets >= 9, "all %d stats datasets checked", datasets);
}

static void median_ci_fixtures(void)
{
	FILE *f = fixture("median_ci.txt");
	char line[256];
	int good = 1, lines = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t n, r, s, gr, gs;
		double cov, gcov;

		if (line[0] == '#' || sscanf(line, "%zu %zu %zu %lf", &n, &r, &s, &cov) != 4)
			continue;
		kb_median_ci_ranks(n, &gr, &gs, &gcov);
		lines++;
		if (gr != r || gs != s || !close_to(gcov, cov, 1e-9)) {
			diag("n=%zu: ranks %zu..%zu cov %.12g, want %zu..%zu cov %.12g",
			     n, gr, gs, gcov, r, s, cov);
			good = 0;
		}
	}
	fclose(f);
	ok(good && lines >= 10, "median CI order-statistic ranks match scipy binom (%d sizes up to 100000)",
	   lines);
}

static void mann_whitney_fixtures(void)
{
	static char line[1 << 16];
	char name[64] = "";
	double *a = NULL, *b = NULL, u = 0, p = 0, want;
	size_t na = 0, nb = 0;
	int cases = 0;
	FILE *f = fixture("mannwhitney.txt");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "case ", 5)) {
			sscanf(line + 5, "%63s", name);
		} else if (!strncmp(line, "a ", 2)) {
			free(a);
			a = parse_values(line, &na);
		} else if (!strncmp(line, "b ", 2)) {
			free(b);
			b = parse_values(line, &nb);
			/* the order of the values does not change U or p */
			qsort(a, na, sizeof(*a), kb_cmp_double);
			qsort(b, nb, sizeof(*b), kb_cmp_double);
			kb_mann_whitney_sorted(a, na, b, nb, &u, &p);
		} else if (sscanf(line, "u %lf", &want) == 1) {
			ok(check(name, "U", u, want, 1e-12),
			   "Mann-Whitney U of '%s' = %.1f (scipy)", name, want);
		} else if (sscanf(line, "p %lf", &want) == 1) {
			ok(check(name, "p", p, want, 1e-7),
			   "Mann-Whitney p of '%s' = %.6g (scipy)", name, want);
			cases++;
		}
	}
	free(a);
	free(b);
	fclose(f);
	ok(cases >= 6, "%d Mann-Whitney cases checked", cases);
}

static void rng_fixtures(void)
{
	FILE *f = fixture("rng.txt");
	char line[512];
	int good = 1;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long seed, v[5];
		struct kb_rng r;
		int i;

		if (line[0] == '#' || sscanf(line, "%llu %llu %llu %llu %llu %llu", &seed,
					     &v[0], &v[1], &v[2], &v[3], &v[4]) != 6)
			continue;
		kb_rng_seed(&r, seed);
		for (i = 0; i < 5; i++)
			if (kb_rng_next(&r) != v[i])
				good = 0;
	}
	fclose(f);
	ok(good, "xoshiro256** with splitmix64 seeding matches the Python reference");
}

static void test_bootstrap(void)
{
	double a[500], b[500], c[500], lo1, hi1, lo2, hi2, lo3, hi3;
	struct kb_rng r;
	int i;

	kb_rng_seed(&r, 7);
	for (i = 0; i < 500; i++) {
		a[i] = 1000 + (double)kb_rng_below(&r, 100);
		b[i] = a[i] * 1.05;
	}
	/* c: the values of a in another order (a Fisher-Yates shuffle) */
	memcpy(c, a, sizeof(c));
	for (i = 499; i > 0; i--) {
		int j = (int)kb_rng_below(&r, (uint64_t)i + 1);
		double t = c[i];

		c[i] = c[j];
		c[j] = t;
	}
	qsort(a, 500, sizeof(double), kb_cmp_double);
	qsort(b, 500, sizeof(double), kb_cmp_double);
	qsort(c, 500, sizeof(double), kb_cmp_double);
	kb_bootstrap_rel_median_ci(a, 500, b, 500, 2000, 42, &lo1, &hi1);
	kb_bootstrap_rel_median_ci(a, 500, b, 500, 2000, 42, &lo2, &hi2);
	ok(lo1 == lo2 && hi1 == hi2, "bootstrap CI is reproducible with a seed (%.4f..%.4f)",
	   lo1, hi1);
	kb_bootstrap_rel_median_ci(a, 500, b, 500, 2000, 43, &lo3, &hi3);
	ok(lo3 != lo1 || hi3 != hi1, "another seed gives another resampling");
	ok(lo1 < 5.0 + 1e-9 && hi1 > 5.0 - 1e-9 && hi1 - lo1 < 8,
	   "bootstrap CI of a 5%% shift contains 5%% (%.3f..%.3f)", lo1, hi1);
	kb_bootstrap_rel_median_ci(a, 500, c, 500, 2000, 42, &lo1, &hi1);
	ok(lo1 < 0 && hi1 > 0, "bootstrap CI of one sample against itself contains 0 (%.3f..%.3f)",
	   lo1, hi1);
	{
		double k[3] = { 6000, 6000, 6000 };

		kb_bootstrap_rel_median_ci(k, 3, k, 3, 100, 1, &lo1, &hi1);
		ok(lo1 == 0 && hi1 == 0, "bootstrap CI of identical constants is exactly 0");
	}
	{
		/* below(): all residues reachable and none out of range */
		int seen[7] = { 0 }, bad = 0, all = 1;

		kb_rng_seed(&r, 3);
		for (i = 0; i < 7000; i++) {
			uint64_t v = kb_rng_below(&r, 7);

			if (v >= 7)
				bad = 1;
			else
				seen[v]++;
		}
		for (i = 0; i < 7; i++)
			all &= seen[i] > 800 && seen[i] < 1200;
		ok(!bad && all, "kb_rng_below(7) is in range and roughly uniform");
	}
}

static void test_z(void)
{
	struct kb_stats a = { .count = 100, .mean = 10, .stddev = 2 };
	struct kb_stats b = { .count = 50, .mean = 11, .stddev = 3 };

	/* hand-computed: 1 / sqrt(4/100 + 9/50) = 1 / sqrt(0.22) */
	ok(close_to(kb_z(&a, &b), 1 / sqrt(0.22), 1e-12), "Z = %.6f (hand-computed 2.132007)",
	   kb_z(&a, &b));
}

static void verdict_case(double rel, double lo, double hi, double p,
			 double thr, enum kb_verdict want, bool below,
			 const char *text)
{
	struct kb_compare c = { .rel_median_pct = rel, .ci_lo_pct = lo,
				.ci_hi_pct = hi, .p = p, .threshold_pct = thr };
	char buf[256];

	kb_compare_decide(&c);
	kb_compare_text(&c, "foo", "foobar", buf, sizeof(buf));
	if (!ok(c.verdict == want && c.below_threshold == below &&
		(!text || !strcmp(buf, text)),
		"verdict %+.1f%% [%+.1f, %+.1f] p=%g thr=%g: %s", rel, lo, hi, p,
		thr, kb_verdict_name(want)))
		diag("got %s below=%d: '%s'", kb_verdict_name(c.verdict),
		     c.below_threshold, buf);
}

static void test_verdicts(void)
{
	char buf[256];
	struct kb_compare c = { .rel_median_pct = 0.1, .ci_lo_pct = -0.2,
				.ci_hi_pct = 0.4, .p = 0.5, .threshold_pct = 1 };

	/* the CI decides; the p-value is never printed in the verdict */
	verdict_case(-3.1, -3.5, -2.7, 1e-6, 1, KB_VERDICT_FASTER, false,
		     "foobar is 3.1% faster than foo (95% CI 2.7\u20133.5%)");
	verdict_case(12.25, 11.5, 13.0, 0.0123, 1, KB_VERDICT_SLOWER, false,
		     "foobar is 12.2% slower than foo (95% CI 11.5\u201313.0%)");
	verdict_case(0.4, 0.2, 0.6, 1e-5, 1, KB_VERDICT_EQUAL, true,
		     "no difference beyond the 1% threshold between foo and foobar (+0.40%, 95% CI +0.20% to +0.60%)");
	verdict_case(0.4, 0.2, 0.6, 1e-5, 0.1, KB_VERDICT_SLOWER, false, NULL);
	/* the CI reaches across +1%: inconclusive, and what would resolve it */
	verdict_case(2.0, -1.0, 5.0, 0.31, 1, KB_VERDICT_EQUAL, false,
		     "inconclusive between foo and foobar at the 1% threshold (+2.0%, 95% CI -1.0% to +5.0% reaches across +1%): a CI half-width under 1.00% (now 3.00%) would resolve it: more samples (--samples, --precision) or replicated runs (--runs)");
	verdict_case(2.0, -1.0, 5.0, 0.31, 0, KB_VERDICT_EQUAL, false,
		     "no significant difference between foo and foobar (+2.0%, 95% CI -1.0% to +5.0%)");
	/* a true +0.9% at a 1% threshold: significant, not called, inconclusive */
	verdict_case(1.1, 0.7, 1.5, 0.01, 1, KB_VERDICT_EQUAL, true, NULL);
	/* p small but the CI holds 0: not called */
	verdict_case(-2.0, -4.0, 0.5, 0.01, 1, KB_VERDICT_EQUAL, false, NULL);
	/* p large but the CI excludes 0: the CI decides, slower */
	verdict_case(2.0, 1.5, 2.5, 0.2, 1, KB_VERDICT_SLOWER, false, NULL);
	/* rel beyond the threshold but CI within +-threshold */
	verdict_case(-1.0, -1.5, -0.5, 0.001, 2, KB_VERDICT_EQUAL, true, NULL);
	/* the sign: rel < 0 means b faster */
	verdict_case(-5, -6, -4, 0.0001, 1, KB_VERDICT_FASTER, false, NULL);
	verdict_case(NAN, NAN, NAN, NAN, 1, KB_VERDICT_EQUAL, false, NULL);

	/* A/A and the anytime CI are labelled */
	c.sequential = true;
	kb_compare_decide(&c);
	kb_compare_text(&c, "add_n:64", "add_n:64", buf, sizeof(buf));
	ok(!strcmp(buf, "no significant difference between add_n:64 and add_n:64 (+0.10%, 95% anytime CI -0.20% to +0.40%) [A/A: the same routine twice]"),
	   "A/A, anytime CI: '%s'", buf);
}

static void test_mode(void)
{
	double x[100];
	struct kb_mode m;
	int i;

	for (i = 0; i < 100; i++)
		x[i] = 6000;
	kb_mode_sorted(x, 100, &m);
	ok(m.pure && m.mode == 6000 && m.share == 1, "mode of a constant: pure, share 1");

	/* 60 x 6000, 30 x 6001, tail up to 9000: two rounds to 6000 */
	for (i = 0; i < 60; i++)
		x[i] = 6000;
	for (i = 60; i < 90; i++)
		x[i] = 6001;
	for (i = 90; i < 100; i++)
		x[i] = 6500 + 50 * (i - 90);
	kb_mode_sorted(x, 100, &m);
	ok(m.pure && m.mode == 6000 && close_to(m.share, 0.6, 1e-12) && m.rounds >= 1,
	   "mode filtering finds 6000 (share %.2f, %u rounds)", m.share, m.rounds);

	/* all distinct, evenly spread: the tallest bin has one value: stable */
	for (i = 0; i < 20; i++)
		x[i] = i;
	kb_mode_sorted(x, 20, &m);
	ok(!m.pure && m.count == 20 && m.mode == 9.5, "mode of a flat distribution is not pure (median %.1f)",
	   m.mode);
	kb_mode_sorted(x, 0, &m);
	ok(isnan(m.mode) && m.count == 0, "mode of nothing is NaN");
}

static void test_stability(void)
{
	struct kb_stats s = { .count = 1000, .mean = 6, .stddev = 0.01,
			      .median = 6, .mad = 0.01, .ci_lo = 5.99,
			      .ci_hi = 6.01, .far_high = 40 };
	struct kb_verdict_in in = { .st = &s, .excluded = 0, .samples = 1000,
				    .iterations = 1000, .counter_constant = true,
				    .cpu_share = NAN };
	struct kb_stability v;
	char rate[48];

	/* a tail the median ignores: CV 300%, 4% far above -- stable */
	s.stddev = 18;
	s.cv = 3;
	kb_verdict(&in, &v);
	ok(v.stable && v.nreasons == 0, "stable: CV 300%% and 40 of 1000 far above do not count (%u reasons)",
	   v.nreasons);

	/* every reason, in order, each with its number and threshold */
	s.mad = 0.6;		/* 1.4826 * 0.6 / 6 = 14.83% */
	s.far_high = 120;	/* 12% */
	s.ci_lo = 5.9;		/* half-width 0.1 / 6 = 1.67% */
	s.count = 20;
	s.far_high = 3;		/* 15% of 20 */
	in.excluded = 50;
	in.samples = 1050;	/* 4.8% */
	in.cpu_share = 0.52;
	in.elapsed_s = 0.17;
	in.iterations = 10;
	in.counter_constant = false;
	in.timeout = true;
	kb_verdict(&in, &v);
	ok(!v.stable && v.nreasons == 9, "unstable: 9 reasons (%u)", v.nreasons);
	ok(v.nreasons == 9 &&
	   strstr(v.reason[0], "only 20 valid samples") &&
	   strstr(v.reason[1], "robust CV (1.4826 MAD / median) 14.83% > 5%") &&
	   strstr(v.reason[2], "3 of 20 samples far above the median (15.0% > 10%): interrupts") &&
	   strstr(v.reason[3], "95% CI half-width 1.67% of the median > 0.5%") &&
	   strstr(v.reason[4], "50 of 1050 samples flagged and excluded (4.8% > 2%") &&
	   strstr(v.reason[5], "the CPU was shared: the run had it 52% of its 0.17 s (< 90%)") &&
	   strstr(v.reason[6], "(10 < 100)") &&
	   strstr(v.reason[7], "not constant") &&
	   strstr(v.reason[8], "timed out"),
	   "the reasons name their figures and thresholds");
	if (v.nreasons == 9)
		diag("%s | %s | %s | %s | %s | %s", v.reason[1], v.reason[2],
		     v.reason[3], v.reason[4], v.reason[5], v.reason[6]);
	ok(close_to(kb_robust_rsd(&s), 1.4826 * 0.6 / 6, 1e-15) &&
	   close_to(kb_median_precision(&s), 0.1 / 6, 1e-15),
	   "robust CV %.6f, precision %.6f", kb_robust_rsd(&s),
	   kb_median_precision(&s));

	kb_format_rate(1536, true, rate, sizeof(rate));
	ok(!strcmp(rate, "1.50 KiB/s"), "1536 B/s is '%s'", rate);
	kb_format_rate(3.0 * 1024 * 1024 * 1024, true, rate, sizeof(rate));
	ok(!strcmp(rate, "3.00 GiB/s"), "3 GiB/s is '%s'", rate);
	kb_format_rate(312.5e6, false, rate, sizeof(rate));
	ok(!strcmp(rate, "312.50 Mops/s"), "312.5e6 ops/s is '%s'", rate);
}

static void test_quantile_edges(void)
{
	double one = 42, two[2] = { 1, 2 };
	struct kb_stats s;

	kb_stats_sorted(&one, 1, &s);
	ok(s.min == 42 && s.median == 42 && s.p99 == 42 && isnan(s.stddev) &&
	   s.ci_lo == 42 && s.ci_hi == 42, "one value: quantiles equal it, stddev undefined");
	kb_stats_sorted(two, 2, &s);
	ok(s.median == 1.5 && close_to(s.p25, 1.25, 1e-15), "two values: median 1.5, p25 1.25");
	kb_stats_sorted(NULL, 0, &s);
	ok(s.count == 0 && isnan(s.median), "no values: NaN everywhere");
}

void test_stats(void)
{
	stats_fixtures();
	median_ci_fixtures();
	mann_whitney_fixtures();
	rng_fixtures();
	test_bootstrap();
	test_z();
	test_verdicts();
	test_mode();
	test_stability();
	test_quantile_edges();
}
